/* Unit tests of libxperf-base: the error type, edit distance. */
#include <errno.h>
#include <string.h>

#include "base/edit_distance.h"
#include "base/error.h"
#include "unit.h"

static void error_set_and_clear(void)
{
	struct xb_error err;

	CHECK_EQ_U64(xb_error_set(&err, -ENOENT, "'%s': %s", "f.data", "gone"), (uint64_t)-ENOENT);
	CHECK_EQ_U64(err.code, (uint64_t)-ENOENT);
	CHECK_STR(err.msg, "'f.data': gone");
	/* a NULL error is allowed: the code still comes back */
	CHECK_EQ_U64(xb_error_set(NULL, -EINVAL, "x"), (uint64_t)-EINVAL);
	xb_error_clear(&err);
	CHECK_EQ_U64(err.code, 0);
	CHECK_STR(err.msg, "");
	xb_error_clear(NULL);
}

static void edit_distance(void)
{
	char a[301], b[301];

	CHECK_EQ_U64(xb_edit_distance("kitten", "sitting"), 3);
	CHECK_EQ_U64(xb_edit_distance("", "abc"), 3);
	CHECK_EQ_U64(xb_edit_distance("abc", ""), 3);
	CHECK_EQ_U64(xb_edit_distance("same", "same"), 0);
	/* an adjacent transposition is one edit */
	CHECK_EQ_U64(xb_edit_distance("record", "recrod"), 1);
	CHECK_EQ_U64(xb_edit_distance("ab", "ba"), 1);
	CHECK_EQ_U64(xb_edit_distance("ca", "abc"), 3);
	/* long words take the heap path and give the same answers */
	memset(a, 'x', 300);
	memset(b, 'x', 300);
	a[300] = b[300] = '\0';
	b[10] = 'y';
	a[200] = 'p', a[201] = 'q';
	b[200] = 'q', b[201] = 'p';
	CHECK_EQ_U64(xb_edit_distance(a, b), 2);
	CHECK_EQ_U64(xb_edit_distance(a, "x"), 299);
}

int main(void)
{
	RUN(error_set_and_clear);
	RUN(edit_distance);
	UNIT_MAIN_END();
}
