/* libxperf-base's error type: a negative errno plus a message for the caller. */
#ifndef XB_ERROR_H
#define XB_ERROR_H

/*
 * Library functions never print or exit. On failure they return a negative errno and,
 * when the caller passed a non-NULL struct xb_error, fill msg with one line, lower case,
 * no full stop, naming the subject and, for file input, the file offset:
 *     "perf.data: record at offset 0x1a40 has size 0"
 * The caller prefixes it with its command name ("xperf report: error: ").
 * It lives in the base library so that every library (format, events, profile) can use it
 * without depending on another.
 */
struct xb_error {
	int code;       /* the negative errno that was returned */
	char msg[512];
};

/* Fill err (may be NULL) and return code (a negative errno), printf-style. */
int xb_error_set(struct xb_error *err, int code, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Clear err (may be NULL). */
void xb_error_clear(struct xb_error *err);

#endif
