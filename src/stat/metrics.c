/* xperf-stat derived figures: what perf prints after '#' (CPUs utilized, GHz, IPC, rates, ratios). */
#include <stdio.h>
#include <string.h>
#include <linux/perf_event.h>

#include "stat/stat.h"

enum stat_kind stat_kind_of(const struct perf_event_attr *attr)
{
	if (attr->type == PERF_TYPE_SOFTWARE) {
		if (attr->config == PERF_COUNT_SW_TASK_CLOCK || attr->config == PERF_COUNT_SW_CPU_CLOCK)
			return STAT_K_CLOCK;
		return STAT_K_OTHER;
	}
	if (attr->type == PERF_TYPE_HARDWARE) {
		switch (attr->config) {
		case PERF_COUNT_HW_CPU_CYCLES: return STAT_K_CYCLES;
		case PERF_COUNT_HW_INSTRUCTIONS: return STAT_K_INSTRUCTIONS;
		case PERF_COUNT_HW_BRANCH_INSTRUCTIONS: return STAT_K_BRANCHES;
		case PERF_COUNT_HW_BRANCH_MISSES: return STAT_K_BRANCH_MISSES;
		case PERF_COUNT_HW_CACHE_REFERENCES: return STAT_K_CACHE_REFS;
		case PERF_COUNT_HW_CACHE_MISSES: return STAT_K_CACHE_MISSES;
		default: return STAT_K_OTHER;
		}
	}
	if (attr->type == PERF_TYPE_HW_CACHE) {
		unsigned int id = attr->config & 0xff, op = (attr->config >> 8) & 0xff;
		unsigned int res = (attr->config >> 16) & 0xff;
		bool miss = res == PERF_COUNT_HW_CACHE_RESULT_MISS;

		if (op != PERF_COUNT_HW_CACHE_OP_READ)
			return STAT_K_OTHER;
		switch (id) {
		case PERF_COUNT_HW_CACHE_L1D: return miss ? STAT_K_L1D_LOAD_MISSES : STAT_K_L1D_LOADS;
		case PERF_COUNT_HW_CACHE_L1I: return miss ? STAT_K_L1I_LOAD_MISSES : STAT_K_L1I_LOADS;
		case PERF_COUNT_HW_CACHE_LL: return miss ? STAT_K_LLC_LOAD_MISSES : STAT_K_LLC_LOADS;
		case PERF_COUNT_HW_CACHE_DTLB: return miss ? STAT_K_DTLB_LOAD_MISSES : STAT_K_DTLB_LOADS;
		case PERF_COUNT_HW_CACHE_ITLB: return miss ? STAT_K_ITLB_LOAD_MISSES : STAT_K_ITLB_LOADS;
		default: return STAT_K_OTHER;
		}
	}
	return STAT_K_OTHER;
}

unsigned int stat_ctx_of(const struct perf_event_attr *attr)
{
	/* perf keeps shadow values apart per privilege filter: cycles:u never feeds IPC of instructions:k */
	return attr->exclude_user | attr->exclude_kernel << 1 | attr->exclude_hv << 2 |
	       attr->exclude_host << 3 | attr->exclude_idle << 4;
}

static bool set(struct stat_metric *m, const char *fmt, const char *unit, double val)
{
	m->fmt = fmt;
	snprintf(m->unit, sizeof(m->unit), "%s", unit);
	m->val = val;
	return fmt != NULL;
}

/* A "misses of all X" ratio in percent; blank when the base was not counted */
static bool miss_ratio(const struct stat_shadow *sh, enum stat_kind base, double val,
		       const char *unit, struct stat_metric *m)
{
	if (!sh->have[base])
		return set(m, NULL, unit, 0);
	return set(m, "%7.2f%%", unit, sh->val[base] ? 100.0 * val / sh->val[base] : 0.0);
}

bool stat_metric_for(enum stat_kind k, double val, const struct stat_shadow *sh,
		     double walltime_ns, struct stat_metric *m)
{
	memset(m, 0, sizeof(*m));
	switch (k) {
	case STAT_K_CLOCK:
		if (walltime_ns <= 0)
			return set(m, NULL, "CPUs utilized", 0);
		return set(m, "%8.3f", "CPUs utilized", val / walltime_ns);
	case STAT_K_CYCLES:
		if (!sh->have[STAT_K_CLOCK] || sh->val[STAT_K_CLOCK] == 0)
			return set(m, NULL, "Ghz", 0);
		return set(m, "%8.3f", "GHz", val / sh->val[STAT_K_CLOCK]);
	case STAT_K_INSTRUCTIONS:
		if (!sh->have[STAT_K_CYCLES])
			return set(m, NULL, "insn per cycle", 0);
		return set(m, "%7.2f ", "insn per cycle",
			   sh->val[STAT_K_CYCLES] ? val / sh->val[STAT_K_CYCLES] : 0.0);
	case STAT_K_BRANCH_MISSES:
		return miss_ratio(sh, STAT_K_BRANCHES, val, "of all branches", m);
	case STAT_K_CACHE_MISSES:
		return miss_ratio(sh, STAT_K_CACHE_REFS, val, "of all cache refs", m);
	case STAT_K_L1D_LOAD_MISSES:
		return miss_ratio(sh, STAT_K_L1D_LOADS, val, "of all L1-dcache accesses", m);
	case STAT_K_L1I_LOAD_MISSES:
		return miss_ratio(sh, STAT_K_L1I_LOADS, val, "of all L1-icache accesses", m);
	case STAT_K_LLC_LOAD_MISSES:
		return miss_ratio(sh, STAT_K_LLC_LOADS, val, "of all LL-cache accesses", m);
	case STAT_K_DTLB_LOAD_MISSES:
		return miss_ratio(sh, STAT_K_DTLB_LOADS, val, "of all dTLB cache accesses", m);
	case STAT_K_ITLB_LOAD_MISSES:
		return miss_ratio(sh, STAT_K_ITLB_LOADS, val, "of all iTLB cache accesses", m);
	default:
		break;
	}
	/* Everything else is a rate per second of task time, when a clock event was counted */
	if (sh->have[STAT_K_CLOCK]) {
		char unit = ' ', buf[16];
		double ratio = 0;

		if (sh->val[STAT_K_CLOCK])
			ratio = stat_convert_unit(1e9 * val / sh->val[STAT_K_CLOCK], &unit);
		if (unit != ' ')
			snprintf(buf, sizeof(buf), "%c/sec", unit);
		else
			snprintf(buf, sizeof(buf), "/sec");
		return set(m, "%8.3f", buf, ratio);
	}
	return false;
}
