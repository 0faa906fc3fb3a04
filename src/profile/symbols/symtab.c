/* Symbol tables: building, alias selection, end fix-ups and binary search. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "base/array.h"
#include "profile/symbols/symtab.h"

int xpp_symtab_add(struct xpp_symtab *t, uint64_t start, uint64_t size, enum xpp_sym_binding binding,
	       const char *name, size_t name_len)
{
	return xpp_symtab_add_kind(t, start, size, binding, XPP_SYM_OTHER, name, name_len);
}

int xpp_symtab_add_kind(struct xpp_symtab *t, uint64_t start, uint64_t size,
			enum xpp_sym_binding binding, enum xpp_sym_kind kind, const char *name,
			size_t name_len)
{
	if (t->nr == t->cap && XB_ARRAY_RESERVE(t->syms, t->cap, (size_t)t->nr + 1, 256))
		return -ENOMEM;
	if (XB_ARRAY_RESERVE(t->names, t->names_cap, t->names_len + name_len + 1, 4096))
		return -ENOMEM;
	if (t->names_len > UINT32_MAX - name_len - 1)
		return -E2BIG;

	struct xpp_sym *s = &t->syms[t->nr];

	s->start = start;
	s->end = start + size;
	s->name = (uint32_t)t->names_len;
	s->order = t->nr++;
	s->binding = (uint8_t)binding;
	s->kind = (uint8_t)kind;
	s->sized = size != 0;
	s->file = 0;
	memcpy(t->names + t->names_len, name, name_len);
	t->names[t->names_len + name_len] = '\0';
	t->names_len += name_len + 1;
	return 0;
}

int xpp_symtab_set_file(struct xpp_symtab *t, const char *name, uint32_t *last)
{
	size_t len = strlen(name);

	if (!t->nr)
		return 0;
	if (!*last || strcmp(t->names + *last - 1, name)) {
		if (XB_ARRAY_RESERVE(t->names, t->names_cap, t->names_len + len + 1, 4096))
			return -ENOMEM;
		if (t->names_len > UINT32_MAX - len - 2)
			return -E2BIG;
		memcpy(t->names + t->names_len, name, len + 1);
		*last = (uint32_t)t->names_len + 1;
		t->names_len += len + 1;
	}
	t->syms[t->nr - 1].file = *last;
	return 0;
}

static int cmp_start(const void *pa, const void *pb)
{
	const struct xpp_sym *a = pa, *b = pb;

	if (a->start != b->start)
		return a->start < b->start ? -1 : 1;
	return a->order < b->order ? -1 : a->order > b->order;
}

static size_t leading_underscores(const char *s)
{
	size_t n = 0;

	while (s[n] == '_')
		n++;
	return n;
}

/*
 * true when b comes before a in objdump's order of the symbols of one address
 * (binutils' compare_symbols): functions, then objects, non-local, global, the larger,
 * names not starting with '.', then by name; before all, a dynamic relocation's symbol
 * (objdump names a pointer initialised to strlen "strlen@GLIBC_2.2.5", not by its own name).
 */
static bool objdump_better(const struct xpp_symtab *t, const struct xpp_sym *a,
			   const struct xpp_sym *b)
{
	const char *na = t->names + a->name, *nb = t->names + b->name;
	uint64_t sa = a->end - a->start, sb = b->end - b->start;

	if ((a->kind == XPP_SYM_RELOC) != (b->kind == XPP_SYM_RELOC))
		return b->kind == XPP_SYM_RELOC;
	if ((a->kind == XPP_SYM_FUNC) != (b->kind == XPP_SYM_FUNC))
		return b->kind == XPP_SYM_FUNC;
	if ((a->kind == XPP_SYM_OBJECT) != (b->kind == XPP_SYM_OBJECT))
		return b->kind == XPP_SYM_OBJECT;
	if ((a->binding == XPP_SYM_LOCAL) != (b->binding == XPP_SYM_LOCAL))
		return a->binding == XPP_SYM_LOCAL;
	if ((a->binding == XPP_SYM_GLOBAL) != (b->binding == XPP_SYM_GLOBAL))
		return b->binding == XPP_SYM_GLOBAL;
	if (sa != sb)
		return sb > sa;
	if ((na[0] == '.') != (nb[0] == '.'))
		return na[0] == '.';
	return strcmp(nb, na) < 0;
}

/* true when b should replace a (perf's choose_best_symbol; a full tie keeps a) */
static bool better(const struct xpp_symtab *t, const struct xpp_sym *a, const struct xpp_sym *b)
{
	if (t->objdump_names)
		return objdump_better(t, a, b);
	bool a_sized = a->end > a->start, b_sized = b->end > b->start;

	if (a_sized != b_sized)
		return b_sized;
	if ((a->binding == XPP_SYM_WEAK) != (b->binding == XPP_SYM_WEAK))
		return a->binding == XPP_SYM_WEAK;
	if ((a->binding == XPP_SYM_GLOBAL) != (b->binding == XPP_SYM_GLOBAL))
		return b->binding == XPP_SYM_GLOBAL;

	const char *na = t->names + a->name, *nb = t->names + b->name;
	size_t ua = leading_underscores(na), ub = leading_underscores(nb);

	if (ua != ub)
		return ub < ua;
	return strlen(nb) > strlen(na);
}

void xpp_symtab_finish(struct xpp_symtab *t)
{
	uint32_t i, out = 0;

	if (t->finished)
		return;
	t->finished = true;
	if (!t->nr)
		return;
	/* kallsyms and many symtabs come in address order already: qsort would still take
	 * n log n compares (a few ms for the kernel's 100k symbols) */
	for (i = 1; i < t->nr && cmp_start(&t->syms[i - 1], &t->syms[i]) < 0; i++)
		;
	if (i < t->nr)
		qsort(t->syms, t->nr, sizeof(*t->syms), cmp_start);

	/* one symbol per address */
	for (i = 1; i < t->nr; i++) {
		if (t->syms[i].start == t->syms[out].start) {
			if (t->last_alias_wins || better(t, &t->syms[out], &t->syms[i]))
				t->syms[out] = t->syms[i];
			continue;
		}
		t->syms[++out] = t->syms[i];
	}
	t->nr = out + 1;

	bool sized = false, unsized = false;

	for (i = 0; i < t->nr; i++)
		*(t->syms[i].sized ? &sized : &unsized) = true;
	t->mixed = sized && unsized;
	for (i = 0; i + 1 < t->nr; i++)
		if (t->syms[i].end <= t->syms[i].start)
			t->syms[i].end = t->syms[i + 1].start;
	struct xpp_sym *last = &t->syms[t->nr - 1];

	if (last->end <= last->start)
		last->end = ((last->start + 4095) & ~4095ULL) + 4096;
}

int64_t xpp_symtab_find(const struct xpp_symtab *t, uint64_t addr)
{
	uint32_t lo = 0, hi = t->nr;

	/* the last symbol starting at or before addr */
	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;

		if (t->syms[mid].start <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	/* a nested symbol may end before its parent: look a few back for an enclosing one */
	int64_t found = -1;
	uint32_t i = lo, n = 0;

	for (; i > 0 && n < 4; i--, n++)
		if (addr < t->syms[i - 1].end) {
			found = i - 1;
			break;
		}
	if (found < 0 || t->syms[found].sized || !t->mixed)
		return found;
	/*
	 * An extended label: a sized function that started before it and still holds addr
	 * wins. The symbols between them start inside that function (labels of its own), so
	 * the nearest sized symbol before the label is the one to ask.
	 */
	for (n = 0; i > 1 && n < 64; i--, n++) {
		const struct xpp_sym *s = &t->syms[i - 2];

		if (s->sized)
			return addr < s->end ? i - 2 : found;
	}
	return found;
}

int64_t xpp_symtab_preceding(const struct xpp_symtab *t, uint64_t addr)
{
	uint32_t lo = 0, hi = t->nr;

	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;

		if (t->syms[mid].start <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return (int64_t)lo - 1;
}

void xpp_symtab_free(struct xpp_symtab *t)
{
	if (t->map) {
		/* a kallsyms cache of another boot: its records moved, into memory of their own */
		if ((char *)t->syms < (char *)t->map ||
		    (char *)t->syms >= (char *)t->map + t->map_len)
			free(t->syms);
		munmap(t->map, t->map_len);
	} else {
		free(t->syms);
		free(t->names);
	}
	memset(t, 0, sizeof(*t));
}
