/* xperf top --stdio: perf top's status line and the table of each event, every refresh. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "top/top.h"

/*
 * perf top leaves out the samples of the idle loops (perf's symbol__is_idle()): they are
 * never hot in any sense a person asks about, and a quiet machine would show nothing else.
 */
static const char *const idle_syms[] = {
	"acpi_idle_do_entry", "acpi_processor_ffh_cstate_enter", "arch_cpu_idle", "cpu_idle",
	"cpu_startup_entry", "default_idle", "idle_cpu", "intel_idle", "intel_idle_ibrs",
	"native_safe_halt", "enter_idle", "exit_idle", "mwait_idle", "mwait_idle_with_hints",
	"mwait_idle_with_hints.constprop.0", "poll_idle", "ppc64_runlatch_off",
	"pseries_dedicated_idle_sleep", "psw_idle", "psw_idle_exit",
};

static bool is_idle(const struct rv_ctx *c, const struct xpp_hist_key *k)
{
	const char *s;

	if (k->level == '.')
		return false;
	s = rv_sym_name(c, k);
	if (!s)
		return false;
	for (size_t i = 0; i < sizeof(idle_syms) / sizeof(idle_syms[0]); i++)
		if (!strcmp(s, idle_syms[i]))
			return true;
	return false;
}

/* -w W1,W2...: the key columns this wide (0: as computed) */
static void apply_widths(struct rv_cols *v, const char *widths)
{
	const char *p = widths;

	for (unsigned int i = 0; p && *p && i < v->nr_cols; i++) {
		char *end;
		long w = strtol(p, &end, 10);

		if (w > 0)
			v->width[i] = (int)w;
		p = *end == ',' ? end + 1 : NULL;
	}
}

static void print_row(const struct top_session *s, const struct rv_cols *v,
		      const struct rv_entries *g, uint32_t row, uint64_t total, FILE *out)
{
	const struct rv_ctx *c = &s->rc;
	const struct xpp_hist_entry *x = &xpp_hist_entries(g->h, &(size_t){ 0 })[row];

	for (unsigned int j = 0; j < v->nr_out; j++) {
		unsigned int col = v->out[j];
		int w = rv_out_width(v, col);
		bool last = j + 1 == v->nr_out;
		char buf[64];

		fputs("  ", out);
		if (col >= RV_OUT_OVERHEAD) {
			uint64_t m = rv_entry_metric(g, row, col);

			if (col == RV_OUT_SAMPLE || col == RV_OUT_PERIOD)
				fprintf(out, "%*" PRIu64, w, m);
			else
				fprintf(out, "%*.2f%%", w - 1,
					total ? 100.0 * (double)m / (double)total : 0.0);
		} else if (col == RV_KEY_SYM) {
			fprintf(out, "[%c] %-*s", (char)x->key.level, last ? 0 : w - 4,
				rv_sym_or_addr(c, &x->key, buf, sizeof(buf)));
		} else {
			const char *t = rv_col_text(c, &x->key, col, buf, sizeof(buf));

			/* perf top calls the kernel's map by its short name */
			if (col == RV_KEY_DSO && !strcmp(t, "[kernel.kallsyms]"))
				t = "[kernel]";
			fprintf(out, rv_keys[col].align == RV_RIGHT ? "%*.*s" : "%-*.*s",
				last ? 0 : w, w, t);
		}
	}
	fputc('\n', out);
}

/* the entries shown without -E nor a terminal */
#define TOP_DEFAULT_ENTRIES 50

static void print_event(struct top_session *s, uint32_t idx, FILE *out)
{
	const struct top_opts *o = s->o;
	struct rv_ctx *c = &s->rc;
	struct rv_entries g;
	struct rv_cols v;
	struct xpp_hist_entry *e, *shown_e;
	uint32_t *shown;
	uint64_t idle = 0, total;
	size_t n, nr_shown = 0, max;

	if (rv_entries_build(&g, c, idx) < 0)
		return;
	e = xpp_hist_entries(g.h, &n);
	/* -E, else what the terminal holds below the status lines, as perf top */
	max = o->entries > 0 ? (size_t)o->entries :
	      s->rows > 8 ? (size_t)s->rows - 4 : TOP_DEFAULT_ENTRIES;
	shown = malloc((max + 1) * sizeof(*shown));
	shown_e = malloc((max + 1) * sizeof(*shown_e));
	if (!shown || !shown_e)
		goto out;
	/* the idle loops are kernel entries: only those are looked at by name */
	for (size_t i = 0; i < n; i++)
		if (e[i].key.level != '.' && is_idle(c, &e[i].key))
			idle += rv_entry_metric(&g, (uint32_t)i, RV_OUT_OVERHEAD);
	total = c->ev[idx].total_period;
	total = total > idle ? total - idle : 0;
	for (size_t i = 0; i < g.nr_rows && nr_shown < max; i++) {
		uint32_t r = g.rows[i];
		uint64_t val = rv_entry_period(&g, r);

		if (!val || (e[r].key.level != '.' && is_idle(c, &e[r].key)))
			continue;
		/* rows come hottest first: the first under the limit ends the table */
		if (total && 100.0 * (double)val / (double)total < o->view.percent_limit)
			break;
		shown_e[nr_shown] = e[r];
		shown[nr_shown++] = r;
	}
	/* the columns as wide as what is shown (a refresh never measures every entry) */
	rv_cols_init(&v, c);
	rv_widths(&v, shown_e, nr_shown);
	apply_widths(&v, o->widths);
	for (size_t i = 0; i < nr_shown; i++)
		print_row(s, &v, &g, shown[i], total, out);
out:
	free(shown);
	free(shown_e);
	rv_entries_free(&g);
}

void top_print(struct top_session *s, double secs, FILE *out)
{
	const struct top_opts *o = s->o;
	const struct xpp_records *rs = xpp_profile_records(s->p);
	uint64_t lost = rs->lost_events + rs->lost_samples;
	double rate = secs > 0 ? (double)s->st.samples / secs : 0;
	double kpct = s->st.samples ? 100.0 * (double)s->st.kernel_samples /
				      (double)s->st.samples : 0;
	char buf[96];
	const struct xpf_attr *a = xpf_reader_attr(s->live, 0);
	int cpus = s->tg.cpus.nr;

	/* perf top's status line: samples a second, the kernel's share, losses, the event */
	double xpct = s->st.samples ? 100.0 * (double)s->st.exact / (double)s->st.samples : 0;

	fprintf(out, "   PerfTop: %8.0f irqs/sec  kernel:%4.1f%%  exact: %4.1f%% lost: %" PRIu64
		"/%" PRIu64 " drop: 0/0 [", rate, kpct, xpct, lost - s->st.lost_total, lost);
	if (a && a->attr.freq)
		fprintf(out, "%" PRIu64 "Hz ", (uint64_t)a->attr.sample_freq);
	else if (a)
		fprintf(out, "%" PRIu64 " ", (uint64_t)a->attr.sample_period);
	fprintf(out, "%s],  ", a ? xpf_attr_event_name(a, buf, sizeof(buf)) : "");
	if (o->pids)
		fprintf(out, "(target_pid: %s)\n", o->pids);
	else if (o->tids)
		fprintf(out, "(target_tid: %s)\n", o->tids);
	else if (o->user)
		fprintf(out, "(uid: %s)\n", o->user);
	else
		fprintf(out, "(%s, %d CPU%s)\n", o->cpu_list ? "cpus" : "all", cpus,
			cpus == 1 ? "" : "s");
	fputs("-------------------------------------------------------------------------------"
	      "\n\n", out);
	s->st.lost_total = lost;
	rv_ctx_take(&s->rc, s->p, s->live);
	for (uint32_t i = 0; i < s->rc.nr_ev; i++)
		if (s->rc.ev[i].h && s->rc.ev[i].total_period)
			print_event(s, i, out);
	fflush(out);
}
