/* The -e parser: lists, groups, modifiers, and each event syntax into a perf_event_attr. */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/hw_breakpoint.h>

#include "base/edit_distance.h"
#include "events/xpe_evlist_impl.h"

struct parser {
	xpe_evlist *evl;
	xpe_ctx *ctx;
	const char *str;  /* the whole input, for messages */
	const char *p;    /* cursor */
	struct xb_error *err;
};

/* ---- modifiers ---------------------------------------------------------------------- */

struct mods {
	int eu, ek, eh, eH, eG, eI, precise, precise_max, sample_read, pinned, exclusive;
	int exclude_GH;
};

static bool is_mod_char(int c)
{
	return c && strchr("ukhGHpPSDIWeb", c) != NULL;
}

/*
 * perf's get_event_modifier(): with base NULL every flag starts clear (an event's own
 * modifiers replace the defaults, exclude_guest included); a group's modifiers start from
 * each member's current attr. The first of u/k/h excludes everything else; 'u' and 'p'
 * also exclude the guest unless G/H were given.
 */
static int compute_mods(const struct xpe_event *base, const char *s, size_t n, struct mods *m)
{
	const struct perf_event_attr *a = base ? &base->attr : NULL;
	int exclude;
	size_t i;

	memset(m, 0, sizeof(*m));
	if (a) {
		m->eu = a->exclude_user;
		m->ek = a->exclude_kernel;
		m->eh = a->exclude_hv;
		m->eH = a->exclude_host;
		m->eG = a->exclude_guest;
		m->eI = a->exclude_idle;
		m->precise = a->precise_ip;
		m->pinned = a->pinned;
		m->exclusive = a->exclusive;
		m->exclude_GH = base->mods_GH;
	}
	exclude = m->eu | m->ek | m->eh;
	/* perf's check_modifier(): each letter once, except p */
	if (n > strlen("ukhGHpppPSDIWeb"))
		return -EINVAL;
	for (i = 0; i < n; i++)
		if (s[i] != 'p' && memchr(s + i + 1, s[i], n - i - 1))
			return -EINVAL;
	for (i = 0; i < n; i++) {
		switch (s[i]) {
		case 'u':
			if (!exclude)
				exclude = m->eu = m->ek = m->eh = 1;
			if (!m->exclude_GH)
				m->eG = 1;
			m->eu = 0;
			break;
		case 'k':
			if (!exclude)
				exclude = m->eu = m->ek = m->eh = 1;
			m->ek = 0;
			break;
		case 'h':
			if (!exclude)
				exclude = m->eu = m->ek = m->eh = 1;
			m->eh = 0;
			break;
		case 'G':
			if (!m->exclude_GH)
				m->exclude_GH = m->eG = m->eH = 1;
			m->eG = 0;
			break;
		case 'H':
			if (!m->exclude_GH)
				m->exclude_GH = m->eG = m->eH = 1;
			m->eH = 0;
			break;
		case 'I': m->eI = 1; break;
		case 'p':
			m->precise++;
			/* precise sampling requires exclude_guest */
			if (!m->exclude_GH)
				m->eG = 1;
			break;
		case 'P': m->precise_max = 1; break;
		case 'S': m->sample_read = 1; break;
		case 'D': m->pinned = 1; break;
		case 'e': m->exclusive = 1; break;
		case 'W': case 'b': break; /* weak groups and bpf counters: accepted, unused */
		default: return -EINVAL;
		}
	}
	return m->precise > 3 ? -EINVAL : 0;
}

static void apply_mods(struct xpe_event *ev, const struct mods *m, bool leader)
{
	struct perf_event_attr *a = &ev->attr;

	a->exclude_user = m->eu;
	a->exclude_kernel = m->ek;
	a->exclude_hv = m->eh;
	a->exclude_host = m->eH;
	a->exclude_guest = m->eG;
	a->exclude_idle = m->eI;
	a->precise_ip = m->precise_max ? 3 : m->precise;
	ev->precise_max = m->precise_max;
	ev->sample_read = m->sample_read;
	ev->user_mods = 1;
	ev->mods_GH = m->exclude_GH;
	if (leader) {
		a->pinned = m->pinned;
		a->exclusive = m->exclusive;
		ev->pinned = m->pinned;
	}
}

static int mods_error(struct parser *ps, const char *s, size_t n)
{
	return xb_error_set(ps->err, -EINVAL,
			     "bad modifier ':%.*s' in '%s' (valid: u k h G H I p pp ppp P S D e W b,"
			     " each once)", (int)n, s, ps->str);
}

/* Apply modifiers to events [from, evl->nr) parsed from one term. */
static int mods_apply_range(struct parser *ps, size_t from, const char *s, size_t n, bool group)
{
	struct mods m;
	size_t i;

	if (!n)
		return 0;
	if (!group && compute_mods(NULL, s, n, &m))
		return mods_error(ps, s, n);
	for (i = from; i < ps->evl->nr; i++) {
		struct xpe_event *ev = ps->evl->ev[i];

		if (group && compute_mods(ev, s, n, &m))
			return mods_error(ps, s, n);
		apply_mods(ev, &m, ev->leader == ev->idx);
	}
	return 0;
}

/* ---- one event ---------------------------------------------------------------------- */

static struct xpe_event *new_event(struct parser *ps, enum xpe_kind kind, const char *name,
				   size_t name_len)
{
	struct xpe_event *ev = xpe_evlist_new_event(ps->evl);

	if (!ev) {
		xb_error_set(ps->err, -ENOMEM, "out of memory");
		return NULL;
	}
	ev->kind = kind;
	ev->name = xpe_strndup(name, name_len);
	if (!ev->name) {
		xb_error_set(ps->err, -ENOMEM, "out of memory");
		return NULL;
	}
	return ev;
}

static bool is_name_char(int c)
{
	return isalnum(c) || c == '_' || c == '-' || c == '.';
}

/* "rNNNN": hex digits only (perf's lexer: r{num_raw_hex}) */
static bool is_raw(const char *s, size_t n, uint64_t *config)
{
	size_t i;

	if (n < 2 || n > 17 || s[0] != 'r')
		return false;
	for (i = 1; i < n; i++)
		if (!isxdigit((unsigned char)s[i]))
			return false;
	*config = 0;
	for (i = 1; i < n; i++) {
		int c = tolower((unsigned char)s[i]);

		*config = (*config << 4) | (uint64_t)(isdigit(c) ? c - '0' : c - 'a' + 10);
	}
	return true;
}

/* mem:ADDR[/LEN][:rwx][:mods] */
static int parse_breakpoint(struct parser *ps)
{
	const char *start = ps->p, *s = ps->p + 4, *mods = NULL;
	unsigned long long addr, len = 0;
	int bp_type = 0;
	struct xpe_event *ev;
	size_t from = ps->evl->nr, modn = 0;
	char *end;

	errno = 0;
	addr = strtoull(s, &end, 0);
	if (end == s || errno)
		return xb_error_set(ps->err, -EINVAL, "bad breakpoint address in '%s'", ps->str);
	s = end;
	if (*s == '/') {
		len = strtoull(s + 1, &end, 0);
		if (end == s + 1 || (len != 1 && len != 2 && len != 4 && len != 8))
			return xb_error_set(ps->err, -EINVAL,
					     "bad breakpoint length in '%s' (1, 2, 4 or 8)", ps->str);
		s = end;
	}
	if (*s == ':' && strchr("rwx", s[1]) && s[1]) {
		const char *q = s + 1;

		while (*q && strchr("rwx", *q)) {
			int bit = *q == 'r' ? HW_BREAKPOINT_R : *q == 'w' ? HW_BREAKPOINT_W :
					      HW_BREAKPOINT_X;
			if (bp_type & bit)
				return xb_error_set(ps->err, -EINVAL,
						     "bad breakpoint access in '%s'", ps->str);
			bp_type |= bit;
			q++;
		}
		if (*q && *q != ':' && *q != ',' && *q != '}')
			return xb_error_set(ps->err, -EINVAL, "bad breakpoint access in '%s'",
					     ps->str);
		s = q;
	}
	if (*s == ':') {
		mods = ++s;
		while (is_mod_char(*s))
			s++;
		modn = (size_t)(s - mods);
	}
	if (*s && *s != ',' && *s != '}')
		return xb_error_set(ps->err, -EINVAL, "bad breakpoint '%s'", ps->str);
	if (!bp_type)
		bp_type = HW_BREAKPOINT_R | HW_BREAKPOINT_W;
	ev = new_event(ps, XPE_KIND_BREAKPOINT, start, (size_t)(s - start));
	if (!ev)
		return -ENOMEM;
	ev->attr.type = PERF_TYPE_BREAKPOINT;
	ev->attr.bp_type = bp_type;
	ev->attr.bp_addr = addr;
	ev->attr.bp_len = len ? len : bp_type == HW_BREAKPOINT_X ? sizeof(long) : HW_BREAKPOINT_LEN_4;
	ev->attr.sample_period = 1; /* a weak default, as perf: -c/-F override it */
	ps->p = s;
	return mods_apply_range(ps, from, mods, modn, false);
}

/* One event of `pmu` spelled tok[0..n), its config from the sysfs `terms`. */
static int add_pmu_event(struct parser *ps, struct xpe_pmu *pmu, const char *tok, size_t n,
			 const char *terms)
{
	struct xpe_event *ev = new_event(ps, XPE_KIND_PMU, tok, n);

	if (!ev)
		return -ENOMEM;
	ev->pmu = strdup(pmu->name);
	if (!ev->pmu)
		return xb_error_set(ps->err, -ENOMEM, "out of memory");
	ev->attr.type = pmu->type;
	return xpe_pmu_apply_terms(ps->ctx, pmu, ev, terms, ps->err);
}

/* pmu/terms/[mods] or pmu/terms/:mods */
static int parse_pmu(struct parser *ps, size_t name_len)
{
	const char *start = ps->p, *terms = ps->p + name_len + 1, *close, *mods = NULL, *s;
	char pmu_name[256], tbuf[1024];
	struct xpe_pmu *pmu;
	size_t from = ps->evl->nr, modn = 0;
	int ret;

	close = strchr(terms, '/');
	if (!close)
		return xb_error_set(ps->err, -EINVAL, "missing closing '/' in '%s'", ps->str);
	if (name_len >= sizeof(pmu_name) || (size_t)(close - terms) >= sizeof(tbuf))
		return xb_error_set(ps->err, -EINVAL, "event too long in '%s'", ps->str);
	memcpy(pmu_name, start, name_len);
	pmu_name[name_len] = '\0';
	memcpy(tbuf, terms, (size_t)(close - terms));
	tbuf[close - terms] = '\0';
	s = close + 1;
	if (*s == ':')
		s++;
	mods = s;
	while (is_mod_char(*s))
		s++;
	modn = (size_t)(s - mods);
	if (*s && *s != ',' && *s != '}')
		return xb_error_set(ps->err, -EINVAL, "unexpected '%c' after '%.*s' in '%s'", *s,
				     (int)(s - start), start, ps->str);
	pmu = xpe_pmu_find(ps->ctx, pmu_name);
	if (!pmu) {
		char known[512];
		size_t off = 0;
		int i;

		known[0] = '\0';
		xpe_pmu_load_all(ps->ctx);
		for (i = 0; i < xpe_ctx_nr_pmus(ps->ctx) && off < sizeof(known); i++)
			off += snprintf(known + off, sizeof(known) - off, "%s%s", i ? ", " : "",
					xpe_ctx_pmu(ps->ctx, i)->name);
		xb_error_set(ps->err, -ENOENT, "pmu '%s' not found in %s/bus/event_source/devices "
			      "(known: %s)", pmu_name, xpe_ctx_sysfs_root(ps->ctx), known);
		return -ENOENT;
	}
	ret = add_pmu_event(ps, pmu, start, (size_t)(s - start), tbuf);
	if (ret)
		return ret;
	ps->p = s;
	return mods_apply_range(ps, from, mods, modn, false);
}

struct tp_add {
	struct parser *ps;
	const char *mods;
	size_t modn;
	int n;
	int ret;
};

static int tp_add_one(const char *sys, const char *name, void *arg)
{
	struct tp_add *t = arg;
	char buf[512];
	int64_t id = xpe_tracepoint_id(t->ps->ctx, sys, name);
	struct xpe_event *ev;
	int n;

	if (id < 0)
		return 0; /* raced with removal, or no permission: skip like perf */
	n = snprintf(buf, sizeof(buf), "%s:%s%s%.*s", sys, name, t->modn ? ":" : "",
		     (int)t->modn, t->mods);
	ev = new_event(t->ps, XPE_KIND_TRACEPOINT, buf, (size_t)n < sizeof(buf) ? (size_t)n :
			sizeof(buf) - 1);
	if (!ev) {
		t->ret = -ENOMEM;
		return 1;
	}
	ev->attr.type = PERF_TYPE_TRACEPOINT;
	ev->attr.config = (uint64_t)id;
	ev->attr.sample_period = 1; /* weak default, as perf */
	t->n++;
	return 0;
}

static int not_found(struct parser *ps, const char *name, size_t n);

/* subsys:name[:mods], either part may be a glob */
static int parse_tracepoint(struct parser *ps, const char *tok, size_t n)
{
	char sys[256], name[256];
	const char *c1 = memchr(tok, ':', n), *c2, *end = tok + n;
	struct tp_add t = { .ps = ps };
	size_t from = ps->evl->nr;
	int ret;

	c2 = memchr(c1 + 1, ':', (size_t)(end - c1 - 1));
	if ((size_t)(c1 - tok) >= sizeof(sys) || (size_t)((c2 ? c2 : end) - c1 - 1) >= sizeof(name))
		return xb_error_set(ps->err, -EINVAL, "tracepoint name too long in '%s'", ps->str);
	memcpy(sys, tok, (size_t)(c1 - tok));
	sys[c1 - tok] = '\0';
	memcpy(name, c1 + 1, (size_t)((c2 ? c2 : end) - c1 - 1));
	name[(c2 ? c2 : end) - c1 - 1] = '\0';
	if (c2) {
		t.mods = c2 + 1;
		t.modn = (size_t)(end - c2 - 1);
	}
	if (!sys[0] || !name[0])
		return not_found(ps, tok, n);
	if (!xpe_ctx_tracefs(ps->ctx))
		return xb_error_set(ps->err, -ENOENT, "event '%.*s' not found: tracefs is not "
				     "mounted (mount -t tracefs nodev /sys/kernel/tracing)",
				     (int)n, tok);
	ret = xpe_tracepoint_for_each(ps->ctx, sys, name, tp_add_one, &t);
	if (t.ret)
		return xb_error_set(ps->err, t.ret, "out of memory");
	if (ret < 0 || t.n == 0)
		return not_found(ps, tok, (size_t)((c2 ? c2 : end) - tok));
	return mods_apply_range(ps, from, t.mods, t.modn, false);
}

/* A bare name that is a sysfs alias on some PMUs ("tsc"): one event per such PMU. */
static int parse_bare_alias(struct parser *ps, const char *name, const char *tok, size_t n)
{
	size_t from = ps->evl->nr;
	int i, ret;

	if (xpe_pmu_load_all(ps->ctx))
		return 0;
	for (i = 0; i < xpe_ctx_nr_pmus(ps->ctx); i++) {
		struct xpe_pmu *pmu = xpe_ctx_pmu(ps->ctx, i);
		int j;

		for (j = 0; j < pmu->nr_aliases; j++)
			if (!strcmp(pmu->aliases[j].name, name))
				break;
		if (j == pmu->nr_aliases)
			continue;
		ret = add_pmu_event(ps, pmu, tok, n, name);
		if (ret)
			return ret;
	}
	return (int)(ps->evl->nr - from);
}

/* symbol, cache, raw, bare alias, or tracepoint (anything with a ':' in its name) */
static int parse_named(struct parser *ps)
{
	const char *tok = ps->p, *s = ps->p, *colon, *mods = NULL;
	size_t n, name_len, modn = 0, from = ps->evl->nr;
	const struct xpe_symbol *sym;
	struct xpe_event *ev;
	char name[256];
	uint64_t config;
	int ret;

	while (*s && *s != ',' && *s != '}' && *s != '{')
		s++;
	n = (size_t)(s - tok);
	while (n && isspace((unsigned char)tok[n - 1]))
		n--;
	if (!n)
		return xb_error_set(ps->err, -EINVAL, "empty event in '%s'", ps->str);
	ps->p = s;
	colon = memchr(tok, ':', n);
	name_len = colon ? (size_t)(colon - tok) : n;
	if (name_len >= sizeof(name))
		return xb_error_set(ps->err, -EINVAL, "event name too long in '%s'", ps->str);
	memcpy(name, tok, name_len);
	name[name_len] = '\0';
	if (colon) {
		mods = colon + 1;
		modn = n - name_len - 1;
	}

	sym = xpe_symbol_find(name);
	if (sym || !xpe_cache_parse(name, &config) || is_raw(name, name_len, &config)) {
		/* a tracepoint subsystem can look like nothing else; a symbol wins */
		ev = new_event(ps, XPE_KIND_SW, tok, n);
		if (!ev)
			return -ENOMEM;
		if (sym) {
			ev->kind = sym->type == PERF_TYPE_HARDWARE ? XPE_KIND_HW : XPE_KIND_SW;
			ev->attr.type = sym->type;
			ev->attr.config = sym->config;
		} else if (!xpe_cache_parse(name, &config)) {
			ev->kind = XPE_KIND_CACHE;
			ev->attr.type = PERF_TYPE_HW_CACHE;
			ev->attr.config = config;
		} else {
			is_raw(name, name_len, &config);
			ev->kind = XPE_KIND_RAW;
			ev->attr.type = PERF_TYPE_RAW;
			ev->attr.config = config;
		}
		if (modn && modn == strspn(mods, "ukhGHpPSDIWeb"))
			return mods_apply_range(ps, from, mods, modn, false);
		if (colon)
			return mods_error(ps, mods, modn);
		return 0;
	}
	if (colon)
		return parse_tracepoint(ps, tok, n);
	ret = parse_bare_alias(ps, name, tok, n);
	if (ret < 0)
		return ret;
	if (ret > 0)
		return 0;
	return not_found(ps, tok, n);
}

/* ---- suggestions -------------------------------------------------------------------- */

struct suggest {
	const char *want;
	int best;
	char names[3][128];
	int nr;
};

static int suggest_cb(const struct xpe_name *nm, void *arg)
{
	struct suggest *sg = arg;
	const char *cands[2] = { nm->name, nm->alias };
	int i;

	for (i = 0; i < 2; i++) {
		int d;

		if (!cands[i])
			continue;
		d = (int)xb_edit_distance(sg->want, cands[i]);
		if (d < sg->best) {
			sg->best = d;
			sg->nr = 0;
		}
		if (d == sg->best && sg->nr < 3)
			snprintf(sg->names[sg->nr++], sizeof(sg->names[0]), "%s", cands[i]);
	}
	return 0;
}

static int not_found(struct parser *ps, const char *name, size_t n)
{
	struct suggest sg = { .best = 1 << 30 };
	char want[256], hint[512] = "";
	unsigned kinds = ~0u & ~(1u << XPE_KIND_RAW) & ~(1u << XPE_KIND_BREAKPOINT);
	int limit, i, off = 0;

	snprintf(want, sizeof(want), "%.*s", (int)n, name);
	sg.want = want;
	/* tracepoints only when the name looks like one: thousands of names otherwise */
	if (!memchr(name, ':', n))
		kinds &= ~(1u << XPE_KIND_TRACEPOINT);
	xpe_ctx_for_each_name(ps->ctx, kinds, suggest_cb, &sg);
	limit = (int)strlen(want) / 3 > 2 ? (int)strlen(want) / 3 : 2;
	if (sg.nr && sg.best <= limit) {
		off = snprintf(hint, sizeof(hint), ", did you mean ");
		for (i = 0; i < sg.nr && off < (int)sizeof(hint); i++)
			off += snprintf(hint + off, sizeof(hint) - off, "%s'%s'",
					i == 0 ? "" : i == sg.nr - 1 ? " or " : ", ", sg.names[i]);
		if (off < (int)sizeof(hint))
			snprintf(hint + off, sizeof(hint) - off, "?");
	}
	xb_error_set(ps->err, -ENOENT, "event '%s' not found%s", want, hint);
	return -ENOENT;
}

/* ---- lists and groups --------------------------------------------------------------- */

static int parse_event(struct parser *ps)
{
	const char *s;
	size_t n = 0;

	while (isspace((unsigned char)*ps->p))
		ps->p++;
	s = ps->p;
	if (!strncmp(s, "mem:", 4))
		return parse_breakpoint(ps);
	while (is_name_char((unsigned char)s[n]))
		n++;
	if (n && s[n] == '/')
		return parse_pmu(ps, n);
	return parse_named(ps);
}

static int parse_group(struct parser *ps)
{
	size_t from = ps->evl->nr, i;
	const char *mods;
	int ret;

	ps->p++; /* '{' */
	for (;;) {
		if (*ps->p == '{')
			return xb_error_set(ps->err, -EINVAL, "nested groups in '%s'", ps->str);
		ret = parse_event(ps);
		if (ret)
			return ret;
		if (*ps->p == ',') {
			ps->p++;
			continue;
		}
		if (*ps->p == '}')
			break;
		return xb_error_set(ps->err, -EINVAL, "missing '}' in '%s'", ps->str);
	}
	ps->p++;
	for (i = from; i < ps->evl->nr; i++) {
		struct xpe_event *ev = ps->evl->ev[i];

		ev->leader = (int)from;
		ev->group_idx = (int)(i - from);
		ev->group_size = (int)(ps->evl->nr - from);
		if (i != from) { /* only a leader is pinned or exclusive */
			ev->attr.pinned = 0;
			ev->attr.exclusive = 0;
			ev->pinned = 0;
		}
	}
	if (*ps->p == ':') {
		mods = ++ps->p;
		while (is_mod_char(*ps->p))
			ps->p++;
		ret = mods_apply_range(ps, from, mods, (size_t)(ps->p - mods), true);
		if (ret)
			return ret;
	}
	return 0;
}

int xpe_evlist_parse(xpe_evlist *evl, xpe_ctx *ctx, const char *str, struct xb_error *err)
{
	struct parser ps = { .evl = evl, .ctx = ctx, .str = str, .p = str, .err = err };
	size_t before = evl->nr;
	int ret = 0;

	xb_error_clear(err);
	if (!*str)
		ret = xb_error_set(err, -EINVAL, "empty event list");
	while (!ret) {
		ret = *ps.p == '{' ? parse_group(&ps) : parse_event(&ps);
		if (ret)
			break;
		while (isspace((unsigned char)*ps.p))
			ps.p++;
		if (*ps.p == ',' && ps.p[1]) {
			ps.p++;
			continue;
		}
		if (*ps.p)
			ret = xb_error_set(err, -EINVAL, "unexpected '%c' at offset %d of '%s'",
					    *ps.p, (int)(ps.p - str), str);
		break;
	}
	if (ret) {
		if (err && !err->msg[0])
			xb_error_set(err, ret, "cannot parse '%s'", str);
		xpe_evlist_truncate(evl, before);
	}
	return ret;
}
