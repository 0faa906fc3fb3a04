/* Internal state of the stdio report, shared by the pass over the file and the printer. */
#ifndef XPERF_REPORT_STDIO_INT_H
#define XPERF_REPORT_STDIO_INT_H

#include <stdint.h>
#include <stdio.h>

#include "format/xpf_reader.h"
#include "profile/profile.h"
#include "report/stdio/report_stdio.h"

enum cg_mode { CG_GRAPH, CG_FOLDED, CG_NONE };
enum cg_value { CG_PERCENT, CG_COUNT, CG_PERIOD };

/* What -g asked for, perf's defaults filled in once the file's attrs are known. */
struct cg_opts {
	enum cg_mode mode;
	double threshold;      /* percent of the event's total: smaller branches are hidden */
	int order;             /* 1 caller first, 0 callee first, -1 perf's default */
	enum cg_value value;
	bool srcline;          /* -g srcline: frames show their source line and differ by it */
};

/*
 * The stdio view of one profile: the profile's results (borrowed pointers) and how to show
 * them.
 */
struct stdio_ctx {
	const struct report_stdio_opts *o;
	const xpp_profile *p;
	xpf_reader *r;
	xpp_dso_table *dsos;
	const xpp_intern *comms;
	const struct xpp_event *ev;
	uint32_t nr_ev;
	uint64_t lost_samples;
	unsigned int cols[4];  /* XPP_HIST_KEY_* in column order */
	unsigned int nr_cols;
	const struct xpp_name_list *comm_filter, *dso_filter;
	bool callchains;       /* some attr samples PERF_SAMPLE_CALLCHAIN */
	bool children;         /* --children in effect */
	struct cg_opts cg;
};

/* The key of frame id f as a hist entry of command comm. */
struct xpp_hist_key stdio_frame_key(const struct stdio_ctx *c, uint32_t comm, uint32_t f);

/* Call-graph views (print_callgraph.c): one event's entries with their graphs. */
int stdio_print_callgraph_event(struct stdio_ctx *c, uint32_t idx, FILE *out);

/* Shared with print_callgraph.c (print.c). */
struct view {
	struct stdio_ctx *c;
	unsigned int cols[4], nr_cols;
	int width[4];
};
void stdio_view_init(struct view *v, struct stdio_ctx *c);
int stdio_cmp_keys(const struct xpp_hist_key *a, const struct xpp_hist_key *b, const struct view *v);
void stdio_widths(struct view *v, const struct xpp_hist_entry *e, size_t n);
void stdio_print_event_head(struct stdio_ctx *c, uint32_t idx, FILE *out);
void stdio_print_titles(const struct view *v, bool nr_samples, FILE *out);
void stdio_print_keys(const struct view *v, const struct xpp_hist_key *k, FILE *out);
const char *stdio_sym_name(const struct stdio_ctx *c, const struct xpp_hist_key *k);
const char *stdio_dso_name(const struct stdio_ctx *c, const struct xpp_hist_key *k);

/* Print every event's section to out, as perf report --stdio does. 0 or -ENOMEM. */
int stdio_print(struct stdio_ctx *c, FILE *out);

#endif
