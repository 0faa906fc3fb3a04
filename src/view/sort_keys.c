/* The sort keys as one table, a row per key (perf's sort.c, one struct sort_entry each). */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "view/rv.h"

static int cmp_u64(uint64_t a, uint64_t b)
{
	return a < b ? -1 : a > b;
}

/* ---- comm, dso, sym, srcline: the frame's fields ---- */

/*
 * The names below are those of interned ids: keys of one id have one name, found equal
 * without reading it (sorts compare a million entries of one command and file, issue 20).
 */
static int comm_cmp(const struct rv_ctx *c, const struct xpp_hist_key *a,
		    const struct xpp_hist_key *b)
{
	return a->comm == b->comm ? 0 : strcmp(rv_comm_name(c, a), rv_comm_name(c, b));
}

static const char *comm_text(const struct rv_ctx *c, const struct xpp_hist_key *k, char *buf,
			     size_t size)
{
	(void)buf, (void)size;
	return rv_comm_name(c, k);
}

/* perf's cmp_null: entries without a DSO after the others */
static int dso_cmp(const struct rv_ctx *c, const struct xpp_hist_key *a,
		   const struct xpp_hist_key *b)
{
	if ((a->dso == XPP_HIST_NO_DSO) != (b->dso == XPP_HIST_NO_DSO))
		return a->dso == XPP_HIST_NO_DSO ? 1 : -1;
	return a->dso == b->dso ? 0 : strcmp(rv_dso_name(c, a), rv_dso_name(c, b));
}

static const char *dso_text(const struct rv_ctx *c, const struct xpp_hist_key *k, char *buf,
			    size_t size)
{
	(void)buf, (void)size;
	return rv_dso_name(c, k);
}

/* Whether a's and b's symbol names are one: the same inlined name, or symbol of a file */
static bool same_sym(const struct xpp_hist_key *a, const struct xpp_hist_key *b)
{
	return a->inl == b->inl && (a->inl || (a->dso == b->dso && a->sym == b->sym));
}

static int sym_cmp(const struct rv_ctx *c, const struct xpp_hist_key *a,
		   const struct xpp_hist_key *b)
{
	bool same = same_sym(a, b);
	const char *na = rv_sym_name(c, a), *nb = same ? na : rv_sym_name(c, b);

	if (na && nb)
		return same ? 0 : strcmp(na, nb);
	if (na || nb)
		return na ? -1 : 1;
	/* perf's _sort__addr_cmp is (int64_t)(right - left): addresses with the top bit set
	 * (garbage frame pointers, kernel addresses) come before the others */
	if (a->addr != b->addr)
		return (int64_t)(b->addr - a->addr) > 0 ? -1 : 1;
	return 0;
}

/* a symbol's extent in its DSO's table */
static const struct xpp_sym *sym_of(const struct rv_ctx *c, const struct xpp_hist_key *k)
{
	const struct xpp_dso *d;

	if (k->inl || k->sym < 0 || k->dso == XPP_HIST_NO_DSO ||
	    !(d = xpp_dso_table_get(c->dsos, k->dso)) || (uint32_t)k->sym >= d->syms.nr)
		return NULL;
	return &d->syms.syms[k->sym];
}

/*
 * perf's sort__sym_cmp, the order its entries are collapsed in (and so the output's among
 * entries its sort finds equal): entries without a symbol by address; else by DSO (perf
 * compares them whatever the sort keys), then by the symbol's start and end, an inlined
 * function by its name first
 */
static int sym_collapse(const struct rv_ctx *c, const struct xpp_hist_key *a,
			const struct xpp_hist_key *b)
{
	const char *na = rv_sym_name(c, a), *nb = rv_sym_name(c, b);
	const struct xpp_sym *sa, *sb;
	int r;

	if (!na && !nb)
		return sym_cmp(c, a, b);
	if ((r = dso_cmp(c, a, b)) || !na || !nb)
		return r ? r : na ? -1 : 1;
	if ((a->inl || b->inl) && (r = strcmp(na, nb)))
		return r;
	sa = sym_of(c, a);
	sb = sym_of(c, b);
	if (!sa || !sb)
		return strcmp(na, nb);
	if (sa->start != sb->start)
		return (int64_t)(sb->start - sa->start) > 0 ? -1 : 1;
	if (sa->end != sb->end)
		return (int64_t)(sb->end - sa->end) > 0 ? -1 : 1;
	return 0;
}

/* perf's sort__sym_sort: by name, entries without a symbol after, equal among themselves */
static int sym_sort(const struct rv_ctx *c, const struct xpp_hist_key *a,
		    const struct xpp_hist_key *b)
{
	bool same = same_sym(a, b);
	const char *na = rv_sym_name(c, a), *nb = same ? na : rv_sym_name(c, b);

	return na && nb ? (same ? 0 : strcmp(na, nb)) : na ? -1 : nb ? 1 : 0;
}

/* the stdio and TUI views print the symbol themselves (level, -v prefix, inlined) */
static const char *sym_text(const struct rv_ctx *c, const struct xpp_hist_key *k, char *buf,
			    size_t size)
{
	return rv_sym_or_addr(c, k, buf, size);
}

static int srcline_cmp(const struct rv_ctx *c, const struct xpp_hist_key *a,
		       const struct xpp_hist_key *b)
{
	return strcmp(rv_srcline_name(c, a), rv_srcline_name(c, b));
}

static const char *srcline_text(const struct rv_ctx *c, const struct xpp_hist_key *k,
				char *buf, size_t size)
{
	(void)buf, (void)size;
	return rv_srcline_name(c, k);
}

/* ---- the sample's context ---- */

static int32_t tid_of(const struct xpp_hist_key *k)
{
	return (int32_t)(uint32_t)k->val[XPP_VAL_THREAD];
}

/* perf's sort__thread_cmp: by tid */
static int pid_cmp(const struct rv_ctx *c, const struct xpp_hist_key *a,
		   const struct xpp_hist_key *b)
{
	(void)c;
	return tid_of(a) < tid_of(b) ? -1 : tid_of(a) > tid_of(b);
}

static const char *pid_text(const struct rv_ctx *c, const struct xpp_hist_key *k, char *buf,
			    size_t size)
{
	int32_t pid = (int32_t)(k->val[XPP_VAL_THREAD] >> 32);

	snprintf(buf, size, "%7d:%s", tid_of(k), xpp_profile_thread_name(c->p, pid, tid_of(k)));
	return buf;
}

/* values that hold an int, -1 as (uint32_t)-1 (cpu, socket) */
static int val_int_cmp(const struct xpp_hist_key *a, const struct xpp_hist_key *b, int v)
{
	int32_t x = (int32_t)(uint32_t)a->val[v], y = (int32_t)(uint32_t)b->val[v];

	return x < y ? -1 : x > y;
}

static int cpu_cmp(const struct rv_ctx *c, const struct xpp_hist_key *a,
		   const struct xpp_hist_key *b)
{
	(void)c;
	return val_int_cmp(a, b, XPP_VAL_CPU);
}

static const char *cpu_text(const struct rv_ctx *c, const struct xpp_hist_key *k, char *buf,
			    size_t size)
{
	(void)c;
	/* perf's "%*.*d" at the title's width */
	snprintf(buf, size, "%3.3d", (int32_t)(uint32_t)k->val[XPP_VAL_CPU]);
	return buf;
}

static int socket_cmp(const struct rv_ctx *c, const struct xpp_hist_key *a,
		      const struct xpp_hist_key *b)
{
	(void)c;
	return val_int_cmp(a, b, XPP_VAL_SOCKET);
}

static const char *socket_text(const struct rv_ctx *c, const struct xpp_hist_key *k, char *buf,
			       size_t size)
{
	(void)c;
	/* perf's "%*.*d" with width - 3 digits */
	snprintf(buf, size, "%6.3d", (int32_t)(uint32_t)k->val[XPP_VAL_SOCKET]);
	return buf;
}

/* named parents first, by name, then [other] */
static int parent_cmp(const struct rv_ctx *c, const struct xpp_hist_key *a,
		      const struct xpp_hist_key *b)
{
	const char *na = xpp_profile_parent_name(c->p, a), *nb = xpp_profile_parent_name(c->p, b);

	return na && nb ? strcmp(na, nb) : na ? -1 : nb ? 1 : 0;
}

static const char *parent_text(const struct rv_ctx *c, const struct xpp_hist_key *k, char *buf,
			       size_t size)
{
	const char *s = xpp_profile_parent_name(c->p, k);

	(void)buf, (void)size;
	return s ? s : "[other]";
}

static int time_cmp(const struct rv_ctx *c, const struct xpp_hist_key *a,
		    const struct xpp_hist_key *b)
{
	(void)c;
	return cmp_u64(a->val[XPP_VAL_TIME], b->val[XPP_VAL_TIME]);
}

/* perf's timestamp__scnprintf_usec(): seconds.microseconds */
static const char *time_text(const struct rv_ctx *c, const struct xpp_hist_key *k, char *buf,
			     size_t size)
{
	uint64_t t = k->val[XPP_VAL_TIME];

	(void)c;
	snprintf(buf, size, "%" PRIu64 ".%06" PRIu64, t / 1000000000, t % 1000000000 / 1000);
	return buf;
}

/* ---- the frame's values ---- */

static const char *srcfile_name(const struct rv_ctx *c, const struct xpp_hist_key *k)
{
	return xpp_profile_val_name(c->p, XPP_VAL_SRCFILE, k->val[XPP_VAL_SRCFILE]);
}

static int srcfile_cmp(const struct rv_ctx *c, const struct xpp_hist_key *a,
		       const struct xpp_hist_key *b)
{
	return strcmp(srcfile_name(c, a), srcfile_name(c, b));
}

static const char *srcfile_text(const struct rv_ctx *c, const struct xpp_hist_key *k, char *buf,
				size_t size)
{
	(void)buf, (void)size;
	return srcfile_name(c, k);
}

static int sym_size_cmp(const struct rv_ctx *c, const struct xpp_hist_key *a,
			const struct xpp_hist_key *b)
{
	(void)c;
	return cmp_u64(a->val[XPP_VAL_SYM_SIZE], b->val[XPP_VAL_SYM_SIZE]);
}

/* perf's "%*d" of the symbol's size, "unknown" without one (the value holds size + 1) */
static const char *sym_size_text(const struct rv_ctx *c, const struct xpp_hist_key *k,
				 char *buf, size_t size)
{
	uint64_t v = k->val[XPP_VAL_SYM_SIZE];

	(void)c;
	if (!v)
		return "unknown";
	snprintf(buf, size, "%d", (int)(v - 1));
	return buf;
}

static int dso_size_cmp(const struct rv_ctx *c, const struct xpp_hist_key *a,
			const struct xpp_hist_key *b)
{
	(void)c;
	return cmp_u64(a->val[XPP_VAL_MAP_SIZE], b->val[XPP_VAL_MAP_SIZE]);
}

/* perf's "%*d" of the map's size, "unknown" without a map */
static const char *dso_size_text(const struct rv_ctx *c, const struct xpp_hist_key *k,
				 char *buf, size_t size)
{
	uint64_t v = k->val[XPP_VAL_MAP_SIZE];

	(void)c;
	if (!v)
		return "unknown";
	snprintf(buf, size, "%d", (int)v);
	return buf;
}

static int addr_cmp(const struct rv_ctx *c, const struct xpp_hist_key *a,
		    const struct xpp_hist_key *b)
{
	(void)c;
	return cmp_u64(a->val[XPP_VAL_IP], b->val[XPP_VAL_IP]);
}

static const char *addr_text(const struct rv_ctx *c, const struct xpp_hist_key *k, char *buf,
			     size_t size)
{
	(void)c;
	snprintf(buf, size, "%#" PRIx64, k->val[XPP_VAL_IP]);
	return buf;
}

/* perf's sort__cgroup_cmp: by id */
static int cgroup_cmp(const struct rv_ctx *c, const struct xpp_hist_key *a,
		      const struct xpp_hist_key *b)
{
	(void)c;
	return cmp_u64(a->val[XPP_VAL_CGROUP], b->val[XPP_VAL_CGROUP]);
}

static const char *cgroup_text(const struct rv_ctx *c, const struct xpp_hist_key *k, char *buf,
			       size_t size)
{
	(void)buf, (void)size;
	return xpp_profile_val_name(c->p, XPP_VAL_CGROUP, k->val[XPP_VAL_CGROUP]);
}

static int cgroup_id_cmp(const struct rv_ctx *c, const struct xpp_hist_key *a,
			 const struct xpp_hist_key *b)
{
	(void)c;
	return cmp_u64(a->val[XPP_VAL_CGROUP_NS], b->val[XPP_VAL_CGROUP_NS]);
}

/* perf's "%lu/0x%lx" of the namespace's dev and inode */
static const char *cgroup_id_text(const struct rv_ctx *c, const struct xpp_hist_key *k,
				  char *buf, size_t size)
{
	uint64_t v = k->val[XPP_VAL_CGROUP_NS];

	(void)c;
	snprintf(buf, size, "%" PRIu64 "/0x%" PRIx64, v >> 40, (uint64_t)(v & ((1ull << 40) - 1)));
	return buf;
}

/* perf's ipc_null: the IPC column of a file without branch stacks, "-" and "-" */
static const char *ipc_null_text(const struct rv_ctx *c, const struct xpp_hist_key *k,
				 char *buf, size_t size)
{
	(void)c, (void)k, (void)buf, (void)size;
	return "-      -";
}

/* ---- report --mem-mode's keys: the sample's data address and source (perf's mem_info) ---- */

static int val_u64_cmp(const struct xpp_hist_key *a, const struct xpp_hist_key *b, int v)
{
	return cmp_u64(a->val[v], b->val[v]);
}

static int local_weight_cmp(const struct rv_ctx *c, const struct xpp_hist_key *a,
			    const struct xpp_hist_key *b)
{
	(void)c;
	return val_u64_cmp(a, b, XPP_VAL_WEIGHT);
}

static const char *local_weight_text(const struct rv_ctx *c, const struct xpp_hist_key *k,
				     char *buf, size_t size)
{
	(void)c;
	snprintf(buf, size, "%" PRIu64, k->val[XPP_VAL_WEIGHT]);
	return buf;
}

static int ins_lat_cmp(const struct rv_ctx *c, const struct xpp_hist_key *a,
		       const struct xpp_hist_key *b)
{
	(void)c;
	return val_u64_cmp(a, b, XPP_VAL_INS_LAT);
}

static const char *ins_lat_text(const struct rv_ctx *c, const struct xpp_hist_key *k,
				char *buf, size_t size)
{
	(void)c;
	snprintf(buf, size, "%" PRIu64, k->val[XPP_VAL_INS_LAT]);
	return buf;
}

/* perf's sort__daddr_cmp: (int64_t)(right - left) of the data addresses */
static int daddr_cmp(const struct rv_ctx *c, const struct xpp_hist_key *a,
		     const struct xpp_hist_key *b)
{
	uint64_t x = a->val[XPP_VAL_DADDR], y = b->val[XPP_VAL_DADDR];

	(void)c;
	return x == y ? 0 : (int64_t)(y - x) > 0 ? -1 : 1;
}

/* the data symbol of the entry's first sample, as perf's entry keeps its first mem_info */
static const struct xpp_sym *daddr_sym(const struct rv_ctx *c, const struct xpp_val_first *f,
				       const char **name)
{
	const struct xpp_dso *d = f && f->sym >= 0 && f->dso != XPP_HIST_NO_DSO ?
				  xpp_dso_table_get(c->dsos, f->dso) : NULL;

	if (!d || (uint32_t)f->sym >= d->syms.nr)
		return NULL;
	*name = d->syms.names + d->syms.syms[f->sym].name;
	return &d->syms.syms[f->sym];
}

/* perf's hist_entry__daddr_snprintf(): "[level] " the variable+offset, function, or
 * address (%#.16llx) */
static const char *daddr_text(const struct rv_ctx *c, const struct xpp_hist_key *k, char *buf,
			      size_t size)
{
	const struct xpp_val_first *f = xpp_profile_val_first(c->p, XPP_VAL_DADDR, k);
	const char *name = NULL;
	const struct xpp_sym *s = daddr_sym(c, f, &name);
	char level = f ? (char)f->level : '.';

	if (s && s->kind == XPP_SYM_OBJECT)
		snprintf(buf, size, "[%c] %s+0x%" PRIx64, level, name, f->addr - s->start);
	else if (s)
		snprintf(buf, size, "[%c] %s", level, name);
	else
		snprintf(buf, size, "[%c] %#.*" PRIx64, level, RV_UNRESOLVED_WIDTH,
			 k->val[XPP_VAL_DADDR]);
	return buf;
}

/* perf's hists__calc_col_len(): a symbol's name + 4 + 16 + 2, else 16 + 4 + 2 */
static int daddr_width(const struct rv_ctx *c, const struct xpp_hist_key *k)
{
	const char *name = NULL;

	daddr_sym(c, xpp_profile_val_first(c->p, XPP_VAL_DADDR, k), &name);
	return (name ? (int)strlen(name) + 4 : 4) + RV_UNRESOLVED_WIDTH + 2;
}

static const char *daddr_dso_name(const struct rv_ctx *c, const struct xpp_hist_key *k)
{
	uint64_t v = k->val[XPP_VAL_DADDR_DSO];
	const struct xpp_dso *d = v ? xpp_dso_table_get(c->dsos, (uint32_t)(v - 1)) : NULL;

	return !d ? NULL : c->o->verbose ? d->long_name : d->short_name;
}

/*
 * perf's sort__dso_daddr_cmp(): _sort__dso_cmp() with the sides the other way round than
 * the dso key's, so entries without a map first, then names in falling order
 */
static int daddr_dso_cmp(const struct rv_ctx *c, const struct xpp_hist_key *a,
			 const struct xpp_hist_key *b)
{
	const char *x = daddr_dso_name(c, a), *y = daddr_dso_name(c, b);

	return x && y ? -strcmp(x, y) : x ? 1 : y ? -1 : 0;
}

static const char *daddr_dso_text(const struct rv_ctx *c, const struct xpp_hist_key *k,
				  char *buf, size_t size)
{
	const char *s = daddr_dso_name(c, k);

	(void)buf, (void)size;
	return s ? s : "[unknown]";
}

static int daddr_dso_width(const struct rv_ctx *c, const struct xpp_hist_key *k)
{
	const char *s = daddr_dso_name(c, k);

	return s ? (int)strlen(s) : RV_WIDTH_UNRESOLVED;
}

/*
 * perf's sort__dcacheline_cmp() (the other way round, as every cmp here: < 0 when perf's
 * is > 0): the profile's value is a string in the order of perf's, no value last
 */
static int dcacheline_cmp(const struct rv_ctx *c, const struct xpp_hist_key *a,
			  const struct xpp_hist_key *b)
{
	const char *x = xpp_profile_str(c->p, a->val[XPP_VAL_DCACHELINE]);
	const char *y = xpp_profile_str(c->p, b->val[XPP_VAL_DCACHELINE]);

	return x && y ? strcmp(y, x) : x ? -1 : y ? 1 : 0;
}

/*
 * perf's hist_entry__dcacheline_snprintf(): "[level] " and the cacheline of the entry's
 * first sample, named after the symbol of its data address: a variable's name and the
 * cacheline's offset from it (perf subtracts a virtual address from one of the map, so
 * outside the executable that offset is out of range: as perf shows it), a function's
 * name, else the cacheline address (%#.16llx)
 */
static const char *dcacheline_text(const struct rv_ctx *c, const struct xpp_hist_key *k,
				   char *buf, size_t size)
{
	const struct xpp_val_first *f = xpp_profile_val_first(c->p, XPP_VAL_DCACHELINE, k);
	const char *name = NULL;
	const struct xpp_sym *s = daddr_sym(c, f, &name);

	if (!f)
		snprintf(buf, size, "[.] %#.*" PRIx64, RV_UNRESOLVED_WIDTH, (uint64_t)0);
	else if (s && s->kind == XPP_SYM_OBJECT)
		snprintf(buf, size, "[%c] %s+0x%" PRIx64, (char)f->level, name,
			 f->addr - (s->start + f->unmap));
	else if (s)
		snprintf(buf, size, "[%c] %s", (char)f->level, name);
	else
		snprintf(buf, size, "[%c] %#.*" PRIx64, (char)f->level, RV_UNRESOLVED_WIDTH,
			 f->addr);
	return buf;
}

/* perf's hists__calc_col_len(): a symbol's name + 4 + 16 + 2 + 1, else 16 + 4 + 2 */
static int dcacheline_width(const struct rv_ctx *c, const struct xpp_hist_key *k)
{
	const char *name = NULL;

	daddr_sym(c, xpp_profile_val_first(c->p, XPP_VAL_DCACHELINE, k), &name);
	return (name ? (int)strlen(name) + 4 + 1 : 4) + RV_UNRESOLVED_WIDTH + 2;
}

/* the data source's fields (union perf_mem_data_src) */
#define DS(v, shift, n) ((unsigned int)((v) >> (shift)) & ((1u << (n)) - 1))

/* perf's sort__lvl_cmp and the others: (int64_t)(right - left) of one field */
static int ds_cmp(uint64_t a, uint64_t b)
{
	return a == b ? 0 : a < b ? 1 : -1;
}

/* "A or B or C" of the names of the bits set in m (perf's loops over its tables) */
static size_t ds_names(char *buf, size_t size, size_t at, unsigned int m,
		       const char *const *names, size_t nr)
{
	for (size_t i = 0; m && i < nr; i++, m >>= 1)
		if ((m & 1) && at < size)
			at += (size_t)snprintf(buf + at, size - at, "%s%s", at ? " or " : "", names[i]);
	return at < size ? at : size - 1;
}

static int mem_lvl_cmp(const struct rv_ctx *c, const struct xpp_hist_key *a,
		       const struct xpp_hist_key *b)
{
	(void)c;
	return ds_cmp(DS(a->val[XPP_VAL_MEM_LVL], 5, 14), DS(b->val[XPP_VAL_MEM_LVL], 5, 14));
}

/* perf 6.1's perf_mem__lvl_scnprintf() */
static const char *mem_lvl_text(const struct rv_ctx *c, const struct xpp_hist_key *k,
				char *buf, size_t size)
{
	static const char *const lvl[] = {
		"N/A", "HIT", "MISS", "L1", "LFB", "L2", "L3", "Local RAM", "Remote RAM (1 hop)",
		"Remote RAM (2 hops)", "Remote Cache (1 hop)", "Remote Cache (2 hops)", "I/O",
		"Uncached",
	};
	static const char *const lvlnum[16] = {
		[0x0a] = "I/O", [0x0b] = "Any cache", [0x0c] = "LFB", [0x0d] = "RAM",
		[0x0e] = "PMEM", [0x0f] = "N/A",
	};
	static const char *const hops[8] = {
		"N/A", "core, same node", "node, same socket", "socket, same board", "board",
	};
	uint64_t v = k->val[XPP_VAL_MEM_LVL];
	unsigned int m = DS(v, 5, 14), num = DS(v, 33, 4), remote = DS(v, 37, 1), hop = DS(v, 43, 3);
	size_t at = 0;
	bool printed;

	(void)c;
	buf[0] = 0;
	if (remote)
		at += (size_t)snprintf(buf, size, "Remote ");
	if (hop) {
		at += (size_t)snprintf(buf + at, size - at, "%s ", hops[hop] ? hops[hop] : "");
		printed = false;
	} else {
		size_t before = at;

		/* the hit and miss bits are said after */
		at = ds_names(buf + before, size - before, 0, m & ~6u, lvl,
			      sizeof(lvl) / sizeof(lvl[0])) + before;
		printed = at > before;
	}
	if (num && at < size) {
		if (printed)
			at += (size_t)snprintf(buf + at, size - at, " or ");
		if (at < size && lvlnum[num])
			at += (size_t)snprintf(buf + at, size - at, "%s", lvlnum[num]);
		else if (at < size)
			at += (size_t)snprintf(buf + at, size - at, "L%u", num);
	}
	if (!at && at < size)
		at += (size_t)snprintf(buf, size, "N/A");
	if ((m & 2) && at < size)
		at += (size_t)snprintf(buf + at, size - at, " hit");
	if ((m & 4) && at < size)
		snprintf(buf + at, size - at, " miss");
	return buf;
}

static int mem_snoop_cmp(const struct rv_ctx *c, const struct xpp_hist_key *a,
			 const struct xpp_hist_key *b)
{
	(void)c;
	return ds_cmp(DS(a->val[XPP_VAL_MEM_SNOOP], 19, 5), DS(b->val[XPP_VAL_MEM_SNOOP], 19, 5));
}

/* perf's perf_mem__snp_scnprintf() */
static const char *mem_snoop_text(const struct rv_ctx *c, const struct xpp_hist_key *k,
				  char *buf, size_t size)
{
	static const char *const snoop[] = { "N/A", "None", "Hit", "Miss", "HitM" };
	static const char *const snoopx[] = { "Fwd", "Peer" };
	uint64_t v = k->val[XPP_VAL_MEM_SNOOP];
	size_t at;

	(void)c;
	buf[0] = 0;
	at = ds_names(buf, size, 0, DS(v, 19, 5), snoop, 5);
	at = ds_names(buf, size, at, DS(v, 38, 2), snoopx, 2);
	if (!at)
		snprintf(buf, size, "N/A");
	return buf;
}

static int mem_tlb_cmp(const struct rv_ctx *c, const struct xpp_hist_key *a,
		       const struct xpp_hist_key *b)
{
	(void)c;
	return ds_cmp(DS(a->val[XPP_VAL_MEM_TLB], 26, 7), DS(b->val[XPP_VAL_MEM_TLB], 26, 7));
}

/* perf's perf_mem__tlb_scnprintf() */
static const char *mem_tlb_text(const struct rv_ctx *c, const struct xpp_hist_key *k,
				char *buf, size_t size)
{
	static const char *const tlb[] = { "N/A", "HIT", "MISS", "L1", "L2", "Walker", "Fault" };
	unsigned int m = DS(k->val[XPP_VAL_MEM_TLB], 26, 7);
	size_t at;

	(void)c;
	buf[0] = 0;
	at = ds_names(buf, size, 0, m & ~6u, tlb, 7);
	if (!at)
		at = (size_t)snprintf(buf, size, "N/A");
	if ((m & 2) && at < size)
		at += (size_t)snprintf(buf + at, size - at, " hit");
	if ((m & 4) && at < size)
		snprintf(buf + at, size - at, " miss");
	return buf;
}

static int mem_locked_cmp(const struct rv_ctx *c, const struct xpp_hist_key *a,
			  const struct xpp_hist_key *b)
{
	(void)c;
	return ds_cmp(DS(a->val[XPP_VAL_MEM_LOCK], 24, 2), DS(b->val[XPP_VAL_MEM_LOCK], 24, 2));
}

/* perf's perf_mem__lck_scnprintf() */
static const char *mem_locked_text(const struct rv_ctx *c, const struct xpp_hist_key *k,
				   char *buf, size_t size)
{
	unsigned int m = DS(k->val[XPP_VAL_MEM_LOCK], 24, 2);

	(void)c, (void)buf, (void)size;
	return (m & 1) ? "N/A" : (m & 2) ? "Yes" : "No";
}

static int mem_blocked_cmp(const struct rv_ctx *c, const struct xpp_hist_key *a,
			   const struct xpp_hist_key *b)
{
	(void)c;
	return ds_cmp(DS(a->val[XPP_VAL_MEM_BLK], 40, 3), DS(b->val[XPP_VAL_MEM_BLK], 40, 3));
}

/* perf's perf_mem__blk_scnprintf(): each word after a blank */
static const char *mem_blocked_text(const struct rv_ctx *c, const struct xpp_hist_key *k,
				    char *buf, size_t size)
{
	unsigned int m = DS(k->val[XPP_VAL_MEM_BLK], 40, 3);

	(void)c;
	if (!m || (m & 1))
		return " N/A";
	snprintf(buf, size, "%s%s", (m & 2) ? " Data" : "", (m & 4) ? " Addr" : "");
	return buf;
}

/* perf's sort__phys_daddr_cmp: (int64_t)(right - left) */
static int phys_cmp(const struct rv_ctx *c, const struct xpp_hist_key *a,
		    const struct xpp_hist_key *b)
{
	uint64_t x = a->val[XPP_VAL_PHYS], y = b->val[XPP_VAL_PHYS];

	(void)c;
	return x == y ? 0 : (int64_t)(y - x) > 0 ? -1 : 1;
}

/* perf's hist_entry__phys_daddr_snprintf(): "[level] " and %#.16llx */
static const char *phys_text(const struct rv_ctx *c, const struct xpp_hist_key *k, char *buf,
			     size_t size)
{
	const struct xpp_val_first *f = xpp_profile_val_first(c->p, XPP_VAL_PHYS, k);
	char level = f ? (char)f->level : '.';

	snprintf(buf, size, "[%c] %#.*" PRIx64, level, RV_UNRESOLVED_WIDTH, k->val[XPP_VAL_PHYS]);
	return buf;
}

/* perf's sort__data_page_size_cmp: (int64_t)(right - left) */
static int data_page_size_cmp(const struct rv_ctx *c, const struct xpp_hist_key *a,
			      const struct xpp_hist_key *b)
{
	uint64_t x = a->val[XPP_VAL_DATA_PAGE_SIZE], y = b->val[XPP_VAL_DATA_PAGE_SIZE];

	(void)c;
	return x == y ? 0 : (int64_t)(y - x) > 0 ? -1 : 1;
}

/* perf's get_page_size_name(): unit_number__scnprintf() ("4K", "2M", "1024B"), N/A for 0 */
static const char *data_page_size_text(const struct rv_ctx *c, const struct xpp_hist_key *k,
				       char *buf, size_t size)
{
	uint64_t n = k->val[XPP_VAL_DATA_PAGE_SIZE];
	int unit = 0;

	(void)c;
	if (!n)
		return "N/A";
	while (n / 1024 > 1 && unit < 3) {
		n /= 1024;
		unit++;
	}
	snprintf(buf, size, "%" PRIu64 "%c", n, "BKMG"[unit]);
	return buf;
}

/*
 * A new key: its row here (and in perf_order[], enum rv_key_id), and where the profile does
 * not compute its value yet, that value's row in profile/values.c.
 */
const struct rv_key rv_keys[RV_KEY_NR] = {
	[RV_KEY_COMM] = { .name = "comm", .title = "Command", .fields = XPP_HIST_KEY_COMM,
			  .cmp = comm_cmp, .text = comm_text },
	[RV_KEY_DSO] = { .name = "dso", .title = "Shared Object", .fields = XPP_HIST_KEY_DSO,
			 .cmp = dso_cmp, .text = dso_text },
	[RV_KEY_SYM] = { .name = "symbol", .title = "Symbol", .fields = XPP_HIST_KEY_SYM,
			 .cmp = sym_cmp, .sort = sym_sort, .collapse = sym_collapse,
			 .text = sym_text },
	[RV_KEY_SRCLINE] = { .name = "srcline", .help = "the source file:line of the sample, from DWARF",
			.title = "Source:Line",
			     .fields = XPP_HIST_KEY_SRCLINE, .cmp = srcline_cmp,
			     .text = srcline_text },
	[RV_KEY_PID] = { .name = "pid", .help = "thread id and name",
			.title = "    Pid:Command", .fields = XPP_HIST_KEY_PID,
			 .cmp = pid_cmp, .text = pid_text },
	[RV_KEY_CPU] = { .name = "cpu", .title = "CPU", .fields = XPP_HIST_KEY_CPU, .width = 3,
			 .cmp = cpu_cmp, .text = cpu_text },
	[RV_KEY_PARENT] = { .name = "parent", .help = "see --parent",
			.title = "Parent symbol",
			    .fields = XPP_HIST_KEY_PARENT, .cmp = parent_cmp,
			    .text = parent_text },
	[RV_KEY_SRCFILE] = { .name = "srcfile", .title = "Source File",
			     .fields = XPP_HIST_KEY_VAL(XPP_VAL_SRCFILE), .align = RV_CUT,
			     .cmp = srcfile_cmp, .text = srcfile_text },
	[RV_KEY_SYM_SIZE] = { .name = "symbol_size", .title = "Symbol size",
			      .fields = XPP_HIST_KEY_VAL(XPP_VAL_SYM_SIZE), .align = RV_RIGHT,
			      .cmp = sym_size_cmp, .text = sym_size_text },
	[RV_KEY_DSO_SIZE] = { .name = "dso_size", .title = "DSO size",
			      .fields = XPP_HIST_KEY_VAL(XPP_VAL_MAP_SIZE), .align = RV_RIGHT,
			      .cmp = dso_size_cmp, .text = dso_size_text },
	[RV_KEY_TIME] = { .name = "time", .help = "per 100 ms",
			.title = "Time", .fields = XPP_HIST_KEY_VAL(XPP_VAL_TIME),
			  .width = 12, .children_each = true, .align = RV_CUT, .cmp = time_cmp,
			  .text = time_text },
	[RV_KEY_ADDR] = { .name = "addr", .title = "Address", .fields = XPP_HIST_KEY_VAL(XPP_VAL_IP),
			  .width = 18, .cmp = addr_cmp, .text = addr_text },
	[RV_KEY_SOCKET] = { .name = "socket", .title = "Socket",
			    .fields = XPP_HIST_KEY_VAL(XPP_VAL_SOCKET), .width = 6,
			    .children_each = true, .align = RV_RIGHT, .cmp = socket_cmp,
			    .text = socket_text },
	[RV_KEY_CGROUP] = { .name = "cgroup", .help = "record --all-cgroups",
			.title = "Cgroup",
			    .fields = XPP_HIST_KEY_VAL(XPP_VAL_CGROUP), .align = RV_CUT,
			    .cmp = cgroup_cmp, .text = cgroup_text },
	[RV_KEY_CGROUP_ID] = { .name = "cgroup_id", .help = "record --namespaces",
			.title = "cgroup id (dev/inode)",
			       .fields = XPP_HIST_KEY_VAL(XPP_VAL_CGROUP_NS), .align = RV_CUT,
			       .cmp = cgroup_id_cmp, .text = cgroup_id_text },
	[RV_KEY_IPC_NULL] = { .name = "ipc_null", .title = "IPC   [IPC Coverage]",
			      .fields = XPP_HIST_KEY_DSO | XPP_HIST_KEY_SYM, .width = 20,
			      .cmp = sym_cmp, .text = ipc_null_text },
	[RV_KEY_LOCAL_WEIGHT] = { .name = "local_weight", .help = "the sample's weight, record -W",
			.title = "Local Weight", .fields = XPP_HIST_KEY_VAL(XPP_VAL_WEIGHT),
			.width = 12, .cmp = local_weight_cmp, .text = local_weight_text },
	[RV_KEY_LOCAL_INS_LAT] = { .name = "local_ins_lat",
			.help = "the sample's instruction latency",
			.title = "Local INSTR Latency",
			.fields = XPP_HIST_KEY_VAL(XPP_VAL_INS_LAT), .width = 13,
			.cmp = ins_lat_cmp, .text = ins_lat_text },
	[RV_KEY_DADDR] = { .name = "symbol_daddr", .help = "--mem-mode: the data address's symbol",
			.title = "Data Symbol", .fields = XPP_HIST_KEY_VAL(XPP_VAL_DADDR),
			.align = RV_CUT, .mem_only = true, .cmp = daddr_cmp, .text = daddr_text,
			.width_of = daddr_width },
	[RV_KEY_DADDR_DSO] = { .name = "dso_daddr", .help = "--mem-mode: its shared object",
			.title = "Data Object", .fields = XPP_HIST_KEY_VAL(XPP_VAL_DADDR_DSO),
			.mem_only = true, .cmp = daddr_dso_cmp, .text = daddr_dso_text,
			.width_of = daddr_dso_width },
	[RV_KEY_MEM_LOCKED] = { .name = "locked", .help = "--mem-mode: a locked access",
			.title = "Locked", .fields = XPP_HIST_KEY_VAL(XPP_VAL_MEM_LOCK), .width = 6,
			.align = RV_CUT, .mem_only = true, .cmp = mem_locked_cmp, .text = mem_locked_text },
	[RV_KEY_MEM_TLB] = { .name = "tlb", .help = "--mem-mode: the TLB access",
			.title = "TLB access", .fields = XPP_HIST_KEY_VAL(XPP_VAL_MEM_TLB),
			.width = 22, .mem_only = true, .cmp = mem_tlb_cmp, .text = mem_tlb_text },
	[RV_KEY_MEM_LVL] = { .name = "mem", .help = "--mem-mode: the memory level",
			.title = "Memory access", .fields = XPP_HIST_KEY_VAL(XPP_VAL_MEM_LVL),
			.width = 24, .mem_only = true, .cmp = mem_lvl_cmp, .text = mem_lvl_text },
	[RV_KEY_MEM_SNOOP] = { .name = "snoop", .help = "--mem-mode: the snoop",
			.title = "Snoop", .fields = XPP_HIST_KEY_VAL(XPP_VAL_MEM_SNOOP),
			.width = 12, .mem_only = true, .cmp = mem_snoop_cmp,
			.text = mem_snoop_text },
	[RV_KEY_DCACHELINE] = { .name = "dcacheline",
			.help = "--mem-mode: the data address's cacheline",
			.title = "Data Cacheline", .fields = XPP_HIST_KEY_VAL(XPP_VAL_DCACHELINE),
			.align = RV_CUT, .mem_only = true, .cmp = dcacheline_cmp,
			.text = dcacheline_text, .width_of = dcacheline_width },
	[RV_KEY_PHYS_DADDR] = { .name = "phys_daddr",
			.help = "--mem-mode: the physical address, record --phys-data",
			.title = "Data Physical Address", .fields = XPP_HIST_KEY_VAL(XPP_VAL_PHYS),
			.width = RV_UNRESOLVED_WIDTH + 4 + 2, .mem_only = true, .cmp = phys_cmp,
			.text = phys_text },
	[RV_KEY_DATA_PAGE_SIZE] = { .name = "data_page_size",
			.help = "--mem-mode: the data page's size, record --data-page-size",
			.title = "Data Page Size",
			.fields = XPP_HIST_KEY_VAL(XPP_VAL_DATA_PAGE_SIZE),
			.width = RV_UNRESOLVED_WIDTH + 4 + 2, .mem_only = true,
			.cmp = data_page_size_cmp, .text = data_page_size_text },
	[RV_KEY_MEM_BLOCKED] = { .name = "blocked", .help = "--mem-mode: why the access was blocked",
			.title = "Blocked", .fields = XPP_HIST_KEY_VAL(XPP_VAL_MEM_BLK),
			.width = 10, .align = RV_CUT, .mem_only = true, .cmp = mem_blocked_cmp,
			.text = mem_blocked_text },
};

/* perf's order of its sort keys: a prefix names the first key it begins */
static const enum rv_key_id perf_order[] = {
	RV_KEY_PID, RV_KEY_COMM, RV_KEY_DSO, RV_KEY_SYM, RV_KEY_PARENT, RV_KEY_CPU, RV_KEY_SOCKET,
	RV_KEY_SRCLINE, RV_KEY_SRCFILE, RV_KEY_LOCAL_WEIGHT, RV_KEY_SYM_SIZE, RV_KEY_DSO_SIZE,
	RV_KEY_CGROUP, RV_KEY_CGROUP_ID, RV_KEY_IPC_NULL, RV_KEY_TIME, RV_KEY_LOCAL_INS_LAT,
	RV_KEY_ADDR,
	/* perf's memory_sort_dimensions, after the others */
	RV_KEY_DADDR, RV_KEY_DADDR_DSO, RV_KEY_MEM_LOCKED, RV_KEY_MEM_TLB, RV_KEY_MEM_LVL,
	RV_KEY_MEM_SNOOP, RV_KEY_DCACHELINE, RV_KEY_PHYS_DADDR, RV_KEY_DATA_PAGE_SIZE,
	RV_KEY_MEM_BLOCKED,
};
_Static_assert(sizeof(perf_order) / sizeof(perf_order[0]) == RV_KEY_NR, "every key is ordered");

int rv_key_find(const char *s, size_t n)
{
	for (size_t i = 0; n && i < sizeof(perf_order) / sizeof(perf_order[0]); i++) {
		const char *name = rv_keys[perf_order[i]].name;

		if (strlen(name) >= n && !strncasecmp(s, name, n))
			return (int)perf_order[i];
	}
	return -1;
}

const char *rv_key_names(char *buf, size_t size)
{
	size_t len = 0;

	buf[0] = 0;
	for (size_t i = 0; i < sizeof(perf_order) / sizeof(perf_order[0]) && len < size; i++)
		len += (size_t)snprintf(buf + len, size - len, "%s%s", i ? ", " : "",
					rv_keys[perf_order[i]].name);
	return buf;
}

const char *rv_sort_help(void)
{
	static char buf[2048];
	size_t len;

	if (buf[0])
		return buf;
	len = (size_t)snprintf(buf, sizeof(buf), "group and sort the entries by KEYS, also their "
			       "columns: a comma-separated list of ");
	for (size_t i = 0; i < sizeof(perf_order) / sizeof(perf_order[0]) && len < sizeof(buf);
	     i++) {
		const struct rv_key *k = &rv_keys[perf_order[i]];

		len += (size_t)snprintf(buf + len, sizeof(buf) - len, "%s%s%s%s%s", i ? ", " : "",
					k->name, k->help ? " (" : "", k->help ? k->help : "",
					k->help ? ")" : "");
	}
	if (len < sizeof(buf))
		snprintf(buf + len, sizeof(buf) - len, "; a prefix names the first key it begins "
			 "(default: comm,dso,sym)");
	return buf;
}

unsigned int rv_key_fields(const struct rv_ctx *c)
{
	unsigned int m = 0;

	for (unsigned int i = 0; i < c->nr_cols; i++)
		m |= rv_keys[c->cols[i]].fields;
	return m;
}
