/* Event names: perf's name for an attr, the -vv attr dump, listing every name. */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/hw_breakpoint.h>

#include "base/array.h"
#include "events/xpe_internal.h"

/* perf's evsel__hw_names[]: the short names, not the table's first spelling */
static const char *const hw_names[PERF_COUNT_HW_MAX] = {
	"cycles", "instructions", "cache-references", "cache-misses", "branches",
	"branch-misses", "bus-cycles", "stalled-cycles-frontend", "stalled-cycles-backend",
	"ref-cycles",
};

static const char *sw_name(uint64_t config)
{
	int i;

	for (i = 0; i < xpe_nr_sw_symbols; i++)
		if (xpe_sw_symbols[i].config == config)
			return xpe_sw_symbols[i].name;
	return NULL;
}

/* perf's evsel__add_modifiers() */
static int add_modifiers(const struct perf_event_attr *a, char *bf, size_t size)
{
	int colon = 0, r = 0, exclude_guest_default = 0;

#define MOD_PRINT(ctx, c)                                                   \
	do {                                                                \
		if (!a->exclude_##ctx) {                                    \
			if (!colon)                                         \
				colon = ++r;                                \
			r += snprintf(bf + r, size - r, "%c", c);           \
		}                                                           \
	} while (0)

	if (size < 16)
		return 0;
	if (a->exclude_kernel || a->exclude_user || a->exclude_hv) {
		MOD_PRINT(kernel, 'k');
		MOD_PRINT(user, 'u');
		MOD_PRINT(hv, 'h');
		exclude_guest_default = 1;
	}
	if (a->precise_ip) {
		if (!colon)
			colon = ++r;
		r += snprintf(bf + r, size - r, "%.*s", (int)a->precise_ip, "ppp");
		exclude_guest_default = 1;
	}
	if (a->exclude_host || a->exclude_guest == exclude_guest_default) {
		MOD_PRINT(host, 'H');
		MOD_PRINT(guest, 'G');
	}
#undef MOD_PRINT
	if (colon)
		bf[colon - 1] = ':';
	return r;
}

struct tp_find {
	uint64_t id;
	xpe_ctx *ctx;
	char name[256];
};

static int tp_find_cb(const char *sys, const char *name, void *arg)
{
	struct tp_find *t = arg;

	if (xpe_tracepoint_id(t->ctx, sys, name) != (int64_t)t->id)
		return 0;
	snprintf(t->name, sizeof(t->name), "%s:%s", sys, name);
	return 1;
}

int xpe_attr_name(xpe_ctx *ctx, const struct perf_event_attr *a, char *buf, size_t len)
{
	char tmp[512];
	bool mods = true;
	const char *s;
	size_t used;
	int i;

	if (!len)
		return 0;
	tmp[0] = '\0';
	switch (a->type) {
	case PERF_TYPE_HARDWARE:
		if (a->config < PERF_COUNT_HW_MAX)
			snprintf(tmp, sizeof(tmp), "%s", hw_names[a->config]);
		else
			snprintf(tmp, sizeof(tmp), "unknown-hardware");
		break;
	case PERF_TYPE_SOFTWARE:
		s = sw_name(a->config);
		snprintf(tmp, sizeof(tmp), "%s", s ? s : "unknown-software");
		break;
	case PERF_TYPE_HW_CACHE:
		if (xpe_cache_name(a->config, tmp, sizeof(tmp)) < 0)
			snprintf(tmp, sizeof(tmp), "unknown-ext-hardware-cache-type");
		break;
	case PERF_TYPE_RAW:
		snprintf(tmp, sizeof(tmp), "r%" PRIx64, (uint64_t)a->config);
		break;
	case PERF_TYPE_BREAKPOINT:
		snprintf(tmp, sizeof(tmp), "mem:0x%" PRIx64 ":%s%s%s", (uint64_t)a->bp_addr,
			 a->bp_type & HW_BREAKPOINT_R ? "r" : "",
			 a->bp_type & HW_BREAKPOINT_W ? "w" : "",
			 a->bp_type & HW_BREAKPOINT_X ? "x" : "");
		break;
	case PERF_TYPE_TRACEPOINT: {
		struct tp_find t = { .id = a->config, .ctx = ctx };

		if (ctx && xpe_tracepoint_for_each(ctx, NULL, NULL, tp_find_cb, &t) > 0)
			snprintf(tmp, sizeof(tmp), "%s", t.name);
		else
			snprintf(tmp, sizeof(tmp), "unknown tracepoint");
		mods = false; /* perf names tracepoints without modifiers */
		break;
	}
	default:
		if (ctx && !xpe_pmu_load_all(ctx)) {
			for (i = 0; i < xpe_ctx_nr_pmus(ctx); i++) {
				struct xpe_pmu *pmu = xpe_ctx_pmu(ctx, i);

				if (pmu->type != a->type)
					continue;
				snprintf(tmp, sizeof(tmp), "%s/config=0x%" PRIx64 "/", pmu->name,
					 (uint64_t)a->config);
				break;
			}
		}
		if (!tmp[0])
			snprintf(tmp, sizeof(tmp), "unknown attr type: %u", a->type);
		break;
	}
	/* strlen, not snprintf's return: a truncated name must not move us past tmp */
	used = strlen(tmp);
	if (mods)
		add_modifiers(a, tmp + used, sizeof(tmp) - used);
	return snprintf(buf, len, "%s", tmp) < (int)len ? (int)strlen(buf) : (int)len - 1;
}

/* ---- the -vv dump ------------------------------------------------------------------- */

static const char *const sample_bits[] = {
	"IP", "TID", "TIME", "ADDR", "READ", "CALLCHAIN", "ID", "CPU", "PERIOD", "STREAM_ID",
	"RAW", "BRANCH_STACK", "REGS_USER", "STACK_USER", "WEIGHT", "DATA_SRC", "IDENTIFIER",
	"TRANSACTION", "REGS_INTR", "PHYS_ADDR", "AUX", "CGROUP", "DATA_PAGE_SIZE",
	"CODE_PAGE_SIZE", "WEIGHT_STRUCT",
};
static const char *const read_bits[] = {
	"TOTAL_TIME_ENABLED", "TOTAL_TIME_RUNNING", "ID", "GROUP", "LOST",
};

static int put_bits(char *buf, size_t len, uint64_t v, const char *const *names, int nr)
{
	int i, n = 0;

	for (i = 0; i < 64 && n < (int)len; i++) {
		if (!(v & (1ULL << i)))
			continue;
		if (i < nr)
			n += snprintf(buf + n, len - n, "%s%s", n ? "|" : "", names[i]);
		else
			n += snprintf(buf + n, len - n, "%s(unknown bit %d)", n ? "|" : "", i);
	}
	return n;
}

struct out {
	char *buf;
	size_t len, off;
};

static void put(struct out *o, const char *field, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void put(struct out *o, const char *field, const char *fmt, ...)
{
	char val[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(val, sizeof(val), fmt, ap);
	va_end(ap);
	if (o->off < o->len)
		o->off += snprintf(o->buf + o->off, o->len - o->off, "  %-32s %s\n", field, val);
}

#define U(f) do { if (a->f) put(&o, #f, "%" PRIu64, (uint64_t)a->f); } while (0)
#define X(f) do { if (a->f) put(&o, #f, "%#" PRIx64, (uint64_t)a->f); } while (0)

int xpe_attr_snprintf(char *buf, size_t len, const struct perf_event_attr *a)
{
	struct out o = { buf, len, 0 };
	char bits[512];

	if (!len)
		return 0;
	buf[0] = '\0';
	U(type);
	U(size);
	X(config);
	if (a->sample_period)
		put(&o, "{ sample_period, sample_freq }", "%" PRIu64, (uint64_t)a->sample_period);
	if (a->sample_type) {
		put_bits(bits, sizeof(bits), a->sample_type, sample_bits,
			 (int)(sizeof(sample_bits) / sizeof(sample_bits[0])));
		put(&o, "sample_type", "%s", bits);
	}
	if (a->read_format) {
		put_bits(bits, sizeof(bits), a->read_format, read_bits,
			 (int)(sizeof(read_bits) / sizeof(read_bits[0])));
		put(&o, "read_format", "%s", bits);
	}
	U(disabled); U(inherit); U(pinned); U(exclusive); U(exclude_user); U(exclude_kernel);
	U(exclude_hv); U(exclude_idle); U(mmap); U(comm); U(freq); U(inherit_stat);
	U(enable_on_exec); U(task); U(watermark); U(precise_ip); U(mmap_data);
	U(sample_id_all); U(exclude_host); U(exclude_guest); U(exclude_callchain_kernel);
	U(exclude_callchain_user); U(mmap2); U(comm_exec); U(use_clockid); U(context_switch);
	U(write_backward); U(namespaces); U(ksymbol); U(bpf_event); U(aux_output); U(cgroup);
	U(text_poke); U(build_id); U(inherit_thread); U(remove_on_exec); U(sigtrap);
	if (a->wakeup_events)
		put(&o, "{ wakeup_events, wakeup_watermark }", "%u", a->wakeup_events);
	U(bp_type);
	if (a->config1)
		put(&o, "{ bp_addr, config1 }", "%#" PRIx64, (uint64_t)a->config1);
	if (a->config2)
		put(&o, "{ bp_len, config2 }", "%#" PRIx64, (uint64_t)a->config2);
	X(branch_sample_type);
	X(sample_regs_user);
	U(sample_stack_user);
	U(clockid);
	X(sample_regs_intr);
	U(aux_watermark);
	U(sample_max_stack);
	U(aux_sample_size);
	return (int)(o.off < len ? o.off : len - 1);
}

/* ---- listing ------------------------------------------------------------------------ */

struct tp_list {
	char **names;
	int nr;
	size_t alloc;
	bool oom;
};

static int tp_list_cb(const char *sys, const char *name, void *arg)
{
	struct tp_list *t = arg;

	if (XB_ARRAY_RESERVE(t->names, t->alloc, (size_t)t->nr + 1, 256)) {
		t->oom = true;
		return 1;
	}
	if (asprintf(&t->names[t->nr], "%s:%s", sys, name) < 0) {
		t->oom = true;
		return 1;
	}
	t->nr++;
	return 0;
}

static int cmp_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* perf list sorts the whole "sys:name" strings, so "fib6:..." comes before "fib:..." */
static int list_tracepoints(xpe_ctx *ctx, xpe_name_cb cb, void *arg)
{
	struct tp_list t = { 0 };
	struct xpe_name n = { NULL, NULL, "Tracepoint event", XPE_KIND_TRACEPOINT };
	int i, ret = 0;

	xpe_tracepoint_for_each(ctx, NULL, NULL, tp_list_cb, &t);
	if (t.nr)
		qsort(t.names, (size_t)t.nr, sizeof(*t.names), cmp_name);
	for (i = 0; i < t.nr; i++) {
		n.name = t.names[i];
		if (!ret)
			ret = cb(&n, arg);
		free(t.names[i]);
	}
	free(t.names);
	return ret ? ret : t.oom ? -ENOMEM : 0;
}

int xpe_ctx_for_each_name(xpe_ctx *ctx, unsigned kinds, xpe_name_cb cb, void *arg)
{
	struct xpe_name n;
	char buf[512];
	int i, j, k, ret;

#define EMIT(nm, al, d, kd) do { n.name = (nm); n.alias = (al); n.desc = (d); n.kind = (kd); \
		ret = cb(&n, arg); if (ret) return ret; } while (0)

	if (kinds & (1u << XPE_KIND_HW))
		for (i = 0; i < xpe_nr_hw_symbols; i++)
			EMIT(xpe_hw_symbols[i].name, xpe_hw_symbols[i].alias, "Hardware event",
			     XPE_KIND_HW);
	if (kinds & (1u << XPE_KIND_SW))
		for (i = 0; i < xpe_nr_sw_symbols; i++)
			EMIT(xpe_sw_symbols[i].name, xpe_sw_symbols[i].alias, "Software event",
			     XPE_KIND_SW);
	if (kinds & (1u << XPE_KIND_CACHE)) {
		for (i = 0; i < PERF_COUNT_HW_CACHE_MAX; i++)
			for (j = 0; j < PERF_COUNT_HW_CACHE_OP_MAX; j++) {
				if (!xpe_cache_op_valid(i, j))
					continue;
				for (k = 0; k < PERF_COUNT_HW_CACHE_RESULT_MAX; k++) {
					xpe_cache_name((uint64_t)i | ((uint64_t)j << 8) |
						       ((uint64_t)k << 16), buf, sizeof(buf));
					EMIT(buf, NULL, "Hardware cache event", XPE_KIND_CACHE);
				}
			}
	}
	if ((kinds & (1u << XPE_KIND_PMU)) && !xpe_pmu_load_all(ctx)) {
		for (i = 0; i < xpe_ctx_nr_pmus(ctx); i++) {
			struct xpe_pmu *pmu = xpe_ctx_pmu(ctx, i);

			for (j = 0; j < pmu->nr_aliases; j++) {
				snprintf(buf, sizeof(buf), "%s/%s/", pmu->name, pmu->aliases[j].name);
				EMIT(buf, NULL, "Kernel PMU event", XPE_KIND_PMU);
			}
		}
	}
	if (kinds & (1u << XPE_KIND_TRACEPOINT)) {
		ret = list_tracepoints(ctx, cb, arg);
		if (ret > 0)
			return ret;
	}
#undef EMIT
	return 0;
}
