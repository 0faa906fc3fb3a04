/* Decoding PERF_RECORD_SAMPLE bodies and sample_id trailers, every bound checked. */
#include <errno.h>
#include <stdint.h>
#include <string.h>

#include "format/xpf_abi.h"
#include "format/xpf_sample.h"

/*
 * Field order, as the kernel writes it (perf_output_sample) and perf 6.1 reads it
 * (evsel__parse_sample). The reader hands us 8-byte aligned records in native order.
 */
#define KNOWN_SAMPLE_BITS (PERF_SAMPLE_WEIGHT_STRUCT * 2 - 1)

struct cursor {
	const uint8_t *base, *p, *end;
	struct xb_error *err;
	const char *field; /* the field being read, for the overrun message */
};

static int overrun(struct cursor *c, uint64_t want)
{
	return xb_error_set(c->err, -EINVAL,
			     "sample record of size %zu: %s at byte %zu needs %llu bytes, %zu left",
			     (size_t)(c->end - c->base), c->field, (size_t)(c->p - c->base),
			     (unsigned long long)want, (size_t)(c->end - c->p));
}

static int get_u64(struct cursor *c, uint64_t *v)
{
	if (c->end - c->p < 8)
		return overrun(c, 8);
	memcpy(v, c->p, 8);
	c->p += 8;
	return 0;
}

/* Claim n u64 words and return where they start; n comes from the file, so compare before
 * multiplying. */
static int get_words(struct cursor *c, uint64_t n, const uint64_t **out)
{
	if (n > (uint64_t)(c->end - c->p) / 8)
		return overrun(c, n > UINT64_MAX / 8 ? UINT64_MAX : n * 8);
	*out = (const uint64_t *)(const void *)c->p;
	c->p += n * 8;
	return 0;
}

static int get_bytes(struct cursor *c, uint64_t n, const void **out)
{
	if (n > (uint64_t)(c->end - c->p))
		return overrun(c, n);
	*out = c->p;
	c->p += n;
	return 0;
}

/* Two u32s in one word, in memory order (pid then tid, cpu then reserved). */
static int get_u32_pair(struct cursor *c, uint32_t *a, uint32_t *b)
{
	if (c->end - c->p < 8)
		return overrun(c, 8);
	memcpy(a, c->p, 4);
	memcpy(b, c->p + 4, 4);
	c->p += 8;
	return 0;
}

static int check_record(const struct perf_event_header *hdr, struct xb_error *err)
{
	if (hdr->size < sizeof(*hdr))
		return xb_error_set(err, -EINVAL, "record has size %u", hdr->size);
	if ((uintptr_t)hdr & 7)
		return xb_error_set(err, -EINVAL, "record is not 8-byte aligned in memory");
	return 0;
}

static int decode_read(struct cursor *c, uint64_t read_format, struct xpf_read_values *rv)
{
	int ret;
	bool te = read_format & PERF_FORMAT_TOTAL_TIME_ENABLED;
	bool tr = read_format & PERF_FORMAT_TOTAL_TIME_RUNNING;

	rv->has_id = read_format & PERF_FORMAT_ID;
	rv->has_lost = read_format & PERF_FORMAT_LOST;
	rv->stride = 1 + rv->has_id + rv->has_lost;
	c->field = "read values";
	if (read_format & PERF_FORMAT_GROUP) {
		if ((ret = get_u64(c, &rv->nr)) ||
		    (te && (ret = get_u64(c, &rv->time_enabled))) ||
		    (tr && (ret = get_u64(c, &rv->time_running))))
			return ret;
		if (rv->nr > UINT64_MAX / rv->stride)
			return overrun(c, UINT64_MAX);
		if ((ret = get_words(c, rv->nr * rv->stride, &rv->entries)))
			return ret;
		if (rv->nr)
			xpf_read_entry(rv, 0, &rv->value, &rv->id, &rv->lost);
		return 0;
	}
	rv->nr = 1;
	rv->entries = NULL;
	if ((ret = get_u64(c, &rv->value)) ||
	    (te && (ret = get_u64(c, &rv->time_enabled))) ||
	    (tr && (ret = get_u64(c, &rv->time_running))) ||
	    (rv->has_id && (ret = get_u64(c, &rv->id))) ||
	    (rv->has_lost && (ret = get_u64(c, &rv->lost))))
		return ret;
	return 0;
}

static int decode_regs(struct cursor *c, uint64_t mask, uint64_t *abi, uint64_t *out_mask,
		       uint32_t *nr, const uint64_t **regs)
{
	int ret = get_u64(c, abi);

	if (ret)
		return ret;
	*out_mask = mask;
	/* abi 0 (PERF_SAMPLE_REGS_ABI_NONE): the kernel wrote no registers */
	if (!*abi) {
		*nr = 0;
		return 0;
	}
	*nr = (uint32_t)__builtin_popcountll(mask);
	return get_words(c, *nr, regs);
}

/* The middle part of the layout: everything after PERIOD. */
static int decode_tail(struct cursor *c, const struct perf_event_attr *attr, struct xpf_sample *s)
{
	uint64_t t = attr->sample_type, v;
	int ret;

	if (t & PERF_SAMPLE_READ && (ret = decode_read(c, attr->read_format, &s->read)))
		return ret;
	if (t & PERF_SAMPLE_CALLCHAIN) {
		c->field = "callchain";
		if ((ret = get_u64(c, &s->callchain.nr)) ||
		    (ret = get_words(c, s->callchain.nr, &s->callchain.ips)))
			return ret;
	}
	if (t & PERF_SAMPLE_RAW) {
		uint32_t size;
		const void *data = NULL;

		c->field = "raw data";
		if (c->end - c->p < 4)
			return overrun(c, 4);
		memcpy(&size, c->p, 4);
		c->p += 4;
		if ((ret = get_bytes(c, size, &data)))
			return ret;
		/* the kernel pads u32 size + data to 8 bytes; anything else would leave every
		 * later field misaligned */
		if ((c->p - c->base) & 7)
			return xb_error_set(c->err, -EINVAL,
					     "sample record: raw data size %u is not padded to 8 bytes",
					     size);
		s->raw.size = size;
		s->raw.data = data;
	}
	if (t & PERF_SAMPLE_BRANCH_STACK) {
		const uint64_t *words = NULL;

		c->field = "branch stack";
		if ((ret = get_u64(c, &s->branch_stack.nr)))
			return ret;
		if (attr->branch_sample_type & PERF_SAMPLE_BRANCH_HW_INDEX) {
			s->branch_stack.has_hw_idx = true;
			if ((ret = get_u64(c, &s->branch_stack.hw_idx)))
				return ret;
		}
		/* 3 words per perf_branch_entry */
		if (s->branch_stack.nr > UINT64_MAX / 3)
			return overrun(c, UINT64_MAX);
		if ((ret = get_words(c, s->branch_stack.nr * 3, &words)))
			return ret;
		s->branch_stack.entries = (const struct perf_branch_entry *)(const void *)words;
	}
	if (t & PERF_SAMPLE_REGS_USER) {
		c->field = "user regs";
		if ((ret = decode_regs(c, attr->sample_regs_user, &s->user_regs.abi, &s->user_regs.mask,
				       &s->user_regs.nr, &s->user_regs.regs)))
			return ret;
	}
	if (t & PERF_SAMPLE_STACK_USER) {
		c->field = "user stack";
		if ((ret = get_u64(c, &s->user_stack.size)))
			return ret;
		if (s->user_stack.size) {
			if (s->user_stack.size & 7)
				return xb_error_set(c->err, -EINVAL,
						     "sample record: user stack size %llu is not a multiple of 8",
						     (unsigned long long)s->user_stack.size);
			if ((ret = get_bytes(c, s->user_stack.size, &s->user_stack.data)) ||
			    (ret = get_u64(c, &s->user_stack.dyn_size)))
				return ret;
			if (s->user_stack.dyn_size > s->user_stack.size)
				return xb_error_set(c->err, -EINVAL,
						     "sample record: user stack dyn_size %llu exceeds size %llu",
						     (unsigned long long)s->user_stack.dyn_size,
						     (unsigned long long)s->user_stack.size);
		}
	}
	if (t & (PERF_SAMPLE_WEIGHT | PERF_SAMPLE_WEIGHT_STRUCT)) {
		c->field = "weight";
		if ((ret = get_u64(c, &v)))
			return ret;
		if (t & PERF_SAMPLE_WEIGHT_STRUCT) {
			/* union perf_sample_weight, read as the u64 it is declared as */
			s->weight = (uint32_t)v;
			s->weight_var2 = (uint16_t)(v >> 32);
			s->weight_var3 = (uint16_t)(v >> 48);
		} else {
			s->weight = v;
		}
	}
	c->field = "data_src";
	if (t & PERF_SAMPLE_DATA_SRC && (ret = get_u64(c, &s->data_src)))
		return ret;
	c->field = "transaction";
	if (t & PERF_SAMPLE_TRANSACTION && (ret = get_u64(c, &s->transaction)))
		return ret;
	if (t & PERF_SAMPLE_REGS_INTR) {
		c->field = "intr regs";
		if ((ret = decode_regs(c, attr->sample_regs_intr, &s->intr_regs.abi, &s->intr_regs.mask,
				       &s->intr_regs.nr, &s->intr_regs.regs)))
			return ret;
	}
	c->field = "phys_addr";
	if (t & PERF_SAMPLE_PHYS_ADDR && (ret = get_u64(c, &s->phys_addr)))
		return ret;
	c->field = "cgroup";
	if (t & PERF_SAMPLE_CGROUP && (ret = get_u64(c, &s->cgroup)))
		return ret;
	c->field = "data_page_size";
	if (t & PERF_SAMPLE_DATA_PAGE_SIZE && (ret = get_u64(c, &s->data_page_size)))
		return ret;
	c->field = "code_page_size";
	if (t & PERF_SAMPLE_CODE_PAGE_SIZE && (ret = get_u64(c, &s->code_page_size)))
		return ret;
	if (t & PERF_SAMPLE_AUX) {
		c->field = "aux data";
		if ((ret = get_u64(c, &s->aux.size)) ||
		    (ret = get_bytes(c, s->aux.size, &s->aux.data)))
			return ret;
	}
	return 0;
}

int xpf_read_event_decode(const struct perf_event_attr *attr, const struct perf_event_header *hdr,
			  uint32_t *pid, uint32_t *tid, struct xpf_read_values *rv,
			  struct xb_error *err)
{
	struct cursor c;
	int ret;

	memset(rv, 0, sizeof(*rv));
	if ((ret = check_record(hdr, err)))
		return ret;
	if (hdr->type != PERF_RECORD_READ)
		return xb_error_set(err, -EINVAL, "record of type %u is not a read", hdr->type);
	c.base = (const uint8_t *)hdr;
	c.p = c.base + sizeof(*hdr);
	c.end = c.base + hdr->size;
	c.err = err;
	c.field = "pid/tid";
	if ((ret = get_u32_pair(&c, pid, tid)))
		return ret;
	return decode_read(&c, attr->read_format, rv);
}

/*
 * Zero a sample with plain stores: memset() of its size is a `rep stos` here, which cost
 * more than the whole rest of decoding a sample. The attribute keeps GCC from turning the
 * loop back into that memset.
 */
typedef uint64_t xpf_v2 __attribute__((vector_size(16), aligned(8), may_alias));

__attribute__((optimize("no-tree-loop-distribute-patterns")))
static inline void zero_sample(struct xpf_sample *s)
{
	xpf_v2 *v = (xpf_v2 *)(void *)s;
	size_t i;

	_Static_assert(sizeof(*s) % 8 == 0, "struct xpf_sample is not made of words");
#pragma GCC unroll 32
	for (i = 0; i < sizeof(*s) / 16; i++)
		v[i] = (xpf_v2){ 0, 0 };
	if (sizeof(*s) % 16)
		((uint64_t *)(void *)s)[sizeof(*s) / 8 - 1] = 0;
}

/* The common layout (xpf_sample_decode_fixed()) into a whole sample. */
static bool decode_fixed(uint64_t t, const struct perf_event_header *hdr, struct xpf_sample *s)
{
	struct xpf_sample_fixed f;

	if (!xpf_sample_decode_fixed(t, hdr, &f))
		return false;
	zero_sample(s);
	s->type = t;
	s->id = f.id;
	s->ip = f.ip;
	s->pid = f.pid;
	s->tid = f.tid;
	s->time = f.time;
	s->addr = f.addr;
	s->stream_id = f.stream_id;
	s->cpu = f.cpu;
	s->period = f.period;
	s->callchain.nr = f.nr;
	s->callchain.ips = f.ips;
	return true;
}

int xpf_sample_decode(const struct perf_event_attr *attr, const struct perf_event_header *hdr,
		      struct xpf_sample *s, struct xb_error *err)
{
	uint64_t t = attr->sample_type;
	struct cursor c;
	int ret;

	if (decode_fixed(t, hdr, s))
		return 0;
	memset(s, 0, sizeof(*s));
	s->type = t;
	if ((ret = check_record(hdr, err)))
		return ret;
	if (hdr->type != PERF_RECORD_SAMPLE)
		return xb_error_set(err, -EINVAL, "record of type %u is not a sample", hdr->type);
	if (t & ~(uint64_t)KNOWN_SAMPLE_BITS)
		return xb_error_set(err, -EOPNOTSUPP, "unknown sample_type bits 0x%llx",
				    (unsigned long long)(t & ~(uint64_t)KNOWN_SAMPLE_BITS));
	c.base = (const uint8_t *)hdr;
	c.p = c.base + sizeof(*hdr);
	c.end = c.base + hdr->size;
	c.err = err;

	c.field = "identifier";
	if (t & PERF_SAMPLE_IDENTIFIER && (ret = get_u64(&c, &s->id)))
		return ret;
	c.field = "ip";
	if (t & PERF_SAMPLE_IP && (ret = get_u64(&c, &s->ip)))
		return ret;
	c.field = "pid/tid";
	if (t & PERF_SAMPLE_TID && (ret = get_u32_pair(&c, &s->pid, &s->tid)))
		return ret;
	c.field = "time";
	if (t & PERF_SAMPLE_TIME && (ret = get_u64(&c, &s->time)))
		return ret;
	c.field = "addr";
	if (t & PERF_SAMPLE_ADDR && (ret = get_u64(&c, &s->addr)))
		return ret;
	c.field = "id";
	if (t & PERF_SAMPLE_ID && (ret = get_u64(&c, &s->id)))
		return ret;
	c.field = "stream_id";
	if (t & PERF_SAMPLE_STREAM_ID && (ret = get_u64(&c, &s->stream_id)))
		return ret;
	if (t & PERF_SAMPLE_CPU) {
		uint32_t res;

		c.field = "cpu";
		if ((ret = get_u32_pair(&c, &s->cpu, &res)))
			return ret;
	}
	c.field = "period";
	if (t & PERF_SAMPLE_PERIOD && (ret = get_u64(&c, &s->period)))
		return ret;
	if ((ret = decode_tail(&c, attr, s)))
		return ret;
	/*
	 * The kernel sizes a sample to exactly its fields: bytes left over mean the record
	 * and its attr disagree (a damaged size or sample_type), and every field read may be
	 * another's. perf reads past such a gap; we say so instead.
	 */
	if (c.p != c.end)
		return xb_error_set(err, -EINVAL,
				    "sample record of size %u, but its sample_type needs %zu bytes",
				    hdr->size, (size_t)(c.p - c.base));
	return 0;
}

unsigned int xpf_sample_id_size(uint64_t t)
{
	return 8 * (!!(t & PERF_SAMPLE_TID) + !!(t & PERF_SAMPLE_TIME) + !!(t & PERF_SAMPLE_ID) +
		    !!(t & PERF_SAMPLE_STREAM_ID) + !!(t & PERF_SAMPLE_CPU) +
		    !!(t & PERF_SAMPLE_IDENTIFIER));
}

int xpf_sample_time_offset(uint64_t t)
{
	if (!(t & PERF_SAMPLE_TIME))
		return -1;
	/* IDENTIFIER, IP and TID come first */
	return (int)sizeof(struct perf_event_header) +
	       8 * (!!(t & PERF_SAMPLE_IDENTIFIER) + !!(t & PERF_SAMPLE_IP) +
		    !!(t & PERF_SAMPLE_TID));
}

bool xpf_record_time(uint64_t t, bool sample_id_all, const struct perf_event_header *hdr,
		     uint64_t *time)
{
	size_t pos;

	if (!(t & PERF_SAMPLE_TIME) || hdr->size < sizeof(*hdr))
		return false;
	if (hdr->type == PERF_RECORD_SAMPLE) {
		pos = (size_t)xpf_sample_time_offset(t);
	} else {
		/* in the trailer TIME follows TID only: ID, STREAM_ID, CPU, IDENTIFIER come after */
		size_t after = xpf_sample_id_size(t & (PERF_SAMPLE_ID | PERF_SAMPLE_STREAM_ID |
						       PERF_SAMPLE_CPU | PERF_SAMPLE_IDENTIFIER));

		if (!sample_id_all || hdr->type >= XPF_RECORD_HEADER_ATTR ||
		    hdr->size < sizeof(*hdr) + after + 8)
			return false;
		pos = hdr->size - after - 8;
	}
	if (pos + 8 > hdr->size)
		return false;
	memcpy(time, (const char *)hdr + pos, 8);
	return true;
}

int xpf_sample_id_decode(const struct perf_event_attr *attr, const struct perf_event_header *hdr,
			 struct xpf_sample *s, struct xb_error *err)
{
	uint64_t t = attr->sample_type;
	unsigned int need = xpf_sample_id_size(t);
	struct cursor c;
	int ret;

	memset(s, 0, sizeof(*s));
	s->type = t & (PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_ID | PERF_SAMPLE_STREAM_ID |
		       PERF_SAMPLE_CPU | PERF_SAMPLE_IDENTIFIER);
	if (!attr->sample_id_all || hdr->type == PERF_RECORD_SAMPLE ||
	    hdr->type >= XPF_RECORD_HEADER_ATTR)
		return -ENOENT;
	if ((ret = check_record(hdr, err)))
		return ret;
	if (hdr->size < sizeof(*hdr) + need)
		return xb_error_set(err, -EINVAL,
				     "record of type %u and size %u is too small for its %u-byte sample_id",
				     hdr->type, hdr->size, need);
	/* the trailer sits at the end of the record, in the same order as in a sample */
	c.base = (const uint8_t *)hdr;
	c.end = c.base + hdr->size;
	c.p = c.end - need;
	c.err = err;
	c.field = "sample_id";
	if (t & PERF_SAMPLE_TID && (ret = get_u32_pair(&c, &s->pid, &s->tid)))
		return ret;
	if (t & PERF_SAMPLE_TIME && (ret = get_u64(&c, &s->time)))
		return ret;
	if (t & PERF_SAMPLE_ID && (ret = get_u64(&c, &s->id)))
		return ret;
	if (t & PERF_SAMPLE_STREAM_ID && (ret = get_u64(&c, &s->stream_id)))
		return ret;
	if (t & PERF_SAMPLE_CPU) {
		uint32_t res;

		if ((ret = get_u32_pair(&c, &s->cpu, &res)))
			return ret;
	}
	if (t & PERF_SAMPLE_IDENTIFIER && (ret = get_u64(&c, &s->id)))
		return ret;
	return 0;
}

int xpf_record_id(uint64_t t, bool sample_id_all, const struct perf_event_header *hdr,
		  uint64_t *id)
{
	unsigned int pos;
	const uint8_t *base = (const uint8_t *)hdr;

	if (hdr->size < sizeof(*hdr))
		return -EINVAL;
	if (hdr->type == PERF_RECORD_SAMPLE) {
		/* counted from the front: IDENTIFIER first, else ID after IP, TID, TIME, ADDR */
		if (t & PERF_SAMPLE_IDENTIFIER)
			pos = 0;
		else if (t & PERF_SAMPLE_ID)
			pos = !!(t & PERF_SAMPLE_IP) + !!(t & PERF_SAMPLE_TID) +
			      !!(t & PERF_SAMPLE_TIME) + !!(t & PERF_SAMPLE_ADDR);
		else
			return -ENOENT;
		if (sizeof(*hdr) + 8 * (pos + 1) > hdr->size)
			return -EINVAL;
		memcpy(id, base + sizeof(*hdr) + 8 * pos, 8);
		return 0;
	}
	if (!sample_id_all || hdr->type >= XPF_RECORD_HEADER_ATTR)
		return -ENOENT;
	/* counted from the back of the sample_id trailer */
	if (t & PERF_SAMPLE_IDENTIFIER)
		pos = 1;
	else if (t & PERF_SAMPLE_ID)
		pos = 1 + !!(t & PERF_SAMPLE_CPU) + !!(t & PERF_SAMPLE_STREAM_ID);
	else
		return -ENOENT;
	if (sizeof(*hdr) + 8 * pos > hdr->size)
		return -EINVAL;
	memcpy(id, base + hdr->size - 8 * pos, 8);
	return 0;
}
