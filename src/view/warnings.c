/*
 * The warnings every reading command gives about a profile, as a table: a row per fact, in
 * the order they are said. A row says its lines through say(); view_warnings() hands them
 * to the command's callback. A new fact is a new row here, and every command (report's
 * modes, script, annotate) says it.
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "base/input_file.h"
#include "view/run.h"

/* Where a row's lines go: the command's callback, unless quiet and the line may be left. */
struct sink {
	view_warn_fn fn;
	void *ctx;
	bool quiet;
	bool fatal;     /* a line said the profile cannot be trusted */
};

enum level { WARN, WARN_FATAL /* said even with -q; the profile cannot be trusted */ };

__attribute__((format(printf, 3, 4)))
static void say(struct sink *s, enum level l, const char *fmt, ...)
{
	char buf[2048];
	va_list ap;

	s->fatal |= l == WARN_FATAL;
	if (s->quiet && l != WARN_FATAL)
		return;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	s->fn(s->ctx, buf);
}

/* n with thousands separators, as the summary warnings print counts: "2,421" */
static const char *grouped(uint64_t n, char *buf, size_t size)
{
	char tmp[32];
	int len = snprintf(tmp, sizeof(tmp), "%llu", (unsigned long long)n), o = 0;

	for (int i = 0; i < len && (size_t)o + 2 < size; i++) {
		if (i && (len - i) % 3 == 0)
			buf[o++] = ',';
		buf[o++] = tmp[i];
	}
	buf[o] = 0;
	return buf;
}

/* ---- what the records say: lost events, skipped records, filters that matched nothing ---- */

static void lost(const xpp_profile *p, struct sink *s)
{
	const struct xpp_records *rs = xpp_profile_records(p);
	char a[32], b[32], c[32];

	/* perf: "Processed %d events and lost %d chunks! Check IO/CPU overload!" */
	if (rs->lost_chunks)
		say(s, WARN, "processed %s events and lost %s chunk%s (%s events the kernel could "
		    "not write): check IO/CPU overload",
		    grouped(rs->total, a, sizeof(a)),
		    grouped(rs->lost_chunks, b, sizeof(b)),
		    rs->lost_chunks == 1 ? "" : "s",
		    grouped(rs->lost_events, c, sizeof(c)));
	/* perf says it above 5% only: DESIGN 1.3 says every lost sample */
	if (rs->lost_samples)
		say(s, WARN, "processed %s samples and lost %s (%.2f%%): check IO/CPU overload",
		    grouped(rs->samples, a, sizeof(a)),
		    grouped(rs->lost_samples, b, sizeof(b)),
		    100.0 * (double)rs->lost_samples /
		    (double)(rs->samples + rs->lost_samples));
}

/* perf stops at the first such record ("failed to process type: 200"); we read on. */
static void skipped(const xpp_profile *p, struct sink *s)
{
	const struct xpp_records *rs = xpp_profile_records(p);
	char n[32];

	for (uint32_t i = 0; i < rs->nr_skipped; i++) {
		const struct xpp_skipped_type *t = &rs->skipped[i];
		const char *name = xpf_record_type_name(t->type);
		char type[64];

		if (name)
			snprintf(type, sizeof(type), "%" PRIu32 " (%s)", t->type, name);
		else
			snprintf(type, sizeof(type), "%" PRIu32, t->type);
		say(s, WARN, "failed to process %s record%s of type %s: %s (first at offset "
		    "%#" PRIx64 ")", grouped(t->nr, n, sizeof(n)),
		    t->nr == 1 ? "" : "s", type,
		    t->nested ? "compressed data inside compressed data" :
		    name ? "xperf does not decode AUX area traces" :
		    "a type xperf does not know",
		    t->first_offset);
	}
	if (rs->skipped_more)
		say(s, WARN, "failed to process %s more records of other types xperf does not "
		    "process",
		    grouped(rs->skipped_more, n, sizeof(n)));
}

static void filtered(const xpp_profile *p, struct sink *s)
{
	static const char *const names[XPP_NR_FILTERS] = {
		[XPP_FILTER_TIME] = "--time", [XPP_FILTER_CPU] = "--cpu",
		[XPP_FILTER_COMMS] = "--comms",
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
		say(s, WARN, "the filters matched none of the %s samples",
		    grouped(met, n, sizeof(n)));
		return;
	}
	say(s, WARN, "%s '%s' matched none of the %s samples%s", names[f], values[f],
	    grouped(met, n, sizeof(n)),
	    met < xpp_profile_records(p)->samples ? " the other filters kept" : "");
}

/* The samples whose DWARF user stack could not be unwound: DESIGN 1.3, said once. */
static void unwind(const xpp_profile *p, struct sink *s)
{
	struct xpp_unwind_stats st = xpp_profile_unwind_stats(p);

	if (st.unsupported)
		say(s, WARN, "DWARF call graphs are not supported in this build (no libdw): "
		    "%llu samples show only their own frame",
		    (unsigned long long)st.unsupported);
	else if (st.failed)
		say(s, WARN, "%llu of %llu samples with a DWARF user stack could not be "
		    "unwound (no registers or stack copy, or the file of their ip unreadable): "
		    "they show only their own frame",
		    (unsigned long long)st.failed, (unsigned long long)st.samples);
}


/*
 * Whether a DSO before i that is also not the recorded file and had samples has this name:
 * a system-wide profile holds the kernel more than once (one per kernel map), and the
 * warning names a file once.
 */
static bool named_before(xpp_dso_table *t, uint32_t i, const char *name)
{
	for (uint32_t j = 0; j < i; j++) {
		const struct xpp_dso *d = xpp_dso_table_get(t, j);

		if (d->build_id_mismatch && d->hit &&
		    !strcmp(d->kind == XPP_DSO_USER ? d->long_name : d->short_name, name))
			return true;
	}
	return false;
}

/*
 * The DSOs whose file (or kernel) is not the one recorded and was not found elsewhere:
 * their samples show addresses, not another file's symbols. One line names them all.
 */
static void build_ids(const xpp_profile *p, struct sink *s)
{
	xpp_dso_table *t = xpp_profile_dsos(p);
	char names[1024];
	uint32_t nr = 0, listed = 0;
	size_t len = 0;
	const char *one = NULL;
	char hex[41];

	names[0] = 0;
	for (uint32_t i = 0; i < xpp_dso_table_nr(t); i++) {
		const struct xpp_dso *d = xpp_dso_table_get(t, i);
		const char *name = d->kind == XPP_DSO_USER ? d->long_name : d->short_name;

		if (!d->build_id_mismatch || !d->hit || named_before(t, i, name))
			continue;
		if (!nr++) {
			one = name;
			for (unsigned int j = 0; j < d->build_id_size && j < 20; j++)
				sprintf(hex + 2 * j, "%02x", d->build_id[j]);
			hex[2 * (d->build_id_size < 20 ? d->build_id_size : 20)] = 0;
		}
		if (listed < 5 && len + strlen(name) + 3 < sizeof(names)) {
			len += (size_t)snprintf(names + len, sizeof(names) - len, "%s%s",
						listed ? ", " : "", name);
			listed++;
		}
	}
	if (!nr)
		return;
	if (nr == 1 && xpp_profile_opts(p)->vmlinux && !strcmp(one, "[kernel.kallsyms]"))
		say(s, WARN, "--vmlinux %s is not the kernel that was recorded (build-id %s): "
		    "kernel samples are shown by address, not by its symbols",
		    xpp_profile_opts(p)->vmlinux, hex);
	else if (nr == 1)
		say(s, WARN, "%s is not the one that was recorded (build-id %s): its samples "
		    "are shown by address, not by its symbols; --symfs DIR or perf's build-id "
		    "cache can hold the recorded file", one, hex);
	else
		say(s, WARN, "%u files are not the ones that were recorded (other "
		    "build-ids): %s%s: their samples are shown by address, not by their "
		    "symbols; --symfs DIR or perf's build-id cache can hold the recorded files",
		    nr, names, listed < nr ? ", ..." : "");
}

/*
 * The files the profile names that were refused unread (FIFOs, devices, directories, files
 * too large, another user's perf-PID.map): a sign of a damaged or hostile profile.
 */
static void refused(const xpp_profile *p, struct sink *s)
{
	xpp_dso_table *t = xpp_profile_dsos(p);
	unsigned int nr, said = 0, more = 0;
	const char *msg;
	char line[1024];

	if (xpp_dso_table_refused_line(t, line, sizeof(line)))
		say(s, WARN, "%s", line);
	/*
	 * The files the loaders were led to from those (debug files, build-id cache entries,
	 * kallsyms copies, source files) and refused: a line each, unless a DSO's line above
	 * names the path already. Messages start "'PATH': ".
	 */
	for (unsigned int i = 0; (msg = xb_input_refusal(i, &nr)); i++) {
		const char *q = strstr(msg, "': ");
		size_t n = q ? (size_t)(q - msg) + 3 : strlen(msg);
		bool named = false;

		for (uint32_t j = 0; j < xpp_dso_table_nr(t) && !named; j++) {
			const char *r = xpp_dso_table_get(t, j)->refused;

			named = r && !strncmp(r, msg, n);
		}
		if (named)
			continue;
		if (said == 8) {
			more++;
			continue;
		}
		said++;
		say(s, WARN, "%s: refused unread, a file the profile led to (a debug file, a "
		    "build-id cache entry, a source file)", msg);
	}
	more += nr > XB_INPUT_REFUSALS_KEPT ? nr - XB_INPUT_REFUSALS_KEPT : 0;
	if (more)
		say(s, WARN, "%u more files the profile led to were refused unread", more);
}

/* A debuginfod server failed (said once: no more were asked), or cannot be asked. */
static void debuginfod(const xpp_profile *p, struct sink *s)
{
	char line[1024];

	if (xpp_profile_debuginfod_warning(p, line, sizeof(line)))
		say(s, WARN, "%s", line);
}

/* The kernel had samples but its kallsyms hid every address. */
static void kernel_hidden(const xpp_profile *p, struct sink *s)
{
	xpp_dso_table *t = xpp_profile_dsos(p);

	for (uint32_t i = 0; i < xpp_dso_table_nr(t); i++) {
		const struct xpp_dso *d = xpp_dso_table_get(t, i);

		if (d->addrs_hidden && d->hit) {
			say(s, WARN, "the kernel's symbols are hidden (its kallsyms shows every "
			    "address as 0: kptr_restrict, or perf_event_paranoid for this user): "
			    "its samples are shown by address");
			return;
		}
	}
}

/*
 * The samples that could not be decoded (DESIGN 1.3): in no event's count, so the views'
 * headers say what was shown. More than half of the samples: the profile cannot be trusted.
 */
static void undecodable(const xpp_profile *p, struct sink *s)
{
	const struct xpp_undecodable *u = xpp_profile_undecodable(p);
	const struct xpp_event *ev;
	uint64_t shown = 0;
	uint32_t nr_ev;
	char num[32];

	if (!u->nr)
		return;
	ev = xpp_profile_events(p, &nr_ev);
	for (uint32_t i = 0; i < nr_ev; i++)
		shown += ev[i].nr_samples;
	say(s, u->nr > shown ? WARN_FATAL : WARN,
	    "%s sample%s could not be decoded (first at offset %#llx: %s)",
	    grouped(u->nr, num, sizeof(num)), u->nr == 1 ? "" : "s",
	    (unsigned long long)u->first_offset, u->reason);
}

/* The reader's own: a file cut short (read up to its last complete record), and the like. */
static void reader(const xpp_profile *p, struct sink *s)
{
	const char *w = xpf_reader_warning(xpp_profile_reader(p));

	if (w)
		say(s, WARN, "%s", w);
}

static const struct {
	const char *name;
	void (*fact)(const xpp_profile *p, struct sink *s);
} facts[] = {
	{ "lost", lost },
	{ "skipped", skipped },
	{ "filtered", filtered },
	{ "unwind", unwind },
	{ "build-id", build_ids },
	{ "refused", refused },
	{ "debuginfod", debuginfod },
	{ "kernel-hidden", kernel_hidden },
	{ "undecodable", undecodable },
	{ "reader", reader },
};

bool view_warnings(const xpp_profile *p, bool quiet, view_warn_fn fn, void *ctx)
{
	struct sink s = { fn, ctx, quiet, false };

	for (size_t i = 0; i < sizeof(facts) / sizeof(facts[0]); i++)
		facts[i].fact(p, &s);
	return s.fatal;
}
