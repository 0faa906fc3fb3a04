/* The report TUI's session: the terminal, the one pass over the file, the event list, timings (-v). */
#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <ncursesw/curses.h>

#include "base/array.h"
#include "cli/cli.h"
#include "profile/disasm/annotate.h"
#include "tui/curses/tui_int.h"
#include "view/group.h"
#include "view/run.h"

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

const char *tui_frame_label(const struct tui *t, const struct xpp_hist_key *k, char *buf,
			    size_t size)
{
	const char *name = rv_sym_name(&t->c, k);
	const char *line = t->c.cg.srcline ? xpp_profile_srcline(t->c.p, k, true) : NULL;
	char addr[32];

	if (!name) {
		snprintf(addr, sizeof(addr), "%#" PRIx64, k->addr);
		name = addr;
	}
	snprintf(buf, size, "%s%s%s%s", name, line ? " " : "", line ? line : "",
		 k->inl ? " (inlined)" : "");
	return buf;
}

const char *tui_keyname(int ch, char *buf, size_t size)
{
	const char *k;

	if (ch == '\n' || ch == '\r' || ch == KEY_ENTER)
		return "Enter";
	if (ch == TUI_ESC)
		return "Esc";
	if (ch == ' ')
		return "Space";
	if (ch == '\t')
		return "Tab";
	if (ch > ' ' && ch < 0x7f) {
		snprintf(buf, size, "%c", ch);
		return buf;
	}
	k = keyname(ch);
	snprintf(buf, size, "%s", k ? k : "?");
	return buf;
}

bool tui_move(int ch, size_t *pos, size_t nr, size_t page)
{
	size_t last = nr ? nr - 1 : 0;

	switch (ch) {
	case KEY_UP:
	case 'k':
		*pos = *pos ? *pos - 1 : 0;
		break;
	case KEY_DOWN:
	case 'j':
		*pos = *pos < last ? *pos + 1 : last;
		break;
	case KEY_PPAGE:
		*pos = *pos > page ? *pos - page : 0;
		break;
	case KEY_NPAGE:
		*pos = last - *pos > page ? *pos + page : last;
		break;
	case KEY_HOME:
		*pos = 0;
		break;
	case KEY_END:
		*pos = last;
		break;
	default:
		return false;
	}
	return true;
}

/* -v: the time the previous key (or applied refresh) took, once the screen answered it. */
static void take_time(struct tui *t)
{
	double tm = now();

	if (!t->first_screen)
		t->first_screen = tm - t->o->t0;
	if (t->refresh_start) {
		double d = tm - t->refresh_start;

		t->nr_refresh++;
		t->refresh_sum += d;
		if (d > t->refresh_max)
			t->refresh_max = d;
		t->refresh_start = 0;
	}
	if (t->key_pending >= 0) {
		double d = tm - t->key_start;

		t->nr_keys++;
		t->key_sum += d;
		if (d > t->key_max) {
			t->key_max = d;
			t->key_max_ch = t->key_pending;
		}
		/* -vv: every key, printed at the end (stderr is the terminal until then) */
		if (t->o->verbose > 1) {
			/* a key the log has no room for goes unlogged */
			if (!XB_ARRAY_RESERVE(t->log, t->cap_log, t->nr_log + 1, 64))
				t->log[t->nr_log++] = (struct tui_key_time){ t->key_pending, d };
		}
		t->key_pending = -1;
	}
}

/*
 * The live source's refresh, after interval_ms without a key. True when it changed the
 * profile (only with apply): t->c then holds the new results.
 */
static int live_refresh(struct tui *t, bool apply)
{
	const struct tui_source *src = t->src;
	xpp_profile *p = t->p;
	double start = now();
	char was[sizeof(t->status)];
	int ret;

	memcpy(was, t->status, sizeof(was));
	t->status[0] = 0;
	ret = src->update(src->ctx, apply, &p, t->status, sizeof(t->status));
	if (ret < 0) {
		t->failed = true;
		return 0;
	}
	if (ret == TUI_UPDATE_END) {
		t->ended = true;
		return 0;
	}
	if (!apply)
		return 0;
	if (ret == 0) /* the status line alone, where it shows */
		return strcmp(was, t->status) ? TUI_KEY_REDRAW : 0;
	t->p = p;
	t->r = xpp_profile_reader(p);
	rv_ctx_take(&t->c, t->p, t->r);
	t->refresh_start = start;
	return TUI_KEY_REFRESH;
}

static int getkey(struct tui *t, bool apply)
{
	int ch;

	refresh();
	take_time(t);
	if (t->src && t->src->update)
		timeout((int)(t->src->interval_ms ? t->src->interval_ms : 1000));
	for (;;) {
		if (t->failed || t->ended)
			return 'q';
		ch = getch();
		if (ch != ERR || !t->src || !t->src->update)
			break;
		if ((ch = live_refresh(t, apply)))
			return ch;
	}
	t->key_start = now();
	t->key_pending = ch == KEY_RESIZE ? -1 : ch;
	return ch;
}

int tui_getkey(struct tui *t)
{
	return getkey(t, false);
}

int tui_getkey_live(struct tui *t)
{
	return getkey(t, true);
}

/* A centred message on an otherwise blank screen (while the file is read). */
static void splash(const char *fmt, const char *arg)
{
	char buf[512];
	int w;

	snprintf(buf, sizeof(buf), fmt, arg);
	erase();
	w = tui_width(buf);
	tui_put(LINES / 2, w < COLS ? (COLS - w) / 2 : 0, COLS, buf, false);
	refresh();
}

const char *tui_no_chains(const struct tui *t)
{
	/* a live source is top, whose own -g decides; a file's were recorded so */
	return t->src && t->src->update ? "no call chains: top runs without -g" :
	       "no call chains: record with -g";
}

bool tui_event_listed(const struct tui *t, uint32_t idx)
{
	const char *name;
	bool forced;

	/* perf's list with groups side by side: their leaders, an empty one left out */
	return t->c.ev[idx].nr_samples &&
	       (!rv_group_view(&t->c) || rv_group_size(&t->c, idx, &name, &forced));
}

/* An event's line in the list: its samples (a group's summed), name and count. */
static void event_line(const struct tui *t, uint32_t idx, int y)
{
	const char *gname;
	bool forced;
	uint32_t n = rv_group_view(&t->c) ? rv_group_size(&t->c, idx, &gname, &forced) : 1;
	uint64_t samples = 0, period = 0;
	char name[512], count[32];

	for (uint32_t m = 0; m < n; m++) {
		samples += t->c.ev[idx + m].nr_samples;
		period += t->c.ev[idx + m].total_period;
	}
	rv_count_str(samples, count, sizeof(count));
	count[strcspn(count, " ")] = 0; /* perf's blank for no unit */
	tui_putf(y, 0, COLS, true, " %s samples of event%s '%s'  (count %llu)", count,
		 n > 1 ? "s" : "", n > 1 ? rv_group_desc(&t->c, idx, n, name, sizeof(name)) :
		 rv_event_name(&t->c, idx, name, sizeof(name)), (unsigned long long)period);
}

/* Events with samples (groups' leaders, groups side by side): pick one, or the only one. */
#define MAX_LISTED 64

static uint32_t event_ids(const struct tui *t, uint32_t *ids)
{
	uint32_t n = 0;

	for (uint32_t i = 0; i < t->c.nr_ev && n < MAX_LISTED; i++)
		if (tui_event_listed(t, i))
			ids[n++] = i;
	return n;
}

/* After a live refresh: the list again, the selection kept on its event. */
static uint32_t relist(const struct tui *t, uint32_t *ids, uint32_t n, size_t *sel)
{
	uint32_t was = *sel < n ? ids[*sel] : UINT32_MAX;

	n = event_ids(t, ids);
	*sel = 0;
	for (uint32_t i = 0; i < n; i++)
		if (ids[i] == was)
			*sel = i;
	return n;
}

/* diff --tui: the first listed event with a baseline, whose flame graph opens first. */
static bool diff_start(const struct tui *t, const uint32_t *ids, uint32_t n, size_t *sel)
{
	const struct tui_baseline *b = t->src ? t->src->baseline : NULL;

	for (uint32_t i = 0; b && !t->diff_shown && i < n; i++)
		if (b->event[ids[i]] >= 0) {
			*sel = i;
			return true;
		}
	return false;
}

static enum tui_exit pick_event(struct tui *t)
{
	uint32_t ids[MAX_LISTED], n = event_ids(t, ids);
	size_t sel = 0;
	bool enter = diff_start(t, ids, n, &sel);

	if (n == 1)
		return tui_hists_run(t, ids[0]);
	for (;;) {
		int ch = '\n';

		if (enter) { /* straight into it, as if chosen */
			enter = false;
			goto chosen;
		}
		erase();
		attron(tui_attr(ST_BAR));
		tui_putf(0, 0, COLS, true, "Available samples: %u events", n);
		attroff(tui_attr(ST_BAR));
		for (uint32_t i = 0; i < n && (int)i + 2 < LINES - 1; i++) {
			if (i == sel)
				attron(tui_attr(ST_SELECTED));
			event_line(t, ids[i], (int)i + 2);
			if (i == sel)
				attroff(tui_attr(ST_SELECTED));
		}
		attron(tui_attr(ST_BAR));
		tui_put(LINES - 1, 0, COLS, "Enter: open the event   q: quit   h or ?: keys", true);
		attroff(tui_attr(ST_BAR));
		ch = tui_getkey_live(t);
		if (ch == TUI_KEY_REFRESH) {
			n = relist(t, ids, n, &sel);
			continue;
		}
		if (tui_move(ch, &sel, n, (size_t)(LINES > 3 ? LINES - 3 : 1)))
			continue;
chosen:
		switch (ch) {
		case '\n':
		case '\r':
		case KEY_ENTER:
		case KEY_RIGHT:
			if (sel >= n) /* live, counts zeroed: no event has samples now */
				break;
			/* Tab and Shift-Tab in the main view go round the events, as in perf */
			for (enum tui_exit ex = tui_hists_run(t, ids[sel]);;
			     ex = tui_hists_run(t, ids[sel])) {
				if (ex == TUI_QUIT || ex == TUI_RESORT)
					return ex;
				if (t->src) /* live: events may have samples now that had none */
					n = relist(t, ids, n, &sel);
				if (!n)
					break;
				if (ex == TUI_NEXT_EVENT)
					sel = (sel + 1) % n;
				else if (ex == TUI_PREV_EVENT)
					sel = (sel + n - 1) % n;
				else
					break;
			}
			break;
		case 'h':
		case '?':
		case KEY_F(1):
			if (tui_help_run(t) == TUI_QUIT)
				return TUI_QUIT;
			break;
		case 'q':
		case TUI_ESC:
		case TUI_CTRL('c'):
			return TUI_QUIT;
		default:
			break;
		}
	}
}

/* -v: how long the first screen and the keys took, after the terminal is given back. */
static void print_timings(const struct tui *t)
{
	char kb[32];

	fprintf(stderr, "%s: tui: first screen %.1f ms after start\n", cli_command(),
		t->first_screen * 1e3);
	for (size_t i = 0; i < t->nr_log; i++)
		fprintf(stderr, "%s: tui: key %s %.2f ms\n", cli_command(),
			tui_keyname(t->log[i].ch, kb, sizeof(kb)), t->log[i].secs * 1e3);
	if (t->nr_keys)
		fprintf(stderr, "%s: tui: %u keys answered, mean %.2f ms, slowest %.2f ms (%s)\n",
			cli_command(), t->nr_keys, t->key_sum / t->nr_keys * 1e3, t->key_max * 1e3,
			tui_keyname(t->key_max_ch, kb, sizeof(kb)));
	if (t->nr_refresh)
		fprintf(stderr, "%s: tui: %u refreshes drawn, mean %.2f ms, slowest %.2f ms\n",
			cli_command(), t->nr_refresh, t->refresh_sum / t->nr_refresh * 1e3,
			t->refresh_max * 1e3);
}

static bool has_samples(const struct rv_ctx *c)
{
	for (uint32_t i = 0; i < c->nr_ev; i++)
		if (c->ev[i].nr_samples)
			return true;
	return false;
}

/*
 * The splash, shown only when the file takes long to read: a pass of a few tenths of a
 * second is better spent without the terminal (tmux) and a drawing thread taking CPU from
 * it, on a machine whose cores the pass's own threads already fill.
 */
#define SPLASH_AFTER_NS 150000000L

struct splash_wait {
	pthread_mutex_t lock;
	pthread_cond_t cond;
	bool pass_done;          /* set by the pass's thread when it ends */
	bool shown;              /* the terminal's modes are set and the splash drawn */
	const char *input;
	pthread_t thread;
	bool on;                 /* the thread runs: join it */
};

static void *splash_later(void *arg)
{
	struct splash_wait *w = arg;
	struct timespec until;
	bool show;

	clock_gettime(CLOCK_REALTIME, &until);
	until.tv_nsec += SPLASH_AFTER_NS;
	if (until.tv_nsec >= 1000000000L) {
		until.tv_sec++;
		until.tv_nsec -= 1000000000L;
	}
	pthread_mutex_lock(&w->lock);
	while (!w->pass_done && pthread_cond_timedwait(&w->cond, &w->lock, &until) == 0)
		;
	show = !w->pass_done;
	pthread_mutex_unlock(&w->lock);
	if (show) {
		tui_term_modes();
		splash("Reading %s ...", w->input ? w->input : "the profile");
		w->shown = true; /* read after the join */
	}
	return NULL;
}

/* The profile exists and its pass is about to start: the splash's thread waits beside it. */
static int start_splash(void *ctx, xpp_profile *p)
{
	struct splash_wait *w = ctx;

	(void)p;
	w->on = !pthread_create(&w->thread, NULL, splash_later, w);
	return 0;
}

/*
 * The timeline's range (T) where the profile's log of samples cannot give it (none kept,
 * or outgrown): the file read again with --time. 0, or -1 with err set and the old profile
 * kept.
 */
static int reread(struct tui *t, struct xpp_opts *po, struct xb_error *err)
{
	xpf_reader *r = NULL;
	xpp_profile *p = NULL;
	int ret;

	po->keep_addrs = xpp_annotate_supported();
	po->keep_samples = true;
	splash("Reading %s again ...", t->o->input);
	ret = xpf_reader_open(&r, t->o->input, err);
	if (ret == 0)
		ret = view_profile_run(&p, r, po, NULL, NULL, err);
	if (ret < 0) {
		if (!err->msg[0])
			xb_error_set(err, ret, "%s", strerror(-ret));
		xpp_profile_free(p);
		if (r)
			xpf_reader_close(r);
		return -1;
	}
	tui_timeline_drop(t); /* its counts came from the old profile's log */
	if (t->own_profile) /* a source's profile stays the source's */
		xpp_profile_free(t->p);
	if (t->own_reader)
		xpf_reader_close(t->r);
	t->p = p;
	t->r = r;
	t->own_profile = t->own_reader = true;
	return 0;
}

/*
 * The main view's s and o: the samples counted again with the sort keys asked for, or the
 * other of children and self, from what the profile kept of them (opts.keep_samples),
 * never the file: a pipe, a file changed since, and a live profile regroup alike. When it
 * cannot, the view keeps the results it shows, and msg says why.
 */
static int resort(struct tui *t, struct view_opts *vo, char *msg, size_t size)
{
	struct view_opts nvo = *vo;
	struct rv_ctx c = { 0 };
	struct xpp_opts po = { 0 };
	struct xb_error err = { 0 };
	char key = t->retime ? 'T' : t->flip_children ? 'o' : 's';
	bool retime = t->retime;
	int ret;

	if (t->resort[0])
		nvo.sort = t->resort;
	if (t->flip_children)
		nvo.children = !t->c.children;
	t->flip_children = false;
	if (t->retime) /* the timeline's range, or every sample again */
		nvo.time = t->time[0] ? t->time : NULL;
	if (!(t->src && t->src->update))
		t->status[0] = 0; /* a file's: what the last count said */
	t->retime = false;
	if (rv_ctx_parse(&c, &nvo, &po) < 0) /* checked by the view: not expected */
		return snprintf(msg, size, "s: cannot sort by '%s'", t->resort), -1;
	ret = xpp_profile_regroup(t->p, &po, &err);
	/* a file whose samples the log cannot give is read again: DESIGN 1.3's exception, said */
	if (retime && ret < 0 && ret != -ENOMEM && ret != -EINVAL && t->o->input &&
	    strcmp(t->o->input, "-") && !(t->src && t->src->update)) {
		char why[sizeof(err.msg)];

		snprintf(why, sizeof(why), "%s", err.msg);
		if (reread(t, &po, &err) < 0)
			return snprintf(msg, size, "T: %.200s", err.msg), -1;
		snprintf(t->status, sizeof(t->status), "T: %.120s: the file was read again", why);
		ret = 0;
	}
	if (ret < 0 && ret != -ENOMEM) {
		snprintf(msg, size, "%c: %.200s%s", key, err.msg,
			 key == 's' ? ": give --sort" : key == 'T' ? ": give --time" :
			 ": give --children or --no-children");
		return -1;
	}
	/* out of memory midway: the results are the new keys', incomplete, and said so */
	*vo = nvo;
	c.o = vo;
	t->c = c;
	rv_ctx_take(&t->c, t->p, t->r);
	if (ret < 0)
		return snprintf(msg, size, "%c: %.200s", key, err.msg), -1;
	return 0;
}

/* The event list or the main view until q; s and o count the samples again. */
static void browse(struct tui *t, struct view_opts *vo)
{
	char msg[256];

	while (pick_event(t) == TUI_RESORT)
		if (resort(t, vo, msg, sizeof(msg)) < 0)
			splash("%s (any key goes back)", msg), tui_getkey(t);
}

int tui_browse_file(xpf_reader *r, const struct tui_opts *o)
{
	struct view_opts vo = *o->view; /* s changes its --sort */
	struct xb_error err = { 0 };
	struct xpp_opts po = { 0 };
	struct tui t = { .o = o, .r = r, .key_pending = -1, .own_profile = true };
	const char *time;
	struct splash_wait sw = { .lock = PTHREAD_MUTEX_INITIALIZER,
				  .cond = PTHREAD_COND_INITIALIZER, .input = o->input };
	int ret, status;

	if (rv_ctx_parse(&t.c, &vo, &po) < 0)
		return CLI_EXIT_USAGE;
	/* the a key annotates from the samples' own addresses, kept in the one pass; s, o and
	   the timeline count its samples again, every one: --time is applied after the pass */
	po.keep_addrs = xpp_annotate_supported();
	po.keep_samples = true;
	time = po.time;
	po.time = NULL;
	ret = tui_term_open();
	if (ret < 0)
		return ret;
	/*
	 * The pass starts at once (its kernel-symbol and decompression threads with it); the
	 * terminal's modes and the splash wait on another thread, for a pass that takes long.
	 * Nothing of the pass touches the screen; the join orders the screen's state before
	 * its next use.
	 */
	ret = view_profile_run(&t.p, r, &po, start_splash, &sw, &err);
	if (sw.on) {
		pthread_mutex_lock(&sw.lock);
		sw.pass_done = true;
		pthread_cond_signal(&sw.cond);
		pthread_mutex_unlock(&sw.lock);
		pthread_join(sw.thread, NULL);
	}
	if (!sw.shown)
		tui_term_modes();
	po.time = time;
	if (ret == 0 && time && (ret = xpp_profile_regroup(t.p, &po, &err)) < 0 &&
	    ret != -EINVAL && ret != -ENOMEM && o->input && strcmp(o->input, "-")) {
		/* the log outgrew its bound: the file is read again, with --time (said) */
		snprintf(t.status, sizeof(t.status), "%.120s: the file was read again with --time",
			 err.msg);
		xpp_profile_free(t.p);
		t.p = NULL;
		memset(&err, 0, sizeof(err));
		splash("Reading %s again ...", o->input);
		ret = xpf_reader_open(&t.r, o->input, &err);
		t.own_reader = ret == 0;
		if (ret == 0)
			ret = view_profile_run(&t.p, t.r, &po, NULL, NULL, &err);
	}
	if (ret < 0) {
		tui_term_close();
		cli_error("%s", err.msg);
		xpp_profile_free(t.p);
		if (t.own_reader)
			xpf_reader_close(t.r);
		return CLI_EXIT_RUNTIME;
	}
	rv_ctx_take(&t.c, t.p, t.r);
	if (has_samples(&t.c)) {
		browse(&t, &vo);
	} else {
		tui_term_close();
		cli_warning("'%s' has no samples", o->input ? o->input : "the input");
	}
	tui_term_close();
	tui_timeline_drop(&t);
	status = view_warnings(t.p, t.c.o->quiet, cli_warning_cb, NULL) ? CLI_EXIT_RUNTIME :
									   CLI_EXIT_OK;
	if (o->verbose)
		print_timings(&t);
	xpp_profile_free(t.p);
	if (t.own_reader)
		xpf_reader_close(t.r);
	free(t.log);
	return status;
}

/* A live profile with no samples yet: a splash until it has some. False: q was pressed. */
static bool wait_samples(struct tui *t)
{
	while (!has_samples(&t->c)) {
		int ch;

		if (!t->src->update)
			return true; /* nothing will come */
		splash("Waiting for samples ... %s", t->status[0] ? t->status : "(q quits)");
		ch = tui_getkey_live(t);
		if (ch == 'q' || ch == TUI_ESC || ch == TUI_CTRL('c'))
			return false;
	}
	return true;
}

int tui_browse(const struct tui_source *src)
{
	struct view_opts vo = *src->o->view;
	struct xpp_opts po = { 0 };
	struct tui t = { .o = src->o, .src = src, .p = src->profile, .key_pending = -1 };
	int ret;

	if (rv_ctx_parse(&t.c, &vo, &po) < 0)
		return CLI_EXIT_USAGE;
	ret = tui_term_open();
	if (ret < 0)
		return ret;
	tui_term_modes();
	t.r = xpp_profile_reader(t.p);
	rv_ctx_take(&t.c, t.p, t.r);
	if (!wait_samples(&t)) {
		tui_term_close();
	} else if (has_samples(&t.c)) {
		browse(&t, &vo);
		tui_term_close();
	} else {
		tui_term_close();
		cli_warning("the profile has no samples");
	}
	if (t.failed)
		cli_error("%s", t.status[0] ? t.status : "the profile's refresh failed");
	if (src->o->verbose)
		print_timings(&t);
	tui_timeline_drop(&t);
	/* a profile the timeline read again; the source's own stays its */
	if (t.own_profile)
		xpp_profile_free(t.p);
	if (t.own_reader)
		xpf_reader_close(t.r);
	free(t.log);
	return t.failed ? CLI_EXIT_RUNTIME : CLI_EXIT_OK;
}
