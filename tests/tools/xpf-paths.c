/* xpf-paths: rewrites a real -g recording so that every sample has a call path of its own. */
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <getopt.h>
#include <libelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "format/xpf_reader.h"
#include "format/xpf_writer.h"

/*
 * Usage: xpf-paths -i REAL.data -o OUT.data [-n SAMPLES] [-d DEPTH] [-z LEVEL] [-u]
 *
 * The cost of a report grows with the number of distinct call paths, which a real
 * recording of a few seconds keeps small. This makes the worst case out of a real file:
 * every side-band record of REAL.data (its processes, threads and maps) as it is, then
 * SAMPLES samples (default 100000) of the process with the most samples, each with a
 * user callchain of DEPTH frames (default 10) that no other sample has, as resolved
 * functions: each frame is the middle of a function of one of the process's mapped ELF
 * files (their .symtab or .dynsym), so perf and xperf name every frame and the paths stay
 * distinct after symbolisation. Sample i's innermost and third frames are the digits in
 * base P (P functions known, P * P >= SAMPLES) of a permutation of i over [0, P * P), its
 * second frame one of HOT_CALLERS functions, the others a hash of (i, frame): the paths
 * share little beyond their outermost frame, as independent paths do, and the shape is the
 * same whatever SAMPLES: HOT_CALLERS entries above the call graphs' threshold, the others
 * below it. (Digits of i itself made the high digit take SAMPLES / P values: 46 functions
 * of 2% each at 100k samples, 454 of 0.6% at 1M, so the 1M file had ten times the
 * entries with a graph to print and its growth measured that.) Times follow the last
 * record of REAL.data; samples come in rounds of 10000. Plain records unless -z.
 *
 * -u makes the unresolved shape instead (issue 20: a stripped or deleted binary, a JIT
 * without a map): the DEPTH inner frames of every sample are addresses no other frame has,
 * in a map of a file that is not on disk (UNRESOLVED_FILE, added beside the process's own
 * maps), so that every frame is an entry of its own, below two outermost frames that every
 * sample shares (two resolved functions, as a program's main and its caller), whose
 * entries' call graphs hold every path.
 * Prints "paths N functions P" on success.
 */

#define MAX_FUNCS (1u << 16)
/* the distinct shape's callers of 2% each (1 / HOT_CALLERS of the samples), whose entries'
   graphs the default view prints */
#define HOT_CALLERS 46
#define ROUND 10000
/* -u: the file of the unresolved frames' map, which no machine has; its map's start */
#define UNRESOLVED_FILE "/nonexistent/xpf-paths/deleted-binary"
#define UNRESOLVED_START 0x100000000000ULL

struct func_pool {
	uint64_t *ip;
	uint32_t nr;
};

struct map {
	uint64_t start, len, pgoff;
	uint32_t pid;
	char *file;
	struct perf_event_header *rec; /* the MMAP2 record as read */
};

static struct xb_error err;

static void die(const char *what)
{
	fprintf(stderr, "xpf-paths: error: %s: %s\n", what, err.msg[0] ? err.msg : strerror(errno));
	exit(2);
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* The functions of one mapped ELF file whose code lies in the map, as process addresses. */
static void add_funcs(struct func_pool *pool, const struct map *m)
{
	GElf_Shdr sh;
	Elf_Scn *scn = NULL, *best = NULL;
	size_t nph, i;
	Elf *elf;
	int fd;

	if (m->file[0] != '/' || (fd = open(m->file, O_RDONLY | O_CLOEXEC)) < 0)
		return;
	elf_version(EV_CURRENT);
	elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	if (!elf || elf_kind(elf) != ELF_K_ELF || elf_getphdrnum(elf, &nph))
		goto out;
	while ((scn = elf_nextscn(elf, scn)))
		if (gelf_getshdr(scn, &sh) && (sh.sh_type == SHT_SYMTAB || (!best &&
		    sh.sh_type == SHT_DYNSYM)) && sh.sh_entsize)
			best = scn;
	if (!best || !gelf_getshdr(best, &sh))
		goto out;
	Elf_Data *d = elf_getdata(best, NULL);

	for (i = 1; d && i < sh.sh_size / sh.sh_entsize && pool->nr < MAX_FUNCS; i++) {
		GElf_Sym s;

		if (!gelf_getsym(d, (int)i, &s) || GELF_ST_TYPE(s.st_info) != STT_FUNC ||
		    s.st_size < 2 || s.st_shndx == SHN_UNDEF)
			continue;
		/* vaddr -> file offset through its PT_LOAD, then into the map */
		for (size_t j = 0; j < nph; j++) {
			GElf_Phdr ph;
			uint64_t off;

			if (!gelf_getphdr(elf, (int)j, &ph) || ph.p_type != PT_LOAD ||
			    s.st_value < ph.p_vaddr || s.st_value >= ph.p_vaddr + ph.p_filesz)
				continue;
			off = s.st_value - ph.p_vaddr + ph.p_offset + s.st_size / 2;
			if (off >= m->pgoff && off - m->pgoff < m->len)
				pool->ip[pool->nr++] = m->start + off - m->pgoff;
			break;
		}
	}
out:
	if (elf)
		elf_end(elf);
	close(fd);
}

/*
 * -u: a copy of the process's MMAP2 record m (its ids, its time) for UNRESOLVED_FILE, an
 * executable map at UNRESOLVED_START of room for n frames 16 bytes apart, with an inode of
 * its own and no build-id (nothing can find the file). 0, or -1 when m is not one to copy.
 */
static int gone_map(xpf_writer *wr, const struct perf_event_attr *attr,
		    const struct perf_event_header *m, uint64_t n)
{
	static const char name[] = UNRESOLVED_FILE;
	unsigned int trailer = attr->sample_id_all ? xpf_sample_id_size(attr->sample_type) : 0;
	size_t namelen = (sizeof(name) + 7) & ~(size_t)7;
	uint64_t buf[64] = { 0 }, len = (n * 16 + 4095) & ~4095ULL, ino = 0x7e57ab1eULL;
	uint8_t *b = (uint8_t *)buf;
	struct perf_event_header *h = (struct perf_event_header *)buf;

	if (m->size < 72 + trailer || 72 + namelen + trailer > sizeof(buf))
		return -1;
	memcpy(b, m, 72);
	memcpy(b + 16, &(uint64_t){ UNRESOLVED_START }, 8);
	memcpy(b + 24, &len, 8);
	memset(b + 32, 0, 8);                    /* pgoff */
	memset(b + 40, 0, 24);                   /* maj, min, ino, ino_generation */
	memcpy(b + 48, &ino, 8);
	memcpy(b + 72, name, sizeof(name));
	memcpy(b + 72 + namelen, (const uint8_t *)m + m->size - trailer, trailer);
	h->misc &= (uint16_t)~PERF_RECORD_MISC_MMAP_BUILD_ID;
	h->size = (uint16_t)(72 + namelen + trailer);
	if (xpf_writer_write(wr, h, &err))
		die("writing");
	return 0;
}

/* One sample in the attr's layout: the fields this tool knows, -1 for any other. */
static int put_sample(uint64_t *w, uint64_t st, const struct xpf_sample *s, const uint64_t *chain,
		      uint32_t depth, uint64_t time)
{
	struct perf_event_header *h = (struct perf_event_header *)w;
	uint64_t known = PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID |
			 PERF_SAMPLE_TIME | PERF_SAMPLE_ADDR | PERF_SAMPLE_ID | PERF_SAMPLE_STREAM_ID |
			 PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD | PERF_SAMPLE_CALLCHAIN;
	size_t n = 1;

	if (st & ~known || !(st & PERF_SAMPLE_CALLCHAIN))
		return -1;
	if (st & PERF_SAMPLE_IDENTIFIER)
		w[n++] = s->id;
	if (st & PERF_SAMPLE_IP)
		w[n++] = chain[1];
	if (st & PERF_SAMPLE_TID)
		w[n++] = (uint64_t)s->tid << 32 | s->pid;
	if (st & PERF_SAMPLE_TIME)
		w[n++] = time;
	if (st & PERF_SAMPLE_ADDR)
		w[n++] = 0;
	if (st & PERF_SAMPLE_ID)
		w[n++] = s->id;
	if (st & PERF_SAMPLE_STREAM_ID)
		w[n++] = s->stream_id;
	if (st & PERF_SAMPLE_CPU)
		w[n++] = s->cpu;
	if (st & PERF_SAMPLE_PERIOD)
		w[n++] = s->period ? s->period : 1;
	w[n++] = depth + 1;
	memcpy(w + n, chain, (depth + 1) * sizeof(*w));
	n += depth + 1;
	h->type = PERF_RECORD_SAMPLE;
	h->misc = PERF_RECORD_MISC_USER;
	h->size = (uint16_t)(n * 8);
	return 0;
}

static uint64_t mix(uint64_t x)
{
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdULL;
	x ^= x >> 33;
	x *= 0xc4ceb3f97ec1bd3ULL;
	return x ^ (x >> 33);
}

/*
 * x's place in a fixed permutation of [0, n): a bijection of [0, 2^k) (odd multiplies and
 * xor-shifts, each invertible mod 2^k), walked until it falls below n.
 */
static uint64_t permute(uint64_t x, uint64_t n)
{
	unsigned int k = 1;

	while ((1ULL << k) < n)
		k++;
	uint64_t mask = (1ULL << k) - 1;

	do {
		x = (x * 0x9e3779b97f4a7c15ULL) & mask;
		x ^= x >> (k / 2 + 1);
		x = (x * 0xd6e8feb86659fd93ULL) & mask;
		x ^= x >> (k / 2 + 1);
	} while (x >= n);
	return x;
}

/* The features worth keeping: the machine's description and the recorded build-ids. */
static void copy_features(xpf_writer *w, const struct xpf_features *src)
{
	static const unsigned int keep[] = {
		XPF_FEAT_HOSTNAME, XPF_FEAT_OSRELEASE, XPF_FEAT_VERSION, XPF_FEAT_ARCH,
		XPF_FEAT_NRCPUS, XPF_FEAT_CPUDESC, XPF_FEAT_CPUID, XPF_FEAT_TOTAL_MEM,
		XPF_FEAT_BUILD_ID,
	};
	struct xpf_features f = { 0 };

	if (xpf_features_copy(&f, src, &err))
		die("copying the features");
	memset(f.present, 0, sizeof(f.present));
	for (size_t i = 0; i < sizeof(keep) / sizeof(keep[0]); i++)
		if (xpf_features_has(src, keep[i]))
			xpf_features_mark(&f, keep[i]);
	if (xpf_writer_set_features(w, &f, &err))
		die("setting the features");
	xpf_features_free(&f);
}

int main(int argc, char **argv)
{
	const char *in = NULL, *out = NULL;
	uint64_t nsamples = 100000, last_time = 0, w[64];
	uint32_t depth = 10, nr_maps = 0, cap_maps = 0, *counts = NULL;
	struct xpf_writer_opts wo = { .compress_level = 0 };
	struct func_pool pool = { 0 };
	struct map *maps = NULL;
	struct xpf_sample tmpl = { 0 };
	struct xpf_record rec;
	const struct xpf_attr *a0;
	xpf_reader *r;
	xpf_writer *wr;
	int c, ret;
	int unresolved = 0; /* -u: 1 asked for, 2 its map written */

	while ((c = getopt(argc, argv, "i:o:n:d:z:u")) != -1) {
		if (c == 'i')
			in = optarg;
		else if (c == 'o')
			out = optarg;
		else if (c == 'n')
			nsamples = strtoull(optarg, NULL, 10);
		else if (c == 'd')
			depth = (uint32_t)strtoul(optarg, NULL, 10);
		else if (c == 'z')
			wo.compress_level = atoi(optarg);
		else if (c == 'u')
			unresolved = 1;
		else
			goto usage;
	}
	if (!in || !out || !nsamples || depth < 3 || depth > 40)
		goto usage;
	if (xpf_reader_open(&r, in, &err) || xpf_writer_open(&wr, out, &wo, &err))
		die(in);
	if (!xpf_reader_nr_attrs(r))
		die("no attrs");
	for (uint32_t i = 0; i < xpf_reader_nr_attrs(r); i++) {
		const struct xpf_attr *a = xpf_reader_attr(r, i);

		if (xpf_writer_add_attr(wr, &a->attr, a->ids, a->nr_ids, a->name, &err))
			die("adding an attr");
	}
	copy_features(wr, xpf_reader_features(r));
	a0 = xpf_reader_attr(r, 0);
	counts = calloc(1 << 22, sizeof(*counts));
	pool.ip = malloc(MAX_FUNCS * sizeof(*pool.ip));
	if (!counts || !pool.ip)
		die("memory");
	/* the side band as it is; the samples only tell whose and where */
	while ((ret = xpf_reader_next(r, &rec, &err)) > 0) {
		const struct perf_event_header *h = rec.hdr;
		struct xpf_sample s;

		/* perf's own records (rounds, COMPRESSED, ...) are the writer's to make */
		if (h->type >= XPF_RECORD_HEADER_ATTR)
			continue;
		if (h->type == PERF_RECORD_SAMPLE) {
			if (xpf_reader_decode_sample(r, h, &s, &err) || s.pid >= (1u << 22) ||
			    (h->misc & PERF_RECORD_MISC_CPUMODE_MASK) != PERF_RECORD_MISC_USER)
				continue;
			if (++counts[s.pid] > counts[tmpl.pid] || !tmpl.pid)
				tmpl = s;
			if (s.time > last_time)
				last_time = s.time;
			continue;
		}
		if (!xpf_sample_id_decode(&a0->attr, h, &s, &err) && s.time > last_time)
			last_time = s.time;
		if (h->type == PERF_RECORD_MMAP2 && h->size > 72) {
			const char *b = (const char *)h;
			uint32_t pid, prot;

			memcpy(&pid, b + 8, 4);
			memcpy(&prot, b + 64, 4);
			if ((prot & PROT_EXEC) && nr_maps < 4096) {
				if (nr_maps == cap_maps &&
				    !(maps = realloc(maps, (cap_maps = cap_maps ? cap_maps * 2 : 64) *
						     sizeof(*maps))))
					die("memory");
				memcpy(&maps[nr_maps].start, b + 16, 8);
				memcpy(&maps[nr_maps].len, b + 24, 8);
				memcpy(&maps[nr_maps].pgoff, b + 32, 8);
				maps[nr_maps].pid = pid;
				maps[nr_maps].file = strndup(b + 72, h->size - 72);
				maps[nr_maps].rec = malloc(h->size);
				if (!maps[nr_maps].file || !maps[nr_maps].rec)
					die("memory");
				memcpy(maps[nr_maps].rec, h, h->size);
				nr_maps++;
			}
		}
		if (xpf_writer_write(wr, h, &err))
			die("writing");
	}
	if (ret < 0)
		die(in);
	if (!tmpl.pid || !(tmpl.type & PERF_SAMPLE_CALLCHAIN))
		die("the input has no user samples with callchains");
	/* the functions of the sampled process's executable maps */
	for (uint32_t i = 0; i < nr_maps; i++) {
		if (maps[i].pid == tmpl.pid) {
			add_funcs(&pool, &maps[i]);
			if (unresolved == 1 && !gone_map(wr, &a0->attr, maps[i].rec, nsamples * depth))
				unresolved = 2;
		}
		free(maps[i].file);
		free(maps[i].rec);
	}
	if (unresolved == 1)
		die("the sampled process has no MMAP2 record to model the unresolved map on");
	free(maps);
	free(counts);
	qsort(pool.ip, pool.nr, sizeof(*pool.ip), cmp_u64);
	for (uint32_t i = 0, o = 0; i < pool.nr; i++) /* aliases share an address: once */
		if (!o || pool.ip[i] != pool.ip[o - 1])
			pool.ip[o++] = pool.ip[i], c = (int)o;
	pool.nr = pool.nr ? (uint32_t)c : 0;
	if (pool.nr < 16 || (!unresolved && (uint64_t)pool.nr * pool.nr < nsamples))
		die("too few functions in the sampled process's files");
	if (xpf_writer_finished_round(wr, &err))
		die("writing");
	for (uint64_t i = 0; i < nsamples; i++) {
		uint64_t chain[43]; /* depth, plus -u's two shared frames */

		chain[0] = PERF_CONTEXT_USER;
		if (unresolved) {
			/* an address of its own per frame, 16 bytes apart; the shared two last */
			for (uint32_t j = 0; j < depth; j++)
				chain[j + 1] = UNRESOLVED_START + (i * depth + j) * 16;
			chain[depth + 1] = pool.ip[pool.nr / 2];
			chain[depth + 2] = pool.ip[pool.nr / 2 + 1];
			if (put_sample(w, a0->attr.sample_type, &tmpl, chain, depth + 2,
				       last_time + 1 + i * 1000))
				die("the input's sample_type has fields this tool does not write");
			goto write;
		}
		uint64_t x = permute(i, (uint64_t)pool.nr * pool.nr);

		chain[1] = pool.ip[x % pool.nr];
		chain[2] = pool.ip[mix(i * 64 + 1) % HOT_CALLERS * (pool.nr / HOT_CALLERS)];
		chain[3] = pool.ip[x / pool.nr];
		for (uint32_t j = 3; j < depth; j++)
			chain[j + 1] = pool.ip[mix(i * 64 + j) % pool.nr];
		if (put_sample(w, a0->attr.sample_type, &tmpl, chain, depth, last_time + 1 + i * 1000))
			die("the input's sample_type has fields this tool does not write");
write:
		if (xpf_writer_write(wr, (const struct perf_event_header *)w, &err) ||
		    ((i + 1) % ROUND == 0 && xpf_writer_finished_round(wr, &err)))
			die("writing");
	}
	if (xpf_writer_close(wr, &err))
		die(out);
	xpf_reader_close(r);
	free(pool.ip);
	printf("paths %llu functions %u\n", (unsigned long long)nsamples, pool.nr);
	return 0;
usage:
	fprintf(stderr, "usage: xpf-paths -i REAL.data -o OUT.data [-n SAMPLES] [-d DEPTH] "
		"[-z LEVEL] [-u]\n");
	return 1;
}
