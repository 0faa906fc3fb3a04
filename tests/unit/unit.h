/* A small unit-test harness: each test file is one program printing ok / not ok lines. */
#ifndef XPERF_UNIT_H
#define XPERF_UNIT_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <inttypes.h>

/*
 * Protocol shared with tests/run.sh and tests/cmd/lib.sh: one line per test case,
 *     ok - NAME
 *     not ok - NAME: why
 *     skip - NAME: why
 * The program exits non-zero if any case failed.
 */
extern int unit_failed_cases;
extern int unit_case_failed;
extern int unit_case_skipped;
extern const char *unit_case_name;

#define UNIT_FAIL(...) do { \
	if (!unit_case_failed) printf("not ok - %s: ", unit_case_name); else printf("    also: "); \
	printf(__VA_ARGS__); printf(" (%s:%d)\n", __FILE__, __LINE__); \
	unit_case_failed = 1; } while (0)

#define CHECK(cond) do { if (!(cond)) UNIT_FAIL("check failed: %s", #cond); } while (0)
#define CHECK_EQ_U64(a, b) do { uint64_t _a = (uint64_t)(a), _b = (uint64_t)(b); \
	if (_a != _b) UNIT_FAIL("%s == %" PRIu64 ", expected %s == %" PRIu64, #a, _a, #b, _b); } while (0)
#define CHECK_STR(a, b) do { const char *_a = (a), *_b = (b); \
	if (!_a || !_b || strcmp(_a, _b)) UNIT_FAIL("%s == \"%s\", expected \"%s\"", #a, _a ? _a : "(null)", _b ? _b : "(null)"); } while (0)
/* Abort the current case (after a failed precondition) */
#define REQUIRE(cond) do { if (!(cond)) { UNIT_FAIL("required: %s", #cond); return; } } while (0)

/* Run one case: void fn(void). */
#define RUN(fn) do { unit_case_name = #fn; unit_case_failed = 0; unit_case_skipped = 0; fn(); \
	if (unit_case_failed) unit_failed_cases++; \
	else if (!unit_case_skipped) printf("ok - %s\n", #fn); \
	fflush(stdout); } while (0)
#define SKIP(fn, why) do { printf("skip - %s: %s\n", #fn, why); } while (0)
/* End the current case as skipped, printf-style why: its precondition is missing. No ok. */
#define UNIT_SKIP(...) do { printf("skip - %s: ", unit_case_name); printf(__VA_ARGS__); \
	printf("\n"); unit_case_skipped = 1; return; } while (0)

#define UNIT_MAIN_END() return unit_failed_cases ? 1 : 0

/*
 * A path in the build tree this program belongs to ("workloads/shares" ->
 * BUILD/workloads/shares), wherever it runs from. Static storage: copy it to keep it.
 */
const char *unit_build_path(const char *rel);
/*
 * A file of the source tree ("tests/corpus/...") wherever the test runs from (valgrind.sh
 * runs the unit programs in a scratch directory). Static storage: copy it to keep it.
 */
const char *unit_src_path(const char *rel);

#endif
