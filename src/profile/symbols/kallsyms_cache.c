/* The running kernel's symbols through a cache of the parsed /proc/kallsyms, as perf keeps a copy. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stddef.h>
#include <sys/mman.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/hash.h"
#include "base/small_file.h"
#include "elf/build_id.h"
#include "profile/symbols/load.h"

/*
 * The file: a header, nr records laid out as struct xpp_sym (so the table is used where the
 * file is mapped, with no copy), then the names (each NUL-terminated, names_len bytes).
 * Host byte order and layout: a cache never leaves the machine that wrote it, and one
 * written by another build (another magic or record size) is ignored as foreign.
 */
#define CACHE_MAGIC "XPKSYMS4"
#define CACHE_NAME "kallsyms"

struct cache_header {
	char magic[8];
	uint32_t record_size;   /* sizeof(struct xpp_sym) */
	uint32_t nr;
	uint64_t names_len;
	uint64_t checksum;      /* of the records and the names (payload_checksum()) */
	struct xpp_kallsyms_key key;
	uint64_t image_end;     /* struct xpp_symtab's */
	/* the head's anchor (struct xpp_kallsyms_head) where the addresses were read: another
	   boot of the kernel moved every symbol by as much as it moved this one */
	uint64_t anchor_addr;
	char anchor[XPP_KALLSYMS_ANCHOR_MAX];   /* NUL-terminated */
};

/* no padding in what is compared; records start 8-aligned behind the header */
_Static_assert(sizeof(struct xpp_kallsyms_key) == 72, "padded key");
_Static_assert(sizeof(struct cache_header) == 120 + XPP_KALLSYMS_ANCHOR_MAX, "padded header");
_Static_assert(sizeof(struct cache_header) % 8 == 0, "records misaligned");

/*
 * A checksum of the payload against torn or damaged files (the header's sizes and the
 * records' bounds are checked on their own): four lanes of words, a few hundred
 * microseconds for the kernel's 5 MB where a byte-wise hash takes milliseconds.
 */
static uint64_t checksum(const void *p, size_t len, uint64_t h)
{
	const unsigned char *b = p;
	uint64_t lane[4] = { h, h + 1, h + 2, h + 3 }, w;
	size_t i = 0;

	for (; i + 32 <= len; i += 32)
		for (int l = 0; l < 4; l++) {
			memcpy(&w, b + i + 8 * l, 8);
			lane[l] = xb_hash_add(lane[l], w);
		}
	for (; i < len; i++)
		lane[0] = xb_hash_add(lane[0], b[i]);
	return xb_hash_add(xb_hash_add(xb_hash_add(lane[0], lane[1]), lane[2]), lane[3]);
}

/* The records', then the names' (each a region of its own: a rewrite writes them from where
   they lie) */
static uint64_t payload_checksum(const void *recs, size_t recs_len, const void *names,
				 size_t names_len, uint32_t nr)
{
	return checksum(names, names_len, checksum(recs, recs_len, nr));
}

int xpp_kallsyms_key_running(struct xpp_kallsyms_key *k)
{
	char boot_id[64];
	ssize_t n;
	int id;

	memset(k, 0, sizeof(*k));
	/*
	 * The build-id names the kernel's image, and with it every symbol and the distance
	 * between any two: a boot of the same kernel moves them all by one offset (KASLR),
	 * which the head tells (xpp_kallsyms_cache_read()). Without a build-id, the boot id
	 * keys the cache: nothing else tells a reboot into another kernel apart.
	 */
	id = xelf_build_id_read_kernel(k->build_id, sizeof(k->build_id), NULL);
	if (id > 0) {
		k->build_id_size = (uint32_t)id;
	} else {
		n = xb_read_small("/proc/sys/kernel/random/boot_id", boot_id, sizeof(boot_id));
		if (n < 0)
			return (int)n;
		if (n == 0 || (size_t)n > sizeof(k->boot_id))
			return -ENOENT;
		memcpy(k->boot_id, boot_id, (size_t)n);
	}
	k->parser = XPP_KALLSYMS_PARSER;
	if (xb_read_small("/proc/sys/kernel/kptr_restrict", boot_id, sizeof(boot_id)) > 0)
		k->kptr_restrict = (uint32_t)strtoul(boot_id, NULL, 10) + 1;
	return 0;
}

/* The file at fd (ours, private, a regular file of a sane size) mapped read-only, or NULL. */
static void *map_owned(int fd, size_t *len)
{
	struct stat st;
	void *map;

	if (fstat(fd, &st) || !S_ISREG(st.st_mode) || st.st_uid != geteuid() ||
	    (st.st_mode & 077) || st.st_size < (off_t)sizeof(struct cache_header) ||
	    st.st_size > (off_t)1 << 30)
		return NULL;
	map = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	if (map == MAP_FAILED)
		return NULL;
	*len = (size_t)st.st_size;
	return map;
}

/* Every bound of the file, before anything of it is used: 0, or -EINVAL. */
static int validate(const char *buf, size_t len, const struct xpp_kallsyms_key *key)
{
	const struct cache_header *h = (const void *)buf;
	const struct xpp_sym *syms = (const void *)(buf + sizeof(*h));
	const char *names;

	if (memcmp(h->magic, CACHE_MAGIC, sizeof(h->magic)) ||
	    h->record_size != sizeof(struct xpp_sym) || memcmp(&h->key, key, sizeof(*key)) ||
	    !h->nr || !h->names_len || h->names_len > UINT32_MAX ||
	    !memchr(h->anchor, '\0', sizeof(h->anchor)))
		return -EINVAL;
	if (sizeof(*h) + (uint64_t)h->nr * sizeof(*syms) + h->names_len != len ||
	    payload_checksum(buf + sizeof(*h), (size_t)h->nr * sizeof(*syms),
			     buf + len - h->names_len, h->names_len, h->nr) != h->checksum)
		return -EINVAL;
	names = buf + len - h->names_len;
	if (names[h->names_len - 1])
		return -EINVAL;
	for (uint32_t i = 0; i < h->nr; i++)
		if (syms[i].name >= h->names_len || syms[i].end <= syms[i].start ||
		    syms[i].binding > XPP_SYM_WEAK || (i && syms[i - 1].start >= syms[i].start))
			return -EINVAL;
	return 0;
}

/*
 * Whether t holds the head's code symbols: each at its address (one symbol per address is
 * kept), and there the one kallsyms lists last at it (the alias that wins). A head whose
 * last line may have more aliases behind it does not say which wins: not checked.
 */
static bool head_matches(const struct xpp_symtab *t, const struct xpp_kallsyms_head *h)
{
	const char *p = h->buf, *end = h->buf + h->len;
	struct xpp_kallsyms_line l, prev = { 0 };
	int64_t at = -1;

	while (p < end) {
		const char *eol = memchr(p, '\n', (size_t)(end - p));

		if (!eol)
			eol = end;
		if (xpp_kallsyms_line(p, eol, &l) && l.text && !l.module && l.addr) {
			if (at >= 0 && l.addr != prev.addr &&
			    (strlen(xpp_symtab_name(t, (uint32_t)at)) != prev.name_len ||
			     memcmp(xpp_symtab_name(t, (uint32_t)at), prev.name, prev.name_len)))
				return false;
			at = xpp_symtab_preceding(t, l.addr);
			if (at < 0 || t->syms[at].start != l.addr)
				return false;
			prev = l;
		}
		p = eol + 1;
	}
	return true;
}

int xpp_kallsyms_cache_read(struct xpp_symtab *t, const char *file,
			    const struct xpp_kallsyms_key *key, const struct xpp_kallsyms_head *head)
{
	/* O_NONBLOCK: a FIFO there must not hang us before map_owned() refuses it */
	int fd = open(file, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
	const struct cache_header *h;
	struct xpp_sym *moved;
	uint64_t delta;
	size_t len = 0;
	char *map;

	if (fd < 0)
		return -errno;
	map = map_owned(fd, &len);
	close(fd);
	if (!map)
		return -EINVAL;
	h = (const void *)map;
	if (validate(map, len, key) || strcmp(h->anchor, head->anchor)) {
		munmap(map, len);
		return -EINVAL;
	}
	memset(t, 0, sizeof(*t));
	t->syms = (struct xpp_sym *)(void *)(map + sizeof(*h));
	t->names = map + len - h->names_len;
	t->nr = t->cap = h->nr;
	t->names_len = t->names_cap = h->names_len;
	t->finished = true;
	t->last_alias_wins = true;
	t->image_end = h->image_end;
	t->map = map;
	t->map_len = len;
	delta = head->anchor_addr - h->anchor_addr;
	/* KASLR moves the kernel by whole pages (2 MB on x86): the ends finish() rounded to
	   a page stay where a read of this boot's file would put them */
	if (delta & 4095) {
		xpp_symtab_free(t);
		return -EINVAL;
	}
	if (delta) {
		/*
		 * Another boot of this kernel: its symbols where this boot put them, in memory
		 * of their own (the names stay in the mapping). Moved past the end of the
		 * address space they would no longer be in order: not this kernel's.
		 */
		moved = malloc((size_t)t->nr * sizeof(*moved));
		if (!moved || t->syms[0].start + delta > t->syms[t->nr - 1].end - 1 + delta) {
			free(moved);
			xpp_symtab_free(t);
			return moved ? -EINVAL : -ENOMEM;
		}
		for (uint32_t i = 0; i < t->nr; i++) {
			moved[i] = t->syms[i];
			moved[i].start += delta;
			moved[i].end += delta;
		}
		t->syms = moved;
		if (t->image_end)
			t->image_end += delta;
	}
	if (!head_matches(t, head)) {
		xpp_symtab_free(t);
		return -EINVAL;
	}
	return delta ? 1 : 0;
}

/* The header of t's file, but for its checksum. */
static void header(struct cache_header *h, const struct xpp_symtab *t,
		   const struct xpp_kallsyms_key *key, const struct xpp_kallsyms_head *head,
		   size_t names_len)
{
	memset(h, 0, sizeof(*h));
	memcpy(h->magic, CACHE_MAGIC, sizeof(h->magic));
	h->record_size = sizeof(struct xpp_sym);
	h->nr = t->nr;
	memcpy(&h->key, key, sizeof(h->key));
	h->names_len = names_len;
	h->image_end = t->image_end;
	h->anchor_addr = head->anchor_addr;
	memcpy(h->anchor, head->anchor, sizeof(h->anchor));
}

/* The file's bytes: the header, the records and the names of the kept symbols only. */
static char *serialize(const struct xpp_symtab *t, const struct xpp_kallsyms_key *key,
		       const struct xpp_kallsyms_head *head, size_t *len)
{
	struct cache_header h;
	size_t names_len = 0, at;
	char *buf, *names;

	for (uint32_t i = 0; i < t->nr; i++)
		names_len += strlen(xpp_symtab_name(t, i)) + 1;
	if (names_len > UINT32_MAX)
		return NULL;
	header(&h, t, key, head, names_len);
	*len = sizeof(h) + (size_t)t->nr * sizeof(struct xpp_sym) + names_len;
	buf = calloc(1, *len);
	if (!buf)
		return NULL;
	names = buf + *len - names_len;
	at = 0;
	for (uint32_t i = 0; i < t->nr; i++) {
		const char *name = xpp_symtab_name(t, i);
		size_t n = strlen(name) + 1;
		char *rec = buf + sizeof(h) + (size_t)i * sizeof(struct xpp_sym);
		uint32_t off = (uint32_t)at;

		/* field by field: the padding stays the zeroes calloc gave it */
		memcpy(rec + offsetof(struct xpp_sym, start), &t->syms[i].start, 8);
		memcpy(rec + offsetof(struct xpp_sym, end), &t->syms[i].end, 8);
		memcpy(rec + offsetof(struct xpp_sym, name), &off, 4);
		memcpy(rec + offsetof(struct xpp_sym, order), &i, 4);
		memcpy(rec + offsetof(struct xpp_sym, binding), &t->syms[i].binding, 1);
		memcpy(rec + offsetof(struct xpp_sym, sized), &t->syms[i].sized, 1);
		memcpy(names + at, name, n);
		at += n;
	}
	h.checksum = payload_checksum(buf + sizeof(h), (size_t)t->nr * sizeof(struct xpp_sym),
				      names, names_len, h.nr);
	memcpy(buf, &h, sizeof(h));
	return buf;
}

/*
 * A file of no name in file's directory (O_TMPFILE), so that a process killed while
 * writing leaves nothing behind; -errno when the file system has none (then a named
 * temporary file is used).
 */
static int open_unnamed(const char *file)
{
	const char *slash = strrchr(file, '/');
	char dir[4096];
	size_t n = slash ? (size_t)(slash - file) : 0;
	int fd;

	if (!slash || !n || n >= sizeof(dir))
		return -EINVAL;
	memcpy(dir, file, n);
	dir[n] = '\0';
	fd = open(dir, O_TMPFILE | O_WRONLY | O_CLOEXEC, 0600);
	return fd < 0 ? -errno : fd;
}

/* Give the unnamed file fd the name tmp: its XXXXXX made random, as mkstemp makes them. */
static int name_unnamed(int fd, char *tmp)
{
	static const char chars[] = "abcdefghijklmnopqrstuvwxyz0123456789";
	char proc[64];
	size_t n = strlen(tmp) - 6;

	snprintf(proc, sizeof(proc), "/proc/self/fd/%d", fd);
	for (int tries = 0; tries < 16; tries++) {
		uint8_t r[6];

		if (getrandom(r, sizeof(r), 0) != (ssize_t)sizeof(r))
			return -EIO;
		for (size_t i = 0; i < sizeof(r); i++)
			tmp[n + i] = chars[r[i] % 36];
		if (!linkat(AT_FDCWD, proc, AT_FDCWD, tmp, AT_SYMLINK_FOLLOW))
			return 0;
		if (errno != EEXIST)
			return -errno;
	}
	return -EEXIST;
}

/* The file's bytes, in up to three parts written one after the other. */
struct parts {
	const char *p[3];
	size_t len[3];
};

static int write_all(int fd, const struct parts *parts)
{
	for (int i = 0; i < 3; i++)
		for (size_t at = 0; at < parts->len[i];) {
			ssize_t r = write(fd, parts->p[i] + at, parts->len[i] - at);

			if (r < 0 && errno == EINTR)
				continue;
			if (r <= 0)
				return r < 0 ? -errno : -EIO;
			at += (size_t)r;
		}
	return 0;
}

/* parts into an unnamed file, then named tmp; -errno (no O_TMPFILE, no /proc, a full disk) */
static int write_unnamed(const char *file, char *tmp, const struct parts *parts)
{
	int fd = open_unnamed(file), ret;

	if (fd < 0)
		return fd;
	ret = write_all(fd, parts);
	if (!ret)
		ret = name_unnamed(fd, tmp);
	if (close(fd) && !ret) {
		ret = -errno;
		unlink(tmp);
	}
	return ret;
}

/* parts into a named private temporary file, tmp (a mkstemp template) */
static int write_named(char *tmp, const struct parts *parts)
{
	int fd = mkostemp(tmp, O_CLOEXEC), ret;

	if (fd < 0)
		return -errno;
	ret = write_all(fd, parts);
	if (close(fd) && !ret)
		ret = -errno;
	if (ret)
		unlink(tmp);
	return ret;
}

int xpp_kallsyms_cache_write(const struct xpp_symtab *t, const char *file,
			     const struct xpp_kallsyms_key *key,
			     const struct xpp_kallsyms_head *head)
{
	size_t len, n = strlen(file);
	struct parts parts = { { NULL }, { 0 } };
	struct cache_header h;
	char *buf = NULL, *tmp;
	int ret;

	if (!t->finished || !t->nr || !head->anchor[0])
		return -EINVAL;
	if (t->map) {
		/*
		 * A cache read (and moved from another boot): its records and names are the
		 * file's already, the records where they lie (moved), the names where the old
		 * file is mapped; no copy of 7 MB to make.
		 */
		header(&h, t, key, head, t->names_len);
		h.checksum = payload_checksum(t->syms, (size_t)t->nr * sizeof(*t->syms),
					      t->names, t->names_len, t->nr);
		parts = (struct parts){ { (const char *)&h, (const char *)t->syms, t->names },
					{ sizeof(h), (size_t)t->nr * sizeof(*t->syms),
					  t->names_len } };
	} else if ((buf = serialize(t, key, head, &len))) {
		parts.p[0] = buf;
		parts.len[0] = len;
	}
	tmp = malloc(n + sizeof(".XXXXXX"));
	if (!parts.len[0] || !tmp) {
		free(buf);
		free(tmp);
		return -ENOMEM;
	}
	/*
	 * Written unnamed, then named and renamed over the old one: readers see all of it or
	 * none, and a kill while writing leaves no file. Where that cannot be done, a named
	 * private temporary file.
	 */
	memcpy(tmp, file, n);
	memcpy(tmp + n, ".XXXXXX", sizeof(".XXXXXX"));
	ret = write_unnamed(file, tmp, &parts);
	if (ret < 0) {
		memcpy(tmp + n, ".XXXXXX", sizeof(".XXXXXX"));
		ret = write_named(tmp, &parts);
	}
	if (!ret && rename(tmp, file)) {
		ret = -errno;
		unlink(tmp);
	}
	free(buf);
	free(tmp);
	return ret;
}

/* dir and its parent, private to the user when we make them; 0 or -errno */
static int make_dir(const char *dir)
{
	char parent[4096];
	char *slash;

	if (!mkdir(dir, 0700) || errno == EEXIST)
		return 0;
	if (errno != ENOENT || strlen(dir) >= sizeof(parent))
		return -errno;
	strcpy(parent, dir);
	slash = strrchr(parent, '/');
	if (!slash || slash == parent)
		return -ENOENT;
	*slash = '\0';
	if (mkdir(parent, 0700) && errno != EEXIST)
		return -errno;
	return mkdir(dir, 0700) && errno != EEXIST ? -errno : 0;
}

/*
 * The cache's directory, made if missing, and ours alone: a directory (not a link to one)
 * of this user that nobody else may write to, as one xperf made. 0, or a negative errno:
 * then nothing is written there.
 */
static int private_dir(const char *dir)
{
	struct stat st;
	int ret = make_dir(dir);

	if (ret < 0)
		return ret;
	if (lstat(dir, &st))
		return -errno;
	if (!S_ISDIR(st.st_mode) || st.st_uid != geteuid() || (st.st_mode & 022))
		return -EPERM;
	return 0;
}

/*
 * The head of the kallsyms at path (struct xpp_kallsyms_head): its first page, and more
 * while no code symbol with an address has shown (some kernels list hundreds of per-cpu
 * symbols first, all at small offsets from 0). 0, or a negative errno.
 */
int xpp_kallsyms_head_read(struct xpp_kallsyms_head *h, const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	size_t have = 0;
	char *cut;

	memset(h, 0, offsetof(struct xpp_kallsyms_head, buf));
	if (fd < 0)
		return -errno;
	while (have < sizeof(h->buf) - 1 && (have < 4096 || !h->anchor[0])) {
		/* a page at a time, as /proc gives it: a regular file's head is as long */
		size_t room = sizeof(h->buf) - 1 - have;
		ssize_t r = read(fd, h->buf + have, room < 4096 ? room : 4096);

		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		have += (size_t)r;
		h->buf[have] = '\0';
		/* the complete lines only: a cut one would name another symbol */
		cut = memrchr(h->buf, '\n', have);
		h->len = cut ? (size_t)(cut + 1 - h->buf) : 0;
		for (const char *p = h->buf, *eol; !h->anchor[0] && p < h->buf + h->len;
		     p = eol + 1) {
			struct xpp_kallsyms_line l;

			eol = memchr(p, '\n', (size_t)(h->buf + h->len - p));
			if (!xpp_kallsyms_line(p, eol, &l))
				continue;
			/*
			 * Any address but 0 says this process is shown them: the kernel decides
			 * at each open (kptr_restrict, perf_event_paranoid, CAP_SYSLOG), and a
			 * cache must not hand out what the file would hide.
			 */
			if (l.addr && p < h->buf + 4096)
				h->shown = true;
			if (l.addr && l.text && !l.module && l.name_len < sizeof(h->anchor)) {
				h->anchor_addr = l.addr;
				memcpy(h->anchor, l.name, l.name_len);
				h->anchor[l.name_len] = '\0';
			}
		}
	}
	close(fd);
	h->buf[h->len] = '\0';
	return 0;
}

int xpp_kallsyms_load_running(struct xpp_symtab *t, const char *path, const char *cache_dir,
			      struct xpp_kallsyms_store *store, struct xb_error *err)
{
	char file[4096 + sizeof(CACHE_NAME)];
	int ret;

	store->wanted = false;
	if (!cache_dir || xpp_kallsyms_head_read(&store->head, path) || !store->head.shown ||
	    !store->head.anchor[0] || xpp_kallsyms_key_running(&store->key) ||
	    (size_t)snprintf(store->dir, sizeof(store->dir), "%s", cache_dir) >= sizeof(store->dir))
		return xpp_kallsyms_load(t, path, err);
	snprintf(file, sizeof(file), "%s/%s", store->dir, CACHE_NAME);
	ret = xpp_kallsyms_cache_read(t, file, &store->key, &store->head);
	if (ret >= 0) {
		/* moved from another boot: written again at this boot's addresses, so the
		   next report uses it where it is mapped */
		store->wanted = ret > 0;
		return 0;
	}
	ret = xpp_kallsyms_load(t, path, err);
	store->wanted = !ret;
	return ret;
}

void xpp_kallsyms_store_write(const struct xpp_symtab *t, const struct xpp_kallsyms_store *store)
{
	char file[4096 + sizeof(CACHE_NAME)];

	/* a cache that cannot be written costs the next run a read of kallsyms, nothing else */
	if (!store->wanted || private_dir(store->dir))
		return;
	snprintf(file, sizeof(file), "%s/%s", store->dir, CACHE_NAME);
	xpp_kallsyms_cache_write(t, file, &store->key, &store->head);
}
