/* xperf-stat printing of a whole period and of perf's header and footer (print.c). */
#ifndef XPERF_STAT_PRINT_H
#define XPERF_STAT_PRINT_H

#include "stat/session.h"

struct stat_period {
	bool interval;        /* rows carry a timestamp */
	uint64_t ts_ns;
	double walltime_ns;   /* for "CPUs utilized" */
	int run_count;        /* > 1: print the noise */
};

struct stat_footer {
	int run_count;
	bool null_run;
	const struct stat_acc *wall; /* seconds */
	bool ru_display;
	double ru_user, ru_sys;
	bool table;
	const double *walls;  /* per run, seconds */
	int nr_walls;
};

void stat_print_period(const struct stat_session *s, const struct stat_out *o,
		       const struct stat_period *p);
/* --table with -r: each event's min and max count over the runs (beyond perf) */
void stat_print_ranges(const struct stat_session *s, const struct stat_out *o);
void stat_print_interval_header(const struct stat_session *s, const struct stat_out *o);
/* target is quoted by the caller: "'true'", "process id '42'", "'system wide'" */
void stat_print_header(const struct stat_out *o, const char *target, int run_count);
void stat_print_footer(const struct stat_out *o, const struct stat_footer *f);

#endif
