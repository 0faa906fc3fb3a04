/* Decompression on a second thread: the reader parses one buffer while the next is filled. */
#include <byteswap.h>
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

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
 *
 * Whoever holds zlock fills the next chunk: mostly the thread, but a reader that finds its
 * next chunk empty and zlock free fills it itself rather than sleep. So the reader never
 * waits for a thread that is not running yet (the first chunk) or that a busy machine has
 * not scheduled: at worst the work is done as without the thread.
 */
enum {
	NR_CHUNKS = 6,
	ROOM = 65536,   /* in front of each chunk: the unfinished record carried from the last */
	MAX_SEGS = 256,
	DEFAULT_CHUNK = 512 << 10,
	FIRST_FILL = 32 << 10,         /* the first chunk's size, doubling: parsing starts at once */
	REFILL = NR_CHUNKS / 2,        /* a full ring waits for this many free chunks */
};
/* the thread's wait for a refill ends only if the reader can hand back that many */
_Static_assert(REFILL >= 1 && REFILL < NR_CHUNKS - 1, "REFILL out of the ring's reach");

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
	uint8_t *mem;    /* ROOM bytes, then the data (mem_len bytes mapped) */
	size_t populated; /* data bytes already backed by pages */
	struct seg segs[MAX_SEGS];
	uint32_t nseg;
	bool ready;      /* filled: the reader's until it hands it back */
	bool last;       /* filling stopped after this chunk */
};

struct xpf_pipe {
	pthread_t thread;
	pthread_mutex_t lock;
	pthread_cond_t cond;     /* a chunk became ready or free, or quit was set */
	bool quit;
	struct chunk chunks[NR_CHUNKS];
	size_t chunk;
	size_t mem_len;          /* each chunk's mapping: ROOM + chunk, whole pages */
	struct chunk *thread_waits_for; /* the thread sleeps until this chunk is handed back */
	bool reader_waits;              /* the reader sleeps until a chunk is ready */

	/* the filler's: whoever holds zlock */
	pthread_mutex_t zlock;
	ZSTD_DStream *zd;
	uint32_t fill_ci;        /* the chunk to fill next */
	size_t fill;             /* bytes the next chunk gets: doubles from FIRST_FILL to chunk */
	bool stopped;            /* the last chunk is filled */
	ZSTD_inBuffer in;        /* the payload being decompressed, when in_active */
	uint64_t in_off;
	bool in_active;
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

/* ---- filling: the thread, or the reader ------------------------------------------------ */

/*
 * Back the first `len` data bytes of c with pages in one call before zstd writes them: one
 * page fault per fresh page costs far more (a trap and, in a VM, an exit each). Failing
 * (an older kernel) only leaves the pages to fault in one by one.
 */
static void populate(struct xpf_pipe *p, struct chunk *c, size_t len)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE), to = (len + page - 1) & ~(page - 1);

	if (to > p->mem_len - ROOM)
		to = p->mem_len - ROOM;
	if (to <= c->populated)
		return;
#ifdef MADV_POPULATE_WRITE
	madvise(data_of(c) + c->populated, to - c->populated, MADV_POPULATE_WRITE);
#endif
	c->populated = to;
}

static void publish(struct xpf_pipe *p, struct chunk *c)
{
	pthread_mutex_lock(&p->lock);
	c->ready = true;
	if (p->reader_waits)
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

/*
 * Fill chunk c (free, the next one) with the output of the compressed records that follow,
 * each one's output a segment; a record whose output does not fit goes on in the next chunk.
 * Sets c->last where filling stops: the end, or an error that the reader will report.
 */
static void fill_chunk(struct xpf_pipe *p, struct chunk *c)
{
	ZSTD_outBuffer out = { data_of(c), p->fill, 0 };

	populate(p, c, p->fill);
	if (p->fill < p->chunk)
		p->fill = p->fill * 2 < p->chunk ? p->fill * 2 : p->chunk;
	c->nseg = 0;
	c->last = false;
	for (;;) {
		struct seg *s;

		if (!p->in_active) {
			const uint8_t *data;
			size_t len;

			if (!walk_next(p, &data, &len, &p->in_off)) {
				c->last = true;
				return;
			}
			p->in = (ZSTD_inBuffer){ data, len, 0 };
			p->in_active = true;
		}
		if (c->nseg == MAX_SEGS)
			return;
		s = &c->segs[c->nseg++];
		*s = (struct seg){ .end = out.pos, .off = p->in_off };
		for (;;) {
			size_t before_out = out.pos, before_in = p->in.pos;
			size_t ret = ZSTD_decompressStream(p->zd, &out, &p->in);

			if (ZSTD_isError(ret)) {
				/* the output of the failed call is dropped, as decompress.c does */
				s->done = true;
				s->err = SEG_ZSTD;
				s->zerr = ret;
				c->last = true;
				return;
			}
			s->end = out.pos;
			if (out.pos == out.size)
				return; /* full: zstd may hold more of this record */
			if (p->in.pos == p->in.size) {
				s->done = true;
				p->in_active = false;
				break;
			}
			if (out.pos == before_out && p->in.pos == before_in) {
				s->done = true;
				s->err = SEG_STUCK;
				c->last = true;
				return;
			}
		}
	}
}

/*
 * With zlock held: fill chunk idx when it is the next to fill and still free. False when
 * there is nothing to do (filling stopped, or the ring is full).
 */
static bool fill_next(struct xpf_pipe *p, uint32_t idx)
{
	struct chunk *c = &p->chunks[idx];

	bool busy;

	if (p->stopped || p->fill_ci != idx)
		return false;
	pthread_mutex_lock(&p->lock);
	busy = c->ready || p->quit;
	pthread_mutex_unlock(&p->lock);
	if (busy)
		return false;
	fill_chunk(p, c);
	p->fill_ci = (idx + 1) % NR_CHUNKS;
	p->stopped = c->last;
	publish(p, c);
	return true;
}

/*
 * The thread fills chunks while there are free ones. Decompressing is quicker than parsing,
 * so the ring is mostly full: rather than sleep and wake once per chunk (two context
 * switches each), it waits until REFILL chunks are free. Chunks come back in order, so
 * chunk idx + REFILL - 1 coming back means all of them did; the reader holds at most two
 * chunks and waits for the next, so it can always hand back that many.
 */
static void *run(void *arg)
{
	struct xpf_pipe *p = arg;

	for (;;) {
		uint32_t idx;
		bool filled, stopped;

		pthread_mutex_lock(&p->zlock);
		idx = p->fill_ci;
		filled = fill_next(p, idx);
		stopped = p->stopped;
		pthread_mutex_unlock(&p->zlock);
		if (stopped)
			return NULL;
		if (filled)
			continue;
		pthread_mutex_lock(&p->lock);
		p->thread_waits_for = &p->chunks[(idx + REFILL - 1) % NR_CHUNKS];
		while (p->thread_waits_for->ready && !p->quit)
			pthread_cond_wait(&p->cond, &p->lock);
		p->thread_waits_for = NULL;
		if (p->quit) {
			pthread_mutex_unlock(&p->lock);
			return NULL;
		}
		pthread_mutex_unlock(&p->lock);
	}
}

/* ---- the reader ------------------------------------------------------------------------ */

/*
 * Chunk idx once it is filled: filled here when zlock is free, else (the thread is filling
 * it) once the thread publishes it.
 */
static struct chunk *wait_ready(struct xpf_pipe *p, uint32_t idx)
{
	struct chunk *c = &p->chunks[idx];

	pthread_mutex_lock(&p->lock);
	while (!c->ready) {
		pthread_mutex_unlock(&p->lock);
		if (!pthread_mutex_trylock(&p->zlock)) {
			fill_next(p, idx);
			pthread_mutex_unlock(&p->zlock);
			pthread_mutex_lock(&p->lock);
			continue;
		}
		pthread_mutex_lock(&p->lock);
		p->reader_waits = true;
		if (!c->ready)
			pthread_cond_wait(&p->cond, &p->lock);
		p->reader_waits = false;
	}
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
	if (p->thread_waits_for == c)
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
		if (p->chunks[i].mem)
			munmap(p->chunks[i].mem, p->mem_len);
	pthread_cond_destroy(&p->cond);
	pthread_mutex_destroy(&p->lock);
	pthread_mutex_destroy(&p->zlock);
	free(p);
}

int xpf_pipe_start(struct xpf_pipe **out, ZSTD_DStream *zd, const uint8_t *map, uint64_t pos,
		   uint64_t end, bool swap, size_t chunk)
{
	struct xpf_pipe *p = calloc(1, sizeof(*p));
	sigset_t all, old;
	size_t page;
	int ret;

	if (!p)
		return -ENOMEM;
	pthread_mutex_init(&p->lock, NULL);
	pthread_mutex_init(&p->zlock, NULL);
	pthread_cond_init(&p->cond, NULL);
	p->chunk = chunk ? chunk : DEFAULT_CHUNK;
	p->fill = p->chunk < FIRST_FILL ? p->chunk : FIRST_FILL;
	page = (size_t)sysconf(_SC_PAGESIZE);
	p->mem_len = (ROOM + p->chunk + page - 1) & ~(page - 1);
	for (int i = 0; i < NR_CHUNKS; i++) {
		void *mem = mmap(NULL, p->mem_len, PROT_READ | PROT_WRITE,
				 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

		if (mem == MAP_FAILED) {
			free_chunks(p);
			return -ENOMEM;
		}
		p->chunks[i].mem = mem;
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
