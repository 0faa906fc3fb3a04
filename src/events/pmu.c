/* sysfs PMUs: type, format fields and event aliases, and encoding pmu/term=value/ terms. */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/edit_distance.h"
#include "events/xpe_ctx.h"

#define DEVICES "bus/event_source/devices"

/* "config:0-7,32-35" -> field 0, mask. */
static int parse_format(const char *s, int *field, uint64_t *mask)
{
	const char *p;
	char *end;

	if (!strncmp(s, "config2:", 8)) {
		*field = 2;
		p = s + 8;
	} else if (!strncmp(s, "config1:", 8)) {
		*field = 1;
		p = s + 8;
	} else if (!strncmp(s, "config:", 7)) {
		*field = 0;
		p = s + 7;
	} else {
		return -EINVAL;
	}
	*mask = 0;
	for (;;) {
		unsigned long lo, hi;

		if (!isdigit((unsigned char)*p))
			return -EINVAL;
		lo = strtoul(p, &end, 10);
		hi = lo;
		p = end;
		if (*p == '-') {
			p++;
			if (!isdigit((unsigned char)*p))
				return -EINVAL;
			hi = strtoul(p, &end, 10);
			p = end;
		}
		if (lo > hi || hi > 63)
			return -EINVAL;
		*mask |= (hi == 63 ? ~0ULL : ((1ULL << (hi + 1)) - 1)) & ~((1ULL << lo) - 1);
		if (*p != ',')
			break;
		p++;
	}
	return *p ? -EINVAL : 0;
}

uint64_t xpe_format_encode(uint64_t mask, uint64_t value)
{
	uint64_t out = 0;
	int bit;

	for (bit = 0; bit < 64 && value; bit++) {
		if (!(mask & (1ULL << bit)))
			continue;
		if (value & 1)
			out |= 1ULL << bit;
		value >>= 1;
	}
	return out;
}

static int cmp_format(const void *a, const void *b)
{
	return strcmp(((const struct xpe_format *)a)->name, ((const struct xpe_format *)b)->name);
}

static int cmp_alias(const void *a, const void *b)
{
	return strcmp(((const struct xpe_alias *)a)->name, ((const struct xpe_alias *)b)->name);
}

static void load_formats(struct xpe_pmu *pmu, const char *dir)
{
	char path[XPE_PATH_MAX], buf[256];
	struct dirent *de;
	DIR *d = opendir(dir);

	if (!d)
		return;
	while ((de = readdir(d))) {
		struct xpe_format f, *nf;

		if (de->d_name[0] == '.')
			continue;
		xpe_pathf(path, sizeof(path), "%s/%s", dir, de->d_name);
		if (xpe_read_file(path, buf, sizeof(buf)) || parse_format(buf, &f.field, &f.mask))
			continue;
		nf = realloc(pmu->formats, (pmu->nr_formats + 1) * sizeof(*nf));
		if (!nf)
			break;
		pmu->formats = nf;
		f.name = strdup(de->d_name);
		if (!f.name)
			break;
		pmu->formats[pmu->nr_formats++] = f;
	}
	closedir(d);
	if (pmu->nr_formats)
		qsort(pmu->formats, pmu->nr_formats, sizeof(*pmu->formats), cmp_format);
}

static void load_aliases(struct xpe_pmu *pmu, const char *dir)
{
	char path[XPE_PATH_MAX], buf[512];
	struct dirent *de;
	DIR *d = opendir(dir);

	if (!d)
		return;
	while ((de = readdir(d))) {
		struct xpe_alias a, *na;

		if (de->d_name[0] == '.' || strchr(de->d_name, '.'))
			continue; /* NAME.scale, NAME.unit, NAME.per-pkg, NAME.snapshot */
		xpe_pathf(path, sizeof(path), "%s/%s", dir, de->d_name);
		if (xpe_read_file(path, buf, sizeof(buf)))
			continue;
		memset(&a, 0, sizeof(a));
		a.scale = 1.0;
		xpe_pathf(path, sizeof(path), "%s/%s.unit", dir, de->d_name);
		if (xpe_read_file(path, a.unit, sizeof(a.unit)))
			a.unit[0] = '\0';
		xpe_pathf(path, sizeof(path), "%s/%s.scale", dir, de->d_name);
		{
			char sc[64], *end;

			if (!xpe_read_file(path, sc, sizeof(sc))) {
				double v = strtod(sc, &end);

				if (end != sc && v != 0)
					a.scale = v;
			}
		}
		na = realloc(pmu->aliases, (pmu->nr_aliases + 1) * sizeof(*na));
		if (!na)
			break;
		pmu->aliases = na;
		a.name = strdup(de->d_name);
		a.terms = strdup(buf);
		if (!a.name || !a.terms) {
			free(a.name);
			free(a.terms);
			break;
		}
		pmu->aliases[pmu->nr_aliases++] = a;
	}
	closedir(d);
	if (pmu->nr_aliases)
		qsort(pmu->aliases, pmu->nr_aliases, sizeof(*pmu->aliases), cmp_alias);
}

static struct xpe_pmu *pmu_load(xpe_ctx *ctx, const char *name)
{
	char path[XPE_PATH_MAX], buf[64], *end;
	struct xpe_pmu *pmu, **np;
	unsigned long type;

	if (!*name || strchr(name, '/') || !strcmp(name, ".") || !strcmp(name, ".."))
		return NULL;
	xpe_pathf(path, sizeof(path), "%s/" DEVICES "/%s/type", ctx->sysfs, name);
	if (xpe_read_file(path, buf, sizeof(buf)))
		return NULL;
	type = strtoul(buf, &end, 10);
	if (end == buf || *end || type > UINT32_MAX)
		return NULL;
	pmu = calloc(1, sizeof(*pmu));
	np = realloc(ctx->pmus, (ctx->nr_pmus + 1) * sizeof(*np));
	if (!pmu || !np) {
		free(pmu);
		if (np)
			ctx->pmus = np;
		return NULL;
	}
	ctx->pmus = np;
	pmu->name = strdup(name);
	if (!pmu->name) {
		free(pmu);
		return NULL;
	}
	pmu->type = (uint32_t)type;
	xpe_pathf(path, sizeof(path), "%s/" DEVICES "/%s/format", ctx->sysfs, name);
	load_formats(pmu, path);
	xpe_pathf(path, sizeof(path), "%s/" DEVICES "/%s/events", ctx->sysfs, name);
	load_aliases(pmu, path);
	ctx->pmus[ctx->nr_pmus++] = pmu;
	return pmu;
}

struct xpe_pmu *xpe_pmu_find(xpe_ctx *ctx, const char *name)
{
	int i;

	for (i = 0; i < ctx->nr_pmus; i++)
		if (!strcmp(ctx->pmus[i]->name, name))
			return ctx->pmus[i];
	if (ctx->all_pmus_loaded)
		return NULL;
	return pmu_load(ctx, name);
}

static int cmp_pmu(const void *a, const void *b)
{
	return strcmp((*(struct xpe_pmu *const *)a)->name, (*(struct xpe_pmu *const *)b)->name);
}

int xpe_pmu_load_all(xpe_ctx *ctx)
{
	char path[XPE_PATH_MAX];
	struct dirent *de;
	DIR *d;

	if (ctx->all_pmus_loaded)
		return 0;
	xpe_pathf(path, sizeof(path), "%s/" DEVICES, ctx->sysfs);
	d = opendir(path);
	if (!d)
		return -errno;
	while ((de = readdir(d)))
		if (de->d_name[0] != '.')
			xpe_pmu_find(ctx, de->d_name);
	closedir(d);
	if (ctx->nr_pmus)
		qsort(ctx->pmus, ctx->nr_pmus, sizeof(*ctx->pmus), cmp_pmu);
	ctx->all_pmus_loaded = true;
	return 0;
}

int xpe_ctx_nr_pmus(const xpe_ctx *ctx)
{
	return ctx->nr_pmus;
}

struct xpe_pmu *xpe_ctx_pmu(const xpe_ctx *ctx, int i)
{
	return i >= 0 && i < ctx->nr_pmus ? ctx->pmus[i] : NULL;
}

static const struct xpe_format *find_format(const struct xpe_pmu *pmu, const char *name)
{
	int i;

	for (i = 0; i < pmu->nr_formats; i++)
		if (!strcmp(pmu->formats[i].name, name))
			return &pmu->formats[i];
	return NULL;
}

static const struct xpe_alias *find_alias(const struct xpe_pmu *pmu, const char *name)
{
	int i;

	for (i = 0; i < pmu->nr_aliases; i++)
		if (!strcmp(pmu->aliases[i].name, name))
			return &pmu->aliases[i];
	return NULL;
}

static void valid_terms(const struct xpe_pmu *pmu, char *buf, size_t len)
{
	size_t off = 0;
	int i;

	buf[0] = '\0';
	for (i = 0; i < pmu->nr_formats && off < len; i++)
		off += snprintf(buf + off, len - off, "%s,", pmu->formats[i].name);
	if (off < len)
		snprintf(buf + off, len - off,
			 "config,config1,config2,name,period,freq,inherit,no-inherit");
}

static __u64 *field_ptr(struct perf_event_attr *attr, int field)
{
	return field == 0 ? &attr->config : field == 1 ? &attr->config1 : &attr->config2;
}

static int set_format(struct xpe_pmu *pmu, const struct xpe_format *f, struct xpe_event *ev,
		      const char *term, uint64_t val, struct xb_error *err)
{
	__u64 *fld = field_ptr(&ev->attr, f->field);
	int bits = __builtin_popcountll(f->mask);

	if (bits < 64 && (val >> bits))
		return xb_error_set(err, -EINVAL,
				     "value 0x%" PRIx64 " too big for term '%s' of pmu '%s' "
				     "(%d bits)", val, term, pmu->name, bits);
	*fld = (*fld & ~f->mask) | xpe_format_encode(f->mask, val);
	return 0;
}

static int apply_terms(xpe_ctx *ctx, struct xpe_pmu *pmu, struct xpe_event *ev, const char *s,
		       int depth, struct xb_error *err);

/* One term "name[=value]"; alias names expand to their own terms (one level deep). */
static int apply_term(xpe_ctx *ctx, struct xpe_pmu *pmu, struct xpe_event *ev, char *term,
		      int depth, struct xb_error *err)
{
	char *eq = strchr(term, '='), *end, vbuf[384];
	const struct xpe_format *f;
	const struct xpe_alias *a;
	uint64_t val = 1;
	bool has_val = eq != NULL;

	if (eq) {
		*eq = '\0';
		if (strcmp(term, "name") && strcmp(term, "call-graph")) {
			errno = 0;
			val = strtoull(eq + 1, &end, 0);
			if (eq[1] == '\0' || *end || errno)
				return xb_error_set(err, -EINVAL,
						     "bad value '%s' for term '%s' of pmu '%s'",
						     eq + 1, term, pmu->name);
		}
	}
	if (!*term)
		return xb_error_set(err, -EINVAL, "empty term for pmu '%s'", pmu->name);
	f = find_format(pmu, term);
	if (f)
		return set_format(pmu, f, ev, term, val, err);
	if (!strcmp(term, "config") || !strcmp(term, "config1") || !strcmp(term, "config2")) {
		*field_ptr(&ev->attr, term[6] ? term[6] - '0' : 0) = val;
		return 0;
	}
	if (!strcmp(term, "name") && has_val) {
		char *n = strdup(eq + 1);

		if (!n)
			return xb_error_set(err, -ENOMEM, "out of memory");
		free(ev->name);
		ev->name = n;
		return 0;
	}
	if (!strcmp(term, "period") && has_val) {
		ev->attr.sample_period = val;
		ev->attr.freq = 0;
		ev->period_set = 1;
		return 0;
	}
	if (!strcmp(term, "freq") && has_val) {
		ev->attr.sample_freq = val;
		ev->attr.freq = 1;
		ev->period_set = 1;
		ev->freq_set = 1;
		return 0;
	}
	if (!strcmp(term, "inherit") || !strcmp(term, "no-inherit")) {
		ev->attr.inherit = term[0] == 'i' ? (val != 0) : 0;
		return 0;
	}
	a = find_alias(pmu, term);
	if (a && !has_val && depth == 0) {
		snprintf(vbuf, sizeof(vbuf), "%s", a->terms);
		ev->scale = a->scale;
		snprintf(ev->unit, sizeof(ev->unit), "%s", a->unit);
		return apply_terms(ctx, pmu, ev, vbuf, depth + 1, err);
	}
	valid_terms(pmu, vbuf, sizeof(vbuf));
	if (!has_val && pmu->nr_aliases) {
		/* most likely a misspelt event alias: name the nearest */
		int i, best = 1 << 30, bi = 0;

		for (i = 0; i < pmu->nr_aliases; i++) {
			int d = (int)xb_edit_distance(term, pmu->aliases[i].name);

			if (d < best) {
				best = d;
				bi = i;
			}
		}
		if (best <= 2 || best <= (int)strlen(term) / 3)
			return xb_error_set(err, -EINVAL, "event '%s' not found in pmu '%s', did you "
					     "mean '%s/%s/'?", term, pmu->name, pmu->name,
					     pmu->aliases[bi].name);
	}
	return xb_error_set(err, -EINVAL, "unknown term '%s' for pmu '%s' (valid terms: %s)",
			     term, pmu->name, vbuf);
}

static int apply_terms(xpe_ctx *ctx, struct xpe_pmu *pmu, struct xpe_event *ev, const char *s,
		       int depth, struct xb_error *err)
{
	char buf[1024], *tok, *save = NULL;
	int ret;

	if (strlen(s) >= sizeof(buf))
		return xb_error_set(err, -EINVAL, "terms for pmu '%s' too long", pmu->name);
	snprintf(buf, sizeof(buf), "%s", s);
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		while (isspace((unsigned char)*tok))
			tok++;
		ret = apply_term(ctx, pmu, ev, tok, depth, err);
		if (ret)
			return ret;
	}
	return 0;
}

int xpe_pmu_apply_terms(xpe_ctx *ctx, struct xpe_pmu *pmu, struct xpe_event *ev,
			const char *s, struct xb_error *err)
{
	return s ? apply_terms(ctx, pmu, ev, s, 0, err) : 0;
}
