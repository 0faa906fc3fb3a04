/* xperf-diff's model: the input files, the rows that pair their entries, the columns perf diff shows. */
#ifndef XPERF_DIFF_H
#define XPERF_DIFF_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "view/opts.h"
#include "view/rv.h"

/* -c: perf diff's computations, in its order */
enum diff_compute { DIFF_DELTA, DIFF_RATIO, DIFF_WDIFF, DIFF_DELTA_ABS };

struct diff_opts {
	enum diff_compute compute;
	int64_t w1, w2;             /* wdiff:W1,W2 */
	unsigned int order;         /* -o: the file whose column sorts first (0: baseline) */
	bool period, formula, baseline_only, absolute;
	const char *sep;            /* -t; NULL: aligned columns */
	const char *flamegraph;     /* --flamegraph FILE: a differential flame graph instead */
	bool tui;                   /* --tui: NEW browsed, its flame graph coloured by the change */
	struct view_opts view;      /* lookup, filters, --sort, -q, -v: as report */
};

/* One input file: its reader, its one pass, and the entries of the event being shown. */
struct diff_file {
	const char *path;
	xpf_reader *r;
	xpp_profile *p;
	struct rv_ctx c;
	struct rv_entries g;        /* of the event shown (valid while `built`) */
	bool built;
	double total;               /* the period percentages are of (perf's hists total) */
	/* the pass, run on a thread of its own (cmd_diff.c) */
	struct xpp_opts po;
	struct xb_error err;
	int ret;
};

/*
 * One line of an event's table: an entry of the baseline, or (perf's dummy entry) of a
 * newer file that the baseline lacks. Entries of one file with the same names (symbols of
 * one name at several addresses: static functions, the kernel's .constprop clones; the
 * unresolved samples of a DSO) are one line, as perf diff collapses them. ent[f]: the
 * first (lowest address) entry of file f on the line, + 1 (0: none), period[f] their sum;
 * `key_file` the file whose entry names the line.
 */
struct diff_row {
	uint32_t key_file;
	uint32_t *ent;
	uint64_t *period;
	uint32_t seq;               /* made in this order: the last tie-break */
};

struct diff_table {
	const struct diff_opts *o;
	struct diff_file *f;
	uint32_t nf;
	struct diff_row *rows;
	size_t nr, cap;
	uint32_t *ent_pool;
	double base_shown;          /* the Baseline column's total after -b (perf's resort) */
};

/*
 * perf's evsel__match2: the event of d that is event idx of base, the same attr type and
 * config (the first; with sampled, the first with samples), or -1.
 */
int64_t diff_match_event(const struct diff_file *base, uint32_t idx, const struct diff_file *d,
			 bool sampled);

/* table.c: pair the entries of the files' built events, drop unpaired rows with -b, sort. */
int diff_table_build(struct diff_table *t);
void diff_table_free(struct diff_table *t);
/* the period of file f's entry in row r (0: none) and whether it has one */
uint64_t diff_period(const struct diff_table *t, const struct diff_row *r, uint32_t f);
bool diff_has(const struct diff_row *r, uint32_t f);
bool diff_dummy(const struct diff_row *r);
/* the row's key (from the file that names it) and that file's view */
struct xpp_hist_key diff_row_key(const struct diff_table *t, const struct diff_row *r);
const struct rv_ctx *diff_row_ctx(const struct diff_table *t, const struct diff_row *r);
/* perf's computed values of file f's pair against the baseline */
double diff_delta(const struct diff_table *t, const struct diff_row *r, uint32_t f);
double diff_ratio(const struct diff_table *t, const struct diff_row *r, uint32_t f);
int64_t diff_wdiff(const struct diff_table *t, const struct diff_row *r, uint32_t f);

/* print.c: an event's section as perf diff prints it */
void diff_print_event(struct diff_table *t, const char *event, bool first, FILE *out);

/*
 * flame.c: the flame graph of f[1] (NEW) coloured by the change from f[0] (OLD), of the
 * first event both have samples of, written to path ("-": stdout). The passes must have
 * kept call chains. Errors are printed; returns a CLI_EXIT_* status.
 */
int diff_flamegraph_write(const struct diff_file *f, const char *path);

/*
 * tui.c: f[1] (NEW) browsed in the TUI with view's options (those of the passes), opening on
 * the flame graph of the first event both files have samples of, coloured by the change
 * from f[0] (OLD). Errors are printed; returns a CLI_EXIT_* status.
 */
int diff_tui_run(const struct diff_file *f, const struct view_opts *view, double t0);

#endif
