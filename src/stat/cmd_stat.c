/* xperf-stat: count events for a command, processes, threads or cpus, printed as perf stat does. */
#include <errno.h>
#include <inttypes.h>
#include <locale.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cli/cli.h"
#include "events/xpe_workload.h"
#include "stat/print.h"
#include "stat/session.h"

#define MAX_EVENT_ARGS 256

static const char *const stat_usage[] = {
	"xperf stat [<options>] [--] [<command> [<args>]]",
	NULL,
};

struct stat_opts {
	const char *events[MAX_EVENT_ARGS];
	int nr_events;
	const char *pid, *tid, *cpu_list;
	bool system_wide, no_aggr, per_thread;
	int repeat;
	bool table, null_run;
	int interval_ms, interval_count, timeout_ms, delay_ms;
	const char *csv_sep;
	bool json;
	const char *output;
	bool append;
	bool big_num, scale, no_inherit, quiet;
	int verbose;
	const char *pre, *post;
};

static struct stat_opts opts = {
	.repeat = 1,
	.big_num = true,
	.scale = true,
};

/* Set from signal handlers: the run should end (SIGINT/SIGTERM, --timeout) */
static volatile sig_atomic_t done, timed_out, child_exited;

static void on_signal(int sig)
{
	if (sig == SIGALRM)
		timed_out = 1;
	done = 1;
}

/* Caught, not ignored: SIGCHLD must interrupt the wait loop's ppoll() */
static void on_sigchld(int sig)
{
	(void)sig;
	child_exited = 1;
}

static int opt_event(const struct cli_option *opt, const char *arg, bool unset)
{
	(void)opt;
	if (unset || !arg)
		return 0;
	if (opts.nr_events >= MAX_EVENT_ARGS) {
		cli_error("too many -e options");
		return -1;
	}
	opts.events[opts.nr_events++] = arg;
	return 0;
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + ts.tv_nsec;
}

static void sleep_ms(int ms)
{
	struct timespec ts = { ms / 1000, (long)(ms % 1000) * 1000000L };

	while (nanosleep(&ts, &ts) < 0 && errno == EINTR && !done)
		;
}

/* perf's default events; stalled-cycles only where the cpu PMU names them. */
static int add_default_events(xpe_evlist *evl, bool cpu_wide)
{
	static const struct {
		uint32_t type;
		uint64_t config;
		const char *name;
	} defs[] = {
		{ PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK, "task-clock" },
		{ PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CONTEXT_SWITCHES, "context-switches" },
		{ PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_MIGRATIONS, "cpu-migrations" },
		{ PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS, "page-faults" },
		{ PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES, "cycles" },
		{ PERF_TYPE_HARDWARE, PERF_COUNT_HW_STALLED_CYCLES_FRONTEND, "stalled-cycles-frontend" },
		{ PERF_TYPE_HARDWARE, PERF_COUNT_HW_STALLED_CYCLES_BACKEND, "stalled-cycles-backend" },
		{ PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS, "instructions" },
		{ PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_INSTRUCTIONS, "branches" },
		{ PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_MISSES, "branch-misses" },
	};
	size_t i;

	for (i = 0; i < sizeof(defs) / sizeof(defs[0]); i++) {
		struct perf_event_attr attr = { .size = sizeof(attr), .type = defs[i].type,
						.config = defs[i].config };
		const char *name = defs[i].name;
		struct stat st;

		if (defs[i].type == PERF_TYPE_HARDWARE &&
		    (defs[i].config == PERF_COUNT_HW_STALLED_CYCLES_FRONTEND ||
		     defs[i].config == PERF_COUNT_HW_STALLED_CYCLES_BACKEND)) {
			char path[128];

			snprintf(path, sizeof(path), "/sys/bus/event_source/devices/cpu/events/%s", name);
			if (stat(path, &st) < 0)
				continue;
		}
		/* system-wide, perf counts cpu time rather than task time */
		if (cpu_wide && defs[i].config == PERF_COUNT_SW_TASK_CLOCK &&
		    defs[i].type == PERF_TYPE_SOFTWARE) {
			attr.config = PERF_COUNT_SW_CPU_CLOCK;
			name = "cpu-clock";
		}
		if (!xpe_evlist_add_attr(evl, &attr, name))
			return -ENOMEM;
	}
	return 0;
}

/* "'true'", "process id '42'", ... as perf's header names the target */
static void describe_target(char *buf, size_t len, int argc, const char **argv)
{
	size_t o;
	int i;

	if (opts.system_wide) {
		snprintf(buf, len, "'system wide'");
	} else if (opts.cpu_list) {
		snprintf(buf, len, "'CPU(s) %s'", opts.cpu_list);
	} else if (opts.pid) {
		snprintf(buf, len, "process id '%s'", opts.pid);
	} else if (opts.tid) {
		snprintf(buf, len, "thread id '%s'", opts.tid);
	} else {
		o = snprintf(buf, len, "'");
		for (i = 0; i < argc && o < len; i++)
			o += snprintf(buf + o, len - o, "%s%s", i ? " " : "", argv[i]);
		if (o < len)
			snprintf(buf + o, len - o, "'");
	}
}

static struct xpe_target_opts target_opts(void)
{
	return (struct xpe_target_opts){ .pids = opts.pid, .tids = opts.tid,
					 .cpu_list = opts.cpu_list,
					 .system_wide = opts.system_wide };
}

/* Everything one run needs */
struct run_ctx {
	struct stat_session *s;
	struct stat_out *out;
	int argc;
	const char **argv;
	bool forks;
	struct stat_acc wall;       /* seconds, over runs */
	double *walls;
	struct rusage ru;
	int exit_code;
	bool killed;
	bool stopped;               /* we sent the command SIGTERM */
	bool counted_out;           /* --interval-count intervals were printed */
	int nr_intervals;           /* printed so far (header every 25) */
};

static int setup_target(struct run_ctx *rc, pid_t child, struct xb_error *err)
{
	struct xpe_target_opts to = target_opts();
	struct stat_session *s = rc->s;
	int ret;

	xpe_target_release(&s->target);
	ret = xpe_target_prepare(&s->target, &to, s->ctx, err);
	if (!ret && !s->target.per_cpu && !s->target.nr_pids)
		ret = xpe_target_add_task(&s->target, child);
	return ret;
}

static void print_interval(struct run_ctx *rc, uint64_t ts_ns)
{
	struct stat_period p = { .interval = true, .ts_ns = ts_ns,
				 .walltime_ns = (double)opts.interval_ms * 1e6, .run_count = 1 };

	stat_session_read(rc->s);
	stat_session_accumulate(rc->s, true);
	if (opts.quiet)
		return;
	if (rc->nr_intervals++ % 25 == 0)
		stat_print_interval_header(rc->s, rc->out);
	stat_print_period(rc->s, rc->out, &p);
	fflush(rc->out->fh);
}

/*
 * The interval that ends the run, as perf prints it: none after --interval-count's N, and
 * none when the last tick already read the counts after the command's end (the command
 * ended between our check and that tick's read); perf never prints such an empty interval.
 */
static void print_last_interval(struct run_ctx *rc, uint64_t ts_ns)
{
	if (rc->counted_out)
		return;
	if (rc->forks && rc->nr_intervals > 0 && stat_session_idle(rc->s))
		return;
	print_interval(rc, ts_ns);
}

/*
 * Sleep until a signal handler ran or ns passed. The loop's signals are blocked while it
 * checks its flags and unblocked only inside ppoll(), atomically: a SIGCHLD that lands
 * between the child check and the sleep is not lost (the sleep would then run to the next
 * tick, and that tick, not the exit, would end the last interval).
 */
static void wait_signal(uint64_t ns, const sigset_t *unblocked)
{
	struct timespec ts = { (time_t)(ns / 1000000000ull), (long)(ns % 1000000000ull) };

	ppoll(NULL, 0, &ts, unblocked);
}

/*
 * Wait for the end of the run, printing intervals on the way. As perf, an interval ends at
 * each tick and the last one where the command ended (the caller prints it).
 */
static void wait_run(struct run_ctx *rc, struct xpe_workload *w, uint64_t t0, int *status)
{
	uint64_t next = t0 + (uint64_t)opts.interval_ms * 1000000ull;
	int printed = 0;
	sigset_t block, unblocked;

	sigemptyset(&block);
	sigaddset(&block, SIGCHLD);
	sigaddset(&block, SIGINT);
	sigaddset(&block, SIGTERM);
	sigaddset(&block, SIGALRM);
	sigprocmask(SIG_BLOCK, &block, &unblocked);
	for (;;) {
		uint64_t now;

		if (w->pid > 0) {
			pid_t r = wait4(w->pid, status, WNOHANG, &rc->ru);

			if (r == w->pid || (r < 0 && errno == ECHILD)) {
				if (r < 0)
					*status = -1;
				w->pid = -1;
				break;
			}
			if (timed_out) {
				/* --timeout ends the command as perf does */
				kill(w->pid, SIGTERM);
				rc->stopped = true;
				timed_out = 0;
			}
		} else if (done || ((opts.pid || opts.tid) && !xpe_target_alive(&rc->s->target))) {
			break;
		}
		if (!opts.interval_ms) {
			/* a command ends with SIGCHLD; -p/-t targets are polled, as perf does */
			wait_signal(w->pid > 0 || !(opts.pid || opts.tid) ? 1000000000ull : 200000000ull,
				    &unblocked);
			continue;
		}
		now = now_ns();
		if (now < next) {
			wait_signal(next - now, &unblocked);
			continue;
		}
		print_interval(rc, now - t0);
		next += (uint64_t)opts.interval_ms * 1000000ull;
		if (opts.interval_count && ++printed >= opts.interval_count) {
			/* perf prints exactly N intervals, then ends the command */
			if (w->pid > 0)
				kill(w->pid, SIGTERM);
			rc->stopped = true;
			rc->counted_out = true;
			done = 1;
		}
	}
	sigprocmask(SIG_SETMASK, &unblocked, NULL);
}

static void print_verbose(struct run_ctx *rc)
{
	int i, b;

	for (i = 0; i < rc->s->nr_ev; i++) {
		struct stat_evsel *e = &rc->s->evs[i];
		struct stat_counts sum = { 0, 0, 0 };

		/* perf -v says so for a counter that never opened, rather than "0 0 0" */
		if (e->ev->unsupported) {
			fprintf(rc->out->fh, "failed to read counter %s\n", e->name);
			continue;
		}
		for (b = 0; b < rc->s->nr_bucket; b++) {
			sum.val += e->bucket[b].val;
			sum.ena += e->bucket[b].ena;
			sum.run += e->bucket[b].run;
		}
		fprintf(rc->out->fh, "%s: %" PRIu64 " %" PRIu64 " %" PRIu64 "\n", e->name, sum.val,
			sum.ena, sum.run);
	}
}

static void report_open_error(struct xb_error *err, int ret)
{
	cli_error("%s", err->msg[0] ? err->msg : strerror(-ret));
}

/* One run of the measurement: 0, or an exit status to stop with. */
static int run_once(struct run_ctx *rc, int run_idx)
{
	struct stat_session *s = rc->s;
	struct xpe_workload w = XPE_WORKLOAD_INIT;
	struct xb_error err = { 0 };
	int ret, failed = -1, status = 0;
	uint64_t t0, t1;
	bool enable_on_exec, delay_after_start;

	if (opts.pre && system(opts.pre) != 0)
		cli_warning("--pre command '%s' failed", opts.pre);
	if (rc->forks) {
		ret = xpe_workload_prepare(&w, (char *const *)rc->argv, NULL);
		if (ret) {
			cli_error("cannot fork '%s': %s", rc->argv[0], strerror(-ret));
			return CLI_EXIT_RUNTIME;
		}
	}
	ret = setup_target(rc, w.pid, &err);
	if (ret) {
		xpe_workload_abort(&w);
		cli_error("%s", err.msg[0] ? err.msg : strerror(-ret));
		return ret == -EINVAL ? CLI_EXIT_USAGE : CLI_EXIT_RUNTIME;
	}
	/* A forked command counts from its exec on; everything else from our ioctl */
	enable_on_exec = rc->forks && !opts.system_wide && !opts.cpu_list && !opts.pid &&
			 !opts.tid && !opts.delay_ms;
	if (!opts.null_run) {
		ret = stat_session_open(s, enable_on_exec, &failed, &err);
		if (ret) {
			xpe_workload_abort(&w);
			report_open_error(&err, ret);
			return CLI_EXIT_RUNTIME;
		}
		if (s->aggr == STAT_AGGR_THREAD && !rc->forks)
			stat_session_read_comms(s);
	}
	if (opts.timeout_ms && run_idx == 0) {
		struct itimerval it = { { 0, 0 }, { opts.timeout_ms / 1000,
						    (opts.timeout_ms % 1000) * 1000 } };

		setitimer(ITIMER_REAL, &it, NULL);
	}
	/* -D counts from DELAY ms after the command started (perf), so it runs meanwhile */
	delay_after_start = rc->forks && opts.delay_ms && !opts.null_run;
	if (!enable_on_exec && !opts.null_run && !delay_after_start) {
		if (opts.delay_ms)
			sleep_ms(opts.delay_ms);
		xpe_evlist_ioctl(s->evl, PERF_EVENT_IOC_ENABLE);
	}
	/*
	 * Time (elapsed, -I ticks) starts once counting is on and the command is let go, where
	 * perf takes its reference. Ticking starts only after the exec is confirmed, so a slow
	 * exec (load, a sanitizer build) makes the first interval end late, never empty.
	 */
	t0 = now_ns();
	if (rc->forks) {
		ret = xpe_workload_go(&w, NULL);
		if (ret)
			xpe_workload_abort(&w);
		else
			ret = xpe_workload_exec_wait(&w, NULL);
		if (ret) {
			stat_session_close(s);
			cli_error("cannot run '%s': %s", rc->argv[0], strerror(-ret));
			return ret == -ENOENT ? 127 : 126;
		}
		if (s->aggr == STAT_AGGR_THREAD && !opts.null_run)
			stat_session_read_comms(s);
	}
	if (delay_after_start) {
		sleep_ms(opts.delay_ms);
		xpe_evlist_ioctl(s->evl, PERF_EVENT_IOC_ENABLE);
		t0 = now_ns(); /* perf's elapsed time starts with the counting */
	}
	wait_run(rc, &w, t0, &status);
	t1 = now_ns();
	if (!opts.null_run) {
		xpe_evlist_ioctl(s->evl, PERF_EVENT_IOC_DISABLE);
		if (opts.interval_ms)
			print_last_interval(rc, t1 - t0);
		else
			stat_session_read(s);
		stat_session_close(s);
	}
	stat_acc_add(&rc->wall, (double)(t1 - t0) / 1e9);
	if (rc->walls)
		rc->walls[run_idx] = (double)(t1 - t0) / 1e9;
	if (!opts.interval_ms && !opts.null_run) {
		stat_session_accumulate(s, run_idx == 0);
		if (opts.verbose && !opts.quiet)
			print_verbose(rc);
	}
	/* A command we ended ourselves (--timeout, --interval-count) is no failure */
	if (rc->forks && status >= 0 && !rc->stopped) {
		rc->exit_code = xpe_workload_exit_code(status);
		if (WIFSIGNALED(status) && !opts.quiet) {
			int sig = WTERMSIG(status);

			cli_warning("'%s' was killed by signal %d (%s)", rc->argv[0], sig,
				    strsignal(sig));
			rc->killed = true;
		}
	}
	if (opts.post && system(opts.post) != 0)
		cli_warning("--post command '%s' failed", opts.post);
	return 0;
}

static int check_options(int argc)
{
	if (opts.repeat < 1) {
		cli_error("invalid -r/--repeat '%d': must be at least 1", opts.repeat);
		return -1;
	}
	if (opts.interval_ms < 0 || (opts.interval_ms && opts.interval_ms < 10)) {
		cli_error("invalid -I/--interval-print '%d': must be at least 10 ms", opts.interval_ms);
		return -1;
	}
	if (opts.timeout_ms < 0 || (opts.timeout_ms && opts.timeout_ms < 10)) {
		cli_error("invalid --timeout '%d': must be at least 10 ms", opts.timeout_ms);
		return -1;
	}
	if (opts.interval_count && !opts.interval_ms) {
		cli_error("--interval-count needs -I/--interval-print");
		return -1;
	}
	if (opts.csv_sep && opts.json) {
		cli_error("-x and -j/--json cannot be used together");
		return -1;
	}
	if (opts.append && !opts.output) {
		cli_error("--append needs -o/--output");
		return -1;
	}
	{
		struct xpe_target_opts to = target_opts();
		struct xb_error err;

		if (xpe_target_check(&to, &err) < 0) {
			cli_error("%s", err.msg);
			return -1;
		}
	}
	if (opts.per_thread && (opts.system_wide || opts.cpu_list)) {
		cli_error("--per-thread with -a/-C is not supported");
		return -1;
	}
	if (opts.no_aggr && !(opts.system_wide || opts.cpu_list)) {
		cli_error("-A/--no-aggr needs -a or -C");
		return -1;
	}
	if (!argc && !opts.pid && !opts.tid && !opts.system_wide && !opts.cpu_list) {
		cli_error("no command given and no target (-p, -t, -a, -C)");
		return -1;
	}
	if (opts.repeat > 1 && !argc) {
		cli_error("-r/--repeat needs a command");
		return -1;
	}
	return 0;
}

static void install_signals(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGALRM, &sa, NULL);
	sa.sa_handler = on_sigchld;
	sa.sa_flags = SA_NOCLDSTOP;
	sigaction(SIGCHLD, &sa, NULL);
}

static FILE *open_output(void)
{
	FILE *f;
	time_t t;

	if (!opts.output)
		return stderr;
	f = fopen(opts.output, opts.append ? "ae" : "we");
	if (!f) {
		cli_error("cannot open '%s': %s", opts.output, strerror(errno));
		return NULL;
	}
	/* perf stamps its output files so appended runs stay apart */
	t = time(NULL);
	fprintf(f, "# started on %s\n", ctime(&t));
	return f;
}

static int build_events(xpe_ctx **ctx, xpe_evlist *evl)
{
	struct xb_error err = { 0 };
	int i, ret;

	if (!opts.nr_events)
		return add_default_events(evl, opts.system_wide || opts.cpu_list) ? CLI_EXIT_RUNTIME : 0;
	*ctx = xpe_ctx_create(NULL, NULL);
	if (!*ctx) {
		cli_error("out of memory");
		return CLI_EXIT_RUNTIME;
	}
	for (i = 0; i < opts.nr_events; i++) {
		ret = xpe_evlist_parse(evl, *ctx, opts.events[i], &err);
		if (ret) {
			cli_error("%s", err.msg[0] ? err.msg : strerror(-ret));
			cli_hint("run 'xperf list' for a list of valid events");
			return CLI_EXIT_USAGE;
		}
	}
	return 0;
}

int cmd_stat(int argc, const char **argv)
{
	struct cli_option options[] = {
		OPT_GROUP("events"),
		OPT_CALLBACK('e', "event", NULL, "EVENT",
			     "event selector (perf syntax: cycles, cpu-clock:u, {a,b}, pmu/terms/, "
			     "subsys:tracepoint); may be repeated", opt_event),
		OPT_BOOL('i', "no-inherit", &opts.no_inherit, "child tasks do not inherit counters"),
		OPT_BOOL('c', "scale", &opts.scale,
			 "scale multiplexed counts by time enabled / running (default on)"),
		OPT_BOOL('n', "null", &opts.null_run, "null run: no counters, elapsed time only"),
		OPT_INT('D', "delay", &opts.delay_ms, "MS", "wait MS milliseconds before counting"),
		OPT_GROUP("target"),
		OPT_STRING('p', "pid", &opts.pid, "PID", "count existing process(es), comma-separated"),
		OPT_STRING('t', "tid", &opts.tid, "TID", "count existing thread(s), comma-separated"),
		OPT_BOOL('a', "all-cpus", &opts.system_wide, "system-wide counting on every cpu"),
		OPT_STRING('C', "cpu", &opts.cpu_list, "CPUS", "count only on the listed cpus (0-3,5)"),
		OPT_BOOL('A', "no-aggr", &opts.no_aggr, "one row per cpu (with -a or -C)"),
		OPT_BOOL(0, "per-thread", &opts.per_thread, "one row per thread (with -p, -t or a command)"),
		OPT_INT(0, "timeout", &opts.timeout_ms, "MS", "stop after MS milliseconds"),
		OPT_GROUP("repeats and intervals"),
		OPT_INT('r', "repeat", &opts.repeat, "N", "run the command N times: mean and +- noise"),
		OPT_BOOL(0, "table", &opts.table, "with -r: each run's elapsed time, min and max"),
		OPT_INT('I', "interval-print", &opts.interval_ms, "MS", "print counts every MS milliseconds"),
		OPT_INT(0, "interval-count", &opts.interval_count, "N", "with -I: stop after N intervals"),
		OPT_STRING(0, "pre", &opts.pre, "CMD", "run CMD before each run"),
		OPT_STRING(0, "post", &opts.post, "CMD", "run CMD after each run"),
		OPT_GROUP("output"),
		OPT_STRING('x', "field-separator", &opts.csv_sep, "SEP", "CSV output with SEP between fields"),
		OPT_BOOL('j', "json", &opts.json, "JSON lines output"),
		OPT_FILENAME('o', "output", &opts.output, "FILE", "write the counts to FILE, not stderr"),
		OPT_BOOL(0, "append", &opts.append, "with -o: append to FILE"),
		OPT_BOOL('B', "big-num", &opts.big_num, "group thousands (locale) in counts (default on)"),
		OPT_INCR('v', "verbose", &opts.verbose, "print raw counts (value, enabled, running)"),
		OPT_BOOL('q', "quiet", &opts.quiet, "print no counts, warnings or messages"),
		OPT_END(),
	};
	struct stat_session s;
	struct stat_out out;
	struct run_ctx rc;
	xpe_ctx *ctx = NULL;
	xpe_evlist *evl = NULL;
	enum stat_aggr aggr = STAT_AGGR_GLOBAL;
	char target[1024];
	int ret, i, run, runs;

	cli_set_command("xperf stat");
	argc = cli_parse(argc, argv, options, stat_usage, CLI_STOP_AT_NON_OPTION);
	if (argc < 0)
		return argc == CLI_HELP ? CLI_EXIT_OK : CLI_EXIT_USAGE;
	if (check_options(argc)) {
		cli_usage(options, stat_usage, true);
		return CLI_EXIT_USAGE;
	}
	if (opts.no_aggr)
		aggr = STAT_AGGR_NONE;
	else if (opts.per_thread)
		aggr = STAT_AGGR_THREAD;

	evl = xpe_evlist_create();
	if (!evl) {
		cli_error("out of memory");
		return CLI_EXIT_RUNTIME;
	}
	ret = opts.null_run ? 0 : build_events(&ctx, evl);
	if (ret)
		goto out_evl;
	if (!ctx && (opts.system_wide || opts.cpu_list))
		ctx = xpe_ctx_create(NULL, NULL);
	if (stat_session_init(&s, ctx, evl, aggr)) {
		cli_error("out of memory");
		ret = CLI_EXIT_RUNTIME;
		goto out_evl;
	}
	s.scale = opts.scale;
	s.inherit = !opts.no_inherit;

	memset(&out, 0, sizeof(out));
	setlocale(LC_NUMERIC, "");
	out.fh = open_output();
	if (!out.fh) {
		ret = CLI_EXIT_USAGE;
		goto out_session;
	}
	out.csv_sep = opts.csv_sep;
	out.json = opts.json;
	out.big_num = opts.big_num && !opts.csv_sep && !opts.json;
	out.thousands = localeconv()->thousands_sep;
	out.unit_width = 4;
	for (i = 0; i < s.nr_ev; i++)
		if ((int)strlen(s.evs[i].unit) > out.unit_width)
			out.unit_width = (int)strlen(s.evs[i].unit);

	memset(&rc, 0, sizeof(rc));
	rc.s = &s;
	rc.out = &out;
	rc.argc = argc;
	rc.argv = argv;
	rc.forks = argc > 0;
	if (opts.table && opts.repeat > 1)
		rc.walls = calloc(opts.repeat, sizeof(*rc.walls));
	install_signals();

	for (run = 0, ret = 0; run < opts.repeat && !ret; run++) {
		ret = run_once(&rc, run);
		if (done)
			break;
	}
	/* Ctrl-C during -r: report the runs that completed, as perf does */
	runs = rc.wall.n ? (int)rc.wall.n : 1;
	if (!ret && !opts.interval_ms && !opts.quiet) {
		struct stat_period p = { .walltime_ns = rc.wall.mean * 1e9, .run_count = runs };
		struct stat_footer f = {
			.run_count = runs, .null_run = opts.null_run, .wall = &rc.wall,
			.ru_display = rc.forks && runs == 1 && !opts.system_wide &&
				      !opts.cpu_list && !opts.pid && !opts.tid,
			.ru_user = rc.ru.ru_utime.tv_sec + rc.ru.ru_utime.tv_usec / 1e6,
			.ru_sys = rc.ru.ru_stime.tv_sec + rc.ru.ru_stime.tv_usec / 1e6,
			.table = opts.table && rc.walls, .walls = rc.walls, .nr_walls = (int)rc.wall.n,
		};

		describe_target(target, sizeof(target), argc, argv);
		stat_print_header(&out, target, runs);
		if (!opts.null_run)
			stat_print_period(&s, &out, &p);
		if (!opts.null_run && f.table && runs > 1)
			stat_print_ranges(&s, &out);
		stat_print_footer(&out, &f);
	}
	if (!ret)
		ret = rc.exit_code;
	free(rc.walls);
	/* a full disk shows only when the buffered counts are flushed */
	if (out.fh != stderr) {
		if ((ferror(out.fh) | fclose(out.fh)) && !ret) {
			cli_error("cannot write '%s': %s", opts.output,
				  strerror(errno ? errno : EIO));
			ret = CLI_EXIT_RUNTIME;
		}
	} else {
		fflush(stderr);
	}
out_session:
	stat_session_release(&s);
out_evl:
	xpe_evlist_free(evl);
	xpe_ctx_free(ctx);
	return ret;
}

int main(int argc, const char **argv)
{
	return cmd_stat(argc, argv);
}
