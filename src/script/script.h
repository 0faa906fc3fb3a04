/* xperf script: what its files share (fields, the output, the per-sample printer). */
#ifndef XSCRIPT_SCRIPT_H
#define XSCRIPT_SCRIPT_H

#include <stdbool.h>
#include <stdint.h>

#include "profile/profile.h"
#include "script/out.h"

/* perf script's output fields (builtin-script.c PERF_OUTPUT_*), the ones we print */
enum {
	F_COMM = 1u << 0,
	F_TID = 1u << 1,
	F_PID = 1u << 2,
	F_TIME = 1u << 3,
	F_CPU = 1u << 4,
	F_EVNAME = 1u << 5,
	F_TRACE = 1u << 6,
	F_IP = 1u << 7,
	F_SYM = 1u << 8,
	F_DSO = 1u << 9,
	F_ADDR = 1u << 10,
	F_SYMOFFSET = 1u << 11,
	F_SRCLINE = 1u << 12,
	F_PERIOD = 1u << 13,
	F_MISC = 1u << 14,
};

/* perf's output types: the event types -F may name ("hw:", "sw:", "trace:", "raw:") */
enum { T_HW, T_SW, T_TRACE, T_RAW, T_BREAKPOINT, T_CACHE, T_NR };

struct script_fields {
	unsigned int fields[T_NR];
	bool user_set[T_NR];  /* -F named this type (or every type) */
	unsigned int user_fields[T_NR]; /* fields the user named, which must be available */
};

/* Parse one -F argument into f (which starts as the defaults); 0 or -1 after an error. */
int script_fields_parse(struct script_fields *f, const char *arg);
void script_fields_default(struct script_fields *f);
/* The output type of an attr (T_*). */
int script_output_type(const struct perf_event_attr *a);
/*
 * Check the fields against the file's events as perf does: fields the samples lack are
 * dropped from the defaults, an error (-1, printed) where the user asked for them.
 */
int script_fields_check(struct script_fields *f, xpf_reader *r);

struct tp_printer; /* tracepoint field printing (tracepoint_*.c) */

struct script {
	xpp_profile *p;
	xpf_reader *r;
	struct out *out;
	struct script_fields f;
	bool ns, show_task, show_mmap, show_switch, callchains;
	int name_width;          /* the widest event name */
	const char **ev_names;   /* per attr index */
	uint32_t nr_names;
	struct tp_printer *tp;
	bool srcline_unsupported; /* said once: no libdw for -F srcline */
};

int script_on_sample(void *ctx, const struct xpp_sample_view *v);
int script_on_side_band(void *ctx, const struct perf_event_header *hdr);

/* Folded stacks of every event's call tree, sorted, to out. 0 or a negative errno. */
int script_print_folded(xpp_profile *p, struct out *out);

/*
 * Tracepoint fields from the file's TRACING_DATA (libtraceevent where built with it):
 * NULL without tracepoints or support; tp_print() prints one sample's fields as perf does.
 * Kernel addresses in the fields (%pS) are named from p's kernel symbols.
 */
int tp_printer_create(struct tp_printer **out, xpf_reader *r, xpp_profile *p, const char **why);
void tp_printer_free(struct tp_printer *tp);
/* The i-th line to say about event formats the printer left out (damaged), or NULL. */
const char *tp_printer_warning(const struct tp_printer *tp, unsigned int i);
void tp_print(struct tp_printer *tp, const struct xpf_sample *s, struct out *out);

#endif
