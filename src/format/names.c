/* Names of record types, feature bits and events, spelled as perf prints them. */
#include <stddef.h>
#include <stdio.h>

#include "format/xpf_abi.h"
#include "format/xpf_reader.h"

static const char *const record_names[XPF_RECORD_TYPE_MAX] = {
	[PERF_RECORD_MMAP] = "MMAP",
	[PERF_RECORD_LOST] = "LOST",
	[PERF_RECORD_COMM] = "COMM",
	[PERF_RECORD_EXIT] = "EXIT",
	[PERF_RECORD_THROTTLE] = "THROTTLE",
	[PERF_RECORD_UNTHROTTLE] = "UNTHROTTLE",
	[PERF_RECORD_FORK] = "FORK",
	[PERF_RECORD_READ] = "READ",
	[PERF_RECORD_SAMPLE] = "SAMPLE",
	[PERF_RECORD_MMAP2] = "MMAP2",
	[PERF_RECORD_AUX] = "AUX",
	[PERF_RECORD_ITRACE_START] = "ITRACE_START",
	[PERF_RECORD_LOST_SAMPLES] = "LOST_SAMPLES",
	[PERF_RECORD_SWITCH] = "SWITCH",
	[PERF_RECORD_SWITCH_CPU_WIDE] = "SWITCH_CPU_WIDE",
	[PERF_RECORD_NAMESPACES] = "NAMESPACES",
	[PERF_RECORD_KSYMBOL] = "KSYMBOL",
	[PERF_RECORD_BPF_EVENT] = "BPF_EVENT",
	[PERF_RECORD_CGROUP] = "CGROUP",
	[PERF_RECORD_TEXT_POKE] = "TEXT_POKE",
	[PERF_RECORD_AUX_OUTPUT_HW_ID] = "AUX_OUTPUT_HW_ID",
	/* perf's own records: perf drops the HEADER_ prefix when printing them */
	[XPF_RECORD_HEADER_ATTR] = "ATTR",
	[XPF_RECORD_HEADER_EVENT_TYPE] = "EVENT_TYPE",
	[XPF_RECORD_HEADER_TRACING_DATA] = "TRACING_DATA",
	[XPF_RECORD_HEADER_BUILD_ID] = "BUILD_ID",
	[XPF_RECORD_FINISHED_ROUND] = "FINISHED_ROUND",
	[XPF_RECORD_ID_INDEX] = "ID_INDEX",
	[XPF_RECORD_AUXTRACE_INFO] = "AUXTRACE_INFO",
	[XPF_RECORD_AUXTRACE] = "AUXTRACE",
	[XPF_RECORD_AUXTRACE_ERROR] = "AUXTRACE_ERROR",
	[XPF_RECORD_THREAD_MAP] = "THREAD_MAP",
	[XPF_RECORD_CPU_MAP] = "CPU_MAP",
	[XPF_RECORD_STAT_CONFIG] = "STAT_CONFIG",
	[XPF_RECORD_STAT] = "STAT",
	[XPF_RECORD_STAT_ROUND] = "STAT_ROUND",
	[XPF_RECORD_EVENT_UPDATE] = "EVENT_UPDATE",
	[XPF_RECORD_TIME_CONV] = "TIME_CONV",
	[XPF_RECORD_HEADER_FEATURE] = "FEATURE",
	[XPF_RECORD_COMPRESSED] = "COMPRESSED",
	[XPF_RECORD_FINISHED_INIT] = "FINISHED_INIT",
	/* perf 6.1 does not know 83; newer perf calls it COMPRESSED2 */
	[XPF_RECORD_COMPRESSED2] = "COMPRESSED2",
};

const char *xpf_record_type_name(uint32_t type)
{
	if (type >= XPF_RECORD_TYPE_MAX)
		return NULL;
	return record_names[type];
}

static const char *const feature_names[XPF_FEAT_LAST_KNOWN] = {
	[XPF_FEAT_RESERVED] = "RESERVED",
	[XPF_FEAT_TRACING_DATA] = "TRACING_DATA",
	[XPF_FEAT_BUILD_ID] = "BUILD_ID",
	[XPF_FEAT_HOSTNAME] = "HOSTNAME",
	[XPF_FEAT_OSRELEASE] = "OSRELEASE",
	[XPF_FEAT_VERSION] = "VERSION",
	[XPF_FEAT_ARCH] = "ARCH",
	[XPF_FEAT_NRCPUS] = "NRCPUS",
	[XPF_FEAT_CPUDESC] = "CPUDESC",
	[XPF_FEAT_CPUID] = "CPUID",
	[XPF_FEAT_TOTAL_MEM] = "TOTAL_MEM",
	[XPF_FEAT_CMDLINE] = "CMDLINE",
	[XPF_FEAT_EVENT_DESC] = "EVENT_DESC",
	[XPF_FEAT_CPU_TOPOLOGY] = "CPU_TOPOLOGY",
	[XPF_FEAT_NUMA_TOPOLOGY] = "NUMA_TOPOLOGY",
	[XPF_FEAT_BRANCH_STACK] = "BRANCH_STACK",
	[XPF_FEAT_PMU_MAPPINGS] = "PMU_MAPPINGS",
	[XPF_FEAT_GROUP_DESC] = "GROUP_DESC",
	[XPF_FEAT_AUXTRACE] = "AUXTRACE",
	[XPF_FEAT_STAT] = "STAT",
	[XPF_FEAT_CACHE] = "CACHE",
	[XPF_FEAT_SAMPLE_TIME] = "SAMPLE_TIME",
	[XPF_FEAT_MEM_TOPOLOGY] = "MEM_TOPOLOGY",
	[XPF_FEAT_CLOCKID] = "CLOCKID",
	[XPF_FEAT_DIR_FORMAT] = "DIR_FORMAT",
	[XPF_FEAT_BPF_PROG_INFO] = "BPF_PROG_INFO",
	[XPF_FEAT_BPF_BTF] = "BPF_BTF",
	[XPF_FEAT_COMPRESSED] = "COMPRESSED",
	[XPF_FEAT_CPU_PMU_CAPS] = "CPU_PMU_CAPS",
	[XPF_FEAT_CLOCK_DATA] = "CLOCK_DATA",
	[XPF_FEAT_HYBRID_TOPOLOGY] = "HYBRID_TOPOLOGY",
	[XPF_FEAT_PMU_CAPS] = "PMU_CAPS",
};

const char *xpf_feature_name(unsigned int feat)
{
	if (feat >= XPF_FEAT_LAST_KNOWN)
		return NULL;
	return feature_names[feat];
}

const char *xpf_attr_event_name(const struct xpf_attr *a, char *buf, size_t size)
{
	static const char *const sw[] = {
		"cpu-clock", "task-clock", "page-faults", "context-switches", "cpu-migrations",
		"minor-faults", "major-faults", "alignment-faults", "emulation-faults", "dummy",
	};
	static const char *const hw[] = {
		"cycles", "instructions", "cache-references", "cache-misses", "branches",
		"branch-misses", "bus-cycles",
	};

	if (!a)
		return "";
	if (a->name && a->name[0])
		return a->name;
	if (a->attr.type == PERF_TYPE_SOFTWARE && a->attr.config < sizeof(sw) / sizeof(sw[0]))
		return sw[a->attr.config];
	if (a->attr.type == PERF_TYPE_HARDWARE && a->attr.config < sizeof(hw) / sizeof(hw[0]))
		return hw[a->attr.config];
	snprintf(buf, size, "%u:0x%llx", a->attr.type, (unsigned long long)a->attr.config);
	return buf;
}
