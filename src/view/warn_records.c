/* The warnings about what the records say of the profile: lost events, skipped records, filters that matched nothing. */
#include <inttypes.h>
#include <stdio.h>

#include "cli/cli.h"
#include "view/rv.h"

static void warn_lost(const struct xpp_records *rs)
{
	char a[32], b[32], c[32];

	/* perf: "Processed %d events and lost %d chunks! Check IO/CPU overload!" */
	if (rs->lost_chunks)
		cli_warning("processed %s events and lost %s chunk%s (%s events the kernel could "
			    "not write): check IO/CPU overload",
			    rv_grouped(rs->total, a, sizeof(a)),
			    rv_grouped(rs->lost_chunks, b, sizeof(b)),
			    rs->lost_chunks == 1 ? "" : "s",
			    rv_grouped(rs->lost_events, c, sizeof(c)));
	/* perf says it above 5% only: DESIGN 1.3 says every lost sample */
	if (rs->lost_samples)
		cli_warning("processed %s samples and lost %s (%.2f%%): check IO/CPU overload",
			    rv_grouped(rs->samples, a, sizeof(a)),
			    rv_grouped(rs->lost_samples, b, sizeof(b)),
			    100.0 * (double)rs->lost_samples /
				    (double)(rs->samples + rs->lost_samples));
}

/* perf stops at the first such record ("failed to process type: 200"); we read on. */
static void warn_skipped(const struct xpp_records *rs)
{
	char n[32];

	for (uint32_t i = 0; i < rs->nr_skipped; i++) {
		const struct xpp_skipped_type *t = &rs->skipped[i];
		const char *name = xpf_record_type_name(t->type);
		char type[64];

		if (name)
			snprintf(type, sizeof(type), "%" PRIu32 " (%s)", t->type, name);
		else
			snprintf(type, sizeof(type), "%" PRIu32, t->type);
		cli_warning("failed to process %s record%s of type %s: %s (first at offset "
			    "%#" PRIx64 ")", rv_grouped(t->nr, n, sizeof(n)),
			    t->nr == 1 ? "" : "s", type,
			    t->nested ? "compressed data inside compressed data" :
			    name ? "xperf does not decode AUX area traces" :
				   "a type xperf does not know",
			    t->first_offset);
	}
	if (rs->skipped_more)
		cli_warning("failed to process %s more records of other types xperf does not "
			    "process",
			    rv_grouped(rs->skipped_more, n, sizeof(n)));
}

static void warn_filtered(const xpp_profile *p)
{
	static const char *const names[XPP_NR_FILTERS] = {
		[XPP_FILTER_TIME] = "--time", [XPP_FILTER_CPU] = "--cpu", [XPP_FILTER_COMMS] = "--comms",
		[XPP_FILTER_PID] = "--pid", [XPP_FILTER_TID] = "--tid",
		[XPP_FILTER_DSOS] = "--dsos", [XPP_FILTER_SYMBOLS] = "--symbols",
	};
	const struct xpp_opts *o = xpp_profile_opts(p);
	const char *const values[XPP_NR_FILTERS] = {
		[XPP_FILTER_TIME] = o->time, [XPP_FILTER_CPU] = o->cpus,
		[XPP_FILTER_COMMS] = o->comms,
		[XPP_FILTER_PID] = o->pids, [XPP_FILTER_TID] = o->tids,
		[XPP_FILTER_DSOS] = o->dsos, [XPP_FILTER_SYMBOLS] = o->symbols,
	};
	enum xpp_filter_kind f;
	uint64_t met;
	char n[32];

	if (!xpp_profile_filtered_all(p, &f, &met))
		return;
	if (f == XPP_FILTER_NONE) {
		cli_warning("the filters matched none of the %s samples", rv_grouped(met, n, sizeof(n)));
		return;
	}
	cli_warning("%s '%s' matched none of the %s samples%s", names[f], values[f],
		    rv_grouped(met, n, sizeof(n)),
		    met < xpp_profile_records(p)->samples ? " the other filters kept" : "");
}

void rv_warn_records(const xpp_profile *p, bool quiet)
{
	if (quiet)
		return;
	fflush(stdout);
	warn_lost(xpp_profile_records(p));
	warn_skipped(xpp_profile_records(p));
	warn_filtered(p);
}
