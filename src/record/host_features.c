/* Host features (HOSTNAME, OSRELEASE, CPUID, CPU_TOPOLOGY ...) read from the system, formatted as perf 6.1 does. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "base/array.h"
#include "events/xpe_open.h"
#include "record/host_features.h"

#ifndef XPERF_VERSION
#define XPERF_VERSION "0.0.0"
#endif

const char *xrec_version_string(void)
{
	return "xperf " XPERF_VERSION;
}

/* The value of the first "key<spaces>: value" line of /proc/cpuinfo, or NULL. */
static char *cpuinfo_value(const char *key)
{
	char line[1024], *val = NULL;
	size_t klen = strlen(key);
	FILE *f = fopen("/proc/cpuinfo", "re");

	if (!f)
		return NULL;
	while (!val && fgets(line, sizeof(line), f)) {
		char *p = line + klen, *colon;

		if (strncmp(line, key, klen) || (*p != ' ' && *p != '\t' && *p != ':'))
			continue;
		colon = strchr(p, ':');
		if (!colon)
			continue;
		p = colon + 1;
		while (*p == ' ' || *p == '\t')
			p++;
		p[strcspn(p, "\n")] = '\0';
		val = strdup(p);
	}
	fclose(f);
	return val;
}

/* perf squeezes runs of blanks in the model name into one space and trims the ends. */
void xrec_squeeze_spaces(char *s)
{
	char *w = s;
	int space = 1; /* drops leading blanks */

	for (char *r = s; *r; r++) {
		if (*r == ' ' || *r == '\t') {
			if (!space)
				*w++ = ' ';
			space = 1;
		} else {
			*w++ = *r;
			space = 0;
		}
	}
	if (w > s && w[-1] == ' ')
		w--;
	*w = '\0';
}

static int set_cpudesc(struct xpf_features *f)
{
	/* "model name" on x86; other architectures name it differently */
	static const char *const keys[] = { "model name", "Processor", "cpu model", "cpu" };
	int ret = 0;

	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		char *v = cpuinfo_value(keys[i]);

		if (!v)
			continue;
		xrec_squeeze_spaces(v);
		ret = xpf_features_set_string(f, XPF_FEAT_CPUDESC, v);
		free(v);
		break;
	}
	return ret;
}

/* x86: "vendor,family,model,stepping", as perf's arch get_cpuid() (decimal). */
static int set_cpuid(struct xpf_features *f)
{
	char *vendor = cpuinfo_value("vendor_id"), *fam = cpuinfo_value("cpu family");
	char *model = cpuinfo_value("model"), *step = cpuinfo_value("stepping");
	char buf[256];
	int ret = 0;

	if (vendor && fam && model && step) {
		snprintf(buf, sizeof(buf), "%s,%u,%u,%u", vendor, (unsigned)strtoul(fam, NULL, 10),
			 (unsigned)strtoul(model, NULL, 10), (unsigned)strtoul(step, NULL, 10));
		ret = xpf_features_set_string(f, XPF_FEAT_CPUID, buf);
	}
	free(vendor);
	free(fam);
	free(model);
	free(step);
	return ret;
}

static int set_total_mem(struct xpf_features *f)
{
	char line[256];
	unsigned long long kb;
	FILE *m = fopen("/proc/meminfo", "re");

	if (!m)
		return 0;
	while (fgets(line, sizeof(line), m)) {
		if (sscanf(line, "MemTotal: %llu kB", &kb) == 1) {
			f->total_mem_kb = kb;
			xpf_features_mark(f, XPF_FEAT_TOTAL_MEM);
			break;
		}
	}
	fclose(m);
	return 0;
}

/* Highest cpu number in a sysfs list ("0-3,8"), plus one; 0 if unreadable. */
static unsigned int cpu_list_count(const char *path)
{
	char buf[4096];
	struct xpe_cpus cpus = { 0, NULL };
	unsigned int max = 0;
	FILE *f = fopen(path, "re");

	if (!f)
		return 0;
	/* the events library's parser: one grammar for -C lists and sysfs lists */
	if (fgets(buf, sizeof(buf), f) && !xpe_cpus_parse(buf, &cpus, NULL) && cpus.nr > 0)
		max = (unsigned int)cpus.cpu[cpus.nr - 1] + 1; /* sorted */
	xpe_cpus_release(&cpus);
	fclose(f);
	return max;
}

static int set_nrcpus(struct xpf_features *f)
{
	long online = sysconf(_SC_NPROCESSORS_ONLN);
	unsigned int avail = cpu_list_count("/sys/devices/system/cpu/present");

	f->nr_cpus_online = online > 0 ? (uint32_t)online : 1;
	/* perf: the highest present cpu + 1 */
	f->nr_cpus_avail = avail ? avail : f->nr_cpus_online;
	xpf_features_mark(f, XPF_FEAT_NRCPUS);
	return 0;
}

/* ---- CPU_TOPOLOGY -------------------------------------------------------------------- */

/* Read a one-line sysfs file of cpu `cpu` (first of the names that exists). */
static char *topo_read(int cpu, const char *name, const char *fallback)
{
	char path[PATH_MAX], buf[1024];
	FILE *f;

	for (int i = 0; i < 2; i++) {
		const char *n = i ? fallback : name;

		if (!n)
			break;
		snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/topology/%s", cpu, n);
		f = fopen(path, "re");
		if (!f)
			continue;
		if (!fgets(buf, sizeof(buf), f))
			buf[0] = '\0';
		fclose(f);
		buf[strcspn(buf, "\n")] = '\0';
		return strdup(buf);
	}
	return NULL;
}

static int topo_int(int cpu, const char *name)
{
	char *s = topo_read(cpu, name, NULL);
	int v = s ? atoi(s) : -1;

	free(s);
	return v;
}

/* Add s to the list unless already there; takes ownership of s. */
static int list_add_unique(char ***v, uint32_t *n, char *s)
{
	char **nv;

	for (uint32_t i = 0; i < *n; i++) {
		if (!strcmp((*v)[i], s)) {
			free(s);
			return 0;
		}
	}
	nv = realloc(*v, (*n + 1) * sizeof(**v));
	if (!nv) {
		free(s);
		return -ENOMEM;
	}
	*v = nv;
	nv[(*n)++] = s;
	return 0;
}

struct rawbuf {
	uint8_t *p;
	size_t len, cap;
	int err;
};

static void raw_put(struct rawbuf *b, const void *data, size_t n)
{
	if (b->err)
		return;
	if (XB_ARRAY_RESERVE(b->p, b->cap, b->len + n, 2 * n)) {
		b->err = -ENOMEM;
		return;
	}
	memcpy(b->p + b->len, data, n);
	b->len += n;
}

/* perf's do_write_string: u32 len (strlen+1 rounded up to 64), then the zero-padded bytes. */
static void raw_put_string(struct rawbuf *b, const char *s)
{
	static const char zeros[64];
	uint32_t n = (uint32_t)strlen(s) + 1, padded = (n + 63) & ~63u;

	raw_put(b, &padded, sizeof(padded));
	raw_put(b, s, n);
	raw_put(b, zeros, padded - n);
}

/*
 * perf 6.1 writes: package (core_siblings) lists, thread lists, then per available cpu
 * {core_id, socket_id}, then die lists and per cpu die_id. The struct holds the first two;
 * the rest goes in the raw tail, which the encoder appends.
 */
static int set_cpu_topology(struct xpf_features *f)
{
	uint32_t online = f->nr_cpus_online, avail = f->nr_cpus_avail;
	char **dies = NULL;
	uint32_t nr_dies = 0;
	struct rawbuf tail = { 0 };
	int ret = 0;

	for (uint32_t cpu = 0; !ret && cpu < online; cpu++) {
		char *core = topo_read(cpu, "core_siblings_list", "package_cpus_list");
		char *thr = topo_read(cpu, "thread_siblings_list", "core_cpus_list");
		char *die = topo_read(cpu, "die_cpus_list", NULL);

		if (core)
			ret = list_add_unique(&f->core_siblings, &f->nr_core_siblings, core);
		if (thr && !ret)
			ret = list_add_unique(&f->thread_siblings, &f->nr_thread_siblings, thr);
		else
			free(thr);
		if (die && !ret)
			ret = list_add_unique(&dies, &nr_dies, die);
		else
			free(die);
	}
	if (!ret && f->nr_core_siblings && f->nr_thread_siblings) {
		for (uint32_t cpu = 0; cpu < avail; cpu++) {
			int32_t core_id = topo_int(cpu, "core_id");
			int32_t socket_id = topo_int(cpu, "physical_package_id");

			raw_put(&tail, &core_id, sizeof(core_id));
			raw_put(&tail, &socket_id, sizeof(socket_id));
		}
		if (nr_dies) {
			raw_put(&tail, &nr_dies, sizeof(nr_dies));
			for (uint32_t i = 0; i < nr_dies; i++)
				raw_put_string(&tail, dies[i]);
			for (uint32_t cpu = 0; cpu < avail; cpu++) {
				int32_t die_id = topo_int(cpu, "die_id");

				raw_put(&tail, &die_id, sizeof(die_id));
			}
		}
		ret = tail.err;
		if (!ret) {
			free(f->raw[XPF_FEAT_CPU_TOPOLOGY].data);
			f->raw[XPF_FEAT_CPU_TOPOLOGY].data = tail.p;
			f->raw[XPF_FEAT_CPU_TOPOLOGY].size = tail.len;
			tail.p = NULL;
			xpf_features_mark(f, XPF_FEAT_CPU_TOPOLOGY);
		}
	}
	free(tail.p);
	for (uint32_t i = 0; i < nr_dies; i++)
		free(dies[i]);
	free(dies);
	return ret;
}

/* perf's CMDLINE: the executable's full path first, then the arguments after argv[0]. */
static int set_cmdline(struct xpf_features *f, int argc, const char *const *argv)
{
	char exe[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	const char **v;
	int ret;

	if (argc < 1)
		return 0;
	v = calloc(argc, sizeof(*v));
	if (!v)
		return -ENOMEM;
	if (n > 0)
		exe[n] = '\0';
	v[0] = n > 0 ? exe : argv[0];
	for (int i = 1; i < argc; i++)
		v[i] = argv[i];
	ret = xpf_features_set_cmdline(f, argc, v);
	free(v);
	return ret;
}

int xrec_host_features(struct xpf_features *f, int argc, const char *const *argv,
		       struct xb_error *err)
{
	struct utsname uts;
	int ret = 0;

	if (uname(&uts) == 0) {
		ret = xpf_features_set_string(f, XPF_FEAT_HOSTNAME, uts.nodename);
		if (!ret)
			ret = xpf_features_set_string(f, XPF_FEAT_OSRELEASE, uts.release);
		if (!ret)
			ret = xpf_features_set_string(f, XPF_FEAT_ARCH, uts.machine);
	}
	if (!ret)
		ret = xpf_features_set_string(f, XPF_FEAT_VERSION, xrec_version_string());
	if (!ret)
		ret = set_nrcpus(f);
	if (!ret)
		ret = set_cpudesc(f);
	if (!ret)
		ret = set_cpuid(f);
	if (!ret)
		ret = set_total_mem(f);
	if (!ret)
		ret = set_cmdline(f, argc, argv);
	if (!ret)
		ret = set_cpu_topology(f);
	if (ret < 0)
		return xb_error_set(err, ret, "cannot describe the host: %s", strerror(-ret));
	return 0;
}
