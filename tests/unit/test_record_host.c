/* Unit tests of src/record/host_features.c: our host features against perf's header of its own file. */
#include <errno.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "unit.h"

#include "record/host_features.h"

static char perf_header[16384];

/* perf records `true` and prints its header: the oracle for every value below. */
static int load_perf_header(void)
{
	char dir[] = "/tmp/xperf-host-XXXXXX", cmd[512];
	FILE *p;
	size_t n;

	if (access("/usr/bin/perf", X_OK) || !mkdtemp(dir))
		return 0;
	snprintf(cmd, sizeof(cmd),
		 "cd %s && perf record -N --no-bpf-event -q -e cpu-clock -o p.data true "
		 ">/dev/null 2>&1 && perf report --header-only -I -i p.data 2>/dev/null; "
		 "rm -rf %s", dir, dir);
	p = popen(cmd, "r");
	if (!p)
		return 0;
	n = fread(perf_header, 1, sizeof(perf_header) - 1, p);
	perf_header[n] = '\0';
	pclose(p);
	return strstr(perf_header, "# hostname : ") != NULL;
}

/* The value perf printed for "# KEY : value". */
static const char *perf_value(const char *key, char *buf, size_t size)
{
	char pat[128];
	const char *p;
	size_t n;

	snprintf(pat, sizeof(pat), "# %s : ", key);
	p = strstr(perf_header, pat);
	if (!p)
		return NULL;
	p += strlen(pat);
	n = strcspn(p, "\n");
	if (n >= size)
		n = size - 1;
	memcpy(buf, p, n);
	buf[n] = '\0';
	return buf;
}

static struct xpf_features feats;
static int have_perf;

static void check_string(const char *key, const char *ours)
{
	char buf[512];
	const char *want = perf_value(key, buf, sizeof(buf));

	if (!want) {
		UNIT_FAIL("perf printed no '%s'", key);
		return;
	}
	CHECK_STR(ours, want);
}

static void test_strings_match_perf(void)
{
	char buf[64];

	CHECK(xpf_features_has(&feats, XPF_FEAT_HOSTNAME));
	CHECK(xpf_features_has(&feats, XPF_FEAT_OSRELEASE));
	CHECK(xpf_features_has(&feats, XPF_FEAT_ARCH));
	CHECK(xpf_features_has(&feats, XPF_FEAT_CPUDESC));
	CHECK(xpf_features_has(&feats, XPF_FEAT_CPUID));
	CHECK_STR(feats.version, "xperf " XPERF_VERSION);
	if (!have_perf)
		return;
	check_string("hostname", feats.hostname);
	check_string("os release", feats.osrelease);
	check_string("arch", feats.arch);
	check_string("cpudesc", feats.cpudesc);
	check_string("cpuid", feats.cpuid);
	snprintf(buf, sizeof(buf), "%" PRIu64 " kB", feats.total_mem_kb);
	check_string("total memory", buf);
	snprintf(buf, sizeof(buf), "%u", feats.nr_cpus_online);
	check_string("nrcpus online", buf);
	snprintf(buf, sizeof(buf), "%u", feats.nr_cpus_avail);
	check_string("nrcpus avail", buf);
}

static void test_topology_matches_perf(void)
{
	char line[256];

	REQUIRE(xpf_features_has(&feats, XPF_FEAT_CPU_TOPOLOGY));
	REQUIRE(feats.nr_core_siblings > 0 && feats.nr_thread_siblings > 0);
	/* per cpu {core_id, socket_id}, at least */
	CHECK(feats.raw[XPF_FEAT_CPU_TOPOLOGY].size >= 8ULL * feats.nr_cpus_avail);
	if (!have_perf)
		return;
	for (uint32_t i = 0; i < feats.nr_core_siblings; i++) {
		snprintf(line, sizeof(line), "# sibling sockets : %s\n", feats.core_siblings[i]);
		CHECK(strstr(perf_header, line) != NULL);
	}
	for (uint32_t i = 0; i < feats.nr_thread_siblings; i++) {
		snprintf(line, sizeof(line), "# sibling threads : %s\n", feats.thread_siblings[i]);
		CHECK(strstr(perf_header, line) != NULL);
	}
}

static void test_cmdline(void)
{
	char exe[4096];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);

	REQUIRE(n > 0);
	exe[n] = '\0';
	REQUIRE(xpf_features_has(&feats, XPF_FEAT_CMDLINE));
	REQUIRE(feats.cmdline_argc == 3);
	/* perf's form: the executable's path, then the arguments */
	CHECK_STR(feats.cmdline[0], exe);
	CHECK_STR(feats.cmdline[1], "record");
	CHECK_STR(feats.cmdline[2], "-a");
}

/* The struct round-trips through the format library's encoder and decoder. */
static void test_encode_decode(void)
{
	static const unsigned int bits[] = { XPF_FEAT_HOSTNAME, XPF_FEAT_CPUID, XPF_FEAT_NRCPUS,
					     XPF_FEAT_TOTAL_MEM, XPF_FEAT_CPU_TOPOLOGY,
					     XPF_FEAT_CMDLINE };
	struct xpf_features back = { 0 };

	for (size_t i = 0; i < sizeof(bits) / sizeof(bits[0]); i++) {
		void *buf = NULL;
		uint64_t size = 0;
		struct xb_error err;

		if (xpf_feature_encode(&feats, bits[i], &buf, &size, &err) ||
		    xpf_feature_decode(&back, bits[i], buf, size, false, 0, &err))
			UNIT_FAIL("feature %u: %s", bits[i], err.msg);
		free(buf);
	}
	CHECK_STR(back.hostname, feats.hostname);
	CHECK_STR(back.cpuid, feats.cpuid);
	CHECK_EQ_U64(back.nr_cpus_avail, feats.nr_cpus_avail);
	CHECK_EQ_U64(back.total_mem_kb, feats.total_mem_kb);
	CHECK_EQ_U64(back.nr_thread_siblings, feats.nr_thread_siblings);
	CHECK_EQ_U64(back.raw[XPF_FEAT_CPU_TOPOLOGY].size, feats.raw[XPF_FEAT_CPU_TOPOLOGY].size);
	CHECK_EQ_U64(back.cmdline_argc, feats.cmdline_argc);
	xpf_features_free(&back);
}

static void test_squeeze(void)
{
	char s[] = "  Intel(R)  Xeon(R)\tCPU   E5 @ 2.20GHz  ";

	xrec_squeeze_spaces(s);
	CHECK_STR(s, "Intel(R) Xeon(R) CPU E5 @ 2.20GHz");
}

int main(void)
{
	const char *argv[] = { "xperf-record", "record", "-a" };
	struct xb_error err;

	if (xrec_host_features(&feats, 3, argv, &err)) {
		printf("not ok - xrec_host_features: %s\n", err.msg);
		return 1;
	}
	have_perf = load_perf_header();
	RUN(test_strings_match_perf);
	RUN(test_topology_matches_perf);
	RUN(test_cmdline);
	RUN(test_encode_decode);
	RUN(test_squeeze);
	if (!have_perf)
		printf("skip - perf_comparison: perf is absent or cannot record\n");
	xpf_features_free(&feats);
	UNIT_MAIN_END();
}
