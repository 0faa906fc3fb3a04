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

static int comm_cmp(const struct rv_ctx *c, const struct xpp_hist_key *a,
		    const struct xpp_hist_key *b)
{
	return strcmp(rv_comm_name(c, a), rv_comm_name(c, b));
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
	return strcmp(rv_dso_name(c, a), rv_dso_name(c, b));
}

static const char *dso_text(const struct rv_ctx *c, const struct xpp_hist_key *k, char *buf,
			    size_t size)
{
	(void)buf, (void)size;
	return rv_dso_name(c, k);
}

static int sym_cmp(const struct rv_ctx *c, const struct xpp_hist_key *a,
		   const struct xpp_hist_key *b)
{
	const char *na = rv_sym_name(c, a), *nb = rv_sym_name(c, b);

	if (na && nb)
		return strcmp(na, nb);
	if (na || nb)
		return na ? -1 : 1;
	/* perf's _sort__addr_cmp is (int64_t)(right - left): addresses with the top bit set
	 * (garbage frame pointers, kernel addresses) come before the others */
	if (a->addr != b->addr)
		return (int64_t)(b->addr - a->addr) > 0 ? -1 : 1;
	return 0;
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
			 .cmp = sym_cmp, .text = sym_text },
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
};

/* perf's order of its sort keys: a prefix names the first key it begins */
static const enum rv_key_id perf_order[] = {
	RV_KEY_PID, RV_KEY_COMM, RV_KEY_DSO, RV_KEY_SYM, RV_KEY_PARENT, RV_KEY_CPU, RV_KEY_SOCKET,
	RV_KEY_SRCLINE, RV_KEY_SRCFILE, RV_KEY_SYM_SIZE, RV_KEY_DSO_SIZE, RV_KEY_CGROUP,
	RV_KEY_CGROUP_ID, RV_KEY_IPC_NULL, RV_KEY_TIME, RV_KEY_ADDR,
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
	static char buf[1024];
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
