/* What the exports (--flamegraph, --pprof, --speedscope) share: the choice of event (their profile's options are rv_lookup_opts()'s). */
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "report/report.h"
#include "view/rv.h"

/* The names of the events with samples, ", "-joined into buf (those that fit). */
static const char *event_list(const xpp_profile *p, char *buf, size_t size)
{
	xpf_reader *r = xpp_profile_reader(p);
	uint32_t nr;
	const struct xpp_event *ev = xpp_profile_events(p, &nr);
	size_t len = 0;
	char name[64];

	buf[0] = 0;
	for (uint32_t i = 0; i < nr && len + 8 < size; i++) {
		const struct xpf_attr *a = xpf_reader_attr(r, i);

		if (!ev[i].nr_samples || !a)
			continue;
		len += (size_t)snprintf(buf + len, size - len, "%s%s", len ? ", " : "",
					xpf_attr_event_name(a, name, sizeof(name)));
	}
	if (len >= size)
		snprintf(buf + size - 5, 5, "...");
	return buf;
}

int report_event_pick_besides(const xpp_profile *p, const char *name, const char *what,
			      bool quiet, uint32_t besides, uint32_t *idx)
{
	xpf_reader *r = xpp_profile_reader(p);
	uint32_t nr, first = UINT32_MAX, with = 0;
	const struct xpp_event *ev = xpp_profile_events(p, &nr);
	char buf[64], list[512];

	for (uint32_t i = 0; i < nr; i++) {
		const struct xpf_attr *a = xpf_reader_attr(r, i);

		if (name && a && !strcmp(xpf_attr_event_name(a, buf, sizeof(buf)), name) &&
		    (first == UINT32_MAX || (!ev[first].nr_samples && ev[i].nr_samples)))
			first = i; /* the same name twice (-e a -e a): the one with samples */
		/* the event the export shows anyway is no choice to warn about */
		if (!ev[i].nr_samples || (!name && i == besides))
			continue;
		with++;
		if (!name && first == UINT32_MAX)
			first = i;
	}
	if (name && first == UINT32_MAX) {
		cli_error("no event '%s' in the file: its events with samples are %s", name,
			  with ? event_list(p, list, sizeof(list)) : "none");
		return CLI_EXIT_USAGE;
	}
	if (first == UINT32_MAX || !ev[first].nr_samples) {
		if (name)
			cli_error("event '%s' has no samples for %s", name, what);
		else
			cli_error("no samples for %s", what);
		return CLI_EXIT_RUNTIME;
	}
	/* several events and none named: say which one is drawn, and how to pick another */
	if (!name && with > 1 && !quiet) {
		fflush(stdout);
		cli_warning("the file has several events (%s): %s shows '%s' (--event NAME picks "
			    "another)", event_list(p, list, sizeof(list)), what,
			    xpf_attr_event_name(xpf_reader_attr(r, first), buf, sizeof(buf)));
	}
	*idx = first;
	return CLI_EXIT_OK;
}

int report_event_pick(const xpp_profile *p, const char *name, const char *what, bool quiet,
		      uint32_t *idx)
{
	return report_event_pick_besides(p, name, what, quiet, UINT32_MAX, idx);
}
