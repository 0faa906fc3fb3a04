/* script: the grammar of a tracepoint's format text, checked before libtraceevent reads it. */
#ifndef SCRIPT_TRACEPOINT_FORMAT_H
#define SCRIPT_TRACEPOINT_FORMAT_H

#include <stdbool.h>
#include <stddef.h>

/*
 * Whether text (NUL-terminated, size bytes) is an event format as tracefs writes it:
 *
 *   name: NAME
 *   ID: N
 *   format:
 *   <tab>field:TYPE NAME[N];<tab>offset:N;<tab>size:N;<tab>signed:N;   (and empty lines)
 *   print fmt: "FORMAT", ARGS
 *
 * and whether its print fmt is one libtraceevent can evaluate: quotes closed, every REC->X
 * a field of the event, every '/' and '%' by a constant that is not 0. On false, *why says
 * what is wrong (a static string) and name (name_size bytes) holds the event's name, or ""
 * when the name line is damaged.
 */
bool tp_format_ok(const char *text, size_t size, char *name, size_t name_size,
		  const char **why);

/*
 * A copy of a checked format (NUL-terminated, its length in *out_size; NULL: no memory)
 * whose print fmt bounds the lengths libtraceevent reads from a sample's data: the length
 * of __print_hex(), __print_hex_str() and the count of __print_array() become
 * ((LEN) & 0xffff). It reads that many bytes (elements) from the record, whatever they say:
 * a record holds less than 64 KB, so a real length is never cut. An argument that a '*'
 * width or precision takes ("%*lu", "%.*s", "%*pbl") is bounded the same way: a width of
 * 2^31 from a damaged sample would be gigabytes of padding for one line.
 */
char *tp_format_bound_lengths(const char *text, size_t size, size_t *out_size);

/* Whether text is a header_page format: field lines only ("field: TYPE NAME;" ...). */
bool tp_header_page_ok(const char *text, size_t size, const char **why);

#endif
