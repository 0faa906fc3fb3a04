/* xperf-stat output: the three line printers (std, CSV, JSON) behind one entry point. */
#include <math.h>
#include <inttypes.h>
#include <string.h>

#include "base/json.h"
#include "stat/stat.h"

static const char *state_str(enum stat_state s)
{
	return s == STAT_NOT_SUPPORTED ? "<not supported>" : "<not counted>";
}

static int value_decimals(double scale)
{
	/* perf prints "%.2f" for scaled units (msec, Joules) and "%.0f" for plain counts */
	return floor(scale) != scale ? 2 : 0;
}

static void print_prefix(const struct stat_out *o, const struct stat_line *l, const char *sep)
{
	FILE *f = o->fh;

	if (l->interval)
		fprintf(f, "%6lu.%09lu%s", (unsigned long)(l->ts_ns / 1000000000ull),
			(unsigned long)(l->ts_ns % 1000000000ull), sep);
	if (l->aggr == STAT_AGGR_NONE) {
		if (o->csv_sep)
			fprintf(f, "CPU%d%s", l->cpu, sep);
		else
			fprintf(f, "CPU%-7d%s", l->cpu, sep);
	} else if (l->aggr == STAT_AGGR_THREAD) {
		if (o->csv_sep)
			fprintf(f, "%s-%d%s", l->comm ? l->comm : "", l->tid, sep);
		else
			fprintf(f, "%16s-%-8d%s", l->comm ? l->comm : "", l->tid, sep);
	}
}

void stat_print_std(const struct stat_out *o, const struct stat_line *l)
{
	FILE *f = o->fh;
	char num[128];

	print_prefix(o, l, " ");
	if (l->state == STAT_OK) {
		stat_fmt_number(num, sizeof(num), l->uval, value_decimals(l->scale),
				o->big_num ? o->thousands : NULL);
		fprintf(f, "%*s ", STAT_COUNTS_LEN, num);
		fprintf(f, "%-*s ", o->unit_width, l->unit ? l->unit : "");
		fprintf(f, "%-*s", STAT_EVNAME_LEN, l->name);
	} else {
		fprintf(f, "%*s ", STAT_COUNTS_LEN, state_str(l->state));
		fprintf(f, "%-*s ", o->unit_width, l->unit ? l->unit : "");
		fprintf(f, "%-*s", 25, l->name);
	}
	if (l->state == STAT_OK && l->has_metric && l->metric.fmt) {
		int n = fprintf(f, " # ");

		n += fprintf(f, l->metric.fmt, l->metric.val);
		fprintf(f, " %-*s", STAT_METRIC_LEN - n - 1, l->metric.unit);
	} else {
		fprintf(f, "%-*s", STAT_METRIC_LEN, "");
	}
	if (l->show_noise && l->noise_pct != 0.0)
		fprintf(f, "  ( +-%6.2f%% )", l->noise_pct);
	/* unlike CSV and JSON, perf's std output divides in floating point: (33.33%) */
	if (l->run != l->ena && l->ena)
		fprintf(f, "  (%.2f%%)", 100.0 * (double)l->run / (double)l->ena);
	fputc('\n', f);
}

/* The metric as perf's CSV writes it: the formatted number without padding. */
static void csv_metric(char *buf, size_t len, const struct stat_metric *m)
{
	char tmp[128], *s = tmp, *e;

	snprintf(tmp, sizeof(tmp), m->fmt, m->val);
	while (*s == ' ')
		s++;
	for (e = s; (*e >= '0' && *e <= '9') || *e == '.' || *e == '-'; e++)
		;
	*e = 0;
	snprintf(buf, len, "%s", s);
}

void stat_print_csv(const struct stat_out *o, const struct stat_line *l)
{
	FILE *f = o->fh;
	const char *sep = o->csv_sep;

	print_prefix(o, l, sep);
	if (l->state == STAT_OK)
		fprintf(f, "%.*f", value_decimals(l->scale), l->uval);
	else
		fputs(state_str(l->state), f);
	fprintf(f, "%s%s%s%s", sep, l->unit ? l->unit : "", sep, l->name);
	if (l->show_noise)
		fprintf(f, "%s%.2f%%", sep, l->noise_pct);
	fprintf(f, "%s%" PRIu64 "%s%.2f", sep, l->run, sep, stat_running_pct(l->run, l->ena));
	if (l->state == STAT_OK && l->has_metric && l->metric.fmt) {
		char num[128];
		const char *u = l->metric.unit;

		csv_metric(num, sizeof(num), &l->metric);
		while (*u == ' ')
			u++;
		fprintf(f, "%s%s%s%s", sep, num, sep, u);
	} else {
		fprintf(f, "%s%s", sep, sep);
	}
	fputc('\n', f);
}

/* "key" : "value", with value escaped by the one JSON writer (base/json.h) */
static void json_member(FILE *f, const char *key, const char *value)
{
	fprintf(f, "\"%s\" : ", key);
	xb_json_str(f, value, strlen(value));
	fputs(", ", f);
}

void stat_print_json(const struct stat_out *o, const struct stat_line *l)
{
	FILE *f = o->fh;
	char thread[64];

	fputc('{', f);
	if (l->interval)
		fprintf(f, "\"interval\" : %lu.%09lu, ", (unsigned long)(l->ts_ns / 1000000000ull),
			(unsigned long)(l->ts_ns % 1000000000ull));
	if (l->aggr == STAT_AGGR_NONE) {
		fprintf(f, "\"cpu\" : \"%d\", ", l->cpu);
	} else if (l->aggr == STAT_AGGR_THREAD) {
		snprintf(thread, sizeof(thread), "%s-%d", l->comm ? l->comm : "", l->tid);
		json_member(f, "thread", thread);
	}
	if (l->state == STAT_OK)
		fprintf(f, "\"counter-value\" : \"%f\", ", l->uval);
	else
		fprintf(f, "\"counter-value\" : \"%s\", ", state_str(l->state));
	json_member(f, "unit", l->unit ? l->unit : "");
	json_member(f, "event", l->name);
	if (l->show_noise)
		fprintf(f, "\"variance\" : %.2f, ", l->noise_pct);
	fprintf(f, "\"event-runtime\" : %" PRIu64 ", \"pcnt-running\" : %.2f, ", l->run,
		stat_running_pct(l->run, l->ena));
	if (l->state == STAT_OK && l->has_metric && l->metric.fmt) {
		const char *u = l->metric.unit;

		while (*u == ' ')
			u++;
		fprintf(f, "\"metric-value\" : %f, \"metric-unit\" : ", l->metric.val);
		xb_json_str(f, u, strlen(u));
		fputs("}\n", f);
	} else {
		fprintf(f, "\"metric-value\" : %f, \"metric-unit\" : \"\"}\n", 0.0);
	}
}

void stat_print_line(const struct stat_out *o, const struct stat_line *l)
{
	if (o->json)
		stat_print_json(o, l);
	else if (o->csv_sep)
		stat_print_csv(o, l);
	else
		stat_print_std(o, l);
}
