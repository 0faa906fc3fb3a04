/* xperf-record internals: options, target and session shared by the files of src/record. */
#ifndef XPERF_RECORD_H
#define XPERF_RECORD_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "events/ring.h"
#include "events/xpe_rings.h"
#include "events/xpe.h"
#include "events/xpe_open.h"
#include "events/xpe_target.h"
#include "events/xpe_workload.h"
#include "base/error.h"
#include "format/xpf_writer.h"
#include "record/buildid.h"
#include "record/offcpu.h"
#include "record/switch_event.h"

enum rec_callgraph { REC_CG_NONE = 0, REC_CG_FP, REC_CG_DWARF };

/* perf's PERF_REGS_MASK for x86_64: every user register but ds, es, fs and gs. */
#define REC_X86_64_REGS_MASK 0xff0fffULL
#define REC_DEFAULT_STACK_SIZE 8192
#define REC_MAX_STACK_SIZE 65528

/* A --filter and the -e it follows (index into rec_opts.events). */
struct rec_filter {
	const char *filter;
	int event_arg;
};

/*
 * Recording control and sample contents beyond the defaults (perf's -D, --switch-output,
 * --max-size, --filter, -s, -d, --sample-cpu, --user-regs, -I), parsed by control.c.
 */
struct rec_control {
	long delay_ms;           /* -D: 0 none, -1 events stay disabled */
	bool switch_signal;      /* --switch-output (=signal): a new file on SIGUSR2 */
	uint64_t switch_size;    /* --switch-output=SIZE: a new file past SIZE bytes */
	unsigned switch_secs;    /* --switch-output=TIME: a new file every TIME seconds */
	uint64_t max_size;       /* --max-size: stop past this many bytes, 0 no limit */
	struct rec_filter *filters;
	int nr_filters;
	bool inherit_stat;       /* -s: per-thread counts (PERF_RECORD_READ at thread exit) */
	bool sample_addr;        /* -d: PERF_SAMPLE_ADDR | DATA_SRC, data mmaps */
	bool sample_cpu;         /* --sample-cpu */
	uint64_t user_regs;      /* --user-regs mask (PERF_SAMPLE_REGS_USER) */
	uint64_t intr_regs;      /* -I/--intr-regs mask (PERF_SAMPLE_REGS_INTR) */
	int switch_max_files;    /* --switch-max-files: keep the N newest pieces, 0 all */
	const char **switch_events; /* --switch-output-event arguments (imply signal mode) */
	int nr_switch_events;
};

/* What the command line asked for. Set by cmd_record.c, read by the others. */
struct rec_opts {
	const char **events;     /* -e arguments */
	int nr_events;
	const char *output;      /* -o, "-" for a pipe */
	uint64_t freq;           /* -F (Hz) */
	uint64_t period;         /* -c; freq is used when 0 */
	bool user_freq;          /* -F was given: it replaces tracepoints' weak period of 1 */
	enum rec_callgraph callgraph;
	uint32_t stack_size;     /* dwarf stack copy size */
	size_t mmap_pages;       /* data pages per ring, 0: default */
	int compress_level;      /* 0: plain records */
	int quiet, verbose;
	bool no_buildid;
	bool no_inherit;
	const char *pids, *tids, *cpu_list, *user;
	bool system_wide;
	bool switch_events;      /* --switch-events: PERF_RECORD_SWITCH(_CPU_WIDE) in the file */
	bool off_cpu;            /* --off-cpu: sched_switch samples, offcpu-time (offcpu.h) */
	int argc;                /* the command, when there is one */
	const char **argv;
	int cmdline_argc;        /* our own argv, for the CMDLINE feature */
	const char **cmdline_argv;
	struct rec_control ctl;  /* recording control: control.c */
};

/* ---- cmd_record.c -------------------------------------------------------------------- */

/* A kernel limit such as /proc/sys/kernel/perf_event_max_sample_rate, -1 when unreadable. */
long rec_read_sysctl(const char *path);

/* ---- control.c ----------------------------------------------------------------------- */

/* Option callbacks; o->value points to struct rec_opts (filter) or the field named. */
struct cli_option;
int rec_opt_delay(const struct cli_option *o, const char *arg, bool unset);
int rec_opt_switch_output(const struct cli_option *o, const char *arg, bool unset);
int rec_opt_max_size(const struct cli_option *o, const char *arg, bool unset);
int rec_opt_filter(const struct cli_option *o, const char *arg, bool unset);
int rec_opt_switch_output_event(const struct cli_option *o, const char *arg, bool unset);
int rec_opt_user_regs(const struct cli_option *o, const char *arg, bool unset);
int rec_opt_intr_regs(const struct cli_option *o, const char *arg, bool unset);
/* --user-regs=? or -I? listed the registers: perf then exits 129, as for a usage error. */
bool rec_regs_listed(void);
#define REC_EXIT_REGS_LISTED 129
/* --switch-output in any form. */
static inline bool rec_switching(const struct rec_control *c)
{
	return c->switch_signal || c->switch_size || c->switch_secs;
}
/*
 * Tie each --filter to the events its -e made (first_event[k]: the evlist index of the
 * first event of events[k]; first_event[nr_events] the count) and check that it follows a
 * tracepoint. -EINVAL with err when not.
 */
int rec_filters_check(const struct rec_opts *o, const int *first_event, xpe_evlist *evl,
		      struct xb_error *err);
/* After open: PERF_EVENT_IOC_SET_FILTER on every fd of the filtered tracepoints. */
int rec_filters_apply(const struct rec_opts *o, const int *first_event, xpe_evlist *evl,
		      struct xb_error *err);
/* ioctl every open fd of one event. */
int rec_event_ioctl(struct xpe_event *ev, unsigned long request);
/* The sample_type bits and attr fields these options add to every event (session.c). */
uint64_t control_sample_type(const struct rec_control *c);
void control_config(const struct rec_control *c, struct perf_event_attr *a);
/*
 * The name of a finished piece: "PATH.YYYYMMDDHHMMSScc" (local time, centiseconds), as perf
 * names its --switch-output files. Returns 0 or -ENAMETOOLONG.
 */
int rec_timestamped_name(const char *path, char *buf, size_t len);

/* ---- target.c ------------------------------------------------------------------------ */

struct rec_target {
	struct xpe_workload wl;  /* the forked command; wl.pid is -1 when none */
	struct xpe_target tg;    /* cpus and threads; the -p/-t/-u tasks to synthesize and watch */
	bool cmd_is_target;      /* events follow the command (enabled on its exec) */
};

/* Resolve the command in PATH (as execvp would): 0, or -ENOENT/-EACCES with err. */
int target_check_command(const char *file, struct xb_error *err);
/* The events' target options of the command line. */
struct xpe_target_opts target_opts(const struct rec_opts *o);
/* Build cpus/threads (and fork the command, stopped before exec) from opts. */
int target_prepare(struct rec_target *t, const struct rec_opts *o, const xpe_ctx *ctx,
		   struct xb_error *err);
/* Let the child exec; returns 0 or the exec errno (negative) with err set. */
int target_start(struct rec_target *t, struct xb_error *err);
void target_release(struct rec_target *t);

/* ---- session.c ----------------------------------------------------------------------- */

/* What the rings gave (the file may hold less: xpf_writer_samples_written). */
struct rec_stats {
	uint64_t samples, lost, lost_samples, throttled, unthrottled, records;
	uint64_t wakeups, corrupt;
};

struct rec_session {
	xpe_ctx *ctx;
	xpe_evlist *evl;
	xpe_ring **rings;        /* one per cpu of the target's cpu map */
	int nr_rings;
	xpf_writer *w;
	struct rec_stats st;
	int write_err;           /* first writer error (negative errno), 0 when none */
	struct xb_error werr;
	struct xrec_buildids *bids; /* DSOs of MMAP2 records, NULL with --no-buildid */
	struct rec_offcpu *offcpu;  /* --off-cpu, else NULL */
	struct rec_switch_event *swev; /* --switch-output-event, else NULL: sets *switch_flag */
	bool stop;               /* set by the loop's caller (signal, child exit) */
	size_t tracking;         /* the event that carries mmap/comm/task (0, or -D's dummy) */
	bool tracking_is_dummy;  /* it is -D's dummy:HG, enabled from the start */
	/*
	 * --switch-output and --max-size: after each round the loop asks `rotate` for a new
	 * file when *switch_flag (SIGUSR2, the timer) is set or the file passed switch_size,
	 * and stops once the file passed max_size. NULL/0: never.
	 */
	int (*rotate)(struct rec_session *s);
	volatile sig_atomic_t *switch_flag;
	uint64_t switch_size, max_size;
	bool max_size_hit;
	bool released;           /* the rings and events are let go (session_release) */
	pid_t releaser;          /* the child that waits for their release, or 0 */
};

/* Fill the attrs of s->evl from opts and the target. */
void session_config(struct rec_session *s, const struct rec_opts *o, const struct rec_target *t);
/* Open events on the target, mmap one ring per cpu, redirect the other fds into it. */
int session_open(struct rec_session *s, const struct rec_opts *o, struct rec_target *t,
		 struct xb_error *err);
/*
 * --off-cpu: the pairing of blocked intervals over the opened events (the tracepoint is
 * the last event). 0 or a negative errno with err set.
 */
int session_offcpu(struct rec_session *s, const struct rec_opts *o, struct xb_error *err);
/* Add every event to the writer (and offcpu-time after them). */
int session_add_attrs(struct rec_session *s, struct xb_error *err);
/* One pass over every ring: write what is there, end the round. Returns bytes read. */
size_t session_drain(struct rec_session *s);
/* Write one record (also the emit callback for synthesized records: ctx is s). */
int session_write(void *s, const struct perf_event_header *h);
/*
 * Poll and drain until the command ends, the attached processes are gone, *done is set
 * (SIGINT/SIGTERM) or writing fails. *child_status gets the command's wait status. The
 * events are stopped and their rings drained.
 */
int session_run(struct rec_session *s, struct rec_target *t, volatile sig_atomic_t *done,
		int *child_status);
/*
 * After session_run: let the rings and events go. With a tracepoint among them, a short-
 * lived child waits for the kernel's release of it (RCU grace periods) in our place;
 * while that release runs, reading a tracepoint's format waits for it too, so read what
 * the file needs of tracefs first.
 */
void session_release(struct rec_session *s);
/* Unmap the rings and close the events (unless session_run let them go), free the rest. */
void session_close(struct rec_session *s);

/* ---- summary.c ----------------------------------------------------------------------- */

/*
 * name: the output as the summary calls it; bytes_out, bytes_in, samples: what it holds
 * (xpf_writer_finish's counters).
 */
void summary_print(const struct rec_session *s, const struct rec_opts *o, const char *name,
		   uint64_t bytes_out, uint64_t bytes_in, uint64_t samples);
/* Report how the command ended. Returns our exit status. */
int summary_child_status(const struct rec_opts *o, int status);

#endif
