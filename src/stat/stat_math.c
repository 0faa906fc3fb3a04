/* xperf-stat arithmetic: multiplexing scale, running percentage, mean and noise over runs. */
#include <math.h>

#include "stat/stat.h"

enum stat_state stat_scale(const struct stat_counts *c, bool scale, double *out, bool *scaled)
{
	if (scaled)
		*scaled = false;
	/* A counter that never ran says nothing; perf prints "<not counted>" */
	if (c->run == 0 || c->ena == 0) {
		*out = 0;
		return STAT_NOT_COUNTED;
	}
	if (scale && c->run < c->ena) {
		/* perf truncates the extrapolated count to an integer */
		*out = (double)(uint64_t)((double)c->val * (double)c->ena / (double)c->run);
		if (scaled)
			*scaled = true;
	} else {
		*out = (double)c->val;
	}
	return STAT_OK;
}

double stat_running_pct(uint64_t run, uint64_t ena)
{
	if (run == ena || ena == 0)
		return 100.0;
	/* integer division, as perf does: 2/3 prints 66.00, not 66.67 */
	return (double)(100 * run / ena);
}

void stat_acc_add(struct stat_acc *a, double v)
{
	double delta;

	a->n++;
	if (a->n == 1 || v < a->min)
		a->min = v;
	if (a->n == 1 || v > a->max)
		a->max = v;
	delta = v - a->mean;
	a->mean += delta / a->n;
	a->m2 += delta * (v - a->mean);
}

double stat_acc_stddev_mean(const struct stat_acc *a)
{
	double variance;

	if (a->n < 2)
		return 0.0;
	variance = a->m2 / (a->n - 1);
	return sqrt(variance / a->n);
}

double stat_rel_pct(double sd, double avg)
{
	if (avg == 0.0)
		return 0.0;
	return 100.0 * sd / avg;
}

int stat_precision(double sd)
{
	if (sd > 1 || sd <= 0)
		return 0;
	return (int)lround(ceil(-log10(sd)));
}

double stat_convert_unit(double v, char *unit)
{
	*unit = ' ';
	if (v > 1e9) {
		*unit = 'G';
		return v / 1e9;
	}
	if (v > 1e6) {
		*unit = 'M';
		return v / 1e6;
	}
	if (v > 1e3) {
		*unit = 'K';
		return v / 1e3;
	}
	return v;
}
