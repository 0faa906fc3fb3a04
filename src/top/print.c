/* xperf top --stdio: perf top's status line and the table of each event, every refresh. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "top/top.h"
#include "view/cg_print.h"

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
	const struct xpp_hist_entry xe = xpp_hist_entry_at(g->h, row), *x = &xe;

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
	struct rv_cgview cg;
	struct rv_entries *g = &cg.en;
	struct rv_cols *v = &cg.v;
	uint32_t *shown;
	uint64_t total;
	size_t nr_shown = 0, max;

	/* -E, else what the terminal holds below the status lines, as perf top */
	max = o->entries > 0 ? (size_t)o->entries :
	      s->rows > 8 ? (size_t)s->rows - 4 : TOP_DEFAULT_ENTRIES;
	/* the entries shown (the hottest selected, then sorted: a refresh does not sort them
	 * all), and with -g the scratch of their chains, printed below each as perf top's */
	if (rv_cgview_init(&cg, c, idx, max) < 0)
		return;
	shown = malloc((max + 1) * sizeof(*shown));
	if (!shown)
		goto out;
	total = c->ev[idx].total_period;
	for (size_t i = 0; i < g->nr_rows && nr_shown < max; i++) {
		uint32_t r = g->rows[i];
		uint64_t val = rv_entry_period(g, r);

		if (!val)
			continue;
		/* rows come hottest first: the first under the limit ends the table */
		if (total && 100.0 * (double)val / (double)total < o->view.percent_limit)
			break;
		shown[nr_shown++] = r;
	}
	/* the columns as wide as what is shown (a refresh never measures every entry) */
	rv_widths(v, g->h, shown, nr_shown);
	apply_widths(v, o->widths);
	for (size_t i = 0; i < nr_shown; i++) {
		print_row(s, v, g, shown[i], total, out);
		if (g->chains && rv_cg_print_entry(&cg, shown[i], out) < 0)
			break;
	}
out:
	free(shown);
	rv_cgview_free(&cg);
}

void top_status(struct top_session *s, double secs, char *buf, size_t size)
{
	const struct top_opts *o = s->o;
	const struct xpp_records *rs = xpp_profile_records(s->p);
	uint64_t lost = rs->lost_events + rs->lost_samples;
	double rate = secs > 0 ? (double)s->st.samples / secs : 0;
	double kpct = s->st.samples ? 100.0 * (double)s->st.kernel_samples /
				      (double)s->st.samples : 0;
	double xpct = s->st.samples ? 100.0 * (double)s->st.exact / (double)s->st.samples : 0;
	const struct xpf_attr *a = xpf_reader_attr(s->live, 0);
	char name[96], rate_s[32] = "", target[64];
	int cpus = s->tg.cpus.nr;

	if (a && a->attr.freq)
		snprintf(rate_s, sizeof(rate_s), "%" PRIu64 "Hz ", (uint64_t)a->attr.sample_freq);
	else if (a)
		snprintf(rate_s, sizeof(rate_s), "%" PRIu64 " ", (uint64_t)a->attr.sample_period);
	if (o->pids)
		snprintf(target, sizeof(target), "target_pid: %s", o->pids);
	else if (o->tids)
		snprintf(target, sizeof(target), "target_tid: %s", o->tids);
	else if (o->user)
		snprintf(target, sizeof(target), "uid: %s", o->user);
	else
		snprintf(target, sizeof(target), "%s, %d CPU%s", o->cpu_list ? "cpus" : "all",
			 cpus, cpus == 1 ? "" : "s");
	/* perf top's status line: samples a second, the kernel's share, losses, the event */
	snprintf(buf, size, "PerfTop: %8.0f irqs/sec  kernel:%4.1f%%  exact: %4.1f%% lost: %"
		 PRIu64 "/%" PRIu64 " drop: %" PRIu64 "/%" PRIu64 " [%s%s],  (%s)", rate, kpct,
		 xpct, lost - s->st.lost_total, lost, s->st.dropped - s->st.dropped_total,
		 s->st.dropped, rate_s, a ? xpf_attr_event_name(a, name, sizeof(name)) : "",
		 target);
	s->st.lost_total = lost;
	s->st.dropped_total = s->st.dropped;
}

void top_print(struct top_session *s, double secs, FILE *out)
{
	char status[512];

	top_status(s, secs, status, sizeof(status));
	fprintf(out, "   %s\n", status);
	fputs("-------------------------------------------------------------------------------"
	      "\n\n", out);
	rv_ctx_take(&s->rc, s->p, s->live);
	for (uint32_t i = 0; i < s->rc.nr_ev; i++)
		if (s->rc.ev[i].h && s->rc.ev[i].total_period)
			print_event(s, i, out);
	fflush(out);
}
