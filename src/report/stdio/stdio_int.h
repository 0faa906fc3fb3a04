/* Internal state of the stdio report, shared by the pass over the file and the printer. */
#ifndef XPERF_REPORT_STDIO_INT_H
#define XPERF_REPORT_STDIO_INT_H

#include <stdint.h>
#include <stdio.h>

#include "format/xpf_reader.h"
#include "report/hist/hist.h"
#include "report/session/intern.h"
#include "report/session/machine.h"
#include "report/session/ordered.h"
#include "report/stdio/report_stdio.h"
#include "report/symbols/dso.h"

/* One event's aggregation; totals count every sample, filtered or not (perf's absolute %). */
struct event_hist {
	hist *h;
	uint64_t nr_samples, total_period;
};

/* A --comms/--dsos list, and per-id verdicts cached so a sample costs one byte read. */
struct name_filter {
	char **names;
	uint32_t nr;
	uint8_t *verdict;      /* per id: 0 unknown, 1 pass, 2 drop */
	uint32_t cap;
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
};

/* Print every event's section to out, as perf report --stdio does. 0 or -ENOMEM. */
int stdio_print(struct stdio_ctx *c, FILE *out);

#endif
