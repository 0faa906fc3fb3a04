/* String interning: each distinct string gets a small dense id, so keys compare as integers. */
#ifndef XPERF_REPORT_INTERN_H
#define XPERF_REPORT_INTERN_H

#include <stddef.h>
#include <stdint.h>

typedef struct xpp_intern xpp_intern;

xpp_intern *xpp_intern_create(void);
void xpp_intern_free(xpp_intern *in);

/* The id of s[0..len) (added if new), or a negative errno. Ids count up from 0. */
int64_t xpp_intern_id(xpp_intern *in, const char *s, size_t len);

/* The string of an id (NUL-terminated, stable until intern_free), or NULL. */
const char *xpp_intern_str(const xpp_intern *in, uint32_t id);

uint32_t xpp_intern_nr(const xpp_intern *in);

#endif
