/* Synthesized COMM and MMAP2 records from /proc, and the kernel map, as perf synthesizes them. */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/sysmacros.h>
#include <sys/utsname.h>

#include "base/array.h"
#include "elf/build_id.h"
#include "format/xpf_sample.h"
#include "events/xpe_synth.h"

/* Big enough for any record we build: fixed part + PATH_MAX name + the largest trailer. */
#define REC_BUF_SIZE (128 + PATH_MAX + 64)

struct rec_buf {
	union {
		struct perf_event_header hdr;
		uint64_t align;
		char bytes[REC_BUF_SIZE];
	};
};

static const char *proc_root(const struct xpe_synth *s)
{
	return s->proc ? s->proc : "/proc";
}

/*
 * Append the sample_id trailer at offset `off` and emit. perf leaves synthesized trailers
 * zero (time 0 sorts them first; id 0 means "the first event" to perf report); only the
 * id fields take s->id.
 */
static int emit_with_trailer(const struct xpe_synth *s, struct rec_buf *b, uint16_t type,
			     uint16_t misc, size_t off)
{
	uint64_t *p;
	uint64_t t = s->sample_type;

	off = (off + 7) & ~(size_t)7;
	if (s->sample_id_all) {
		if (off + xpf_sample_id_size(t) > sizeof(b->bytes))
			return -ENAMETOOLONG;
		p = (uint64_t *)(b->bytes + off);
		if (t & PERF_SAMPLE_TID)
			*p++ = 0;
		if (t & PERF_SAMPLE_TIME)
			*p++ = 0;
		if (t & PERF_SAMPLE_ID)
			*p++ = s->id;
		if (t & PERF_SAMPLE_STREAM_ID)
			*p++ = 0;
		if (t & PERF_SAMPLE_CPU)
			*p++ = 0;
		if (t & PERF_SAMPLE_IDENTIFIER)
			*p++ = s->id;
		off = (char *)p - b->bytes;
	}
	b->hdr.type = type;
	b->hdr.misc = misc;
	b->hdr.size = (uint16_t)off;
	return s->emit(s->emit_ctx, &b->hdr);
}

/* Copy a NUL-terminated name after the fixed part, zero-padded to 8 bytes like perf. */
static size_t put_name(struct rec_buf *b, size_t off, const char *name)
{
	size_t n = strlen(name) + 1, padded;

	if (n > PATH_MAX)
		n = PATH_MAX;
	padded = (n + 7) & ~(size_t)7;
	memset(b->bytes + off, 0, padded);
	memcpy(b->bytes + off, name, n - 1);
	return off + padded;
}

static int emit_comm(const struct xpe_synth *s, pid_t pid, pid_t tid, const char *comm)
{
	struct rec_buf b;
	struct xpe_comm_body *c = (struct xpe_comm_body *)(b.bytes + sizeof(b.hdr));
	size_t off;

	c->pid = pid;
	c->tid = tid;
	off = put_name(&b, sizeof(b.hdr) + sizeof(*c), comm);
	return emit_with_trailer(s, &b, PERF_RECORD_COMM, 0, off);
}

/* ---- the kernel map ------------------------------------------------------------------ */

/*
 * Find _text (else _stext) and, when need_end, _etext in kallsyms; addresses 0 when hidden.
 * _text is among the first lines, _etext some 100k lines down: reading that far costs tens
 * of milliseconds, so callers ask for it only when /proc/iomem cannot tell the size.
 */
static int kallsyms_text(const char *path, bool need_end, uint64_t *start, uint64_t *end)
{
	char line[512];
	uint64_t text = 0, stext = 0, etext = 0;
	FILE *f = fopen(path, "re");

	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f)) {
		char *sp1 = strchr(line, ' '), *name;

		/* "ADDR T name[\t[module]]": cheaper than sscanf on 100k lines */
		if (!sp1 || sp1[1] == '\0' || sp1[2] != ' ')
			continue;
		name = sp1 + 3;
		name[strcspn(name, "\t\n")] = '\0';
		if (!strcmp(name, "_text"))
			text = strtoull(line, NULL, 16);
		else if (!strcmp(name, "_stext"))
			stext = strtoull(line, NULL, 16);
		else if (!strcmp(name, "_etext"))
			etext = strtoull(line, NULL, 16);
		else
			continue;
		if (text && (!need_end || etext))
			break;
	}
	fclose(f);
	*start = text ? text : stext;
	*end = etext;
	return 0;
}

/* Size of the kernel text from /proc/iomem's "Kernel code" (= _etext - _text); 0 if hidden. */
static uint64_t iomem_kernel_code_size(const struct xpe_synth *s)
{
	char path[PATH_MAX], line[256];
	unsigned long long lo, hi;
	uint64_t size = 0;
	FILE *f;

	snprintf(path, sizeof(path), "%s/iomem", proc_root(s));
	f = fopen(path, "re");
	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f)) {
		if (!strstr(line, " : Kernel code"))
			continue;
		if (sscanf(line, " %llx-%llx", &lo, &hi) == 2 && hi > lo)
			size = hi - lo + 1;
		break;
	}
	fclose(f);
	return size;
}

/* The path of a module under /lib/modules/RELEASE/, from modules.dep ("kernel/x/y.ko: ..."). */
static int module_path(const char *release, const char *name, char *out, size_t outsz)
{
	char dep[PATH_MAX], line[4096];
	FILE *f;
	int found = 0;

	snprintf(dep, sizeof(dep), "/lib/modules/%s/modules.dep", release);
	f = fopen(dep, "re");
	if (!f)
		return 0;
	while (!found && fgets(line, sizeof(line), f)) {
		char *colon = strchr(line, ':'), *base, *dot;
		size_t i;

		if (!colon)
			continue;
		*colon = '\0';
		base = strrchr(line, '/');
		base = base ? base + 1 : line;
		dot = strstr(base, ".ko");
		if (!dot || (size_t)(dot - base) != strlen(name))
			continue;
		/* module names use '_' where file names may use '-' */
		for (i = 0; i < strlen(name); i++) {
			char a = base[i] == '-' ? '_' : base[i], c = name[i] == '-' ? '_' : name[i];

			if (a != c)
				break;
		}
		if (i == strlen(name) &&
		    strlen(release) + strlen(line) + sizeof("/lib/modules//") <= outsz) {
			strcpy(out, "/lib/modules/");
			strcat(out, release);
			strcat(out, "/");
			strcat(out, line);
			found = 1;
		}
	}
	fclose(f);
	return found;
}

static int emit_kernel_mmap(const struct xpe_synth *s, uint64_t start, uint64_t len,
			    uint64_t pgoff, const char *name)
{
	struct rec_buf b;
	struct xpe_mmap_body *m = (struct xpe_mmap_body *)(b.bytes + sizeof(b.hdr));
	size_t off;

	m->pid = (uint32_t)-1;
	m->tid = 0;
	m->start = start;
	m->len = len;
	m->pgoff = pgoff;
	off = put_name(&b, sizeof(b.hdr) + sizeof(*m), name);
	return emit_with_trailer(s, &b, PERF_RECORD_MMAP, PERF_RECORD_MISC_KERNEL, off);
}

static int synth_modules(const struct xpe_synth *s)
{
	char path[PATH_MAX], line[1024];
	struct utsname uts;
	FILE *f;
	int ret = 0;

	snprintf(path, sizeof(path), "%s/modules", proc_root(s));
	f = fopen(path, "re");
	if (!f)
		return 0; /* a kernel without modules */
	if (uname(&uts))
		uts.release[0] = '\0';
	while (!ret && fgets(line, sizeof(line), f)) {
		char name[256], file[PATH_MAX];
		unsigned long long size, addr;

		/* name size refcount deps state address */
		if (sscanf(line, "%255s %llu %*s %*s %*s %llx", name, &size, &addr) != 3 || !addr)
			continue;
		if (!module_path(uts.release, name, file, sizeof(file)))
			snprintf(file, sizeof(file), "[%s]", name);
		ret = emit_kernel_mmap(s, addr, size, 0, file);
	}
	fclose(f);
	return ret;
}

int xpe_synth_kernel(const struct xpe_synth *s, struct xb_error *err)
{
	char path[PATH_MAX];
	uint64_t start = 0, end = 0, code_size = iomem_kernel_code_size(s);
	int ret;

	snprintf(path, sizeof(path), "%s/kallsyms", proc_root(s));
	ret = kallsyms_text(path, !code_size, &start, &end);
	if (ret < 0)
		return xb_error_set(err, ret, "'%s': %s", path, strerror(-ret));
	if (!start)
		return 0; /* kptr_restrict: perf then has no kernel map either */
	if (code_size)
		end = start + code_size;
	/* perf maps the kernel text: up to _etext, else to the end of the address space */
	ret = emit_kernel_mmap(s, start, end > start ? end - start : ~0ULL - start, start,
			       "[kernel.kallsyms]_text");
	if (!ret)
		ret = synth_modules(s);
	if (ret < 0)
		return xb_error_set(err, ret, "cannot write the kernel map: %s", strerror(-ret));
	return 0;
}

/* ---- processes ----------------------------------------------------------------------- */

static int read_comm(const struct xpe_synth *s, pid_t pid, pid_t tid, char *out, size_t sz)
{
	char path[PATH_MAX];
	FILE *f;
	size_t n;

	snprintf(path, sizeof(path), "%s/%d/task/%d/comm", proc_root(s), pid, tid);
	f = fopen(path, "re");
	if (!f)
		return -errno;
	n = fread(out, 1, sz - 1, f);
	fclose(f);
	out[n] = '\0';
	if (n && out[n - 1] == '\n')
		out[n - 1] = '\0';
	return 0;
}

/* Tgid of a thread from /proc/TID/status; negative errno when it is gone. */
static pid_t read_tgid(const struct xpe_synth *s, pid_t tid)
{
	char path[PATH_MAX], line[256];
	pid_t tgid = -ENOENT;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%d/status", proc_root(s), tid);
	f = fopen(path, "re");
	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "Tgid: %d", &tgid) == 1)
			break;
	fclose(f);
	return tgid;
}

/* Parse one /proc/PID/maps line; 0 when the mapping is to be synthesized. */
static int parse_map_line(const struct xpe_synth *s, char *line, struct xpe_mmap2_body *m,
			  char **name)
{
	unsigned long long start, end, pgoff, ino;
	unsigned int maj, min;
	char perm[8];
	int n = 0;
	char *p;

	if (sscanf(line, "%llx-%llx %7s %llx %x:%x %llu %n", &start, &end, perm, &pgoff, &maj,
		   &min, &ino, &n) < 7 || !n)
		return -EINVAL;
	p = line + n;
	p[strcspn(p, "\n")] = '\0';
	/*
	 * perf's rule (perf_event__synthesize_mmap_events): every executable mapping; the
	 * others only with mmap_data and when readable, anonymous ones included ([heap],
	 * [stack], //anon), as the kernel reports them with attr.mmap_data.
	 */
	if (perm[2] != 'x' && (!s->data_mmaps || perm[0] != 'r'))
		return -ENOENT;
	/* anonymous memory (JIT code, or data): perf names it //anon */
	*name = *p ? p : "//anon";
	m->start = start;
	m->len = end - start;
	m->pgoff = pgoff;
	m->maj = maj;
	m->min = min;
	m->ino = ino;
	m->ino_generation = 0;
	m->prot = (perm[0] == 'r' ? PROT_READ : 0) | (perm[1] == 'w' ? PROT_WRITE : 0) |
		  (perm[2] == 'x' ? PROT_EXEC : 0);
	m->flags = perm[3] == 's' ? MAP_SHARED : MAP_PRIVATE;
	return 0;
}

/*
 * The build id of the last file read: a DSO's mappings are adjacent in /proc/PID/maps, and
 * with data mappings there are four or five per DSO, each of which would read the file.
 */
struct last_id {
	char path[PATH_MAX];
	uint8_t id[XPE_SYNTH_BUILD_ID_MAX];
	int n;
};

static int build_id_of(struct last_id *last, const char *path, uint8_t *id)
{
	if (strcmp(last->path, path)) {
		last->n = xelf_build_id_read_file(path, last->id, sizeof(last->id), NULL);
		snprintf(last->path, sizeof(last->path), "%s", path);
	}
	if (last->n > 0)
		memcpy(id, last->id, last->n);
	return last->n;
}

static int synth_maps(const struct xpe_synth *s, pid_t pid)
{
	char path[PATH_MAX], line[PATH_MAX + 256];
	struct last_id last = { .path = "" };
	FILE *f;
	int ret = 0;

	snprintf(path, sizeof(path), "%s/%d/maps", proc_root(s), pid);
	f = fopen(path, "re");
	if (!f)
		return 0; /* gone, or a kernel thread */
	while (!ret && fgets(line, sizeof(line), f)) {
		struct rec_buf b;
		struct xpe_mmap2_body *m = (struct xpe_mmap2_body *)(b.bytes + sizeof(b.hdr));
		uint16_t misc = PERF_RECORD_MISC_USER;
		char *name;
		size_t off;

		if (parse_map_line(s, line, m, &name))
			continue;
		m->pid = m->tid = pid;
		if (!(m->prot & PROT_EXEC))
			misc |= PERF_RECORD_MISC_MMAP_DATA;
		if (s->build_ids && name[0] == '/') {
			uint8_t id[XPE_SYNTH_BUILD_ID_MAX];
			int n = build_id_of(&last, name, id);

			if (n > 0) {
				memset(&m->maj, 0, 24);
				m->build_id_size = (uint8_t)n;
				memcpy(m->build_id, id, n);
				misc |= PERF_RECORD_MISC_MMAP_BUILD_ID;
			}
		}
		off = put_name(&b, sizeof(b.hdr) + sizeof(*m), name);
		ret = emit_with_trailer(s, &b, PERF_RECORD_MMAP2, misc, off);
	}
	fclose(f);
	return ret;
}

static int cmp_pid(const void *a, const void *b)
{
	pid_t x = *(const pid_t *)a, y = *(const pid_t *)b;

	return (x > y) - (x < y);
}

/* Numeric entries of a /proc directory, sorted. *out is malloc'ed. */
static int list_pids(const char *dir, pid_t **out)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	pid_t *v = NULL;
	int n = 0;
	size_t cap = 0;

	if (!d)
		return -errno;
	while ((de = readdir(d))) {
		char *end;
		long x = strtol(de->d_name, &end, 10);

		if (!isdigit((unsigned char)de->d_name[0]) || *end || x <= 0 || x > INT_MAX)
			continue;
		if (XB_ARRAY_RESERVE(v, cap, (size_t)n + 1, 64)) {
			free(v);
			closedir(d);
			return -ENOMEM;
		}
		v[n++] = (pid_t)x;
	}
	closedir(d);
	if (n > 1) /* qsort's base must not be NULL, even for no entries */
		qsort(v, n, sizeof(*v), cmp_pid);
	*out = v;
	return n;
}

/* perf's order: the leader's COMM, the process's maps, then the other threads' COMMs. */
static int synth_process(const struct xpe_synth *s, pid_t pid, pid_t only_tid)
{
	char dir[PATH_MAX], comm[64];
	pid_t *tids = NULL;
	int n, ret = 0;

	snprintf(dir, sizeof(dir), "%s/%d/task", proc_root(s), pid);
	n = list_pids(dir, &tids);
	if (n < 0)
		return n == -ENOMEM ? n : 0; /* exited meanwhile */
	if (only_tid <= 0 || only_tid == pid) {
		if (!read_comm(s, pid, pid, comm, sizeof(comm)))
			ret = emit_comm(s, pid, pid, comm);
		if (!ret)
			ret = synth_maps(s, pid);
	} else {
		/* -t of a non-leader: its COMM first, so the maps have a named thread */
		if (!read_comm(s, pid, only_tid, comm, sizeof(comm)))
			ret = emit_comm(s, pid, only_tid, comm);
		if (!ret)
			ret = synth_maps(s, pid);
	}
	for (int i = 0; !ret && i < n; i++) {
		if (tids[i] == pid || only_tid > 0)
			continue;
		if (!read_comm(s, pid, tids[i], comm, sizeof(comm)))
			ret = emit_comm(s, pid, tids[i], comm);
	}
	free(tids);
	return ret;
}

static int synth_fail(int ret, pid_t pid, struct xb_error *err)
{
	return xb_error_set(err, ret, "cannot synthesize the maps of process %d: %s", pid,
			     strerror(-ret));
}

int xpe_synth_process(const struct xpe_synth *s, pid_t pid, struct xb_error *err)
{
	int ret = synth_process(s, pid, 0);

	return ret < 0 ? synth_fail(ret, pid, err) : 0;
}

int xpe_synth_thread(const struct xpe_synth *s, pid_t tid, struct xb_error *err)
{
	pid_t tgid = read_tgid(s, tid);
	int ret;

	if (tgid < 0)
		return 0; /* gone */
	ret = synth_process(s, tgid, tid);
	return ret < 0 ? synth_fail(ret, tgid, err) : 0;
}

int xpe_synth_all(const struct xpe_synth *s, struct xb_error *err)
{
	pid_t *pids = NULL;
	int n = list_pids(proc_root(s), &pids), ret = 0;

	if (n < 0)
		return xb_error_set(err, n, "'%s': %s", proc_root(s), strerror(-n));
	for (int i = 0; !ret && i < n; i++) {
		ret = synth_process(s, pids[i], 0);
		if (ret < 0)
			ret = synth_fail(ret, pids[i], err);
	}
	free(pids);
	return ret;
}
