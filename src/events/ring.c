/* libxperf-events: the perf mmap ring buffer reader (see ring.h for the protocol). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/mman.h>

#include "events/ring.h"

struct xpe_ring {
	int fd;
	void *base;            /* metadata page, then the data area */
	size_t map_len;
	unsigned char *data;
	size_t size;           /* data area, a power of two */
	uint64_t head, tail;   /* snapshot of data_head, our read position */
	uint64_t corrupt;
	unsigned char *scratch; /* for records that wrap; XPE_RING_SCRATCH bytes */
};

/* A record's size is a u16, so this always holds one. */
#define XPE_RING_SCRATCH 65536

static struct perf_event_mmap_page *meta(const xpe_ring *r)
{
	return r->base;
}

int xpe_ring_mmap(xpe_ring **out, int fd, size_t data_pages, struct xb_error *err)
{
	long page = sysconf(_SC_PAGESIZE);
	size_t pages = 1;
	xpe_ring *r;

	*out = NULL;
	if (data_pages > ((size_t)1 << 30) / (size_t)page)
		return xb_error_set(err, -EINVAL, "ring of %zu pages is too large", data_pages);
	while (pages < data_pages)
		pages <<= 1;
	r = calloc(1, sizeof(*r));
	if (!r)
		return xb_error_set(err, -ENOMEM, "out of memory");
	r->fd = fd;
	r->size = pages * (size_t)page;
	r->map_len = r->size + (size_t)page;
	r->base = mmap(NULL, r->map_len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (r->base == MAP_FAILED) {
		int e = errno;

		free(r);
		if (e == EPERM || e == ENOMEM)
			return xb_error_set(err, -e, "cannot mmap %zu KB ring buffer: %s (over the "
					     "locked-memory limit, see perf_event_mlock_kb)",
					     (pages * (size_t)page) / 1024, strerror(e));
		return xb_error_set(err, -e, "cannot mmap ring buffer: %s", strerror(e));
	}
	r->data = (unsigned char *)r->base + page;
	*out = r;
	return 0;
}

void xpe_ring_unmap(xpe_ring *r)
{
	if (!r)
		return;
	munmap(r->base, r->map_len);
	free(r->scratch);
	free(r);
}

int xpe_ring_set_output(xpe_ring *r, int fd)
{
	if (ioctl(fd, PERF_EVENT_IOC_SET_OUTPUT, r->fd) < 0)
		return -errno;
	return 0;
}

int xpe_ring_fd(const xpe_ring *r)
{
	return r->fd;
}

size_t xpe_ring_size(const xpe_ring *r)
{
	return r->size;
}

size_t xpe_ring_begin(xpe_ring *r)
{
	/* Pairs with the kernel's smp_wmb() before it publishes data_head. */
	r->head = __atomic_load_n(&meta(r)->data_head, __ATOMIC_ACQUIRE);
	r->tail = meta(r)->data_tail;
	return (size_t)(r->head - r->tail);
}

const struct perf_event_header *xpe_ring_next(xpe_ring *r)
{
	uint64_t avail = r->head - r->tail;
	size_t off = (size_t)(r->tail & (r->size - 1));
	const struct perf_event_header *h;
	size_t first;

	if (avail < sizeof(*h))
		return NULL;
	/* Records are 8-byte aligned and the area is a multiple of 8: headers never wrap. */
	h = (const struct perf_event_header *)(r->data + off);
	if (h->size < sizeof(*h) || h->size > avail) {
		r->corrupt++;
		r->tail = r->head;
		return NULL;
	}
	r->tail += h->size;
	first = r->size - off;
	if (h->size <= first)
		return h;
	if (!r->scratch) {
		r->scratch = malloc(XPE_RING_SCRATCH);
		if (!r->scratch) {
			r->corrupt++;
			r->tail = r->head;
			return NULL;
		}
	}
	memcpy(r->scratch, r->data + off, first);
	memcpy(r->scratch + first, r->data, h->size - first);
	return (const struct perf_event_header *)r->scratch;
}

void xpe_ring_end(xpe_ring *r)
{
	/* Our reads of the data must complete before the kernel sees the space as free. */
	__atomic_store_n(&meta(r)->data_tail, r->tail, __ATOMIC_RELEASE);
}

uint64_t xpe_ring_corrupt(const xpe_ring *r)
{
	return r->corrupt;
}
