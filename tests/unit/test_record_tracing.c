/* Unit tests of src/record/tracing_data.c: the TRACING_DATA layout over a fake tracefs. */
#include <errno.h>
#include <sys/stat.h>
#include <unistd.h>

#include "unit.h"

#include "record/tracing_data.h"

static char root[256];

static void put_text(const char *rel, const char *text)
{
	char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	f = fopen(path, "w");
	if (f) {
		fputs(text, f);
		fclose(f);
	}
}

static void mk(const char *rel)
{
	char path[512];

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	mkdir(path, 0755);
}

static int fake_tracefs(void)
{
	snprintf(root, sizeof(root), "/tmp/xperf-tracing-XXXXXX");
	if (!mkdtemp(root))
		return -1;
	mk("events");
	mk("events/sched");
	mk("events/sched/sched_switch");
	mk("events/sched/sched_wakeup");
	mk("events/irq");
	mk("events/irq/irq_handler_entry");
	put_text("events/header_page", "HP");
	put_text("events/header_event", "HEV");
	put_text("events/sched/sched_switch/id", "316\n");
	put_text("events/sched/sched_switch/format", "name: sched_switch\n");
	put_text("events/sched/sched_wakeup/id", "317\n");
	put_text("events/sched/sched_wakeup/format", "name: sched_wakeup\n");
	put_text("events/irq/irq_handler_entry/id", "100\n");
	put_text("events/irq/irq_handler_entry/format", "name: irq_handler_entry\n");
	put_text("printk_formats", "0x1 : \"x\"\n");
	/* no saved_cmdlines: its size is 0 */
	return 0;
}

/* A cursor over the blob, failing the case on overruns. */
struct cur {
	const uint8_t *p;
	size_t left;
};

static int take(struct cur *c, void *out, size_t n)
{
	if (n > c->left)
		return -1;
	memcpy(out, c->p, n);
	c->p += n;
	c->left -= n;
	return 0;
}

static int expect_bytes(struct cur *c, const void *want, size_t n)
{
	if (n > c->left || memcmp(c->p, want, n))
		return -1;
	c->p += n;
	c->left -= n;
	return 0;
}

/* u64 size then exactly `want` */
static int expect_file8(struct cur *c, const char *want)
{
	uint64_t sz;

	if (take(c, &sz, 8) || sz != strlen(want))
		return -1;
	return expect_bytes(c, want, sz);
}

static uint32_t u32(struct cur *c)
{
	uint32_t v = 0xffffffff;

	take(c, &v, 4);
	return v;
}

static void layout(void)
{
	xpe_ctx *ctx;
	xpe_evlist *evl;
	struct xb_error err = { 0 };
	void *blob = NULL;
	size_t size = 0;
	struct cur c;
	uint8_t b;
	uint64_t sz;

	REQUIRE(fake_tracefs() == 0);
	ctx = xpe_ctx_create(NULL, root);
	evl = xpe_evlist_create();
	REQUIRE(ctx && evl);
	REQUIRE(xpe_evlist_parse(evl, ctx, "sched:sched_switch,irq:irq_handler_entry,cpu-clock,"
				 "sched:sched_wakeup,sched:sched_switch", &err) == 0);
	REQUIRE(xrec_tracing_data(ctx, evl, &blob, &size, &err) == 0);
	REQUIRE(blob);
	c.p = blob;
	c.left = size;
	CHECK(expect_bytes(&c, "\027\010\104tracing", 10) == 0);
	CHECK(expect_bytes(&c, "0.6", 4) == 0);
	CHECK(take(&c, &b, 1) == 0 && b == 0);               /* little endian */
	CHECK(take(&c, &b, 1) == 0 && b == sizeof(long));
	CHECK_EQ_U64(u32(&c), (uint32_t)sysconf(_SC_PAGESIZE));
	CHECK(expect_bytes(&c, "header_page", 12) == 0);
	CHECK(expect_file8(&c, "HP") == 0);
	CHECK(expect_bytes(&c, "header_event", 13) == 0);
	CHECK(expect_file8(&c, "HEV") == 0);
	CHECK_EQ_U64(u32(&c), 0);                            /* ftrace formats */
	CHECK_EQ_U64(u32(&c), 2);                            /* systems */
	CHECK(expect_bytes(&c, "sched", 6) == 0);
	CHECK_EQ_U64(u32(&c), 2);                            /* sched_switch once */
	CHECK(expect_file8(&c, "name: sched_switch\n") == 0);
	CHECK(expect_file8(&c, "name: sched_wakeup\n") == 0);
	CHECK(expect_bytes(&c, "irq", 4) == 0);
	CHECK_EQ_U64(u32(&c), 1);
	CHECK(expect_file8(&c, "name: irq_handler_entry\n") == 0);
	CHECK_EQ_U64(u32(&c), 0);                            /* kallsyms */
	CHECK_EQ_U64(u32(&c), strlen("0x1 : \"x\"\n"));       /* printk_formats */
	CHECK(expect_bytes(&c, "0x1 : \"x\"\n", strlen("0x1 : \"x\"\n")) == 0);
	CHECK(take(&c, &sz, 8) == 0 && sz == 0);             /* saved_cmdlines */
	CHECK_EQ_U64(c.left, 0);
	free(blob);
	xpe_evlist_free(evl);

	/* no tracepoint: no blob */
	evl = xpe_evlist_create();
	REQUIRE(xpe_evlist_parse(evl, ctx, "cpu-clock", &err) == 0);
	blob = (void *)1;
	CHECK(xrec_tracing_data(ctx, evl, &blob, &size, &err) == 0 && !blob && !size);
	xpe_evlist_free(evl);

	/* a format that went away: an error naming the file */
	evl = xpe_evlist_create();
	REQUIRE(xpe_evlist_parse(evl, ctx, "irq:irq_handler_entry", &err) == 0);
	{
		char path[512];

		snprintf(path, sizeof(path), "%s/events/irq/irq_handler_entry/format", root);
		unlink(path);
	}
	CHECK(xrec_tracing_data(ctx, evl, &blob, &size, &err) == -ENOENT);
	CHECK(strstr(err.msg, "irq_handler_entry/format") != NULL);
	xpe_evlist_free(evl);
	xpe_ctx_free(ctx);
	{
		char cmd[300];

		snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
		if (system(cmd) != 0)
			UNIT_FAIL("cannot remove %s", root);
	}
}

int main(void)
{
	RUN(layout);
	UNIT_MAIN_END();
}
