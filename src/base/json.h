/* libxperf-base: JSON strings, escaped in one place for every writer (speedscope, stat -j). */
#ifndef XB_JSON_H
#define XB_JSON_H

#include <stddef.h>
#include <stdio.h>

/*
 * Write s[0..len) to out as a JSON string, quotes included: '"' and '\\' escaped, control
 * characters as \u00XX, and bytes that are not UTF-8 (symbol names are whatever the ELF
 * file holds) as U+FFFD, so that every reader's JSON.parse accepts the document.
 * Errors are the stream's: check ferror(out) once at the end.
 */
void xb_json_str(FILE *out, const char *s, size_t len);

#endif
