/* xperf-record: perf's recording-control options (-D, --switch-output, --max-size, --filter,
 * --user-regs, -I) parsed and applied. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/ioctl.h>
#include <sys/time.h>
#include <time.h>

#include "cli/cli.h"
#include "record/record.h"

int rec_opt_delay(const struct cli_option *o, const char *arg, bool unset)
{
	char *end;
	long v;

	if (unset) {
		*(long *)o->value = 0;
		return 0;
	}
	errno = 0;
	v = strtol(arg, &end, 10);
	if (errno || end == arg || *end || v < -1) {
		cli_error("invalid delay '%s' (milliseconds, or -1 to start with events "
			  "disabled)", arg);
		return -1;
	}
	*(long *)o->value = v;
	return 0;
}

/* "10M", "512K", "1G", "100B" or a plain number of bytes; false when it is none of them. */
static bool parse_size(const char *arg, uint64_t *out)
{
	char *end;
	unsigned long long v, mul = 1;

	if (!*arg || *arg == '-')
		return false;
	errno = 0;
	v = strtoull(arg, &end, 10);
	if (errno || end == arg)
		return false;
	if (*end) {
		switch (*end) {
		case 'B': case 'b': mul = 1; break;
		case 'K': case 'k': mul = 1ULL << 10; break;
		case 'M': case 'm': mul = 1ULL << 20; break;
		case 'G': case 'g': mul = 1ULL << 30; break;
		default: return false;
		}
		if (end[1])
			return false;
	}
	if (!v || v > UINT64_MAX / mul)
		return false;
	*out = v * mul;
	return true;
}

/* "30s", "5m", "1h", "1d" (perf's tags); false when it is none of them. */
static bool parse_time(const char *arg, unsigned *secs)
{
	char *end;
	unsigned long long v, mul;

	if (!*arg || *arg == '-')
		return false;
	errno = 0;
	v = strtoull(arg, &end, 10);
	if (errno || end == arg || !*end || end[1])
		return false;
	switch (*end) {
	case 's': mul = 1; break;
	case 'm': mul = 60; break;
	case 'h': mul = 3600; break;
	case 'd': mul = 86400; break;
	default: return false;
	}
	if (!v || v > UINT32_MAX / mul)
		return false;
	*secs = (unsigned)(v * mul);
	return true;
}

int rec_opt_switch_output(const struct cli_option *o, const char *arg, bool unset)
{
	struct rec_control *c = o->value;

	c->switch_signal = false;
	c->switch_size = 0;
	c->switch_secs = 0;
	if (unset)
		return 0;
	if (!arg || !strcmp(arg, "signal")) {
		c->switch_signal = true;
		return 0;
	}
	if (parse_size(arg, &c->switch_size) || parse_time(arg, &c->switch_secs))
		return 0;
	cli_error("invalid --switch-output '%s' (signal, a size like 10M, or a time like 30s)",
		  arg);
	return -1;
}

int rec_opt_switch_output_event(const struct cli_option *o, const char *arg, bool unset)
{
	struct rec_control *c = o->value;
	const char **n;

	if (unset) {
		c->nr_switch_events = 0;
		return 0;
	}
	n = realloc(c->switch_events, (size_t)(c->nr_switch_events + 1) * sizeof(*n));
	if (!n)
		return -1;
	c->switch_events = n;
	n[c->nr_switch_events++] = arg;
	return 0;
}

int rec_opt_max_size(const struct cli_option *o, const char *arg, bool unset)
{
	if (unset) {
		*(uint64_t *)o->value = 0;
		return 0;
	}
	if (!parse_size(arg, o->value)) {
		cli_error("invalid --max-size '%s' (a size in bytes, or with B/K/M/G)", arg);
		return -1;
	}
	return 0;
}

int rec_opt_filter(const struct cli_option *o, const char *arg, bool unset)
{
	struct rec_opts *ro = o->value;
	struct rec_filter *f;

	if (unset)
		return 0;
	f = realloc(ro->ctl.filters, (size_t)(ro->ctl.nr_filters + 1) * sizeof(*f));
	if (!f)
		return -1;
	ro->ctl.filters = f;
	f[ro->ctl.nr_filters].filter = arg;
	f[ro->ctl.nr_filters].event_arg = ro->nr_events - 1; /* -1: no -e before it */
	ro->ctl.nr_filters++;
	return 0;
}

/*
 * perf's x86_64 sample_reg_masks: the registers its -I/--user-regs take (by name, any
 * case). perf also names XMM0-15, only where the PMU can sample them (not in user
 * registers, and no PMU here to say so for interrupt registers): not offered.
 */
static const struct {
	const char *name;
	int bit;
} regs[] = {
	{ "AX", 0 }, { "BX", 1 }, { "CX", 2 }, { "DX", 3 }, { "SI", 4 }, { "DI", 5 },
	{ "BP", 6 }, { "SP", 7 }, { "IP", 8 }, { "FLAGS", 9 }, { "CS", 10 }, { "SS", 11 },
	{ "R8", 16 }, { "R9", 17 }, { "R10", 18 }, { "R11", 19 }, { "R12", 20 }, { "R13", 21 },
	{ "R14", 22 }, { "R15", 23 },
};

static bool regs_listed;

bool rec_regs_listed(void)
{
	return regs_listed;
}

/*
 * NULL: every register (perf's PERF_REGS_MASK). "?": the names, as perf 6.1 answers it:
 * on stderr, and the command line counts as a usage error (the usage follows, exit 129).
 */
static int parse_regs(const char *opt, const char *arg, uint64_t *mask)
{
	char *copy, *tok, *save = NULL;
	size_t i;

	if (!arg) {
		*mask = REC_X86_64_REGS_MASK;
		return 0;
	}
	if (!strcmp(arg, "?")) {
		fprintf(stderr, "available registers: ");
		for (i = 0; i < sizeof(regs) / sizeof(regs[0]); i++)
			fprintf(stderr, "%s ", regs[i].name);
		fprintf(stderr, "\n\n");
		regs_listed = true;
		return -1;
	}
	copy = strdup(arg);
	if (!copy)
		return -1;
	*mask = 0;
	for (tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		for (i = 0; i < sizeof(regs) / sizeof(regs[0]); i++)
			if (!strcasecmp(tok, regs[i].name))
				break;
		if (i == sizeof(regs) / sizeof(regs[0])) {
			cli_error("unknown register '%s' (run 'xperf record %s=?' for the list)",
				  tok, opt);
			free(copy);
			return -1;
		}
		*mask |= 1ULL << regs[i].bit;
	}
	free(copy);
	if (!*mask) {
		cli_error("no register named in %s '%s'", opt, arg);
		return -1;
	}
	return 0;
}

int rec_opt_user_regs(const struct cli_option *o, const char *arg, bool unset)
{
	if (unset) {
		*(uint64_t *)o->value = 0;
		return 0;
	}
	return parse_regs("--user-regs", arg, o->value);
}

int rec_opt_intr_regs(const struct cli_option *o, const char *arg, bool unset)
{
	if (unset) {
		*(uint64_t *)o->value = 0;
		return 0;
	}
	return parse_regs("--intr-regs", arg, o->value);
}

int rec_filters_check(const struct rec_opts *o, const int *first_event, xpe_evlist *evl,
		      struct xb_error *err)
{
	int k, i;

	for (k = 0; k < o->ctl.nr_filters; k++) {
		const struct rec_filter *f = &o->ctl.filters[k];

		if (f->event_arg < 0)
			return xb_error_set(err, -EINVAL, "--filter '%s' should follow a -e "
					    "tracepoint (no -e before it)", f->filter);
		for (i = first_event[f->event_arg]; i < first_event[f->event_arg + 1]; i++) {
			struct xpe_event *ev = xpe_evlist_event(evl, (size_t)i);

			if (ev->kind != XPE_KIND_TRACEPOINT)
				return xb_error_set(err, -EINVAL, "--filter '%s' should follow a "
						    "-e tracepoint, not '%s'", f->filter,
						    ev->name);
		}
	}
	return 0;
}

/* Every --filter of -e number `arg`, as perf joins them: "(a) && (b)". */
static char *joined_filter(const struct rec_opts *o, int arg)
{
	char *s = NULL, *n;
	int k;

	for (k = 0; k < o->ctl.nr_filters; k++) {
		const char *f = o->ctl.filters[k].filter;

		if (o->ctl.filters[k].event_arg != arg)
			continue;
		if (!s) {
			s = strdup(f);
		} else {
			if (asprintf(&n, "(%s) && (%s)", s, f) < 0)
				n = NULL;
			free(s);
			s = n;
		}
		if (!s)
			return NULL;
	}
	return s;
}

int rec_filters_apply(const struct rec_opts *o, const int *first_event, xpe_evlist *evl,
		      struct xb_error *err)
{
	int arg, i, j;

	for (arg = 0; arg < o->nr_events && o->ctl.nr_filters; arg++) {
		char *f = joined_filter(o, arg);

		for (i = first_event[arg]; f && i < first_event[arg + 1]; i++) {
			struct xpe_event *ev = xpe_evlist_event(evl, (size_t)i);

			for (j = 0; j < ev->nr_fd; j++) {
				if (ev->fd[j] < 0 ||
				    ioctl(ev->fd[j], PERF_EVENT_IOC_SET_FILTER, f) == 0)
					continue;
				xb_error_set(err, -errno, "cannot set filter '%s' on event '%s': "
					     "%s", f, ev->name, strerror(errno));
				free(f);
				return err->code;
			}
		}
		free(f);
	}
	return 0;
}

int rec_event_ioctl(struct xpe_event *ev, unsigned long request)
{
	int j;

	for (j = 0; j < ev->nr_fd; j++)
		if (ev->fd[j] >= 0 && ioctl(ev->fd[j], request, 0) < 0)
			return -errno;
	return 0;
}

int rec_timestamped_name(const char *path, char *buf, size_t len)
{
	struct timeval tv;
	struct tm tm;
	char dt[32];
	int n;

	gettimeofday(&tv, NULL);
	localtime_r(&tv.tv_sec, &tm);
	strftime(dt, sizeof(dt), "%Y%m%d%H%M%S", &tm);
	n = snprintf(buf, len, "%s.%s%02u", path, dt, (unsigned)(tv.tv_usec / 10000));
	return n < 0 || (size_t)n >= len ? -ENAMETOOLONG : 0;
}

uint64_t control_sample_type(const struct rec_control *c)
{
	uint64_t st = 0;

	/* perf's -d samples the data source too, where the PMU knows it */
	if (c->sample_addr)
		st |= PERF_SAMPLE_ADDR | PERF_SAMPLE_DATA_SRC;
	if (c->sample_cpu)
		st |= PERF_SAMPLE_CPU;
	if (c->user_regs)
		st |= PERF_SAMPLE_REGS_USER;
	if (c->intr_regs)
		st |= PERF_SAMPLE_REGS_INTR;
	return st;
}

void control_config(const struct rec_control *c, struct perf_event_attr *a)
{
	a->sample_regs_user |= c->user_regs;
	a->sample_regs_intr |= c->intr_regs;
	if (c->inherit_stat) {
		/* perf's -s: each inherited counter is reported (PERF_RECORD_READ) at exit */
		a->inherit_stat = 1;
		a->read_format |= PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
	}
}
