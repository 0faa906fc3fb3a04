/* String interning: each distinct string gets a small dense id, so keys compare as integers. */
#ifndef XPERF_REPORT_INTERN_H
#define XPERF_REPORT_INTERN_H

#include <stddef.h>
#include <stdint.h>

typedef struct intern intern;

intern *intern_create(void);
void intern_free(intern *in);

/* The id of s[0..len) (added if new), or a negative errno. Ids count up from 0. */
int64_t intern_id(intern *in, const char *s, size_t len);

/* The string of an id (NUL-terminated, stable until intern_free), or NULL. */
const char *intern_str(const intern *in, uint32_t id);

uint32_t intern_nr(const intern *in);

#endif
