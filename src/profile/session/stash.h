/* Records put aside in arrival order, to be handed on later in the same order. */
#ifndef XPERF_PROFILE_STASH_H
#define XPERF_PROFILE_STASH_H

#include <stddef.h>
#include <stdint.h>
#include <linux/perf_event.h>

/* Zero-initialised is empty. */
struct xpp_stash {
	char *buf;              /* per record: its file position (u64), then its bytes, padded to 8 */
	size_t len, cap;
};

/* Copy hdr (read at file position pos) to the end. 0 or -ENOMEM. */
int xpp_stash_put(struct xpp_stash *s, const struct perf_event_header *hdr, uint64_t pos);

/*
 * Hand every record to fn in the order put, then empty the stash (also when fn fails: a
 * negative return stops and is passed on).
 */
int xpp_stash_drain(struct xpp_stash *s,
		    int (*fn)(void *ctx, const struct perf_event_header *hdr, uint64_t pos),
		    void *ctx);

void xpp_stash_free(struct xpp_stash *s);

#endif
