/* Records put aside in arrival order: copies in one growing buffer. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "base/array.h"
#include "profile/session/stash.h"

int xpp_stash_put(struct xpp_stash *s, const struct perf_event_header *hdr, uint64_t pos)
{
	size_t need = 8 + (((size_t)hdr->size + 7) & ~(size_t)7);

	if (XB_ARRAY_RESERVE(s->buf, s->cap, s->len + need, 1 << 16))
		return -ENOMEM;
	memcpy(s->buf + s->len, &pos, 8);
	memcpy(s->buf + s->len + 8, hdr, hdr->size);
	s->len += need;
	return 0;
}

int xpp_stash_drain(struct xpp_stash *s,
		    int (*fn)(void *ctx, const struct perf_event_header *hdr, uint64_t pos),
		    void *ctx)
{
	int ret = 0;

	for (size_t at = 0; at < s->len && ret >= 0;) {
		const struct perf_event_header *h = (const void *)(s->buf + at + 8);
		uint64_t pos;

		memcpy(&pos, s->buf + at, 8);
		at += 8 + (((size_t)h->size + 7) & ~(size_t)7);
		ret = fn(ctx, h, pos);
	}
	s->len = 0;
	return ret;
}

void xpp_stash_free(struct xpp_stash *s)
{
	free(s->buf);
	*s = (struct xpp_stash){ 0 };
}
