/* Internal interface of the stdio report: its printers, over the views' shared model (src/view). */
#ifndef XPERF_REPORT_STDIO_INT_H
#define XPERF_REPORT_STDIO_INT_H

#include <stdint.h>
#include <stdio.h>

#include "view/cg_print.h"
#include "view/rv.h"

/*
 * Call-graph views (print_callgraph.c): one event's entries with their graphs; with
 * nr_members > 1 the group it leads, side by side (stdio_print_group_rows()).
 */
int stdio_print_callgraph_event(struct rv_ctx *c, uint32_t idx, uint32_t nr_members, FILE *out);

/* Shared with print_callgraph.c (print.c). */
void stdio_print_event_head(struct rv_ctx *c, uint32_t idx, FILE *out);
/* The event count line, or --mem-mode's total weight and sort order (then "#"). */
void stdio_print_count(const struct rv_ctx *c, uint64_t period, FILE *out);
void stdio_print_titles(const struct rv_cols *v, FILE *out);
/* The key columns of an entry line (after its own metrics), each after two spaces, a
 * newline: the group view's, whose metrics are the members' */
void stdio_print_keys(const struct rv_cols *v, const struct xpp_hist_key *k, FILE *out);
/* One entry line: the columns of v->out for entry e of g (shown with key k), a newline. */
void stdio_print_row(const struct rv_cols *v, const struct rv_entries *g, uint32_t e,
		     const struct xpp_hist_key *k, FILE *out);

/* perf's event groups (print_group.c, over view/group.h). */
struct rv_group;
/* "# Samples: ..." of a group and its count lines */
void stdio_print_group_head(const struct rv_group *g, FILE *out);
/* The section of the n events from lead, side by side. 0 or -ENOMEM. */
int stdio_print_group(struct rv_ctx *c, uint32_t lead, uint32_t n, FILE *out);
/* The same with call graphs: the leader's entries and graphs in g, its n - 1 members. */
int stdio_print_group_rows(struct rv_cgview *g, uint32_t n, FILE *out);

/*
 * --hierarchy (print_hier.c): the section of event idx, or of the n events of the group it
 * leads, as a tree of its sort keys. 0 or -ENOMEM.
 */
int stdio_print_hier(struct rv_ctx *c, uint32_t idx, uint32_t n, FILE *out);

/* Print every event's section to out, as perf report --stdio does. 0 or -ENOMEM. */
int stdio_print(struct rv_ctx *c, FILE *out);

#endif
