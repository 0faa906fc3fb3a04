/* perf's TRACING_DATA blob: what perf needs to decode the raw data of tracepoint samples. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/array.h"
#include "record/tracing_data.h"

/* perf's trace-event-info.c: "just guessing this is someone's birthday.. ;)" */
static const char magic[10] = { 23, 8, 68, 't', 'r', 'a', 'c', 'i', 'n', 'g' };

struct blob {
	uint8_t *p;
	size_t len, cap;
	bool failed;
};

struct tp {
	char sys[256], name[256];
};

static void put(struct blob *b, const void *data, size_t n)
{
	if (b->failed || !n) /* n == 0: data may be NULL (an absent optional file) */
		return;
	if (XB_ARRAY_RESERVE(b->p, b->cap, b->len + n, 65536)) {
		b->failed = true;
		return;
	}
	memcpy(b->p + b->len, data, n);
	b->len += n;
}

/* The whole of a (tracefs or proc) file, whose stat size says nothing. */
static int slurp(const char *path, char **out, size_t *size)
{
	size_t len = 0, cap = 16384;
	char *buf = malloc(cap);
	int fd = open(path, O_RDONLY | O_CLOEXEC), e;
	ssize_t n;

	if (fd < 0 || !buf) {
		e = fd < 0 ? errno : ENOMEM;
		free(buf);
		if (fd >= 0)
			close(fd);
		return -e;
	}
	for (;;) {
		if (XB_ARRAY_RESERVE(buf, cap, len + 1, cap)) {
			e = ENOMEM;
			goto fail;
		}
		n = read(fd, buf + len, cap - len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			e = errno;
			goto fail;
		}
		if (n == 0)
			break;
		len += (size_t)n;
	}
	close(fd);
	*out = buf;
	*size = len;
	return 0;
fail:
	close(fd);
	free(buf);
	return -e;
}

/* Size (in hdr_sz bytes, 4 or 8) then the file; a missing optional file is size 0. */
static int put_file(struct blob *b, const char *path, int hdr_sz, bool optional,
		    struct xb_error *err)
{
	char *data = NULL;
	size_t n = 0;
	uint64_t sz64;
	uint32_t sz32;
	int ret = slurp(path, &data, &n);

	if (ret < 0 && !(optional && ret == -ENOENT))
		return xb_error_set(err, ret, "cannot read '%s': %s", path, strerror(-ret));
	sz64 = n;
	sz32 = (uint32_t)n;
	if (hdr_sz == 4 && n > UINT32_MAX) {
		free(data);
		return xb_error_set(err, -EFBIG, "'%s' is too large", path);
	}
	if (hdr_sz == 4)
		put(b, &sz32, 4);
	else
		put(b, &sz64, 8);
	put(b, data, n);
	free(data);
	return 0;
}

static long long read_id(const char *path)
{
	char *data = NULL, *end;
	size_t n;
	long long id = -1;

	if (slurp(path, &data, &n) < 0)
		return -1;
	/* slurp's buffer always has room past the data for the terminator */
	if (n && n < 32) {
		data[n] = 0;
		id = strtoll(data, &end, 10);
		if (end == data || (*end && *end != '\n'))
			id = -1;
	}
	free(data);
	return id;
}

/* The tracefs event of system `sys` whose id is `config`: its name into tp->name. */
static int find_event(const char *tfs, const char *sys, uint64_t config, struct tp *tp,
		      struct xb_error *err)
{
	char dir[4096], path[4096 + 300];
	struct dirent *de;
	DIR *d;

	snprintf(dir, sizeof(dir), "%s/events/%s", tfs, sys);
	d = opendir(dir);
	if (!d)
		return xb_error_set(err, -errno, "cannot read '%s': %s", dir, strerror(errno));
	while ((de = readdir(d))) {
		if (de->d_name[0] == '.' || strlen(de->d_name) >= sizeof(tp->name))
			continue;
		snprintf(path, sizeof(path), "%s/%s/id", dir, de->d_name);
		if (read_id(path) == (long long)config) {
			snprintf(tp->sys, sizeof(tp->sys), "%s", sys);
			snprintf(tp->name, sizeof(tp->name), "%s", de->d_name);
			closedir(d);
			return 0;
		}
	}
	closedir(d);
	return xb_error_set(err, -ENOENT, "no tracepoint of system '%s' has id %llu", sys,
			     (unsigned long long)config);
}

/* The distinct tracepoints of evl, in evlist order. */
static int collect(xpe_ctx *ctx, xpe_evlist *evl, struct tp **out, size_t *nr,
		   struct xb_error *err)
{
	size_t n = xpe_evlist_count(evl), i, j;
	const char *tfs = xpe_ctx_tracefs(ctx);
	struct tp *tps = calloc(n ? n : 1, sizeof(*tps));

	*nr = 0;
	if (!tps)
		return xb_error_set(err, -ENOMEM, "out of memory");
	for (i = 0; i < n; i++) {
		struct xpe_event *ev = xpe_evlist_event(evl, i);
		const char *colon = strchr(ev->name, ':');
		char sys[256];
		int ret;

		if (ev->kind != XPE_KIND_TRACEPOINT)
			continue;
		if (!tfs || !colon || (size_t)(colon - ev->name) >= sizeof(sys)) {
			free(tps);
			return xb_error_set(err, -ENOENT, "cannot find the format of '%s'",
					     ev->name);
		}
		snprintf(sys, sizeof(sys), "%.*s", (int)(colon - ev->name), ev->name);
		ret = find_event(tfs, sys, ev->attr.config, &tps[*nr], err);
		if (ret < 0) {
			free(tps);
			return ret;
		}
		for (j = 0; j < *nr; j++)
			if (!strcmp(tps[j].sys, tps[*nr].sys) && !strcmp(tps[j].name, tps[*nr].name))
				break;
		if (j == *nr)
			(*nr)++;
	}
	*out = tps;
	return 0;
}

/* Per system (first-seen order): its name, its count, then each event's format. */
static int put_systems(struct blob *b, const char *tfs, const struct tp *tps, size_t nr,
		       struct xb_error *err)
{
	uint32_t nsys = 0, count;
	char path[4096 + 600];
	size_t i, j;
	int ret;

	for (i = 0; i < nr; i++) {
		for (j = 0; j < i && strcmp(tps[j].sys, tps[i].sys); j++)
			;
		nsys += j == i;
	}
	put(b, &nsys, 4);
	for (i = 0; i < nr; i++) {
		for (j = 0; j < i && strcmp(tps[j].sys, tps[i].sys); j++)
			;
		if (j < i)
			continue;
		put(b, tps[i].sys, strlen(tps[i].sys) + 1);
		for (count = 0, j = i; j < nr; j++)
			count += !strcmp(tps[j].sys, tps[i].sys);
		put(b, &count, 4);
		for (j = i; j < nr; j++) {
			if (strcmp(tps[j].sys, tps[i].sys))
				continue;
			snprintf(path, sizeof(path), "%s/events/%s/%s/format", tfs, tps[j].sys,
				 tps[j].name);
			ret = put_file(b, path, 8, false, err);
			if (ret < 0)
				return ret;
		}
	}
	return 0;
}

int xrec_tracing_data(xpe_ctx *ctx, xpe_evlist *evl, void **out, size_t *size,
		      struct xb_error *err)
{
	struct blob b = { 0 };
	struct tp *tps = NULL;
	const char *tfs;
	char path[4096 + 64];
	uint32_t page = (uint32_t)sysconf(_SC_PAGESIZE), none = 0;
	uint8_t c;
	size_t nr;
	int ret;

	*out = NULL;
	*size = 0;
	ret = collect(ctx, evl, &tps, &nr, err);
	if (ret < 0 || !nr) {
		free(tps);
		return ret;
	}
	tfs = xpe_ctx_tracefs(ctx);
	put(&b, magic, sizeof(magic));
	put(&b, "0.6", 4);
	c = __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__;
	put(&b, &c, 1);
	c = sizeof(long);
	put(&b, &c, 1);
	put(&b, &page, 4);

	put(&b, "header_page", 12);
	snprintf(path, sizeof(path), "%s/events/header_page", tfs);
	ret = put_file(&b, path, 8, false, err);
	if (ret == 0) {
		put(&b, "header_event", 13);
		snprintf(path, sizeof(path), "%s/events/header_event", tfs);
		ret = put_file(&b, path, 8, false, err);
	}
	/* No ftrace-internal events are recorded. */
	put(&b, &none, 4);
	if (ret == 0)
		ret = put_systems(&b, tfs, tps, nr, err);
	/* kallsyms: perf 6.1 skips it and resolves kernel symbols itself. */
	put(&b, &none, 4);
	if (ret == 0) {
		snprintf(path, sizeof(path), "%s/printk_formats", tfs);
		ret = put_file(&b, path, 4, true, err);
	}
	if (ret == 0) {
		snprintf(path, sizeof(path), "%s/saved_cmdlines", tfs);
		ret = put_file(&b, path, 8, true, err);
	}
	free(tps);
	if (ret == 0 && b.failed)
		ret = xb_error_set(err, -ENOMEM, "out of memory");
	if (ret < 0) {
		free(b.p);
		return ret;
	}
	*out = b.p;
	*size = b.len;
	return 0;
}
