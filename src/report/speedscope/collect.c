/* The speedscope export's model, filled by the pass: streams of stacks per thread and event. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/array.h"
#include "report/speedscope/ss_int.h"

int ss_init(struct ss *s)
{
	memset(s, 0, sizeof(*s));
	s->stacks = xpp_cg_create();
	s->keys = xpp_intern_create();
	return s->stacks && s->keys ? 0 : -ENOMEM;
}

void ss_free(struct ss *s)
{
	for (uint32_t i = 0; i < s->nr_st; i++) {
		free(s->st[i].node);
		free(s->st[i].weight);
	}
	free(s->st);
	xb_slots_free(&s->st_index);
	free(s->frames);
	free(s->frame_of);
	free(s->path);
	xpp_intern_free(s->keys);
	xpp_cg_free(s->stacks);
	memset(s, 0, sizeof(*s));
}

const char *ss_frame_name(const struct ss *s, const struct ss_frame *f, size_t *len)
{
	const char *k = xpp_intern_str(s->keys, f->key);

	*len = strcspn(k, "\1");
	return k;
}

/* ---- streams: (pid, tid, event) -> its samples ---- */

struct st_key {
	int32_t pid, tid;
	uint32_t event;
};

static uint64_t st_hash(const struct st_key *k)
{
	return xb_hash_add(xb_hash_add(xb_hash_u64((uint32_t)k->pid), (uint32_t)k->tid), k->event);
}

static uint64_t st_hash_of(const void *ctx, uint32_t v)
{
	const struct ss_stream *t = &((const struct ss *)ctx)->st[v - 1];
	struct st_key k = { t->pid, t->tid, t->event };

	return st_hash(&k);
}

static bool st_eq(const void *ctx, uint32_t v, const void *key)
{
	const struct ss_stream *t = &((const struct ss *)ctx)->st[v - 1];
	const struct st_key *k = key;

	return t->pid == k->pid && t->tid == k->tid && t->event == k->event;
}

static struct ss_stream *stream_of(struct ss *s, const struct st_key *k)
{
	uint32_t *slot;

	if (s->last && st_eq(s, s->last, k))
		return &s->st[s->last - 1];
	if (xb_slots_reserve(&s->st_index, s->nr_st + 1, st_hash_of, s))
		return NULL;
	slot = xb_slots_find(&s->st_index, st_hash(k), st_eq, s, k);
	if (!*slot) {
		if (XB_ARRAY_RESERVE(s->st, s->cap_st, (size_t)s->nr_st + 1, 16))
			return NULL;
		memset(&s->st[s->nr_st], 0, sizeof(s->st[0]));
		s->st[s->nr_st].pid = k->pid;
		s->st[s->nr_st].tid = k->tid;
		s->st[s->nr_st].event = k->event;
		*slot = ++s->nr_st;
	}
	s->last = *slot;
	return &s->st[*slot - 1];
}

/* ---- frames: the profile's frame ids -> functions by name and object ---- */

/* The ss_frame of the profile's frame id f (of a sample of command comm), or -ENOMEM. */
static int64_t frame_of(struct ss *s, uint32_t comm, uint32_t f)
{
	struct xpp_hist_key k;
	const struct xpp_dso *d;
	const char *name;
	char small[512], *key = small;
	int64_t id;
	int len;

	if (f < s->cap_frame_of && s->frame_of[f])
		return s->frame_of[f] - 1;
	k = xpp_profile_frame_key(s->p, comm, f);
	d = k.dso == XPP_HIST_NO_DSO ? NULL : xpp_dso_table_get(xpp_profile_dsos(s->p), k.dso);
	name = xpp_profile_sym_name(s->p, &k);
	/* an address without a symbol: its object, as the flame graph names it */
	len = snprintf(small, sizeof(small), name ? "%s\1%u" : "[%s]\1%u",
		       name ? name : d ? d->short_name : "unknown", k.dso);
	if (len >= (int)sizeof(small)) {
		if (!(key = malloc((size_t)len + 1)))
			return -ENOMEM;
		snprintf(key, (size_t)len + 1, name ? "%s\1%u" : "[%s]\1%u",
			 name ? name : d ? d->short_name : "unknown", k.dso);
	}
	id = xpp_intern_id(s->keys, key, (size_t)len);
	if (key != small)
		free(key);
	if (id < 0)
		return id;
	if ((uint32_t)id == s->nr_frames) {
		if (XB_ARRAY_RESERVE(s->frames, s->cap_frames, (size_t)id + 1, 256))
			return -ENOMEM;
		s->frames[id] = (struct ss_frame){
			.key = (uint32_t)id, .dso = k.dso,
			/* an inline frame has no symbol of its own: its host's is not its line */
			.sym = k.inl || !name ? -1 : k.sym,
		};
		s->nr_frames++;
	}
	if (XB_ARRAY_RESERVE0(s->frame_of, s->cap_frame_of, (size_t)f + 1, 1024))
		return -ENOMEM;
	s->frame_of[f] = (uint32_t)id + 1;
	return id;
}

int ss_on_sample(void *ctx, const struct xpp_sample_view *v)
{
	struct ss *s = ctx;
	bool chain = v->chain && v->nr_frames;
	uint32_t n = chain ? v->nr_frames : 1;
	struct st_key key = { -1, -1, v->event };
	struct ss_stream *t;
	int64_t node;

	if (XB_ARRAY_RESERVE(s->path, s->cap_path, n, 64))
		return -ENOMEM;
	/* the chain is innermost first; speedscope's stacks are outermost first */
	for (uint32_t i = 0; i < n; i++) {
		int64_t fr = frame_of(s, v->comm, chain ? v->frames[i].frame : v->self.frame);

		if (fr < 0)
			return (int)fr;
		s->path[n - 1 - i] = (uint32_t)fr;
	}
	node = xpp_cg_add_path(s->stacks, s->path, n, 0, 0);
	if (node < 0)
		return (int)node;
	if (v->s->type & PERF_SAMPLE_TID) {
		key.pid = (int32_t)v->s->pid;
		key.tid = (int32_t)v->s->tid;
	}
	if (!(t = stream_of(s, &key)))
		return -ENOMEM;
	t->comm = v->comm;
	t->nr_samples++;
	/* speedscope drops samples without weight, and throws on a negative one */
	if (!v->period)
		return 0;
	t->total += v->period;
	if (t->nr && t->node[t->nr - 1] == (uint32_t)node) {
		t->weight[t->nr - 1] += v->period;
		return 0;
	}
	if (t->nr == t->cap) {
		uint32_t cn = t->cap, cw = t->cap;

		if (XB_ARRAY_RESERVE(t->node, cn, (size_t)t->nr + 1, 256) ||
		    XB_ARRAY_RESERVE(t->weight, cw, (size_t)t->nr + 1, 256))
			return -ENOMEM;
		t->cap = cn < cw ? cn : cw;
	}
	t->node[t->nr] = (uint32_t)node;
	t->weight[t->nr++] = v->period;
	return 0;
}
