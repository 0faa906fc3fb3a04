/* xperf-stat printing of one period: rows per event and bucket, perf's header and footer. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "stat/print.h"

static enum stat_state bucket_state(const struct stat_evsel *e, int b)
{
	if (e->state[b] == STAT_NOT_SUPPORTED)
		return STAT_NOT_SUPPORTED;
	if (e->acc_run[b].mean <= 0 || e->acc_ena[b].mean <= 0)
		return STAT_NOT_COUNTED;
	return STAT_OK;
}

/* What else was counted in bucket b, for the derived figure of an event in context ctx. */
static void shadow_of(const struct stat_session *s, int b, unsigned int ctx, struct stat_shadow *sh)
{
	int i;

	memset(sh, 0, sizeof(*sh));
	for (i = 0; i < s->nr_ev; i++) {
		const struct stat_evsel *e = &s->evs[i];

		if (e->kind == STAT_K_OTHER || e->ctx != ctx || sh->have[e->kind])
			continue;
		if (bucket_state(e, b) != STAT_OK)
			continue;
		sh->have[e->kind] = true;
		sh->val[e->kind] = e->acc[b].mean;
	}
	/*
	 * perf 6.1 finds the task time for rates (K/sec, GHz) whatever the clock's modifiers:
	 * "task-clock:u,page-faults:k" still prints page-faults per second. Take the first
	 * counted clock when none shares ctx.
	 */
	for (i = 0; i < s->nr_ev && !sh->have[STAT_K_CLOCK]; i++) {
		const struct stat_evsel *e = &s->evs[i];

		if (e->kind != STAT_K_CLOCK || bucket_state(e, b) != STAT_OK)
			continue;
		sh->have[STAT_K_CLOCK] = true;
		sh->val[STAT_K_CLOCK] = e->acc[b].mean;
	}
}

static void fill_line(const struct stat_session *s, const struct stat_period *p,
		      const struct stat_evsel *e, int b, struct stat_line *l)
{
	struct stat_shadow sh;
	double mean = e->acc[b].mean;

	memset(l, 0, sizeof(*l));
	l->interval = p->interval;
	l->ts_ns = p->ts_ns;
	l->aggr = s->aggr;
	if (s->aggr == STAT_AGGR_NONE)
		l->cpu = b < s->target.cpus.nr ? s->target.cpus.cpu[b] : b;
	if (s->aggr == STAT_AGGR_THREAD) {
		l->tid = b < s->target.threads.nr ? s->target.threads.tid[b] : -1;
		l->comm = s->comm && b < s->target.threads.nr ? s->comm[b] : "";
	}
	l->name = e->name;
	l->unit = e->unit;
	l->scale = e->scale;
	l->state = bucket_state(e, b);
	l->uval = mean * e->scale;
	l->ena = (uint64_t)llround(e->acc_ena[b].mean);
	l->run = (uint64_t)llround(e->acc_run[b].mean);
	if (l->state == STAT_NOT_SUPPORTED)
		l->ena = l->run = 0;
	l->show_noise = p->run_count > 1;
	l->noise_pct = stat_rel_pct(stat_acc_stddev_mean(&e->acc[b]), mean);
	if (l->state == STAT_OK) {
		shadow_of(s, b, e->ctx, &sh);
		l->has_metric = stat_metric_for(e->kind, mean, &sh, p->walltime_ns, &l->metric);
	}
}

struct thread_row {
	int b;
	double v;
};

static int cmp_row(const void *a, const void *b)
{
	const struct thread_row *x = a, *y = b;

	if (x->v != y->v)
		return x->v < y->v ? 1 : -1;
	return x->b - y->b;
}

void stat_print_period(const struct stat_session *s, const struct stat_out *o,
		       const struct stat_period *p)
{
	struct stat_line l;
	struct thread_row *rows = NULL;
	int i, b;

	if (s->aggr == STAT_AGGR_THREAD)
		rows = calloc(s->nr_bucket ? s->nr_bucket : 1, sizeof(*rows));
	for (i = 0; i < s->nr_ev; i++) {
		const struct stat_evsel *e = &s->evs[i];

		if (!rows) {
			for (b = 0; b < s->nr_bucket; b++) {
				fill_line(s, p, e, b, &l);
				stat_print_line(o, &l);
			}
			continue;
		}
		/* perf lists threads busiest first */
		for (b = 0; b < s->nr_bucket; b++) {
			rows[b].b = b;
			rows[b].v = e->acc[b].mean;
		}
		qsort(rows, s->nr_bucket, sizeof(*rows), cmp_row);
		for (b = 0; b < s->nr_bucket; b++) {
			fill_line(s, p, e, rows[b].b, &l);
			stat_print_line(o, &l);
		}
	}
	free(rows);
}

/*
 * Beyond perf (--table with -r): the smallest and largest count of each event over the
 * runs, so an outlier run shows without rerunning with -x.
 */
void stat_print_ranges(const struct stat_session *s, const struct stat_out *o)
{
	char lo[64], hi[64];
	int i, b, dec;

	if (o->csv_sep || o->json)
		return;
	fprintf(o->fh, "\n%*s# Range of counts over the runs (min, max):\n", 9, "");
	for (i = 0; i < s->nr_ev; i++) {
		const struct stat_evsel *e = &s->evs[i];

		for (b = 0; b < s->nr_bucket; b++) {
			if (bucket_state(e, b) != STAT_OK)
				continue;
			/* the same decimals as the count column: %.2f for msec, none for counts */
			dec = floor(e->scale) != e->scale ? 2 : 0;
			stat_fmt_number(lo, sizeof(lo), e->acc[b].min * e->scale, dec,
					o->big_num ? o->thousands : NULL);
			stat_fmt_number(hi, sizeof(hi), e->acc[b].max * e->scale, dec,
					o->big_num ? o->thousands : NULL);
			fprintf(o->fh, " %*s %*s %-*s %s\n", STAT_COUNTS_LEN, lo, STAT_COUNTS_LEN, hi,
				o->unit_width, e->unit, e->name);
		}
	}
}

void stat_print_interval_header(const struct stat_session *s, const struct stat_out *o)
{
	if (o->csv_sep || o->json)
		return;
	switch (s->aggr) {
	case STAT_AGGR_NONE:
		fprintf(o->fh, "#           time CPU    ");
		fprintf(o->fh, "                counts %*s events\n", o->unit_width, "unit");
		break;
	case STAT_AGGR_THREAD:
		fprintf(o->fh, "#           time             comm-pid");
		fprintf(o->fh, "                  counts %*s events\n", o->unit_width, "unit");
		break;
	default:
		fprintf(o->fh, "#           time");
		fprintf(o->fh, "             counts %*s events\n", o->unit_width, "unit");
		break;
	}
}

void stat_print_header(const struct stat_out *o, const char *target, int run_count)
{
	if (o->csv_sep || o->json)
		return;
	fprintf(o->fh, "\n Performance counter stats for %s", target);
	if (run_count > 1)
		fprintf(o->fh, " (%d runs)", run_count);
	fprintf(o->fh, ":\n\n");
}

/* perf's --table: each run's wall time and its distance from the mean, as a bar of '#' */
static void print_table(const struct stat_out *o, const struct stat_footer *f, int precision,
			double avg)
{
	char tmp[64];
	int i, indent = 0;

	snprintf(tmp, sizeof(tmp), " %17.*f", precision, avg);
	while (tmp[indent] == ' ')
		indent++;
	fprintf(o->fh, "%*s# Table of individual measurements:\n", indent, "");
	for (i = 0; i < f->nr_walls; i++) {
		double run = f->walls[i];
		int h, n = run > 0 ? 1 + abs((int)(100.0 * (run - avg) / run) / 5) : 1;

		fprintf(o->fh, " %17.*f (%+.*f) ", precision, run, precision, run - avg);
		for (h = 0; h < n; h++)
			fputc('#', o->fh);
		fputc('\n', o->fh);
	}
	/* Beyond perf: the spread at a glance */
	fprintf(o->fh, "\n%*s# Range: min %.*f, max %.*f seconds\n", indent, "", precision,
		f->wall->min, precision, f->wall->max);
	fprintf(o->fh, "\n%*s# Final result:\n", indent, "");
}

void stat_print_footer(const struct stat_out *o, const struct stat_footer *f)
{
	double avg = f->wall->mean;

	if (o->csv_sep || o->json)
		return;
	if (!f->null_run)
		fputc('\n', o->fh);
	if (f->run_count <= 1) {
		fprintf(o->fh, " %17.9f seconds time elapsed", avg);
		if (f->ru_display) {
			fprintf(o->fh, "\n\n");
			fprintf(o->fh, " %17.9f seconds user\n", f->ru_user);
			fprintf(o->fh, " %17.9f seconds sys\n", f->ru_sys);
		}
	} else {
		double sd = stat_acc_stddev_mean(f->wall);
		int precision = stat_precision(sd) + 2;
		double pct;

		if (f->table)
			print_table(o, f, precision, avg);
		fprintf(o->fh, " %17.*f +- %.*f seconds time elapsed", precision, avg, precision, sd);
		pct = stat_rel_pct(sd, avg);
		if (pct != 0.0)
			fprintf(o->fh, "  ( +-%6.2f%% )", pct);
	}
	fprintf(o->fh, "\n\n");
}
