/* libxperf-base: numbers as printf would write them, without printf's cost per call. */
#ifndef XB_FMT_NUM_H
#define XB_FMT_NUM_H

#include <stddef.h>
#include <stdint.h>

/* Room for any number these write, with its terminating NUL: "%.2f" of DBL_MAX is 312. */
#define XB_FMT_NUM_MAX 320

/*
 * v as "%.2f" writes it (in the C locale), into buf (XB_FMT_NUM_MAX bytes): its length.
 * A report prints two percentages on each of a million lines; vfprintf's decimal
 * conversion of a double was a tenth of the whole report. Values within a rounding error
 * of a tie between two hundredths, and any value from 1e4 on, take snprintf's exact path,
 * so the text is always printf's.
 */
size_t xb_fmt_fixed2(char *buf, double v);

/* v as "%" PRIu64 writes it, into buf (XB_FMT_NUM_MAX bytes): its length. */
size_t xb_fmt_u64(char *buf, uint64_t v);

/* Room for xb_fmt_hex()'s digits (a width of 32 at most) and NUL. */
#define XB_FMT_HEX_MAX 33

/* v as "%0*" PRIx64 with that width (at most 32) writes it, lower case, into buf
   (XB_FMT_HEX_MAX bytes): its length. */
size_t xb_fmt_hex(char *buf, uint64_t v, int width);

#endif
