/* The table of report's output modes and the check that a mode honours every option given. */
#include <string.h>

#include "report/modes.h"

/* The long names of the options a mode may not honour, by id. */
static const char *const opt_names[RO_NR] = {
	[RO_SORT] = "sort",
	[RO_FIELDS] = "fields",
	[RO_PERCENT_LIMIT] = "percent-limit",
	[RO_THREADS] = "threads",
	[RO_GROUP] = "group",
	[RO_SHOW_NR] = "show-nr-samples",
	[RO_SHOW_PERIOD] = "show-total-period",
	[RO_HEADER] = "header",
	[RO_COMMS] = "comms",
	[RO_DSOS] = "dsos",
	[RO_PID] = "pid",
	[RO_TID] = "tid",
	[RO_CPU] = "cpu",
	[RO_TIME] = "time",
	[RO_SYMBOLS] = "symbols",
	[RO_HIDE_UNRESOLVED] = "hide-unresolved",
	[RO_PARENT] = "parent",
	[RO_EXCLUDE_OTHER] = "exclude-other",
	[RO_CHILDREN] = "children",
	[RO_CALL_GRAPH] = "call-graph",
	[RO_INVERTED] = "inverted",
	[RO_INLINE] = "inline",
	[RO_MAX_STACK] = "max-stack",
	[RO_KALLSYMS] = "kallsyms",
	[RO_VMLINUX] = "vmlinux",
	[RO_DEMANGLE] = "demangle",
	[RO_SYMFS] = "symfs",
	[RO_DEBUGINFOD] = "debuginfod",
	[RO_WALL] = "wall",
	[RO_EVENT] = "event",
	[RO_FLAME_INVERTED] = "flamegraph-inverted",
	[RO_MEM_MODE] = "mem-mode",
	[RO_HIERARCHY] = "hierarchy",
};

/* Options that mean the same whatever the mode: the input, messages, the mode switches. */
static const char *const every_mode[] = {
	"input", "quiet", "verbose", "stdio", "tui", "pprof", "flamegraph", "speedscope", "dump",
	"stats",
	"header-only",
};

#define LOOKUP (RO_BIT(RO_KALLSYMS) | RO_BIT(RO_VMLINUX) | RO_BIT(RO_DEMANGLE) |          \
		RO_BIT(RO_SYMFS) | RO_BIT(RO_DEBUGINFOD))
#define FILTERS                                                                             \
	(RO_BIT(RO_COMMS) | RO_BIT(RO_DSOS) | RO_BIT(RO_PID) | RO_BIT(RO_TID) |             \
	 RO_BIT(RO_CPU) | RO_BIT(RO_TIME) | RO_BIT(RO_SYMBOLS) | RO_BIT(RO_HIDE_UNRESOLVED) | \
	 RO_BIT(RO_PARENT) | RO_BIT(RO_EXCLUDE_OTHER))
/* what shapes the chains themselves, whoever draws them */
#define CHAINS (RO_BIT(RO_INLINE) | RO_BIT(RO_MAX_STACK))

/*
 * The TUI honours a part of what the stdio view does (it shows no -F metrics, -T table
 * or header), so where report picks the TUI itself, an option only the
 * stdio view honours makes it pick that. The exports draw whole stacks of an event: no
 * sorting, thresholds or chain layout, but the filters, --wall and the choice of event.
 */
static const struct report_mode modes[RM_NR] = {
	[RM_STDIO] = { "--stdio", ~(uint64_t)0 & ~RO_BIT(RO_EVENT) & ~RO_BIT(RO_FLAME_INVERTED) },
	[RM_TUI] = { "--tui", RO_BIT(RO_SORT) | RO_BIT(RO_PERCENT_LIMIT) | RO_BIT(RO_SHOW_NR) |
				      RO_BIT(RO_SHOW_PERIOD) |
				      RO_BIT(RO_GROUP) | FILTERS | RO_BIT(RO_CHILDREN) | RO_BIT(RO_CALL_GRAPH) |
				      RO_BIT(RO_INVERTED) | CHAINS | LOOKUP | RO_BIT(RO_WALL) |
				      RO_BIT(RO_FLAME_INVERTED) | RO_BIT(RO_MEM_MODE) },
	[RM_FLAMEGRAPH] = { "--flamegraph", FILTERS | CHAINS | LOOKUP | RO_BIT(RO_WALL) |
						    RO_BIT(RO_EVENT) | RO_BIT(RO_FLAME_INVERTED) },
	[RM_PPROF] = { "--pprof", FILTERS | CHAINS | LOOKUP | RO_BIT(RO_WALL) | RO_BIT(RO_EVENT) },
	[RM_SPEEDSCOPE] = { "--speedscope", FILTERS | CHAINS | LOOKUP | RO_BIT(RO_WALL) |
						    RO_BIT(RO_EVENT) },
	/* the raw views of the file: no symbols, no samples picked */
	[RM_HEADER_ONLY] = { "--header-only", 0 },
	[RM_DUMP] = { "--dump", 0 },
	[RM_STATS] = { "--stats", 0 },
};

const struct report_mode *report_mode(enum report_mode_id id)
{
	return &modes[id];
}

/* The id of option row o, RO_NR for the options of every mode, -1 for one of neither. */
static int opt_id(const struct cli_option *o)
{
	if (!o->long_name)
		return -1;
	for (int i = 0; i < RO_NR; i++)
		if (!strcmp(opt_names[i], o->long_name))
			return i;
	for (size_t i = 0; i < sizeof(every_mode) / sizeof(every_mode[0]); i++)
		if (!strcmp(every_mode[i], o->long_name))
			return RO_NR;
	return -1;
}

/* The first given option of opts that mode id does not honour (or unknown), or NULL. */
static const struct cli_option *refused(enum report_mode_id id, const struct cli_option *opts,
					const uint8_t *given, bool *unknown)
{
	*unknown = false;
	for (size_t i = 0; opts[i].type != CLI_OPT_END; i++) {
		int o;

		if (!given[i] || opts[i].type == CLI_OPT_GROUP)
			continue;
		o = opt_id(&opts[i]);
		if (o < 0)
			*unknown = true;
		if (o < 0 || (o < RO_NR && !(modes[id].honours & RO_BIT(o))))
			return &opts[i];
	}
	return NULL;
}

bool report_mode_honours(enum report_mode_id id, const struct cli_option *opts,
			 const uint8_t *given)
{
	bool unknown;

	return !refused(id, opts, given, &unknown);
}

int report_mode_check(enum report_mode_id id, const struct cli_option *opts, const uint8_t *given)
{
	bool unknown;
	const struct cli_option *o = refused(id, opts, given, &unknown);

	if (!o)
		return 0;
	if (unknown)
		cli_error("'--%s' has no row in report's table of modes (src/report/modes.c): "
			  "a bug", o->long_name ? o->long_name : "?");
	else
		cli_error("'--%s%s' is not supported with '%s'",
			  given[o - opts] == CLI_GIVEN_NO ? "no-" : "", o->long_name,
			  modes[id].option);
	return -1;
}
