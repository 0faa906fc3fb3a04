/* Debug files of stripped binaries from debuginfod servers (elfutils' libdebuginfod). */
#ifndef XPERF_PROFILE_DEBUGINFOD_H
#define XPERF_PROFILE_DEBUGINFOD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/error.h"

/*
 * A client of the debuginfod servers of one report: it asks them for the debug file of a
 * build-id when no local file has what a reader wants (symbols, line tables), as
 * elfutils' tools do. libdebuginfod keeps the files it fetched in its cache
 * ($DEBUGINFOD_CACHE_PATH, else $XDG_CACHE_HOME/debuginfod_client, else
 * ~/.cache/debuginfod_client), so a second report reads them from there without asking.
 * Safe to call from several threads; the first server failure (unreachable, time-out)
 * stops the asking for the rest of the report, so a stopped server costs one try.
 */
typedef struct xpp_debuginfod xpp_debuginfod;

/* DEBUGINFOD_TIMEOUT's value when unset: libdebuginfod's own is 90 s, far too long for a
 * report that is waiting (a sample's symbols wait for the answer). And
 * DEBUGINFOD_RETRY_LIMIT's: libdebuginfod tries a silent server 3 times, each for the
 * whole time-out; once is enough to know it is not answering. */
#define XPP_DEBUGINFOD_TIMEOUT "5"
#define XPP_DEBUGINFOD_RETRIES "0"

/*
 * A client asking the servers in urls (DEBUGINFOD_URLS's syntax: URLs separated by
 * spaces); -EINVAL when it is empty. libdebuginfod takes its settings from the process's
 * environment only, so this sets DEBUGINFOD_URLS to urls, and DEBUGINFOD_TIMEOUT and
 * DEBUGINFOD_RETRY_LIMIT to the values above when they are unset: call it before any
 * thread runs. 0, or a
 * negative errno with err set: -EOPNOTSUPP when xperf was built without libdebuginfod.
 */
int xpp_debuginfod_create(xpp_debuginfod **out, const char *urls, struct xb_error *err);
/* Accepts NULL. */
void xpp_debuginfod_free(xpp_debuginfod *d);

/*
 * The path of the debug file of build-id `id` (size bytes), fetched into the cache or
 * found there: 0 with it in out, or a negative errno (-ENOENT: no server has it; any other
 * once a server failed). Each build-id is asked for once per client. d may be NULL
 * (-ENOENT).
 */
int xpp_debuginfod_find(xpp_debuginfod *d, const uint8_t *id, size_t size, char *out,
			size_t cap);

/*
 * One line for the report's warnings when the servers failed (the first failure: which
 * servers, why, for which build-id, what it costs): into buf, or false when none did.
 */
bool xpp_debuginfod_warning(xpp_debuginfod *d, char *buf, size_t size);

#endif
