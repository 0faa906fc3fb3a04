/* Unit tests of src/events/synthesize.c: records from a fake /proc and from this process. */
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "elf/build_id.h"
#include "format/xpf_sample.h"
#include "unit.h"

#include "record/buildid.h"
#include "events/xpe_synth.h"


/* ---- collecting emitted records -------------------------------------------------------- */

#define MAX_RECS 4096

struct collected {
	int n;
	struct perf_event_header *rec[MAX_RECS];
	int fail_after; /* emit returns -EIO once n reaches this (0: never) */
};

static int collect(void *ctx, const struct perf_event_header *rec)
{
	struct collected *c = ctx;

	if (c->fail_after && c->n >= c->fail_after)
		return -EIO;
	if (c->n == MAX_RECS)
		return -ENOSPC;
	c->rec[c->n] = malloc(rec->size);
	if (!c->rec[c->n])
		return -ENOMEM;
	memcpy(c->rec[c->n++], rec, rec->size);
	return 0;
}

static void collected_free(struct collected *c)
{
	for (int i = 0; i < c->n; i++)
		free(c->rec[i]);
	c->n = 0;
}

static const uint64_t ALL_ID_BITS = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME |
				    PERF_SAMPLE_ID | PERF_SAMPLE_STREAM_ID | PERF_SAMPLE_CPU |
				    PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_PERIOD;

static struct xpe_synth synth_for(struct collected *c, const char *proc)
{
	struct xpe_synth s = {
		.sample_type = ALL_ID_BITS,
		.sample_id_all = true,
		.id = 0x1234,
		.proc = proc,
		.emit = collect,
		.emit_ctx = c,
	};
	return s;
}

/* Every record: 8-byte multiple, and a trailer our reader decodes to time 0 and s->id. */
static void check_trailers(const struct collected *c, const struct xpe_synth *s)
{
	struct perf_event_attr attr = { .size = sizeof(attr), .sample_type = s->sample_type,
					 .sample_id_all = 1 };

	for (int i = 0; i < c->n; i++) {
		struct xpf_sample smp;
		struct xb_error err;
		int ret;

		CHECK_EQ_U64(c->rec[i]->size % 8, 0);
		ret = xpf_sample_id_decode(&attr, c->rec[i], &smp, &err);
		if (ret) {
			UNIT_FAIL("record %d: %s", i, err.msg);
			return;
		}
		CHECK_EQ_U64(smp.time, 0);
		if (s->sample_type & (PERF_SAMPLE_ID | PERF_SAMPLE_IDENTIFIER))
			CHECK_EQ_U64(smp.id, s->id);
	}
}

/* ---- a fake /proc -------------------------------------------------------------------- */

static char fake_root[PATH_MAX];

static void put_file(const char *rel, const char *text)
{
	char path[PATH_MAX * 2], dir[PATH_MAX * 2], *slash;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", fake_root, rel);
	snprintf(dir, sizeof(dir), "%s", path);
	for (slash = dir + strlen(fake_root) + 1; (slash = strchr(slash, '/')); slash++) {
		*slash = '\0';
		mkdir(dir, 0755);
		*slash = '/';
	}
	f = fopen(path, "w");
	if (f) {
		fputs(text, f);
		fclose(f);
	}
}

static void make_fake_proc(void)
{
	snprintf(fake_root, sizeof(fake_root), "/tmp/xperf-synth-XXXXXX");
	if (!mkdtemp(fake_root)) {
		fake_root[0] = '\0';
		return;
	}
	put_file("kallsyms",
		 "0000000000000000 A fixed_percpu_data\n"
		 "ffffffff81000000 T _stext\n"
		 "ffffffff81000000 T _text\n"
		 "ffffffff81001000 T do_one_initcall\n"
		 "ffffffff82000000 T _etext\n"
		 "ffffffffc0001000 t mod_fn\t[foo]\n");
	put_file("modules", "foo_bar 16384 0 - Live 0xffffffffc0000000\n"
			    "hidden 8192 0 - Live 0x0000000000000000\n");
	put_file("100/status", "Name:\tapp\nTgid:\t100\nPid:\t100\n");
	put_file("100/task/100/comm", "app\n");
	put_file("100/task/101/comm", "worker\n");
	put_file("101/status", "Name:\tworker\nTgid:\t100\nPid:\t101\n");
	put_file("100/maps",
		 "55d0a0000000-55d0a0001000 r--p 00000000 fe:00 1234                       /usr/bin/app\n"
		 "55d0a0001000-55d0a0005000 r-xp 00001000 fe:00 1234                       /usr/bin/app\n"
		 "55d0a0005000-55d0a0006000 rw-p 00005000 fe:00 1234                       /usr/bin/app\n"
		 "55d0a1000000-55d0a1021000 rw-p 00000000 00:00 0                          [heap]\n"
		 "7f0000000000-7f0000010000 rwxp 00000000 00:00 0 \n"
		 "7f0000010000-7f0000020000 ---p 00010000 fe:00 1234                       /usr/bin/app\n"
		 "7f0000020000-7f0000030000 rw-p 00000000 00:00 0 \n"
		 "7f1000000000-7f1000100000 r-xs 00020000 08:01 99      /dev/shm/jit code\n"
		 "ffffffffff600000-ffffffffff601000 --xp 00000000 00:00 0                  [vsyscall]\n");
}

static void rm_fake_proc(void)
{
	char cmd[PATH_MAX + 16];

	if (fake_root[0] && !strncmp(fake_root, "/tmp/xperf-synth-", 17)) {
		snprintf(cmd, sizeof(cmd), "rm -rf '%s'", fake_root);
		if (system(cmd))
			fprintf(stderr, "could not remove %s\n", fake_root);
	}
}

/* ---- cases ------------------------------------------------------------------------------- */

static void test_fake_kernel(void)
{
	struct collected c = { 0 };
	struct xpe_synth s = synth_for(&c, fake_root);
	struct xpe_mmap_body *m;

	REQUIRE(fake_root[0]);
	REQUIRE(xpe_synth_kernel(&s, NULL) == 0);
	REQUIRE(c.n == 2);
	CHECK_EQ_U64(c.rec[0]->type, PERF_RECORD_MMAP);
	CHECK_EQ_U64(c.rec[0]->misc, PERF_RECORD_MISC_KERNEL);
	m = (struct xpe_mmap_body *)(c.rec[0] + 1);
	CHECK_EQ_U64(m->pid, (uint32_t)-1);
	CHECK_EQ_U64(m->start, 0xffffffff81000000ULL);
	CHECK_EQ_U64(m->len, 0x1000000);
	CHECK_EQ_U64(m->pgoff, 0xffffffff81000000ULL);
	CHECK_STR(m->filename, "[kernel.kallsyms]_text");
	/* perf's size: 40 fixed + 24 name + trailer */
	CHECK_EQ_U64(c.rec[0]->size, 8 + 32 + 24 + 48);
	m = (struct xpe_mmap_body *)(c.rec[1] + 1);
	CHECK_EQ_U64(m->start, 0xffffffffc0000000ULL);
	CHECK_EQ_U64(m->len, 16384);
	/* not under /lib/modules (or named differently there): perf's "[name]" */
	CHECK(!strcmp(m->filename, "[foo_bar]") || strstr(m->filename, ".ko"));
	check_trailers(&c, &s);
	collected_free(&c);

	/* /proc/iomem's "Kernel code" gives the size without reading kallsyms to _etext */
	put_file("iomem", "00000000-00000fff : Reserved\n"
			  "  01000000-017fffff : Kernel code\n"
			  "  01800000-01ffffff : Kernel rodata\n");
	REQUIRE(xpe_synth_kernel(&s, NULL) == 0);
	REQUIRE(c.n >= 1);
	m = (struct xpe_mmap_body *)(c.rec[0] + 1);
	CHECK_EQ_U64(m->start, 0xffffffff81000000ULL);
	CHECK_EQ_U64(m->len, 0x800000);
	collected_free(&c);
	/* hidden (non-root reads zeros): back to _etext */
	put_file("iomem", "00000000-00000000 : Kernel code\n");
	REQUIRE(xpe_synth_kernel(&s, NULL) == 0);
	REQUIRE(c.n >= 1);
	m = (struct xpe_mmap_body *)(c.rec[0] + 1);
	CHECK_EQ_U64(m->len, 0x1000000);
	collected_free(&c);
}

static void test_fake_process(void)
{
	struct collected c = { 0 };
	struct xpe_synth s = synth_for(&c, fake_root);
	struct xpe_comm_body *cm;
	struct xpe_mmap2_body *m;

	REQUIRE(fake_root[0]);
	REQUIRE(xpe_synth_process(&s, 100, NULL) == 0);
	/* COMM app, MMAP2 app text, //anon, jit, vsyscall, COMM worker */
	REQUIRE(c.n == 6);
	CHECK_EQ_U64(c.rec[0]->type, PERF_RECORD_COMM);
	cm = (struct xpe_comm_body *)(c.rec[0] + 1);
	CHECK_EQ_U64(cm->pid, 100);
	CHECK_EQ_U64(cm->tid, 100);
	CHECK_STR(cm->comm, "app");

	m = (struct xpe_mmap2_body *)(c.rec[1] + 1);
	CHECK_EQ_U64(c.rec[1]->type, PERF_RECORD_MMAP2);
	CHECK_EQ_U64(c.rec[1]->misc, PERF_RECORD_MISC_USER);
	CHECK_EQ_U64(m->pid, 100);
	CHECK_EQ_U64(m->start, 0x55d0a0001000ULL);
	CHECK_EQ_U64(m->len, 0x4000);
	CHECK_EQ_U64(m->pgoff, 0x1000);
	CHECK_EQ_U64(m->maj, 0xfe);
	CHECK_EQ_U64(m->min, 0);
	CHECK_EQ_U64(m->ino, 1234);
	CHECK_EQ_U64(m->prot, PROT_READ | PROT_EXEC);
	CHECK_EQ_U64(m->flags, MAP_PRIVATE);
	CHECK_STR(m->filename, "/usr/bin/app");
	/* same size as perf's: 72 fixed + 16 for "/usr/bin/app" + trailer */
	CHECK_EQ_U64(c.rec[1]->size, 8 + 64 + 16 + 48);

	m = (struct xpe_mmap2_body *)(c.rec[2] + 1);
	CHECK_STR(m->filename, "//anon");
	CHECK_EQ_U64(m->prot, PROT_READ | PROT_WRITE | PROT_EXEC);
	m = (struct xpe_mmap2_body *)(c.rec[3] + 1);
	CHECK_STR(m->filename, "/dev/shm/jit code");
	CHECK_EQ_U64(m->flags, MAP_SHARED);
	CHECK_EQ_U64(m->maj, 8);
	CHECK_EQ_U64(m->min, 1);
	m = (struct xpe_mmap2_body *)(c.rec[4] + 1);
	CHECK_STR(m->filename, "[vsyscall]");
	CHECK_EQ_U64(m->prot, PROT_EXEC);

	cm = (struct xpe_comm_body *)(c.rec[5] + 1);
	CHECK_EQ_U64(c.rec[5]->type, PERF_RECORD_COMM);
	CHECK_EQ_U64(cm->pid, 100);
	CHECK_EQ_U64(cm->tid, 101);
	CHECK_STR(cm->comm, "worker");
	check_trailers(&c, &s);
	collected_free(&c);

	/* -t of the non-leader: its COMM then the process maps, no other thread */
	REQUIRE(xpe_synth_thread(&s, 101, NULL) == 0);
	REQUIRE(c.n == 5);
	cm = (struct xpe_comm_body *)(c.rec[0] + 1);
	CHECK_EQ_U64(cm->pid, 100);
	CHECK_EQ_U64(cm->tid, 101);
	collected_free(&c);

	/*
	 * data mmaps, perf's rule: every readable non-executable mapping too, anonymous
	 * ones included, misc MMAP_DATA; not the ---p one
	 */
	s.data_mmaps = true;
	REQUIRE(xpe_synth_process(&s, 100, NULL) == 0);
	/* COMM, app r--p, app r-xp, app rw-p, [heap], //anon rwxp, //anon rw-p, jit,
	 * vsyscall, COMM */
	REQUIRE(c.n == 10);
	CHECK_EQ_U64(c.rec[1]->misc, PERF_RECORD_MISC_USER | PERF_RECORD_MISC_MMAP_DATA);
	m = (struct xpe_mmap2_body *)(c.rec[1] + 1);
	CHECK_STR(m->filename, "/usr/bin/app");
	CHECK_EQ_U64(m->prot, PROT_READ);
	CHECK_EQ_U64(c.rec[2]->misc, PERF_RECORD_MISC_USER);
	CHECK_EQ_U64(c.rec[3]->misc, PERF_RECORD_MISC_USER | PERF_RECORD_MISC_MMAP_DATA);
	m = (struct xpe_mmap2_body *)(c.rec[4] + 1);
	CHECK_STR(m->filename, "[heap]");
	CHECK_EQ_U64(m->prot, PROT_READ | PROT_WRITE);
	CHECK_EQ_U64(c.rec[4]->misc, PERF_RECORD_MISC_USER | PERF_RECORD_MISC_MMAP_DATA);
	m = (struct xpe_mmap2_body *)(c.rec[5] + 1);
	CHECK_STR(m->filename, "//anon");
	CHECK_EQ_U64(c.rec[5]->misc, PERF_RECORD_MISC_USER);
	m = (struct xpe_mmap2_body *)(c.rec[6] + 1);
	CHECK_STR(m->filename, "//anon");
	CHECK_EQ_U64(m->start, 0x7f0000020000ULL);
	CHECK_EQ_U64(c.rec[6]->misc, PERF_RECORD_MISC_USER | PERF_RECORD_MISC_MMAP_DATA);
	m = (struct xpe_mmap2_body *)(c.rec[7] + 1);
	CHECK_STR(m->filename, "/dev/shm/jit code");
	CHECK_EQ_U64(c.rec[9]->type, PERF_RECORD_COMM);
	check_trailers(&c, &s);
	collected_free(&c);
}

static void test_fake_all_and_errors(void)
{
	struct collected c = { 0 };
	struct xpe_synth s = synth_for(&c, fake_root);
	struct xb_error err;

	REQUIRE(fake_root[0]);
	/* /proc/101 is a thread listed at top level in the fake: it has no task dir */
	REQUIRE(xpe_synth_all(&s, NULL) == 0);
	CHECK_EQ_U64(c.n, 6);
	collected_free(&c);
	/* a vanished process is not an error */
	CHECK_EQ_U64(xpe_synth_process(&s, 4242, NULL), 0);
	CHECK_EQ_U64(c.n, 0);
	/* emit errors stop synthesis and come back */
	c.fail_after = 2;
	CHECK_EQ_U64(xpe_synth_process(&s, 100, &err), (uint64_t)-EIO);
	CHECK(strstr(err.msg, "100") != NULL);
	CHECK_EQ_U64(c.n, 2);
	collected_free(&c);
	/* no sample_id_all: no trailer */
	c.fail_after = 0;
	s.sample_id_all = false;
	REQUIRE(xpe_synth_process(&s, 100, NULL) == 0);
	CHECK_EQ_U64(c.rec[0]->size, 8 + 8 + 8); /* "app\0" padded to 8 */
	collected_free(&c);
}

/* _text (else _stext) and _etext of /proc/kallsyms, read here as perf reads them: 0 if hidden */
static void kernel_text(uint64_t *text, uint64_t *etext)
{
	char line[512], name[256];
	unsigned long long a;
	uint64_t stext = 0;
	FILE *f = fopen("/proc/kallsyms", "r");
	char type;

	*text = *etext = 0;
	while (f && fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%llx %c %255s", &a, &type, name) != 3)
			continue;
		if (!strcmp(name, "_text"))
			*text = a;
		else if (!strcmp(name, "_stext"))
			stext = a;
		else if (!strcmp(name, "_etext"))
			*etext = a;
	}
	if (f)
		fclose(f);
	if (!*text)
		*text = stext;
}

/* The real kernel map: start must be /proc/kallsyms' _text (when addresses are visible). */
static void test_real_kernel(void)
{
	struct collected c = { 0 };
	struct xpe_synth s = synth_for(&c, NULL);
	uint64_t text = 0, etext = 0;
	struct xpe_mmap_body *m;

	kernel_text(&text, &etext);
	REQUIRE(xpe_synth_kernel(&s, NULL) == 0);
	if (!text) {
		CHECK_EQ_U64(c.n, 0);
		return;
	}
	REQUIRE(c.n >= 1);
	m = (struct xpe_mmap_body *)(c.rec[0] + 1);
	CHECK_EQ_U64(m->start, text);
	/* perf's length: up to _etext (whether we found it in iomem or kallsyms) */
	if (etext)
		CHECK_EQ_U64(m->len, etext - text);
	CHECK_STR(m->filename, "[kernel.kallsyms]_text");
	check_trailers(&c, &s);
	collected_free(&c);
}

static volatile int thread_go;

static void *named_thread(void *arg)
{
	(void)arg;
	while (!thread_go)
		usleep(1000);
	return NULL;
}

/* This process: our own text, libc, a named thread; build ids from the files. */
static void test_self(void)
{
	struct collected c = { 0 };
	struct xpe_synth s = synth_for(&c, NULL);
	char exe[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	uint64_t here = (uint64_t)(uintptr_t)&test_self;
	int found_text = 0, found_thread = 0, found_libc = 0;
	uint8_t want[XREC_BUILD_ID_MAX];
	int want_size;
	pthread_t th;

	REQUIRE(n > 0);
	exe[n] = '\0';
	want_size = xelf_build_id_read_file(exe, want, sizeof(want), NULL);
	REQUIRE(pthread_create(&th, NULL, named_thread, NULL) == 0);
	pthread_setname_np(th, "synth-named");
	s.build_ids = true;
	REQUIRE(xpe_synth_process(&s, getpid(), NULL) == 0);
	thread_go = 1;
	pthread_join(th, NULL);
	for (int i = 0; i < c.n; i++) {
		if (c.rec[i]->type == PERF_RECORD_COMM) {
			struct xpe_comm_body *cm = (struct xpe_comm_body *)(c.rec[i] + 1);

			CHECK_EQ_U64(cm->pid, getpid());
			if (!strcmp(cm->comm, "synth-named") && cm->tid != (uint32_t)getpid())
				found_thread = 1;
		} else if (c.rec[i]->type == PERF_RECORD_MMAP2) {
			struct xpe_mmap2_body *m = (struct xpe_mmap2_body *)(c.rec[i] + 1);

			if (strstr(m->filename, "libc"))
				found_libc = 1;
			if (here < m->start || here >= m->start + m->len)
				continue;
			found_text = 1;
			CHECK_STR(m->filename, exe);
			CHECK(m->prot & PROT_EXEC);
			if (want_size > 0) {
				CHECK(c.rec[i]->misc & PERF_RECORD_MISC_MMAP_BUILD_ID);
				CHECK_EQ_U64(m->build_id_size, want_size);
				CHECK(!memcmp(m->build_id, want, want_size));
			}
		}
	}
	CHECK(found_text);
	CHECK(found_thread);
	CHECK(found_libc);
	check_trailers(&c, &s);
	collected_free(&c);
}

/*
 * This process with data mmaps: every readable mapping of libc, the read-only ones (which
 * hold .eh_frame for DWARF unwinding) as data, each with libc's build id.
 */
static void test_self_data(void)
{
	struct collected c = { 0 };
	struct xpe_synth s = synth_for(&c, NULL);
	char line[PATH_MAX + 256], libc[PATH_MAX] = "";
	uint8_t want[XREC_BUILD_ID_MAX];
	int want_size = 0, in_maps = 0, seen = 0, data = 0;
	FILE *f = fopen("/proc/self/maps", "re");

	REQUIRE(f);
	while (fgets(line, sizeof(line), f)) {
		char *name = strchr(line, '/'), perm[8];

		if (!name || !strstr(name, "/libc.so") || sscanf(line, "%*s %7s", perm) != 1)
			continue;
		name[strcspn(name, "\n")] = '\0';
		snprintf(libc, sizeof(libc), "%s", name);
		in_maps += perm[0] == 'r';
	}
	fclose(f);
	if (!libc[0])
		return; /* a static build: nothing to look at */
	want_size = xelf_build_id_read_file(libc, want, sizeof(want), NULL);
	s.build_ids = true;
	s.data_mmaps = true;
	REQUIRE(xpe_synth_process(&s, getpid(), NULL) == 0);
	for (int i = 0; i < c.n; i++) {
		struct xpe_mmap2_body *m = (struct xpe_mmap2_body *)(c.rec[i] + 1);

		if (c.rec[i]->type != PERF_RECORD_MMAP2 || strcmp(m->filename, libc))
			continue;
		seen++;
		if (!(m->prot & PROT_EXEC)) {
			CHECK(c.rec[i]->misc & PERF_RECORD_MISC_MMAP_DATA);
			data += m->prot == PROT_READ;
		}
		if (want_size > 0) {
			CHECK(c.rec[i]->misc & PERF_RECORD_MISC_MMAP_BUILD_ID);
			CHECK_EQ_U64(m->build_id_size, want_size);
			CHECK(!memcmp(m->build_id, want, want_size));
		}
	}
	CHECK_EQ_U64(seen, in_maps);
	CHECK(data >= 1);
	collected_free(&c);
}

int main(void)
{
	make_fake_proc();
	RUN(test_fake_kernel);
	RUN(test_fake_process);
	RUN(test_fake_all_and_errors);
	RUN(test_real_kernel);
	RUN(test_self);
	RUN(test_self_data);
	rm_fake_proc();
	UNIT_MAIN_END();
}
