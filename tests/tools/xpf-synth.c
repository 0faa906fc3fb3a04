/* xpf-synth: writes a synthetic perf.data with the xperf writer, for interop tests with perf. */
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "format/xpf_writer.h"

/*
 * The samples point into this program's own functions, which its own MMAP2 record maps,
 * so perf report resolves them from the binary's symbol table. synth_hot gets half of the
 * samples, synth_warm a third, synth_cold the rest: synth_hot is the expected top symbol.
 */
#define NOINL __attribute__((noinline, used))

static volatile unsigned long sink;

int main(int argc, char **argv);

NOINL void synth_hot(void)
{
	for (int i = 0; i < 100; i++)
		sink += (unsigned long)i * 3;
}

NOINL void synth_warm(void)
{
	for (int i = 0; i < 100; i++)
		sink += (unsigned long)i * 5;
}

NOINL void synth_cold(void)
{
	for (int i = 0; i < 100; i++)
		sink += (unsigned long)i * 7;
}

NOINL void synth_caller(void)
{
	synth_hot();
	synth_warm();
	synth_cold();
}

struct synth {
	xpf_writer *w;
	struct xb_error err;
	uint64_t sample_type;
	uint32_t pid;
	uint64_t ids[2];
	int nr_events;
	unsigned long counts[XPF_RECORD_TYPE_MAX];
	unsigned long others;      /* records of types above XPF_RECORD_TYPE_MAX */
};

static void die(const char *what, const struct xb_error *err)
{
	fprintf(stderr, "xpf-synth: error: %s: %s\n", what, err ? err->msg : strerror(errno));
	exit(2);
}

/* A record under construction: at most 1 KiB here. */
struct rec {
	union {
		struct perf_event_header hdr;
		uint64_t align;
	};
	uint8_t body[1024];
	size_t len;
};

static void rec_start(struct rec *r, uint32_t type, uint16_t misc)
{
	memset(r, 0, sizeof(*r));
	r->hdr.type = type;
	r->hdr.misc = misc;
}

static void rec_put(struct rec *r, const void *p, size_t n)
{
	memcpy(r->body + r->len, p, n);
	r->len += n;
}

static void rec_u64(struct rec *r, uint64_t v)
{
	rec_put(r, &v, 8);
}

static void rec_u32x2(struct rec *r, uint32_t a, uint32_t b)
{
	rec_put(r, &a, 4);
	rec_put(r, &b, 4);
}

/* Strings in COMM/MMAP2 are NUL-terminated and padded to 8 bytes. */
static void rec_str(struct rec *r, const char *s)
{
	size_t n = strlen(s) + 1, pad = (n + 7) / 8 * 8;

	rec_put(r, s, n);
	memset(r->body + r->len, 0, pad - n);
	r->len += pad - n;
}

/* sample_id_all trailer: TID, TIME, CPU, IDENTIFIER in this order for our sample_type */
static void rec_sample_id(struct synth *s, struct rec *r, uint64_t time)
{
	rec_u32x2(r, s->pid, s->pid);
	rec_u64(r, time);
	if (s->sample_type & PERF_SAMPLE_CPU)
		rec_u32x2(r, 0, 0);
	rec_u64(r, s->ids[0]);
}

static void emit(struct synth *s, struct rec *r)
{
	r->hdr.size = (uint16_t)(sizeof(r->hdr) + r->len);
	memmove((uint8_t *)&r->hdr + sizeof(r->hdr), r->body, r->len);
	if (xpf_writer_write(s->w, &r->hdr, &s->err))
		die("writing a record", &s->err);
	if (r->hdr.type < XPF_RECORD_TYPE_MAX)
		s->counts[r->hdr.type]++;
	else
		s->others++;
}

/* The executable mapping of this program, from /proc/self/maps. */
static int find_text(uint64_t addr, uint64_t *start, uint64_t *end, uint64_t *pgoff, char *path,
		     size_t path_size)
{
	FILE *f = fopen("/proc/self/maps", "r");
	char line[PATH_MAX + 128];
	int found = -1;

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		unsigned long long a, b, off;
		char perms[8], name[PATH_MAX];
		int n;

		name[0] = '\0';
		n = sscanf(line, "%llx-%llx %7s %llx %*s %*s %4095s", &a, &b, perms, &off, name);
		if (n >= 4 && addr >= a && addr < b && strchr(perms, 'x') && name[0] == '/') {
			*start = a;
			*end = b;
			*pgoff = off;
			snprintf(path, path_size, "%s", name);
			found = 0;
			break;
		}
	}
	fclose(f);
	return found;
}

static void write_setup(struct synth *s, uint64_t time)
{
	uint64_t start, end, pgoff;
	char path[PATH_MAX];
	struct rec r;
	struct stat st;

	rec_start(&r, PERF_RECORD_COMM, PERF_RECORD_MISC_COMM_EXEC);
	rec_u32x2(&r, s->pid, s->pid);
	rec_str(&r, "xpf-synth");
	rec_sample_id(s, &r, time);
	emit(s, &r);

	if (find_text((uint64_t)(uintptr_t)&synth_hot, &start, &end, &pgoff, path, sizeof(path)))
		die("finding the text mapping in /proc/self/maps", NULL);
	if (stat(path, &st))
		die(path, NULL);
	rec_start(&r, PERF_RECORD_MMAP2, PERF_RECORD_MISC_USER);
	rec_u32x2(&r, s->pid, s->pid);
	rec_u64(&r, start);
	rec_u64(&r, end - start);
	rec_u64(&r, pgoff);
	rec_u32x2(&r, major(st.st_dev), minor(st.st_dev));
	rec_u64(&r, st.st_ino);
	rec_u64(&r, 0);
	rec_u32x2(&r, 5 /* PROT_READ|PROT_EXEC */, 2 /* MAP_PRIVATE */);
	rec_str(&r, path);
	rec_sample_id(s, &r, time);
	emit(s, &r);
}

static void write_sample(struct synth *s, unsigned long i, uint64_t time)
{
	static void (*const fns[])(void) = { synth_hot, synth_warm, synth_cold };
	/* per 6 samples: 3 hot, 2 warm, 1 cold */
	static const int pick[6] = { 0, 1, 0, 2, 0, 1 };
	uint64_t ip = (uint64_t)(uintptr_t)fns[pick[i % 6]] + 4;
	uint64_t id = s->ids[i % (unsigned long)s->nr_events];
	struct rec r;

	rec_start(&r, PERF_RECORD_SAMPLE, PERF_RECORD_MISC_USER);
	rec_u64(&r, id);            /* IDENTIFIER */
	rec_u64(&r, ip);            /* IP */
	rec_u32x2(&r, s->pid, s->pid);
	rec_u64(&r, time);
	if (s->sample_type & PERF_SAMPLE_CPU)
		rec_u32x2(&r, (uint32_t)(i % 2), 0);
	rec_u64(&r, 1000000);       /* PERIOD */
	rec_u64(&r, 4);             /* CALLCHAIN */
	rec_u64(&r, PERF_CONTEXT_USER);
	rec_u64(&r, ip);
	rec_u64(&r, (uint64_t)(uintptr_t)&synth_caller + 8);
	rec_u64(&r, (uint64_t)(uintptr_t)&main + 8);
	emit(s, &r);
}

/*
 * What a kernel under load writes: a LOST record (`lost` events of the sample's event
 * dropped because the ring buffer was full) or, with `samples`, a LOST_SAMPLES record.
 */
static void write_lost(struct synth *s, bool samples, uint64_t lost, uint64_t time)
{
	struct rec r;

	rec_start(&r, samples ? PERF_RECORD_LOST_SAMPLES : PERF_RECORD_LOST, 0);
	if (!samples)
		rec_u64(&r, s->ids[0]);
	rec_u64(&r, lost);
	rec_sample_id(s, &r, time);
	emit(s, &r);
}

/* A record of a type readers may not know: the header and 8 zero bytes. */
static void write_raw(struct synth *s, uint32_t type)
{
	struct rec r;

	rec_start(&r, type, 0);
	rec_u64(&r, 0);
	emit(s, &r);
}

static void add_events(struct synth *s)
{
	static const char *const names[] = { "cpu-clock", "task-clock" };

	for (int e = 0; e < s->nr_events; e++) {
		struct perf_event_attr attr = { 0 };

		attr.size = sizeof(attr);
		attr.type = PERF_TYPE_SOFTWARE;
		attr.config = e ? PERF_COUNT_SW_TASK_CLOCK : PERF_COUNT_SW_CPU_CLOCK;
		attr.sample_period = 1000000;
		attr.sample_type = s->sample_type;
		attr.disabled = 1;
		attr.mmap = attr.comm = attr.mmap2 = attr.comm_exec = 1;
		attr.sample_id_all = 1;
		s->ids[e] = 1000 + (uint64_t)e;
		if (xpf_writer_add_attr(s->w, &attr, &s->ids[e], 1, names[e], &s->err))
			die("adding an event", &s->err);
	}
}

static void set_features(struct synth *s, int argc, char **argv)
{
	struct xpf_features f = { 0 };
	struct utsname u;

	uname(&u);
	xpf_features_set_string(&f, XPF_FEAT_HOSTNAME, u.nodename);
	xpf_features_set_string(&f, XPF_FEAT_OSRELEASE, u.release);
	xpf_features_set_string(&f, XPF_FEAT_VERSION, "xpf-synth 0.1");
	xpf_features_set_string(&f, XPF_FEAT_ARCH, u.machine);
	xpf_features_set_string(&f, XPF_FEAT_CPUDESC, "synthetic cpu");
	xpf_features_set_string(&f, XPF_FEAT_CPUID, "Synthetic,1,2,3");
	f.nr_cpus_avail = 2;
	f.nr_cpus_online = 2;
	xpf_features_mark(&f, XPF_FEAT_NRCPUS);
	f.total_mem_kb = 1024 * 1024;
	xpf_features_mark(&f, XPF_FEAT_TOTAL_MEM);
	xpf_features_set_cmdline(&f, argc, (const char *const *)argv);
	if (xpf_writer_set_features(s->w, &f, &s->err))
		die("setting features", &s->err);
	xpf_features_free(&f);
}

static void usage(void)
{
	fprintf(stderr,
		"usage: xpf-synth [-o FILE|-] [-z LEVEL|--no-compress] [-n SAMPLES] [-r PER_ROUND]\n"
		"                 [-e 1|2] [--counts] [--kill-after-rounds N] [--no-cpu]\n"
		"                 [--lost N] [--lost-samples N] [--type T]...\n");
	exit(1);
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "no-compress", no_argument, NULL, 'Z' },
		{ "counts", no_argument, NULL, 'c' },
		{ "kill-after-rounds", required_argument, NULL, 'K' },
		{ "no-cpu", no_argument, NULL, 'C' },
		{ "lost", required_argument, NULL, 'L' },
		{ "lost-samples", required_argument, NULL, 'S' },
		{ "type", required_argument, NULL, 'T' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct xpf_writer_opts opts = { .compress_level = 1 };
	struct synth s = { 0 };
	const char *out = "perf.data";
	unsigned long nr = 1000, per_round = 100;
	bool counts = false;
	long kill_after = -1;
	bool no_cpu = false;
	unsigned long lost = 0, lost_samples = 0;
	uint32_t types[16];
	unsigned int nr_types = 0;
	struct timespec ts;
	uint64_t t;
	int c;

	s.nr_events = 1;
	while ((c = getopt_long(argc, argv, "o:z:n:r:e:h", longopts, NULL)) != -1) {
		switch (c) {
		case 'o': out = optarg; break;
		case 'z': opts.compress_level = atoi(optarg); break;
		case 'Z': opts.compress_level = 0; break;
		case 'n': nr = strtoul(optarg, NULL, 0); break;
		case 'r': per_round = strtoul(optarg, NULL, 0); break;
		case 'e': s.nr_events = atoi(optarg); break;
		case 'c': counts = true; break;
		case 'K': kill_after = atol(optarg); break;
		case 'C': no_cpu = true; break;
		case 'L': lost = strtoul(optarg, NULL, 0); break;
		case 'S': lost_samples = strtoul(optarg, NULL, 0); break;
		case 'T':
			if (nr_types == sizeof(types) / sizeof(types[0]))
				usage();
			types[nr_types++] = (uint32_t)strtoul(optarg, NULL, 0);
			break;
		default: usage();
		}
	}
	if (optind != argc || s.nr_events < 1 || s.nr_events > 2 || !per_round)
		usage();
	s.pid = (uint32_t)getpid();
	s.sample_type = PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID |
			PERF_SAMPLE_TIME | PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD |
			PERF_SAMPLE_CALLCHAIN;
	if (no_cpu)
		s.sample_type &= ~(uint64_t)PERF_SAMPLE_CPU;

	if (xpf_writer_open(&s.w, out, &opts, &s.err))
		die("opening the output", &s.err);
	add_events(&s);
	set_features(&s, argc, argv);
	clock_gettime(CLOCK_MONOTONIC, &ts);
	t = (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;

	write_setup(&s, t);
	if (xpf_writer_finished_init(s.w, &s.err))
		die("writing FINISHED_INIT", &s.err);
	s.counts[XPF_RECORD_FINISHED_INIT]++;
	for (unsigned int k = 0; k < nr_types; k++)
		write_raw(&s, types[k]);
	for (unsigned long i = 0; i < nr; i++) {
		write_sample(&s, i, t + (i + 1) * 1000000);
		/* the lost records spread evenly over the samples, each after one */
		if (lost && (i + 1) * lost / nr != i * lost / nr)
			write_lost(&s, false, 3, t + (i + 1) * 1000000 + 1);
		if (lost_samples && (i + 1) * lost_samples / nr != i * lost_samples / nr)
			write_lost(&s, true, 2, t + (i + 1) * 1000000 + 2);
		if ((i + 1) % per_round == 0 || i + 1 == nr) {
			if (xpf_writer_finished_round(s.w, &s.err))
				die("writing FINISHED_ROUND", &s.err);
			s.counts[XPF_RECORD_FINISHED_ROUND]++;
			/* a recorder killed mid-run: the file must stay readable up to here */
			if (kill_after >= 0 &&
			    s.counts[XPF_RECORD_FINISHED_ROUND] >= (unsigned long)kill_after) {
				fprintf(stderr, "SAMPLE %lu\n", s.counts[PERF_RECORD_SAMPLE]);
				kill(getpid(), SIGKILL);
			}
		}
	}
	if (xpf_writer_close(s.w, &s.err))
		die("closing the output", &s.err);
	if (counts) {
		static const struct { uint32_t type; const char *name; } names[] = {
			{ PERF_RECORD_MMAP2, "MMAP2" }, { PERF_RECORD_COMM, "COMM" },
			{ PERF_RECORD_SAMPLE, "SAMPLE" }, { PERF_RECORD_LOST, "LOST" },
			{ PERF_RECORD_LOST_SAMPLES, "LOST_SAMPLES" },
			{ XPF_RECORD_FINISHED_ROUND, "FINISHED_ROUND" },
			{ XPF_RECORD_FINISHED_INIT, "FINISHED_INIT" },
		};
		for (size_t k = 0; k < sizeof(names) / sizeof(names[0]); k++)
			if (s.counts[names[k].type] || (names[k].type != PERF_RECORD_LOST &&
							 names[k].type != PERF_RECORD_LOST_SAMPLES))
				fprintf(stderr, "%s %lu\n", names[k].name,
					s.counts[names[k].type]);
	}
	return 0;
}
