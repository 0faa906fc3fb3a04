/* Unit tests of feature (de)serialisation: round trips, the other byte order, bad payloads. */
#include <byteswap.h>
#include <errno.h>

#include "format/xpf_features.h"
#include "unit.h"

static int roundtrip(const struct xpf_features *in, unsigned int bit, struct xpf_features *out)
{
	struct xb_error err = { 0 };
	void *p;
	uint64_t n;
	int rc = xpf_feature_encode(in, bit, &p, &n, &err);

	if (rc)
		return rc;
	rc = xpf_feature_decode(out, bit, p, n, false, 0x1000, &err);
	free(p);
	return rc;
}

static void strings_roundtrip(void)
{
	static const unsigned int bits[] = { XPF_FEAT_HOSTNAME, XPF_FEAT_OSRELEASE, XPF_FEAT_VERSION,
					     XPF_FEAT_ARCH, XPF_FEAT_CPUDESC, XPF_FEAT_CPUID };
	struct xpf_features a = { 0 }, b = { 0 };
	void *p;
	uint64_t n;
	uint32_t len;

	REQUIRE(xpf_features_set_string(&a, XPF_FEAT_HOSTNAME, "box") == 0);
	xpf_features_set_string(&a, XPF_FEAT_OSRELEASE, "6.1.0-13-amd64");
	xpf_features_set_string(&a, XPF_FEAT_VERSION, "0.1.0");
	xpf_features_set_string(&a, XPF_FEAT_ARCH, "x86_64");
	/* exactly 63 characters + NUL: one 64-byte slot, no extra padding */
	xpf_features_set_string(&a, XPF_FEAT_CPUDESC,
				"123456789012345678901234567890123456789012345678901234567890123");
	xpf_features_set_string(&a, XPF_FEAT_CPUID, "");
	for (size_t i = 0; i < sizeof(bits) / sizeof(bits[0]); i++)
		CHECK(roundtrip(&a, bits[i], &b) == 0);
	CHECK_STR(b.hostname, "box");
	CHECK_STR(b.osrelease, "6.1.0-13-amd64");
	CHECK_STR(b.version, "0.1.0");
	CHECK_STR(b.arch, "x86_64");
	CHECK_STR(b.cpudesc, a.cpudesc);
	CHECK_STR(b.cpuid, "");
	CHECK(xpf_features_has(&b, XPF_FEAT_CPUID));

	/* perf's layout: u32 len (strlen+1 rounded up to 64), string, zero padding */
	REQUIRE(xpf_feature_encode(&a, XPF_FEAT_HOSTNAME, &p, &n, NULL) == 0);
	memcpy(&len, p, 4);
	CHECK_EQ_U64(len, 64);
	CHECK_EQ_U64(n, 68);
	CHECK(memcmp((char *)p + 4, "box\0\0\0", 6) == 0);
	free(p);
	REQUIRE(xpf_feature_encode(&a, XPF_FEAT_CPUDESC, &p, &n, NULL) == 0);
	CHECK_EQ_U64(n, 68);
	free(p);
	xpf_features_free(&a);
	xpf_features_free(&b);
}

/* Build a payload as a big-endian writer would (on this little-endian host). */
static void put32(uint8_t **p, uint32_t v, bool swap)
{
	v = swap ? bswap_32(v) : v;
	memcpy(*p, &v, 4);
	*p += 4;
}

static void put64(uint8_t **p, uint64_t v, bool swap)
{
	v = swap ? bswap_64(v) : v;
	memcpy(*p, &v, 8);
	*p += 8;
}

static void putstr(uint8_t **p, const char *s, bool swap)
{
	put32(p, 64, swap);
	memset(*p, 0, 64);
	strcpy((char *)*p, s);
	*p += 64;
}

static void swapped_payloads(void)
{
	for (int swap = 0; swap < 2; swap++) {
		struct xpf_features f = { 0 };
		uint8_t buf[1024], *p;
		struct xb_error err = { 0 };

		p = buf;
		put32(&p, 8, swap);
		put32(&p, 4, swap);
		CHECK(xpf_feature_decode(&f, XPF_FEAT_NRCPUS, buf, 8, swap, 0, &err) == 0);
		CHECK_EQ_U64(f.nr_cpus_avail, 8);
		CHECK_EQ_U64(f.nr_cpus_online, 4);

		p = buf;
		put64(&p, 16384, swap);
		CHECK(xpf_feature_decode(&f, XPF_FEAT_TOTAL_MEM, buf, 8, swap, 0, &err) == 0);
		CHECK_EQ_U64(f.total_mem_kb, 16384);

		p = buf;
		put64(&p, 100, swap);
		put64(&p, 200, swap);
		CHECK(xpf_feature_decode(&f, XPF_FEAT_SAMPLE_TIME, buf, 16, swap, 0, &err) == 0);
		CHECK_EQ_U64(f.sample_time_first, 100);
		CHECK_EQ_U64(f.sample_time_last, 200);

		p = buf;
		putstr(&p, "big-endian-host", swap);
		CHECK(xpf_feature_decode(&f, XPF_FEAT_HOSTNAME, buf, (uint64_t)(p - buf), swap, 0,
					 &err) == 0);
		CHECK_STR(f.hostname, "big-endian-host");

		p = buf;
		put32(&p, 2, swap);
		putstr(&p, "perf", swap);
		putstr(&p, "record", swap);
		CHECK(xpf_feature_decode(&f, XPF_FEAT_CMDLINE, buf, (uint64_t)(p - buf), swap, 0,
					 &err) == 0);
		CHECK_EQ_U64(f.cmdline_argc, 2);
		if (f.cmdline_argc == 2)
			CHECK_STR(f.cmdline[1], "record");

		p = buf;
		for (int i = 0; i < 5; i++)
			put32(&p, (uint32_t)(i == 1 ? 1 : i * 10 + 1), swap);
		CHECK(xpf_feature_decode(&f, XPF_FEAT_COMPRESSED, buf, 20, swap, 0, &err) == 0);
		CHECK_EQ_U64(f.compressed.type, 1);
		CHECK_EQ_U64(f.compressed.mmap_len, 41);

		p = buf;
		put32(&p, 1, swap);
		put32(&p, 8, swap);
		putstr(&p, "msr", swap);
		CHECK(xpf_feature_decode(&f, XPF_FEAT_PMU_MAPPINGS, buf, (uint64_t)(p - buf), swap,
					 0, &err) == 0);
		REQUIRE(f.nr_pmu_mappings == 1);
		CHECK_EQ_U64(f.pmu_mappings[0].type, 8);
		CHECK_STR(f.pmu_mappings[0].name, "msr");

		p = buf;
		put32(&p, 1, swap);
		putstr(&p, "{cpu-clock,task-clock}", swap);
		put32(&p, 0, swap);
		put32(&p, 2, swap);
		CHECK(xpf_feature_decode(&f, XPF_FEAT_GROUP_DESC, buf, (uint64_t)(p - buf), swap, 0,
					 &err) == 0);
		REQUIRE(f.nr_groups == 1);
		CHECK_EQ_U64(f.groups[0].nr_members, 2);
		CHECK_STR(f.groups[0].name, "{cpu-clock,task-clock}");
		xpf_features_free(&f);
	}
}

static void event_desc_roundtrip_and_swap(void)
{
	struct xpf_features a = { 0 }, b = { 0 };
	struct perf_event_attr attr = { 0 };
	uint64_t ids[3] = { 11, 12, 13 };
	void *p;
	uint64_t n;

	attr.size = sizeof(attr);
	attr.type = PERF_TYPE_SOFTWARE;
	attr.config = PERF_COUNT_SW_TASK_CLOCK;
	attr.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TIME;
	attr.sample_id_all = 1;
	attr.disabled = 1;
	attr.wakeup_events = 7;
	REQUIRE(xpf_features_add_event_desc(&a, &attr, "task-clock", ids, 3) == 0);
	REQUIRE(xpf_features_add_event_desc(&a, &attr, "second", ids, 1) == 0);
	REQUIRE(roundtrip(&a, XPF_FEAT_EVENT_DESC, &b) == 0);
	REQUIRE(b.nr_event_desc == 2);
	CHECK_STR(b.event_desc[0].name, "task-clock");
	CHECK_EQ_U64(b.event_desc[0].nr_ids, 3);
	CHECK_EQ_U64(b.event_desc[0].ids[2], 13);
	CHECK_EQ_U64(b.event_desc[0].attr.config, PERF_COUNT_SW_TASK_CLOCK);
	CHECK(b.event_desc[0].attr.sample_id_all && b.event_desc[0].attr.disabled);
	CHECK_EQ_U64(b.event_desc[1].nr_ids, 1);

	/* Byte-swap the encoded payload by hand and decode it as a foreign file. */
	REQUIRE(xpf_feature_encode(&a, XPF_FEAT_EVENT_DESC, &p, &n, NULL) == 0);
	{
		uint8_t *q = p;
		uint32_t nr, sz;
		struct xpf_features c = { 0 };
		struct xb_error err = { 0 };

		memcpy(&nr, q, 4);
		memcpy(&sz, q + 4, 4);
		put32(&q, nr, true);
		put32(&q, sz, true);
		for (uint32_t e = 0; e < nr; e++) {
			struct perf_event_attr *at = (void *)q;
			uint32_t nids;
			uint8_t *flags = q + 40;

			at->type = bswap_32(at->type);
			at->size = bswap_32(at->size);
			at->config = bswap_64(at->config);
			at->sample_type = bswap_64(at->sample_type);
			at->wakeup_events = bswap_32(at->wakeup_events);
			/* the bitfield word: bits reversed within each byte */
			for (int k = 0; k < 8; k++) {
				uint8_t v = flags[k], r = 0;
				for (int bit = 0; bit < 8; bit++)
					r |= (uint8_t)(((v >> bit) & 1) << (7 - bit));
				flags[k] = r;
			}
			q += sz;
			memcpy(&nids, q, 4);
			put32(&q, nids, true);
			{
				uint32_t len;
				memcpy(&len, q, 4);
				put32(&q, len, true);
				q += len;
			}
			for (uint32_t k = 0; k < nids; k++) {
				uint64_t v;
				memcpy(&v, q, 8);
				put64(&q, v, true);
			}
		}
		CHECK_EQ_U64((uint64_t)(q - (uint8_t *)p), n);
		CHECK(xpf_feature_decode(&c, XPF_FEAT_EVENT_DESC, p, n, true, 0, &err) == 0);
		REQUIRE(c.nr_event_desc == 2);
		CHECK_EQ_U64(c.event_desc[0].attr.config, PERF_COUNT_SW_TASK_CLOCK);
		CHECK_EQ_U64(c.event_desc[0].attr.sample_type, PERF_SAMPLE_IP | PERF_SAMPLE_TIME);
		CHECK_EQ_U64(c.event_desc[0].attr.wakeup_events, 7);
		CHECK(c.event_desc[0].attr.sample_id_all && c.event_desc[0].attr.disabled);
		CHECK(!c.event_desc[0].attr.inherit);
		CHECK_EQ_U64(c.event_desc[0].ids[1], 12);
		CHECK_STR(c.event_desc[1].name, "second");
		xpf_features_free(&c);
	}
	free(p);
	xpf_features_free(&a);
	xpf_features_free(&b);
}

static void build_id_layout(void)
{
	struct xpf_features a = { 0 }, b = { 0 };
	uint8_t id[20], *p;
	uint64_t n;
	uint16_t misc, size;

	for (int i = 0; i < 20; i++)
		id[i] = (uint8_t)(0xa0 + i);
	REQUIRE(xpf_features_add_build_id(&a, -1, PERF_RECORD_MISC_USER, id, 20, "/usr/bin/x") == 0);
	REQUIRE(xpf_features_add_build_id(&a, -1, PERF_RECORD_MISC_KERNEL, id, 16,
					  "[kernel.kallsyms]") == 0);
	REQUIRE(xpf_feature_encode(&a, XPF_FEAT_BUILD_ID, (void **)&p, &n, NULL) == 0);
	/* as perf 6.1 writes: 36-byte head + name padded to 64, misc has BUILD_ID_SIZE */
	CHECK_EQ_U64(n, 2 * (36 + 64));
	memcpy(&misc, p + 4, 2);
	memcpy(&size, p + 6, 2);
	CHECK_EQ_U64(misc, 0x8000 | PERF_RECORD_MISC_USER);
	CHECK_EQ_U64(size, 100);
	CHECK_EQ_U64(p[12 + 20], 20);
	CHECK_STR((char *)p + 36, "/usr/bin/x");
	CHECK(xpf_feature_decode(&b, XPF_FEAT_BUILD_ID, p, n, false, 0, NULL) == 0);
	REQUIRE(b.nr_build_ids == 2);
	CHECK_EQ_U64(b.build_ids[0].pid, (uint64_t)(int64_t)-1);
	CHECK_EQ_U64(b.build_ids[0].misc, PERF_RECORD_MISC_USER);
	CHECK_EQ_U64(b.build_ids[1].size, 16);
	CHECK(memcmp(b.build_ids[0].build_id, id, 20) == 0);
	CHECK_STR(b.build_ids[1].filename, "[kernel.kallsyms]");
	free(p);
	xpf_features_free(&a);
	xpf_features_free(&b);
}

static void cpu_topology_keeps_rest(void)
{
	uint8_t buf[512], *p = buf;
	struct xpf_features f = { 0 }, g = { 0 };
	void *out;
	uint64_t n;

	put32(&p, 1, false);
	putstr(&p, "0-1", false);
	put32(&p, 2, false);
	putstr(&p, "0", false);
	putstr(&p, "1", false);
	/* core_id/socket_id per cpu: kept raw */
	for (int i = 0; i < 4; i++)
		put32(&p, (uint32_t)i, false);
	REQUIRE(xpf_feature_decode(&f, XPF_FEAT_CPU_TOPOLOGY, buf, (uint64_t)(p - buf), false, 0,
				   NULL) == 0);
	CHECK_EQ_U64(f.nr_core_siblings, 1);
	CHECK_EQ_U64(f.nr_thread_siblings, 2);
	CHECK_STR(f.thread_siblings[1], "1");
	CHECK_EQ_U64(f.raw[XPF_FEAT_CPU_TOPOLOGY].size, 16);
	REQUIRE(xpf_feature_encode(&f, XPF_FEAT_CPU_TOPOLOGY, &out, &n, NULL) == 0);
	CHECK_EQ_U64(n, (uint64_t)(p - buf));
	CHECK(memcmp(out, buf, n) == 0);
	free(out);
	REQUIRE(xpf_features_copy(&g, &f, NULL) == 0);
	CHECK_STR(g.core_siblings[0], "0-1");
	xpf_features_free(&f);
	xpf_features_free(&g);
}

/* merge: src's features replace dst's, dst's others stay; a replaced string is not leaked */
static void merge_keeps_others(void)
{
	struct xpf_features d = { 0 }, s = { 0 };

	REQUIRE(xpf_features_set_string(&d, XPF_FEAT_HOSTNAME, "old-host") == 0);
	REQUIRE(xpf_features_set_string(&d, XPF_FEAT_ARCH, "x86_64") == 0);
	REQUIRE(xpf_features_set_string(&s, XPF_FEAT_HOSTNAME, "new-host") == 0);
	s.total_mem_kb = 1234;
	xpf_features_mark(&s, XPF_FEAT_TOTAL_MEM);
	REQUIRE(xpf_features_merge(&d, &s, NULL) == 0);
	CHECK_STR(d.hostname, "new-host");
	CHECK_STR(d.arch, "x86_64");
	CHECK(xpf_features_has(&d, XPF_FEAT_TOTAL_MEM));
	CHECK_EQ_U64(d.total_mem_kb, 1234);
	CHECK_STR(s.hostname, "new-host");
	xpf_features_free(&d);
	xpf_features_free(&s);
}

static void raw_features_kept(void)
{
	struct xpf_features f = { 0 };
	uint8_t data[5] = { 1, 2, 3, 4, 5 };
	void *out;
	uint64_t n;

	REQUIRE(xpf_feature_decode(&f, XPF_FEAT_CACHE, data, 5, false, 0, NULL) == 0);
	CHECK(xpf_features_has(&f, XPF_FEAT_CACHE));
	CHECK_EQ_U64(f.raw[XPF_FEAT_CACHE].size, 5);
	REQUIRE(xpf_feature_encode(&f, XPF_FEAT_CACHE, &out, &n, NULL) == 0);
	CHECK(n == 5 && memcmp(out, data, 5) == 0);
	free(out);
	CHECK(xpf_features_set_raw(&f, XPF_FEAT_TRACING_DATA, data, 3) == 0);
	CHECK(xpf_features_set_raw(&f, XPF_FEAT_HOSTNAME, data, 3) == -EINVAL);
	/* bits beyond what we know are skipped, not errors */
	CHECK(xpf_feature_decode(&f, 40, data, 5, false, 0, NULL) == 0);
	CHECK(!xpf_features_has(&f, 40));
	CHECK(xpf_feature_encode(&f, XPF_FEAT_HOSTNAME, &out, &n, NULL) == -ENOENT);
	xpf_features_free(&f);
	CHECK(!xpf_features_has(&f, XPF_FEAT_CACHE));
}

/* Every cut of a valid payload must fail cleanly, naming the feature and an offset. */
static void truncated_payloads_fail(void)
{
	struct xpf_features a = { 0 };
	static const uint8_t id[20];
	static const unsigned int bits[] = {
		XPF_FEAT_HOSTNAME, XPF_FEAT_NRCPUS, XPF_FEAT_CMDLINE, XPF_FEAT_EVENT_DESC,
		XPF_FEAT_BUILD_ID, XPF_FEAT_SAMPLE_TIME, XPF_FEAT_COMPRESSED,
	};
	struct perf_event_attr attr = { .size = sizeof(attr) };
	const char *argv[] = { "a", "b" };
	uint64_t ids[2] = { 1, 2 };

	xpf_features_set_string(&a, XPF_FEAT_HOSTNAME, "h");
	a.nr_cpus_avail = 2;
	xpf_features_mark(&a, XPF_FEAT_NRCPUS);
	xpf_features_mark(&a, XPF_FEAT_SAMPLE_TIME);
	xpf_features_mark(&a, XPF_FEAT_COMPRESSED);
	xpf_features_set_cmdline(&a, 2, argv);
	xpf_features_add_event_desc(&a, &attr, "ev", ids, 2);
	xpf_features_add_build_id(&a, 1, 0, id, 20, "/bin/true");
	for (size_t i = 0; i < sizeof(bits) / sizeof(bits[0]); i++) {
		void *p;
		uint64_t n;

		REQUIRE(xpf_feature_encode(&a, bits[i], &p, &n, NULL) == 0);
		for (uint64_t cut = 1; cut < n; cut++) {
			struct xpf_features f = { 0 };
			struct xb_error err = { 0 };
			int rc = xpf_feature_decode(&f, bits[i], p, cut, false, 0x2000, &err);

			/* strings may decode from a cut inside their padding */
			if (rc == 0 && (bits[i] == XPF_FEAT_HOSTNAME))
				continue;
			if (rc != -EINVAL || !strstr(err.msg, "0x2000")) {
				UNIT_FAIL("feature %u cut at %" PRIu64 ": rc %d msg '%s'", bits[i],
					  cut, rc, err.msg);
				break;
			}
			CHECK(!xpf_features_has(&f, bits[i]));
			xpf_features_free(&f);
		}
		free(p);
	}
	xpf_features_free(&a);
}

static void huge_counts_rejected(void)
{
	uint8_t buf[64], *p = buf;
	struct xpf_features f = { 0 };
	struct xb_error err = { 0 };

	put32(&p, 0xffffffffu, false);
	CHECK(xpf_feature_decode(&f, XPF_FEAT_CMDLINE, buf, 8, false, 0x40, &err) == -EINVAL);
	CHECK(strstr(err.msg, "CMDLINE") != NULL);
	p = buf;
	put32(&p, 1, false);
	put32(&p, 0x7fffffff, false); /* attr size */
	CHECK(xpf_feature_decode(&f, XPF_FEAT_EVENT_DESC, buf, 8, false, 0x40, &err) == -EINVAL);
	p = buf;
	put32(&p, 1000000, false);
	put32(&p, 8, false);
	CHECK(xpf_feature_decode(&f, XPF_FEAT_PMU_MAPPINGS, buf, 8, false, 0, &err) == -EINVAL);
	p = buf;
	put32(&p, 0, false);
	put32(&p, 0, false);
	put32(&p, 0xffff0000u, false); /* a build-id record bigger than the payload */
	CHECK(xpf_feature_decode(&f, XPF_FEAT_BUILD_ID, buf, 40, false, 0, &err) == -EINVAL);
	/* a string whose length runs past the payload */
	p = buf;
	put32(&p, 1000, false);
	CHECK(xpf_feature_decode(&f, XPF_FEAT_HOSTNAME, buf, 16, false, 0, &err) == -EINVAL);
	CHECK(strstr(err.msg, "HOSTNAME") != NULL);
	xpf_features_free(&f);
}

int main(void)
{
	RUN(strings_roundtrip);
	RUN(swapped_payloads);
	RUN(event_desc_roundtrip_and_swap);
	RUN(build_id_layout);
	RUN(cpu_topology_keeps_rest);
	RUN(merge_keeps_others);
	RUN(raw_features_kept);
	RUN(truncated_payloads_fail);
	RUN(huge_counts_rejected);
	UNIT_MAIN_END();
}
