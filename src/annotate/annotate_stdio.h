/* The --stdio view of xperf annotate: perf annotate's layout for one annotated symbol. */
#ifndef XPERF_ANNOTATE_STDIO_H
#define XPERF_ANNOTATE_STDIO_H

#include <stdbool.h>
#include <stdio.h>

#include "profile/disasm/annotate.h"

enum ann_value { ANN_PERCENT, ANN_NR_SAMPLES, ANN_PERIOD };

struct ann_print_opts {
	const char *event;      /* the event's name for the header */
	enum ann_value value;   /* what the first column shows */
	bool hits;              /* --percent-type local-hits: shares of samples, not period */
	bool source;            /* source lines above their instructions (perf's default) */
	bool print_lines;       /* -l: a summary of the hottest source lines, and each hot
				   instruction's file:line */
	bool full_paths;        /* -P */
	bool color;             /* perf's colours for percentages */
};

/* What persists from one symbol to the next in one run (perf keeps it too). */
struct ann_print_state {
	char last_path[512];    /* the last "// file:line" printed (-l) */
};

/* Print annotation a as `perf annotate --stdio` does: -l's summary, header, lines. */
void ann_print_stdio(xpp_annotation *a, const struct ann_print_opts *o,
		     struct ann_print_state *st, FILE *out);

#endif
