/* Internal interface of the stdio report: its printers, over the views' shared model (report/view). */
#ifndef XPERF_REPORT_STDIO_INT_H
#define XPERF_REPORT_STDIO_INT_H

#include <stdint.h>
#include <stdio.h>

#include "report/view/rv.h"

/* Call-graph views (print_callgraph.c): one event's entries with their graphs. */
int stdio_print_callgraph_event(struct rv_ctx *c, uint32_t idx, FILE *out);

/* Shared with print_callgraph.c (print.c). */
void stdio_print_event_head(struct rv_ctx *c, uint32_t idx, FILE *out);
void stdio_print_titles(const struct rv_cols *v, FILE *out);
/* One entry line: the columns of v->out for entry e of g (shown with key k), a newline. */
void stdio_print_row(const struct rv_cols *v, const struct rv_entries *g, uint32_t e,
		     const struct xpp_hist_key *k, FILE *out);

/* Print every event's section to out, as perf report --stdio does. 0 or -ENOMEM. */
int stdio_print(struct rv_ctx *c, FILE *out);

#endif
