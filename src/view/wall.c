/* report --wall: on-CPU clock samples and off-CPU (offcpu-time) samples counted as one event. */
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "view/rv.h"

bool rv_is_clock(const struct xpf_attr *a)
{
	return a->attr.type == PERF_TYPE_SOFTWARE &&
	       (a->attr.config == PERF_COUNT_SW_CPU_CLOCK ||
		a->attr.config == PERF_COUNT_SW_TASK_CLOCK);
}

bool rv_is_offcpu(const struct xpf_attr *a)
{
	char buf[64];

	return a->attr.type == PERF_TYPE_SOFTWARE && a->attr.config == PERF_COUNT_SW_BPF_OUTPUT &&
	       !strcmp(xpf_attr_event_name(a, buf, sizeof(buf)), "offcpu-time");
}

/* The first clock event: where every clock and off-CPU sample counts. */
static int64_t first_clock(xpf_reader *r)
{
	uint32_t n = xpf_reader_nr_attrs(r);

	for (uint32_t i = 0; i < n; i++)
		if (rv_is_clock(xpf_reader_attr(r, i)))
			return i;
	return -1;
}

int64_t rv_wall_into(xpf_reader *r, uint32_t idx)
{
	const struct xpf_attr *a = xpf_reader_attr(r, idx);

	if (!a || (!rv_is_clock(a) && !rv_is_offcpu(a)))
		return -1;
	return first_clock(r);
}

int rv_wall_check(xpf_reader *r)
{
	uint32_t n = xpf_reader_nr_attrs(r);
	bool offcpu = false;

	/* a pipe brings its attrs later: its samples are sorted as they come */
	if (xpf_reader_header(r)->pipe)
		return 0;
	for (uint32_t i = 0; i < n; i++)
		offcpu |= rv_is_offcpu(xpf_reader_attr(r, i));
	if (first_clock(r) < 0 || !offcpu) {
		cli_error("--wall needs a cpu-clock or task-clock event and off-CPU time in the "
			  "file: record it with 'xperf record --off-cpu -e cpu-clock'");
		return -1;
	}
	return 0;
}

const char *rv_event_name(const struct rv_ctx *c, uint32_t idx, char *buf, size_t size)
{
	const char *name = xpf_attr_event_name(xpf_reader_attr(c->r, idx), buf, size);

	if (c->o->wall) {
		char on[64];

		snprintf(on, sizeof(on), "%s", name);
		snprintf(buf, size, "%s + offcpu-time", on);
		return buf;
	}
	return name;
}
