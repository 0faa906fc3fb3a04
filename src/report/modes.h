/* xperf report's output modes as a table: each mode names the options it honours. */
#ifndef XPERF_REPORT_MODES_H
#define XPERF_REPORT_MODES_H

#include <stdbool.h>
#include <stdint.h>

#include "cli/cli.h"

/*
 * The options whose meaning depends on the mode, each a bit of a mode's `honours`. The
 * others (-i, -q, -v and the mode switches themselves) mean the same to every mode. An
 * option of report's table that is in neither list is a bug report_mode_check() names,
 * so a new option cannot be added without saying which modes honour it.
 */
enum report_opt {
	RO_SORT,            /* -s */
	RO_FIELDS,          /* -F */
	RO_PERCENT_LIMIT,
	RO_THREADS,         /* -T */
	RO_GROUP,
	RO_SHOW_NR,         /* -n */
	RO_SHOW_PERIOD,     /* --show-total-period */
	RO_HEADER,
	RO_COMMS,           /* the filters: -c, -d, --pid, --tid, -C, --time, -S, --hide-unresolved */
	RO_DSOS,
	RO_PID,
	RO_TID,
	RO_CPU,
	RO_TIME,
	RO_SYMBOLS,
	RO_HIDE_UNRESOLVED,
	RO_PARENT,          /* -p */
	RO_EXCLUDE_OTHER,   /* -x */
	RO_CHILDREN,
	RO_CALL_GRAPH,      /* -g */
	RO_INVERTED,        /* -G */
	RO_INLINE,
	RO_MAX_STACK,
	RO_KALLSYMS,        /* symbol lookup: --kallsyms, --vmlinux, --demangle, --symfs,
			       --debuginfod */
	RO_VMLINUX,
	RO_DEMANGLE,
	RO_SYMFS,
	RO_DEBUGINFOD,
	RO_WALL,
	RO_EVENT,
	RO_FLAME_INVERTED,  /* --flamegraph-inverted */
	RO_MEM_MODE,        /* --mem-mode: the stdio and TUI views' keys and weights */
	RO_HIERARCHY,       /* --hierarchy: the stdio view's */
	RO_NR
};

#define RO_BIT(o) (UINT64_C(1) << (o))

enum report_mode_id {
	RM_STDIO,
	RM_TUI,
	RM_FLAMEGRAPH,
	RM_PPROF,
	RM_SPEEDSCOPE,
	RM_HEADER_ONLY,
	RM_DUMP,
	RM_STATS,
	RM_NR
};

struct report_mode {
	const char *option;  /* the switch that chooses it, as messages name the mode */
	uint64_t honours;    /* RO_BIT()s of the options it can honour */
};

const struct report_mode *report_mode(enum report_mode_id id);

/*
 * Whether mode id honours every option of opts given on the command line (given[i] for
 * opts[i], from cli_parse_given()): 0, or -1 after a usage error naming the first option
 * it cannot honour and the mode ("'--percent-limit' is not supported with '--pprof'"), or
 * an option the table does not know.
 */
int report_mode_check(enum report_mode_id id, const struct cli_option *opts, const uint8_t *given);

/*
 * Whether mode id honours them, without a word: where report picks the mode itself (the
 * TUI on a terminal), options only the stdio view honours pick the stdio view.
 */
bool report_mode_honours(enum report_mode_id id, const struct cli_option *opts,
			 const uint8_t *given);

#endif
