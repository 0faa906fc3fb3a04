/* The fixed event names: generic hardware, software and hardware-cache events, as perf names them. */
#include <string.h>
#include <stdio.h>
#include <strings.h>

#include "events/xpe_internal.h"

#define HW(n, a, c) { n, a, PERF_TYPE_HARDWARE, PERF_COUNT_HW_##c }
#define SW(n, a, c) { n, a, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_##c }

/* Order follows perf's event_symbols_hw[] (perf list order). */
const struct xpe_symbol xpe_hw_symbols[] = {
	HW("cpu-cycles", "cycles", CPU_CYCLES),
	HW("instructions", NULL, INSTRUCTIONS),
	HW("cache-references", NULL, CACHE_REFERENCES),
	HW("cache-misses", NULL, CACHE_MISSES),
	HW("branch-instructions", "branches", BRANCH_INSTRUCTIONS),
	HW("branch-misses", NULL, BRANCH_MISSES),
	HW("bus-cycles", NULL, BUS_CYCLES),
	HW("stalled-cycles-frontend", "idle-cycles-frontend", STALLED_CYCLES_FRONTEND),
	HW("stalled-cycles-backend", "idle-cycles-backend", STALLED_CYCLES_BACKEND),
	HW("ref-cycles", NULL, REF_CPU_CYCLES),
};
const int xpe_nr_hw_symbols = sizeof(xpe_hw_symbols) / sizeof(xpe_hw_symbols[0]);

/* Sorted by name, as perf list prints them. */
const struct xpe_symbol xpe_sw_symbols[] = {
	SW("alignment-faults", NULL, ALIGNMENT_FAULTS),
	SW("bpf-output", NULL, BPF_OUTPUT),
	SW("cgroup-switches", NULL, CGROUP_SWITCHES),
	SW("context-switches", "cs", CONTEXT_SWITCHES),
	SW("cpu-clock", NULL, CPU_CLOCK),
	SW("cpu-migrations", "migrations", CPU_MIGRATIONS),
	SW("dummy", NULL, DUMMY),
	SW("emulation-faults", NULL, EMULATION_FAULTS),
	SW("major-faults", NULL, PAGE_FAULTS_MAJ),
	SW("minor-faults", NULL, PAGE_FAULTS_MIN),
	SW("page-faults", "faults", PAGE_FAULTS),
	SW("task-clock", NULL, TASK_CLOCK),
};
const int xpe_nr_sw_symbols = sizeof(xpe_sw_symbols) / sizeof(xpe_sw_symbols[0]);

/* perf's evsel__hw_cache*[] names; the first is canonical. */
const char *const xpe_cache_type[PERF_COUNT_HW_CACHE_MAX][XPE_CACHE_ALIASES] = {
	{ "L1-dcache", "l1-d", "l1d", "L1-data" },
	{ "L1-icache", "l1-i", "l1i", "L1-instruction" },
	{ "LLC", "L2" },
	{ "dTLB", "d-tlb", "Data-TLB" },
	{ "iTLB", "i-tlb", "Instruction-TLB" },
	{ "branch", "branches", "bpu", "btb", "bpc" },
	{ "node" },
};
const char *const xpe_cache_op[PERF_COUNT_HW_CACHE_OP_MAX][XPE_CACHE_ALIASES] = {
	{ "load", "loads", "read" },
	{ "store", "stores", "write" },
	{ "prefetch", "prefetches", "speculative-read", "speculative-load" },
};
const char *const xpe_cache_result[PERF_COUNT_HW_CACHE_RESULT_MAX][XPE_CACHE_ALIASES] = {
	{ "refs", "Reference", "ops", "access" },
	{ "misses", "miss" },
};

#define R (1 << PERF_COUNT_HW_CACHE_OP_READ)
#define W (1 << PERF_COUNT_HW_CACHE_OP_WRITE)
#define P (1 << PERF_COUNT_HW_CACHE_OP_PREFETCH)
/* Which ops make sense per cache (perf's evsel__hw_cache_stat[]). */
static const unsigned cache_ops[PERF_COUNT_HW_CACHE_MAX] = {
	[PERF_COUNT_HW_CACHE_L1D] = R | W | P,
	[PERF_COUNT_HW_CACHE_L1I] = R | P,
	[PERF_COUNT_HW_CACHE_LL] = R | W | P,
	[PERF_COUNT_HW_CACHE_DTLB] = R | W | P,
	[PERF_COUNT_HW_CACHE_ITLB] = R,
	[PERF_COUNT_HW_CACHE_BPU] = R,
	[PERF_COUNT_HW_CACHE_NODE] = R | W | P,
};

bool xpe_cache_op_valid(int type, int op)
{
	return type >= 0 && type < PERF_COUNT_HW_CACHE_MAX && op >= 0 &&
	       op < PERF_COUNT_HW_CACHE_OP_MAX && (cache_ops[type] & (1u << op));
}

const struct xpe_symbol *xpe_symbol_find(const char *name)
{
	int i;

	for (i = 0; i < xpe_nr_hw_symbols; i++)
		if (!strcmp(name, xpe_hw_symbols[i].name) ||
		    (xpe_hw_symbols[i].alias && !strcmp(name, xpe_hw_symbols[i].alias)))
			return &xpe_hw_symbols[i];
	for (i = 0; i < xpe_nr_sw_symbols; i++)
		if (!strcmp(name, xpe_sw_symbols[i].name) ||
		    (xpe_sw_symbols[i].alias && !strcmp(name, xpe_sw_symbols[i].alias)))
			return &xpe_sw_symbols[i];
	return NULL;
}

/* Length of the longest name in names[] that prefixes s up to a '-' or the end, else 0. */
static size_t match_prefix(const char *s, const char *const names[][XPE_CACHE_ALIASES], int n,
			   int *which)
{
	size_t best = 0;
	int i, j;

	for (i = 0; i < n; i++)
		for (j = 0; j < XPE_CACHE_ALIASES && names[i][j]; j++) {
			size_t l = strlen(names[i][j]);

			if (l > best && !strncasecmp(s, names[i][j], l) &&
			    (s[l] == '-' || s[l] == '\0')) {
				best = l;
				*which = i;
			}
		}
	return best;
}

/*
 * type[-op_or_result[-op_or_result]]: names may contain '-' themselves ("L1-dcache",
 * "speculative-read"), so match whole known names, longest first, like perf's
 * parse_aliases(). Defaults: op load, result access.
 */
int xpe_cache_parse(const char *name, uint64_t *config)
{
	int type = -1, op = -1, res = -1, w;
	const char *s = name;
	size_t l;

	l = match_prefix(s, xpe_cache_type, PERF_COUNT_HW_CACHE_MAX, &type);
	if (!l)
		return -1;
	s += l;
	while (*s) {
		s++; /* the '-' */
		if (op < 0 && (l = match_prefix(s, xpe_cache_op, PERF_COUNT_HW_CACHE_OP_MAX, &w))) {
			op = w;
		} else if (res < 0 && (l = match_prefix(s, xpe_cache_result,
							  PERF_COUNT_HW_CACHE_RESULT_MAX, &w))) {
			res = w;
		} else {
			return -1;
		}
		s += l;
	}
	if (op < 0)
		op = PERF_COUNT_HW_CACHE_OP_READ;
	if (res < 0)
		res = PERF_COUNT_HW_CACHE_RESULT_ACCESS;
	if (!xpe_cache_op_valid(type, op))
		return -1;
	*config = (uint64_t)type | ((uint64_t)op << 8) | ((uint64_t)res << 16);
	return 0;
}

int xpe_cache_name(uint64_t config, char *buf, size_t len)
{
	unsigned type = config & 0xff, op = (config >> 8) & 0xff, res = (config >> 16) & 0xff;

	if (type >= PERF_COUNT_HW_CACHE_MAX || op >= PERF_COUNT_HW_CACHE_OP_MAX ||
	    res >= PERF_COUNT_HW_CACHE_RESULT_MAX || (config >> 24))
		return -1;
	if (res)
		return snprintf(buf, len, "%s-%s-%s", xpe_cache_type[type][0], xpe_cache_op[op][0],
				xpe_cache_result[res][0]);
	return snprintf(buf, len, "%s-%s", xpe_cache_type[type][0], xpe_cache_op[op][1]);
}
