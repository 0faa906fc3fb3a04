/* Opening perf.data input: file, fd, memory or pipe stream; header, attrs and feature sections. */
#include <byteswap.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "format/reader_int.h"

/* An attr entry larger than this is not a perf_event_attr we could ever read. */
#define ATTR_SIZE_SANE 4096
/* Each of the two decompression buffers: perf's largest usual mmap_len (-m 1024 pages). */
#define DECOMP_BUF_MAX (4u << 20)

void xpf_reader_warn(struct xpf_reader *r, const char *fmt, ...)
{
	va_list ap;

	if (r->warning[0])
		return;
	va_start(ap, fmt);
	vsnprintf(r->warning, sizeof(r->warning), fmt, ap);
	va_end(ap);
}

void xpf_reader_warn_cut(struct xpf_reader *r, uint64_t off, const char *what)
{
	if (!r->soft_why[0]) {
		xpf_reader_warn(r, "%s: input ends at offset 0x%llx, where %s; read up to the last "
			       "complete record", r->name, (unsigned long long)off, what);
		return;
	}
	snprintf(r->warning, sizeof(r->warning), "%s: %s: read up to offset 0x%llx, where %s",
		 r->name, r->soft_why, (unsigned long long)off, what);
	r->soft_why[0] = '\0'; /* said: a later cut (there is none) would not be */
}

const char *xpf_reader_warning(const xpf_reader *r)
{
	return r->warning[0] ? r->warning : NULL;
}

const struct xpf_header_info *xpf_reader_header(const xpf_reader *r)
{
	return &r->hi;
}

const struct xpf_features *xpf_reader_features(const xpf_reader *r)
{
	return &r->feat;
}

static struct xpf_reader *reader_new(const char *name)
{
	struct xpf_reader *r = calloc(1, sizeof(*r));

	if (!r)
		return NULL;
	r->fd = -1;
	r->name = strdup(name ? name : "perf.data");
	/* one record (at most 64 KiB), 8-byte aligned, for swapped or misaligned records */
	r->scratch = malloc(XPF_RECORD_SIZE_MAX + 1);
	if (!r->name || !r->scratch) {
		free(r->name);
		free(r->scratch);
		free(r);
		return NULL;
	}
	return r;
}

void xpf_reader_close(xpf_reader *r)
{
	if (!r)
		return;
	xpf_reader_free_attrs(r);
	for (uint32_t i = 0; i < r->nr_own_names; i++)
		free(r->own_names[i]);
	free(r->own_names);
	xpf_features_free(&r->feat);
	xpf_decomp_free(r->dc);
	if (r->mapped)
		munmap((void *)r->map, r->map_size);
	free(r->owned);
	free(r->pbuf);
	if (r->fd >= 0)
		close(r->fd);
	free(r->scratch);
	free(r->name);
	free(r);
}

/* Is [off, off + size) inside the image and clear of the file header? */
static bool section_ok(const struct xpf_reader *r, uint64_t off, uint64_t size)
{
	/* an empty section still must not point past the file: callers form map + off */
	if (!size)
		return off <= r->map_size;
	return off >= XPF_HEADER_SIZE && off <= r->map_size && size <= r->map_size - off;
}

static int read_attrs(struct xpf_reader *r, struct xb_error *err)
{
	const struct xpf_header_info *hi = &r->hi;
	uint64_t nr = hi->attrs.size / hi->attr_size, total_ids = 0;
	uint8_t abuf[ATTR_SIZE_SANE];

	for (uint64_t i = 0; i < nr; i++) {
		uint64_t off = hi->attrs.offset + i * hi->attr_size;
		const uint8_t *p = r->map + off;
		uint32_t asz;
		struct xpf_file_section ids;
		int ret;

		memcpy(&asz, p + 4, 4);
		if (r->swap)
			asz = bswap_32(asz);
		if (!asz)
			asz = PERF_ATTR_SIZE_VER0; /* ABI0 writers left it 0 */
		if (asz < PERF_ATTR_SIZE_VER0 || asz > hi->attr_size - sizeof(ids))
			return xb_error_set(err, -EINVAL,
					     "%s: attr at offset 0x%llx has size %u, attr_size is %llu",
					     r->name, (unsigned long long)off, asz,
					     (unsigned long long)hi->attr_size);
		memcpy(abuf, p, asz);
		/* the ids section follows the attr's own size, as perf reads it */
		memcpy(&ids, p + asz, sizeof(ids));
		if (r->swap) {
			xpf_swap_attr(abuf, asz);
			xpf_swap_u64s(&ids, 2);
		}
		if (!section_ok(r, ids.offset, ids.size))
			return xb_error_set(err, -EINVAL,
					     "%s: ids of attr at offset 0x%llx: section 0x%llx+0x%llx is outside the file",
					     r->name, (unsigned long long)off,
					     (unsigned long long)ids.offset, (unsigned long long)ids.size);
		/* several attrs may point at the same bytes: bound the total, not each */
		total_ids += ids.size / 8;
		if (total_ids > r->map_size / 8)
			return xb_error_set(err, -EINVAL,
					     "%s: attr at offset 0x%llx: %llu ids in all, more than the file holds",
					     r->name, (unsigned long long)off, (unsigned long long)total_ids);
		ret = xpf_reader_add_attr(r, abuf, asz, r->map + ids.offset,
					  ids.size / 8, r->swap, err);
		if (ret)
			return ret;
	}
	return 0;
}

/*
 * A file cut inside its feature section (an interrupted copy, a recorder killed while it
 * wrote them) keeps its data: it is read with one warning, without the features from the
 * cut on. Writers (perf's header.c, ours) put the table right after the data and each
 * payload where the one before it ends, after the table; that is how a cut is told from
 * damage. Cut: the first payload that does not fit starts after the table and no later
 * than the end of the file, and the next entry, if any, starts where it ends.
 */
static bool payload_cut(const struct xpf_reader *r, const struct xpf_file_section *sec,
			uint64_t payloads, const uint8_t *next)
{
	struct xpf_file_section n;

	if (sec->offset < payloads || sec->offset > r->map_size)
		return false;
	if (!next)
		return true;
	memcpy(&n, next, sizeof(n));
	if (r->swap)
		xpf_swap_u64s(&n, 2);
	return sec->size <= UINT64_MAX - sec->offset && n.offset == sec->offset + sec->size;
}

/* "feature BUILD_ID", or "feature 42 (unknown)" for a bit newer than this reader */
static const char *feat_label(unsigned int bit, char *buf, size_t size)
{
	if (xpf_feature_name(bit))
		snprintf(buf, size, "feature %s", xpf_feature_name(bit));
	else
		snprintf(buf, size, "feature %u (unknown)", bit);
	return buf;
}

static int read_features(struct xpf_reader *r, struct xb_error *err)
{
	const struct xpf_header_info *hi = &r->hi;
	const uint64_t ent = sizeof(struct xpf_file_section);
	uint64_t table = hi->data.offset + hi->data.size, nr = 0, whole, payloads, i = 0;
	const uint8_t *p;

	for (unsigned int b = 0; b < XPF_FEAT_BITS / 64; b++)
		nr += (uint64_t)__builtin_popcountll(hi->adds_features[b]);
	if (!nr)
		return 0;
	/* the data section is whole (parse_image checked that), so the table starts inside */
	whole = (r->map_size - table) / ent;
	payloads = table + nr * ent;
	if (whole < nr) {
		struct xpf_file_section first;

		/* a cut table: its payloads start after it (perf leaves room for features it
		 * failed to write), past the end; one inside it means the bits are wrong */
		if (whole) {
			memcpy(&first, r->map + table, sizeof(first));
			if (r->swap)
				xpf_swap_u64s(&first, 2);
		}
		if (whole && first.offset < payloads)
			return xb_error_set(err, -EINVAL,
					     "%s: feature table at offset 0x%llx (%llu entries) is outside the file",
					     r->name, (unsigned long long)table, (unsigned long long)nr);
		xpf_reader_warn(r, "%s: file is truncated inside its feature table at offset 0x%llx "
				"(%llu of %llu entries, file size 0x%llx); its features are left out",
				r->name, (unsigned long long)table, (unsigned long long)whole,
				(unsigned long long)nr, (unsigned long long)r->map_size);
		xpf_reader_name_attrs(r);
		return 0;
	}
	p = r->map + table;
	for (unsigned int bit = 0; bit < XPF_FEAT_BITS; bit++) {
		struct xpf_file_section sec;
		char label[48];
		uint64_t entry = table + i * ent;
		int ret;

		if (!((hi->adds_features[bit / 64] >> (bit % 64)) & 1))
			continue;
		memcpy(&sec, p, sizeof(sec));
		p += sizeof(sec);
		i++;
		if (r->swap)
			xpf_swap_u64s(&sec, 2);
		if (!section_ok(r, sec.offset, sec.size)) {
			if (!payload_cut(r, &sec, payloads, i < nr ? p : NULL))
				return xb_error_set(err, -EINVAL,
						     "%s: %s, entry at offset 0x%llx: section 0x%llx+0x%llx is outside the file (size 0x%llx)",
						     r->name, feat_label(bit, label, sizeof(label)), (unsigned long long)entry,
						     (unsigned long long)sec.offset,
						     (unsigned long long)sec.size,
						     (unsigned long long)r->map_size);
			xpf_reader_warn(r, "%s: file is truncated inside its feature section: %s at "
					"offset 0x%llx+0x%llx ends past the file size 0x%llx; the "
					"features from there on are left out", r->name,
					feat_label(bit, label, sizeof(label)),
					(unsigned long long)sec.offset, (unsigned long long)sec.size,
					(unsigned long long)r->map_size);
			break;
		}
		/* bit 0 is reserved and later bits are unknown to us: skipped, as perf does */
		if (bit == XPF_FEAT_RESERVED || bit >= XPF_FEAT_LAST_KNOWN)
			continue;
		ret = xpf_feature_decode(&r->feat, bit, r->map + sec.offset, sec.size, r->swap,
					 sec.offset, err);
		if (ret) {
			/* the feature decoder knows offsets, not which file they are in */
			if (err) {
				char msg[sizeof(err->msg)];
				memcpy(msg, err->msg, sizeof(msg));
				xb_error_set(err, ret, "%s: %.400s", r->name, msg);
			}
			return ret;
		}
	}
	xpf_reader_name_attrs(r);
	return 0;
}

/* Magic and size: the first 16 bytes tell the byte order and pipe or file. */
static int check_magic(struct xpf_reader *r, const uint8_t *p, uint64_t have, struct xb_error *err)
{
	uint64_t magic, size;

	if (have < XPF_PIPE_HEADER_SIZE)
		return xb_error_set(err, -EINVAL, "%s: file too short for a header (%llu bytes)",
				     r->name, (unsigned long long)have);
	memcpy(&magic, p, 8);
	memcpy(&size, p + 8, 8);
	if (magic == XPF_MAGIC_SWAPPED) {
		r->swap = true;
		size = bswap_64(size);
	} else if (magic != XPF_MAGIC) {
		if (!memcmp(p, "PERFFILE", 8))
			return xb_error_set(err, -EOPNOTSUPP,
					     "%s: version 1 perf.data files (magic PERFFILE) are not supported",
					     r->name);
		return xb_error_set(err, -EINVAL, "%s: not a perf.data file (bad magic 0x%016llx at offset 0x0)",
				     r->name,
				     (unsigned long long)magic);
	}
	r->hi.swapped = r->swap;
	r->hi.header_size = size;
	if (size == XPF_PIPE_HEADER_SIZE) {
		r->hi.pipe = true;
		return 0;
	}
	if (size != XPF_HEADER_SIZE)
		return xb_error_set(err, -EINVAL,
				     "%s: header at offset 0x0 has size %llu, expected %d (or %d for a pipe)",
				     r->name, (unsigned long long)size, XPF_HEADER_SIZE,
				     XPF_PIPE_HEADER_SIZE);
	return 0;
}

/* Header, attrs and features of a file image in r->map. Shared by every way of opening. */
static int parse_image(struct xpf_reader *r, struct xb_error *err)
{
	struct xpf_header_info *hi = &r->hi;
	struct xpf_file_header h;
	bool features = true;
	int ret;

	hi->file_size = r->map_size;
	if ((ret = check_magic(r, r->map, r->map_size, err)))
		return ret;
	if (hi->pipe) {
		/* a pipe stream saved in a file: records start right after the 16 bytes */
		hi->file_size = 0;
		r->pos = XPF_PIPE_HEADER_SIZE;
		r->end = r->map_size;
		r->end_soft = true;
		return 0;
	}
	if (r->map_size < XPF_HEADER_SIZE)
		return xb_error_set(err, -EINVAL, "%s: file too short for a header (%llu bytes)",
				     r->name, (unsigned long long)r->map_size);
	memcpy(&h, r->map, sizeof(h));
	if (r->swap)
		xpf_swap_header(&h);
	hi->attr_size = h.attr_size;
	hi->attrs = h.attrs;
	hi->data = h.data;
	memcpy(hi->adds_features, h.adds_features, sizeof(hi->adds_features));

	if (h.attr_size < PERF_ATTR_SIZE_VER0 + sizeof(struct xpf_file_section) ||
	    h.attr_size > ATTR_SIZE_SANE)
		return xb_error_set(err, -EINVAL, "%s: header at offset 0x0: bad attr_size %llu",
				     r->name, (unsigned long long)h.attr_size);
	if (!section_ok(r, h.attrs.offset, h.attrs.size))
		return xb_error_set(err, -EINVAL,
				     "%s: header at offset 0x0: attr section 0x%llx+0x%llx is outside the file",
				     r->name, (unsigned long long)h.attrs.offset,
				     (unsigned long long)h.attrs.size);
	if (h.data.offset < XPF_HEADER_SIZE || h.data.offset > r->map_size)
		return xb_error_set(err, -EINVAL,
				     "%s: header at offset 0x0: data section offset 0x%llx is outside the file",
				     r->name, (unsigned long long)h.data.offset);
	r->pos = h.data.offset;
	/* a size no file can have is corruption, not a recorder that stopped early */
	if (h.data.size > UINT64_MAX - h.data.offset)
		return xb_error_set(err, -EINVAL,
				     "%s: header at offset 0x0: data section 0x%llx+0x%llx wraps around",
				     r->name, (unsigned long long)h.data.offset,
				     (unsigned long long)h.data.size);
	if (!h.data.size) {
		/* the recorder never came back to fill the header in */
		r->end = r->map_size;
		r->end_soft = true;
		features = false;
		snprintf(r->soft_why, sizeof(r->soft_why),
			 "data size in the header is 0 (the recorder did not finish, no feature section)");
	} else if (h.data.size > r->map_size - h.data.offset) {
		r->end = r->map_size;
		r->end_soft = true;
		features = false;
		snprintf(r->soft_why, sizeof(r->soft_why),
			 "file is truncated: data section 0x%llx+0x%llx ends past the file size 0x%llx "
			 "(no feature section)", (unsigned long long)h.data.offset,
			 (unsigned long long)h.data.size, (unsigned long long)r->map_size);
	} else {
		r->end = h.data.offset + h.data.size;
	}
	/* what open knows; reading finds where the cut is (xpf_reader_warn_cut) */
	if (r->soft_why[0])
		xpf_reader_warn(r, "%s: %s; reading records up to the last complete one", r->name,
				r->soft_why);
	if ((ret = read_attrs(r, err)))
		return ret;
	if (features && (ret = read_features(r, err)))
		return ret;
	return 0;
}

static int finish_open(struct xpf_reader *r, xpf_reader **out, struct xb_error *err)
{
	int ret = r->stream ? 0 : parse_image(r, err);

	if (!ret) {
		size_t dsize = 512u << 10;

		/* perf sizes its buffer from mmap_len; records may be larger than that, never
		 * than 64 KiB. Records stay in place for a whole buffer after their own
		 * (decompress.c keeps two): two of 512 KiB outlast the rounds an ordering queue
		 * holds, and larger ones cost more in first-touch page faults than they save in
		 * zstd calls */
		if (r->feat.compressed.mmap_len > dsize)
			dsize = r->feat.compressed.mmap_len;
		/* mmap_len is the file's word: the buffers' size must not follow it far */
		if (dsize > DECOMP_BUF_MAX)
			dsize = DECOMP_BUF_MAX;
		r->dc = xpf_decomp_new(dsize);
		if (!r->dc)
			ret = xb_error_set(err, -ENOMEM, "%s: out of memory", r->name);
	}
	if (ret) {
		xpf_reader_close(r);
		return ret;
	}
	*out = r;
	return 0;
}

int xpf_reader_open_mem(xpf_reader **out, const void *buf, size_t size, const char *name,
			struct xb_error *err)
{
	struct xpf_reader *r = reader_new(name);

	*out = NULL;
	if (!r)
		return xb_error_set(err, -ENOMEM, "out of memory");
	r->map = buf;
	r->map_size = size;
	return finish_open(r, out, err);
}

static int open_stream(struct xpf_reader *r, struct xb_error *err)
{
	uint8_t head[XPF_PIPE_HEADER_SIZE];
	const uint8_t *p;
	int ret;

	r->stream = true;
	ret = xpf_src_get(r, 0, XPF_PIPE_HEADER_SIZE, &p, err);
	if (ret < 0)
		return ret;
	if (ret == 0)
		return xb_error_set(err, -EINVAL, "%s: input too short for a header (%zu bytes)",
				     r->name, r->plen);
	memcpy(head, p, sizeof(head));
	if ((ret = check_magic(r, head, sizeof(head), err)))
		return ret;
	if (r->hi.pipe) {
		r->pos = XPF_PIPE_HEADER_SIZE;
		r->end = UINT64_MAX;
		r->end_soft = true; /* a stream cut short (killed recorder) is read up to the cut */
		return 0;
	}
	/* a full perf.data on a pipe: its features are at the end, so read it all first */
	uint8_t *all;
	size_t size;

	r->stream = false;
	ret = xpf_stream_slurp(r->fd, r->name, &all, &size, r->pbuf, r->plen, err);
	if (ret)
		return ret;
	free(r->pbuf);
	r->pbuf = NULL;
	r->plen = r->pcap = 0;
	r->owned = all;
	r->map = all;
	r->map_size = size;
	return 0;
}

int xpf_reader_open_fd(xpf_reader **out, int fd, const char *name, struct xb_error *err)
{
	struct xpf_reader *r = reader_new(name);
	struct stat st;
	int ret;

	*out = NULL;
	if (!r) {
		close(fd);
		return xb_error_set(err, -ENOMEM, "out of memory");
	}
	r->fd = fd;
	if (fstat(fd, &st) < 0) {
		ret = xb_error_set(err, -errno, "%s: %s", r->name, strerror(errno));
		xpf_reader_close(r);
		return ret;
	}
	if (S_ISREG(st.st_mode)) {
		if (st.st_size == 0) {
			ret = xb_error_set(err, -EINVAL, "%s: file is empty", r->name);
			xpf_reader_close(r);
			return ret;
		}
		void *m = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);

		if (m == MAP_FAILED) {
			ret = xb_error_set(err, -errno, "%s: mmap: %s", r->name, strerror(errno));
			xpf_reader_close(r);
			return ret;
		}
		madvise(m, (size_t)st.st_size, MADV_SEQUENTIAL);
		r->map = m;
		r->map_size = (uint64_t)st.st_size;
		r->mapped = true;
		return finish_open(r, out, err);
	}
	ret = open_stream(r, err);
	if (ret) {
		xpf_reader_close(r);
		return ret;
	}
	return finish_open(r, out, err);
}

int xpf_reader_open(xpf_reader **out, const char *path, struct xb_error *err)
{
	int fd;

	*out = NULL;
	if (!strcmp(path, "-")) {
		fd = dup(STDIN_FILENO);
		if (fd < 0)
			return xb_error_set(err, -errno, "standard input: %s", strerror(errno));
		return xpf_reader_open_fd(out, fd, "-", err);
	}
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return xb_error_set(err, -errno, "cannot open '%s': %s", path, strerror(errno));
	return xpf_reader_open_fd(out, fd, path, err);
}

int xpf_reader_open_live(xpf_reader **out, const char *name, struct xb_error *err)
{
	struct xpf_reader *r = reader_new(name);

	*out = NULL;
	if (!r)
		return xb_error_set(err, -ENOMEM, "out of memory");
	/* a stream: attrs may come after the start, and nothing is read */
	r->hi.pipe = true;
	r->done = true;
	*out = r;
	return 0;
}

int xpf_reader_live_add_attr(xpf_reader *r, const struct perf_event_attr *attr,
			     const uint64_t *ids, uint32_t nr_ids, const char *name,
			     struct xb_error *err)
{
	char **names, *copy = name ? strdup(name) : NULL;
	int ret;

	if (name && !copy)
		return xb_error_set(err, -ENOMEM, "out of memory");
	ret = xpf_reader_add_attr(r, attr, sizeof(*attr), ids, nr_ids, false, err);
	if (ret < 0 || !copy) {
		free(copy);
		return ret;
	}
	names = realloc(r->own_names, (r->nr_own_names + 1) * sizeof(*names));
	if (!names) {
		free(copy);
		return xb_error_set(err, -ENOMEM, "out of memory");
	}
	r->own_names = names;
	r->own_names[r->nr_own_names++] = copy;
	r->attrs[r->nr_attrs - 1]->name = copy;
	return 0;
}
