/* xperf-record: the command line, and the order of a recording from set-up to summary. */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>

#include "base/small_file.h"
#include "cli/cli.h"
#include "record/host_features.h"
#include "record/record.h"
#include "events/xpe_synth.h"
#include "record/tracing_data.h"

#define DEFAULT_OUTPUT "xperf.data"
#define DEFAULT_FREQ 4000

static struct rec_opts opts = {
	.output = DEFAULT_OUTPUT,
	.freq = DEFAULT_FREQ,
	.compress_level = 1,
};
static bool no_compress, ignored;

static volatile sig_atomic_t done_signal;
/* --switch-output: SIGUSR2 (signal mode) or SIGALRM (time mode) asks for a new file */
static volatile sig_atomic_t switch_signal;
/* first_event[k]: the evlist index of the first event of -e number k (for --filter) */
static int *first_event;

static void on_switch_signal(int sig)
{
	(void)sig;
	switch_signal = 1;
}

static void on_stop_signal(int sig)
{
	done_signal = sig;
}

static void on_child(int sig)
{
	(void)sig; /* only here so ppoll() wakes up */
}

/* ---- option callbacks ----------------------------------------------------------------- */

static int opt_event(const struct cli_option *o, const char *arg, bool unset)
{
	const char **n;

	(void)o;
	if (unset) {
		opts.nr_events = 0;
		return 0;
	}
	n = realloc(opts.events, (size_t)(opts.nr_events + 1) * sizeof(*n));
	if (!n)
		return -1;
	n[opts.nr_events++] = arg;
	opts.events = n;
	return 0;
}

long rec_read_sysctl(const char *path)
{
	char buf[32], *end;
	long v;

	if (xb_read_small(path, buf, sizeof(buf)) <= 0)
		return -1;
	v = strtol(buf, &end, 10);
	return end == buf ? -1 : v;
}

static int opt_freq(const struct cli_option *o, const char *arg, bool unset)
{
	long max = rec_read_sysctl("/proc/sys/kernel/perf_event_max_sample_rate");
	char *end;
	unsigned long long v;

	(void)o;
	if (unset) {
		opts.freq = DEFAULT_FREQ;
		opts.user_freq = false;
		return 0;
	}
	opts.user_freq = true;
	if (!strcmp(arg, "max")) {
		if (max <= 0) {
			cli_error("cannot read /proc/sys/kernel/perf_event_max_sample_rate");
			return -1;
		}
		opts.freq = (uint64_t)max;
		if (!opts.quiet)
			fprintf(stderr, "info: Using a maximum frequency rate of %ld Hz\n", max);
		return 0;
	}
	errno = 0;
	v = strtoull(arg, &end, 10);
	if (errno || end == arg || *end || v == 0 || arg[0] == '-') {
		cli_error("invalid frequency '%s' (a positive number of Hz, or 'max')", arg);
		return -1;
	}
	if (max > 0 && v > (unsigned long long)max) {
		cli_warning("maximum frequency rate (%ld Hz) exceeded, throttling from %llu Hz "
			    "to %ld Hz", max, v, max);
		cli_hint("the limit can be raised via /proc/sys/kernel/perf_event_max_sample_rate");
		v = (unsigned long long)max;
	}
	opts.freq = v;
	return 0;
}

static int opt_period(const struct cli_option *o, const char *arg, bool unset)
{
	char *end;
	unsigned long long v;

	(void)o;
	if (unset) {
		opts.period = 0;
		return 0;
	}
	errno = 0;
	v = strtoull(arg, &end, 0);
	if (errno || end == arg || *end || v == 0 || arg[0] == '-') {
		cli_error("invalid period '%s' (a positive number of events)", arg);
		return -1;
	}
	opts.period = v;
	return 0;
}

static int opt_g(const struct cli_option *o, const char *arg, bool unset)
{
	(void)o, (void)arg;
	opts.callgraph = unset ? REC_CG_NONE : REC_CG_FP;
	return 0;
}

static int opt_call_graph(const struct cli_option *o, const char *arg, bool unset)
{
	const char *comma;

	(void)o;
	if (unset) {
		opts.callgraph = REC_CG_NONE;
		return 0;
	}
	comma = strchr(arg, ',');
	if (!strcmp(arg, "fp")) {
		opts.callgraph = REC_CG_FP;
		return 0;
	}
	if (strncmp(arg, "dwarf", comma ? (size_t)(comma - arg) : strlen(arg)) ||
	    (comma ? comma - arg : (long)strlen(arg)) != 5) {
		cli_error("invalid call-graph mode '%s' (fp, dwarf[,SIZE])", arg);
		return -1;
	}
	opts.callgraph = REC_CG_DWARF;
	opts.stack_size = REC_DEFAULT_STACK_SIZE;
	if (comma) {
		char *end;
		unsigned long long v;

		errno = 0;
		v = strtoull(comma + 1, &end, 0);
		if (errno || end == comma + 1 || *end || v == 0 || comma[1] == '-' ||
		    v > REC_MAX_STACK_SIZE) {
			cli_error("invalid dwarf stack dump size '%s' (1..%d bytes)", comma + 1,
				  REC_MAX_STACK_SIZE);
			return -1;
		}
		/* The kernel wants a multiple of 8, as perf rounds it. */
		opts.stack_size = (uint32_t)((v + 7) & ~7ULL);
		if (opts.stack_size > REC_MAX_STACK_SIZE)
			opts.stack_size = REC_MAX_STACK_SIZE;
	}
	return 0;
}

/* -m: pages (rounded up to a power of two) or a size with B/K/M/G. */
static int opt_mmap(const struct cli_option *o, const char *arg, bool unset)
{
	long page = sysconf(_SC_PAGESIZE);
	unsigned long long v, pages = 1;
	char *end;

	(void)o;
	if (unset) {
		opts.mmap_pages = 0;
		return 0;
	}
	errno = 0;
	v = strtoull(arg, &end, 0);
	if (!errno && end != arg && arg[0] != '-' && *end && !end[1]) {
		unsigned long long mul = 0;

		switch (*end) {
		case 'B': case 'b': mul = 1; break;
		case 'K': case 'k': mul = 1024; break;
		case 'M': case 'm': mul = 1024 * 1024; break;
		case 'G': case 'g': mul = 1024 * 1024 * 1024; break;
		}
		if (mul && v <= (1ULL << 40) / mul) {
			v = (v * mul + (unsigned long long)page - 1) / (unsigned long long)page;
			end++;
		}
	}
	if (errno || end == arg || *end || v == 0 || arg[0] == '-' || v > (1ULL << 18)) {
		cli_error("invalid mmap size '%s' (pages, a power of two, or a size like 4M)", arg);
		return -1;
	}
	while (pages < v)
		pages <<= 1;
	if (pages != v)
		fprintf(stderr, "info: rounding mmap pages size to %llu pages\n", pages);
	opts.mmap_pages = (size_t)pages;
	return 0;
}

#define OPT_FLAG(s, l, v, h) \
	{ .type = CLI_OPT_BOOL, .short_name = (s), .long_name = (l), .value = (v), .help = (h), \
	  .flags = CLI_NONEG }

static const char *const usage[] = {
	"xperf record [<options>] [<command>]",
	"xperf record [<options>] -- <command> [<options>]",
	NULL,
};

static struct cli_option options[] = {
	OPT_GROUP("Events"),
	OPT_CALLBACK('e', "event", NULL, "EVENT",
		     "event to sample (repeatable; default: cycles, or cpu-clock without a PMU)",
		     opt_event),
	OPT_CALLBACK(0, "filter", &opts, "FILTER",
		     "tracepoint filter (the kernel's syntax) for the events of the -e before it",
		     rec_opt_filter),
	OPT_CALLBACK('F', "freq", NULL, "HZ", "sample at HZ per second (default 4000), or 'max'",
		     opt_freq),
	OPT_CALLBACK('c', "count", NULL, "PERIOD", "sample every PERIOD events instead of -F",
		     opt_period),
	OPT_CALLBACK_NOARG('g', NULL, NULL, "record call graphs (frame pointers)", opt_g),
	OPT_CALLBACK(0, "call-graph", NULL, "fp|dwarf[,SIZE]",
		     "call graphs by frame pointers, or by copying SIZE bytes of user stack "
		     "(default 8192) and registers for DWARF unwinding",
		     opt_call_graph),
	OPT_FLAG(0, "switch-events", &opts.switch_events,
		 "record context switch events (PERF_RECORD_SWITCH; SWITCH_CPU_WIDE with -a)"),
	OPT_FLAG(0, "off-cpu", &opts.off_cpu,
		 "also record where tasks block and for how long, without BPF: each blocked "
		 "interval, from its sched:sched_switch sample (user call chain; -g implied) "
		 "to the switch back in, as an 'offcpu-time' sample of that many nanoseconds"),
	OPT_GROUP("Targets"),
	OPT_STRING('p', "pid", &opts.pids, "PID[,PID]", "record existing processes"),
	OPT_STRING('t', "tid", &opts.tids, "TID[,TID]", "record existing threads"),
	OPT_FLAG('a', "all-cpus", &opts.system_wide, "record every cpu (system-wide)"),
	OPT_STRING('C', "cpu", &opts.cpu_list, "CPUS", "record only these cpus (0-3,5)"),
	OPT_STRING('u', "uid", &opts.user, "USER", "record the processes of USER (name or uid)"),
	OPT_FLAG('i', "no-inherit", &opts.no_inherit,
		 "do not follow children of the target (threads and processes it creates)"),
	OPT_GROUP("Sample contents"),
	OPT_FLAG('s', "stat", &opts.ctl.inherit_stat,
		 "per-thread event counts, written as each thread exits (xperf report -T)"),
	OPT_FLAG('d', "data", &opts.ctl.sample_addr,
		 "sample data addresses (PERF_SAMPLE_ADDR), and record data mappings"),
	OPT_FLAG(0, "sample-cpu", &opts.ctl.sample_cpu, "record the cpu of each sample"),
	OPT_CALLBACK_OPTARG(0, "user-regs", &opts.ctl.user_regs, "REGS",
			    "sample these user registers (AX,BX,...; all without a list; "
			    "'?' lists them)", rec_opt_user_regs),
	OPT_CALLBACK_OPTARG('I', "intr-regs", &opts.ctl.intr_regs, "REGS",
			    "sample these registers at the interrupt (AX,BX,...; all without "
			    "a list; '?' lists them)", rec_opt_intr_regs),
	OPT_GROUP("Recording control"),
	OPT_CALLBACK('D', "delay", &opts.ctl.delay_ms, "MS",
		     "start the events MS milliseconds after the command (-1: never)",
		     rec_opt_delay),
	OPT_CALLBACK_OPTARG(0, "switch-output", &opts.ctl, "signal|SIZE|TIME",
			    "close the output and start a new one on SIGUSR2 (signal, the "
			    "default), past SIZE bytes (10M; B/K/M/G) or every TIME (30s; s/m/h/d); "
			    "each piece is named FILE.YYYYMMDDHHMMSScc",
			    rec_opt_switch_output),
	OPT_CALLBACK(0, "switch-output-event", &opts.ctl, "EVENT",
		     "start a new output piece whenever EVENT (as -e takes it; repeatable) "
		     "occurs, in any task but ours for a command; implies --switch-output=signal",
		     rec_opt_switch_output_event),
	OPT_INT(0, "switch-max-files", &opts.ctl.switch_max_files, "N",
		"with --switch-output, keep only the N newest pieces (the oldest is removed)"),
	OPT_CALLBACK(0, "max-size", &opts.ctl.max_size, "SIZE",
		     "stop recording once the output passes SIZE bytes (B/K/M/G)",
		     rec_opt_max_size),
	OPT_GROUP("Output"),
	OPT_FILENAME('o', "output", &opts.output, "FILE",
		   "output file (default xperf.data; '-' writes a pipe stream to stdout); "
		   "an existing FILE (or a symbolic link there) is renamed FILE.old"),
	OPT_CALLBACK('m', "mmap-pages", NULL, "PAGES",
		     "ring buffer size per cpu, in pages (power of two) or with B/K/M/G",
		     opt_mmap),
	/* perf takes the level only attached (-z3); "-z 3" is ours too, "-z cmd" runs cmd */
	OPT_CALLBACK_OPTNUM('z', "compression-level", &opts.compress_level, "LEVEL",
			    "zstd level 1..22, attached (-z3) or a number after it (-z 3); "
			    "default 1: compressed unless --no-compress; a bare -z is 1",
			    cli_opt_compression_level),
	OPT_FLAG(0, "no-compress", &no_compress, "write plain, uncompressed records"),
	OPT_FLAG('B', "no-buildid", &opts.no_buildid, "do not collect build ids"),
	OPT_FLAG('N', "no-buildid-cache", &ignored,
		 "accepted for perf compatibility (xperf keeps no build-id cache)"),
	OPT_FLAG(0, "no-bpf-event", &ignored,
		 "accepted for perf compatibility (xperf records no BPF events)"),
	OPT_INCR('q', "quiet", &opts.quiet, "print no summary, only errors and warnings"),
	OPT_INCR('v', "verbose", &opts.verbose, "say more (event attributes, buffer sizes)"),
	OPT_END(),
};

/* ---- set-up ------------------------------------------------------------------------- */

static bool root_like(void)
{
	/* CAP_IPC_LOCK lifts the perf_event_mlock_kb limit; root has it. */
	return geteuid() == 0;
}

static void default_mmap_pages(void)
{
	if (opts.mmap_pages)
		return;
	if (!root_like()) {
		/* perf's default, inside perf_event_mlock_kb (516 KB) per cpu. */
		opts.mmap_pages = 128;
		return;
	}
	/* A buffer that absorbs a 100 ms stall at 10 kHz with call graphs. */
	opts.mmap_pages = opts.callgraph == REC_CG_DWARF ? 8192 : 1024;
}

static void raise_nofile_limit(void)
{
	struct rlimit rl;

	if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < rl.rlim_max) {
		rl.rlim_cur = rl.rlim_max;
		setrlimit(RLIMIT_NOFILE, &rl);
	}
}

/*
 * --off-cpu's tracepoint, last in the list: every switch (period 1, whatever -F says) with
 * its call chain, which the tracepoint gives in the task that blocks.
 */
static int add_offcpu_event(xpe_evlist *evl, xpe_ctx *ctx)
{
	struct xb_error err = { 0 };
	struct xpe_event *ev;

	if (xpe_evlist_parse(evl, ctx, "sched:sched_switch", &err) < 0) {
		static const char *const mounts[] = { "/sys/kernel/tracing",
						      "/sys/kernel/debug/tracing" };

		/* mounted where we may not look (mode 700, root's): not the mount's fault */
		for (size_t i = 0; i < sizeof(mounts) / sizeof(mounts[0]); i++) {
			if (access(mounts[i], F_OK) == 0 && access(mounts[i], R_OK | X_OK) < 0 &&
			    errno == EACCES) {
				cli_error("--off-cpu needs the sched:sched_switch tracepoint, but "
					  "tracefs (%s) is not readable by this user: run as root, "
					  "or remount it with 'mount -o remount,mode=755 %s'",
					  mounts[i], mounts[i]);
				return -1;
			}
		}
		/* the tracefs message carries its fix (the mount command) */
		cli_error("--off-cpu needs the sched:sched_switch tracepoint: %s", err.msg);
		return -1;
	}
	ev = xpe_evlist_event(evl, xpe_evlist_count(evl) - 1);
	ev->attr.freq = 0;
	ev->attr.sample_period = 1;
	ev->period_set = 1;
	/*
	 * The user stack says where the program waits (perf's BPF takes only that one too);
	 * walking the kernel's on every switch as well costs the workload measurably.
	 */
	ev->attr.exclude_callchain_kernel = 1;
	if (opts.callgraph == REC_CG_NONE)
		opts.callgraph = REC_CG_FP;
	return 0;
}

static int parse_events(xpe_evlist *evl, xpe_ctx *ctx)
{
	struct xb_error err = { 0 };
	int i;

	if (!opts.nr_events) {
		if (xpe_evlist_parse(evl, ctx, "cycles", &err) < 0) {
			cli_error("%s", err.msg);
			return -1;
		}
	}
	first_event = calloc((size_t)opts.nr_events + 1, sizeof(*first_event));
	if (!first_event)
		return -1;
	for (i = 0; i < opts.nr_events; i++) {
		first_event[i] = (int)xpe_evlist_count(evl);
		if (xpe_evlist_parse(evl, ctx, opts.events[i], &err) < 0) {
			cli_error("%s", err.msg);
			cli_hint("run 'xperf list' for the events of this machine");
			return -1;
		}
	}
	first_event[opts.nr_events] = (int)xpe_evlist_count(evl);
	return opts.off_cpu ? add_offcpu_event(evl, ctx) : 0;
}

static void explain_open_failure(const struct xb_error *err)
{
	if (opts.off_cpu && (err->code == -EACCES || err->code == -EPERM) &&
	    strstr(err->msg, "sched:sched_switch")) {
		/* one line: the fix for the tracepoint, not the generic paragraph */
		cli_error("--off-cpu: cannot sample the sched:sched_switch tracepoint (%s): run "
			  "as root (or with CAP_PERFMON), or allow it with 'sysctl -w "
			  "kernel.perf_event_paranoid=-1'", strerror(-err->code));
		return;
	}
	cli_error("%s", err->msg);
	if (err->code == -EPERM || err->code == -ENOMEM) {
		if (strstr(err->msg, "mmap")) {
			cli_hint("perf_event_mlock_kb is %ld KB per cpu; raise it with "
				 "'sysctl -w kernel.perf_event_mlock_kb=%zu' or use a smaller -m "
				 "(now %zu pages)",
				 rec_read_sysctl("/proc/sys/kernel/perf_event_mlock_kb"),
				 (opts.mmap_pages + 1) * (size_t)sysconf(_SC_PAGESIZE) / 1024,
				 opts.mmap_pages);
		}
	}
}

/*
 * The TRACING_DATA payload, read from tracefs once and kept for every file of the run:
 * the formats do not change while we record, and after session_release a format file
 * cannot be read before the kernel has released our tracepoint events (it holds the
 * tracing event lock for its RCU grace periods), so the last file's is read before.
 */
static struct {
	void *blob;              /* NULL: no tracepoint, or not read yet */
	size_t size;
	bool read;
} tracing_data;

static int read_tracing_data(struct rec_session *s, struct xb_error *err)
{
	int ret;

	if (tracing_data.read)
		return 0;
	ret = xrec_tracing_data(s->ctx, s->evl, &tracing_data.blob, &tracing_data.size, err);
	tracing_data.read = ret == 0;
	return ret;
}

/* Tracepoint samples are unreadable to perf without the formats of their raw data. */
static int add_tracing_data(struct rec_session *s, struct xpf_features *feat,
			    struct xb_error *err)
{
	int ret = read_tracing_data(s, err);

	if (ret < 0 || !tracing_data.blob)
		return ret;
	ret = xpf_features_set_raw(feat, XPF_FEAT_TRACING_DATA, tracing_data.blob,
				   tracing_data.size);
	if (ret < 0)
		return xb_error_set(err, ret, "tracing data: %s", strerror(-ret));
	return 0;
}

/* GROUP_DESC, as perf writes it, so its report and evlist show {a,b} groups. */
static int add_group_desc(struct rec_session *s, struct xpf_features *feat,
			  struct xb_error *err)
{
	size_t n = xpe_evlist_count(s->evl), i;
	struct xpf_group_desc *g;

	for (i = 0; i < n; i++) {
		struct xpe_event *ev = xpe_evlist_event(s->evl, i);

		if (ev->leader != ev->idx || ev->group_size < 2)
			continue;
		g = realloc(feat->groups, (feat->nr_groups + 1) * sizeof(*g));
		if (!g)
			return xb_error_set(err, -ENOMEM, "out of memory");
		feat->groups = g;
		g += feat->nr_groups;
		g->name = strdup("{anon_group}");
		g->leader_idx = (uint32_t)ev->idx;
		g->nr_members = (uint32_t)ev->group_size;
		if (!g->name)
			return xb_error_set(err, -ENOMEM, "out of memory");
		feat->nr_groups++;
	}
	if (feat->nr_groups)
		xpf_features_mark(feat, XPF_FEAT_GROUP_DESC);
	return 0;
}

/* again: for a --switch-output piece, whose command (forked earlier) is in /proc now. */
static int synthesize(struct rec_session *s, const struct rec_target *t, bool again,
		      struct xb_error *err)
{
	struct xpe_synth syn = {
		.sample_type = xpe_evlist_event(s->evl, 0)->attr.sample_type,
		.sample_id_all = true,
		.build_ids = !opts.no_buildid,
		/* what attr.mmap_data asks of the kernel for new mappings (session.c) */
		.data_mmaps = opts.callgraph == REC_CG_DWARF || opts.ctl.sample_addr,
		.emit = session_write,
		.emit_ctx = s,
	};
	int ret = xpe_synth_kernel(&syn, err), i;

	if (ret < 0)
		return ret;
	if (opts.system_wide || opts.cpu_list)
		return xpe_synth_all(&syn, err);
	if (again && t->cmd_is_target && t->wl.pid > 0)
		ret = xpe_synth_process(&syn, t->wl.pid, err);
	for (i = 0; i < t->tg.nr_pids && ret >= 0; i++)
		ret = t->tg.tids_only ? xpe_synth_thread(&syn, t->tg.pids[i], err)
				      : xpe_synth_process(&syn, t->tg.pids[i], err);
	return ret;
}

static void print_verbose(struct rec_session *s)
{
	size_t i, n = xpe_evlist_count(s->evl);
	char buf[4096];

	for (i = 0; i < n; i++) {
		struct xpe_event *ev = xpe_evlist_event(s->evl, i);

		xpe_attr_snprintf(buf, sizeof(buf), &ev->attr);
		fprintf(stderr, "%s\n%s", ev->name, buf);
	}
	fprintf(stderr, "mmap size %zuB\n", (opts.mmap_pages + 1) * (size_t)sysconf(_SC_PAGESIZE));
}

/* "1,2,3": digits separated by single commas. */
/* Names before open, to notice perf's cycles -> cpu-clock fallback. */
static char **save_names(xpe_evlist *evl)
{
	size_t n = xpe_evlist_count(evl), i;
	char **names = calloc(n + 1, sizeof(*names));

	for (i = 0; names && i < n; i++)
		names[i] = strdup(xpe_evlist_event(evl, i)->name);
	return names;
}

static void note_fallbacks(xpe_evlist *evl, char **names)
{
	size_t n = xpe_evlist_count(evl), i;

	for (i = 0; names && i < n; i++) {
		const char *now = xpe_evlist_event(evl, i)->name;

		if (names[i] && strcmp(names[i], now) && !opts.quiet)
			fprintf(stderr, "%s: note: the '%s' event is not supported here, "
				"using '%s' instead\n", cli_command(), names[i], now);
		free(names[i]);
	}
	free(names);
}

/*
 * The finished output renamed FILE.YYYYMMDDHHMMSScc. Two pieces closed within the same
 * hundredth of a second would get one name: the second waits for the next.
 */
static int rename_piece(char *name, size_t len, struct xb_error *err)
{
	struct stat sb;
	int tries;

	for (tries = 0; tries < 100; tries++) {
		if (rec_timestamped_name(opts.output, name, len) < 0)
			return xb_error_set(err, -ENAMETOOLONG, "'%s': name too long", opts.output);
		if (lstat(name, &sb) < 0)
			break;
		usleep(10000);
	}
	if (rename(opts.output, name) < 0)
		return xb_error_set(err, -errno, "cannot rename '%s' to '%s': %s", opts.output,
				    name, strerror(errno));
	return 0;
}

/* --switch-max-files: the names of the last N pieces, oldest at kept_next once full */
static char **kept_pieces;
static int kept_next;

/* A piece is complete under its name: past N pieces, the oldest goes, as perf does. */
static void keep_piece(const char *name)
{
	int n = opts.ctl.switch_max_files;

	if (n <= 0)
		return;
	if (!kept_pieces && !(kept_pieces = calloc((size_t)n, sizeof(*kept_pieces))))
		return;
	if (kept_pieces[kept_next] && unlink(kept_pieces[kept_next]) < 0 && errno != ENOENT)
		cli_warning("--switch-max-files: cannot remove '%s': %s", kept_pieces[kept_next],
			    strerror(errno));
	free(kept_pieces[kept_next]);
	kept_pieces[kept_next] = strdup(name);
	kept_next = (kept_next + 1) % n;
}

static void free_kept_pieces(void)
{
	for (int i = 0; kept_pieces && i < opts.ctl.switch_max_files; i++)
		free(kept_pieces[i]);
	free(kept_pieces);
	kept_pieces = NULL;
}

/*
 * -D: the events but the tracking dummy start disabled; after MS milliseconds (never for
 * -1) they are enabled, as perf does, with its two messages.
 */
static void delay_start(struct rec_session *s)
{
	struct timespec ts;

	if (!opts.ctl.delay_ms)
		return;
	if (!opts.quiet)
		fprintf(stderr, "Events disabled\n");
	if (opts.ctl.delay_ms < 0)
		return;
	ts.tv_sec = opts.ctl.delay_ms / 1000;
	ts.tv_nsec = opts.ctl.delay_ms % 1000 * 1000000L;
	while (nanosleep(&ts, &ts) < 0 && errno == EINTR && !done_signal)
		;
	if (done_signal)
		return;
	xpe_evlist_ioctl(s->evl, PERF_EVENT_IOC_ENABLE);
	if (!opts.quiet)
		fprintf(stderr, "Events enabled\n");
}

/* Features every file gets (pipe streams before their data, files at their end). */
static int file_features(struct rec_session *s, struct xpf_features *feat, bool build_ids,
			 struct xb_error *err)
{
	int ret = xrec_host_features(feat, opts.cmdline_argc, opts.cmdline_argv, err);

	if (ret == 0)
		ret = add_tracing_data(s, feat, err);
	if (ret == 0)
		ret = add_group_desc(s, feat, err);
	if (ret == 0 && build_ids && s->bids && xrec_buildids_to_features(s->bids, feat, err) < 0) {
		cli_warning("build ids: %s", err->msg);
		ret = 0;
	}
	return ret;
}

/* A new output: header, attrs, what exists already (threads, maps), FINISHED_INIT. */
static int start_file(struct rec_session *s, const struct rec_target *t, bool again,
		      struct xb_error *err)
{
	/* an existing output becomes FILE.old, as perf's; a failed start puts it back */
	struct xpf_writer_opts wo = { .compress_level = opts.compress_level, .keep_old = true };
	int ret = xpf_writer_open(&s->w, opts.output, &wo, err);

	if (ret < 0)
		return ret;
	ret = session_add_attrs(s, err);
	if (ret == 0 && !strcmp(opts.output, "-")) {
		struct xpf_features feat = { 0 };

		ret = file_features(s, &feat, false, err);
		if (ret == 0)
			ret = xpf_writer_set_features(s->w, &feat, err);
		xpf_features_free(&feat);
	}
	if (ret == 0)
		ret = synthesize(s, t, again, err);
	if (ret == 0 && s->write_err)
		ret = s->write_err, *err = s->werr;
	if (ret == 0)
		ret = xpf_writer_finished_init(s->w, err);
	return ret;
}

/*
 * The features (SAMPLE_TIME is the writer's: the times of the samples the file kept) and
 * the header of a file whose data is all written. 0, or a negative errno with err set.
 */
static int end_file(struct rec_session *s, struct xb_error *err)
{
	if (strcmp(opts.output, "-")) {
		struct xpf_features feat = { 0 };
		struct xb_error ferr = { 0 };

		if (file_features(s, &feat, true, &ferr) < 0 ||
		    xpf_writer_set_features(s->w, &feat, &ferr) < 0)
			cli_warning("features: %s", ferr.msg);
		xpf_features_free(&feat);
	}
	return xpf_writer_finish(s->w, err);
}

static struct rec_target *rotating_target;

/* Close this piece under its timestamped name, as perf does, and start the next one. */
static int switch_output(struct rec_session *s)
{
	struct xb_error err = { 0 }, ignore;
	int ret = end_file(s, &err);
	char name[4096];

	if (ret == 0)
		ret = xpf_writer_close(s->w, &err);
	else
		xpf_writer_close(s->w, &ignore);
	s->w = NULL;
	if (ret == 0)
		ret = rename_piece(name, sizeof(name), &err);
	if (ret == 0) {
		keep_piece(name);
		if (!opts.quiet) {
			fprintf(stderr, "[ xperf record: dump data: Woken up %llu times ]\n",
				(unsigned long long)s->st.wakeups);
			fprintf(stderr, "[ xperf record: Dump %s ]\n", name);
		}
		s->st.wakeups = 0;
		ret = start_file(s, rotating_target, true, &err);
	}
	if (ret < 0 && !s->write_err) {
		s->write_err = ret;
		s->werr = err;
	}
	if (opts.ctl.switch_secs)
		alarm(opts.ctl.switch_secs);
	return ret;
}

/*
 * "-z abc": as in perf, a bare -z is level 1 and what follows, not a number, is the
 * command. When that command does not exist, the user most likely meant a level.
 */
static void hint_level_taken_as_command(void)
{
	int at = opts.cmdline_argc - opts.argc; /* the command's place on the command line */
	const char *before = at >= 1 ? opts.cmdline_argv[at - 1] : "";

	if (!strcmp(before, "-z") || !strcmp(before, "--compression-level"))
		cli_hint("'%s' was taken as the command, after a bare %s (level 1): a level is a "
			 "number from 1 to 22, attached (-z5) or after it (-z 5)",
			 opts.argv[0], before);
}

static int record(struct rec_session *s, struct rec_target *t)
{
	struct xb_error err = { 0 };
	bool pipe_out = !strcmp(opts.output, "-");
	bool write_failed = false;
	char piece[4096];
	int ret, status = 0, exit_code;
	uint64_t bytes_out, bytes_in, samples;
	char **names;

	if (opts.argc > 0 && target_check_command(opts.argv[0], &err) < 0) {
		cli_error("%s", err.msg);
		hint_level_taken_as_command();
		return CLI_EXIT_RUNTIME;
	}
	ret = target_prepare(t, &opts, s->ctx, &err);
	if (ret < 0) {
		cli_error("%s", err.msg);
		return ret == -EINVAL ? CLI_EXIT_USAGE : CLI_EXIT_RUNTIME;
	}
	default_mmap_pages();
	session_config(s, &opts, t);
	names = save_names(s->evl);
	ret = session_open(s, &opts, t, &err);
	note_fallbacks(s->evl, names);
	if (ret == 0)
		ret = rec_filters_apply(&opts, first_event, s->evl, &err);
	if (ret == 0)
		ret = session_offcpu(s, &opts, &err);
	if (ret == 0 && s->swev)
		ret = rec_switch_event_open(s->swev, s->ctx, t, &err);
	if (ret < 0) {
		explain_open_failure(&err);
		return CLI_EXIT_RUNTIME;
	}
	if (opts.verbose)
		print_verbose(s);

	ret = start_file(s, t, false, &err);
	if (ret < 0 && !s->w) {
		/* it names the file: "cannot create 'x': ..."; the writer left nothing behind */
		cli_error("%s", err.msg);
		return CLI_EXIT_RUNTIME;
	}
	if (ret == 0 && !t->cmd_is_target)
		ret = opts.ctl.delay_ms ? rec_event_ioctl(xpe_evlist_event(s->evl, s->tracking),
							  PERF_EVENT_IOC_ENABLE)
					: xpe_evlist_ioctl(s->evl, PERF_EVENT_IOC_ENABLE);
	if (ret == 0)
		ret = target_start(t, &err);
	if (ret < 0) {
		cli_error("%s", err.msg[0] ? err.msg : strerror(-ret));
		xpf_writer_abort(s->w); /* the file goes, an old one comes back */
		s->w = NULL;
		return CLI_EXIT_RUNTIME;
	}
	delay_start(s);
	rotating_target = t;
	s->rotate = rec_switching(&opts.ctl) ? switch_output : NULL;
	s->switch_flag = &switch_signal;
	s->switch_size = opts.ctl.switch_size;
	s->max_size = opts.ctl.max_size;
	if (opts.ctl.switch_secs)
		alarm(opts.ctl.switch_secs);

	ret = session_run(s, t, &done_signal, &status);
	alarm(0);
	/* an error here is end_file's to report, when it reads the data again */
	read_tracing_data(s, &err);
	err = (struct xb_error){ 0 };
	session_release(s);
	if (t->wl.pid > 0) {
		/* Stopped by a signal or a write error: the command goes too, as with perf. */
		xpe_workload_stop(&t->wl, &status);
		if (WIFSIGNALED(status) && WTERMSIG(status) == SIGTERM)
			status = 0;
	}
	/* Ctrl-C reaches the command too: no need to tell the user it died of it. */
	if (done_signal && WIFSIGNALED(status) &&
	    (WTERMSIG(status) == SIGINT || WTERMSIG(status) == SIGTERM))
		status = 0;
	exit_code = opts.argc > 0 ? summary_child_status(&opts, status) : 0;
	if (ret < 0) {
		cli_error("%s", s->werr.msg);
		write_failed = true;
		exit_code = CLI_EXIT_RUNTIME;
	}
	/* --switch-output could not start its next piece: the pieces before are complete */
	if (!s->w)
		return exit_code;
	if (s->max_size_hit && !opts.quiet)
		fprintf(stderr, "[ xperf record: xperf size limit reached (%llu KB), stopping "
			"session ]\n", (unsigned long long)(xpf_writer_bytes_written(s->w) >> 10));

	if (end_file(s, &err) < 0) {
		if (ret == 0)
			cli_error("%s", err.msg);
		write_failed = true;
		exit_code = CLI_EXIT_RUNTIME;
	}
	/* what the file holds: after a failed write, less than what the rings gave */
	bytes_out = xpf_writer_bytes_written(s->w);
	bytes_in = xpf_writer_bytes_in(s->w);
	samples = xpf_writer_samples_written(s->w);
	/*
	 * A write that failed before any sample reached the file (a disk full from the start)
	 * leaves nothing, as a recording that could not write its header: whether the header
	 * and the first rounds of side-band records fit is a matter of timing. The writer
	 * removes the file and puts an old one back.
	 */
	if (write_failed && !pipe_out && !s->rotate && !samples) {
		xpf_writer_abort(s->w);
		s->w = NULL;
		cli_hint("no sample reached '%s' before the write failed: no file is left",
			 opts.output);
		return exit_code;
	}
	if (xpf_writer_close(s->w, &err) < 0 && exit_code != CLI_EXIT_RUNTIME) {
		cli_error("%s", err.msg);
		exit_code = CLI_EXIT_RUNTIME;
	}
	s->w = NULL;
	if (write_failed && !pipe_out)
		cli_hint("the file holds what was written up to the last complete round: "
			 "%llu of the %llu samples read", (unsigned long long)samples,
			 (unsigned long long)s->st.samples);
	/* --switch-output: the last piece is named like the others */
	if (s->rotate && rename_piece(piece, sizeof(piece), &err) < 0) {
		cli_error("%s", err.msg);
		exit_code = CLI_EXIT_RUNTIME;
	} else if (s->rotate) {
		keep_piece(piece);
		if (!opts.quiet)
			fprintf(stderr, "[ xperf record: Dump %s ]\n", piece);
	}
	if (s->rotate)
		snprintf(piece, sizeof(piece), "%s.<timestamp>", opts.output);
	summary_print(s, &opts, s->rotate ? piece : opts.output, bytes_out, bytes_in, samples);
	return exit_code;
}

int main(int argc, const char **argv)
{
	struct rec_session s = { 0 };
	struct rec_target t = { .wl = XPE_WORKLOAD_INIT };
	struct sigaction sa = { 0 };
	int n, code;

	cli_set_command("xperf record");
	opts.cmdline_argc = argc;
	opts.cmdline_argv = argv;
	/* The command line is copied: cli_parse moves the rest of argv around. */
	{
		const char **copy = malloc((size_t)(argc + 1) * sizeof(*copy));

		if (!copy)
			return CLI_EXIT_RUNTIME;
		memcpy(copy, argv, (size_t)(argc + 1) * sizeof(*copy));
		opts.cmdline_argv = copy;
	}
	n = cli_parse(argc, argv, options, usage, CLI_STOP_AT_NON_OPTION);
	if (n < 0)
		return n == CLI_HELP ? CLI_EXIT_OK
		       : rec_regs_listed() ? REC_EXIT_REGS_LISTED : CLI_EXIT_USAGE;
	opts.argc = n;
	opts.argv = n ? argv : NULL;
	if (no_compress)
		opts.compress_level = 0;
	if (!n && !opts.pids && !opts.tids && !opts.system_wide && !opts.cpu_list && !opts.user) {
		cli_error("no command to run and no target (-p, -t, -a, -C or -u)");
		cli_usage(options, usage, true);
		return CLI_EXIT_USAGE;
	}
	{
		struct xpe_target_opts to = target_opts(&opts);
		struct xb_error err;

		if (xpe_target_check(&to, &err) < 0) {
			cli_error("%s", err.msg);
			return CLI_EXIT_USAGE;
		}
	}
	if (opts.period && opts.user_freq) {
		cli_error("options '-c' and '-F' exclude each other");
		return CLI_EXIT_USAGE;
	}
	if (opts.callgraph == REC_CG_DWARF && !opts.stack_size)
		opts.stack_size = REC_DEFAULT_STACK_SIZE;
	/* perf: the events switch as SIGUSR2 does, whatever --switch-output said */
	if (opts.ctl.nr_switch_events) {
		opts.ctl.switch_signal = true;
		opts.ctl.switch_size = 0;
		opts.ctl.switch_secs = 0;
	}
	if (opts.ctl.switch_max_files < 0) {
		cli_error("invalid --switch-max-files '%d' (a number of files, 0 for all)",
			  opts.ctl.switch_max_files);
		return CLI_EXIT_USAGE;
	}
	if (rec_switching(&opts.ctl) && !strcmp(opts.output, "-")) {
		cli_error("--switch-output writes files: it cannot write a pipe (-o -)");
		return CLI_EXIT_USAGE;
	}

	s.ctx = xpe_ctx_create(NULL, NULL);
	s.evl = xpe_evlist_create();
	if (!s.ctx || !s.evl)
		return CLI_EXIT_RUNTIME;
	if (parse_events(s.evl, s.ctx) < 0) {
		code = CLI_EXIT_USAGE;
		goto out;
	}
	{
		struct xb_error err = { 0 };

		if (rec_filters_check(&opts, first_event, s.evl, &err) < 0) {
			cli_error("%s", err.msg);
			code = CLI_EXIT_USAGE;
			goto out;
		}
		if (opts.ctl.nr_switch_events &&
		    rec_switch_event_parse(&s.swev, s.ctx, opts.ctl.switch_events,
					   opts.ctl.nr_switch_events, &err) < 0) {
			cli_error("--switch-output-event: %s", err.msg);
			code = CLI_EXIT_USAGE;
			goto out;
		}
		/* -D: perf's "dummy:HG" tracks tasks and maps while the others wait */
		if (opts.ctl.delay_ms) {
			if (xpe_evlist_parse(s.evl, s.ctx, "dummy:HG", &err) < 0) {
				cli_error("%s", err.msg);
				code = CLI_EXIT_RUNTIME;
				goto out;
			}
			s.tracking = xpe_evlist_count(s.evl) - 1;
			s.tracking_is_dummy = true;
		}
	}
	if (!opts.no_buildid) {
		s.bids = xrec_buildids_create();
		if (s.bids)
			xrec_buildids_add(s.bids, "[kernel.kallsyms]", true, NULL, 0);
	}
	raise_nofile_limit();

	sa.sa_handler = on_stop_signal;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	/* a switch may come at any time: reads of /proc and writes go on (ppoll wakes anyway) */
	sa.sa_handler = on_switch_signal;
	sa.sa_flags = SA_RESTART;
	if (opts.ctl.switch_signal)
		sigaction(SIGUSR2, &sa, NULL);
	if (opts.ctl.switch_secs)
		sigaction(SIGALRM, &sa, NULL);
	sa.sa_handler = on_child;
	sa.sa_flags = SA_NOCLDSTOP;
	sigaction(SIGCHLD, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);

	code = record(&s, &t);
out:
	session_close(&s);
	target_release(&t);
	xrec_buildids_free(s.bids);
	xpe_evlist_free(s.evl);
	xpe_ctx_free(s.ctx);
	free(opts.events);
	free(opts.ctl.filters);
	free(opts.ctl.switch_events);
	free_kept_pieces();
	free(tracing_data.blob);
	free(first_event);
	free((void *)opts.cmdline_argv);
	if (done_signal) {
		/* Die of the signal that stopped us, as perf does, so shells see it. */
		signal(done_signal, SIG_DFL);
		raise(done_signal);
	}
	return code;
}
