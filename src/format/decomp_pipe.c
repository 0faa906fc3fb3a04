/* Decompression on a second thread: the reader parses one buffer while the next is filled. */
#include <byteswap.h>
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include "format/decomp_pipe.h"
#include "format/xpf_abi.h"

/*
 * perf writes the whole data section as one zstd stream (flushed, never ended), so it cannot
 * be split between threads; what can overlap is decompressing and parsing. The thread walks
 * the file's records as the reader will, decompresses every COMPRESSED payload in order into
 * a ring of chunks and marks in each chunk which bytes came from which compressed record. The
 * reader parses records in place; a record cut by the end of a chunk is copied into the room
 * in front of the next chunk, so it is whole again. The reader still feeds each compressed
 * record when it meets it and gets exactly the records, offsets and errors of decompress.c.
 */
enum {
	NR_CHUNKS = 6,
	ROOM = 65536,   /* in front of each chunk: the unfinished record carried from the last */
	MAX_SEGS = 256,
	DEFAULT_CHUNK = 512 << 10,
};

enum { SEG_OK, SEG_ZSTD, SEG_STUCK };

/* The output of one compressed record within one chunk. */
struct seg {
	size_t end;      /* chunk data [end of the previous seg, end) */
	uint64_t off;    /* file offset of the compressed record */
	bool done;       /* the record's output ends here, else it goes on in the next chunk */
	uint8_t err;     /* SEG_ZSTD, SEG_STUCK: decompression failed after this output */
	size_t zerr;
};

struct chunk {
	uint8_t *mem;    /* ROOM bytes, then the data */
	struct seg segs[MAX_SEGS];
	uint32_t nseg;
	bool ready;      /* filled: the reader's until it hands it back */
	bool last;       /* the thread stopped after this chunk */
};

struct xpf_pipe {
	pthread_t thread;
	pthread_mutex_t lock;
	pthread_cond_t cond;     /* a chunk became ready or free, or quit was set */
	bool quit;
	struct chunk chunks[NR_CHUNKS];
	size_t chunk;

	/* the thread's */
	ZSTD_DStream *zd;
	const uint8_t *map;
	uint64_t pos, end;
	bool swap;

	/* the reader's */
	struct chunk *cur;       /* NULL before the first chunk */
	struct chunk *prev;      /* the chunk before cur, still held: see next_chunk() */
	uint32_t ci, si;         /* cur's index; its segment whose output ends at lim */
	uint32_t oseg;           /* the segment holding head, for origin() */
	const uint8_t *head, *lim;
	uint64_t carry_off;      /* origin of the bytes in front of cur's data */
	bool fed;                /* a compressed record was fed and its output not reached */
	uint64_t fed_off;
	xpf_reuse_fn reuse;      /* told before a chunk goes back to the thread */
	void *reuse_ctx;
};

static uint8_t *data_of(const struct chunk *c)
{
	return c->mem + ROOM;
}

/* ---- the thread ------------------------------------------------------------------------ */

/* Chunk idx once the reader has handed it back; NULL when asked to quit. */
static struct chunk *take_free(struct xpf_pipe *p, uint32_t idx, ZSTD_outBuffer *out)
{
	struct chunk *c = &p->chunks[idx];

	pthread_mutex_lock(&p->lock);
	while (c->ready && !p->quit)
		pthread_cond_wait(&p->cond, &p->lock);
	pthread_mutex_unlock(&p->lock);
	if (p->quit)
		return NULL;
	c->nseg = 0;
	c->last = false;
	*out = (ZSTD_outBuffer){ data_of(c), p->chunk, 0 };
	return c;
}

static void publish(struct xpf_pipe *p, struct chunk *c)
{
	pthread_mutex_lock(&p->lock);
	c->ready = true;
	pthread_cond_broadcast(&p->cond);
	pthread_mutex_unlock(&p->lock);
}

/*
 * The next COMPRESSED record, walking as reader_records.c walks (same bounds): 1 with its
 * payload, 0 at the end or where the reader will stop with an error or a warning.
 */
static int walk_next(struct xpf_pipe *p, const uint8_t **data, size_t *len, uint64_t *off)
{
	while (p->pos < p->end) {
		const uint8_t *r = p->map + p->pos;
		uint64_t left = p->end - p->pos, extra = 0, at = p->pos;
		uint32_t type;
		uint16_t size;

		if (left < 8)
			return 0;
		memcpy(&type, r, 4);
		memcpy(&size, r + 6, 2);
		if (p->swap) {
			type = bswap_32(type);
			size = bswap_16(size);
		}
		if (size < 8 || size > left)
			return 0;
		if (type == XPF_RECORD_HEADER_TRACING_DATA && size >= 12) {
			uint32_t sz;

			memcpy(&sz, r + 8, 4);
			extra = ((uint64_t)(p->swap ? bswap_32(sz) : sz) + 7) & ~7ULL;
		} else if (type == XPF_RECORD_AUXTRACE && size >= 16) {
			memcpy(&extra, r + 8, 8);
			if (p->swap)
				extra = bswap_64(extra);
		}
		if (extra > left - size)
			return 0;
		p->pos += size + extra;
		if (type == XPF_RECORD_COMPRESSED) {
			*data = r + 8;
			*len = size - 8u;
			*off = at;
			return 1;
		}
		if (type == XPF_RECORD_COMPRESSED2) {
			uint64_t l;

			if (size < 16)
				return 0;
			memcpy(&l, r + 8, 8);
			if (p->swap)
				l = bswap_64(l);
			if (l > size - 16u)
				return 0;
			*data = r + 16;
			*len = (size_t)l;
			*off = at;
			return 1;
		}
	}
	return 0;
}

/* Decompress one record's payload; false when the thread must stop (error or quit). */
static bool unpack(struct xpf_pipe *p, struct chunk **cp, uint32_t *ci, ZSTD_outBuffer *out,
		   const uint8_t *data, size_t len, uint64_t off)
{
	ZSTD_inBuffer in = { data, len, 0 };
	struct chunk *c = *cp;
	struct seg *s;

	if (c->nseg == MAX_SEGS) {
		publish(p, c);
		*ci = (*ci + 1) % NR_CHUNKS;
		c = *cp = take_free(p, *ci, out);
		if (!c)
			return false;
	}
	s = &c->segs[c->nseg++];
	*s = (struct seg){ .end = out->pos, .off = off };
	for (;;) {
		size_t before_out = out->pos, before_in = in.pos;
		size_t ret = ZSTD_decompressStream(p->zd, out, &in);

		if (ZSTD_isError(ret)) {
			s->done = true;
			s->err = SEG_ZSTD;
			s->zerr = ret;
			return false; /* the output of the failed call is dropped, as decompress.c does */
		}
		s->end = out->pos;
		if (out->pos == out->size) {
			/* full: zstd may hold more of this record */
			publish(p, c);
			*ci = (*ci + 1) % NR_CHUNKS;
			c = *cp = take_free(p, *ci, out);
			if (!c)
				return false;
			s = &c->segs[c->nseg++];
			*s = (struct seg){ .end = 0, .off = off };
			continue;
		}
		if (in.pos == in.size) {
			s->done = true;
			return true;
		}
		if (out->pos == before_out && in.pos == before_in) {
			s->done = true;
			s->err = SEG_STUCK;
			return false;
		}
	}
}

static void *run(void *arg)
{
	struct xpf_pipe *p = arg;
	ZSTD_outBuffer out;
	uint32_t ci = 0;
	struct chunk *c = take_free(p, ci, &out);
	const uint8_t *data;
	uint64_t off;
	size_t len;

	if (!c)
		return NULL;
	while (walk_next(p, &data, &len, &off))
		if (!unpack(p, &c, &ci, &out, data, len, off))
			break;
	if (c) {
		c->last = true;
		publish(p, c);
	}
	return NULL;
}

/* ---- the reader ------------------------------------------------------------------------ */

static struct chunk *wait_ready(struct xpf_pipe *p, uint32_t idx)
{
	struct chunk *c = &p->chunks[idx];

	pthread_mutex_lock(&p->lock);
	while (!c->ready)
		pthread_cond_wait(&p->cond, &p->lock);
	pthread_mutex_unlock(&p->lock);
	return c;
}

/* Offset of the compressed record that held the byte at pos (pos < lim). */
static uint64_t origin(struct xpf_pipe *p, const uint8_t *pos)
{
	const uint8_t *data = data_of(p->cur);

	if (pos < data)
		return p->carry_off;
	while (p->oseg < p->si && data + p->cur->segs[p->oseg].end <= pos)
		p->oseg++;
	return p->cur->segs[p->oseg].off;
}

/* Hand chunk c back to the thread, after telling the reuse hook. */
static void give_back(struct xpf_pipe *p, struct chunk *c)
{
	if (p->reuse)
		p->reuse(p->reuse_ctx, c->mem, data_of(c) + p->chunk);
	pthread_mutex_lock(&p->lock);
	c->ready = false;
	pthread_cond_broadcast(&p->cond);
	pthread_mutex_unlock(&p->lock);
}

/*
 * On to the next chunk, carrying the unfinished record in front of its data. The chunk
 * left stays held until the one after it is left too: records an ordering queue keeps in
 * place (a round or two, less than a chunk) are then rarely copied out of it.
 */
static struct chunk *next_chunk(struct xpf_pipe *p)
{
	size_t tail = (size_t)(p->lim - p->head);
	uint32_t ni = (p->ci + 1) % NR_CHUNKS;
	uint64_t toff = tail ? origin(p, p->head) : 0;
	struct chunk *n;

	if (p->cur && p->cur->last)
		return NULL;
	n = wait_ready(p, ni);
	if (tail)
		memcpy(data_of(n) - tail, p->head, tail); /* tail < 64 KiB: less than one record */
	if (p->prev)
		give_back(p, p->prev);
	p->prev = p->cur;
	p->cur = n;
	p->ci = ni;
	p->si = 0;
	p->oseg = 0;
	p->head = data_of(n) - tail;
	p->lim = data_of(n);
	p->carry_off = toff;
	return n->nseg ? n : NULL;
}

static int out_of_step(struct xpf_pipe *p, uint64_t off, const char *name, struct xb_error *err)
{
	p->fed = false;
	return xb_error_set(err, -EIO,
			     "%s: compressed record at offset 0x%llx: decompression thread out of step",
			     name, (unsigned long long)off);
}

int xpf_pipe_next(struct xpf_pipe *p, bool swap, struct perf_event_header **hdr, uint64_t *off,
		  const char *name, struct xb_error *err)
{
	for (;;) {
		size_t avail = (size_t)(p->lim - p->head);

		if (avail >= sizeof(struct perf_event_header)) {
			uint16_t size;

			memcpy(&size, p->head + 6, 2);
			if (swap)
				size = bswap_16(size);
			if (size < sizeof(struct perf_event_header))
				return xb_error_set(err, -EINVAL,
						     "%s: compressed record at offset 0x%llx: decompressed record has size %u",
						     name, (unsigned long long)origin(p, p->head), size);
			if (size <= avail) {
				*hdr = (struct perf_event_header *)(uintptr_t)p->head;
				*off = origin(p, p->head);
				p->head += size;
				return 1;
			}
		}
		if (p->cur) {
			const struct seg *s = &p->cur->segs[p->si];
			uint64_t soff = s->off;

			if (s->err == SEG_ZSTD)
				return xb_error_set(err, -EINVAL,
						     "%s: compressed record at offset 0x%llx: zstd: %s",
						     name, (unsigned long long)soff,
						     ZSTD_getErrorName(s->zerr));
			if (s->err)
				return xb_error_set(err, -EINVAL,
						     "%s: compressed record at offset 0x%llx: decompression made no progress",
						     name, (unsigned long long)soff);
			if (!s->done) {
				/* the same compressed record goes on in the next chunk */
				if (!next_chunk(p) || p->cur->segs[0].off != soff)
					return out_of_step(p, soff, name, err);
				p->lim = data_of(p->cur) + p->cur->segs[0].end;
				continue;
			}
		}
		if (!p->fed)
			return 0; /* the rest of this record is in the next compressed record */
		if (p->cur && p->si + 1 < p->cur->nseg)
			p->si++;
		else if (!next_chunk(p))
			return out_of_step(p, p->fed_off, name, err);
		if (p->cur->segs[p->si].off != p->fed_off)
			return out_of_step(p, p->fed_off, name, err);
		p->fed = false;
		p->lim = data_of(p->cur) + p->cur->segs[p->si].end;
	}
}

void xpf_pipe_feed(struct xpf_pipe *p, uint64_t off)
{
	p->fed = true;
	p->fed_off = off;
}

void xpf_pipe_set_reuse_hook(struct xpf_pipe *p, xpf_reuse_fn fn, void *ctx)
{
	p->reuse = fn;
	p->reuse_ctx = ctx;
}

size_t xpf_pipe_pending(const struct xpf_pipe *p)
{
	return (size_t)(p->lim - p->head);
}

/* ---- life ------------------------------------------------------------------------------ */

static void free_chunks(struct xpf_pipe *p)
{
	for (int i = 0; i < NR_CHUNKS; i++)
		free(p->chunks[i].mem);
	pthread_cond_destroy(&p->cond);
	pthread_mutex_destroy(&p->lock);
	free(p);
}

int xpf_pipe_start(struct xpf_pipe **out, ZSTD_DStream *zd, const uint8_t *map, uint64_t pos,
		   uint64_t end, bool swap, size_t chunk)
{
	struct xpf_pipe *p = calloc(1, sizeof(*p));
	sigset_t all, old;
	int ret;

	if (!p)
		return -ENOMEM;
	pthread_mutex_init(&p->lock, NULL);
	pthread_cond_init(&p->cond, NULL);
	p->chunk = chunk ? chunk : DEFAULT_CHUNK;
	for (int i = 0; i < NR_CHUNKS; i++) {
		p->chunks[i].mem = malloc(ROOM + p->chunk);
		if (!p->chunks[i].mem) {
			free_chunks(p);
			return -ENOMEM;
		}
	}
	p->zd = zd;
	p->map = map;
	p->pos = pos;
	p->end = end;
	p->swap = swap;
	p->ci = NR_CHUNKS - 1; /* so that the first chunk is 0 */
	p->head = p->lim = data_of(&p->chunks[0]);
	/* signals are the caller's business: the thread takes none */
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	ret = pthread_create(&p->thread, NULL, run, p);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (ret) {
		free_chunks(p);
		return -ret;
	}
	*out = p;
	return 0;
}

void xpf_pipe_free(struct xpf_pipe *p)
{
	if (!p)
		return;
	pthread_mutex_lock(&p->lock);
	p->quit = true;
	pthread_cond_broadcast(&p->cond);
	pthread_mutex_unlock(&p->lock);
	pthread_join(p->thread, NULL);
	free_chunks(p);
}
