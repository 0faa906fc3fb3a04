/* libxperf-events: reading the mmap'ed ring buffer of a perf event fd, record by record. */
#ifndef XPE_RING_H
#define XPE_RING_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <linux/perf_event.h>

#include "base/error.h"

/*
 * One ring: the metadata page plus 2^n data pages of one event fd (other fds may be
 * redirected into it with xpe_ring_set_output()). Reading follows the kernel's protocol:
 * data_head is loaded with acquire semantics, records are consumed, then data_tail is
 * stored with release semantics so the kernel may reuse the space. A record that wraps
 * around the end of the buffer is copied into a scratch buffer owned by the ring.
 *
 *	xpe_ring_begin(r);
 *	while ((rec = xpe_ring_next(r)))
 *		use(rec);           // valid until the next xpe_ring_next/xpe_ring_end
 *	xpe_ring_end(r);
 */
typedef struct xpe_ring xpe_ring;

/*
 * mmap fd with data_pages pages of data (rounded up to a power of two, at least 1).
 * Returns 0 or the negative errno of mmap (EPERM/ENOMEM: the mlock limit, see
 * perf_event_mlock_kb) with err saying so.
 */
int xpe_ring_mmap(xpe_ring **out, int fd, size_t data_pages, struct xb_error *err);
/* Unmap and free; does not close the fd. Accepts NULL. */
void xpe_ring_unmap(xpe_ring *r);

/* Redirect the records of fd into r (PERF_EVENT_IOC_SET_OUTPUT). Returns 0 or -errno. */
int xpe_ring_set_output(xpe_ring *r, int fd);

int xpe_ring_fd(const xpe_ring *r);
/* Size of the data area in bytes. */
size_t xpe_ring_size(const xpe_ring *r);

/* Snapshot data_head (acquire). Returns the number of bytes ready to read. */
size_t xpe_ring_begin(xpe_ring *r);
/*
 * The next record of the snapshot, or NULL when it is consumed. A record whose size is
 * smaller than its header or larger than what is ready means the buffer is corrupt: the
 * rest of the snapshot is skipped and xpe_ring_corrupt() counts it.
 */
const struct perf_event_header *xpe_ring_next(xpe_ring *r);
/* Publish data_tail (release): the space read so far is given back to the kernel. */
void xpe_ring_end(xpe_ring *r);

/* Number of times a corrupt record was found. */
uint64_t xpe_ring_corrupt(const xpe_ring *r);

#endif
