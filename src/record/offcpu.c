/* xperf record --off-cpu: blocked intervals paired from the rings and written as offcpu-time. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/array.h"
#include "base/hash.h"
#include "format/xpf_sample.h"
#include "record/offcpu.h"

/* prev_state bits of sched_switch a waiting task has: TASK_INTERRUPTIBLE, _UNINTERRUPTIBLE */
#define BLOCKED_STATES 0x3

/* What a pass saw of one task: a blocked switch-out (with its sample) or a switch-in. */
struct item {
	uint64_t time;
	uint32_t tid;
	bool in;
	bool carried;            /* an unmatched switch-in kept from the pass before */
	struct perf_event_header *rec; /* switch-out: a copy of the sched_switch sample */
};

/* A task away from the cpu: since when, and the sample that says where it blocked. */
struct away {
	uint32_t tid;
	uint64_t time;
	struct perf_event_header *rec; /* NULL: the slot is free for reuse */
};

struct rec_offcpu {
	struct perf_event_attr tp_attr;
	uint64_t *tp_ids;
	int nr_tp_ids;
	uint64_t id;             /* the offcpu-time attr's id */
	bool keep_switches;
	unsigned int raw_state_off;  /* prev_state in the tracepoint's raw data */
	unsigned int ip_off, time_off, period_off; /* in a sample body */
	struct item *items;
	size_t nr_items, cap_items;
	struct away *away;
	uint32_t nr_away, cap_away;
	struct xb_slots by_tid;  /* tid -> away index + 1 */
	uint64_t written;
};

static uint64_t away_hash(const void *ctx, uint32_t v)
{
	return xb_hash_u64(((const struct rec_offcpu *)ctx)->away[v - 1].tid);
}

static bool away_eq(const void *ctx, uint32_t v, const void *key)
{
	return ((const struct rec_offcpu *)ctx)->away[v - 1].tid == *(const uint32_t *)key;
}

/* "field:long prev_state;	offset:32;	size:8;" from the tracepoint's format file */
static int read_state_offset(const char *tracefs, unsigned int *off, struct xb_error *err)
{
	char path[4096], line[512];
	FILE *f;
	int ret = -ENOENT;

	if (!tracefs)
		return xb_error_set(err, -ENOENT, "tracefs is not mounted");
	snprintf(path, sizeof(path), "%s/events/sched/sched_switch/format", tracefs);
	f = fopen(path, "r");
	if (!f)
		return xb_error_set(err, -errno, "cannot read '%s': %s", path, strerror(errno));
	while (fgets(line, sizeof(line), f)) {
		const char *o = strstr(line, " prev_state;");

		if (o && (o = strstr(o, "offset:")) && sscanf(o, "offset:%u", off) == 1) {
			ret = 0;
			break;
		}
	}
	fclose(f);
	if (ret < 0)
		return xb_error_set(err, ret, "'%s' has no prev_state field", path);
	return 0;
}

/* Offset of a fixed field in a sample body: 8 bytes for each field before it. */
static unsigned int field_offset(uint64_t sample_type, uint64_t field)
{
	static const uint64_t fixed[] = {
		PERF_SAMPLE_IDENTIFIER, PERF_SAMPLE_IP, PERF_SAMPLE_TID, PERF_SAMPLE_TIME,
		PERF_SAMPLE_ADDR, PERF_SAMPLE_ID, PERF_SAMPLE_STREAM_ID, PERF_SAMPLE_CPU,
		PERF_SAMPLE_PERIOD,
	};
	unsigned int off = 0;

	for (size_t i = 0; i < sizeof(fixed) / sizeof(fixed[0]) && fixed[i] != field; i++)
		if (sample_type & fixed[i])
			off += 8;
	return off;
}

int rec_offcpu_create(struct rec_offcpu **out, const struct xpe_event *tp,
		      const struct xpe_event *track, bool keep_switches, const char *tracefs,
		      struct xb_error *err)
{
	struct rec_offcpu *oc = calloc(1, sizeof(*oc));
	uint64_t st = tp->attr.sample_type;
	int ret;

	*out = NULL;
	if (!oc)
		return xb_error_set(err, -ENOMEM, "out of memory");
	oc->tp_attr = tp->attr;
	oc->keep_switches = keep_switches;
	/* the layout patched in place: the identifier, the time and the period are needed */
	if (!(st & PERF_SAMPLE_IDENTIFIER) || !(st & PERF_SAMPLE_IP) || !(st & PERF_SAMPLE_TIME) ||
	    !(st & PERF_SAMPLE_PERIOD) || !(st & PERF_SAMPLE_RAW) || !tp->attr.sample_id_all) {
		free(oc);
		return xb_error_set(err, -EINVAL, "--off-cpu: sched_switch samples lack the "
				    "identifier, time, period or raw data");
	}
	oc->ip_off = field_offset(st, PERF_SAMPLE_IP);
	oc->time_off = field_offset(st, PERF_SAMPLE_TIME);
	oc->period_off = field_offset(st, PERF_SAMPLE_PERIOD);
	ret = read_state_offset(tracefs, &oc->raw_state_off, err);
	if (ret < 0) {
		free(oc);
		return ret;
	}
	oc->tp_ids = calloc((size_t)tp->nr_fd + 1, sizeof(*oc->tp_ids));
	if (!oc->tp_ids) {
		free(oc);
		return xb_error_set(err, -ENOMEM, "out of memory");
	}
	for (int i = 0; i < tp->nr_fd; i++) {
		if (tp->fd[i] >= 0 && tp->id[i])
			oc->tp_ids[oc->nr_tp_ids++] = tp->id[i];
		if (tp->id[i] >= oc->id)
			oc->id = tp->id[i];
		if (track->nr_fd > i && track->id[i] >= oc->id)
			oc->id = track->id[i];
	}
	/* an id the kernel gave no event of ours: one past the last one it gave */
	oc->id++;
	*out = oc;
	return 0;
}

void rec_offcpu_free(struct rec_offcpu *oc)
{
	if (!oc)
		return;
	for (size_t i = 0; i < oc->nr_items; i++)
		free(oc->items[i].rec);
	for (uint32_t i = 0; i < oc->nr_away; i++)
		free(oc->away[i].rec);
	free(oc->items);
	free(oc->away);
	xb_slots_free(&oc->by_tid);
	free(oc->tp_ids);
	free(oc);
}

void rec_offcpu_attr(const struct rec_offcpu *oc, struct perf_event_attr *attr, uint64_t *id)
{
	struct perf_event_attr a = oc->tp_attr;

	/* perf 6.1's: bpf-output, named offcpu-time, every sample its own period */
	a.type = PERF_TYPE_SOFTWARE;
	a.config = PERF_COUNT_SW_BPF_OUTPUT;
	a.freq = 0;
	a.sample_period = 1;
	a.mmap = a.mmap2 = a.comm = a.comm_exec = a.task = a.build_id = a.mmap_data = 0;
	a.context_switch = 0;
	a.inherit = 0;
	a.enable_on_exec = 0;
	*attr = a;
	*id = oc->id;
}

static bool is_tp_sample(const struct rec_offcpu *oc, const struct perf_event_header *h)
{
	uint64_t id;

	if (h->size < sizeof(*h) + 8)
		return false;
	memcpy(&id, h + 1, 8); /* PERF_SAMPLE_IDENTIFIER comes first */
	for (int i = 0; i < oc->nr_tp_ids; i++)
		if (oc->tp_ids[i] == id)
			return true;
	return false;
}

static int add_item(struct rec_offcpu *oc, const struct item *it)
{
	if (XB_ARRAY_RESERVE(oc->items, oc->cap_items, oc->nr_items + 1, 256))
		return -ENOMEM;
	oc->items[oc->nr_items++] = *it;
	return 0;
}

static int see_sample(struct rec_offcpu *oc, const struct perf_event_header *h)
{
	struct xpf_sample s;
	struct xb_error err;
	struct item it = { 0 };
	int64_t state;

	if (xpf_sample_decode(&oc->tp_attr, h, &s, &err) < 0 ||
	    s.raw.size < oc->raw_state_off + sizeof(state))
		return 0;
	memcpy(&state, (const char *)s.raw.data + oc->raw_state_off, sizeof(state));
	if (!(state & BLOCKED_STATES))
		return 0;
	it.time = s.time;
	it.tid = s.tid;
	it.rec = malloc(h->size);
	if (!it.rec)
		return -ENOMEM;
	memcpy(it.rec, h, h->size);
	if (add_item(oc, &it) < 0) {
		free(it.rec);
		return -ENOMEM;
	}
	return 0;
}

int rec_offcpu_see(struct rec_offcpu *oc, const struct perf_event_header *h)
{
	struct xpf_sample id = { 0 };
	struct xb_error err;
	struct item it = { .in = true };

	/* the switches themselves stay out, as in perf's file: their time is in offcpu-time */
	if (h->type == PERF_RECORD_SAMPLE)
		return is_tp_sample(oc, h) ? see_sample(oc, h) : 1;
	if (h->type != PERF_RECORD_SWITCH && h->type != PERF_RECORD_SWITCH_CPU_WIDE)
		return 1;
	if (!(h->misc & PERF_RECORD_MISC_SWITCH_OUT) &&
	    xpf_sample_id_decode(&oc->tp_attr, h, &id, &err) == 0) {
		it.time = id.time;
		it.tid = id.tid;
		if (add_item(oc, &it) < 0)
			return -ENOMEM;
	}
	return oc->keep_switches;
}

static int cmp_item(const void *a, const void *b)
{
	const struct item *x = a, *y = b;

	if (x->time != y->time)
		return x->time < y->time ? -1 : 1;
	/* a switch-out before a switch-in of the same instant */
	return (int)x->in - (int)y->in;
}

/* The away slot of tid, made when missing; NULL without memory. */
static struct away *away_of(struct rec_offcpu *oc, uint32_t tid)
{
	uint32_t *slot;

	if (xb_slots_reserve(&oc->by_tid, oc->nr_away + 1, away_hash, oc))
		return NULL;
	slot = xb_slots_find(&oc->by_tid, xb_hash_u64(tid), away_eq, oc, &tid);
	if (*slot)
		return &oc->away[*slot - 1];
	if (XB_ARRAY_RESERVE(oc->away, oc->cap_away, oc->nr_away + 1, 64))
		return NULL;
	oc->away[oc->nr_away] = (struct away){ .tid = tid };
	*slot = ++oc->nr_away;
	return &oc->away[*slot - 1];
}

static struct away *away_find(struct rec_offcpu *oc, uint32_t tid)
{
	uint32_t *slot;

	if (!oc->by_tid.nslots)
		return NULL;
	slot = xb_slots_find(&oc->by_tid, xb_hash_u64(tid), away_eq, oc, &tid);
	return *slot ? &oc->away[*slot - 1] : NULL;
}

/*
 * Where in the program the task waits: the first user frame of the chain, or with DWARF
 * call graphs the user ip of the registers. 0 when the sample has neither (a kernel thread).
 */
static uint64_t user_ip(const struct rec_offcpu *oc, const struct perf_event_header *h)
{
	struct xpf_sample s;
	struct xb_error err;

	if (xpf_sample_decode(&oc->tp_attr, h, &s, &err) < 0)
		return 0;
	for (uint64_t i = 0; i + 1 < s.callchain.nr; i++)
		if (s.callchain.ips[i] == PERF_CONTEXT_USER)
			return s.callchain.ips[i + 1];
	if (s.user_regs.abi && (s.user_regs.mask & (1ULL << 8))) {
		/* PERF_REG_X86_IP is 8: its place is the number of registers below it */
		unsigned int at = (unsigned int)__builtin_popcountll(s.user_regs.mask & 0xff);

		return at < s.user_regs.nr ? s.user_regs.regs[at] : 0;
	}
	return 0;
}

/*
 * The held sample made an offcpu-time sample: our id, the time away, the switch-in time,
 * and its own ip the user frame that waited, as perf's off-CPU samples have it (the
 * tracepoint's own is __schedule for every one of them).
 */
static int emit_interval(struct rec_offcpu *oc, struct away *a, uint64_t in_time,
			 int (*emit)(void *, const struct perf_event_header *), void *ctx)
{
	char *body = (char *)(a->rec + 1);
	uint64_t period = in_time - a->time, ip = user_ip(oc, a->rec);
	int ret;

	if (ip) {
		memcpy(body + oc->ip_off, &ip, 8);
		a->rec->misc = (uint16_t)((a->rec->misc & ~PERF_RECORD_MISC_CPUMODE_MASK) |
					  PERF_RECORD_MISC_USER);
	}
	memcpy(body, &oc->id, 8);
	memcpy(body + oc->time_off, &in_time, 8);
	memcpy(body + oc->period_off, &period, 8);
	ret = emit(ctx, a->rec);
	free(a->rec);
	a->rec = NULL;
	oc->written++;
	return ret;
}

int rec_offcpu_flush(struct rec_offcpu *oc, int (*emit)(void *, const struct perf_event_header *),
		     void *ctx)
{
	size_t n = oc->nr_items, kept = 0;
	int ret = 0;

	qsort(oc->items, n, sizeof(*oc->items), cmp_item);
	for (size_t i = 0; i < n; i++) {
		struct item *it = &oc->items[i];
		struct away *a;

		if (!it->in) {
			a = away_of(oc, it->tid);
			if (!a) {
				ret = -ENOMEM;
				free(it->rec);
				continue;
			}
			/* a switch-out whose switch-in was lost: the newer one counts */
			free(a->rec);
			a->rec = it->rec;
			a->time = it->time;
			continue;
		}
		a = away_find(oc, it->tid);
		if (a && a->rec && a->time <= it->time) {
			if (ret == 0)
				ret = emit_interval(oc, a, it->time, emit, ctx);
		} else if (!it->carried) {
			/* its switch-out may sit in a ring read before it was written */
			it->carried = true;
			oc->items[kept++] = *it;
		}
	}
	oc->nr_items = kept;
	return ret;
}

uint64_t rec_offcpu_written(const struct rec_offcpu *oc)
{
	return oc ? oc->written : 0;
}
