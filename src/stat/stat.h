/* xperf-stat internals shared by its files: counts, scaling, statistics, metrics, output lines. */
#ifndef XPERF_STAT_H
#define XPERF_STAT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

/*
 * Data flow: counters.c reads {value, time_enabled, time_running} per fd and sums them
 * into buckets (one per output row: the whole target, a cpu for -A, a thread for
 * --per-thread); stat_scale() turns a bucket into a count; metrics.c derives the figure
 * perf prints after '#'; output.c turns each (event, bucket) into a struct stat_line and
 * hands it to one of the three printers (std, CSV, JSON).
 */

/* ---- arithmetic (stat_math.c) -------------------------------------------------------- */

struct stat_counts {
	uint64_t val, ena, run;
};

enum stat_state {
	STAT_OK = 0,
	STAT_NOT_COUNTED,   /* never scheduled (running time 0): "<not counted>" */
	STAT_NOT_SUPPORTED, /* the kernel has no such counter: "<not supported>" */
};

/*
 * Scale a count for multiplexing as perf does: val * ena / run. Returns STAT_NOT_COUNTED
 * (and *out = 0) when run or ena is 0, else STAT_OK. *scaled (may be NULL) is set when the
 * count was extrapolated (run < ena).
 */
enum stat_state stat_scale(const struct stat_counts *c, bool scale, double *out, bool *scaled);

/* perf's CSV/JSON running percentage: 100 * run / ena in integer arithmetic, 100 if equal
 * (its std "(NN.NN%)" divides in floating point instead, see output.c). */
double stat_running_pct(uint64_t run, uint64_t ena);

/* Running mean and variance (Welford), plus min and max, over the -r runs. */
struct stat_acc {
	unsigned int n;
	double mean, m2, min, max;
};
void stat_acc_add(struct stat_acc *a, double v);
/* Standard deviation of the mean (perf's stddev_stats()): sqrt(var / n), 0 when n < 2. */
double stat_acc_stddev_mean(const struct stat_acc *a);
/* 100 * sd / avg, 0 when avg is 0 (perf's rel_stddev_stats()). */
double stat_rel_pct(double sd, double avg);
/* Decimals perf uses for the "+- sd" elapsed line: 0 above 1, else ceil(-log10(sd)). */
int stat_precision(double sd);

/* perf's convert_unit_double(): scale to K/M/G, *unit = ' ', 'K', 'M' or 'G'. */
double stat_convert_unit(double v, char *unit);

/* ---- number formatting (stat_fmt.c) -------------------------------------------------- */

/*
 * printf("%.*f", decimals, v) with thousands grouped by sep (NULL or "" for none), as
 * printf's "%'" does in a locale with grouping by 3. Returns the length written.
 */
int stat_fmt_number(char *buf, size_t len, double v, int decimals, const char *sep);

/* ---- one output row ------------------------------------------------------------------ */

enum stat_aggr {
	STAT_AGGR_GLOBAL = 0, /* one row per event */
	STAT_AGGR_NONE,       /* -A: one row per event and cpu */
	STAT_AGGR_THREAD,     /* --per-thread: one row per event and thread */
};

struct stat_metric {
	const char *fmt;  /* printf format of the value (perf's), NULL for a blank metric */
	char unit[32];    /* "CPUs utilized", "K/sec", ...; "" for none */
	double val;
};

struct stat_line {
	bool interval;        /* prefix a timestamp */
	uint64_t ts_ns;       /* time since start (interval mode) */
	enum stat_aggr aggr;
	int cpu;              /* STAT_AGGR_NONE */
	const char *comm;     /* STAT_AGGR_THREAD */
	int tid;
	const char *name;
	const char *unit;     /* "" or "msec", ... */
	double scale;         /* the event's unit scale: integral (1.0) prints without decimals */
	enum stat_state state;
	double uval;          /* count * scale */
	uint64_t run, ena;
	bool show_noise;      /* -r N > 1 */
	double noise_pct;
	bool has_metric;      /* a metric column (maybe blank) is printed */
	struct stat_metric metric;
};

/* Output settings shared by the printers. */
struct stat_out {
	FILE *fh;
	const char *csv_sep;  /* NULL unless -x */
	bool json;
	bool big_num;         /* group thousands in std output */
	const char *thousands; /* the locale's separator ("" in C) */
	int unit_width;       /* max(4, longest unit) */
};

#define STAT_COUNTS_LEN 18
#define STAT_EVNAME_LEN 32
#define STAT_METRIC_LEN 35

void stat_print_std(const struct stat_out *o, const struct stat_line *l);
void stat_print_csv(const struct stat_out *o, const struct stat_line *l);
void stat_print_json(const struct stat_out *o, const struct stat_line *l);
void stat_print_line(const struct stat_out *o, const struct stat_line *l);

/* ---- metrics (metrics.c) ------------------------------------------------------------- */

/* What an event is, for the derived figures. */
enum stat_kind {
	STAT_K_OTHER = 0,
	STAT_K_CLOCK,        /* task-clock, cpu-clock: nanoseconds */
	STAT_K_CYCLES,
	STAT_K_INSTRUCTIONS,
	STAT_K_BRANCHES,
	STAT_K_BRANCH_MISSES,
	STAT_K_CACHE_REFS,
	STAT_K_CACHE_MISSES,
	STAT_K_L1D_LOADS,
	STAT_K_L1D_LOAD_MISSES,
	STAT_K_L1I_LOADS,
	STAT_K_L1I_LOAD_MISSES,
	STAT_K_LLC_LOADS,
	STAT_K_LLC_LOAD_MISSES,
	STAT_K_DTLB_LOADS,
	STAT_K_DTLB_LOAD_MISSES,
	STAT_K_ITLB_LOADS,
	STAT_K_ITLB_LOAD_MISSES,
	STAT_K_NR
};

struct perf_event_attr;
enum stat_kind stat_kind_of(const struct perf_event_attr *attr);
/* The modifier context: events only feed metrics of events with the same exclude_ bits. */
unsigned int stat_ctx_of(const struct perf_event_attr *attr);

/* The inputs available in one bucket: counted totals per kind and context. */
struct stat_shadow {
	bool have[STAT_K_NR];
	double val[STAT_K_NR];
};

/*
 * perf's shadow metric for an event of kind k with count val (already scaled), given what
 * else was counted in the same bucket and context and the wall time in ns. Returns false
 * when perf prints no metric column content (the line is padded instead).
 */
bool stat_metric_for(enum stat_kind k, double val, const struct stat_shadow *sh,
		     double walltime_ns, struct stat_metric *m);

#endif
