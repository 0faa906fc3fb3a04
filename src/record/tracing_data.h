/* perf's TRACING_DATA blob (event formats from tracefs) for recordings with tracepoints. */
#ifndef XREC_TRACING_DATA_H
#define XREC_TRACING_DATA_H

#include <stddef.h>

#include "events/xpe.h"
#include "base/error.h"

/*
 * Build the payload perf's util/trace-event-info.c writes and trace-event-read.c reads:
 * "\027\010\104tracing", version "0.6", endianness, sizeof(long), page size, header_page,
 * header_event, the ftrace formats (none), the format of every tracepoint of evl grouped
 * by system, kallsyms (empty: perf resolves kernel symbols itself), printk_formats and
 * saved_cmdlines. *out is NULL (0 returned) when evl has no tracepoint; else the caller
 * frees it. Returns 0 or a negative errno with err filled.
 */
int xrec_tracing_data(xpe_ctx *ctx, xpe_evlist *evl, void **out, size_t *size,
		      struct xb_error *err);

#endif
