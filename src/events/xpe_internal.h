/* libxperf-events internals shared between its files (not for callers). */
#ifndef XPE_INTERNAL_H
#define XPE_INTERNAL_H

#include <stdbool.h>

#include "events/xpe.h"

#define XPE_PATH_MAX 4096

/* ---- static tables (tables.c) ---- */
struct xpe_symbol {
	const char *name;
	const char *alias; /* NULL when none */
	uint32_t type;
	uint64_t config;
};
extern const struct xpe_symbol xpe_hw_symbols[];
extern const int xpe_nr_hw_symbols;
extern const struct xpe_symbol xpe_sw_symbols[];
extern const int xpe_nr_sw_symbols;

/* hardware cache names: [type][alias] */
#define XPE_CACHE_ALIASES 8
extern const char *const xpe_cache_type[PERF_COUNT_HW_CACHE_MAX][XPE_CACHE_ALIASES];
extern const char *const xpe_cache_op[PERF_COUNT_HW_CACHE_OP_MAX][XPE_CACHE_ALIASES];
extern const char *const xpe_cache_result[PERF_COUNT_HW_CACHE_RESULT_MAX][XPE_CACHE_ALIASES];
bool xpe_cache_op_valid(int type, int op);
/* Exact symbol lookup (case-sensitive like perf's lexer); NULL when not found. */
const struct xpe_symbol *xpe_symbol_find(const char *name);
/* Parse a cache event name like "L1-dcache-load-misses"; 0 and *config on success. */
int xpe_cache_parse(const char *name, uint64_t *config);
/* perf's canonical cache name for config into buf; -1 if config is not a valid cache id. */
int xpe_cache_name(uint64_t config, char *buf, size_t len);

/* ---- sysfs PMUs (pmu.c) ---- */
struct xpe_format {
	char *name;
	int field;          /* 0 config, 1 config1, 2 config2 */
	uint64_t mask;      /* bits of that field, possibly split ranges */
};
struct xpe_alias {
	char *name;
	char *terms;        /* file content, trimmed ("event=0x3c,umask=0x01") */
	double scale;       /* 1.0 when no .scale file */
	char unit[32];
};
struct xpe_pmu {
	char *name;
	uint32_t type;
	struct xpe_format *formats;
	int nr_formats;
	struct xpe_alias *aliases;
	int nr_aliases;
};
/* Look up (loading and caching) one PMU by name; NULL when absent. */
struct xpe_pmu *xpe_pmu_find(xpe_ctx *ctx, const char *name);
/* Load every PMU under the sysfs root (for listing and suggestions). */
int xpe_pmu_load_all(xpe_ctx *ctx);
int xpe_ctx_nr_pmus(const xpe_ctx *ctx);
struct xpe_pmu *xpe_ctx_pmu(const xpe_ctx *ctx, int i);
/*
 * Apply the comma-separated terms in s (user terms or an alias' terms) to ev->attr.
 * Sets ev->name when a name= term is present.
 */
int xpe_pmu_apply_terms(xpe_ctx *ctx, struct xpe_pmu *pmu, struct xpe_event *ev,
			const char *s, struct xb_error *err);
/* Put value into the bits of mask (lowest value bit into lowest mask bit). */
uint64_t xpe_format_encode(uint64_t mask, uint64_t value);

/* ---- tracepoints (tracepoint.c) ---- */
/* id of subsys:name, or a negative errno */
int64_t xpe_tracepoint_id(xpe_ctx *ctx, const char *subsys, const char *name);
typedef int (*xpe_tp_cb)(const char *subsys, const char *name, void *arg);
/* Every tracepoint matching the globs (NULL matches all), sorted. */
int xpe_tracepoint_for_each(xpe_ctx *ctx, const char *sys_glob, const char *name_glob,
			    xpe_tp_cb cb, void *arg);

/* ---- evlist (evlist.c) ---- */
struct xpe_event *xpe_evlist_new_event(xpe_evlist *evl);
/* Drop events from index n on (parse failure rollback). */
void xpe_evlist_truncate(xpe_evlist *evl, size_t n);

/* ---- helpers ---- */
char *xpe_strndup(const char *s, size_t n);
/* read a small file into buf (NUL-terminated, trailing whitespace trimmed); 0 or -errno */
int xpe_read_file(const char *path, char *buf, size_t len);
void xpe_attr_init(struct perf_event_attr *attr);
int xpe_pathf(char *buf, size_t len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

#endif
