/* Internal state of the stdio report, shared by the pass over the file and the printer. */
#ifndef XPERF_REPORT_STDIO_INT_H
#define XPERF_REPORT_STDIO_INT_H

#include <stdint.h>
#include <stdio.h>

#include "format/xpf_reader.h"
#include "report/hist/callgraph.h"
#include "report/hist/hist.h"
#include "report/session/intern.h"
#include "report/session/machine.h"
#include "report/session/ordered.h"
#include "report/stdio/report_stdio.h"
#include "report/symbols/dso.h"

/* One event's aggregation; totals count every sample, filtered or not (perf's absolute %). */
struct event_hist {
	hist *h;
	callgraph *cg;         /* root -> comm id -> frame ids, outermost caller first */
	uint64_t nr_samples, total_period;
};

/* A --comms/--dsos list, and per-id verdicts cached so a sample costs one byte read. */
struct name_filter {
	char **names;
	uint32_t nr;
	uint8_t *verdict;      /* per id: 0 unknown, 1 pass, 2 drop */
	uint32_t cap;
};

/* One (process, mode, ip) -> frame answer; valid while no side-band record came since. */
#define FRAME_CACHE_BITS 14
struct frame_slot {
	uint64_t ip, tag;
	uint32_t epoch, frame;
};

enum cg_mode { CG_GRAPH, CG_FOLDED, CG_NONE };
enum cg_value { CG_PERCENT, CG_COUNT, CG_PERIOD };

/* What -g asked for, perf's defaults filled in once the file's attrs are known. */
struct cg_opts {
	enum cg_mode mode;
	double threshold;      /* percent of the event's total: smaller branches are hidden */
	int order;             /* 1 caller first, 0 callee first, -1 perf's default */
	enum cg_value value;
};

struct stdio_ctx {
	const struct report_stdio_opts *o;
	xpf_reader *r;
	dso_table *dsos;
	intern *comms;
	machine *m;
	ordered *q;
	struct event_hist *ev;
	uint32_t nr_ev;
	uint64_t lost_samples;
	unsigned int cols[3];  /* HIST_KEY_* in column order */
	unsigned int nr_cols;
	struct name_filter comm_filter, dso_filter;
	struct xpf_error err;
	/* the attr of the previous sample and its index: most files have one or two */
	const struct xpf_attr *last_attr;
	uint32_t last_idx;
	/* call graphs */
	bool callchains;       /* some attr samples PERF_SAMPLE_CALLCHAIN */
	bool children;         /* --children in effect */
	struct cg_opts cg;
	hist *frames;          /* interned frames: hist_key with comm 0, the id is the index */
	uint32_t *chain;       /* scratch for one sample's path, grown, never per sample */
	uint32_t chain_cap;
	struct frame_slot *fcache;
	uint32_t epoch;        /* bumped by every side-band record */
};

/* The key of frame id f as a hist entry of command comm. */
struct hist_key stdio_frame_key(const struct stdio_ctx *c, uint32_t comm, uint32_t f);

/* Call-graph views (print_callgraph.c): one event's entries with their graphs. */
int stdio_print_callgraph_event(struct stdio_ctx *c, uint32_t idx, FILE *out);

/* Shared with print_callgraph.c (print.c). */
struct view {
	struct stdio_ctx *c;
	unsigned int cols[3], nr_cols;
	int width[3];
};
void stdio_view_init(struct view *v, struct stdio_ctx *c);
int stdio_cmp_keys(const struct hist_key *a, const struct hist_key *b, const struct view *v);
void stdio_widths(struct view *v, const struct hist_entry *e, size_t n);
void stdio_print_event_head(struct stdio_ctx *c, uint32_t idx, FILE *out);
void stdio_print_titles(const struct view *v, bool nr_samples, FILE *out);
void stdio_print_keys(const struct view *v, const struct hist_key *k, FILE *out);
const char *stdio_sym_name(const struct stdio_ctx *c, const struct hist_key *k);
const char *stdio_dso_name(const struct stdio_ctx *c, const struct hist_key *k);

/* Print every event's section to out, as perf report --stdio does. 0 or -ENOMEM. */
int stdio_print(struct stdio_ctx *c, FILE *out);

#endif
