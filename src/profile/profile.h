/* libxperf-profile: one pass over a perf.data file into per-event trees that every view reads. */
#ifndef XPERF_PROFILE_H
#define XPERF_PROFILE_H

#include <stdbool.h>
#include <stdint.h>

#include "base/error.h"
#include "format/xpf_reader.h"
#include "profile/session/intern.h"
#include "profile/symbols/dso.h"
#include "profile/tree/callgraph.h"
#include "profile/tree/hist.h"

/*
 * One frame of a sample as a subscriber sees it: `frame` is a frame id (its key through
 * xpp_profile_frame_key(); a key with inl set is a function inlined at this ip, listed
 * before the function it was inlined into), `addr` the address inside the frame's DSO
 * (perf's map_ip: a file offset for files), valid when `mapped`.
 */
struct xpp_view_frame {
	uint64_t ip, addr;
	uint32_t frame;
	bool mapped;
};

/*
 * A sample handed to on_sample, valid during the call: the decoded sample, its event (the
 * index of xpf_reader_attr()), thread, the cpumode of its record, the period perf charges,
 * the resolution of its own ip (`self`, with cpumode), and its call chain innermost first
 * (`chain`: the file has call chains; nr_frames may still be 0), cut as perf report cuts
 * it with order callee. Names: xpp_profile_frame_key() and the name accessors below.
 */
struct xpp_sample_view {
	const struct xpf_sample *s;
	const struct xpf_attr *attr;
	uint32_t event;
	uint32_t comm;          /* intern id: xpp_intern_str(xpp_profile_comms()) */
	uint16_t cpumode;
	uint64_t period;
	struct xpp_view_frame self;
	bool chain;
	uint32_t nr_frames;
	const struct xpp_view_frame *frames;
};

/*
 * What the pass keeps. The strings are borrowed: they must outlive the profile.
 * Zero-initialised options are perf's defaults except `children`, which must be -1 for
 * perf's default (children when the file has callchains).
 */
struct xpp_opts {
	bool mem_mode;          /* perf's report --mem-mode: a sample's period is its weight (1
				   without), data maps and variables are kept for its data
				   address (XPP_VAL_DADDR), the sample cache is off */
	const char *comms;      /* comma-separated: only samples of these commands; NULL all */
	const char *dsos;       /* comma-separated: only samples in these DSOs (short names) */
	const char *kallsyms;   /* kernel symbols; NULL: /proc/kallsyms */
	const char *vmlinux;    /* perf's --vmlinux: kernel symbols from this ELF file instead */
	const char *debug_root; /* debug files; NULL: /usr/lib/debug (under symfs) */
	bool no_demangle;       /* symbol names as the files have them */
	const char *symfs;      /* perf's --symfs: look for files under this directory */
	const char *buildid_dir;/* perf's build-id cache (~/.debug); NULL: none */
	const char *kallsyms_cache; /* the directory of the kallsyms cache (used only for
				   /proc/kallsyms); NULL: no cache */
	const char *debuginfod_urls; /* debuginfod servers (DEBUGINFOD_URLS's syntax) asked for
				   the debug files of stripped files no local file has;
				   NULL or "": none, and no client is started */
	bool debuginfod_asked;  /* --debuginfod was given: a build without libdebuginfod
				   says it cannot ask (xpp_profile_debuginfod_warning()) */
	int children;           /* 1 --children, 0 --no-children, -1 perf's default */
	bool no_chains;         /* the view shows no call graph (-g none): build no trees
				   unless --children needs them */
	int order;              /* 1 caller first, 0 callee first, -1 perf's default (caller
				   with children, else callee): which end --max-stack keeps */
	uint32_t max_stack;     /* frames kept per chain; 0: perf's default, 127;
				   XPP_MAX_STACK_NONE: none (perf's --max-stack 0) */
	int inlines;            /* 1 --inline: call chains show the functions inlined at each
				   address (a frame each, above its host), 0 --no-inline, -1
				   perf's default: only in files recorded with --call-graph dwarf */
	bool srclines;          /* keys and frames carry source lines (--sort srcline,
				   -g srcline) */
	bool no_line_fallbacks; /* with srclines, a frame the DWARF gives no line gets the
				   bare XPP_SRCLINE_FALLBACK, not perf's stand-in string
				   ("sym+offset", "dso[address]"): for views that never
				   show the stand-in (pprof), which would intern a string
				   per distinct address of an unresolved profile */
	unsigned int keys;      /* XPP_HIST_KEY_VAL() bits of the values the view sorts by
				   (values.h): keys carry them; with a context value the
				   trees' first level is a context (see
				   xpp_profile_frame_key()) */
	uint64_t time_quantum;  /* perf's --time-quantum in ns, for XPP_VAL_TIME; 0: 100 ms */
	const char *parent;     /* -p: the regex of parent symbols (the first frame of a
				   chain whose symbol matches, from the end the order starts
				   at); NULL: perf's "^sys_|^do_page_fault" */
	bool exclude_other;     /* -x: only samples with a parent */
	/*
	 * Filters, as perf's: --pid/--tid/--comms/--dsos/--symbols leave the samples they drop
	 * in the event's totals (perf's absolute percentages); --cpu and --hide-unresolved take
	 * them out of the totals too, as perf drops those before it counts them.
	 */
	const char *pids, *tids;/* comma-separated numbers: only samples of these processes,
				   threads */
	const char *cpus;       /* perf's cpu list ("0-2,4"): only samples on these cpus */
	const char *time;       /* perf's --time ("START,END", "10%/2", ...): only samples in
				   these ranges (see profile/time_range.h), dropped before they
				   are counted, as --cpu */
	const char *symbols;    /* comma-separated: only samples whose own symbol is one */
	bool hide_unresolved;   /* drop samples whose own ip has no symbol, and the frames
				   without one from chains */
	const char *hide_symbols; /* comma-separated: samples outside user mode whose own
				   symbol is one of these are dropped, out of the totals too
				   (perf top's idle loops, never added to its hists); NULL: none */
	bool entry_addrs;       /* keep the address of each h entry's first sample
				   (struct xpp_event's first_addr): perf report -v shows it */
	/*
	 * Subscribers (xperf script): called during xpp_profile_run(), in time order, from
	 * the same pass that builds the trees. on_sample gets every sample that passed the
	 * filters, resolved; on_side_band every other record of the data (COMM, MMAP2,
	 * FORK, ...) after the thread and map model applied it. A negative return stops the
	 * pass with that errno. NULL: none.
	 */
	void *hook_ctx;
	int (*on_sample)(void *ctx, const struct xpp_sample_view *v);
	int (*on_side_band)(void *ctx, const struct perf_event_header *hdr);
	/*
	 * on_sample is all the view reads of the pass (script's lines): the pass aggregates
	 * nothing (the events count their samples and periods, no hist, tree or log holds
	 * an entry), and the frame ids, keys and lists handed to on_sample hold during its
	 * call only: the frame table starts over once it holds XPP_STREAM_FRAMES, so that
	 * memory stays bounded whatever the number of distinct frames (issue 20: 10M frames
	 * at distinct addresses kept 750 MB). Needs on_sample, no trees (children 0,
	 * no_chains) and none of keep_samples, keep_addrs, entry_addrs, a parent key or -x.
	 */
	bool stream;
	bool keep_addrs;        /* also count the samples' own ips per (DSO, address), for
				   annotation (xpp_profile_addr_hits()); off: the pass does
				   not pay for it */
	/*
	 * Events whose samples count in another event's aggregation (report --wall: off-CPU
	 * time into the on-CPU clock's, both nanoseconds): the attr index the samples of attr
	 * idx count in, or -1 to leave them out. Asked when the attr of the samples changes.
	 * NULL: each event its own.
	 */
	int64_t (*event_into)(xpf_reader *r, uint32_t idx);
	bool keep_samples;      /* keep a log of the samples, charged or filtered (16 bytes
				   each, and per distinct sample its shape; up to
				   XPP_SAMPLE_LOG_MAX; sample_log.h), so that
				   xpp_profile_regroup() can count them again under other
				   sort keys, children or --time without the reader (the TUI's
				   s, o, timeline) */
	bool addrs_only;        /* keep_addrs and nothing else: no symbols are looked up, no
				   hist or tree is built (h stays empty), the kernel's symbols
				   are not read ahead; a view resolves what it needs after */
};

#define XPP_MAX_STACK_NONE UINT32_MAX
#define XPP_STREAM_FRAMES (1u << 16) /* opts.stream: the frames kept at most (about) */
#define XPP_TIME_QUANTUM 100000000ull /* perf's default --time-quantum: 100 ms */

/*
 * One event's aggregation. Totals count every sample, filtered or not (perf's absolute
 * percentages). `h` holds one entry per (comm, dso, symbol) of the sample's own ip; `cg`
 * (NULL without call chains) holds, below the root, the comm id, then frame ids outermost
 * caller first (see xpp_profile_frame_key()). A frame without a symbol is keyed by its
 * raw ip, as perf keys callchain entries, where the sample's own entry (h's key) has the
 * address in its DSO.
 * `own` (NULL when there are none) holds the samples whose own entry is not their path's
 * innermost frame (such an unresolved ip; a chain cut at max_stack in caller order), by
 * (the path's last node, the own entry's frame id) in key.addr (XPP_OWN_KEY; the other key
 * fields as xpp_hist_key_init() sets them). The tree counts them at that node all the same;
 * views that show perf's self entries move their self time to the own entry.
 */
#define XPP_OWN_KEY(node, frame) ((uint64_t)(node) << 32 | (uint32_t)(frame))
#define XPP_OWN_NODE(addr) ((uint32_t)((addr) >> 32))
#define XPP_OWN_FRAME(addr) ((uint32_t)(addr))

struct xpp_event {
	xpp_hist *h;
	xpp_callgraph *cg;
	xpp_hist *own;
	uint64_t nr_samples, total_period;
	uint64_t *first_addr;   /* opts.entry_addrs: per h entry, its first sample's address
				   in its DSO (the ip where none holds it), else NULL */
	size_t first_cap;
};

/* A --comms / --dsos list as given. */
struct xpp_name_list {
	char **names;
	uint32_t nr;
};

enum xpp_list { XPP_LIST_COMMS, XPP_LIST_DSOS, XPP_LIST_SYMBOLS };

typedef struct xpp_profile xpp_profile;

/*
 * A profile of the records of r (borrowed: the caller keeps and closes it, after
 * xpp_profile_free()), positioned before the first data record. 0, or a negative errno with
 * err set.
 */
int xpp_profile_create(xpp_profile **out, xpf_reader *r, const struct xpp_opts *opts,
		       struct xb_error *err);
/* Free the profile and everything it built; accepts NULL. */
void xpp_profile_free(xpp_profile *p);

/*
 * Count the samples again under o's sort keys (keys, srclines), children, order and time
 * ranges (--time, o->time: borrowed, kept as the profile's; the other fields of o are
 * ignored: lookups and filters stay the pass's), from the log that opts.keep_samples kept,
 * never the reader: every event's hist, trees, totals and address hits are built anew, as
 * a pass with those options would build them (the filters' counts too, when the pass had
 * no --time of its own). Views built on the old results must be built again. -EOPNOTSUPP
 * with err's message when the log cannot tell (no log; a value the pass did not compute,
 * such as source lines or a cgroup; call chains it did not resolve; chains cut at
 * --max-stack, or -x, with the other call-graph order; counts aged by xpp_profile_decay();
 * another --time than the pass's own, whose samples alone it logged), -EINVAL for a --time
 * that does not parse, -E2BIG when the log outgrew its bound: the results are then
 * untouched. Only -ENOMEM leaves them incomplete.
 */
int xpp_profile_regroup(xpp_profile *p, const struct xpp_opts *o, struct xb_error *err);

/*
 * The samples opts.keep_samples logged, for a view that counts them by time (the TUI's
 * timeline) without the reader: every sample the pass met with an event to count in,
 * charged or dropped by a filter, in the order the pass met them, each given to fn with its
 * event, thread, time, and shape (samples of one shape share their event and thread: a
 * view can work out per shape what it needs). *first and *last are the first and last
 * times of every sample decoded, of any event (perf's --time percentages take them so),
 * set before fn is first called.
 * 1, 0 when no sample had a time (fn is not called), or -EOPNOTSUPP / -E2BIG with err set
 * when the log cannot tell (none kept, outgrown, aged; a pass that kept the samples of its
 * own --time only).
 */
struct xpp_logged_sample {
	uint32_t shape, event;
	int32_t pid, tid;
	uint64_t time;
	bool timed;             /* the sample has a time */
};
int xpp_profile_logged(const xpp_profile *p,
		       void (*fn)(void *ctx, const struct xpp_logged_sample *s), void *ctx,
		       uint64_t *first, uint64_t *last, struct xb_error *err);

/*
 * The one pass: read every record, order them per round, apply side-band records to the
 * thread and map model, resolve and aggregate samples. 0, or a negative errno with err set
 * (a damaged file, memory exhaustion).
 */
int xpp_profile_run(xpp_profile *p, struct xb_error *err);

/*
 * Records pushed rather than read (a live source: xperf top drains the rings into it). The
 * profile is made as for a file, over a reader of no data holding the events
 * (xpf_reader_open_live()); then each record as the kernel wrote it, copied if kept, in
 * the order the rings gave them; xpp_profile_round() where a file has FINISHED_ROUND
 * (after each drain of every ring). The results a view reads are current after
 * xpp_profile_settle(), and stay so until the next push. 0, or a negative errno with err.
 */
int xpp_profile_push(xpp_profile *p, const struct perf_event_header *hdr, struct xb_error *err);
int xpp_profile_round(xpp_profile *p, struct xb_error *err);
int xpp_profile_settle(xpp_profile *p, struct xb_error *err);
/*
 * Age the counts a live view shows: every event's entries, call trees, own entries,
 * address hits and totals multiplied by num/den, rounding down (perf top's decay is 7/8 a
 * refresh; num 0 zeroes them, its -z). Entries at 0 have nothing to show; once they are
 * most of an event's entries they are dropped (the others' ids change then: a view reads
 * the entries again after each decay). The record counts (xpp_profile_records()) are not
 * aged.
 */
void xpp_profile_decay(xpp_profile *p, uint32_t num, uint32_t den);

/* ---- results, valid until xpp_profile_free() ---- */

xpf_reader *xpp_profile_reader(const xpp_profile *p);
/* The options the profile was made with (their strings borrowed from the caller's). */
const struct xpp_opts *xpp_profile_opts(const xpp_profile *p);
xpp_dso_table *xpp_profile_dsos(const xpp_profile *p);
const xpp_intern *xpp_profile_comms(const xpp_profile *p);

/* The events, indexed like xpf_reader_attr(); an event without samples has h == NULL. */
const struct xpp_event *xpp_profile_events(const xpp_profile *p, uint32_t *nr);

uint64_t xpp_profile_lost_samples(const xpp_profile *p);

/*
 * What the pass met in the records that a view must say (DESIGN 1.3), counted in file
 * order: every record, as perf's "Processed N events" counts them (COMPRESSED records and
 * what they hold alike), the SAMPLE records, the LOST records (chunks of events the
 * kernel could not write, and the events they count), the samples LOST_SAMPLES records
 * count, and the records the pass skipped because it does not process their type (one
 * slot per type, in the order first met: a type it does not know, perf's AUX area traces,
 * a COMPRESSED record inside compressed data), each with how many and the file offset of
 * the first (for a record unpacked from a COMPRESSED record, that record's offset).
 */
#define XPP_MAX_SKIPPED 8
struct xpp_skipped_type {
	uint32_t type;
	bool nested;            /* a COMPRESSED record inside compressed data */
	uint64_t nr, first_offset;
};
struct xpp_records {
	uint64_t total, samples;
	uint64_t lost_chunks, lost_events, lost_samples;
	struct xpp_skipped_type skipped[XPP_MAX_SKIPPED];
	uint32_t nr_skipped;
	uint64_t skipped_more;  /* records of types beyond the XPP_MAX_SKIPPED slots */
};
const struct xpp_records *xpp_profile_records(const xpp_profile *p);

/*
 * The filters in the order the pass applies them to a sample (opts.time, cpus, comms, pids,
 * tids, dsos, symbols). When no sample passed them all although some were met, the first filter
 * that every sample reaching it failed (`reached` of them), so a view can name it:
 * XPP_FILTER_NONE when some sample passed, when no filter was set, or when the samples
 * failed different filters (then *reached is the samples the filters met).
 */
enum xpp_filter_kind {
	XPP_FILTER_NONE = -1,
	XPP_FILTER_TIME, XPP_FILTER_CPU, XPP_FILTER_COMMS, XPP_FILTER_PID, XPP_FILTER_TID, XPP_FILTER_DSOS,
	XPP_FILTER_SYMBOLS, XPP_NR_FILTERS
};
/* Whether the filters dropped every sample they met (*reached, 0 when none was met). */
bool xpp_profile_filtered_all(const xpp_profile *p, enum xpp_filter_kind *which,
			      uint64_t *reached);

/*
 * SAMPLE records that could not be decoded (an id that matches no attr, a sample_type with
 * unknown bits, a size that disagrees with the attr): counted in no event. `first_offset`
 * is the file offset of the first of them in file order (for a record unpacked from a
 * COMPRESSED record, that record's offset), `reason` why it could not be decoded.
 */
struct xpp_undecodable {
	uint64_t nr;
	uint64_t first_offset;
	char reason[200];
};
const struct xpp_undecodable *xpp_profile_undecodable(const xpp_profile *p);

/*
 * DWARF call graphs (samples with user registers and a stack copy): how many samples asked
 * for unwinding, how many of those kept only their own frame because their stack could not
 * be unwound (no registers or stack copy, the file of their ip missing), and how many
 * because this build has no libdw (then failed is 0).
 */
struct xpp_unwind_stats {
	uint64_t samples, failed, unsupported;
};
struct xpp_unwind_stats xpp_profile_unwind_stats(const xpp_profile *p);

/*
 * One line for a warning about the debuginfod servers: a server failed (the first
 * failure; no more were asked), or they were asked for in a build that cannot ask. Into
 * buf, or false when there is nothing to say.
 */
bool xpp_profile_debuginfod_warning(const xpp_profile *p, char *buf, size_t size);

/* Whether the file has call chains, and the view they call for: children, order. */
bool xpp_profile_callchains(const xpp_profile *p);
bool xpp_profile_children(const xpp_profile *p);
int xpp_profile_order(const xpp_profile *p);

/*
 * The key of frame id f (a key of an event's cg below its first level) as a hist key of
 * `root`, a key of that first level: the comm id, or with opts.keys a context whose comm,
 * thread, cpu and parent the key gets.
 */
struct xpp_hist_key xpp_profile_frame_key(const xpp_profile *p, uint32_t root, uint32_t f);
/*
 * The same into *k, for readers of many frames (a key is 216 bytes, most of them values):
 * k's values are written only where f's or the root's are set, or `vals_set` says k's
 * are not all 0. Returns whether k's values may be set now: the next call's vals_set.
 */
bool xpp_profile_frame_key_load(const xpp_profile *p, uint32_t root, uint32_t f,
				struct xpp_hist_key *k, bool vals_set);
/* Frame id f's key as the profile holds it, without a context (no comm, no values). */
const struct xpp_hist_rec *xpp_profile_frame_rec(const xpp_profile *p, uint32_t f);
/*
 * Whether distinct frames have distinct keys of one root (xpp_profile_frame_key()) once
 * masked with `keys` (XPP_HIST_KEY_*) and, without a map, their level dropped (0): each
 * frame of one root is then its own entry of a view by those keys.
 */
bool xpp_profile_frames_apart(const xpp_profile *p, unsigned int keys);
/* A key of the trees' first level as a hist key: its context only, no DSO nor symbol. */
struct xpp_hist_key xpp_profile_root_key(const xpp_profile *p, uint32_t root);
/* The comm id of a key of the trees' first level. */
uint32_t xpp_profile_root_comm(const xpp_profile *p, uint32_t root);
/* The name of a thread as perf's `pid` key shows it: its last comm ("" if unknown). */
const char *xpp_profile_thread_name(const xpp_profile *p, int32_t pid, int32_t tid);
/* The parent symbol's name of a key (opts.keys with the parent key), NULL for [other]. */
const char *xpp_profile_parent_name(const xpp_profile *p, const struct xpp_hist_key *k);

/* The --comms or --dsos list the profile was filtered by (nr 0: none). */
const struct xpp_name_list *xpp_profile_list(const xpp_profile *p, enum xpp_list which);

/* The self samples at one address of a DSO (keep_addrs). */
struct xpp_addr_hits {
	uint32_t dso;
	uint64_t addr;          /* as symbols have it: a file offset in a user DSO, a kernel
				   address in the kernel */
	uint64_t period, nr_samples;
};

/*
 * With opts.keep_addrs: the samples of event `event` whose own ip lies in [start, end) of
 * DSO `dso`, in address order (*nr of them; NULL and 0 when none, or without keep_addrs).
 * Samples outside any map are not kept. Valid until xpp_profile_free() or
 * xpp_profile_regroup().
 */
const struct xpp_addr_hits *xpp_profile_addr_hits(const xpp_profile *p, uint32_t event,
						  uint32_t dso, uint64_t start, uint64_t end,
						  size_t *nr);

/*
 * The name shown for a key's DSO ("[unknown]" without one) and symbol (NULL without; for an
 * inline frame the inlined function's name, without perf's " (inlined)").
 */
const char *xpp_profile_dso_name(const xpp_profile *p, const struct xpp_hist_key *k);
const char *xpp_profile_sym_name(const xpp_profile *p, const struct xpp_hist_key *k);

/*
 * A key's source line as the srcline column shows it (perf's stand-in "sym+offset" where
 * no line is known, "??:0" without a map, or for a stand-in made without its string,
 * opts.no_line_fallbacks), or NULL when the profile has no source lines.
 * `chain`: as call graphs show it ("??:0" for any stand-in).
 */
const char *xpp_profile_srcline(const xpp_profile *p, const struct xpp_hist_key *k, bool chain);
/* The string of a value that holds 1 + a string id (XPP_VAL_SRCFILE), NULL for 0. */
const char *xpp_profile_str(const xpp_profile *p, uint64_t v);
/* What value `value` of key value v (enum xpp_val) names (a file, a cgroup), or NULL. */
const char *xpp_profile_val_name(const xpp_profile *p, unsigned int v, uint64_t value);

/*
 * The first sample of entry k (a key as the view's entries have it) for its value of
 * XPP_VAL_DADDR, XPP_VAL_PHYS or XPP_VAL_DCACHELINE (v): its level ('.', 'k'...), and for
 * XPP_VAL_DADDR the data address in the map holding it (perf's al_addr: `addr`), that map's
 * dso (XPP_HIST_NO_DSO none) and the symbol there (-1 none). XPP_VAL_DCACHELINE: the same
 * dso and symbol, `addr` the cacheline of al_addr (perf's cl_address()), `unmap` what
 * turns an address of the map into a virtual one (perf's unmap_ip(): + unmap), and the
 * level as perf's dcacheline key shows it ('s' shared data, 'X' no map). NULL when no
 * sample had it.
 */
struct xpp_val_first {
	uint64_t value, addr, unmap;
	uint32_t v, dso, level;
	int32_t sym;
	/* the entry's code frame (dso, sym, level, addr of struct xpp_hist_key), and a hash
	   of the rest of its key (its comm and context values) */
	uint32_t k_dso, k_level;
	int32_t k_sym;
	uint64_t k_addr, k_ctx;
};
const struct xpp_val_first *xpp_profile_val_first(const xpp_profile *p, unsigned int v,
						  const struct xpp_hist_key *k);

/*
 * The kernel symbol holding address addr ([kernel.kallsyms], its symbols loaded on first
 * use): 1 with *name (valid until xpp_profile_free()) and *start set; 0 when none holds
 * it; a negative errno. For views that name kernel addresses found in sample data, as
 * tracepoint fields printed with %pS.
 */
int xpp_profile_kernel_sym(xpp_profile *p, uint64_t addr, const char **name, uint64_t *start);

/* Whether the profile's call chains hold inline frames; whether its keys have source lines. */
bool xpp_profile_inlines(const xpp_profile *p);
bool xpp_profile_srclines(const xpp_profile *p);

/*
 * For subscribers during the pass: the comm id of thread (pid, tid) as the model has it now
 * (created like a sample's thread if unknown), or a negative errno.
 */
int64_t xpp_profile_thread_comm(xpp_profile *p, int32_t pid, int32_t tid);

/*
 * The source line ("file:line", the file's base name) of DSO address addr of a frame's
 * DSO, looked up on demand (and cached) whether or not the profile has source lines:
 * 1 with *line set (valid until xpp_profile_free()), 0 when the DWARF knows none (or the
 * DSO is no ELF file), a negative errno (-EOPNOTSUPP without libdw).
 */
int xpp_profile_srcline_at(xpp_profile *p, uint32_t dso, uint64_t addr, const char **line);

#endif
