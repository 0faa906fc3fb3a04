/*
 * The call tree: lean nodes in arrays. A node's first child is found through its parent
 * (`first`); its other children by (parent, key) through open addressing.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "profile/tree/callgraph.h"

struct self_rec {
	uint64_t period, count;
};

struct hidden_rec {
	uint32_t node;
	uint64_t period, count;
};

struct xpp_callgraph {
	uint64_t *pk;              /* per node: parent << 32 | key */
	uint32_t *self_ix;         /* per node: its index in selfs + 1, 0 none */
	/*
	 * per node: its first child, 0 none. Only the later children go in the lookup
	 * table: a path of new frames is a chain of only children, found and added with no
	 * lookup, where each added a slot at a random place (issue 20: 10 million nodes at
	 * 1M distinct paths, two cache misses each once the table outgrew the cache).
	 * NULL while frozen, like the table.
	 */
	uint32_t *first;
	uint32_t nr, cap;
	uint32_t nr_table;         /* nodes in the lookup table: those not a first child */
	bool pairs;                /* a parent was no node here (xpp_cg_child()): since then,
				      and until a reset, every new node goes in the table */
	struct self_rec *selfs;
	uint32_t *self_tags;       /* per self: xpp_cg_set_tag()'s tag when it was made */
	uint64_t *self_seqs;       /* per self: and its sequence number */
	uint32_t nr_selfs, cap_selfs;
	uint32_t tag;
	uint64_t seq;
	struct hidden_rec *hidden; /* xpp_cg_add_hidden()'s, in the order they came */
	uint32_t nr_hidden, cap_hidden;
	uint32_t *slots;           /* node id per slot, 0 empty (the root is never looked up) */
	uint8_t *tags;             /* per slot: 8 more bits of its node's hash, so that a probe
				      reads a node only when they match (a miss costs two cache
				      lines, not one per slot probed) */
	uint32_t nslots;           /* power of two; 0 when frozen */
	unsigned int shift;        /* 64 - log2(nslots) */
	/* the full nodes, built by xpp_cg_node() (a cache: it does not change the tree) */
	struct xpp_cg_node *full;
	uint32_t full_nr, full_cap;
	bool full_valid;
};

/*
 * (parent, key) with the parent folded into the key's bits before the multiply: new nodes
 * come in long runs whose parents and keys both count up (a path of new frames), and the
 * multiply alone spread those into clusters: 19 probes a lookup at 14 million nodes
 * (issue 20, the unresolved shape at 1M samples), 2 now.
 */
static uint64_t hash_pk(uint64_t pk)
{
	return (pk ^ (pk >> 32)) * 0x9e3779b97f4a7c15ULL;
}

static uint32_t slot_of(const xpp_callgraph *g, uint64_t h)
{
	return (uint32_t)(h >> g->shift);
}

static uint8_t tag_of(uint64_t h)
{
	return (uint8_t)(h >> 24);
}

xpp_callgraph *xpp_cg_create(void)
{
	xpp_callgraph *g = calloc(1, sizeof(*g));

	if (!g)
		return NULL;
	g->cap = 256;
	g->pk = malloc(g->cap * sizeof(*g->pk));
	g->self_ix = malloc(g->cap * sizeof(*g->self_ix));
	g->first = malloc(g->cap * sizeof(*g->first));
	if (!g->pk || !g->self_ix || !g->first) {
		xpp_cg_free(g);
		return NULL;
	}
	g->pk[0] = 0;
	g->self_ix[0] = 0;
	g->first[0] = 0;
	g->nr = 1;
	return g;
}

void xpp_cg_free(xpp_callgraph *g)
{
	if (!g)
		return;
	free(g->pk);
	free(g->self_ix);
	free(g->first);
	free(g->selfs);
	free(g->self_tags);
	free(g->self_seqs);
	free(g->hidden);
	free(g->slots);
	free(g->tags);
	free(g->full);
	free(g);
}

/*
 * The table keeps the size of the largest tree it held: a reset clears the slots of the
 * nodes there are, found as a lookup finds them, unless they fill the table enough that
 * clearing it whole costs no more. Either way the cost is the tree's, not the largest's
 * (issue 20: a scratch tree reset per entry made a profile of a million entries quadratic).
 */
/*
 * Whether node i (> 0) is in the lookup table: it is not its parent's first child, or its
 * "parent" was no node of this tree when it was added (xpp_cg_child() allows that; a real
 * parent's id is lower than its child's).
 */
static bool in_table(const xpp_callgraph *g, uint32_t i)
{
	uint32_t parent = (uint32_t)(g->pk[i] >> 32);

	return parent >= i || g->first[parent] != i;
}

void xpp_cg_reset(xpp_callgraph *g)
{
	if (g->nslots && (uint64_t)g->nr_table * 8 >= g->nslots) {
		memset(g->slots, 0, g->nslots * sizeof(*g->slots));
	} else if (g->nslots) {
		/* a probe passes over the slots cleared already: it stops at its node only */
		for (uint32_t i = 1; i < g->nr; i++) {
			uint32_t s;

			if (!in_table(g, i))
				continue;
			s = slot_of(g, hash_pk(g->pk[i]));

			while (g->slots[s] != i)
				s = (s + 1) & (g->nslots - 1);
			g->slots[s] = 0;
		}
	}
	g->self_ix[0] = 0;
	if (g->first)
		g->first[0] = 0;
	g->nr = 1;
	g->nr_table = 0;
	g->pairs = false;
	g->nr_selfs = 0;
	g->nr_hidden = 0;
	g->full_valid = false;
}

void xpp_cg_freeze(xpp_callgraph *g)
{
	free(g->slots);
	free(g->tags);
	free(g->first);
	g->slots = NULL;
	g->tags = NULL;
	g->first = NULL;
	g->nslots = 0;
	g->nr_table = 0;
}

/*
 * The first children again after a freeze: a parent's lowest child id, as adding made
 * them, and the others to go in the table. A pair of another tree's ids (its "parent" no
 * lower than itself) makes it a table of pairs again, as when it was added.
 */
static int thaw(xpp_callgraph *g)
{
	g->first = calloc(g->cap, sizeof(*g->first));
	if (!g->first)
		return -ENOMEM;
	g->pairs = false;
	for (uint32_t i = 1; i < g->nr; i++) {
		uint32_t parent = (uint32_t)(g->pk[i] >> 32);

		if (parent >= i)
			g->pairs = true;
		else if (!g->first[parent])
			g->first[parent] = i;
		g->nr_table += in_table(g, i);
	}
	return 0;
}

/*
 * The lookup table for the nodes in it and one more, at most 3/4 full: at that load a
 * miss probes a few slots, and a slot costs 4 bytes for 1.3 to 2.7 per node in it.
 */
static int grow_slots(xpp_callgraph *g)
{
	uint32_t n = g->nslots ? g->nslots : 1024;
	unsigned int bits = 0;
	uint32_t *s;
	uint8_t *t;

	while ((uint64_t)(g->nr_table + 1) * 4 > (uint64_t)n * 3)
		n *= 2;
	if (n == g->nslots)
		n *= 2;
	if (!n || n > (1u << 31))
		return -ENOMEM;
	s = calloc(n, sizeof(*s));
	t = malloc(n);
	if (!s || !t)
		return free(s), free(t), -ENOMEM;
	while ((1u << bits) < n)
		bits++;
	free(g->slots);
	free(g->tags);
	g->slots = s;
	g->tags = t;
	g->nslots = n;
	g->shift = 64 - bits;
	/* the table's nodes in id order put back at random slots: ask for a later one's slot
	   ahead, so that the misses overlap */
	for (uint32_t i = 1; i < g->nr; i++) {
		uint64_t h;
		uint32_t k;

		if (i + 16 < g->nr && in_table(g, i + 16)) {
			uint32_t a = slot_of(g, hash_pk(g->pk[i + 16]));

			__builtin_prefetch(&s[a], 1);
			__builtin_prefetch(&t[a], 1);
		}
		if (!in_table(g, i))
			continue;
		h = hash_pk(g->pk[i]);
		k = slot_of(g, h);
		while (s[k])
			k = (k + 1) & (n - 1);
		s[k] = i;
		t[k] = tag_of(h);
	}
	return 0;
}

static int grow_nodes(xpp_callgraph *g)
{
	uint32_t cap = g->cap * 2;
	uint64_t *pk;
	uint32_t *si, *fc;

	if (cap <= g->cap || cap > (1u << 31))
		return -ENOMEM;
	pk = realloc(g->pk, (size_t)cap * sizeof(*pk));
	if (!pk)
		return -ENOMEM;
	g->pk = pk;
	si = realloc(g->self_ix, (size_t)cap * sizeof(*si));
	if (!si)
		return -ENOMEM;
	g->self_ix = si;
	if (g->first) {
		fc = realloc(g->first, (size_t)cap * sizeof(*fc));
		if (!fc)
			return -ENOMEM;
		g->first = fc;
	}
	g->cap = cap;
	return 0;
}

/* Room for one new node in the node arrays. */
static int room_node(xpp_callgraph *g)
{
	return g->nr < g->cap || !grow_nodes(g) ? 0 : -ENOMEM;
}

/* Room for one more node in the lookup table (at most 3/4 full). */
static int room_table(xpp_callgraph *g)
{
	if ((!g->nslots || (uint64_t)(g->nr_table + 1) * 4 > (uint64_t)g->nslots * 3) &&
	    grow_slots(g))
		return -ENOMEM;
	return 0;
}

/* The slot of (parent, key)'s node, else the empty slot where it goes. */
static uint32_t *find_slot(const xpp_callgraph *g, uint64_t pk, uint64_t h)
{
	uint8_t tag = tag_of(h);
	uint32_t s;

	for (s = slot_of(g, h); g->slots[s]; s = (s + 1) & (g->nslots - 1))
		if (g->tags[s] == tag && g->pk[g->slots[s]] == pk)
			break;
	return &g->slots[s];
}

/* A new node (parent, key), without a place in the lookup table (room_node() made room). */
static uint32_t new_node(xpp_callgraph *g, uint64_t pk)
{
	uint32_t id = g->nr++;

	g->pk[id] = pk;
	g->self_ix[id] = 0;
	g->first[id] = 0;
	g->full_valid = false;
	return id;
}

int64_t xpp_cg_child(xpp_callgraph *g, uint32_t parent, uint32_t key)
{
	uint64_t pk = (uint64_t)parent << 32 | key, h;
	uint32_t c, *slot, id;

	if (!g->first && thaw(g))
		return -ENOMEM;
	c = parent < g->nr ? g->first[parent] : 0;
	if (c && (uint32_t)g->pk[c] == key)
		return c;
	if (room_node(g))
		return -ENOMEM;
	/*
	 * A parent past the last node is a pair of another tree's ids, and that id may become
	 * a node here later: once the table holds such a pair, a parent without a first child
	 * may still have a child in it, so no node is a first child until the next reset.
	 */
	if (parent >= g->nr)
		g->pairs = true;
	if (!c && !g->pairs)
		return g->first[parent] = new_node(g, pk);
	h = hash_pk(pk);
	if (room_table(g))
		return -ENOMEM;
	slot = find_slot(g, pk, h);
	if (*slot)
		return *slot;
	id = new_node(g, pk);
	*slot = id;
	g->tags[slot - g->slots] = tag_of(h);
	g->nr_table++;
	return id;
}

int64_t xpp_cg_add_path(xpp_callgraph *g, const uint32_t *keys, size_t n, uint64_t period,
			uint64_t count)
{
	int64_t cur = 0;

	for (size_t i = 0; i < n; i++)
		if ((cur = xpp_cg_child(g, (uint32_t)cur, keys[i])) < 0)
			return cur;
	return xpp_cg_add_self(g, (uint32_t)cur, period, count);
}

int64_t xpp_cg_add_self(xpp_callgraph *g, uint32_t cur, uint64_t period, uint64_t count)
{
	struct self_rec *r;

	if (!g->self_ix[cur]) {
		if (g->nr_selfs == g->cap_selfs) {
			uint32_t cap = g->cap_selfs ? g->cap_selfs * 2 : 256;

			uint32_t *t;
			uint64_t *q;

			r = cap > g->cap_selfs ? realloc(g->selfs, (size_t)cap * sizeof(*r)) : NULL;
			if (!r)
				return -ENOMEM;
			g->selfs = r;
			t = realloc(g->self_tags, (size_t)cap * sizeof(*t));
			if (!t)
				return -ENOMEM;
			g->self_tags = t;
			q = realloc(g->self_seqs, (size_t)cap * sizeof(*q));
			if (!q)
				return -ENOMEM;
			g->self_seqs = q;
			g->cap_selfs = cap;
		}
		g->selfs[g->nr_selfs] = (struct self_rec){ 0, 0 };
		g->self_tags[g->nr_selfs] = g->tag;
		g->self_seqs[g->nr_selfs] = g->seq;
		g->self_ix[cur] = ++g->nr_selfs;
	}
	r = &g->selfs[g->self_ix[cur] - 1];
	r->period += period;
	r->count += count;
	g->full_valid = false;
	return cur;
}

int xpp_cg_add_hidden(xpp_callgraph *g, uint32_t id, uint64_t period, uint64_t count)
{
	if (g->nr_hidden == g->cap_hidden) {
		uint32_t cap = g->cap_hidden ? g->cap_hidden * 2 : 64;
		struct hidden_rec *h = cap > g->cap_hidden ?
				       realloc(g->hidden, (size_t)cap * sizeof(*h)) : NULL;

		if (!h)
			return -ENOMEM;
		g->hidden = h;
		g->cap_hidden = cap;
	}
	g->hidden[g->nr_hidden++] = (struct hidden_rec){ id, period, count };
	g->full_valid = false;
	return 0;
}

uint32_t xpp_cg_nr_nodes(const xpp_callgraph *g)
{
	return g->nr;
}

uint32_t xpp_cg_parent(const xpp_callgraph *g, uint32_t id)
{
	return (uint32_t)(g->pk[id] >> 32);
}

uint32_t xpp_cg_key(const xpp_callgraph *g, uint32_t id)
{
	return (uint32_t)g->pk[id];
}

uint32_t xpp_cg_path(const xpp_callgraph *g, uint32_t id, uint32_t *keys, uint32_t cap)
{
	uint32_t n = 0;

	for (uint32_t x = id; x; x = (uint32_t)(g->pk[x] >> 32))
		n++;
	if (n > cap)
		return 0;
	for (uint32_t x = id, i = n; x; x = (uint32_t)(g->pk[x] >> 32))
		keys[--i] = (uint32_t)g->pk[x];
	return n;
}

void xpp_cg_prefetch(const xpp_callgraph *g, uint32_t id)
{
	if (id < g->nr)
		__builtin_prefetch(&g->pk[id]);
}

void xpp_cg_set_tag(xpp_callgraph *g, uint32_t tag, uint64_t seq)
{
	g->tag = tag;
	g->seq = seq;
}

uint32_t xpp_cg_self_tag(const xpp_callgraph *g, uint32_t id, uint64_t *seq)
{
	uint32_t ix = g->self_ix[id];

	if (seq)
		*seq = ix ? g->self_seqs[ix - 1] : UINT64_MAX;
	return ix ? g->self_tags[ix - 1] : 0;
}

bool xpp_cg_self(const xpp_callgraph *g, uint32_t id, uint64_t *period, uint64_t *count)
{
	const struct self_rec *r = g->self_ix[id] ? &g->selfs[g->self_ix[id] - 1] : NULL;

	if (period)
		*period = r ? r->period : 0;
	if (count)
		*count = r ? r->count : 0;
	return r != NULL;
}

/*
 * The full nodes: children prepended in creation order (the newest first), depths down
 * from the root, totals up from the leaves (a parent's id is below its children's).
 */
static int build_full(xpp_callgraph *g)
{
	struct xpp_cg_node *f;

	if (g->full_cap < g->nr) {
		f = realloc(g->full, (size_t)g->nr * sizeof(*f));
		if (!f)
			return -ENOMEM;
		g->full = f;
		g->full_cap = g->nr;
	}
	f = g->full;
	for (uint32_t i = 0; i < g->nr; i++) {
		struct xpp_cg_node *x = &f[i];

		x->parent = xpp_cg_parent(g, i);
		x->key = xpp_cg_key(g, i);
		x->first_child = 0;
		x->next_sibling = 0;
		xpp_cg_self(g, i, &x->self_period, &x->self_count);
		x->period = x->self_period;
		x->count = x->self_count;
		x->depth = 0;
		x->hidden = false;
		if (i) {
			struct xpp_cg_node *p = &f[x->parent];

			x->depth = p->depth + 1;
			x->next_sibling = p->first_child;
			p->first_child = i;
		}
	}
	for (uint32_t i = 0; i < g->nr_hidden; i++) {
		struct xpp_cg_node *x = &f[g->hidden[i].node];

		x->period += g->hidden[i].period;
		x->count += g->hidden[i].count;
		x->hidden = true;
	}
	for (uint32_t i = g->nr; i-- > 1;) {
		f[f[i].parent].period += f[i].period;
		f[f[i].parent].count += f[i].count;
	}
	g->full_nr = g->nr;
	g->full_valid = true;
	return 0;
}

const struct xpp_cg_node *xpp_cg_node(const xpp_callgraph *cg, uint32_t id)
{
	/* the full nodes are a cache of what the lean ones say, built on the first read */
	xpp_callgraph *g = (xpp_callgraph *)cg;

	if (id >= g->nr)
		return NULL;
	if ((!g->full_valid || g->full_nr != g->nr) && build_full(g))
		return NULL;
	return &g->full[id];
}

void xpp_cg_scale(xpp_callgraph *g, uint32_t num, uint32_t den)
{
	for (uint32_t i = 0; i < g->nr_selfs; i++) {
		g->selfs[i].period = den ? g->selfs[i].period * num / den : 0;
		g->selfs[i].count = den ? g->selfs[i].count * num / den : 0;
	}
	g->full_valid = false;
}
