/* The speedscope export's model: per (thread, event) the samples' stacks in time order. */
#ifndef XPERF_REPORT_SS_INT_H
#define XPERF_REPORT_SS_INT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "base/hash.h"
#include "profile/profile.h"

/* A frame as speedscope shares it: a function of an object (one per name and object). */
struct ss_frame {
	uint32_t key;          /* id in ss.keys: "name\1dso"; the name is the part before \1 */
	uint32_t dso;          /* XPP_HIST_NO_DSO: none */
	int32_t sym;           /* the symbol in the DSO, -1: none (an address, an inline frame) */
	uint32_t out;          /* its index in the file + 1, 0: not written (yet) */
};

/*
 * The samples of one thread in one event (the profile's event index, with --wall the
 * clock's), in the order the pass hands them over (time order). Consecutive samples with
 * the same stack are one run with their weights summed, as speedscope merges them too.
 */
struct ss_stream {
	int32_t pid, tid;
	uint32_t event;
	uint32_t comm;         /* the thread's command at its last sample */
	uint32_t *node;        /* per run: its stack, a node of ss.stacks */
	uint64_t *weight;      /* per run: the periods of its samples */
	uint32_t nr, cap;
	uint64_t total, nr_samples;
};

struct ss {
	xpp_profile *p;
	xpp_callgraph *stacks;   /* keys: ss_frame indexes, outermost caller first */
	xpp_intern *keys;
	struct ss_frame *frames;
	uint32_t nr_frames, cap_frames;
	uint32_t *frame_of;      /* the profile's frame id -> ss_frame index + 1 (0: unseen) */
	uint32_t cap_frame_of;
	struct ss_stream *st;
	uint32_t nr_st, cap_st;
	struct xb_slots st_index;  /* (pid, tid, event) -> stream + 1 */
	uint32_t last;             /* the stream of the last sample + 1: threads run in slices */
	uint32_t first_event;      /* the picked event, whose profiles come first */
	uint32_t *path;            /* scratch: one sample's frames, outermost first */
	uint32_t cap_path;
};

/* Empty model; ss_free() frees what the samples built. 0 or -ENOMEM. */
int ss_init(struct ss *s);
void ss_free(struct ss *s);
/* The profile's on_sample hook (ctx: the struct ss, its p set before the pass). */
int ss_on_sample(void *ctx, const struct xpp_sample_view *v);

/* The name of frame f (not terminated: *len bytes). */
const char *ss_frame_name(const struct ss *s, const struct ss_frame *f, size_t *len);

/*
 * Write streams st[0..n) (indexes into s->st, in this order) as a speedscope file to out:
 * the frames their stacks use, then a sampled profile each, named by `names[i]`, with
 * unit `units[i]`. `name` names the whole file. 0, or -errno of a write.
 */
int ss_write(struct ss *s, FILE *out, const char *name, const uint32_t *st, uint32_t n,
	     char *const *names, const char *const *units);

#endif
