/* Unit tests of sample decoding (src/format/sample.c) on hand-built records. */
#include <errno.h>
#include <stdint.h>
#include <string.h>

#include "format/xpf_abi.h"
#include "format/xpf_sample.h"
#include "unit.h"

/* A record under construction, 8-byte aligned. */
struct rb {
	uint64_t w[512];
	size_t bytes;
};

static void rb_init(struct rb *b, uint32_t type)
{
	memset(b, 0, sizeof(*b));
	struct perf_event_header h = { .type = type, .misc = 0, .size = 8 };
	memcpy(b->w, &h, 8);
	b->bytes = 8;
}
static void rb_u64(struct rb *b, uint64_t v)
{
	memcpy((char *)b->w + b->bytes, &v, 8);
	b->bytes += 8;
}
static void rb_u32s(struct rb *b, uint32_t a, uint32_t c)
{
	memcpy((char *)b->w + b->bytes, &a, 4);
	memcpy((char *)b->w + b->bytes + 4, &c, 4);
	b->bytes += 8;
}
static void rb_bytes(struct rb *b, const void *p, size_t n)
{
	memcpy((char *)b->w + b->bytes, p, n);
	b->bytes += n;
}
static const struct perf_event_header *rb_done(struct rb *b)
{
	struct perf_event_header *h = (struct perf_event_header *)b->w;
	h->size = (uint16_t)b->bytes;
	return h;
}

static void test_fixed_fields(void)
{
	struct perf_event_attr a = { .size = sizeof(a) };
	struct rb b;
	struct xpf_sample s;
	struct xb_error err;

	a.sample_type = PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME |
			PERF_SAMPLE_ADDR | PERF_SAMPLE_ID | PERF_SAMPLE_STREAM_ID | PERF_SAMPLE_CPU |
			PERF_SAMPLE_PERIOD;
	rb_init(&b, PERF_RECORD_SAMPLE);
	rb_u64(&b, 77);           /* identifier */
	rb_u64(&b, 0xffffffff81000000ULL);
	rb_u32s(&b, 100, 101);
	rb_u64(&b, 123456789);
	rb_u64(&b, 0xdead);
	rb_u64(&b, 77);           /* id */
	rb_u64(&b, 78);
	rb_u32s(&b, 3, 0);
	rb_u64(&b, 4000);
	REQUIRE(xpf_sample_decode(&a, rb_done(&b), &s, &err) == 0);
	CHECK_EQ_U64(s.id, 77);
	CHECK_EQ_U64(s.ip, 0xffffffff81000000ULL);
	CHECK_EQ_U64(s.pid, 100);
	CHECK_EQ_U64(s.tid, 101);
	CHECK_EQ_U64(s.time, 123456789);
	CHECK_EQ_U64(s.addr, 0xdead);
	CHECK_EQ_U64(s.stream_id, 78);
	CHECK_EQ_U64(s.cpu, 3);
	CHECK_EQ_U64(s.period, 4000);
	CHECK_EQ_U64(s.type, a.sample_type);

	/* one byte short anywhere is an overrun, never a read past the end */
	struct perf_event_header *h = (struct perf_event_header *)b.w;
	for (unsigned int sz = 8; sz < b.bytes; sz += 8) {
		h->size = (uint16_t)sz;
		CHECK(xpf_sample_decode(&a, h, &s, &err) == -EINVAL);
	}
}

static void test_read_values(void)
{
	struct perf_event_attr a = { .size = sizeof(a) };
	struct rb b;
	struct xpf_sample s;
	struct xb_error err;
	uint64_t v, id, lost;

	/* without GROUP: value, times, id, lost */
	a.sample_type = PERF_SAMPLE_READ;
	a.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING |
			PERF_FORMAT_ID | PERF_FORMAT_LOST;
	rb_init(&b, PERF_RECORD_SAMPLE);
	rb_u64(&b, 500); rb_u64(&b, 10); rb_u64(&b, 9); rb_u64(&b, 42); rb_u64(&b, 1);
	REQUIRE(xpf_sample_decode(&a, rb_done(&b), &s, &err) == 0);
	CHECK_EQ_U64(s.read.nr, 1);
	CHECK_EQ_U64(s.read.time_enabled, 10);
	CHECK_EQ_U64(s.read.time_running, 9);
	xpf_read_entry(&s.read, 0, &v, &id, &lost);
	CHECK_EQ_U64(v, 500);
	CHECK_EQ_U64(id, 42);
	CHECK_EQ_U64(lost, 1);

	/* GROUP: nr, times, then {value, id} per member */
	a.read_format = PERF_FORMAT_GROUP | PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_ID;
	rb_init(&b, PERF_RECORD_SAMPLE);
	rb_u64(&b, 2); rb_u64(&b, 1000); rb_u64(&b, 11); rb_u64(&b, 1); rb_u64(&b, 22); rb_u64(&b, 2);
	REQUIRE(xpf_sample_decode(&a, rb_done(&b), &s, &err) == 0);
	CHECK_EQ_U64(s.read.nr, 2);
	CHECK_EQ_U64(s.read.time_enabled, 1000);
	CHECK_EQ_U64(s.read.stride, 2);
	xpf_read_entry(&s.read, 1, &v, &id, &lost);
	CHECK_EQ_U64(v, 22);
	CHECK_EQ_U64(id, 2);
	CHECK_EQ_U64(lost, 0);

	/* a group count beyond the record */
	rb_init(&b, PERF_RECORD_SAMPLE);
	rb_u64(&b, 1ULL << 62); rb_u64(&b, 0);
	CHECK(xpf_sample_decode(&a, rb_done(&b), &s, &err) == -EINVAL);
	CHECK(strstr(err.msg, "read values") != NULL);
}

static void test_callchain_raw_branch(void)
{
	struct perf_event_attr a = { .size = sizeof(a) };
	struct rb b;
	struct xpf_sample s;
	struct xb_error err;
	uint8_t raw[12] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12 };
	uint32_t raw_size = sizeof(raw);

	a.sample_type = PERF_SAMPLE_CALLCHAIN | PERF_SAMPLE_RAW | PERF_SAMPLE_BRANCH_STACK |
			PERF_SAMPLE_PERIOD;
	a.branch_sample_type = PERF_SAMPLE_BRANCH_ANY | PERF_SAMPLE_BRANCH_HW_INDEX;
	rb_init(&b, PERF_RECORD_SAMPLE);
	rb_u64(&b, 9);                       /* period */
	rb_u64(&b, 3); rb_u64(&b, PERF_CONTEXT_USER); rb_u64(&b, 0x401000); rb_u64(&b, 0x401100);
	rb_bytes(&b, &raw_size, 4); rb_bytes(&b, raw, sizeof(raw)); /* 16 bytes: aligned */
	rb_u64(&b, 2); rb_u64(&b, 7);        /* nr, hw_idx */
	rb_u64(&b, 0x10); rb_u64(&b, 0x20); rb_u64(&b, 0);
	rb_u64(&b, 0x30); rb_u64(&b, 0x40); rb_u64(&b, 0);
	REQUIRE(xpf_sample_decode(&a, rb_done(&b), &s, &err) == 0);
	CHECK_EQ_U64(s.period, 9);
	CHECK_EQ_U64(s.callchain.nr, 3);
	CHECK_EQ_U64(s.callchain.ips[2], 0x401100);
	CHECK_EQ_U64(s.raw.size, 12);
	CHECK(s.raw.data && !memcmp(s.raw.data, raw, 12));
	CHECK_EQ_U64(s.branch_stack.nr, 2);
	CHECK(s.branch_stack.has_hw_idx);
	CHECK_EQ_U64(s.branch_stack.hw_idx, 7);
	CHECK_EQ_U64(s.branch_stack.entries[1].from, 0x30);
	CHECK_EQ_U64(s.branch_stack.entries[1].to, 0x40);

	/* without HW_INDEX the entries follow nr directly */
	a.branch_sample_type = PERF_SAMPLE_BRANCH_ANY;
	a.sample_type = PERF_SAMPLE_BRANCH_STACK;
	rb_init(&b, PERF_RECORD_SAMPLE);
	rb_u64(&b, 1); rb_u64(&b, 0x50); rb_u64(&b, 0x60); rb_u64(&b, 0);
	REQUIRE(xpf_sample_decode(&a, rb_done(&b), &s, &err) == 0);
	CHECK(!s.branch_stack.has_hw_idx);
	CHECK_EQ_U64(s.branch_stack.entries[0].to, 0x60);

	/* callchain nr beyond the record */
	a.sample_type = PERF_SAMPLE_CALLCHAIN;
	rb_init(&b, PERF_RECORD_SAMPLE);
	rb_u64(&b, 0x1000000000000000ULL); rb_u64(&b, 1);
	CHECK(xpf_sample_decode(&a, rb_done(&b), &s, &err) == -EINVAL);
	CHECK(strstr(err.msg, "callchain") != NULL);

	/* raw data that would leave the next field misaligned */
	a.sample_type = PERF_SAMPLE_RAW | PERF_SAMPLE_PERIOD;
	raw_size = 5;
	rb_init(&b, PERF_RECORD_SAMPLE);
	rb_u64(&b, 1);
	rb_bytes(&b, &raw_size, 4); rb_bytes(&b, raw, 12);
	CHECK(xpf_sample_decode(&a, rb_done(&b), &s, &err) == -EINVAL);
	/* raw size beyond the record */
	raw_size = 4000;
	rb_init(&b, PERF_RECORD_SAMPLE);
	rb_u64(&b, 1);
	rb_bytes(&b, &raw_size, 4); rb_bytes(&b, raw, 4);
	CHECK(xpf_sample_decode(&a, rb_done(&b), &s, &err) == -EINVAL);
	CHECK(strstr(err.msg, "raw") != NULL);
}

static void test_regs_stack(void)
{
	struct perf_event_attr a = { .size = sizeof(a) };
	struct rb b;
	struct xpf_sample s;
	struct xb_error err;
	uint64_t stack[2] = { 0x1111, 0x2222 };

	a.sample_type = PERF_SAMPLE_REGS_USER | PERF_SAMPLE_STACK_USER | PERF_SAMPLE_REGS_INTR;
	a.sample_regs_user = 0x7;        /* 3 registers */
	a.sample_regs_intr = 0x1 | 0x100; /* 2 registers */
	rb_init(&b, PERF_RECORD_SAMPLE);
	rb_u64(&b, PERF_SAMPLE_REGS_ABI_64); rb_u64(&b, 1); rb_u64(&b, 2); rb_u64(&b, 3);
	rb_u64(&b, 16); rb_bytes(&b, stack, 16); rb_u64(&b, 8);
	rb_u64(&b, PERF_SAMPLE_REGS_ABI_64); rb_u64(&b, 10); rb_u64(&b, 20);
	REQUIRE(xpf_sample_decode(&a, rb_done(&b), &s, &err) == 0);
	CHECK_EQ_U64(s.user_regs.abi, PERF_SAMPLE_REGS_ABI_64);
	CHECK_EQ_U64(s.user_regs.nr, 3);
	CHECK_EQ_U64(s.user_regs.mask, 7);
	CHECK_EQ_U64(s.user_regs.regs[2], 3);
	CHECK_EQ_U64(s.user_stack.size, 16);
	CHECK_EQ_U64(s.user_stack.dyn_size, 8);
	CHECK(s.user_stack.data && !memcmp(s.user_stack.data, stack, 16));
	CHECK_EQ_U64(s.intr_regs.nr, 2);
	CHECK_EQ_U64(s.intr_regs.regs[1], 20);

	/* abi 0: no registers; stack size 0: no data and no dyn_size */
	rb_init(&b, PERF_RECORD_SAMPLE);
	rb_u64(&b, 0); rb_u64(&b, 0); rb_u64(&b, 0);
	REQUIRE(xpf_sample_decode(&a, rb_done(&b), &s, &err) == 0);
	CHECK_EQ_U64(s.user_regs.nr, 0);
	CHECK_EQ_U64(s.user_stack.size, 0);
	CHECK_EQ_U64(s.intr_regs.nr, 0);

	/* dyn_size larger than the stack copy is corrupt */
	rb_init(&b, PERF_RECORD_SAMPLE);
	rb_u64(&b, 0); rb_u64(&b, 16); rb_bytes(&b, stack, 16); rb_u64(&b, 24); rb_u64(&b, 0);
	CHECK(xpf_sample_decode(&a, rb_done(&b), &s, &err) == -EINVAL);
	/* stack size beyond the record */
	rb_init(&b, PERF_RECORD_SAMPLE);
	rb_u64(&b, 0); rb_u64(&b, 4096); rb_u64(&b, 0);
	CHECK(xpf_sample_decode(&a, rb_done(&b), &s, &err) == -EINVAL);
	CHECK(strstr(err.msg, "user stack") != NULL);
}

static void test_tail_fields(void)
{
	struct perf_event_attr a = { .size = sizeof(a) };
	struct rb b;
	struct xpf_sample s;
	struct xb_error err;
	uint64_t aux[2] = { 0xa1, 0xa2 };

	a.sample_type = PERF_SAMPLE_WEIGHT_STRUCT | PERF_SAMPLE_DATA_SRC | PERF_SAMPLE_TRANSACTION |
			PERF_SAMPLE_PHYS_ADDR | PERF_SAMPLE_CGROUP | PERF_SAMPLE_DATA_PAGE_SIZE |
			PERF_SAMPLE_CODE_PAGE_SIZE | PERF_SAMPLE_AUX;
	rb_init(&b, PERF_RECORD_SAMPLE);
	rb_u64(&b, 0x0003000200000100ULL); /* var3 3, var2 2, var1 0x100 */
	rb_u64(&b, 0x5a5a);
	rb_u64(&b, 0x77);
	rb_u64(&b, 0x123000);
	rb_u64(&b, 99);
	rb_u64(&b, 4096);
	rb_u64(&b, 2 << 20);
	rb_u64(&b, 16); rb_bytes(&b, aux, 16);
	REQUIRE(xpf_sample_decode(&a, rb_done(&b), &s, &err) == 0);
	CHECK_EQ_U64(s.weight, 0x100);
	CHECK_EQ_U64(s.weight_var2, 2);
	CHECK_EQ_U64(s.weight_var3, 3);
	CHECK_EQ_U64(s.data_src, 0x5a5a);
	CHECK_EQ_U64(s.transaction, 0x77);
	CHECK_EQ_U64(s.phys_addr, 0x123000);
	CHECK_EQ_U64(s.cgroup, 99);
	CHECK_EQ_U64(s.data_page_size, 4096);
	CHECK_EQ_U64(s.code_page_size, 2 << 20);
	CHECK_EQ_U64(s.aux.size, 16);
	CHECK(s.aux.data && !memcmp(s.aux.data, aux, 16));

	/* plain WEIGHT is the whole u64 */
	a.sample_type = PERF_SAMPLE_WEIGHT;
	rb_init(&b, PERF_RECORD_SAMPLE);
	rb_u64(&b, 0x0003000200000100ULL);
	REQUIRE(xpf_sample_decode(&a, rb_done(&b), &s, &err) == 0);
	CHECK_EQ_U64(s.weight, 0x0003000200000100ULL);

	/* aux size beyond the record */
	a.sample_type = PERF_SAMPLE_AUX;
	rb_init(&b, PERF_RECORD_SAMPLE);
	rb_u64(&b, 1000); rb_u64(&b, 0);
	CHECK(xpf_sample_decode(&a, rb_done(&b), &s, &err) == -EINVAL);
	CHECK(strstr(err.msg, "aux") != NULL);
}

/* Every bit at once: each field lands where the kernel's order puts it. */
static void test_all_bits(void)
{
	struct perf_event_attr a = { .size = sizeof(a) };
	struct rb b;
	struct xpf_sample s;
	struct xb_error err;
	uint32_t raw_size = 4;
	uint32_t raw = 0xabcdef01;

	a.sample_type = (PERF_SAMPLE_WEIGHT_STRUCT << 1) - 1;
	a.sample_type &= ~(uint64_t)PERF_SAMPLE_WEIGHT; /* WEIGHT and WEIGHT_STRUCT share a slot */
	a.read_format = PERF_FORMAT_ID;
	a.sample_regs_user = 1;
	a.sample_regs_intr = 3;
	rb_init(&b, PERF_RECORD_SAMPLE);
	rb_u64(&b, 5);                 /* identifier */
	rb_u64(&b, 0x1000);            /* ip */
	rb_u32s(&b, 1, 2);
	rb_u64(&b, 3);                 /* time */
	rb_u64(&b, 4);                 /* addr */
	rb_u64(&b, 5);                 /* id */
	rb_u64(&b, 6);                 /* stream id */
	rb_u32s(&b, 1, 0);             /* cpu */
	rb_u64(&b, 8);                 /* period */
	rb_u64(&b, 100); rb_u64(&b, 5); /* read: value, id */
	rb_u64(&b, 1); rb_u64(&b, 0x1000); /* callchain */
	rb_bytes(&b, &raw_size, 4); rb_bytes(&b, &raw, 4);
	rb_u64(&b, 0);                 /* branch nr */
	rb_u64(&b, 1); rb_u64(&b, 0xbeef); /* regs user */
	rb_u64(&b, 8); rb_u64(&b, 0x5555); rb_u64(&b, 8); /* stack */
	rb_u64(&b, 77);                /* weight struct */
	rb_u64(&b, 9);                 /* data src */
	rb_u64(&b, 10);                /* transaction */
	rb_u64(&b, 1); rb_u64(&b, 11); rb_u64(&b, 12); /* regs intr */
	rb_u64(&b, 13);                /* phys */
	rb_u64(&b, 14);                /* cgroup */
	rb_u64(&b, 15);                /* data page */
	rb_u64(&b, 16);                /* code page */
	rb_u64(&b, 8); rb_u64(&b, 17); /* aux */
	REQUIRE(xpf_sample_decode(&a, rb_done(&b), &s, &err) == 0);
	CHECK_EQ_U64(s.read.id, 5);
	CHECK_EQ_U64(s.raw.size, 4);
	CHECK_EQ_U64(s.user_regs.regs[0], 0xbeef);
	CHECK_EQ_U64(s.weight, 77);
	CHECK_EQ_U64(s.intr_regs.regs[1], 12);
	CHECK_EQ_U64(s.code_page_size, 16);
	CHECK_EQ_U64(*(const uint64_t *)s.aux.data, 17);

	/* any cut is caught */
	struct perf_event_header *h = (struct perf_event_header *)b.w;
	size_t full = b.bytes;
	for (size_t sz = 8; sz < full; sz += 8) {
		h->size = (uint16_t)sz;
		CHECK(xpf_sample_decode(&a, h, &s, &err) < 0);
	}
}

static void test_unknown_bits_and_type(void)
{
	struct perf_event_attr a = { .size = sizeof(a) };
	struct rb b;
	struct xpf_sample s;
	struct xb_error err;

	a.sample_type = PERF_SAMPLE_IP | (1ULL << 40);
	rb_init(&b, PERF_RECORD_SAMPLE);
	rb_u64(&b, 1);
	CHECK(xpf_sample_decode(&a, rb_done(&b), &s, &err) == -EOPNOTSUPP);
	/* the message names only the unknown bits */
	CHECK(strstr(err.msg, "unknown sample_type bits 0x10000000000") != NULL);
	a.sample_type = PERF_SAMPLE_IP;
	rb_init(&b, PERF_RECORD_COMM);
	rb_u64(&b, 1);
	CHECK(xpf_sample_decode(&a, rb_done(&b), &s, &err) == -EINVAL);
}

/* Where TIME and the trailer sit: the one answer for the reader, writer, record and report. */
static void test_record_time(void)
{
	uint64_t buf[8] = { 0 }, t = 0;
	struct perf_event_header *h = (struct perf_event_header *)buf;

	CHECK_EQ_U64(xpf_sample_id_size(0), 0);
	CHECK_EQ_U64(xpf_sample_id_size(PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME |
					PERF_SAMPLE_PERIOD), 16);
	CHECK_EQ_U64(xpf_sample_id_size(PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_ID |
					PERF_SAMPLE_STREAM_ID | PERF_SAMPLE_CPU |
					PERF_SAMPLE_IDENTIFIER), 48);
	CHECK_EQ_U64(xpf_sample_time_offset(PERF_SAMPLE_IP | PERF_SAMPLE_TID), (uint64_t)-1);
	CHECK_EQ_U64(xpf_sample_time_offset(PERF_SAMPLE_TIME | PERF_SAMPLE_ID), 8);
	CHECK_EQ_U64(xpf_sample_time_offset(PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP |
					    PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_CPU),
		     32);
	/* SAMPLE with IDENTIFIER|IP|TID|TIME: time is the fourth u64 of the body */
	h->type = PERF_RECORD_SAMPLE;
	h->size = 8 * 5;
	buf[4] = 777;
	CHECK(xpf_record_time(PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID |
			      PERF_SAMPLE_TIME, true, h, &t));
	CHECK_EQ_U64(t, 777);
	/* too short for its TIME */
	h->size = 8 * 4;
	CHECK(!xpf_record_time(PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID |
			       PERF_SAMPLE_TIME, true, h, &t));
	/* COMM with a TID|TIME|ID|CPU trailer: time third from the end */
	h->type = PERF_RECORD_COMM;
	h->size = 8 * 6;
	buf[3] = 888;
	CHECK(xpf_record_time(PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_ID | PERF_SAMPLE_CPU,
			      true, h, &t));
	CHECK_EQ_U64(t, 888);
	CHECK(!xpf_record_time(PERF_SAMPLE_TID | PERF_SAMPLE_TIME, false, h, &t));
	CHECK(!xpf_record_time(PERF_SAMPLE_TID, true, h, &t));
	/* user records (FINISHED_ROUND, ...) carry no trailer */
	h->type = XPF_RECORD_FINISHED_ROUND;
	CHECK(!xpf_record_time(PERF_SAMPLE_TID | PERF_SAMPLE_TIME, true, h, &t));
}

/* A sample longer than its sample_type's fields disagrees with its attr: not decoded. */
static void test_size_disagrees(void)
{
	struct perf_event_attr a = { .size = sizeof(a) };
	struct rb b;
	struct xpf_sample s;
	struct xb_error err;

	a.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID;
	rb_init(&b, PERF_RECORD_SAMPLE);
	rb_u64(&b, 0x1000);
	rb_u32s(&b, 1, 2);
	CHECK(xpf_sample_decode(&a, rb_done(&b), &s, &err) == 0);
	rb_u64(&b, 0);
	CHECK(xpf_sample_decode(&a, rb_done(&b), &s, &err) == -EINVAL);
	CHECK(strstr(err.msg, "size 32, but its sample_type needs 24 bytes") != NULL);
	/* a callchain that ends short of the record leaves bytes over too */
	a.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_CALLCHAIN;
	rb_init(&b, PERF_RECORD_SAMPLE);
	rb_u64(&b, 0x1000);
	rb_u64(&b, 1);
	rb_u64(&b, 0x1000);
	CHECK(xpf_sample_decode(&a, rb_done(&b), &s, &err) == 0);
	rb_u64(&b, 0x2000);
	CHECK(xpf_sample_decode(&a, rb_done(&b), &s, &err) == -EINVAL);
}

static void test_sample_id_trailer(void)
{
	struct perf_event_attr a = { .size = sizeof(a) };
	struct rb b;
	struct xpf_sample s;
	struct xb_error err;
	uint64_t id;

	a.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_ID |
			PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD;
	a.sample_id_all = 1;
	rb_init(&b, PERF_RECORD_COMM);
	rb_u32s(&b, 10, 11);
	rb_bytes(&b, "sleep\0\0\0", 8);
	rb_u32s(&b, 10, 11);   /* trailer: tid, time, id, cpu */
	rb_u64(&b, 5555);
	rb_u64(&b, 42);
	rb_u32s(&b, 1, 0);
	REQUIRE(xpf_sample_id_decode(&a, rb_done(&b), &s, &err) == 0);
	CHECK_EQ_U64(s.pid, 10);
	CHECK_EQ_U64(s.tid, 11);
	CHECK_EQ_U64(s.time, 5555);
	CHECK_EQ_U64(s.id, 42);
	CHECK_EQ_U64(s.cpu, 1);
	CHECK(xpf_record_id(a.sample_type, true, rb_done(&b), &id) == 0);
	CHECK_EQ_U64(id, 42);
	CHECK(xpf_record_id(a.sample_type, false, rb_done(&b), &id) == -ENOENT);

	/* in a sample, the id follows ip, tid and time */
	rb_init(&b, PERF_RECORD_SAMPLE);
	rb_u64(&b, 0x1000); rb_u32s(&b, 1, 1); rb_u64(&b, 2); rb_u64(&b, 43); rb_u32s(&b, 0, 0);
	rb_u64(&b, 1);
	CHECK(xpf_record_id(a.sample_type, true, rb_done(&b), &id) == 0);
	CHECK_EQ_U64(id, 43);
	/* IDENTIFIER: first in samples, last in trailers */
	a.sample_type = PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_TIME;
	rb_init(&b, PERF_RECORD_SAMPLE);
	rb_u64(&b, 44); rb_u64(&b, 1);
	CHECK(xpf_record_id(a.sample_type, true, rb_done(&b), &id) == 0);
	CHECK_EQ_U64(id, 44);
	rb_init(&b, PERF_RECORD_EXIT);
	rb_u64(&b, 1); rb_u64(&b, 2); rb_u64(&b, 3); rb_u64(&b, 4); rb_u64(&b, 45);
	CHECK(xpf_record_id(a.sample_type, true, rb_done(&b), &id) == 0);
	CHECK_EQ_U64(id, 45);
	REQUIRE(xpf_sample_id_decode(&a, rb_done(&b), &s, &err) == 0);
	CHECK_EQ_U64(s.time, 4);
	CHECK_EQ_U64(s.id, 45);

	/* a record too short for its trailer; user records carry none */
	rb_init(&b, PERF_RECORD_EXIT);
	rb_u64(&b, 1);
	a.sample_type = PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_ID;
	CHECK(xpf_sample_id_decode(&a, rb_done(&b), &s, &err) == -EINVAL);
	rb_init(&b, XPF_RECORD_FINISHED_ROUND);
	CHECK(xpf_sample_id_decode(&a, rb_done(&b), &s, &err) == -ENOENT);
	CHECK(xpf_record_id(a.sample_type, true, rb_done(&b), &id) == -ENOENT);
}

static void test_names(void)
{
	CHECK_STR(xpf_record_type_name(PERF_RECORD_MMAP2), "MMAP2");
	CHECK_STR(xpf_record_type_name(XPF_RECORD_FINISHED_ROUND), "FINISHED_ROUND");
	CHECK_STR(xpf_record_type_name(XPF_RECORD_COMPRESSED), "COMPRESSED");
	CHECK_STR(xpf_record_type_name(XPF_RECORD_HEADER_ATTR), "ATTR");
	CHECK_STR(xpf_record_type_name(XPF_RECORD_HEADER_FEATURE), "FEATURE");
	CHECK(xpf_record_type_name(0) == NULL);
	CHECK(xpf_record_type_name(1000) == NULL);
	CHECK_STR(xpf_feature_name(XPF_FEAT_HOSTNAME), "HOSTNAME");
	CHECK_STR(xpf_feature_name(XPF_FEAT_PMU_CAPS), "PMU_CAPS");
	CHECK(xpf_feature_name(XPF_FEAT_LAST_KNOWN) == NULL);
}

int main(void)
{
	RUN(test_fixed_fields);
	RUN(test_read_values);
	RUN(test_callchain_raw_branch);
	RUN(test_regs_stack);
	RUN(test_tail_fields);
	RUN(test_all_bits);
	RUN(test_unknown_bits_and_type);
	RUN(test_size_disagrees);
	RUN(test_sample_id_trailer);
	RUN(test_record_time);
	RUN(test_names);
	UNIT_MAIN_END();
}
