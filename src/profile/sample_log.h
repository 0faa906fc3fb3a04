/* The log of resolved samples a profile keeps when asked (opts.keep_samples), for xpp_profile_regroup(). */
#ifndef XPERF_PROFILE_SAMPLE_LOG_H
#define XPERF_PROFILE_SAMPLE_LOG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "profile/tree/hist.h"

/*
 * Aggregating the samples again under other sort keys or children must not read the file
 * again (DESIGN 1.3). What a sample was charged from is kept instead, in two parts: a
 * shape per distinct resolved sample (the sample cache's unit: thread, own key, call chain
 * as frame ids, in the pass's epoch), and per sample 16 bytes: its shape, cpu, time (from
 * the previous sample's) and period, the values that vary between samples of one shape (a
 * time going back or far ahead, or a period of 4G or more, is kept whole beside). A
 * profiled loop repeats few shapes, so the log costs about 16 bytes a sample, a sample a
 * filter dropped as one it kept (see enum xpp_log_drop); it stops at
 * XPP_SAMPLE_LOG_MAX bytes (and is dropped: xpp_profile_regroup() then says the profile is
 * too big to regroup).
 */
#define XPP_SAMPLE_LOG_MAX (512ull << 20)

struct xpp_log_shape {
	struct xpp_hist_key k;  /* the sample's own key as charged (values: the pass's keys) */
	uint64_t sample_type;   /* its attr's: which of cpu and time it has */
	uint64_t first_addr;    /* opts.entry_addrs: the address an entry's first sample shows */
	uint32_t event;         /* the event it counts in */
	uint32_t chain;         /* its frames, innermost first: pool[chain + 1 ..], pool[chain]
				   of them; 0: none resolved */
	uint32_t nview;         /* of which the chain proper (the rest: its own ip standing
				   in for a chain that gave none) */
	int32_t pid, tid;       /* its thread */
	uint16_t cpumode;
	bool cut;               /* its chain was cut at --max-stack (from the order's end) */
	bool mapped;            /* its ip is in a map: first_addr is the address in k.dso */
	uint8_t drop;           /* enum xpp_log_drop: why its samples were not charged */
};

/*
 * Samples a filter dropped are logged too (a shape per event, reason and thread, no key):
 * a time range applied from the log must leave the totals and the filters' counts as a pass
 * with that --time would, and the timeline counts every sample of an event. In the pass's
 * order; CPU, UNRESOLVED and IDLE take the sample out of the event's totals too.
 */
enum xpp_log_drop {
	XPP_DROP_NONE,          /* charged */
	XPP_DROP_CPU,           /* --cpu */
	XPP_DROP_COMMS,         /* --comms */
	XPP_DROP_PID,           /* --pid */
	XPP_DROP_TID,           /* --tid */
	XPP_DROP_DSOS,          /* --dsos */
	XPP_DROP_UNRESOLVED,    /* --hide-unresolved */
	XPP_DROP_SYMBOLS,       /* --symbols */
	XPP_DROP_IDLE,          /* opts.hide_symbols */
	XPP_DROP_NO_PARENT,     /* -x */
};

struct xpp_log_sample {
	uint32_t shape, cpu;
	uint32_t dtime;         /* the time less the previous sample's */
	uint32_t period;        /* XPP_LOG_WIDE: time and period in the log's `wide` */
};
#define XPP_LOG_WIDE UINT32_MAX

struct xpp_log_wide {
	uint64_t time, period;
};

struct xpp_sample_log {
	struct xpp_log_shape *shapes;
	size_t nr_shapes, cap_shapes;
	struct xpp_log_sample *s;
	size_t nr, cap;
	uint64_t last_time;     /* the previous sample's */
	struct xpp_log_wide *wide; /* in sample order */
	size_t nr_wide, cap_wide;
	uint32_t *pool;         /* chains; pool[0] unused, so 0 means none */
	size_t nr_pool, cap_pool;
	size_t bytes;
	bool full;              /* past XPP_SAMPLE_LOG_MAX: dropped, nothing more logged */
	bool unresolved;        /* a sample with call chains was logged without its chain
				   (the pass needed none): regroup cannot build trees */
	bool cut;               /* some chain was cut at --max-stack: the other order differs */
	bool decayed;           /* xpp_profile_decay() aged the counts the log cannot age */
	unsigned int keys;      /* the values every shape has (XPP_HIST_KEY_VAL bits) */
	bool srclines;          /* every shape's frames have source lines */
	bool timed;             /* a sample with a time was decoded: first_time, max_time hold */
	uint64_t first_time, max_time; /* of every decoded sample (every event's, logged or not) */
	uint32_t *drops;        /* the dropped samples' shapes, hashed: index + 1, 0 free */
	uint32_t drop_bits;     /* 1 << drop_bits slots; 0: none yet */
	size_t nr_drops;
};

/* A new shape (its chain: n frame ids), its index; -ENOMEM, or -E2BIG when full. */
int64_t xpp_log_shape(struct xpp_sample_log *l, const struct xpp_log_shape *sh,
		      const uint32_t *frames, uint32_t n);
/*
 * The shape of samples of event `event` and thread (pid, tid) that a filter dropped (why:
 * enum xpp_log_drop), made when first asked: its index, -ENOMEM, or -E2BIG when full.
 */
int64_t xpp_log_drop_shape(struct xpp_sample_log *l, uint32_t event, uint8_t why, int32_t pid,
			   int32_t tid, uint64_t sample_type);
/* xpp_log_sample()'s way when the array is full or the values do not fit its fields. */
int xpp_log_sample_slow(struct xpp_sample_log *l, uint32_t shape, uint32_t cpu, uint64_t time,
			uint64_t period);

/* One more sample of shape `shape`: 0, -ENOMEM, or -E2BIG when full. Once per sample: inline. */
static inline int xpp_log_sample(struct xpp_sample_log *l, uint32_t shape, uint32_t cpu,
				 uint64_t time, uint64_t period)
{
	uint64_t d = time - l->last_time;

	if (l->nr < l->cap && d < UINT32_MAX && period < XPP_LOG_WIDE) {
		l->s[l->nr++] = (struct xpp_log_sample){ shape, cpu, (uint32_t)d, (uint32_t)period };
		l->last_time = time;
		return 0;
	}
	return xpp_log_sample_slow(l, shape, cpu, time, period);
}
/* Past the bound: free what it holds and keep nothing more. */
void xpp_log_drop(struct xpp_sample_log *l);
void xpp_log_free(struct xpp_sample_log *l);

#endif
