/* Unit tests of xperf-stat's pure parts: scaling, statistics, number formatting, metrics, lines. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <linux/perf_event.h>

#include "unit.h"
#include "stat/print.h"
#include "stat/stat.h"

static void test_scale_not_multiplexed(void)
{
	struct stat_counts c = { 1234, 1000, 1000 };
	double v;
	bool scaled;

	CHECK(stat_scale(&c, true, &v, &scaled) == STAT_OK);
	CHECK(v == 1234.0);
	CHECK(!scaled);
}

static void test_scale_multiplexed(void)
{
	struct stat_counts c = { 1000, 300, 100 };
	double v;
	bool scaled;

	CHECK(stat_scale(&c, true, &v, &scaled) == STAT_OK);
	CHECK_EQ_U64(v, 3000);
	CHECK(scaled);
	/* --no-scale: the raw count */
	CHECK(stat_scale(&c, false, &v, &scaled) == STAT_OK);
	CHECK_EQ_U64(v, 1000);
	/* run > ena is never scaled down; extrapolation truncates: 10 * 7 / 3 = 23.3 -> 23 */
	c = (struct stat_counts){ 10, 3, 7 };
	CHECK(stat_scale(&c, true, &v, NULL) == STAT_OK);
	CHECK_EQ_U64(v, 10);
	c = (struct stat_counts){ 10, 7, 3 };
	stat_scale(&c, true, &v, NULL);
	CHECK_EQ_U64(v, 23);
}

static void test_scale_not_counted(void)
{
	struct stat_counts c = { 55, 1000, 0 };
	double v = -1;

	CHECK(stat_scale(&c, true, &v, NULL) == STAT_NOT_COUNTED);
	CHECK(v == 0.0);
	c = (struct stat_counts){ 0, 0, 0 };
	CHECK(stat_scale(&c, true, &v, NULL) == STAT_NOT_COUNTED);
}

static void test_running_pct(void)
{
	CHECK(stat_running_pct(100, 100) == 100.0);
	CHECK(stat_running_pct(50, 100) == 50.0);
	/* perf divides integers: 1/3 is 33.00, not 33.33 */
	CHECK(stat_running_pct(1, 3) == 33.0);
	CHECK(stat_running_pct(0, 0) == 100.0);
	CHECK(stat_running_pct(0, 10) == 0.0);
}

static void test_mean_stddev(void)
{
	struct stat_acc a = { 0 };
	double sd;

	stat_acc_add(&a, 1);
	CHECK(stat_acc_stddev_mean(&a) == 0.0);
	stat_acc_add(&a, 2);
	stat_acc_add(&a, 3);
	stat_acc_add(&a, 4);
	CHECK(a.n == 4);
	CHECK(fabs(a.mean - 2.5) < 1e-12);
	CHECK(a.min == 1 && a.max == 4);
	/* sample variance 5/3, of the mean 5/12 */
	sd = stat_acc_stddev_mean(&a);
	CHECK(fabs(sd - sqrt(5.0 / 12.0)) < 1e-12);
	CHECK(fabs(stat_rel_pct(sd, a.mean) - 100.0 * sqrt(5.0 / 12.0) / 2.5) < 1e-9);
	CHECK(stat_rel_pct(1, 0) == 0.0);
}

static void test_precision(void)
{
	/* perf's elapsed line: sd 0.0000658 prints 7 decimals (precision + 2) */
	CHECK(stat_precision(0.0000658) == 5);
	CHECK(stat_precision(0.01) == 2);
	CHECK(stat_precision(3.5) == 0);
}

static void test_convert_unit(void)
{
	char u;

	CHECK(fabs(stat_convert_unit(2.5e9, &u) - 2.5) < 1e-12 && u == 'G');
	CHECK(fabs(stat_convert_unit(93336, &u) - 93.336) < 1e-9 && u == 'K');
	CHECK(fabs(stat_convert_unit(1.5e6, &u) - 1.5) < 1e-12 && u == 'M');
	CHECK(stat_convert_unit(999, &u) == 999 && u == ' ');
}

static void test_number_format(void)
{
	char b[64];

	stat_fmt_number(b, sizeof(b), 1234567, 0, ",");
	CHECK_STR(b, "1,234,567");
	stat_fmt_number(b, sizeof(b), 1234.5, 2, ",");
	CHECK_STR(b, "1,234.50");
	stat_fmt_number(b, sizeof(b), -1234, 0, ",");
	CHECK_STR(b, "-1,234");
	stat_fmt_number(b, sizeof(b), 999, 0, ",");
	CHECK_STR(b, "999");
	stat_fmt_number(b, sizeof(b), 100000, 0, ".");
	CHECK_STR(b, "100.000");
	stat_fmt_number(b, sizeof(b), 1234567, 0, "");
	CHECK_STR(b, "1234567");
	stat_fmt_number(b, sizeof(b), 0.58, 2, ",");
	CHECK_STR(b, "0.58");
	stat_fmt_number(b, sizeof(b), 1e12, 0, ",");
	CHECK_STR(b, "1,000,000,000,000");
}

/* Print one line into a string with the given output settings. */
static char *render(const struct stat_out *tmpl, const struct stat_line *l)
{
	struct stat_out o = *tmpl;
	char *buf = NULL;
	size_t len = 0;

	o.fh = open_memstream(&buf, &len);
	if (!o.fh)
		return NULL;
	stat_print_line(&o, l);
	fclose(o.fh);
	if (len && buf[len - 1] == '\n')
		buf[len - 1] = 0;
	return buf;
}

static const struct stat_out std_out = { .big_num = true, .thousands = "", .unit_width = 4 };
static const struct stat_out csv_out = { .csv_sep = ",", .unit_width = 4 };
static const struct stat_out json_out = { .json = true, .unit_width = 4 };

static struct stat_line task_clock_line(void)
{
	struct stat_line l = { .name = "task-clock", .unit = "msec", .scale = 1e-6,
			       .state = STAT_OK, .uval = 0.58, .run = 580000, .ena = 580000,
			       .has_metric = true };

	l.metric.fmt = "%8.3f";
	snprintf(l.metric.unit, sizeof(l.metric.unit), "CPUs utilized");
	l.metric.val = 0.539;
	return l;
}

/* Expected lines are copied from perf 6.1's output on this machine. */
static void test_line_std(void)
{
	struct stat_line l = task_clock_line();
	char *s = render(&std_out, &l);

	CHECK_STR(s, "              0.58 msec task-clock                       #    0.539 CPUs utilized          ");
	free(s);
	l = (struct stat_line){ .name = "page-faults", .unit = "", .scale = 1, .state = STAT_OK,
				.uval = 50, .run = 1, .ena = 1, .has_metric = true };
	l.metric.fmt = "%8.3f";
	snprintf(l.metric.unit, sizeof(l.metric.unit), "K/sec");
	l.metric.val = 86.582;
	s = render(&std_out, &l);
	CHECK_STR(s, "                50      page-faults                      #   86.582 K/sec                  ");
	free(s);
	/* no metric: padded all the same */
	l.has_metric = false;
	l.name = "cs";
	l.uval = 15;
	s = render(&std_out, &l);
	CHECK_STR(s, "                15      cs                                                                 ");
	free(s);
}

static void test_line_std_not_supported(void)
{
	struct stat_line l = { .name = "cycles", .unit = "", .scale = 1, .state = STAT_NOT_SUPPORTED };
	char *s = render(&std_out, &l);

	CHECK_STR(s, "   <not supported>      cycles                                                      ");
	free(s);
	l.state = STAT_NOT_COUNTED;
	l.unit = "msec";
	l.name = "task-clock";
	l.interval = true;
	l.ts_ns = 400761071;
	s = render(&std_out, &l);
	CHECK_STR(s, "     0.400761071      <not counted> msec task-clock                                                  ");
	free(s);
}

static void test_line_std_noise_running(void)
{
	struct stat_line l = task_clock_line();
	char *s;

	l.uval = 0.42;
	l.metric.val = 0.481;
	l.show_noise = true;
	l.noise_pct = 4.33;
	s = render(&std_out, &l);
	CHECK_STR(s, "              0.42 msec task-clock                       #    0.481 CPUs utilized            ( +-  4.33% )");
	free(s);
	/* zero noise prints nothing; multiplexing prints the running share */
	l.noise_pct = 0;
	l.run = 50;
	l.ena = 100;
	s = render(&std_out, &l);
	CHECK(s && strstr(s, "CPUs utilized            (50.00%)") != NULL);
	CHECK(s && strstr(s, "+-") == NULL);
	free(s);
	/* std divides in floating point (33.33%), CSV in integers (33.00), as perf 6.1 */
	l.run = 1;
	l.ena = 3;
	s = render(&std_out, &l);
	CHECK(s && strstr(s, "  (33.33%)") != NULL);
	free(s);
}

static void test_line_std_big_num(void)
{
	struct stat_line l = { .name = "msr/tsc/", .unit = "", .scale = 1, .state = STAT_OK,
			       .uval = 2315846, .run = 1, .ena = 1 };
	struct stat_out o = std_out;
	char *s;

	o.thousands = ",";
	s = render(&o, &l);
	CHECK(s && !strncmp(s, "         2,315,846      msr/tsc/ ", 33));
	free(s);
	o.big_num = false;
	s = render(&o, &l);
	CHECK(s && !strncmp(s, "           2315846      msr/tsc/ ", 33));
	free(s);
}

static void test_line_per_cpu_thread(void)
{
	struct stat_line l = task_clock_line();
	char *s;

	l.aggr = STAT_AGGR_NONE;
	l.cpu = 1;
	l.uval = 101.41;
	l.metric.val = 1.0;
	s = render(&std_out, &l);
	CHECK_STR(s, "CPU1                   101.41 msec task-clock                       #    1.000 CPUs utilized          ");
	free(s);
	s = render(&csv_out, &l);
	CHECK(s && !strncmp(s, "CPU1,101.41,msec,task-clock,", 28));
	free(s);
	l = (struct stat_line){ .aggr = STAT_AGGR_THREAD, .comm = "sleep", .tid = 5837, .name = "cs",
				.unit = "", .scale = 1, .state = STAT_NOT_COUNTED };
	s = render(&std_out, &l);
	CHECK_STR(s, "           sleep-5837          <not counted>      cs                                                          ");
	free(s);
	s = render(&csv_out, &l);
	CHECK_STR(s, "sleep-5837,<not counted>,,cs,0,100.00,,");
	free(s);
	s = render(&json_out, &l);
	CHECK_STR(s, "{\"thread\" : \"sleep-5837\", \"counter-value\" : \"<not counted>\", \"unit\" : \"\", \"event\" : \"cs\", \"event-runtime\" : 0, \"pcnt-running\" : 100.00, \"metric-value\" : 0.000000, \"metric-unit\" : \"\"}");
	free(s);
}

static void test_line_csv(void)
{
	struct stat_line l = task_clock_line();
	char *s;

	l.uval = 0.47;
	l.run = l.ena = 466004;
	l.metric.val = 0.518;
	s = render(&csv_out, &l);
	CHECK_STR(s, "0.47,msec,task-clock,466004,100.00,0.518,CPUs utilized");
	free(s);
	l.show_noise = true;
	l.noise_pct = 3.01;
	l.uval = 0.39;
	l.run = l.ena = 392675;
	l.metric.val = 0.750;
	s = render(&csv_out, &l);
	CHECK_STR(s, "0.39,msec,task-clock,3.01%,392675,100.00,0.750,CPUs utilized");
	free(s);
	l = (struct stat_line){ .name = "cycles", .unit = "", .scale = 1, .state = STAT_NOT_SUPPORTED };
	s = render(&csv_out, &l);
	CHECK_STR(s, "<not supported>,,cycles,0,100.00,,");
	free(s);
	l = (struct stat_line){ .interval = true, .ts_ns = 100207438, .name = "page-faults", .unit = "",
				.scale = 1, .state = STAT_OK, .uval = 76, .run = 653544, .ena = 653544,
				.has_metric = true };
	l.metric.fmt = "%8.3f";
	snprintf(l.metric.unit, sizeof(l.metric.unit), "K/sec");
	l.metric.val = 116.289;
	s = render(&csv_out, &l);
	CHECK_STR(s, "     0.100207438,76,,page-faults,653544,100.00,116.289,K/sec");
	free(s);
	/* another separator, and "insn per cycle"'s trailing space in its format is dropped */
	struct stat_out o = csv_out;
	o.csv_sep = ";";
	l.interval = false;
	l.metric.fmt = "%7.2f ";
	snprintf(l.metric.unit, sizeof(l.metric.unit), "insn per cycle");
	l.metric.val = 1.5;
	s = render(&o, &l);
	CHECK_STR(s, "76;;page-faults;653544;100.00;1.50;insn per cycle");
	free(s);
}

static void test_line_json(void)
{
	struct stat_line l = task_clock_line();
	char *s;

	l.uval = 0.442409;
	l.run = l.ena = 442409;
	l.metric.val = 0.519309;
	s = render(&json_out, &l);
	CHECK_STR(s, "{\"counter-value\" : \"0.442409\", \"unit\" : \"msec\", \"event\" : \"task-clock\", \"event-runtime\" : 442409, \"pcnt-running\" : 100.00, \"metric-value\" : 0.519309, \"metric-unit\" : \"CPUs utilized\"}");
	free(s);
	l.interval = true;
	l.ts_ns = 100172271;
	l.show_noise = true;
	l.noise_pct = 9.66;
	s = render(&json_out, &l);
	CHECK(s && !strncmp(s, "{\"interval\" : 0.100172271, \"counter-value\" : ", 45));
	CHECK(s && strstr(s, "\"event\" : \"task-clock\", \"variance\" : 9.66, \"event-runtime\"") != NULL);
	free(s);
	l = (struct stat_line){ .name = "we\"ird", .unit = "", .scale = 1, .state = STAT_NOT_SUPPORTED };
	s = render(&json_out, &l);
	CHECK_STR(s, "{\"counter-value\" : \"<not supported>\", \"unit\" : \"\", \"event\" : \"we\\\"ird\", \"event-runtime\" : 0, \"pcnt-running\" : 100.00, \"metric-value\" : 0.000000, \"metric-unit\" : \"\"}");
	free(s);
}

static void test_metrics(void)
{
	struct stat_shadow sh = { 0 };
	struct stat_metric m;

	/* task-clock 580000 ns over 1076000 ns of wall time */
	CHECK(stat_metric_for(STAT_K_CLOCK, 580000, &sh, 1076000, &m));
	CHECK(fabs(m.val - 580000.0 / 1076000) < 1e-12);
	CHECK_STR(m.unit, "CPUs utilized");
	/* no clock in the bucket: no rate for an ordinary event */
	CHECK(!stat_metric_for(STAT_K_OTHER, 50, &sh, 1e6, &m));
	sh.have[STAT_K_CLOCK] = true;
	sh.val[STAT_K_CLOCK] = 577000; /* ns */
	CHECK(stat_metric_for(STAT_K_OTHER, 50, &sh, 1e6, &m));
	CHECK_STR(m.unit, "K/sec");
	CHECK(fabs(m.val - 50 * 1e9 / 577000 / 1e3) < 1e-9);
	CHECK(stat_metric_for(STAT_K_OTHER, 0, &sh, 1e6, &m));
	CHECK_STR(m.unit, "/sec");
	CHECK(m.val == 0);
	CHECK(stat_metric_for(STAT_K_OTHER, 1500000, &sh, 1e6, &m));
	CHECK_STR(m.unit, "G/sec");
	/* cycles per ns is GHz; instructions per cycle; misses as percentages */
	CHECK(stat_metric_for(STAT_K_CYCLES, 1154000, &sh, 1e6, &m));
	CHECK_STR(m.unit, "GHz");
	CHECK(fabs(m.val - 2.0) < 1e-12);
	CHECK(!stat_metric_for(STAT_K_INSTRUCTIONS, 100, &sh, 1e6, &m)); /* no cycles: blank */
	sh.have[STAT_K_CYCLES] = true;
	sh.val[STAT_K_CYCLES] = 200;
	CHECK(stat_metric_for(STAT_K_INSTRUCTIONS, 100, &sh, 1e6, &m));
	CHECK_STR(m.unit, "insn per cycle");
	CHECK(m.val == 0.5);
	sh.have[STAT_K_BRANCHES] = true;
	sh.val[STAT_K_BRANCHES] = 1000;
	CHECK(stat_metric_for(STAT_K_BRANCH_MISSES, 25, &sh, 1e6, &m));
	CHECK_STR(m.unit, "of all branches");
	CHECK(m.val == 2.5);
	CHECK(!stat_metric_for(STAT_K_CACHE_MISSES, 25, &sh, 1e6, &m));
	sh.have[STAT_K_LLC_LOADS] = true;
	sh.val[STAT_K_LLC_LOADS] = 50;
	CHECK(stat_metric_for(STAT_K_LLC_LOAD_MISSES, 25, &sh, 1e6, &m));
	CHECK_STR(m.unit, "of all LL-cache accesses");
	CHECK(m.val == 50.0);
}

static void test_kinds(void)
{
	struct perf_event_attr a = { .type = PERF_TYPE_SOFTWARE, .config = PERF_COUNT_SW_CPU_CLOCK };

	CHECK(stat_kind_of(&a) == STAT_K_CLOCK);
	a.config = PERF_COUNT_SW_PAGE_FAULTS;
	CHECK(stat_kind_of(&a) == STAT_K_OTHER);
	a = (struct perf_event_attr){ .type = PERF_TYPE_HARDWARE, .config = PERF_COUNT_HW_BRANCH_MISSES };
	CHECK(stat_kind_of(&a) == STAT_K_BRANCH_MISSES);
	/* L1-dcache-load-misses: L1D | READ << 8 | MISS << 16 */
	a = (struct perf_event_attr){ .type = PERF_TYPE_HW_CACHE, .config = 0 | 0 << 8 | 1 << 16 };
	CHECK(stat_kind_of(&a) == STAT_K_L1D_LOAD_MISSES);
	a.config = PERF_COUNT_HW_CACHE_LL;
	CHECK(stat_kind_of(&a) == STAT_K_LLC_LOADS);
	a.config = PERF_COUNT_HW_CACHE_LL | PERF_COUNT_HW_CACHE_OP_WRITE << 8;
	CHECK(stat_kind_of(&a) == STAT_K_OTHER);
	/* :u and :k never feed each other's metrics */
	a.exclude_kernel = 1;
	{
		struct perf_event_attr b = a;

		b.exclude_kernel = 0;
		b.exclude_user = 1;
		CHECK(stat_ctx_of(&a) != stat_ctx_of(&b));
	}
}

int main(void)
{
	RUN(test_scale_not_multiplexed);
	RUN(test_scale_multiplexed);
	RUN(test_scale_not_counted);
	RUN(test_running_pct);
	RUN(test_mean_stddev);
	RUN(test_precision);
	RUN(test_convert_unit);
	RUN(test_number_format);
	RUN(test_line_std);
	RUN(test_line_std_not_supported);
	RUN(test_line_std_noise_running);
	RUN(test_line_std_big_num);
	RUN(test_line_per_cpu_thread);
	RUN(test_line_csv);
	RUN(test_line_json);
	RUN(test_metrics);
	RUN(test_kinds);
	UNIT_MAIN_END();
}
