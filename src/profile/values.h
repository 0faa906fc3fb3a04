/* What the profile computes for the values of a hist key (enum xpp_val): one row per value. */
#ifndef XPERF_PROFILE_VALUES_H
#define XPERF_PROFILE_VALUES_H

#include <stdbool.h>
#include <stdint.h>

#include "format/xpf_sample.h"
#include "profile/tree/hist.h"

typedef struct xpp_profile xpp_profile;
struct xpp_thread;

/* What a value is computed from: the sample (context values), or one frame (frame values). */
/* perf's level character ('.' user, 'k' kernel, 'g', 'u', 'H') of a sample's cpumode. */
uint32_t xpp_level_of(uint16_t cpumode);

struct xpp_val_in {
	xpp_profile *p;
	const struct xpf_sample *s;     /* context: the sample (its fixed words at least) */
	const struct xpp_thread *th;    /* context: its thread; NULL for the sample cache's key */
	uint16_t cpumode;               /* context: the sample's (PERF_RECORD_MISC_CPUMODE_MASK) */
	const struct xpp_hist_key *k;   /* frame: the frame, resolved (dso, sym, srcline) */
	uint64_t ip;                    /* frame: its ip */
	uint64_t map_size;              /* frame: the size of its map, 0 without one */
	/*
	 * frame: a callchain entry in a file's map. perf keeps such an entry's ip as it is
	 * where it keeps a sample's own address in its map, then maps it again: its addr key
	 * shows ip + map_delta, and no source file is found there.
	 */
	bool chain_ip;
	uint64_t map_delta;             /* the map's start - its file offset */
};

/*
 * A value's row. `context`: the sample's, so the trees' first level holds it (else each
 * frame's, set where frames are resolved). `from_sample`: read from the sample's own fields
 * only, so the sample cache's key holds it (a value from the thread or the frames needs
 * not: the cache's key has the thread and the ips). `srclines`: it needs source lines.
 * get() is NULL where the pass computes the value itself (the parent, from the chain).
 */
struct xpp_val_row {
	bool context, from_sample, srclines;
	int (*get)(const struct xpp_val_in *in, uint64_t *v); /* 0, or a negative errno */
	/* the name value v stands for (xpp_profile_val_name()); NULL: it names nothing */
	const char *(*name)(const xpp_profile *p, uint64_t v);
	/* a record the value follows (side band, in time order, before the machine applies
	   it); NULL: none. 0 or a negative errno */
	int (*side_band)(xpp_profile *p, const struct perf_event_header *hdr);
};

extern const struct xpp_val_row xpp_val_rows[XPP_VAL_NR];

/* Each asked value's side_band() on record hdr: 0 or a negative errno. */
int xpp_vals_side_band(xpp_profile *p, const struct perf_event_header *hdr);

/*
 * After the sample's frame k is resolved, before it is charged: the first sample of each
 * entry it may be charged to keeps what XPP_VAL_DADDR and XPP_VAL_PHYS found (the
 * profile's first_now). 0 or -ENOMEM.
 */
int xpp_vals_note_first(xpp_profile *p, const struct xpp_hist_key *k);

/* The XPP_HIST_KEY_VAL() bits of the context values (or of the frame values). */
unsigned int xpp_val_mask(bool context);

#endif
