/* Internal state of a profile, shared by the pass (pass.c) and the result accessors (results.c). */
#ifndef XPERF_PROFILE_INT_H
#define XPERF_PROFILE_INT_H

#include <regex.h>

#include "base/hash.h"
#include "profile/filter.h"
#include "profile/profile.h"
#include "profile/sample_cache.h"
#include "profile/session/machine.h"
#include "profile/session/ordered.h"
#include "profile/sample_log.h"
#include "profile/time_range.h"
#include "profile/session/stash.h"
#include "profile/unwind/unwind.h"
#include "profile/values.h"
#include "profile/symbols/debuginfod.h"
#include "profile/symbols/srcline.h"

#define MAX_STACK 127 /* perf report's default --max-stack (kernel.perf_event_max_stack) */

/*
 * One (process, mode, ip) -> frame answer; valid while no side-band record came since.
 * `list` is 0 for the one frame `frame`, else the offset in the profile's frame lists of the
 * ip's frames with the functions inlined there.
 */
#define FRAME_CACHE_BITS 14
struct frame_slot {
	uint64_t ip, tag, addr;  /* addr: the ip's DSO address, for subscribers */
	uint32_t epoch, frame, list;
	bool mapped;
};

/* Interned short lists of frame ids: an ip's inline frames, innermost first, then its host. */
struct frame_lists {
	uint32_t *pool;     /* at an offset: the count, then the ids; offset 0 is unused */
	uint32_t nr, cap;
	struct xb_slots index;  /* by content: offsets */
};

/* One event's samples per (DSO, address) (keep_addrs): counted in h, sorted after the pass. */
struct addr_hist {
	xpp_hist *h;                  /* keys: dso, addr; the rest zero */
	uint64_t last_addr;           /* the last sample's address and its entry: a hot */
	uint32_t last_dso, last_entry; /* loop's samples repeat a few ips */
	struct xpp_addr_hits *sorted; /* by (dso, addr) */
	size_t nr;
};

struct xpp_profile {
	struct xpp_opts o;
	xpf_reader *r;
	/* the debuginfod servers (opts.debuginfod_urls), asked for the debug files no local
	   file has; NULL: none. Made before the DSO table, which borrows it. */
	struct xpp_debuginfod *debuginfod;
	/* servers were asked for but cannot be (no libdebuginfod in this build): why */
	char *debuginfod_error;
	xpp_dso_table *dsos;
	xpp_intern *comms;
	xpp_machine *m;
	xpp_ordered *q;
	xpp_sample_cache *scache; /* repeated samples charged without resolving them again */
	struct xpp_stash kaside;  /* kernel samples waiting for the kernel's symbols (pass.c) */
	/* samples in the order they come (perf's), the one charged now, and those of the
	   samples put aside, in the stash's order from aside_next on (pass.c) */
	uint64_t sample_seq, cur_seq;
	uint64_t *aside_seq;
	size_t aside_nr, aside_cap, aside_next;
	bool kernel_due;          /* the kernel's symbols to be read at the first sample that
				     may need them (pass.c) */
	struct xpp_event *ev;
	uint32_t nr_ev;
	struct xpp_records records;
	struct xpp_undecodable undecodable;
	struct xpp_filter comm_filter, dso_filter, sym_filter, hide_filter;
	struct xpp_int_list pid_filter, tid_filter, cpu_filter;
	/* per filter (enum xpp_filter_kind), while it is set: the samples that met it and
	   those it dropped; and the samples that passed every filter and were charged */
	uint64_t filter_met[XPP_NR_FILTERS], filter_dropped[XPP_NR_FILTERS];
	uint64_t charged;
	struct xpp_time_ranges times; /* --time */
	/* context keys (opts.keys): the trees' first level interns them (comm and the
	   context fields of a hist key); parents matched per frame id */
	xpp_hist *ctxs;
	unsigned int ctx_keys;    /* the context values asked for (XPP_HIST_KEY_VAL bits) */
	uint8_t cache_vals[XPP_VAL_NR]; /* the values asked for that the sample cache's key */
	uint32_t nr_cache_vals;   /* holds (values.h's from_sample) */
	struct xpp_cgroup { uint64_t id; uint32_t name; } *cgroups; /* PERF_RECORD_CGROUP's */
	uint32_t nr_cgroups, cgroups_cap;                          /* (values.c) */
	struct xpp_thread_ns { int32_t tid; uint64_t v; } *thread_ns; /* NAMESPACES' cgroup */
	uint32_t nr_thread_ns, thread_ns_cap;                       /* ones (values.c) */
	/* the first sample of each value of XPP_VAL_DADDR, XPP_VAL_PHYS and XPP_VAL_DCACHELINE:
	   what their keys show, as perf's entry keeps its first sample's mem_info (values.c) */
	struct xpp_val_first *firsts;
	struct xpp_val_first first_now[3]; /* the sample's, before its frame is known */
	uint32_t nr_firsts, firsts_cap;
	struct xb_slots first_index;
	uint32_t *sockets;        /* per cpu: its socket (CPU_TOPOLOGY), for XPP_VAL_SOCKET */
	uint32_t nr_sockets;
	regex_t parent_re;
	bool parent_re_set;
	uint32_t *frame_parent;   /* per frame id: 0 unknown, 1 no parent, else 2 + string id */
	size_t frame_parent_cap;
	struct xb_error err;
	uint64_t pushed;         /* bytes of the records pushed (xpp_profile_push()) */
	/* the attr of the previous sample and its index: most files have one or two */
	const struct xpf_attr *last_attr;
	uint32_t last_idx;       /* the event last_attr's samples count in (opts.event_into) */
	bool last_skip;          /* event_into leaves last_attr's samples out */
	/* call graphs */
	bool callchains;       /* some attr samples PERF_SAMPLE_CALLCHAIN */
	bool children;         /* --children in effect */
	int order;             /* 1 caller first, 0 callee first */
	xpp_hist *frames;      /* interned frames: hist keys with comm 0, the id is the index */
	uint32_t *chain;       /* scratch for one sample's path, grown, never per sample */
	uint32_t chain_cap;
	struct frame_slot *fcache;
	uint32_t epoch;        /* bumped by every side-band record */
	/* DWARF call graphs: the unwinder, made on the first sample that needs it */
	xpp_unwinder *unwinder;
	int unwind_err;        /* why there is none (-EOPNOTSUPP without libdw), or 0 */
	uint64_t *unwind_ips;  /* scratch: one sample's unwound ips */
	struct xpp_unwind_stats unwind;
	/* inline frames and source lines (symbols/srcline.h); src is NULL without either */
	bool inlines, srclines;
	xpp_srcline *src;
	xpp_intern *strs;      /* inline names and source lines, ids of hist keys' inl/srcline */
	struct frame_lists lists;
	uint32_t *ip_at;       /* scratch: where each ip's frames start in `chain` */
	uint32_t ip_at_cap;
	/* subscribers (opts.on_sample): each chain frame's ip and address, parallel to
	 * chain + 1, and the address of the last ip frames_of() resolved */
	struct xpp_view_frame *vf;
	uint64_t fr_addr;
	bool fr_mapped;
	xpp_srcline *src_on_demand; /* xpp_profile_srcline_at()'s, apart from the pass's */
	struct xpp_sample_log *log; /* opts.keep_samples: for xpp_profile_regroup() */
	bool chain_cut;          /* the last chain resolved was cut at max_stack */
	struct addr_hist *addrs; /* per event, with keep_addrs */
	uint32_t nr_addrs;
	/* what annotations keep from one symbol to the next (disasm/annotate.c), freed with
	   the profile */
	void *ann_cache;
	void (*ann_cache_free)(void *);
};

#endif
