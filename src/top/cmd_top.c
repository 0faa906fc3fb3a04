/* xperf top: a live, refreshing table of the hottest functions, as perf top. */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/ioctl.h>

#include "cli/cli.h"
#include "events/xpe_synth.h"
#include "top/top.h"
#include "view/run.h"

/* perf's PERF_REGS_MASK for x86_64 (the user registers DWARF unwinding reads) */
#define TOP_X86_64_REGS_MASK 0xff0fffULL
#define TOP_DEFAULT_STACK 8192
#define TOP_DEFAULT_PAGES 128

/*
 * perf top leaves out the samples of the kernel's idle loops (perf's symbol__is_idle()):
 * they are never hot in a sense a person asks about, and a quiet machine would show
 * nothing else.
 */
#define TOP_IDLE_SYMBOLS                                                                      \
	"acpi_idle_do_entry,acpi_processor_ffh_cstate_enter,arch_cpu_idle,cpu_idle,"          \
	"cpu_startup_entry,default_idle,idle_cpu,intel_idle,intel_idle_ibrs,"                 \
	"native_safe_halt,enter_idle,exit_idle,mwait_idle,mwait_idle_with_hints,"             \
	"mwait_idle_with_hints.constprop.0,poll_idle,ppc64_runlatch_off,"                     \
	"pseries_dedicated_idle_sleep,psw_idle,psw_idle_exit"

static const char *const usage[] = {
	"xperf top [<options>]",
	NULL,
};

static volatile sig_atomic_t done;

static void on_signal(int sig)
{
	(void)sig;
	done = 1;
}

static struct top_opts opts;

static int opt_event(const struct cli_option *o, const char *arg, bool unset)
{
	const char **ev;

	(void)o;
	if (unset || !arg)
		return 0;
	ev = realloc(opts.events, (size_t)(opts.nr_events + 1) * sizeof(*ev));
	if (!ev) {
		cli_error("out of memory");
		return -1;
	}
	opts.events = ev;
	opts.events[opts.nr_events++] = arg;
	return 0;
}

/* --call-graph fp | dwarf[,SIZE] (perf's record modes; lbr needs a PMU we do not have) */
static int opt_call_graph(const struct cli_option *o, const char *arg, bool unset)
{
	(void)o;
	opts.callgraph = !unset;
	if (unset)
		return 0;
	if (!strcmp(arg, "fp")) {
		opts.dwarf = false;
		return 0;
	}
	if (!strncmp(arg, "dwarf", 5) && (!arg[5] || arg[5] == ',')) {
		char *end;
		unsigned long v = arg[5] ? strtoul(arg + 6, &end, 0) : TOP_DEFAULT_STACK;

		if (arg[5] && (*end || !v || v > 65528)) {
			cli_error("invalid --call-graph dwarf size '%s': 8 to 65528 bytes",
				  arg + 6);
			return -1;
		}
		opts.dwarf = true;
		opts.stack_size = (uint32_t)((v + 7) & ~7UL);
		return 0;
	}
	cli_error("invalid --call-graph mode '%s': use fp or dwarf[,SIZE]", arg);
	return -1;
}

/* -s's help: the view's list of keys, with perf top's default (dso,sym) for report's */
static const char *sort_help(void)
{
	static char buf[2048];
	const char *h = rv_sort_help(), *d = strstr(h, "(default: comm,dso,sym)");

	if (!d)
		return h;
	snprintf(buf, sizeof(buf), "%.*s(default: dso,sym, as perf top)%s", (int)(d - h), h,
		 d + strlen("(default: comm,dso,sym)"));
	return buf;
}

double top_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int top_push(void *arg, const struct perf_event_header *h)
{
	struct top_session *s = arg;
	uint16_t mode = h->misc & PERF_RECORD_MISC_CPUMODE_MASK;

	if (s->push_err)
		return 0;
	if (h->type == PERF_RECORD_SAMPLE) {
		bool user = mode == PERF_RECORD_MISC_USER;

		s->st.samples++;
		s->window++;
		s->st.kernel_samples += !user;
		s->st.exact += !!(h->misc & PERF_RECORD_MISC_EXACT_IP);
		/* perf top drops them before they are counted (its -K, -U) */
		if ((user && s->o->hide_user) || (!user && s->o->hide_kernel)) {
			s->st.hidden++;
			return 0;
		}
	}
	s->push_err = xpp_profile_push(s->p, h, &s->err);
	return 0;
}

static void config_events(struct top_session *s)
{
	size_t n = xpe_evlist_count(s->evl);
	uint64_t st = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_PERIOD;
	size_t ring = (size_t)opts.mmap_pages * (size_t)sysconf(_SC_PAGESIZE);

	if (s->tg.per_cpu)
		st |= PERF_SAMPLE_CPU;
	if (n > 1)
		st |= PERF_SAMPLE_IDENTIFIER;
	if (opts.callgraph)
		st |= PERF_SAMPLE_CALLCHAIN;
	if (opts.callgraph && opts.dwarf)
		st |= PERF_SAMPLE_REGS_USER | PERF_SAMPLE_STACK_USER;
	for (size_t i = 0; i < n; i++) {
		struct xpe_event *ev = xpe_evlist_event(s->evl, i);
		struct perf_event_attr *a = &ev->attr;

		a->size = sizeof(*a);
		a->sample_type = st;
		a->read_format = PERF_FORMAT_ID;
		if (!ev->period_set) {
			if (opts.period) {
				a->freq = 0;
				a->sample_period = opts.period;
			} else {
				a->freq = 1;
				a->sample_freq = opts.freq;
			}
		}
		a->sample_id_all = 1;
		a->disabled = 1;
		a->inherit = 1;
		/* woken at a quarter full; the refresh drains anyway */
		a->watermark = 1;
		a->wakeup_watermark = (uint32_t)(ring / 4 > 0 ? ring / 4 : 1);
		if (opts.callgraph && opts.dwarf) {
			a->sample_regs_user = TOP_X86_64_REGS_MASK;
			a->sample_stack_user = opts.stack_size;
			a->exclude_callchain_user = 1;
		}
		if (i == 0) {
			a->mmap = 1;
			a->mmap2 = 1;
			a->comm = 1;
			a->comm_exec = 1;
			a->task = 1;
			a->mmap_data = opts.callgraph && opts.dwarf;
		}
	}
}

/* One line for a failed open: the permission case names perf_event_paranoid and the fix. */
static void open_failed(const struct xb_error *err)
{
	if (err->code == -EACCES || err->code == -EPERM) {
		cli_error("no permission to sample %s (kernel.perf_event_paranoid is %d): run as "
			  "root, or allow it with 'sysctl -w kernel.perf_event_paranoid=%d'",
			  opts.pids || opts.tids || opts.user ? "these tasks" :
			  "the whole system (cpu-wide events)",
			  xpe_perf_event_paranoid(), opts.pids || opts.tids || opts.user ? 1 : -1);
		return;
	}
	const char *nl = strchr(err->msg, '\n');

	cli_error("%.*s", nl ? (int)(nl - err->msg) : (int)strlen(err->msg), err->msg);
}

static int add_attrs(struct top_session *s)
{
	for (size_t i = 0; i < xpe_evlist_count(s->evl); i++) {
		const struct xpe_event *ev = xpe_evlist_event(s->evl, i);
		uint64_t *ids = calloc((size_t)ev->nr_fd + 1, sizeof(*ids));
		uint32_t nr = 0;
		int ret;

		if (!ids)
			return xb_error_set(&s->err, -ENOMEM, "out of memory");
		for (int j = 0; j < ev->nr_fd; j++)
			if (ev->fd[j] >= 0 && ev->id[j])
				ids[nr++] = ev->id[j];
		ret = xpf_reader_live_add_attr(s->live, &ev->attr, ids, nr, ev->name, &s->err);
		free(ids);
		if (ret < 0)
			return ret;
	}
	return 0;
}

static int synthesize(struct top_session *s)
{
	struct xpe_synth syn = {
		.sample_type = xpe_evlist_event(s->evl, 0)->attr.sample_type,
		.sample_id_all = true,
		.data_mmaps = opts.callgraph && opts.dwarf,
		.emit = top_push,
		.emit_ctx = s,
	};
	int ret = xpe_synth_kernel(&syn, &s->err);

	if (ret < 0)
		return ret;
	if (s->tg.per_cpu)
		ret = xpe_synth_all(&syn, &s->err);
	for (int i = 0; ret >= 0 && i < s->tg.nr_pids; i++)
		ret = s->tg.tids_only ? xpe_synth_thread(&syn, s->tg.pids[i], &s->err)
				      : xpe_synth_process(&syn, s->tg.pids[i], &s->err);
	if (ret >= 0 && s->push_err)
		ret = s->push_err;
	return ret;
}

/* Open the events on the target, map the rings, make the profile the records go to. */
static int start(struct top_session *s)
{
	struct xpe_target_opts to = {
		.pids = opts.pids, .tids = opts.tids, .user = opts.user,
		.cpu_list = opts.cpu_list,
		/* the whole system unless told otherwise; -a with -p is perf's usage error */
		.system_wide = opts.system_wide ||
			       (!opts.pids && !opts.tids && !opts.user && !opts.cpu_list),
		.task_on_every_cpu = true,
	};
	struct xpp_opts po = { 0 };
	int ret, failed = -1;

	ret = xpe_target_check(&to, &s->err);
	if (ret < 0) {
		cli_error("%s", s->err.msg);
		return CLI_EXIT_USAGE;
	}
	ret = xpe_target_prepare(&s->tg, &to, s->ctx, &s->err);
	if (ret < 0) {
		cli_error("%s", s->err.msg);
		return CLI_EXIT_RUNTIME;
	}
	config_events(s);
	ret = xpe_evlist_open(s->evl, s->ctx, &s->tg.cpus, &s->tg.threads, XPE_OPEN_FALLBACK,
			      &failed, &s->err);
	if (ret < 0) {
		open_failed(&s->err);
		return CLI_EXIT_RUNTIME;
	}
	s->rings = calloc((size_t)s->tg.cpus.nr, sizeof(*s->rings));
	if (!s->rings) {
		cli_error("out of memory");
		return CLI_EXIT_RUNTIME;
	}
	s->nr_rings = s->tg.cpus.nr;
	ret = xpe_rings_map(s->evl, &s->tg.cpus, s->tg.threads.nr, (size_t)opts.mmap_pages, s->rings,
			    &s->err);
	if (ret == 0)
		ret = xpf_reader_open_live(&s->live, "xperf top", &s->err);
	if (ret == 0)
		ret = add_attrs(s);
	if (ret < 0) {
		open_failed(&s->err);
		return CLI_EXIT_RUNTIME;
	}
	if (rv_ctx_parse(&s->rc, &opts.view, &po) < 0)
		return CLI_EXIT_USAGE;
	/* the TUI's a key annotates from the samples' addresses */
	po.keep_addrs = s->tui;
	po.hide_symbols = TOP_IDLE_SYMBOLS;
	ret = xpp_profile_create(&s->p, s->live, &po, &s->err);
	if (ret == 0)
		ret = synthesize(s);
	if (ret < 0) {
		cli_error("%s", s->err.msg);
		return CLI_EXIT_RUNTIME;
	}
	/* the synthesized records are no samples of the first interval */
	s->st = (struct top_stats){ 0 };
	return xpe_evlist_ioctl(s->evl, PERF_EVENT_IOC_ENABLE) < 0 ? CLI_EXIT_RUNTIME : 0;
}

/* The entries the profile holds, shown or not (-v) */
static size_t top_nr_entries(const struct top_session *s)
{
	uint32_t nr;
	const struct xpp_event *ev = xpp_profile_events(s->p, &nr);
	size_t total = 0;

	for (uint32_t i = 0; i < nr; i++)
		if (ev[i].h)
			total += xpp_hist_nr(ev[i].h);
	return total;
}

/* Poll the rings, drain them into the profile, print a table each -d seconds. */
static int run(struct top_session *s)
{
	struct pollfd *pfd = calloc((size_t)s->nr_rings + 1, sizeof(*pfd));
	double last = top_now(), next = last + opts.delay;
	int tables = 0;
	int nr = 0;
	bool tty = isatty(STDOUT_FILENO);

	if (!pfd)
		return CLI_EXIT_RUNTIME;
	for (int i = 0; i < s->nr_rings; i++) {
		if (!s->rings[i])
			continue;
		pfd[nr].fd = xpe_ring_fd(s->rings[i]);
		pfd[nr].events = POLLIN;
		nr++;
	}
	while (!done) {
		double now = top_now();
		int wait = next > now ? (int)ceil((next - now) * 1000) : 0;
		int ret = poll(pfd, (nfds_t)nr, wait > 100 ? 100 : wait);

		if (ret < 0 && errno != EINTR)
			break;
		for (int i = 0; ret > 0 && i < nr; i++)
			if (pfd[i].revents & (POLLHUP | POLLERR))
				pfd[i].fd = -pfd[i].fd - 1;
		xpe_rings_drain(s->rings, s->nr_rings, top_push, s, NULL);
		if (!s->push_err)
			s->push_err = xpp_profile_round(s->p, &s->err);
		if (s->push_err)
			break;
		now = top_now();
		if (now < next)
			continue;
		s->push_err = xpp_profile_settle(s->p, &s->err);
		if (s->push_err)
			break;
		if (tty) {
			struct winsize ws;

			s->rows = ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 ? ws.ws_row : 0;
			fputs("\033[H\033[2J", stdout);
		}
		top_print(s, now - last, stdout);
		/* perf top's aging: what the next table shows is new samples plus 7/8 of these */
		xpp_profile_decay(s->p, opts.zero ? 0 : TOP_DECAY_NUM, TOP_DECAY_DEN);
		if (opts.verbose)
			fprintf(stderr, "xperf top: refresh %d: %" PRIu64 " samples in the window, "
				"%zu entries, %.1f ms to settle, print and age them\n", tables + 1,
				s->window, top_nr_entries(s), (top_now() - now) * 1000);
		s->window = s->window * (opts.zero ? 0 : TOP_DECAY_NUM) / TOP_DECAY_DEN;
		s->st.samples = s->st.kernel_samples = s->st.hidden = s->st.exact = 0;
		last = now;
		next = now + opts.delay;
		if (opts.refreshes && ++tables >= opts.refreshes)
			break;
	}
	free(pfd);
	xpe_evlist_ioctl(s->evl, PERF_EVENT_IOC_DISABLE);
	if (s->push_err) {
		cli_error("%s", s->err.msg);
		return CLI_EXIT_RUNTIME;
	}
	return CLI_EXIT_OK;
}

static void stop(struct top_session *s)
{
	for (int i = 0; s->rings && i < s->nr_rings; i++)
		xpe_ring_unmap(s->rings[i]);
	free(s->rings);
	xpp_profile_free(s->p);
	xpf_reader_close(s->live);
	xpe_evlist_free(s->evl);
	xpe_target_release(&s->tg);
	xpe_ctx_free(s->ctx);
}

int main(int argc, const char **argv)
{
	static char outbuf[1 << 16];
	struct cli_option table[] = {
		OPT_GROUP("What to sample"),
		OPT_CALLBACK('e', "event", NULL, "EVENT",
			     "event to sample (repeatable; default: cycles, or cpu-clock without a "
			     "PMU, as perf top)", opt_event),
		OPT_BOOL('a', "all-cpus", &opts.system_wide,
			 "the whole system, every cpu (the default without -p, -t, -u or -C)"),
		OPT_STRING('p', "pid", &opts.pids, "PID[,PID...]",
			   "only these processes, with their threads"),
		OPT_STRING('t', "tid", &opts.tids, "TID[,TID...]", "only these threads"),
		OPT_STRING('u', "uid", &opts.user, "USER", "only the processes of this user"),
		OPT_STRING('C', "cpu", &opts.cpu_list, "CPUS",
			   "only these cpus: numbers and ranges, as 0-2,4"),
		OPT_U64('F', "freq", &opts.freq, "HZ", "samples a second (default 4000)"),
		OPT_U64('c', "count", &opts.period, "N", "a sample every N events instead of -F"),
		OPT_BOOL('g', NULL, &opts.callgraph, "call graphs (frame pointers)"),
		OPT_CALLBACK(0, "call-graph", NULL, "fp|dwarf[,SIZE]",
			     "call graphs by frame pointers or DWARF (a stack copy of SIZE "
			     "bytes, default 8192); implies -g", opt_call_graph),
		OPT_CALLBACK_NOARG(0, "children", &opts.view.children,
				   "with call graphs, each entry's time with its callees "
				   "(the default with -g; --no-children: its own only)",
				   view_opt_tristate),
		OPT_INT('m', "mmap-pages", &opts.mmap_pages, "PAGES",
			"data pages of each cpu's ring (default 128)"),
		OPT_GROUP("Display"),
		OPT_DOUBLE('d', "delay", &opts.delay, "SECS",
			   "seconds between refreshes (default 2)"),
		OPT_BOOL('z', "zero", &opts.zero,
			 "zero the counts at each refresh (default: 7/8 of them are kept, as "
			 "perf top's)"),
		OPT_BOOL('K', "hide_kernel_symbols", &opts.hide_kernel, "leave kernel samples out"),
		OPT_BOOL('U', "hide_user_symbols", &opts.hide_user, "leave user samples out"),
		OPT_STRING('s', "sort", &opts.view.sort, "KEYS", sort_help()),
		OPT_BOOL('n', "show-nr-samples", &opts.view.show_nr_samples,
			 "a column with the number of samples"),
		OPT_INT('E', "entries", &opts.entries, "N", "show this many entries"),
		OPT_STRING('w', "column-widths", &opts.widths, "W[,W...]",
			   "each column this wide, in order (0: as wide as its values)"),
		OPT_DOUBLE(0, "percent-limit", &opts.view.percent_limit, "PERCENT",
			   "hide entries under PERCENT of their event's samples"),
		OPT_STRING(0, "comms", &opts.view.comms, "COMM[,COMM...]",
			   "only samples of these commands"),
		VIEW_OPT_DSOS(&opts.view, 0),
		VIEW_OPT_SYMBOLS(&opts.view),
		OPT_BOOL(0, "stdio", &opts.stdio,
			 "print the table on stdout every refresh instead of the TUI (the "
			 "default when stdout is no terminal)"),
		OPT_INT(0, "refreshes", &opts.refreshes, "N",
			"exit after N refreshes (xperf's own: perf top runs until stopped)"),
		VIEW_OPTS_LOOKUP(&opts.view),
		OPT_GROUP("Messages"),
		OPT_INCR('v', "verbose", &opts.verbose,
			 "after each table, on stderr: the samples in its window and the time the "
			 "refresh took"),
		OPT_END(),
	};
	struct top_session s = { 0 };
	struct xb_error err = { 0 };
	int ret;

	view_opts_init(&opts.view);
	opts.freq = TOP_DEFAULT_FREQ;
	opts.delay = TOP_DEFAULT_DELAY;
	opts.mmap_pages = TOP_DEFAULT_PAGES;
	opts.view.sort = NULL;
	cli_set_command("xperf top");
	argc = cli_parse(argc, argv, table, usage, 0);
	if (argc < 0)
		return argc == CLI_HELP ? CLI_EXIT_OK : CLI_EXIT_USAGE;
	if (argc > 0) {
		cli_error("unexpected argument '%s'", argv[0]);
		cli_usage(table, usage, true);
		return CLI_EXIT_USAGE;
	}
	if (opts.delay <= 0 || opts.refreshes < 0 || opts.entries < 0 || opts.freq == 0 ||
	    opts.mmap_pages <= 0) {
		cli_error("%s must be positive",
			  opts.delay <= 0 ? "-d/--delay" : opts.refreshes < 0 ? "--refreshes" :
			  opts.entries < 0 ? "-E/--entries" : opts.freq == 0 ? "-F/--freq" :
			  "-m/--mmap-pages");
		return CLI_EXIT_USAGE;
	}
	if (opts.hide_kernel && opts.hide_user) {
		cli_error("options '-K' and '-U' exclude each other: nothing would be left");
		return CLI_EXIT_USAGE;
	}
	if (!opts.view.sort)
		opts.view.sort = "dso,sym"; /* perf top's default keys */
	if (view_opts_check(&opts.view, &err) < 0) {
		cli_error("%s", err.msg);
		return CLI_EXIT_USAGE;
	}
	view_opts_dirs(&opts.view);
	setvbuf(stdout, outbuf, _IOFBF, sizeof(outbuf));
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	signal(SIGPIPE, SIG_IGN);

	s.o = &opts;
	s.ctx = xpe_ctx_create(NULL, NULL);
	s.evl = xpe_evlist_create();
	if (!s.ctx || !s.evl) {
		cli_error("out of memory");
		stop(&s);
		return CLI_EXIT_RUNTIME;
	}
	for (int i = 0; i < (opts.nr_events ? opts.nr_events : 1); i++) {
		const char *ev = opts.nr_events ? opts.events[i] : "cycles";

		if (xpe_evlist_parse(s.evl, s.ctx, ev, &err) < 0) {
			cli_error("%s", err.msg);
			stop(&s);
			return CLI_EXIT_USAGE;
		}
	}
	/* a terminal gets the TUI, unless --stdio (or a build without it: then the tables) */
	s.tui = !opts.stdio && isatty(STDOUT_FILENO);
	ret = start(&s);
	if (ret == 0 && s.tui) {
		ret = top_tui(&s);
		if (ret == -EOPNOTSUPP || ret == -ENOTTY)
			ret = run(&s);
		else
			xpe_evlist_ioctl(s.evl, PERF_EVENT_IOC_DISABLE);
	} else if (ret == 0) {
		ret = run(&s);
	}
	fflush(stdout);
	stop(&s);
	free(opts.events);
	return ret;
}
