/* The one pass of a profile: records ordered per round, applied to the machine, samples resolved and aggregated. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/array.h"
#include "base/hash.h"
#include "base/input_file.h"
#include "format/xpf_sample.h"
#include "profile/profile_int.h"

/* The event a's samples count in, into p->last_idx: false when they count in none. */
static bool event_idx(xpp_profile *p, const struct xpf_attr *a)
{
	uint32_t i, n;

	if (a != p->last_attr) {
		n = xpf_reader_nr_attrs(p->r);
		for (i = 0; i < n && xpf_reader_attr(p->r, i) != a; i++)
			;
		if (i == n)
			return false;
		p->last_attr = a;
		p->last_idx = i;
		p->last_skip = false;
		if (p->o.event_into) {
			int64_t into = p->o.event_into(p->r, i);

			p->last_skip = into < 0 || into >= n;
			p->last_idx = p->last_skip ? i : (uint32_t)into;
		}
	}
	return !p->last_skip;
}

static struct xpp_event *event_of(xpp_profile *p, const struct xpf_attr *a)
{
	if (!event_idx(p, a))
		return NULL;
	if (p->last_idx >= p->nr_ev) {
		uint32_t nr = p->last_idx + 1;
		struct xpp_event *ev = realloc(p->ev, nr * sizeof(*ev));

		if (!ev)
			return NULL;
		memset(ev + p->nr_ev, 0, (nr - p->nr_ev) * sizeof(*ev));
		p->ev = ev;
		p->nr_ev = nr;
	}
	struct xpp_event *e = &p->ev[p->last_idx];

	if (!e->h)
		e->h = xpp_hist_create();
	return e->h ? e : NULL;
}

/* 1 + the string id of s (the inl/srcline encoding of hist keys), or a negative errno. */
static int64_t str_key(xpp_profile *p, const char *s)
{
	int64_t id = xpp_intern_id(p->strs, s, strlen(s));

	return id < 0 ? id : id + 1;
}

/* A line of symbols/srcline.h as a key's srcline: the string, "??:0" where none is known. */
static int64_t line_key(xpp_profile *p, uint32_t line)
{
	return line == XPP_SRC_UNKNOWN ? str_key(p, "??:0") : (int64_t)line + 1;
}

/*
 * perf's answer where the DWARF gives no line: "??:0" where addr2line names a function
 * (xpp_dso_a2l_names_function()) or without a map ("file:0" where it names the function's
 * STT_FILE too, xpp_dso_a2l_file()), else its stand-in, "sym+offset"
 * (decimal) or "dso[address]" (objdump's address) without a symbol. k is resolved, addr the
 * DSO address. With opts.no_line_fallbacks the stand-in is the bare XPP_SRCLINE_FALLBACK:
 * no string made and interned for each distinct address (issue 20: 10M of them, the most
 * of pprof's time and memory on a profile of unresolved addresses).
 */
static int64_t fallback_key(xpp_profile *p, const struct xpp_hist_key *k, uint64_t addr)
{
	const struct xpp_dso *d =
		k->dso == XPP_HIST_NO_DSO ? NULL : xpp_dso_table_get(p->dsos, k->dso);
	const char *file;
	char buf[1024];
	int64_t id;

	if (!d)
		return str_key(p, "??:0");
	if (xpp_dso_a2l_names_function(d, addr)) {
		if (!(file = xpp_dso_a2l_file(d, addr)))
			return str_key(p, "??:0");
		snprintf(buf, sizeof(buf), "%s:0", file);
		return str_key(p, buf);
	}
	if (p->o.no_line_fallbacks)
		return XPP_SRCLINE_FALLBACK;
	if (k->sym >= 0)
		snprintf(buf, sizeof(buf), "%s+%" PRIu64, xpp_dso_sym_name(d, (uint32_t)k->sym),
			 addr - d->syms.syms[k->sym].start);
	else
		/* perf's map__rip_2objdump(): the address objdump gives, not the offset */
		snprintf(buf, sizeof(buf), "%s[%" PRIx64 "]", d->short_name,
			 addr + d->syms.text_offset);
	id = str_key(p, buf);
	return id < 0 ? id : id | XPP_SRCLINE_FALLBACK;
}

/*
 * What the DWARF says of DSO address addr of k's DSO (nothing unless it is an ELF file on
 * disk). `caller`: the ip is a return address, so the call is the instruction before it.
 */
static int src_of(xpp_profile *p, const struct xpp_hist_key *k, uint64_t addr, bool caller,
		  struct xpp_src_frames *fr)
{
	const struct xpp_dso *d =
		k->dso == XPP_HIST_NO_DSO ? NULL : xpp_dso_table_get(p->dsos, k->dso);
	const char *file;

	memset(fr, 0, sizeof(*fr));
	if (!p->src || !d || d->kind != XPP_DSO_USER)
		return 0;
	/* the recorded file's lines, never those of a file with another build-id */
	file = xpp_dso_table_file(p->dsos, k->dso);
	if (!file)
		return 0;
	return xpp_srcline_find(p->src, k->dso, file, caller && addr ? addr - 1 : addr, fr);
}

/* A list as the pool holds it: the count, then the ids. */
static uint64_t list_hash(const uint32_t *ids, uint32_t n)
{
	uint64_t h = xb_hash_add(0, n);

	for (uint32_t i = 0; i < n; i++)
		h = xb_hash_add(h, ids[i]);
	return h;
}

static uint64_t list_hash_of(const void *ctx, uint32_t off)
{
	const uint32_t *q = ((const struct frame_lists *)ctx)->pool + off;

	return list_hash(q + 1, q[0]);
}

/* key: the count, then a pointer to the ids */
struct list_key {
	uint32_t n;
	const uint32_t *ids;
};

static bool list_eq(const void *ctx, uint32_t off, const void *key)
{
	const uint32_t *q = ((const struct frame_lists *)ctx)->pool + off;
	const struct list_key *k = key;

	return q[0] == k->n && !memcmp(q + 1, k->ids, k->n * sizeof(*k->ids));
}

/* The offset of the interned list ids[0..n), or a negative errno. */
static int64_t list_intern(struct frame_lists *l, const uint32_t *ids, uint32_t n)
{
	struct list_key key = { n, ids };
	uint32_t *slot;

	/* at most one list per pool word: the count is a fine bound */
	if (xb_slots_reserve(&l->index, l->nr + 1, list_hash_of, l))
		return -ENOMEM;
	slot = xb_slots_find(&l->index, list_hash(ids, n), list_eq, l, &key);
	if (*slot)
		return *slot;
	if (!l->nr)
		l->nr = 1; /* offset 0 means "no list" */
	if (XB_ARRAY_RESERVE(l->pool, l->cap, (size_t)l->nr + n + 1, 1024))
		return -ENOMEM;
	*slot = l->nr;
	l->pool[l->nr] = n;
	memcpy(l->pool + l->nr + 1, ids, n * sizeof(*ids));
	l->nr += n + 1;
	return *slot;
}

/* perf's evlist__combined_sample_type(): what any event samples */
static uint64_t combined_sample_type(xpf_reader *r)
{
	uint64_t t = 0;

	for (uint32_t i = 0; i < xpf_reader_nr_attrs(r); i++)
		t |= xpf_reader_attr(r, i)->attr.sample_type;
	return t;
}

/*
 * The frame values asked for (opts.keys, values.h) of frame k, resolved, at ip: into k.
 * `chain`: a callchain entry, whose address perf keeps as the ip and maps once more into
 * its file's map for the addr key (the sample's own entry keeps the address in its map):
 * perf's children show such entries there. 0 or a negative errno.
 */
static int frame_vals(xpp_profile *p, struct xpp_hist_key *k, const struct xpp_thread *th,
		      uint16_t cpumode, uint64_t ip, bool chain)
{
	unsigned int want = p->o.keys & ~p->ctx_keys;
	struct xpp_val_in in = { .p = p, .th = th, .k = k, .ip = ip };
	bool kernel = cpumode == PERF_RECORD_MISC_KERNEL || cpumode == PERF_RECORD_MISC_GUEST_KERNEL;
	const struct xpp_map *mp;
	const struct xpp_dso *d;
	int ret;

	if (!want)
		return 0;
	mp = xpp_machine_proc_map(p->m, kernel ? 0 : th->proc, ip);
	if (want & XPP_HIST_KEY_VAL(XPP_VAL_MAP_SIZE)) {
		in.map_size = mp ? mp->end - mp->start : 0;
		/* perf ends the kernel's map with its kallsyms (image_end), not the MMAP's
		 * length (the end of text) */
		if (mp && (d = xpp_dso_table_get(p->dsos, mp->dso)) && d->kind == XPP_DSO_KERNEL &&
		    d->syms.image_end > mp->start)
			in.map_size = d->syms.image_end - mp->start;
	}
	if (chain && mp && (d = xpp_dso_table_get(p->dsos, mp->dso)) &&
	    (d->kind == XPP_DSO_USER || d->kind == XPP_DSO_VDSO)) {
		in.chain_ip = true;
		in.map_delta = mp->start - mp->pgoff;
	}
	for (int i = 0; i < XPP_VAL_NR; i++)
		if ((want & XPP_HIST_KEY_VAL(i)) && xpp_val_rows[i].get &&
		    (ret = xpp_val_rows[i].get(&in, &k->val[i])) < 0)
			return ret;
	return 0;
}

/*
 * The frames of ip in cpumode into out[] (room for 1 + XPP_SRC_MAX_INLINE): the functions
 * inlined at ip, innermost first (with inline frames), then the interned host frame
 * (dso, symbol), else (dso, ip) or the unmapped ip. perf keys a callchain entry without a
 * symbol by its raw ip (the callchain cursor's), where the sample's own entry has the
 * address in its map (see self_frame()). Their number, or a negative errno.
 * `caller`: ip is a return address (source lines and inline frames are those of the call).
 */
static int frames_of(xpp_profile *p, const struct xpp_thread *th, uint16_t cpumode,
		     uint16_t sample_mode, uint64_t ip, bool caller, uint32_t *out)
{
	uint64_t tag = (uint64_t)th->proc << 17 | (uint64_t)(caller && p->src) << 16 |
		       (uint64_t)sample_mode << 8 | cpumode;
	uint64_t h = xb_hash_add(xb_hash_add(0, tag), ip);
	struct frame_slot *slot = &p->fcache[xb_hash_bits(h, FRAME_CACHE_BITS)];
	struct xpp_src_frames fr = { 0 };
	struct xpp_hist_key k;
	uint64_t addr = 0;
	int64_t id, line;
	int n = 0, ret;

	if (slot->ip == ip && slot->tag == tag && slot->epoch == p->epoch) {
		p->fr_addr = slot->addr;
		p->fr_mapped = slot->mapped;
		if (!slot->list) {
			out[0] = slot->frame;
			return 1;
		}
		n = (int)p->lists.pool[slot->list];
		memcpy(out, p->lists.pool + slot->list + 1, n * sizeof(*out));
		return n;
	}

	xpp_hist_key_init(&k);
	k.level = xpp_level_of(cpumode);
	p->fr_mapped = false;
	p->fr_addr = ip;
	if (xpp_machine_resolve_ip(p->m, th, cpumode, ip, &k.dso, &k.addr)) {
		addr = k.addr;
		p->fr_mapped = true;
		p->fr_addr = addr;
		k.sym = (int32_t)xpp_dso_table_resolve(p->dsos, k.dso, k.addr);
		ret = src_of(p, &k, addr, caller, &fr);
		if (ret < 0)
			return ret;
		if (p->srclines && (!fr.has_lines || fr.lines[0] == XPP_SRC_UNKNOWN) &&
		    (line = fallback_key(p, &k, addr)) >= 0)
			k.srcline = (uint32_t)line;
		k.addr = k.sym >= 0 ? 0 : ip;
	} else {
		/* perf leaves an unmapped entry the level of its sample */
		k.addr = ip;
		k.level = xpp_level_of(sample_mode);
		if (p->srclines && (line = str_key(p, "??:0")) >= 0)
			k.srcline = (uint32_t)line;
	}
	for (uint32_t i = 0; p->inlines && k.sym >= 0 && i < fr.nr_inline; i++) {
		struct xpp_hist_key ik = k;

		ik.inl = fr.names[i] + 1;
		if (p->srclines && (line = line_key(p, fr.lines[i])) >= 0)
			ik.srcline = (uint32_t)line;
		if ((ret = frame_vals(p, &ik, th, cpumode, ip, true)) < 0)
			return ret;
		id = xpp_hist_add_id(p->frames, &ik, 0, 0);
		if (id < 0)
			return (int)id;
		out[n++] = (uint32_t)id;
	}
	if (p->srclines && fr.has_lines && fr.lines[n] != XPP_SRC_UNKNOWN &&
	    (line = line_key(p, fr.lines[n])) >= 0)
		k.srcline = (uint32_t)line;
	if ((ret = frame_vals(p, &k, th, cpumode, ip, true)) < 0)
		return ret;
	id = xpp_hist_add_id(p->frames, &k, 0, 0);
	if (id < 0)
		return (int)id;
	out[n++] = (uint32_t)id;
	*slot = (struct frame_slot){ ip, tag, p->fr_addr, p->epoch, out[n - 1], 0, p->fr_mapped };
	if (n > 1) {
		int64_t off = list_intern(&p->lists, out, (uint32_t)n);

		if (off < 0)
			return (int)off;
		slot->list = (uint32_t)off;
	}
	return n;
}

/* The mode a chain's context marker (ip >= PERF_CONTEXT_MAX) sets; false: one we do not
 * know, which ends the chain. */
static bool context_mode(uint64_t ip, uint16_t *mode)
{
	if (ip == PERF_CONTEXT_HV)
		*mode = PERF_RECORD_MISC_HYPERVISOR;
	else if (ip == PERF_CONTEXT_KERNEL)
		*mode = PERF_RECORD_MISC_KERNEL;
	else if (ip == PERF_CONTEXT_USER)
		*mode = PERF_RECORD_MISC_USER;
	else
		return false;
	return true;
}

/*
 * A hint before a chain's frames are interned (frames_of()): the keys of its ips that the
 * frame cache does not know, made as frames_of() makes them where nothing but the function
 * counts (no inline frames, source lines or frame values), asked for in the frames' index
 * all at once, so that their cache misses overlap where each new frame's waited for the
 * one before (issue 20: a profile of unresolved addresses is millions of new frames, one
 * miss each, 30% of its --no-children view).
 */
static void frames_prefetch(xpp_profile *p, const struct xpp_thread *th, const uint64_t *ips,
			    uint64_t nr, uint16_t sample_mode)
{
	uint16_t mode = PERF_RECORD_MISC_USER;
	unsigned int n = 0;

	/* (tag as frames_of()'s: without source lines, a return address's is the ip's) */
	if (p->inlines || p->srclines || p->src || (p->o.keys & ~p->ctx_keys & ~0xffu))
		return;
	for (uint64_t i = 0; i < nr && n < 16; i++) {
		uint64_t ip = ips[i], tag, h;
		const struct frame_slot *slot;
		struct xpp_hist_key k;

		/* the ips frames_of() resolves next, no others, in its order (DSOs load
		   their symbols at their first one) */
		if (ip >= PERF_CONTEXT_MAX) {
			if (!context_mode(ip, &mode))
				return;
			continue;
		}
		tag = (uint64_t)th->proc << 17 | (uint64_t)sample_mode << 8 | mode;
		h = xb_hash_add(xb_hash_add(0, tag), ip);
		slot = &p->fcache[xb_hash_bits(h, FRAME_CACHE_BITS)];
		if (slot->ip == ip && slot->tag == tag && slot->epoch == p->epoch)
			continue;
		xpp_hist_key_init(&k);
		k.level = xpp_level_of(mode);
		if (xpp_machine_resolve_ip(p->m, th, mode, ip, &k.dso, &k.addr)) {
			k.sym = (int32_t)xpp_dso_table_resolve(p->dsos, k.dso, k.addr);
			k.addr = k.sym >= 0 ? 0 : ip;
		} else {
			k.addr = ip;
			k.level = xpp_level_of(sample_mode);
		}
		xpp_hist_prefetch(p->frames, &k);
		n++;
	}
}

/* Room in the chain scratch for `need` frames after the comm slot; false on ENOMEM. */
static bool chain_room(xpp_profile *p, uint64_t need)
{
	/* the subscribers' frames grow with the chain, from the same capacity to the same */
	uint32_t cap = p->chain_cap, vcap = p->chain_cap;

	if (need >= UINT32_MAX / 8 || XB_ARRAY_RESERVE(p->chain, cap, need + 1, 256) ||
	    (p->o.on_sample && XB_ARRAY_RESERVE(p->vf, vcap, need + 1, 256)))
		return false;
	p->chain_cap = cap;
	return true;
}

/* For subscribers: frames [at, at + n) of the chain scratch came from ip. */
static void view_note(xpp_profile *p, uint32_t at, int n, uint64_t ip)
{
	if (!p->o.on_sample)
		return;
	for (int i = 0; i < n; i++)
		p->vf[at + i] = (struct xpp_view_frame){ ip, p->fr_addr, 0, p->fr_mapped };
}

/*
 * The user frames of a sample with registers and a stack copy, unwound with DWARF CFI as
 * perf's thread__resolve_callchain_unwind does, interned innermost first into the chain
 * scratch from frame *at on (at most max_stack ips, perf's cap for this part, each with its
 * inline frames; *at is moved past them). Returns how many ips; a stack that cannot be
 * unwound gives none and is counted (kernel threads, which have no user stack, are not).
 */
static int unwind_frames(xpp_profile *p, const struct xpp_thread *th, const struct xpf_sample *s,
			 uint16_t sample_mode, uint32_t max_stack, uint32_t *at)
{
	int n;

	if (!s->user_regs.abi && sample_mode != PERF_RECORD_MISC_USER)
		return 0;
	p->unwind.samples++;
	if (!p->unwinder && !p->unwind_err) {
		int ret = xpp_unwinder_create(&p->unwinder, p->m, p->dsos, p->o.debug_root,
					      p->debuginfod);

		if (ret == -ENOMEM)
			return ret;
		p->unwind_err = ret;
		if (!ret && !(p->unwind_ips = malloc(max_stack * sizeof(*p->unwind_ips))))
			return -ENOMEM;
	}
	if (!p->unwinder) {
		p->unwind.unsupported++;
		return 0;
	}
	n = xpp_unwind_user(p->unwinder, th, s, p->unwind_ips, max_stack);
	if (n == -ENOMEM)
		return n;
	if (n <= 0)
		p->unwind.failed++;
	/* perf's chain of a stack it could not unwind is the registers' ip, kernel samples' too */
	if (n == 0)
		n = 1;
	else if (n < 0)
		return 0;
	/* the unwinder gives callers at their call instruction already */
	for (int i = 0; i < n; i++) {
		int ret;

		if (!chain_room(p, (uint64_t)*at + 1 + (p->inlines ? XPP_SRC_MAX_INLINE : 0)))
			return -ENOMEM;
		ret = frames_of(p, th, PERF_RECORD_MISC_USER, sample_mode, p->unwind_ips[i], false,
				p->chain + 1 + *at);
		if (ret < 0)
			return ret;
		view_note(p, *at, ret, p->unwind_ips[i]);
		*at += (uint32_t)ret;
	}
	return n;
}

/*
 * perf's level of an entry without a map: the level of the entry before it in the order
 * perf walks the chain (its cursor's: outermost first in caller order), the first one's
 * the sample's (fill_callchain_info() leaves the level of the addr_location it reuses). So
 * a garbage frame pointer past a kernel sample's user frames is [.], and one walked before
 * them [k]. Frames f[0..n) are innermost first; the unmapped ones are re-keyed.
 */
static int chain_levels(xpp_profile *p, uint32_t *f, uint32_t n, uint16_t sample_mode)
{
	uint32_t prev = xpp_level_of(sample_mode);
	size_t nr;
	const struct xpp_hist_rec *r = xpp_hist_recs(p->frames, &nr);

	for (uint32_t j = 0; j < n; j++) {
		uint32_t i = p->order == 1 ? n - 1 - j : j;
		struct xpp_hist_key k;
		int64_t id;

		/* the frame's fields in place: its whole key (216 bytes) only to re-key it */
		if (r[f[i]].dso != XPP_HIST_NO_DSO) {
			prev = r[f[i]].level;
			continue;
		}
		if (r[f[i]].level == prev)
			continue;
		k = xpp_hist_key_at(p->frames, f[i]);
		k.level = prev;
		id = xpp_hist_add_id(p->frames, &k, 0, 0);
		if (id < 0)
			return (int)id;
		f[i] = (uint32_t)id;
		r = xpp_hist_recs(p->frames, &nr); /* (an add may move them) */
	}
	return 0;
}

/*
 * Resolve the sample's callchain into the chain scratch from chain + 1, innermost first;
 * *out_n frames, of which the first *out_view are the chain proper (subscribers see those;
 * the rest is a sample's own ip standing in for a chain that gave nothing; for a DWARF
 * sample, as perf script shows it, that ip is its chain).
 * Context markers switch the mode of the entries after them, as perf reads them; an
 * unknown marker drops the chain (perf resets its cursor). The chain is cut to max_stack
 * ips (with their inline frames) from the end perf starts at (the outermost in caller
 * order; none with perf's --max-stack 0). The first entry of each context is where that
 * context was interrupted; the others are return addresses. A DWARF sample's user frames
 * follow the callchain's (kernel) part, each part cut on its own, as perf joins them; one
 * whose stack could not be unwound keeps its own ip.
 */
static int resolve_chain(xpp_profile *p, const struct xpp_thread *th, const struct xpf_sample *s,
			 uint16_t sample_mode, uint32_t *out_n, uint32_t *out_view)
{
	uint64_t nr = (s->type & PERF_SAMPLE_CALLCHAIN) ? s->callchain.nr : 0;
	uint32_t max_stack = !p->o.max_stack ? MAX_STACK :
			     p->o.max_stack == XPP_MAX_STACK_NONE ? 0 : p->o.max_stack;
	uint32_t per_ip = 1 + (p->inlines ? XPP_SRC_MAX_INLINE : 0);
	uint16_t mode = PERF_RECORD_MISC_USER;
	bool dwarf = xpp_unwind_wanted(s->type);
	uint32_t n = 0, nips = 0, *f;
	bool first = true;
	int ret;

	if (nr > UINT32_MAX / 8 || XB_ARRAY_RESERVE(p->ip_at, p->ip_at_cap, nr + 1, 256))
		return -ENOMEM;
	frames_prefetch(p, th, s->callchain.ips, nr, sample_mode);
	/* frames innermost first from chain[1]; the comm goes in front at the end */
	for (uint64_t i = 0; i < nr; i++) {
		uint64_t ip = s->callchain.ips[i];

		if (ip >= PERF_CONTEXT_MAX) {
			if (!context_mode(ip, &mode)) {
				n = nips = 0;
				break;
			}
			first = true;
			continue;
		}
		if (!chain_room(p, (uint64_t)n + per_ip))
			return -ENOMEM;
		p->ip_at[nips++] = n;
		ret = frames_of(p, th, mode, sample_mode, ip, !first, p->chain + 1 + n);
		if (ret < 0)
			return ret;
		view_note(p, n, ret, ip);
		n += (uint32_t)ret;
		first = false;
	}
	p->chain_cut = nips > max_stack;
	if (nips > max_stack) {
		f = p->chain + 1; /* nips > 0: the scratch exists (a chain of none leaves it NULL) */
		if (!max_stack) {
			n = 0;
		} else if (p->order == 0) {
			n = p->ip_at[max_stack];
		} else {
			/* the outermost kept: move them to the front, the unwound frames follow */
			uint32_t from = p->ip_at[nips - max_stack];

			n -= from;
			memmove(f, f + from, n * sizeof(*f));
			if (p->o.on_sample)
				memmove(p->vf, p->vf + from, n * sizeof(*p->vf));
		}
	}
	if (dwarf && max_stack) {
		int u = unwind_frames(p, th, s, sample_mode, max_stack, &n);

		if (u < 0)
			return u;
	}
	*out_view = n;
	if (!n && (!nr || dwarf) && max_stack) {
		if (!chain_room(p, per_ip))
			return -ENOMEM;
		ret = frames_of(p, th, sample_mode, sample_mode, s->ip, false, p->chain + 1);
		if (ret < 0)
			return ret;
		n = (uint32_t)ret;
		/* perf script shows a DWARF sample whose stack gave nothing by its own ip */
		if (dwarf) {
			view_note(p, 0, ret, s->ip);
			*out_view = n;
		}
	}
	if ((ret = chain_levels(p, p->chain + 1, n, sample_mode)) < 0)
		return ret;
	*out_n = n;
	return 0;
}

/*
 * Whether frame f stands for the sample's own entry k: the same function (or address) at
 * the same level; its inline frames and source lines are the view's to weigh.
 */
static bool is_self(const xpp_profile *p, uint32_t f, const struct xpp_hist_key *k)
{
	size_t n;
	const struct xpp_hist_rec *fk = &xpp_hist_recs(p->frames, &n)[f];

	/* and the same frame values (a callchain entry's addr is perf's, see frame_vals()) */
	for (int i = 0; i < XPP_VAL_NR; i++)
		if (!(p->ctx_keys & XPP_HIST_KEY_VAL(i)) &&
		    (fk->vals ? xpp_hist_val_at(p->frames, f, i) : 0) != k->val[i])
			return false;
	/* perf tells entries without a map apart by address alone (chain_levels()) */
	return fk->dso == k->dso && fk->sym == k->sym && fk->addr == k->addr &&
	       (fk->level == k->level || fk->dso == XPP_HIST_NO_DSO);
}

/*
 * Add the resolved chain (n frames, innermost first) to the event's tree as comm, then
 * frames outermost first. perf charges the sample's self time to its own entry `self` (the
 * flat hist's key), not to the chain's innermost frame: when they differ (a chain cut at
 * max_stack in caller order, an unresolved ip keyed by address), the sample goes to the
 * event's `own` too (see struct xpp_event).
 */
static int add_callchain(xpp_profile *p, struct xpp_event *e, uint32_t root, uint32_t n,
			 uint64_t period, uint64_t count, const struct xpp_hist_key *self,
			 uint32_t tid,
			 struct xpp_sample_answer *ans)
{
	uint32_t *f;
	bool own;
	struct xpp_hist_key ok, k0 = *self;
	int64_t id, leaf;

	if ((!e->cg && !(e->cg = xpp_cg_create())) || !chain_room(p, n))
		return -ENOMEM;
	f = p->chain + 1; /* a chain that gave no frame may have left no scratch */
	own = !n || !is_self(p, f[0], self);
	/* reverse to outermost first, the comm before them */
	for (uint32_t i = 0; i < n / 2; i++) {
		uint32_t t = f[i];

		f[i] = f[n - 1 - i];
		f[n - 1 - i] = t;
	}
	f[-1] = root;
	/* a new path keeps its first sample's thread: perf's entries compare theirs
	   (hist_entry->thread) before their depths (view/entries.c) */
	xpp_cg_set_tag(e->cg, tid + 1, p->cur_seq);
	leaf = xpp_cg_add_path(e->cg, f - 1, n + 1, period, count);
	ans->leaf = leaf;
	if (leaf < 0 || !own)
		return leaf < 0 ? (int)leaf : 0;
	xpp_hist_key_mask(&k0, ~(XPP_HIST_KEY_COMM | p->ctx_keys));
	id = xpp_hist_add_id(p->frames, &k0, 0, 0);
	if (id < 0 || (!e->own && !(e->own = xpp_hist_create())))
		return id < 0 ? (int)id : -ENOMEM;
	xpp_hist_key_init(&ok);
	ok.addr = XPP_OWN_KEY(leaf, id);
	ans->own = xpp_hist_add_id(e->own, &ok, period, count);
	return ans->own < 0 ? (int)ans->own : 0;
}

/*
 * An attr with callchains turns the call-graph views on, as perf does for such files:
 * children unless --no-children, caller order with children and callee without. A pipe
 * stream brings its attrs `late` (this runs for each sample's attr too): perf has chosen
 * its view by then, so children only when asked for; its order was set with the children
 * it meant to show, before it knew there are none: callee with --no-children, else caller.
 */
static void callchains_seen(xpp_profile *p, const struct xpf_attr *a, bool late)
{
	if (p->callchains || !a || !(a->attr.sample_type & PERF_SAMPLE_CALLCHAIN))
		return;
	p->callchains = true;
	p->epoch++; /* samples are charged otherwise from now on */
	p->children = late ? p->o.children == 1 : p->o.children != 0;
	if (p->order < 0)
		p->order = late ? p->o.children != 0 : p->children;
}

/* The source line of a sample's own ip (k resolved, k->addr its DSO address) into k. */
static int sample_srcline(xpp_profile *p, struct xpp_hist_key *k)
{
	struct xpp_src_frames fr;
	int64_t line;
	int ret = src_of(p, k, k->addr, false, &fr);

	if (ret < 0)
		return ret;
	line = fr.has_lines && fr.lines[0] != XPP_SRC_UNKNOWN ? line_key(p, fr.lines[0]) :
								   fallback_key(p, k, k->addr);
	if (line < 0)
		return (int)line;
	k->srcline = (uint32_t)line;
	return 0;
}

/*
 * opts.stream: the frames so far were the subscriber's, who read them in its calls: they
 * go, and with them the lists and cached answers that name them (a table of every frame
 * met grew 80 bytes a distinct frame, without bound: issue 20). Cleared, not freed, the
 * table costs no more than it did filled: its memory stays for the next ones.
 */
static void frames_restart(xpp_profile *p)
{
	struct xb_slots *li = &p->lists.index;

	xpp_hist_clear(p->frames);
	p->lists.nr = 0;
	if (li->nslots)
		memset(li->slot, 0, li->nslots * sizeof(*li->slot));
	p->epoch++; /* the frame cache's slots name frames that are gone */
}

/* Hand a resolved sample to the subscriber: the chain's nview frames from the scratch. */
static int view_sample(xpp_profile *p, const struct xpf_attr *a, const struct xpf_sample *s,
		       const struct xpp_thread *th, uint16_t cpumode, uint64_t period,
		       const struct xpp_view_frame *self, uint32_t nview)
{
	struct xpp_sample_view v = {
		.s = s, .attr = a, .event = p->last_idx, .comm = th->comm, .cpumode = cpumode,
		.period = period, .self = *self, .chain = (s->type & PERF_SAMPLE_CALLCHAIN) != 0,
		.nr_frames = nview, .frames = p->vf,
	};

	for (uint32_t i = 0; i < nview; i++)
		p->vf[i].frame = p->chain[1 + i];
	return p->o.on_sample(p->o.hook_ctx, &v);
}

/* keep_addrs: one more self sample at (dso, addr) of event idx: its entry, or -ENOMEM. */
static int64_t add_addr(xpp_profile *p, uint32_t idx, uint32_t dso, uint64_t addr,
			uint64_t period)
{
	struct xpp_hist_key k = { .addr = addr, .dso = dso };

	if (idx >= p->nr_addrs && XB_ARRAY_RESERVE0(p->addrs, p->nr_addrs, (size_t)idx + 1, 4))
		return -ENOMEM;
	struct addr_hist *a = &p->addrs[idx];
	int64_t e;

	if (a->h && a->last_addr == addr && a->last_dso == dso) {
		struct xpp_hist_rec *ent = &xpp_hist_recs(a->h, &(size_t){ 0 })[a->last_entry];

		ent->period += period;
		ent->nr_samples++;
		return a->last_entry;
	}
	if (!a->h && !(a->h = xpp_hist_create()))
		return -ENOMEM;
	e = xpp_hist_add_id(a->h, &k, period, 1);
	if (e < 0)
		return e;
	a->last_addr = addr;
	a->last_dso = dso;
	a->last_entry = (uint32_t)e;
	return e;
}

/*
 * A sample that cannot be decoded is counted, never dropped in silence (DESIGN 1.3): the
 * view says how many and where the first one (in file order) is, and why.
 */
static void undecodable(xpp_profile *p, uint64_t pos, const char *why)
{
	struct xpp_undecodable *u = &p->undecodable;

	if (!u->nr++ || pos < u->first_offset) {
		u->first_offset = pos;
		snprintf(u->reason, sizeof(u->reason), "%.*s", (int)sizeof(u->reason) - 1, why);
	}
}

/*
 * The parent of a chain (n frames innermost first in the chain scratch): the first frame
 * whose symbol matches -p, from the end the order starts at, as perf's callchain walk
 * meets them. 0 (perf's [other]) or 1 + the string id of its name; a negative errno.
 */
static int64_t chain_parent(xpp_profile *p, uint32_t n)
{
	const uint32_t *f = p->chain + 1;

	for (uint32_t j = 0; j < n; j++) {
		uint32_t fr = f[p->order == 1 ? n - 1 - j : j];

		if (XB_ARRAY_RESERVE0(p->frame_parent, p->frame_parent_cap, (size_t)fr + 1, 256))
			return -ENOMEM;
		if (!p->frame_parent[fr]) {
			const struct xpp_hist_key k = xpp_hist_key_at(p->frames, fr);
			const char *name = k.inl ? NULL : xpp_profile_sym_name(p, &k);
			int64_t id = 0;

			if (name && !regexec(&p->parent_re, name, 0, NULL, 0) &&
			    (id = str_key(p, name)) < 0)
				return id;
			p->frame_parent[fr] = id ? (uint32_t)id + 1 : 1;
		}
		if (p->frame_parent[fr] > 1)
			return p->frame_parent[fr] - 1;
	}
	return 0;
}

/*
 * --hide-unresolved: the chain's frames without a symbol go, as perf skips them. *n frames
 * of which the first *nview are the chain proper (see resolve_chain()): both recounted.
 */
static void chain_resolved(xpp_profile *p, uint32_t *n, uint32_t *nview)
{
	uint32_t *f = p->chain + 1, m = 0, mview = 0;
	size_t nr;
	const struct xpp_hist_rec *fe = xpp_hist_recs(p->frames, &nr);

	for (uint32_t i = 0; i < *n; i++) {
		if (fe[f[i]].sym < 0)
			continue;
		f[m++] = f[i];
		mview += i < *nview;
	}
	*n = m;
	*nview = mview;
}

/* The first level of the sample's path in the trees: its comm, or its context (opts.keys). */
static int64_t path_root(xpp_profile *p, const struct xpp_hist_key *k)
{
	struct xpp_hist_key ck;

	if (!p->ctxs)
		return k->comm;
	xpp_hist_key_init(&ck);
	ck.comm = k->comm;
	for (int i = 0; i < XPP_VAL_NR; i++)
		if (p->ctx_keys & XPP_HIST_KEY_VAL(i))
			ck.val[i] = k->val[i];
	return xpp_hist_add_id(p->ctxs, &ck, 0, 0);
}

/*
 * opts.entry_addrs: the sample into the event's hist, and addr if it made a new entry.
 * The entry, or -ENOMEM.
 */
static int64_t add_first(struct xpp_event *e, const struct xpp_hist_key *k, uint64_t period,
			 uint64_t addr)
{
	size_t nr;
	int64_t id;

	nr = xpp_hist_nr(e->h);
	id = xpp_hist_add_id(e->h, k, period, 1);
	if (id < 0 || (size_t)id < nr)
		return id;
	if (XB_ARRAY_RESERVE(e->first_addr, e->first_cap, (size_t)id + 1, 256))
		return -ENOMEM;
	e->first_addr[id] = addr;
	return id;
}

/* One more sample in the hist entry `id` of h. */
static void bump(xpp_hist *h, int64_t id, uint64_t period)
{
	struct xpp_hist_rec *ent = &xpp_hist_recs(h, &(size_t){ 0 })[id];

	ent->period += period;
	ent->nr_samples++;
}

/* A sample like one charged before in this epoch: charged the same way, nothing resolved. */
static int charge_again(xpp_profile *p, struct xpp_event *e, const struct xpp_sample_answer *a,
			uint64_t period)
{
	int ret;

	if (a->addr_entry >= 0)
		bump(p->addrs[p->last_idx].h, a->addr_entry, period);
	if (a->leaf >= 0 && (ret = (int)xpp_cg_add_self(e->cg, (uint32_t)a->leaf, period, 1)) < 0)
		return ret;
	if (a->own >= 0)
		bump(e->own, a->own, period);
	if (a->flat >= 0)
		bump(e->h, a->flat, period);
	return 0;
}

/* Count a sample meeting filter f (enum xpp_filter_kind): whether the filter keeps it. */
static inline bool filter_keeps(xpp_profile *p, int f, bool pass)
{
	p->filter_met[f]++;
	p->filter_dropped[f] += !pass;
	return pass;
}

/* perf's --time string s into t, its percentages of the file's first to last sample. */
static int parse_times(const xpp_profile *p, const char *s, struct xpp_time_ranges *t,
		       struct xb_error *err)
{
	const struct xpf_features *f = xpf_reader_features(p->r);

	return xpp_time_ranges_parse(t, s, f->sample_time_first, f->sample_time_last,
				     xpf_features_has(f, XPF_FEAT_SAMPLE_TIME) &&
				     (f->sample_time_first || f->sample_time_last), err);
}

/*
 * perf's "File does not contain CPU events": --cpu asks for a field the file's samples do
 * not have, which would drop every sample in silence.
 */
static int no_cpu_field(struct xb_error *err)
{
	return xb_error_set(err, -EINVAL, "cannot filter by cpu: the file does not contain "
			    "CPU events (recorded without the samples' cpu); remove --cpu/-C");
}

/* opts.keep_samples: one more sample of a shape in the log (a full log keeps nothing). */
static inline int log_sample(xpp_profile *p, uint32_t shape, const struct xpf_sample *s,
		      uint64_t period)
{
	int ret = xpp_log_sample(p->log, shape, s->cpu, s->time, period);

	return ret == -E2BIG ? 0 : ret;
}

/*
 * opts.keep_samples: a sample of event p->last_idx and thread (pid, tid) that a filter
 * dropped (why: enum xpp_log_drop), logged all the same (sample_log.h). Returns what
 * add_sample() returns for a dropped sample: 0, or -ENOMEM.
 */
static int log_drop(xpp_profile *p, uint8_t why, const struct xpf_sample *s, int32_t pid,
		    int32_t tid, uint64_t period)
{
	int64_t id;

	if (!p->log)
		return 0;
	id = xpp_log_drop_shape(p->log, p->last_idx, why, pid, tid, s->type);
	if (id == -E2BIG)
		return 0;
	if (id < 0)
		return (int)id;
	return log_sample(p, (uint32_t)id, s, period);
}

/*
 * opts.keep_samples: a sample resolved (k its own key, the chain's n frames in the scratch,
 * nview of them the chain proper): a new shape in the log, and the sample.
 */
static int log_shape(xpp_profile *p, const struct xpp_hist_key *k, const struct xpp_thread *th,
		     const struct xpf_sample *s, uint16_t cpumode, uint64_t addr, bool mapped,
		     bool resolved, uint32_t n, uint32_t nview, uint64_t period,
		     struct xpp_sample_answer *ans)
{
	struct xpp_log_shape sh = {
		.k = *k, .sample_type = s->type, .first_addr = addr, .event = p->last_idx,
		.nview = nview, .pid = th->pid, .tid = th->tid, .cpumode = cpumode,
		.cut = resolved && p->chain_cut, .mapped = mapped,
	};
	int64_t id;

	if (p->callchains && !resolved && (s->type & PERF_SAMPLE_CALLCHAIN))
		p->log->unresolved = true;
	p->log->cut |= sh.cut;
	id = xpp_log_shape(p->log, &sh, resolved && n ? p->chain + 1 : NULL, resolved ? n : 0);
	if (id == -E2BIG)
		return 0;
	if (id < 0)
		return (int)id;
	ans->shape = id;
	return log_sample(p, (uint32_t)id, s, period);
}

static int add_sample(xpp_profile *p, const struct perf_event_header *hdr, uint64_t pos)
{
	const struct xpf_attr *a = xpf_reader_attr_of(p->r, hdr);
	struct xpp_event *e;
	struct xpf_sample s;
	struct xpp_hist_key k;
	struct xpp_thread *th;
	uint16_t cpumode = hdr->misc & PERF_RECORD_MISC_CPUMODE_MASK;
	struct xpp_view_frame self = { 0 };
	uint32_t n = 0, nview = 0;
	uint64_t period, rel = 0;
	int64_t line;
	bool tree, parent, mapped = false, cacheable, decoded, resolved = false;
	struct xpf_sample_fixed fixed;
	struct xpp_sample_key ckey;
	struct xpp_sample_answer ans = { -1, -1, -1, -1, -1 };
	int ret;

	if (!a) {
		const struct xpf_attr *a0 = xpf_reader_attr(p->r, 0);
		uint64_t id = 0;
		char why[64];

		if (a0)
			xpf_record_id(a0->attr.sample_type, a0->attr.sample_id_all, hdr, &id);
		snprintf(why, sizeof(why), "id %llu matches no event", (unsigned long long)id);
		undecodable(p, pos, why);
		return 0;
	}
	/* perf drops samples out of --time's ranges before it counts them */
	if (p->times.nr) {
		uint64_t t;

		if (xpf_record_time(a->attr.sample_type, a->attr.sample_id_all, hdr, &t) &&
		    !filter_keeps(p, XPP_FILTER_TIME, !xpp_time_ranges_skip(&p->times, t)))
			return 0;
	}
	if (!p->callchains)
		callchains_seen(p, a, true);
	/* subscribers see every frame, and a DWARF sample's stack is its own */
	cacheable = p->scache && !p->o.on_sample && !p->o.mem_mode &&
		    !xpp_unwind_wanted(a->attr.sample_type);
	/*
	 * A sample the cache may answer needs its fixed words only, and nearly every one is
	 * answered (a profiled loop repeats itself): the whole sample is decoded on a miss.
	 * Another layout, or a broken record, takes the careful decoding at once.
	 */
	decoded = !cacheable || !xpf_sample_decode_fixed(a->attr.sample_type, hdr, &fixed);
	if (decoded) {
		ret = xpf_sample_decode(&a->attr, hdr, &s, &p->err);
		if (ret < 0) {
			undecodable(p, pos, p->err.msg);
			p->err.msg[0] = 0;
			return 0;
		}
	} else {
		s.type = a->attr.sample_type;
		s.ip = fixed.ip;
		s.pid = fixed.pid;
		s.tid = fixed.tid;
		s.cpu = fixed.cpu;
		s.time = fixed.time;
		s.addr = fixed.addr;
		s.period = fixed.period;
		s.callchain.nr = fixed.nr;
		s.callchain.ips = fixed.ips;
	}
	/* the recording's bounds, as the timeline takes them from the log */
	if (p->log && (s.type & PERF_SAMPLE_TIME)) {
		struct xpp_sample_log *l = p->log;

		if (!l->timed || s.time < l->first_time)
			l->first_time = s.time;
		if (!l->timed || s.time > l->max_time)
			l->max_time = s.time;
		l->timed = true;
	}
	/* perf drops these before it counts the sample */
	if (p->cpu_filter.nr) {
		if (!(s.type & PERF_SAMPLE_CPU))
			return no_cpu_field(&p->err);
		if (!filter_keeps(p, XPP_FILTER_CPU,
				  xpp_int_list_has(&p->cpu_filter, (int32_t)s.cpu)))
			return p->log && event_idx(p, a) ?
			       log_drop(p, XPP_DROP_CPU, &s, (int32_t)s.pid, (int32_t)s.tid, 0) : 0;
	}
	e = event_of(p, a);
	if (!e)
		return p->last_skip ? 0 : -ENOMEM;
	period = (s.type & PERF_SAMPLE_PERIOD) ? s.period :
		 a->attr.freq ? 1 : a->attr.sample_period;
	/* perf's iter_add_single_mem_entry(): the weight, or 1 */
	if (p->o.mem_mode)
		period = (s.type & (PERF_SAMPLE_WEIGHT | PERF_SAMPLE_WEIGHT_STRUCT)) && s.weight ?
			 s.weight : 1;
	e->nr_samples++;
	e->total_period += period;
	tree = p->callchains && (p->children || !p->o.no_chains);
	parent = p->parent_re_set && p->callchains;
	if (cacheable) {
		const struct xpp_sample_answer *hit;

		struct xpp_val_in in = { .p = p, .s = &s };

		ckey.attr = a;
		ckey.pid = s.pid;
		ckey.tid = s.tid;
		ckey.ip = s.ip;
		ckey.cpumode = cpumode;
		ckey.nr = 0;
		ckey.ips = NULL;
		/* the values a sample's own fields give: samples alike but for them are not */
		ckey.nr_vals = p->nr_cache_vals;
		for (uint32_t i = 0; i < p->nr_cache_vals; i++)
			xpp_val_rows[p->cache_vals[i]].get(&in, &ckey.vals[i]);
		/* the chain is part of the key where it is charged or names the parent, not in
		 * annotate's pass */
		if ((tree || parent) && !p->o.addrs_only && (s.type & PERF_SAMPLE_CALLCHAIN)) {
			ckey.nr = (uint32_t)(s.callchain.nr > UINT32_MAX ? UINT32_MAX : s.callchain.nr);
			ckey.ips = s.callchain.ips;
		}
		hit = xpp_sample_cache_find(p->scache, p->epoch, &ckey);
		if (hit) {
			p->charged++;
			if (p->log && hit->shape >= 0 &&
			    (ret = log_sample(p, (uint32_t)hit->shape, &s, period)) < 0)
				return ret;
			return charge_again(p, e, hit, period);
		}
		/*
		 * A miss (rare): the whole sample. Filled here from `fixed` by a call, the
		 * fixed words would have to live in memory on every sample, which cost the
		 * pass 20% more CPU; decoding the record again costs only the misses.
		 */
		if (!decoded && (ret = xpf_sample_decode(&a->attr, hdr, &s, &p->err)) < 0) {
			undecodable(p, pos, p->err.msg);
			p->err.msg[0] = 0;
			return 0;
		}
	}

	th = xpp_machine_thread(p->m, (int32_t)s.pid, (int32_t)s.tid);
	if (!th)
		return -ENOMEM;
	self.ip = self.addr = s.ip;
	xpp_hist_key_init(&k);
	k.comm = th->comm;
	k.level = xpp_level_of(cpumode);
	if (p->comm_filter.list.nr &&
	    !filter_keeps(p, XPP_FILTER_COMMS, xpp_filter_pass(&p->comm_filter, k.comm,
							xpp_intern_str(p->comms, k.comm))))
		return log_drop(p, XPP_DROP_COMMS, &s, th->pid, th->tid, period);
	if (p->pid_filter.nr &&
	    !filter_keeps(p, XPP_FILTER_PID, xpp_int_list_has(&p->pid_filter, th->pid)))
		return log_drop(p, XPP_DROP_PID, &s, th->pid, th->tid, period);
	if (p->tid_filter.nr &&
	    !filter_keeps(p, XPP_FILTER_TID, xpp_int_list_has(&p->tid_filter, th->tid)))
		return log_drop(p, XPP_DROP_TID, &s, th->pid, th->tid, period);
	if (p->ctx_keys) {
		struct xpp_val_in in = { .p = p, .s = &s, .th = th, .cpumode = cpumode };

		for (int i = 0; i < XPP_VAL_NR; i++)
			if ((p->ctx_keys & XPP_HIST_KEY_VAL(i)) && xpp_val_rows[i].get &&
			    (ret = xpp_val_rows[i].get(&in, &k.val[i])) < 0)
				return ret;
	}
	if (xpp_machine_resolve_ip(p->m, th, cpumode, s.ip, &k.dso, &k.addr)) {
		self = (struct xpp_view_frame){ s.ip, k.addr, 0, true };
		mapped = true;
		rel = k.addr;
		if (!p->o.addrs_only) {
			k.sym = (int32_t)xpp_dso_table_resolve(p->dsos, k.dso, k.addr);
			if (p->srclines) {
				ret = sample_srcline(p, &k);
				if (ret < 0)
					return ret;
			}
		}
		if (k.sym >= 0)
			k.addr = 0;
	} else {
		k.addr = s.ip;
		if (p->srclines && (line = str_key(p, "??:0")) >= 0)
			k.srcline = (uint32_t)line;
	}
	if (!p->o.addrs_only && (ret = frame_vals(p, &k, th, cpumode, s.ip, false)) < 0)
		return ret;
	if (p->dso_filter.list.nr &&
	    !filter_keeps(p, XPP_FILTER_DSOS,
			  xpp_filter_pass(&p->dso_filter, k.dso, xpp_profile_dso_name(p, &k))))
		return log_drop(p, XPP_DROP_DSOS, &s, th->pid, th->tid, period);
	if (p->o.hide_unresolved && k.sym < 0 && !p->o.addrs_only) {
		e->nr_samples--; /* out of the totals too, as perf */
		e->total_period -= period;
		return log_drop(p, XPP_DROP_UNRESOLVED, &s, th->pid, th->tid, period);
	}
	if (p->sym_filter.list.nr &&
	    !filter_keeps(p, XPP_FILTER_SYMBOLS, xpp_filter_pass(&p->sym_filter, UINT32_MAX,
							     xpp_profile_sym_name(p, &k))))
		return log_drop(p, XPP_DROP_SYMBOLS, &s, th->pid, th->tid, period);
	if (p->hide_filter.list.nr && k.sym >= 0 && cpumode != PERF_RECORD_MISC_USER &&
	    xpp_filter_pass(&p->hide_filter, UINT32_MAX, xpp_profile_sym_name(p, &k))) {
		e->nr_samples--; /* never counted, as perf top's idle samples */
		e->total_period -= period;
		return log_drop(p, XPP_DROP_IDLE, &s, th->pid, th->tid, period);
	}
	if ((p->o.keys & (XPP_HIST_KEY_VAL(XPP_VAL_DADDR) | XPP_HIST_KEY_VAL(XPP_VAL_PHYS) |
			  XPP_HIST_KEY_VAL(XPP_VAL_DCACHELINE))) &&
	    (ret = xpp_vals_note_first(p, &k)) < 0)
		return ret;
	if (p->o.keep_addrs && mapped) {
		ans.addr_entry = add_addr(p, p->last_idx, k.dso, rel, period);
		if (ans.addr_entry < 0)
			return (int)ans.addr_entry;
	}
	if (p->o.addrs_only) {
		p->charged++;
		if (cacheable)
			xpp_sample_cache_put(p->scache, p->epoch, &ckey, &ans);
		return 0;
	}
	if (tree || (p->callchains && (p->o.on_sample || parent))) {
		resolved = true;
		ret = resolve_chain(p, th, &s, cpumode, &n, &nview);
		if (ret < 0)
			return ret;
		if (p->o.hide_unresolved)
			chain_resolved(p, &n, &nview);
	}
	if (p->parent_re_set) {
		int64_t id = parent ? chain_parent(p, nview) : 0;

		if (id < 0)
			return (int)id;
		if (p->o.exclude_other && !id)
			return log_drop(p, XPP_DROP_NO_PARENT, &s, th->pid, th->tid, period);
		if (p->o.keys & XPP_HIST_KEY_PARENT)
			k.val[XPP_VAL_PARENT] = (uint64_t)id;
	}
	if (p->log) {
		ret = log_shape(p, &k, th, &s, cpumode, mapped ? rel : s.ip, mapped, resolved, n,
				nview, period, &ans);
		if (ret < 0)
			return ret;
	}
	if (p->o.on_sample) {
		struct xpp_hist_key fk = k;
		int64_t id;

		xpp_hist_key_mask(&fk, ~(XPP_HIST_KEY_COMM | p->ctx_keys));
		if ((id = xpp_hist_add_id(p->frames, &fk, 0, 0)) < 0)
			return (int)id;
		self.frame = (uint32_t)id;
		ret = view_sample(p, a, &s, th, cpumode, period, &self, nview);
		if (ret < 0)
			return ret;
		if (p->o.stream) {
			/* charged to nothing: the subscriber had all there is of it */
			p->charged++;
			if (xpp_hist_nr(p->frames) >= XPP_STREAM_FRAMES)
				frames_restart(p);
			return 0;
		}
	}
	if (tree) {
		int64_t root = path_root(p, &k);

		if (root < 0)
			return (int)root;
		ret = add_callchain(p, e, (uint32_t)root, n, period, 1, &k, (uint32_t)s.tid, &ans);
		if (ret < 0)
			return ret;
	}
	if (p->o.entry_addrs)
		ans.flat = add_first(e, &k, period, mapped ? rel : s.ip);
	else
		ans.flat = xpp_hist_add_id(e->h, &k, period, 1);
	if (ans.flat < 0)
		return (int)ans.flat;
	p->charged++;
	if (cacheable)
		xpp_sample_cache_put(p->scache, p->epoch, &ckey, &ans);
	return 0;
}

/* A sample put aside, charged now: its place among the samples is the one it came at. */
static int add_sample_cb(void *ctx, const struct perf_event_header *hdr, uint64_t pos)
{
	xpp_profile *p = ctx;

	if (p->aside_next < p->aside_nr)
		p->cur_seq = p->aside_seq[p->aside_next++];
	return add_sample(p, hdr, pos);
}

/* The samples put aside, charged in the order they came. */
static int drain_aside(xpp_profile *p)
{
	int ret = xpp_stash_drain(&p->kaside, add_sample_cb, p);

	p->aside_nr = p->aside_next = 0;
	return ret;
}

/*
 * The kernel's symbols are read on another thread (kallsyms: tens of ms, nearly all in the
 * kernel). Rather than wait for them at the first kernel sample, the pass puts kernel
 * samples aside and goes on with the others; those put aside are charged as soon as the
 * symbols are there, before the model next changes (so each meets the threads and maps of
 * its time) and at the end. No total depends on the order samples are charged in;
 * subscribers see samples one by one, in order, so nothing is put aside for them.
 */
static int sample_or_aside(xpp_profile *p, const struct perf_event_header *hdr, uint64_t pos)
{
	int ret;

	uint64_t seq = p->sample_seq++;

	if (p->kaside.len && !xpp_dso_table_kernel_pending(p->dsos) &&
	    (ret = drain_aside(p)) < 0)
		return ret;
	if ((hdr->misc & PERF_RECORD_MISC_CPUMODE_MASK) != PERF_RECORD_MISC_USER &&
	    !p->o.on_sample && !p->o.on_side_band && xpp_dso_table_kernel_pending(p->dsos)) {
		if (XB_ARRAY_RESERVE(p->aside_seq, p->aside_cap, p->aside_nr + 1, 256))
			return -ENOMEM;
		p->aside_seq[p->aside_nr++] = seq;
		return xpp_stash_put(&p->kaside, hdr, pos);
	}
	p->cur_seq = seq;
	return add_sample(p, hdr, pos);
}

static int deliver(void *ctx, const struct perf_event_header *hdr, uint64_t pos)
{
	xpp_profile *p = ctx;
	int ret;

	if (hdr->type == PERF_RECORD_SAMPLE)
		return sample_or_aside(p, hdr, pos);
	/* lost records and context switches (thousands a second) change no thread or map:
	   the cache stays */
	if (hdr->type == PERF_RECORD_LOST_SAMPLES || hdr->type == PERF_RECORD_LOST ||
	    hdr->type == PERF_RECORD_SWITCH || hdr->type == PERF_RECORD_SWITCH_CPU_WIDE)
		return p->o.on_side_band ? p->o.on_side_band(p->o.hook_ctx, hdr) : 0;
	/* the samples put aside belong before the change */
	if (p->kaside.len && (ret = drain_aside(p)) < 0)
		return ret;
	p->epoch++; /* maps may change: the frame cache starts over */
	if (p->o.keys && (ret = xpp_vals_side_band(p, hdr)) < 0)
		return ret;
	ret = xpp_machine_apply(p->m, hdr);
	if (ret < 0 || !p->o.on_side_band)
		return ret;
	return p->o.on_side_band(p->o.hook_ctx, hdr);
}

static int cmp_hits(const void *a, const void *b)
{
	const struct xpp_addr_hits *x = a, *y = b;

	if (x->dso != y->dso)
		return x->dso < y->dso ? -1 : 1;
	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

/* keep_addrs: each event's addresses in (dso, addr) order, for range lookups by views. */
static int sort_addrs(xpp_profile *p)
{
	for (uint32_t i = 0; i < p->nr_addrs; i++) {
		struct addr_hist *a = &p->addrs[i];
		struct xpp_hist_rec *e;
		size_t n;

		if (!a->h)
			continue;
		e = xpp_hist_recs(a->h, &n);
		free(a->sorted);
		a->sorted = malloc((n ? n : 1) * sizeof(*a->sorted));
		if (!a->sorted)
			return -ENOMEM;
		for (size_t j = 0; j < n; j++)
			a->sorted[j] = (struct xpp_addr_hits){ e[j].dso, e[j].addr,
							       e[j].period, e[j].nr_samples };
		qsort(a->sorted, n, sizeof(*a->sorted), cmp_hits);
		a->nr = n;
	}
	return 0;
}

/* The reader is about to reuse memory where queued records may lie: they are copied. */
static void reader_reusing(void *ctx, const void *lo, const void *hi)
{
	xpp_ordered_reusing(((xpp_profile *)ctx)->q, lo, hi);
}

/*
 * Whether the pass skips records of this type as none of its business (a type it does not
 * know; perf's AUX area traces, which it does not decode; a COMPRESSED record inside
 * compressed data, which nothing unpacks): said once per type by the views.
 */
static bool skipped_type(uint32_t type, bool from_compressed)
{
	if (type == XPF_RECORD_COMPRESSED || type == XPF_RECORD_COMPRESSED2)
		return from_compressed;
	return !xpf_record_type_name(type) || type == XPF_RECORD_AUXTRACE_INFO ||
	       type == XPF_RECORD_AUXTRACE || type == XPF_RECORD_AUXTRACE_ERROR;
}

static void count_skipped(struct xpp_records *rs, const struct xpf_record *rec)
{
	uint32_t type = rec->hdr->type, i;

	for (i = 0; i < rs->nr_skipped && rs->skipped[i].type != type; i++)
		;
	if (i == XPP_MAX_SKIPPED) {
		rs->skipped_more++;
		return;
	}
	if (i == rs->nr_skipped) {
		rs->nr_skipped++;
		rs->skipped[i] = (struct xpp_skipped_type){
			type, rec->from_compressed && (type == XPF_RECORD_COMPRESSED ||
						       type == XPF_RECORD_COMPRESSED2),
			0, rec->file_offset };
	}
	rs->skipped[i].nr++;
}

/* Count a record as perf's session stats do, in file order (LOST: its second word). */
static void count_record(struct xpp_records *rs, const struct xpf_record *rec)
{
	const struct perf_event_header *hdr = rec->hdr;
	uint64_t n;

	rs->total++;
	switch (hdr->type) {
	case PERF_RECORD_SAMPLE:
		rs->samples++;
		return;
	case PERF_RECORD_LOST:
		rs->lost_chunks++;
		if (hdr->size >= 24) {
			memcpy(&n, (const char *)hdr + 16, 8);
			rs->lost_events += n;
		}
		return;
	case PERF_RECORD_LOST_SAMPLES:
		if (hdr->size >= 16) {
			memcpy(&n, (const char *)hdr + 8, 8);
			rs->lost_samples += n;
		}
		return;
	}
	if (skipped_type(hdr->type, rec->from_compressed))
		count_skipped(rs, rec);
}

/* The error of a record the pass could not take, in err (the pass's own message first). */
static int record_failed(xpp_profile *p, int ret, struct xb_error *err)
{
	if (!err->msg[0] && p->err.msg[0])
		*err = p->err;
	else if (!err->msg[0])
		xb_error_set(err, ret, "cannot process the records: %s", strerror(-ret));
	return ret;
}

/* One record of the data, read from the file or pushed (xpp_profile_push()). */
static inline int take_record(xpp_profile *p, const struct xpf_record *rec, struct xb_error *err)
{
	const struct perf_event_header *hdr = rec->hdr;
	const struct xpf_attr *a0;
	uint64_t t;
	int ret;

	count_record(&p->records, rec);
	/*
	 * The kernel's symbols are read on another thread from the first sample that
	 * may show a kernel frame, as it is queued: its round goes on being read while
	 * they load. A profile with none never reads them (issue 20: a cold report of
	 * user samples read all of /proc/kallsyms, as much CPU as the report).
	 */
	if (p->kernel_due && hdr->type == PERF_RECORD_SAMPLE &&
	    (hdr->misc & PERF_RECORD_MISC_CPUMODE_MASK) != PERF_RECORD_MISC_USER) {
		xpp_dso_table_prefetch_kernel(p->dsos);
		p->kernel_due = false;
	}
	if (hdr->type == XPF_RECORD_FINISHED_ROUND) {
		ret = xpp_ordered_round(p->q);
	} else if (hdr->type >= PERF_RECORD_MAX) {
		return 0; /* perf's own records: the reader applies what matters */
	} else if ((a0 = xpf_reader_attr(p->r, 0)) &&
		   xpf_record_time(a0->attr.sample_type, a0->attr.sample_id_all, hdr, &t)) {
		ret = xpp_ordered_queue(p->q, t, hdr, rec->file_offset, rec->lasting);
	} else {
		ret = deliver(p, hdr, rec->file_offset);
	}
	return ret < 0 ? record_failed(p, ret, err) : 0;
}

static int run_records(xpp_profile *p, struct xb_error *err)
{
	struct xpf_record rec;
	int ret;

	while ((ret = xpf_reader_next(p->r, &rec, err)) > 0) {
		ret = take_record(p, &rec, err);
		if (ret < 0)
			return ret;
	}
	if (ret < 0)
		return ret;
	ret = xpp_ordered_flush_all(p->q);
	if (ret == 0)
		ret = drain_aside(p);
	xpp_stash_free(&p->kaside);
	if (ret == 0)
		ret = sort_addrs(p);
	if (ret < 0 && p->err.msg[0])
		*err = p->err;
	else if (ret < 0)
		xb_error_set(err, ret, "cannot process the records: %s", strerror(-ret));
	/* the trees are complete: their lookup tables go before the views make theirs, and
	   the frames' index (the views read frames by id) */
	for (uint32_t i = 0; !ret && i < p->nr_ev; i++)
		if (p->ev[i].cg)
			xpp_cg_freeze(p->ev[i].cg);
	if (!ret)
		xpp_hist_freeze(p->frames);
	return ret;
}

int xpp_profile_run(xpp_profile *p, struct xb_error *err)
{
	int ret;

	xpf_reader_set_reuse_hook(p->r, reader_reusing, p);
	ret = run_records(p, err);
	xpf_reader_set_reuse_hook(p->r, NULL, NULL);
	return ret;
}

int xpp_profile_push(xpp_profile *p, const struct perf_event_header *hdr, struct xb_error *err)
{
	struct xpf_record rec = { .hdr = hdr, .file_offset = p->pushed };

	if (hdr->size < sizeof(*hdr))
		return xb_error_set(err, -EINVAL, "a record of %u bytes, shorter than its header",
				    hdr->size);
	p->pushed += hdr->size;
	/* not lasting: the ordering queue copies what it keeps (the ring's space is reused) */
	return take_record(p, &rec, err);
}

int xpp_profile_round(xpp_profile *p, struct xb_error *err)
{
	int ret = xpp_ordered_round(p->q);

	return ret < 0 ? record_failed(p, ret, err) : 0;
}

int xpp_profile_settle(xpp_profile *p, struct xb_error *err)
{
	int ret = xpp_ordered_flush_all(p->q);

	/* kernel samples put aside are charged now (waiting for the kernel's symbols if they
	   are still loading, tens of ms once) */
	if (ret == 0 && p->kaside.len)
		ret = drain_aside(p);
	if (ret == 0)
		ret = sort_addrs(p);
	return ret < 0 ? record_failed(p, ret, err) : 0;
}

/* Whether some event of the file may have samples in the kernel (pipes: assume so). */
static bool may_sample_kernel(xpf_reader *r)
{
	uint32_t n = xpf_reader_nr_attrs(r);

	for (uint32_t i = 0; i < n; i++)
		if (!xpf_reader_attr(r, i)->attr.exclude_kernel)
			return true;
	return !n;
}

/*
 * Inline frames where asked for, or by perf's default where its call chains come from
 * DWARF unwinding (an attr sampling the user stack); source lines where asked for. Without
 * libdw only perf's default goes quietly without inline frames.
 */
static int start_srclines(xpp_profile *p, struct xb_error *err)
{
	struct xpp_src_opts so = { .debug_root = p->o.debug_root, .debuginfod = p->debuginfod,
				   .no_demangle = p->o.no_demangle };
	bool dwarf_file = false;
	int ret;

	for (uint32_t i = 0; i < xpf_reader_nr_attrs(p->r); i++)
		if (xpf_reader_attr(p->r, i)->attr.sample_type & PERF_SAMPLE_STACK_USER)
			dwarf_file = true;
	p->inlines = p->o.inlines > 0 || (p->o.inlines < 0 && dwarf_file);
	p->srclines = p->o.srclines;
	for (int i = 0; i < XPP_VAL_NR; i++)
		p->srclines |= (p->o.keys & XPP_HIST_KEY_VAL(i)) && xpp_val_rows[i].srclines;
	if (!p->inlines && !p->srclines)
		return 0;
	so.inlines = p->inlines;
	ret = xpp_srcline_create(&p->src, p->strs, &so, err);
	if (ret == -EOPNOTSUPP && p->o.inlines < 0 && !p->srclines) {
		p->inlines = false;
		xb_error_clear(err);
		return 0;
	}
	return ret;
}

/*
 * With the socket key: each cpu's socket from the CPU_TOPOLOGY feature (perf's
 * env->cpu[].socket_id: after the sibling lists, {u32 core_id, u32 socket_id} per cpu of
 * NRCPUS' available ones). A file without them has none (perf's -1). 0 or -ENOMEM.
 */
static int read_sockets(xpp_profile *p)
{
	const struct xpf_features *f = xpf_reader_features(p->r);
	const struct xpf_raw_feature *raw = &f->raw[XPF_FEAT_CPU_TOPOLOGY];
	uint32_t n = f->nr_cpus_avail;

	if (!(p->o.keys & XPP_HIST_KEY_VAL(XPP_VAL_SOCKET)) ||
	    !xpf_features_has(f, XPF_FEAT_CPU_TOPOLOGY) || !raw->data || !n ||
	    raw->size / 8 < n)
		return 0;
	p->sockets = malloc(n * sizeof(*p->sockets));
	if (!p->sockets)
		return -ENOMEM;
	for (uint32_t i = 0; i < n; i++)
		memcpy(&p->sockets[i], (const char *)raw->data + 8 * (size_t)i + 4, 4);
	p->nr_sockets = n;
	return 0;
}

/* --pid, --tid, --cpu, --time and -p: what the user typed, checked */
static int parse_filters(xpp_profile *p, struct xb_error *err)
{
	const struct { const char *s, *opt; struct xpp_int_list *l; bool ranges; } lists[] = {
		{ p->o.pids, "--pid", &p->pid_filter, false },
		{ p->o.tids, "--tid", &p->tid_filter, false },
		{ p->o.cpus, "--cpu", &p->cpu_filter, true },
	};
	const char *re = p->o.parent ? p->o.parent : "^sys_|^do_page_fault";
	int ret;

	for (size_t i = 0; i < sizeof(lists) / sizeof(lists[0]); i++) {
		ret = xpp_int_list_parse(lists[i].l, lists[i].s, lists[i].ranges);
		if (ret == -EINVAL)
			xb_error_set(err, ret, "invalid %s list '%s': want %s", lists[i].opt,
				     lists[i].s, lists[i].ranges ? "numbers and ranges such as 0-2,4" :
				     "comma-separated numbers");
		else if (ret < 0)
			xb_error_set(err, ret, "cannot start the profile: %s", strerror(-ret));
		if (ret < 0)
			return ret;
	}
	ret = parse_times(p, p->o.time, &p->times, err);
	if (ret < 0)
		return ret;
	if (!(p->o.keys & XPP_HIST_KEY_PARENT) && !p->o.exclude_other)
		return 0;
	ret = regcomp(&p->parent_re, re, REG_EXTENDED | REG_NOSUB);
	if (ret) {
		char why[128];

		regerror(ret, &p->parent_re, why, sizeof(why));
		xb_error_set(err, -EINVAL, "invalid parent regex '%s': %s", re, why);
		return -EINVAL;
	}
	p->parent_re_set = true;
	return 0;
}

/*
 * A kallsyms file the user named is checked before the pass, as perf does ("Invalid
 * file"): a missing file or a directory would otherwise be ignored in silence, and
 * /dev/zero or a FIFO read without end or blocked on.
 */
static int check_kallsyms(const char *path, struct xb_error *err)
{
	struct xb_error why = { 0 };
	int fd = xb_input_open(path, XB_INPUT_TEXT_MAX, 0, NULL, &why);

	if (fd < 0)
		return xb_error_set(err, fd, "kallsyms file %s", why.msg);
	close(fd);
	return 0;
}

/*
 * The debuginfod client, when servers are named: nothing is started otherwise, so a report
 * without servers never waits for one. A build without libdebuginfod keeps why, for one
 * warning, when --debuginfod asked for it (perf without it ignores DEBUGINFOD_URLS
 * silently, so do we). -ENOMEM, else 0: a client that cannot start is not fatal.
 */
static int start_debuginfod(xpp_profile *p)
{
	const char *urls = p->o.debuginfod_urls ? p->o.debuginfod_urls : "";
	struct xb_error why = { 0 };
	int ret;

	if (!*urls && !p->o.debuginfod_asked)
		return 0;
	ret = xpp_debuginfod_create(&p->debuginfod, urls, &why);
	if (ret == -ENOMEM)
		return ret;
	if (ret < 0 && (ret != -EOPNOTSUPP || p->o.debuginfod_asked) &&
	    !(p->debuginfod_error = strdup(why.msg)))
		return -ENOMEM;
	return 0;
}

bool xpp_profile_debuginfod_warning(const xpp_profile *p, char *buf, size_t size)
{
	if (p->debuginfod_error) {
		snprintf(buf, size, "%s", p->debuginfod_error);
		return true;
	}
	return xpp_debuginfod_warning(p->debuginfod, buf, size);
}

int xpp_profile_create(xpp_profile **out, xpf_reader *r, const struct xpp_opts *opts,
		       struct xb_error *err)
{
	struct xpp_dso_table_opts dopts;
	xpp_profile *p;
	int ret;

	*out = NULL;
	if (opts->kallsyms && (ret = check_kallsyms(opts->kallsyms, err)) < 0)
		return ret;
	p = calloc(1, sizeof(*p));
	if (!p)
		goto nomem;
	p->o = *opts;
	p->o.keep_addrs |= opts->addrs_only;
	p->r = r;
	p->order = opts->order;
	for (uint32_t i = 0; i < xpf_reader_nr_attrs(r); i++)
		callchains_seen(p, xpf_reader_attr(r, i), false);
	dopts.kallsyms = opts->kallsyms;
	dopts.debug_root = opts->debug_root;
	dopts.no_demangle = opts->no_demangle;
	dopts.symfs = opts->symfs;
	dopts.buildid_dir = opts->buildid_dir;
	dopts.kallsyms_cache = opts->kallsyms_cache;
	dopts.objects = opts->mem_mode;
	dopts.vmlinux = opts->vmlinux;
	if (start_debuginfod(p) < 0)
		goto nomem;
	dopts.debuginfod = p->debuginfod;
	p->dsos = xpp_dso_table_create(&dopts);
	if (p->dsos && xpf_features_has(xpf_reader_features(r), XPF_FEAT_BUILD_ID))
		xpp_dso_table_set_recorded(p->dsos, xpf_reader_features(r)->build_ids,
					   xpf_reader_features(r)->nr_build_ids);
	p->comms = xpp_intern_create();
	p->m = p->dsos && p->comms ? xpp_machine_create(p->dsos, p->comms) : NULL;
	if (p->m && opts->mem_mode)
		xpp_machine_keep_data(p->m);
	/* started by the first sample outside user mode (run_records()) */
	p->kernel_due = p->dsos && !opts->addrs_only && may_sample_kernel(r);
	p->q = xpp_ordered_create(deliver, p);
	p->scache = xpp_sample_cache_create();
	p->frames = xpp_hist_create();
	p->fcache = calloc(1u << FRAME_CACHE_BITS, sizeof(*p->fcache));
	p->epoch = 1;
	p->strs = xpp_intern_create();
	p->ctx_keys = opts->keys & xpp_val_mask(true);
	if (p->ctx_keys)
		p->ctxs = xpp_hist_create();
	for (int i = 0; i < XPP_VAL_NR; i++)
		if ((opts->keys & XPP_HIST_KEY_VAL(i)) && xpp_val_rows[i].from_sample)
			p->cache_vals[p->nr_cache_vals++] = (uint8_t)i;
	if (opts->stream && (!opts->on_sample || opts->children || !opts->no_chains ||
			     opts->keep_samples || opts->keep_addrs || opts->addrs_only ||
			     opts->entry_addrs || (opts->keys & XPP_HIST_KEY_PARENT) ||
			     opts->exclude_other)) {
		/* a view that reads the pass's results after it cannot have them forgotten */
		xpp_profile_free(p);
		return xb_error_set(err, -EINVAL, "a stream profile keeps nothing: it needs a "
				    "subscriber and takes no option that keeps entries");
	}
	if (!p->m || !p->q || !p->scache || !p->frames || !p->fcache || !p->strs ||
	    (!p->ctxs && p->ctx_keys) || read_sockets(p) ||
	    xpp_filter_parse(&p->comm_filter, opts->comms) ||
	    xpp_filter_parse(&p->dso_filter, opts->dsos) ||
	    xpp_filter_parse(&p->sym_filter, opts->symbols) ||
	    xpp_filter_parse(&p->hide_filter, opts->hide_symbols))
		goto nomem;
	ret = parse_filters(p, err);
	for (uint32_t i = 0; ret == 0 && p->cpu_filter.nr && i < xpf_reader_nr_attrs(r); i++)
		if (!(xpf_reader_attr(r, i)->attr.sample_type & PERF_SAMPLE_CPU))
			ret = no_cpu_field(err);
	if (ret == 0 && (opts->keys & XPP_HIST_KEY_PARENT) && !p->callchains &&
	    !xpf_reader_header(r)->pipe) {
		ret = -EINVAL;
		xb_error_set(err, ret, "--sort parent needs call chains, and the file has none "
			     "(record with -g)");
	}
	if (ret == 0 && opts->mem_mode && !xpf_reader_header(r)->pipe &&
	    !(combined_sample_type(r) & PERF_SAMPLE_DATA_SRC)) {
		/* perf's report__setup_sample_type() */
		ret = -EINVAL;
		xb_error_set(err, ret, "--mem-mode needs the samples' data sources, and the file "
			     "has none (record with -d)");
	}
	if (ret < 0) {
		xpp_profile_free(p);
		return ret;
	}
	ret = start_srclines(p, err);
	if (ret < 0) {
		xpp_profile_free(p);
		return ret;
	}
	if (opts->keep_samples && !opts->addrs_only) {
		if (!(p->log = calloc(1, sizeof(*p->log))))
			goto nomem;
		p->log->keys = opts->keys & (xpp_val_mask(true) | xpp_val_mask(false));
		p->log->srclines = p->srclines;
	}
	*out = p;
	return 0;
nomem:
	xpp_profile_free(p);
	xb_error_set(err, -ENOMEM, "cannot start the profile: %s", strerror(ENOMEM));
	return -ENOMEM;
}

void xpp_profile_free(xpp_profile *p)
{
	if (!p)
		return;
	for (uint32_t i = 0; i < p->nr_ev; i++) {
		xpp_hist_free(p->ev[i].h);
		xpp_cg_free(p->ev[i].cg);
		xpp_hist_free(p->ev[i].own);
		free(p->ev[i].first_addr);
	}
	if (p->ann_cache_free)
		p->ann_cache_free(p->ann_cache);
	for (uint32_t i = 0; i < p->nr_addrs; i++) {
		xpp_hist_free(p->addrs[i].h);
		free(p->addrs[i].sorted);
	}
	free(p->addrs);
	xpp_hist_free(p->frames);
	xpp_unwinder_free(p->unwinder);
	free(p->unwind_ips);
	xpp_srcline_free(p->src);
	xpp_intern_free(p->strs);
	free(p->lists.pool);
	xb_slots_free(&p->lists.index);
	free(p->ip_at);
	free(p->vf);
	xpp_srcline_free(p->src_on_demand);
	free(p->fcache);
	free(p->chain);
	free(p->ev);
	xpp_filter_free(&p->comm_filter);
	xpp_filter_free(&p->dso_filter);
	xpp_filter_free(&p->sym_filter);
	xpp_filter_free(&p->hide_filter);
	xpp_int_list_free(&p->pid_filter);
	xpp_int_list_free(&p->tid_filter);
	xpp_int_list_free(&p->cpu_filter);
	xpp_time_ranges_free(&p->times);
	xpp_hist_free(p->ctxs);
	xpp_log_free(p->log);
	free(p->sockets);
	free(p->cgroups);
	free(p->firsts);
	xb_slots_free(&p->first_index);
	free(p->thread_ns);
	free(p->frame_parent);
	if (p->parent_re_set)
		regfree(&p->parent_re);
	xpp_ordered_free(p->q);
	xpp_sample_cache_free(p->scache);
	xpp_stash_free(&p->kaside);
	free(p->aside_seq);
	xpp_machine_free(p->m);
	xpp_dso_table_free(p->dsos);
	xpp_debuginfod_free(p->debuginfod);
	free(p->debuginfod_error);
	xpp_intern_free(p->comms);
	free(p);
}

/*
 * A hist whose entries aged to nothing (at least half of them, and many): made again of the
 * others, so a live view's memory and refresh follow what runs now, not all it ever saw (perf
 * top deletes an entry at 0). 1 when *h was replaced, 0 when kept, -ENOMEM.
 */
static int compact(xpp_hist **h)
{
	size_t n, zero = 0;
	struct xpp_hist_rec *e = xpp_hist_recs(*h, &n);
	xpp_hist *nh;

	for (size_t i = 0; i < n; i++)
		zero += !e[i].period && !e[i].nr_samples;
	if (zero < 1024 || zero * 2 < n)
		return 0;
	nh = xpp_hist_create();
	if (!nh)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++) {
		struct xpp_hist_key k = xpp_hist_key_at(*h, i);

		if ((e[i].period || e[i].nr_samples) &&
		    xpp_hist_add(nh, &k, e[i].period, e[i].nr_samples) < 0) {
			xpp_hist_free(nh);
			return -ENOMEM;
		}
	}
	xpp_hist_free(*h);
	*h = nh;
	return 1;
}

void xpp_profile_decay(xpp_profile *p, uint32_t num, uint32_t den)
{
	bool moved = false;

	if (!num)
		den = 0;
	if (p->log && !p->log->decayed) { /* the samples' periods are not aged one by one */
		xpp_log_drop(p->log);
		p->log->decayed = true;
	}
	for (uint32_t i = 0; i < p->nr_ev; i++) {
		struct xpp_event *e = &p->ev[i];

		if (e->h)
			xpp_hist_scale(e->h, num, den);
		if (e->cg)
			xpp_cg_scale(e->cg, num, den);
		if (e->own)
			xpp_hist_scale(e->own, num, den);
		e->nr_samples = den ? e->nr_samples * num / den : 0;
		e->total_period = den ? e->total_period * num / den : 0;
		/* on failure the old hist stays: nothing is lost but memory */
		if (e->h && compact(&e->h) > 0) {
			moved = true;
			free(e->first_addr);
			e->first_addr = NULL;
			e->first_cap = 0;
		}
		if (e->own && compact(&e->own) > 0)
			moved = true;
	}
	for (uint32_t i = 0; i < p->nr_addrs; i++)
		if (p->addrs[i].h)
			xpp_hist_scale(p->addrs[i].h, num, den);
	/* the sample cache's answers name entries by id: they start over */
	if (moved)
		p->epoch++;
}

/* ---- regroup: the logged samples aggregated again (opts.keep_samples) ---- */

/* The context values regroup computes from a logged sample; the others are its shape's. */
#define LOG_CTX (XPP_HIST_KEY_VAL(XPP_VAL_THREAD) | XPP_HIST_KEY_VAL(XPP_VAL_CPU) | \
		 XPP_HIST_KEY_VAL(XPP_VAL_TIME) | XPP_HIST_KEY_VAL(XPP_VAL_SOCKET))

/* The sort keys of the values, for messages (perf's names). */
static const char *const val_key[XPP_VAL_NR] = {
	[XPP_VAL_THREAD] = "pid", [XPP_VAL_CPU] = "cpu", [XPP_VAL_PARENT] = "parent",
	[XPP_VAL_TIME] = "time", [XPP_VAL_SOCKET] = "socket", [XPP_VAL_CGROUP] = "cgroup",
	[XPP_VAL_CGROUP_NS] = "cgroup_id", [XPP_VAL_IP] = "addr", [XPP_VAL_SYM_SIZE] = "sym_size",
	[XPP_VAL_MAP_SIZE] = "dso_size", [XPP_VAL_SRCFILE] = "srcfile",
	[XPP_VAL_WEIGHT] = "weight", [XPP_VAL_INS_LAT] = "local_ins_lat",
	[XPP_VAL_MEM_LVL] = "mem", [XPP_VAL_MEM_SNOOP] = "snoop", [XPP_VAL_MEM_TLB] = "tlb",
	[XPP_VAL_MEM_LOCK] = "locked", [XPP_VAL_MEM_BLK] = "blocked",
	[XPP_VAL_PHYS] = "phys_daddr", [XPP_VAL_DADDR] = "symbol_daddr",
	[XPP_VAL_DADDR_DSO] = "dso_daddr", [XPP_VAL_DATA_PAGE_SIZE] = "data_page_size",
	[XPP_VAL_DCACHELINE] = "dcacheline",
};

/* What regroup cannot do with this log for o: 0, or -EOPNOTSUPP/-E2BIG with err set. */
static int regroup_check(const xpp_profile *p, const struct xpp_opts *o, bool srclines,
			 bool tree, bool reorder, struct xb_error *err)
{
	const char *was = p->o.time && *p->o.time ? p->o.time : NULL;
	const char *now = o->time && *o->time ? o->time : NULL;

	const struct xpp_sample_log *l = p->log;
	unsigned int vals = o->keys & (xpp_val_mask(true) | xpp_val_mask(false));
	unsigned int missing = vals & ~(l ? l->keys : 0) & ~LOG_CTX;

	if (!l)
		return xb_error_set(err, -EOPNOTSUPP, "the profile kept no log of its samples");
	if (l->decayed)
		return xb_error_set(err, -EOPNOTSUPP, "the counts have aged (a live profile): "
				    "its samples cannot be counted again");
	if (l->full)
		return xb_error_set(err, -E2BIG, "too many samples to keep them (over %llu MiB)",
				    XPP_SAMPLE_LOG_MAX >> 20);
	if (p->parent_re_set && p->callchains && !l->unresolved)
		missing &= ~XPP_HIST_KEY_PARENT; /* matched again on the chains */
	/* the data addresses keep each entry's first sample (values.c), which the log has not */
	missing |= vals & (XPP_HIST_KEY_VAL(XPP_VAL_DADDR) | XPP_HIST_KEY_VAL(XPP_VAL_PHYS) |
			   XPP_HIST_KEY_VAL(XPP_VAL_DCACHELINE));
	for (int i = 0; i < XPP_VAL_NR; i++)
		if (missing & XPP_HIST_KEY_VAL(i))
			return xb_error_set(err, -EOPNOTSUPP, "the pass did not compute what the "
					    "sort key %s needs", val_key[i] ? val_key[i] : "asked for");
	if (srclines && !l->srclines)
		return xb_error_set(err, -EOPNOTSUPP, "the pass did not look up source lines");
	if (srclines && p->o.no_line_fallbacks && !o->no_line_fallbacks)
		return xb_error_set(err, -EOPNOTSUPP, "the pass made no stand-ins for unknown "
				    "source lines");
	if (tree && l->unresolved)
		return xb_error_set(err, -EOPNOTSUPP, "the pass did not resolve the call chains "
				    "(-g none)");
	if (reorder && (l->cut || p->o.exclude_other))
		return xb_error_set(err, -EOPNOTSUPP, "%s depend on the call-graph order",
				    l->cut ? "chains cut at --max-stack" : "-x's parents");
	/* the pass kept the samples of its own --time only */
	if (p->times.nr && (!now || strcmp(was, now)))
		return xb_error_set(err, -EOPNOTSUPP, "the pass kept only the samples of --time "
				    "%s", was);
	return 0;
}

/* Frame f with only the values (and source lines) of the regroup's keys: its frame id. */
static int64_t regroup_frame(xpp_profile *p, uint32_t f, unsigned int vals, bool srclines,
			     uint32_t *remap, size_t nr_remap)
{
	struct xpp_hist_key k;
	int64_t id;

	if (f < nr_remap && remap[f])
		return remap[f] - 1;
	k = xpp_hist_key_at(p->frames, f);
	for (int i = 0; i < XPP_VAL_NR; i++)
		if (!(vals & XPP_HIST_KEY_VAL(i)))
			k.val[i] = 0;
	if (!srclines)
		k.srcline = 0;
	id = xpp_hist_add_id(p->frames, &k, 0, 0);
	if (id >= 0 && f < nr_remap)
		remap[f] = (uint32_t)id + 1;
	return id;
}

/*
 * The logged samples that the regroup's keys cannot tell apart, summed: a shape, with the
 * cpu and time its samples share when the keys read them. Counted once each, in the order
 * of their first sample, which is the order a pass meets them (entries and nodes keep it).
 */
struct log_group {
	uint32_t shape, cpu;
	uint64_t time, period, count;
};

/* Group g aggregated as the pass would aggregate its samples under the regroup's keys. */
static int regroup_one(xpp_profile *p, const struct log_group *g, unsigned int vals,
		       bool srclines, bool tree, bool reorder, uint32_t *remap, size_t nr_remap)
{
	const struct xpp_sample_log *l = p->log;
	const struct xpp_log_shape *sh = &l->shapes[g->shape];
	struct xpp_event *e = &p->ev[sh->event];
	struct xpf_sample fs = { .type = sh->sample_type, .cpu = g->cpu, .time = g->time };
	struct xpp_val_in in = { .p = p, .s = &fs };
	struct xpp_sample_answer ans = { -1, -1, -1, -1, -1 };
	struct xpp_hist_key k = sh->k;
	uint32_t n = sh->chain ? l->pool[sh->chain] : 0;
	int64_t id;
	int ret;

	for (int i = 0; i < XPP_VAL_NR; i++)
		if (!(vals & XPP_HIST_KEY_VAL(i)))
			k.val[i] = 0;
		else if ((LOG_CTX & XPP_HIST_KEY_VAL(i)) && i != XPP_VAL_THREAD)
			xpp_val_rows[i].get(&in, &k.val[i]);
	if (vals & XPP_HIST_KEY_PID)
		k.val[XPP_VAL_THREAD] = (uint64_t)(uint32_t)sh->pid << 32 | (uint32_t)sh->tid;
	if (!srclines)
		k.srcline = 0;
	if (n && !chain_room(p, n))
		return -ENOMEM;
	for (uint32_t i = 0; i < n; i++) {
		if ((id = regroup_frame(p, l->pool[sh->chain + 1 + i], vals, srclines, remap,
					nr_remap)) < 0)
			return (int)id;
		p->chain[1 + i] = (uint32_t)id;
	}
	if (reorder && n && (ret = chain_levels(p, p->chain + 1, n, sh->cpumode)) < 0)
		return ret;
	if (vals & XPP_HIST_KEY_PARENT) {
		int64_t parent = chain_parent(p, sh->nview < n ? sh->nview : n);

		if (parent < 0)
			return (int)parent;
		k.val[XPP_VAL_PARENT] = (uint64_t)parent;
	}
	if (tree) {
		int64_t root = path_root(p, &k);

		if (root < 0)
			return (int)root;
		ret = add_callchain(p, e, (uint32_t)root, n, g->period, g->count, &k,
				    (uint32_t)sh->tid, &ans);
		if (ret < 0)
			return ret;
	}
	if (p->o.entry_addrs) {
		size_t nr;

		if ((id = add_first(e, &k, g->period, sh->first_addr)) >= 0)
			xpp_hist_recs(e->h, &nr)[id].nr_samples += g->count - 1;
	} else {
		id = xpp_hist_add_id(e->h, &k, g->period, g->count);
	}
	if (id >= 0 && p->o.keep_addrs && sh->mapped &&
	    (id = add_addr(p, sh->event, sh->k.dso, sh->first_addr, g->period)) >= 0)
		xpp_hist_recs(p->addrs[sh->event].h, &(size_t){ 0 })[id].nr_samples += g->count - 1;
	return id < 0 ? (int)id : 0;
}

/*
 * The log's samples in groups (struct log_group) for keys `vals`: by shape alone, unless
 * the keys read the cpu (cpu, socket) or the time, whose values then part them too. Into
 * *out (first-sample order), their number; -ENOMEM.
 */
/* Logged sample i's time and period: the log's samples read in order (it keeps differences). */
struct log_at {
	size_t w;
	uint64_t time, period;
};

static inline void log_next(const struct xpp_sample_log *l, size_t i, struct log_at *at)
{
	const struct xpp_log_sample *s = &l->s[i];

	if (s->period == XPP_LOG_WIDE) {
		at->time = l->wide[at->w].time;
		at->period = l->wide[at->w++].period;
	} else {
		at->time += s->dtime;
		at->period = s->period;
	}
}

/* Whether a logged sample of shape sh at time ns falls out of the ranges tr (--time). */
static inline bool log_skip(const struct xpp_log_shape *sh, uint64_t ns,
			    const struct xpp_time_ranges *tr)
{
	return tr->nr && (sh->sample_type & PERF_SAMPLE_TIME) && xpp_time_ranges_skip(tr, ns);
}

static int cmp_first(const void *a, const void *b)
{
	const struct log_group *x = a, *y = b;

	return x->time < y->time ? -1 : x->time > y->time;
}

/* Per shape, its logged samples in the time ranges and out of them (one read of the log). */
struct shape_sum {
	uint64_t count, period;  /* in the ranges */
	uint64_t first;          /* the first of them: its index in the log */
	uint64_t skipped;        /* out of the ranges */
};

static struct shape_sum *log_sums(const xpp_profile *p, const struct xpp_time_ranges *tr)
{
	const struct xpp_sample_log *l = p->log;
	struct shape_sum *sums = calloc(l->nr_shapes + 1, sizeof(*sums));
	struct log_at la = { 0 };

	if (!sums)
		return NULL;
	for (size_t i = 0; i < l->nr; i++) {
		uint32_t shape = l->s[i].shape;
		struct shape_sum *u = &sums[shape];

		log_next(l, i, &la);
		if (tr->nr && log_skip(&l->shapes[shape], la.time, tr)) {
			u->skipped++;
			continue;
		}
		if (!u->count++)
			u->first = i;
		u->period += la.period;
	}
	return sums;
}

/*
 * The samples the log holds that are charged (no filter dropped them) and in the ranges
 * tr, in groups (struct log_group) for keys `vals`: by shape alone (from sums), unless the
 * keys read the cpu (cpu, socket) or the time, whose values then part them too. Into *out
 * (first-sample order), their number; -ENOMEM.
 */
static int64_t log_groups(const xpp_profile *p, unsigned int vals,
			  const struct xpp_time_ranges *tr, const struct shape_sum *sums,
			  struct log_group **out)
{
	const struct xpp_sample_log *l = p->log;
	bool by_cpu = vals & (XPP_HIST_KEY_VAL(XPP_VAL_CPU) | XPP_HIST_KEY_VAL(XPP_VAL_SOCKET));
	bool by_time = vals & XPP_HIST_KEY_VAL(XPP_VAL_TIME);
	uint64_t q = p->o.time_quantum ? p->o.time_quantum : XPP_TIME_QUANTUM;
	struct log_group *g = NULL;
	uint32_t *slot = NULL, bits = 0;
	size_t nr = 0, cap = 0;
	struct log_at la = { 0 };

	if (!by_cpu && !by_time) {
		/* in the order of each shape's first sample counted (`time` holds its index) */
		if (!(g = calloc(l->nr_shapes + 1, sizeof(*g))))
			return -ENOMEM;
		for (size_t i = 0; i < l->nr_shapes; i++)
			if (sums[i].count && !l->shapes[i].drop)
				g[nr++] = (struct log_group){ (uint32_t)i, 0, sums[i].first,
							      sums[i].period, sums[i].count };
		/* without a range a shape's first sample is logged when the shape is */
		if (tr->nr)
			qsort(g, nr, sizeof(*g), cmp_first);
		for (size_t i = 0; i < nr; i++)
			g[i].time = 0;
		*out = g;
		return (int64_t)nr;
	}
	for (size_t i = 0; i < l->nr; i++) {
		const struct xpp_log_sample *s = &l->s[i];
		const struct xpp_log_shape *sh = &l->shapes[s->shape];
		uint32_t cpu = by_cpu ? s->cpu : 0;
		uint64_t period, t, h, time;
		uint32_t at;

		log_next(l, i, &la);
		time = la.time;
		period = la.period;
		if (sh->drop || log_skip(sh, time, tr))
			continue;
		t = by_time ? time / q * q : 0;

		if (2 * (nr + 1) > (1ull << bits)) { /* the slots grow, then hold them again */
			uint32_t *ns;

			bits = bits ? bits + 1 : 12;
			if (!(ns = malloc(sizeof(*ns) << bits)))
				goto nomem;
			memset(ns, 0xff, sizeof(*ns) << bits);
			free(slot);
			slot = ns;
			for (size_t j = 0; j < nr; j++) {
				h = xb_hash_add(xb_hash_add(xb_hash_add(0, g[j].shape), g[j].cpu),
						g[j].time);
				for (at = xb_hash_bits(h, bits); slot[at] != UINT32_MAX;)
					at = (at + 1) & ((1u << bits) - 1);
				slot[at] = (uint32_t)j;
			}
		}
		h = xb_hash_add(xb_hash_add(xb_hash_add(0, s->shape), cpu), t);
		for (at = xb_hash_bits(h, bits); slot[at] != UINT32_MAX; at = (at + 1) & ((1u << bits) - 1))
			if (g[slot[at]].shape == s->shape && g[slot[at]].cpu == cpu &&
			    g[slot[at]].time == t)
				break;
		if (slot[at] == UINT32_MAX) {
			if (nr >= UINT32_MAX - 1 || XB_ARRAY_RESERVE(g, cap, nr + 1, 4096))
				goto nomem;
			/* the time as the pass reads it: the value cuts it to the quantum again */
			g[nr] = (struct log_group){ s->shape, cpu, time, 0, 0 };
			slot[at] = (uint32_t)nr++;
		}
		g[slot[at]].period += period;
		g[slot[at]].count++;
	}
	free(slot);
	*out = g;
	return (int64_t)nr;
nomem:
	free(slot);
	free(g);
	return -ENOMEM;
}

/*
 * The events' totals, the charged samples and (when the log has every sample the filters
 * met: the pass had no --time) the filters' counts, as a pass with --time would count them
 * (see add_sample()), from each shape's samples in and out of the ranges.
 */
static void log_totals(xpp_profile *p, const struct shape_sum *sums, bool ranges)
{
	/* the filter each reason is, in the order the pass applies them */
	static const int8_t filter_of[] = {
		[XPP_DROP_CPU] = XPP_FILTER_CPU, [XPP_DROP_COMMS] = XPP_FILTER_COMMS,
		[XPP_DROP_PID] = XPP_FILTER_PID, [XPP_DROP_TID] = XPP_FILTER_TID,
		[XPP_DROP_DSOS] = XPP_FILTER_DSOS, [XPP_DROP_UNRESOLVED] = -1,
		[XPP_DROP_SYMBOLS] = XPP_FILTER_SYMBOLS, [XPP_DROP_IDLE] = -1,
		[XPP_DROP_NO_PARENT] = -1,
	};
	const struct xpp_sample_log *l = p->log;
	bool set[XPP_NR_FILTERS] = {
		[XPP_FILTER_CPU] = p->cpu_filter.nr, [XPP_FILTER_COMMS] = p->comm_filter.list.nr,
		[XPP_FILTER_PID] = p->pid_filter.nr, [XPP_FILTER_TID] = p->tid_filter.nr,
		[XPP_FILTER_DSOS] = p->dso_filter.list.nr,
		[XPP_FILTER_SYMBOLS] = p->sym_filter.list.nr,
	};
	bool filters = !p->times.nr;

	for (uint32_t i = 0; i < p->nr_ev; i++)
		p->ev[i].nr_samples = p->ev[i].total_period = 0;
	p->charged = 0;
	if (filters) {
		memset(p->filter_met, 0, sizeof(p->filter_met));
		memset(p->filter_dropped, 0, sizeof(p->filter_dropped));
	}
	for (size_t i = 0; i < l->nr_shapes; i++) {
		const struct xpp_log_shape *sh = &l->shapes[i];
		uint64_t n = sums[i].count;

		if (filters && ranges && (sh->sample_type & PERF_SAMPLE_TIME)) {
			p->filter_met[XPP_FILTER_TIME] += n + sums[i].skipped;
			p->filter_dropped[XPP_FILTER_TIME] += sums[i].skipped;
		}
		if (!n)
			continue;
		for (int d = XPP_DROP_CPU; filters && d <= XPP_DROP_NO_PARENT; d++) {
			int f = filter_of[d];

			if (f >= 0 && set[f]) {
				p->filter_met[f] += n;
				p->filter_dropped[f] += d == sh->drop ? n : 0;
			}
			if (d == sh->drop)
				break;
		}
		if (sh->drop == XPP_DROP_CPU || sh->drop == XPP_DROP_UNRESOLVED ||
		    sh->drop == XPP_DROP_IDLE || sh->event >= p->nr_ev)
			continue; /* out of the totals, as in the pass */
		p->ev[sh->event].nr_samples += n;
		p->ev[sh->event].total_period += sums[i].period;
		p->charged += sh->drop ? 0 : n;
	}
}

int xpp_profile_regroup(xpp_profile *p, const struct xpp_opts *o, struct xb_error *err)
{
	struct xpp_time_ranges tr = { 0 };
	unsigned int vals = o->keys & (xpp_val_mask(true) | xpp_val_mask(false));
	bool srclines = o->srclines, children = p->callchains && o->children != 0;
	int order = o->order >= 0 || !p->callchains ? o->order : children;
	bool tree = p->callchains && (children || !o->no_chains);
	bool reorder = p->callchains && order != p->order;
	size_t nr_remap;
	uint32_t *remap;
	struct log_group *groups = NULL;
	struct shape_sum *sums;
	int64_t nr_groups;
	int ret;

	for (int i = 0; i < XPP_VAL_NR; i++)
		srclines |= (o->keys & XPP_HIST_KEY_VAL(i)) && xpp_val_rows[i].srclines;
	if ((ret = regroup_check(p, o, srclines, tree, reorder, err)) < 0 ||
	    (ret = parse_times(p, o->time, &tr, err)) < 0)
		return ret;
	nr_remap = xpp_hist_nr(p->frames);
	remap = calloc(nr_remap + 1, sizeof(*remap));
	if (!remap)
		goto nomem;
	/* the trees, hists and address hits start over */
	for (uint32_t i = 0; i < p->nr_addrs && p->o.keep_addrs; i++) {
		xpp_hist_free(p->addrs[i].h);
		free(p->addrs[i].sorted);
		p->addrs[i].h = NULL;
		p->addrs[i].sorted = NULL;
		p->addrs[i].nr = 0;
	}
	for (uint32_t i = 0; i < p->nr_ev; i++) {
		struct xpp_event *e = &p->ev[i];

		xpp_cg_free(e->cg);
		xpp_hist_free(e->own);
		e->cg = NULL;
		e->own = NULL;
		if (e->h) {
			xpp_hist_free(e->h);
			if (!(e->h = xpp_hist_create()))
				goto nomem;
		}
	}
	xpp_hist_free(p->ctxs);
	p->ctxs = NULL;
	p->ctx_keys = vals & xpp_val_mask(true);
	if (p->ctx_keys && !(p->ctxs = xpp_hist_create()))
		goto nomem;
	p->o.keys = o->keys;
	if (!p->sockets && read_sockets(p) < 0) /* the socket key's table, when first asked */
		goto nomem;
	p->o.srclines = o->srclines;
	p->o.children = o->children;
	p->o.no_chains = o->no_chains;
	p->o.order = o->order;
	p->o.time = o->time; /* the totals are the range's (the string is the caller's) */
	p->srclines = srclines;
	p->children = children;
	p->order = order;
	p->nr_cache_vals = 0;
	for (int i = 0; i < XPP_VAL_NR; i++)
		if ((o->keys & XPP_HIST_KEY_VAL(i)) && xpp_val_rows[i].from_sample)
			p->cache_vals[p->nr_cache_vals++] = (uint8_t)i;
	p->epoch++; /* the sample and frame caches' answers are the old keys' */
	/* samples pushed from now on are shaped with these keys: the log has their values */
	p->log->keys &= vals;
	p->log->srclines &= srclines;
	if (!(sums = log_sums(p, &tr)))
		goto nomem;
	log_totals(p, sums, tr.nr > 0);
	nr_groups = log_groups(p, vals, &tr, sums, &groups);
	free(sums);
	ret = nr_groups < 0 ? (int)nr_groups : 0;
	for (int64_t i = 0; i < nr_groups && ret == 0; i++) {
		p->cur_seq = (uint64_t)i; /* groups come in the order of their first samples */
		ret = regroup_one(p, &groups[i], vals, srclines, tree, reorder, remap, nr_remap);
	}
	if (ret == 0 && p->o.keep_addrs)
		ret = sort_addrs(p);
	free(groups);
	free(remap);
	xpp_time_ranges_free(&tr);
	if (ret == -ENOMEM)
		goto nomem;
	return ret < 0 ? xb_error_set(err, ret, "cannot regroup the samples: %s", strerror(-ret)) : 0;
nomem:
	free(remap);
	xpp_time_ranges_free(&tr);
	return xb_error_set(err, -ENOMEM, "cannot regroup the samples: %s", strerror(ENOMEM));
}

int xpp_profile_logged(const xpp_profile *p,
		       void (*fn)(void *ctx, const struct xpp_logged_sample *s), void *ctx,
		       uint64_t *first, uint64_t *last, struct xb_error *err)
{
	const struct xpp_sample_log *l = p->log;
	struct log_at la = { 0 };

	*first = *last = 0;
	if (!l)
		return xb_error_set(err, -EOPNOTSUPP, "the profile kept no log of its samples");
	if (l->decayed)
		return xb_error_set(err, -EOPNOTSUPP, "the counts have aged (a live profile)");
	if (l->full)
		return xb_error_set(err, -E2BIG, "too many samples to keep them (over %llu MiB)",
				    XPP_SAMPLE_LOG_MAX >> 20);
	if (p->times.nr)
		return xb_error_set(err, -EOPNOTSUPP, "the pass kept only the samples of --time "
				    "%s", p->o.time);
	if (!l->timed)
		return 0;
	*first = l->first_time;
	*last = l->max_time;
	for (size_t i = 0; i < l->nr; i++) {
		const struct xpp_log_shape *sh = &l->shapes[l->s[i].shape];
		struct xpp_logged_sample v;

		log_next(l, i, &la);
		v = (struct xpp_logged_sample){ l->s[i].shape, sh->event, sh->pid, sh->tid, la.time,
						(sh->sample_type & PERF_SAMPLE_TIME) != 0 };
		fn(ctx, &v);
	}
	return 1;
}
