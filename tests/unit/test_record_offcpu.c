/* Unit tests of src/record/offcpu.c: blocked intervals paired from what the rings give. */
#include <errno.h>
#include <sys/stat.h>
#include <unistd.h>

#include "format/xpf_sample.h"
#include "unit.h"

#include "record/offcpu.h"

#define TP_ID 100
#define TRACK_ID 99
#define TID 8
#define USER_IP 0x401000ULL
#define ST (PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | \
	    PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD | PERF_SAMPLE_CALLCHAIN | PERF_SAMPLE_RAW)

static char tracefs[64];

/* A tracefs with the one format file offcpu.c reads. */
static int make_fake_tracefs(void)
{
	char path[256];
	FILE *f;

	strcpy(tracefs, "/tmp/xperf-offcpu-XXXXXX");
	if (!mkdtemp(tracefs))
		return -1;
	snprintf(path, sizeof(path), "%s/events", tracefs);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/events/sched", tracefs);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/events/sched/sched_switch", tracefs);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/events/sched/sched_switch/format", tracefs);
	f = fopen(path, "w");
	if (!f)
		return -1;
	fputs("name: sched_switch\nformat:\n"
	      "\tfield:char prev_comm[16];\toffset:8;\tsize:16;\tsigned:0;\n"
	      "\tfield:long prev_state;\toffset:32;\tsize:8;\tsigned:1;\n", f);
	return fclose(f);
}

static void rm_fake_tracefs(void)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tracefs);
	if (system(cmd) != 0)
		fprintf(stderr, "cannot remove %s\n", tracefs);
}

struct fixture {
	struct xpe_event tp, track;
	int tp_fd[1], track_fd[1];
	uint64_t tp_id[1], track_id[1];
	struct rec_offcpu *oc;
};

static int setup(struct fixture *f, bool keep_switches)
{
	struct xb_error err = { 0 };

	memset(f, 0, sizeof(*f));
	f->tp.attr.sample_type = ST;
	f->tp.attr.sample_id_all = 1;
	f->tp.attr.type = PERF_TYPE_TRACEPOINT;
	f->track.attr = f->tp.attr;
	f->tp_fd[0] = 3;
	f->track_fd[0] = 4;
	f->tp_id[0] = TP_ID;
	f->track_id[0] = TRACK_ID;
	f->tp.fd = f->tp_fd;
	f->tp.id = f->tp_id;
	f->tp.nr_fd = 1;
	f->track.fd = f->track_fd;
	f->track.id = f->track_id;
	f->track.nr_fd = 1;
	return rec_offcpu_create(&f->oc, &f->tp, &f->track, keep_switches, tracefs, &err);
}

/* A sched_switch sample of TID leaving the cpu at time t in state `state`. */
static struct perf_event_header *switch_out_sample(uint64_t t, int64_t state, uint64_t *buf)
{
	struct perf_event_header *h = (void *)buf;
	uint64_t *b = buf + 1;
	uint32_t raw_size = 68;
	char raw[68] = { 0 };
	int n = 0;

	b[n++] = TP_ID;                       /* identifier */
	b[n++] = 0xffffffff81000000ULL;       /* ip: __schedule */
	b[n++] = (uint64_t)TID << 32 | 7;     /* pid 7, tid 8 */
	b[n++] = t;
	b[n++] = 1;                           /* cpu 1 */
	b[n++] = 1;                           /* period */
	b[n++] = 3;                           /* callchain */
	b[n++] = PERF_CONTEXT_USER;
	b[n++] = USER_IP;
	b[n++] = 0x402000;
	memcpy(raw + 32, &state, 8);
	memcpy(&b[n], &raw_size, 4);
	memcpy((char *)&b[n] + 4, raw, raw_size);
	n += (4 + raw_size) / 8;
	h->type = PERF_RECORD_SAMPLE;
	h->misc = PERF_RECORD_MISC_KERNEL;
	h->size = (uint16_t)(8 + 8 * n);
	return h;
}

/* A PERF_RECORD_SWITCH of TID at time t, in or out, from the tracking event. */
static struct perf_event_header *switch_record(uint64_t t, bool out, uint64_t *buf)
{
	struct perf_event_header *h = (void *)buf;
	uint64_t *b = buf + 1;

	/* sample_id: tid, time, cpu, identifier */
	b[0] = (uint64_t)TID << 32 | 7;
	b[1] = t;
	b[2] = 1;
	b[3] = TRACK_ID;
	h->type = PERF_RECORD_SWITCH;
	h->misc = out ? PERF_RECORD_MISC_SWITCH_OUT : 0;
	h->size = 8 + 32;
	return h;
}

#define MAX_RECS 16

struct collected {
	int n;
	uint64_t rec[MAX_RECS][64];
};

static int collect(void *ctx, const struct perf_event_header *h)
{
	struct collected *c = ctx;

	if (c->n == MAX_RECS || h->size > sizeof(c->rec[0]))
		return -ENOSPC;
	memcpy(c->rec[c->n++], h, h->size);
	return 0;
}

static void see(struct fixture *f, const struct perf_event_header *h, int want)
{
	int got = rec_offcpu_see(f->oc, h);

	if (got != want)
		UNIT_FAIL("rec_offcpu_see of type %u returned %d, expected %d", h->type, got, want);
}

/* The one offcpu-time sample of c: TID's, its period and time. */
static void check_interval(const struct collected *c, int i, uint64_t period, uint64_t time)
{
	const struct perf_event_header *h = (const void *)c->rec[i];
	struct perf_event_attr a = { .sample_type = ST, .sample_id_all = 1 };
	struct xpf_sample s;
	struct xb_error err;

	REQUIRE(xpf_sample_decode(&a, h, &s, &err) == 0);
	CHECK_EQ_U64(s.id, TP_ID + 1);
	CHECK_EQ_U64(s.tid, TID);
	CHECK_EQ_U64(s.period, period);
	CHECK_EQ_U64(s.time, time);
	/* its own ip: the user frame that waited, as perf's off-CPU samples */
	CHECK_EQ_U64(s.ip, USER_IP);
	CHECK_EQ_U64(h->misc & PERF_RECORD_MISC_CPUMODE_MASK, PERF_RECORD_MISC_USER);
	CHECK_EQ_U64(s.callchain.nr, 3);
}

static void test_attr(void)
{
	struct fixture f;
	struct perf_event_attr a;
	uint64_t id;

	REQUIRE(setup(&f, false) == 0);
	rec_offcpu_attr(f.oc, &a, &id);
	CHECK_EQ_U64(a.type, PERF_TYPE_SOFTWARE);
	CHECK_EQ_U64(a.config, PERF_COUNT_SW_BPF_OUTPUT);
	CHECK_EQ_U64(a.sample_type, ST);
	CHECK_EQ_U64(a.sample_period, 1);
	/* an id no event of ours has */
	CHECK_EQ_U64(id, TP_ID + 1);
	rec_offcpu_free(f.oc);
}

static void test_pairs_across_passes(void)
{
	struct fixture f;
	struct collected c = { 0 };
	uint64_t buf[64];

	REQUIRE(setup(&f, false) == 0);
	/* the sched_switch sample and the switch records stay out of the file */
	see(&f, switch_out_sample(1000, 1, buf), 0);
	see(&f, switch_record(1001, true, buf), 0);
	CHECK(rec_offcpu_flush(f.oc, collect, &c) == 0);
	CHECK_EQ_U64(c.n, 0);
	see(&f, switch_record(31000, false, buf), 0);
	CHECK(rec_offcpu_flush(f.oc, collect, &c) == 0);
	REQUIRE(c.n == 1);
	check_interval(&c, 0, 30000, 31000);
	CHECK_EQ_U64(rec_offcpu_written(f.oc), 1);
	rec_offcpu_free(f.oc);
}

/* The rings are read one after another: the switch-in may come first in a pass. */
static void test_in_read_before_out(void)
{
	struct fixture f;
	struct collected c = { 0 };
	uint64_t buf[64];

	REQUIRE(setup(&f, false) == 0);
	see(&f, switch_record(5000, false, buf), 0);
	see(&f, switch_out_sample(2000, 2, buf), 0);
	CHECK(rec_offcpu_flush(f.oc, collect, &c) == 0);
	REQUIRE(c.n == 1);
	check_interval(&c, 0, 3000, 5000);
	/* or in the pass before: it waits one pass for its switch-out, not two */
	see(&f, switch_record(9000, false, buf), 0);
	CHECK(rec_offcpu_flush(f.oc, collect, &c) == 0);
	see(&f, switch_out_sample(8000, 1, buf), 0);
	CHECK(rec_offcpu_flush(f.oc, collect, &c) == 0);
	REQUIRE(c.n == 2);
	check_interval(&c, 1, 1000, 9000);
	see(&f, switch_record(12000, false, buf), 0);
	CHECK(rec_offcpu_flush(f.oc, collect, &c) == 0);
	CHECK(rec_offcpu_flush(f.oc, collect, &c) == 0);
	see(&f, switch_out_sample(11000, 1, buf), 0);
	CHECK(rec_offcpu_flush(f.oc, collect, &c) == 0);
	CHECK_EQ_U64(c.n, 2);
	rec_offcpu_free(f.oc);
}

/* A preempted task (state R, or R+ with the preempt bit) is runnable, not blocked. */
static void test_preempted_not_counted(void)
{
	struct fixture f;
	struct collected c = { 0 };
	uint64_t buf[64];

	REQUIRE(setup(&f, false) == 0);
	see(&f, switch_out_sample(1000, 0, buf), 0);
	see(&f, switch_record(2000, false, buf), 0);
	see(&f, switch_out_sample(3000, 0x100, buf), 0);
	see(&f, switch_record(4000, false, buf), 0);
	CHECK(rec_offcpu_flush(f.oc, collect, &c) == 0);
	CHECK_EQ_U64(c.n, 0);
	rec_offcpu_free(f.oc);
}

static void test_switch_events_kept(void)
{
	struct fixture f;
	struct collected c = { 0 };
	uint64_t buf[64];

	REQUIRE(setup(&f, true) == 0);
	see(&f, switch_out_sample(1000, 1, buf), 0);
	see(&f, switch_record(1001, true, buf), 1);
	see(&f, switch_record(2000, false, buf), 1);
	/* a sample of another event goes its way */
	switch_out_sample(3000, 1, buf);
	buf[1] = TRACK_ID;
	see(&f, (void *)buf, 1);
	CHECK(rec_offcpu_flush(f.oc, collect, &c) == 0);
	REQUIRE(c.n == 1);
	check_interval(&c, 0, 1000, 2000);
	rec_offcpu_free(f.oc);
}

static void test_no_format_file(void)
{
	struct fixture f;
	struct xb_error err = { 0 };

	memset(&f, 0, sizeof(f));
	f.tp.attr.sample_type = ST;
	f.tp.attr.sample_id_all = 1;
	CHECK(rec_offcpu_create(&f.oc, &f.tp, &f.track, false, "/nonexistent", &err) < 0);
	CHECK(strstr(err.msg, "sched_switch/format") != NULL);
	CHECK(rec_offcpu_create(&f.oc, &f.tp, &f.track, false, NULL, &err) == -ENOENT);
}

int main(void)
{
	if (make_fake_tracefs() < 0) {
		printf("not ok - fake tracefs: %s\n", strerror(errno));
		return 1;
	}
	RUN(test_attr);
	RUN(test_pairs_across_passes);
	RUN(test_in_read_before_out);
	RUN(test_preempted_not_counted);
	RUN(test_switch_events_kept);
	RUN(test_no_format_file);
	rm_fake_tracefs();
	UNIT_MAIN_END();
}
