/* xperf-record internals: options, target and session shared by the files of src/record. */
#ifndef XPERF_RECORD_H
#define XPERF_RECORD_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "events/ring.h"
#include "events/xpe.h"
#include "events/xpe_open.h"
#include "events/xpe_target.h"
#include "events/xpe_workload.h"
#include "base/error.h"
#include "format/xpf_writer.h"
#include "record/buildid.h"

enum rec_callgraph { REC_CG_NONE = 0, REC_CG_FP, REC_CG_DWARF };

/* perf's PERF_REGS_MASK for x86_64: every user register but ds, es, fs and gs. */
#define REC_X86_64_REGS_MASK 0xff0fffULL
#define REC_DEFAULT_STACK_SIZE 8192
#define REC_MAX_STACK_SIZE 65528

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
	int argc;                /* the command, when there is one */
	const char **argv;
	int cmdline_argc;        /* our own argv, for the CMDLINE feature */
	const char **cmdline_argv;
};

/* ---- cmd_record.c -------------------------------------------------------------------- */

/* A kernel limit such as /proc/sys/kernel/perf_event_max_sample_rate, -1 when unreadable. */
long rec_read_sysctl(const char *path);

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
	bool stop;               /* set by the loop's caller (signal, child exit) */
};

/* Fill the attrs of s->evl from opts and the target. */
void session_config(struct rec_session *s, const struct rec_opts *o, const struct rec_target *t);
/* Open events on the target, mmap one ring per cpu, redirect the other fds into it. */
int session_open(struct rec_session *s, const struct rec_opts *o, struct rec_target *t,
		 struct xb_error *err);
/* Add every event to the writer. */
int session_add_attrs(struct rec_session *s, struct xb_error *err);
/* One pass over every ring: write what is there, end the round. Returns bytes read. */
size_t session_drain(struct rec_session *s);
/* Write one record (also the emit callback for synthesized records: ctx is s). */
int session_write(void *s, const struct perf_event_header *h);
/*
 * Poll and drain until the command ends, the attached processes are gone, *done is set
 * (SIGINT/SIGTERM) or writing fails. *child_status gets the command's wait status.
 */
int session_run(struct rec_session *s, struct rec_target *t, volatile sig_atomic_t *done,
		int *child_status);
void session_close(struct rec_session *s);

/* ---- summary.c ----------------------------------------------------------------------- */

/* bytes_out, bytes_in, samples: what the output holds (xpf_writer_finish's counters). */
void summary_print(const struct rec_session *s, const struct rec_opts *o, uint64_t bytes_out,
		   uint64_t bytes_in, uint64_t samples);
/* Report how the command ended. Returns our exit status. */
int summary_child_status(const struct rec_opts *o, int status);

#endif
