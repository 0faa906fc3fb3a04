/* script: the print fmt of a tracepoint format, parsed as C before libtraceevent reads it. */
#ifndef SCRIPT_PRINT_FMT_H
#define SCRIPT_PRINT_FMT_H

#include <stdbool.h>
#include <stddef.h>

/* Whether name (n bytes, not NUL-terminated) is a field of the event being checked. */
typedef bool (*tp_is_field_fn)(void *ctx, const char *name, size_t n);

/*
 * Whether [text, end), the text after "print fmt:", is a format string and arguments that
 * libtraceevent can parse and evaluate safely (the grammar is at the top of print_fmt.c):
 * C expressions whose REC->X and field helpers name fields (is_field), whose divisors are
 * constants other than 0, nested at most 64 deep. On false, *why says what is wrong.
 */
bool tp_print_fmt_ok(const char *text, const char *end, tp_is_field_fn is_field, void *ctx,
		     const char **why);

#endif
