/* xperf report --pprof: the call trees as pprof's profile.proto (libprotobuf-c), gzip-compressed (zlib). */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "base/array.h"
#include "format/xpf_reader.h"
#include "profile.pb-c.h"
#include "profile/symbols/dso.h"
#include "report/pprof/pprof.h"

typedef Perftools__Profiles__Profile Profile;
typedef Perftools__Profiles__Sample Sample;
typedef Perftools__Profiles__Location Location;
typedef Perftools__Profiles__Line Line;
typedef Perftools__Profiles__Function Function;
typedef Perftools__Profiles__Mapping Mapping;
typedef Perftools__Profiles__ValueType ValueType;
typedef Perftools__Profiles__Label Label;

/* A growable array of pointers (protobuf-c's repeated messages). */
struct vec {
	void **v;
	size_t n, cap;
};

static int vec_push(struct vec *a, void *x)
{
	if (!x)
		return -ENOMEM;
	if (XB_ARRAY_RESERVE(a->v, a->cap, a->n + 1, 64))
		return -ENOMEM;
	a->v[a->n++] = x;
	return 0;
}

struct pp {
	xpp_profile *p;
	xpp_intern *strs;          /* the string table, ids as written */
	xpp_intern *fn_keys;       /* "name\1file" -> function id - 1 */
	xpp_intern *loc_keys;      /* "frame,frame,..." -> location id - 1 */
	struct vec samples, locations, functions, mappings;
	uint32_t *map_of_dso;      /* dso id -> mapping id (0: none yet) */
	uint32_t nr_dsos;
	uint32_t ev_lo;            /* the first event written (--event: the only one) */
	uint32_t nr_types;         /* 2 per event written */
};

static int64_t str(struct pp *pp, const char *s)
{
	return xpp_intern_id(pp->strs, s, strlen(s));
}

static const char *build_id_of(const xpf_reader *r, const char *file, char *hex)
{
	const struct xpf_features *f = xpf_reader_features(r);

	for (uint32_t i = 0; f && i < f->nr_build_ids; i++) {
		const struct xpf_build_id_entry *b = &f->build_ids[i];

		if (b->filename && !strcmp(b->filename, file)) {
			for (uint8_t j = 0; j < b->size && j < 20; j++)
				sprintf(hex + 2 * j, "%02x", b->build_id[j]);
			return hex;
		}
	}
	return "";
}

/* The mapping id of a DSO (created on first use; addresses are DSO addresses). */
static int64_t mapping_of(struct pp *pp, uint32_t dso, uint64_t addr)
{
	xpp_dso_table *t = xpp_profile_dsos(pp->p);
	const struct xpp_dso *d = xpp_dso_table_get(t, dso);
	char hex[41] = "";
	Mapping *m;

	/* by DSO id, 0 where no mapping is made yet */
	if (dso >= pp->nr_dsos &&
	    XB_ARRAY_RESERVE0(pp->map_of_dso, pp->nr_dsos, xpp_dso_table_nr(t), 64))
		return -ENOMEM;
	if (pp->map_of_dso[dso]) {
		m = pp->mappings.v[pp->map_of_dso[dso] - 1];
		if (addr >= m->memory_limit)
			m->memory_limit = addr + 1;
		return pp->map_of_dso[dso];
	}
	if (!(m = malloc(sizeof(*m))))
		return -ENOMEM;
	perftools__profiles__mapping__init(m);
	m->id = pp->mappings.n + 1;
	m->memory_limit = addr + 1;
	m->filename = str(pp, d->kind == XPP_DSO_USER ? d->long_name : d->short_name);
	m->build_id = str(pp, build_id_of(xpp_profile_reader(pp->p), d->long_name, hex));
	m->has_functions = true;
	m->has_filenames = m->has_line_numbers = xpp_profile_srclines(pp->p);
	m->has_inline_frames = xpp_profile_inlines(pp->p);
	if (m->filename < 0 || m->build_id < 0 || vec_push(&pp->mappings, m) < 0)
		return -ENOMEM;
	pp->map_of_dso[dso] = (uint32_t)m->id;
	return (int64_t)m->id;
}

/* A frame's function (name and source file) and line, as a Line. */
static int line_of(struct pp *pp, const struct xpp_hist_key *kp, Line **out)
{
	struct xpp_hist_key k = *kp;
	const char *name = xpp_profile_sym_name(pp->p, &k);
	const char *src = xpp_profile_srcline(pp->p, &k, false);
	char key[2048];
	const char *colon = NULL;
	int64_t id, line = 0;
	size_t flen = 0;
	Line *l;

	if (!name) {
		/* as xperf script --folded names it: the DSO's base name, else [unknown] */
		const struct xpp_dso *d = k.dso == XPP_HIST_NO_DSO ? NULL :
					  xpp_dso_table_get(xpp_profile_dsos(pp->p), k.dso);
		const char *slash = d ? strrchr(d->long_name, '/') : NULL;

		name = !d ? "[unknown]" : slash ? slash + 1 : d->long_name;
	}
	if (src && !(k.srcline & XPP_SRCLINE_FALLBACK) && (colon = strrchr(src, ':'))) {
		line = strtoll(colon + 1, NULL, 10);
		flen = (size_t)(colon - src);
	}
	snprintf(key, sizeof(key), "%s\1%.*s", name, (int)flen, src ? src : "");
	id = xpp_intern_id(pp->fn_keys, key, strlen(key));
	if (id < 0)
		return (int)id;
	if ((size_t)id == pp->functions.n) {
		Function *fn = malloc(sizeof(*fn));
		char file[1024];

		if (!fn)
			return -ENOMEM;
		perftools__profiles__function__init(fn);
		fn->id = (uint64_t)id + 1;
		fn->name = fn->system_name = str(pp, name);
		snprintf(file, sizeof(file), "%.*s", (int)flen, src ? src : "");
		fn->filename = str(pp, file);
		if (fn->name < 0 || fn->filename < 0 || vec_push(&pp->functions, fn) < 0)
			return -ENOMEM;
	}
	if (!(l = malloc(sizeof(*l))))
		return -ENOMEM;
	perftools__profiles__line__init(l);
	l->function_id = (uint64_t)id + 1;
	l->line = line;
	*out = l;
	return 0;
}

/*
 * The location of frames k[0..n) (inline frames, then the function they are in), found
 * again by `id` (len bytes) when another sample holds it too.
 */
static int64_t location_of(struct pp *pp, const char *id_key, size_t len,
			   const struct xpp_hist_key *k, uint32_t n)
{
	const struct xpp_hist_key *host = &k[n - 1];
	int64_t id;
	Location *loc;

	id = xpp_intern_id(pp->loc_keys, id_key, len);
	if (id < 0 || (size_t)id < pp->locations.n)
		return id < 0 ? id : id + 1;
	if (!(loc = calloc(1, sizeof(*loc))))
		return -ENOMEM;
	perftools__profiles__location__init(loc);
	loc->id = (uint64_t)id + 1;
	if (vec_push(&pp->locations, loc) < 0)
		return -ENOMEM;
	loc->address = host->addr;
	if (host->dso != XPP_HIST_NO_DSO) {
		const struct xpp_dso *d = xpp_dso_table_get(xpp_profile_dsos(pp->p), host->dso);
		int64_t m;

		if (host->sym >= 0)
			loc->address = d->syms.syms[host->sym].start;
		if ((m = mapping_of(pp, host->dso, loc->address)) < 0)
			return m;
		loc->mapping_id = (uint64_t)m;
	}
	if (!(loc->line = calloc(n, sizeof(*loc->line))))
		return -ENOMEM;
	for (uint32_t i = 0; i < n; i++) {
		int ret = line_of(pp, &k[i], &loc->line[i]);

		if (ret < 0)
			return ret;
		loc->n_line++;
	}
	return (int64_t)loc->id;
}

/* The location of call-tree frames f[0..n) (inline frames, then their host) of command comm. */
static int64_t frames_location(struct pp *pp, uint32_t comm, const uint32_t *f, uint32_t n)
{
	struct xpp_hist_key small[8], *k = n <= 8 ? small : malloc(n * sizeof(*k));
	char *key = malloc((size_t)n * 11 + 1), *at = key;
	int64_t ret = -ENOMEM;

	if (k && key) {
		for (uint32_t i = 0; i < n; i++) {
			k[i] = xpp_profile_frame_key(pp->p, comm, f[i]);
			at += sprintf(at, "%u,", f[i]);
		}
		ret = location_of(pp, key, (size_t)(at - key), k, n);
	}
	if (k != small)
		free(k);
	free(key);
	return ret;
}

/* A new Sample of command comm with room for n locations, its values set for event ev. */
static Sample *new_sample(struct pp *pp, uint32_t comm, uint32_t n, uint32_t ev,
			  uint64_t count, uint64_t period)
{
	Sample *s = calloc(1, sizeof(*s));

	if (!s || vec_push(&pp->samples, s) < 0)
		return NULL;
	perftools__profiles__sample__init(s);
	s->location_id = calloc(n ? n : 1, sizeof(*s->location_id));
	s->value = calloc(pp->nr_types, sizeof(*s->value));
	s->label = calloc(1, sizeof(*s->label));
	if (!s->location_id || !s->value || !s->label || !(s->label[0] = malloc(sizeof(Label))))
		return NULL;
	s->n_value = pp->nr_types;
	s->value[2 * (ev - pp->ev_lo)] = (int64_t)count;
	s->value[2 * (ev - pp->ev_lo) + 1] = (int64_t)period;
	perftools__profiles__label__init(s->label[0]);
	s->n_label = 1;
	s->label[0]->key = str(pp, "comm");
	s->label[0]->str = str(pp, xpp_intern_str(xpp_profile_comms(pp->p), comm));
	if (s->label[0]->key < 0 || s->label[0]->str < 0)
		return NULL;
	return s;
}

/* One Sample per tree node where samples end: its stack, leaf first, and its values. */
static int tree_samples(struct pp *pp, const xpp_callgraph *cg, uint32_t ev)
{
	uint32_t nr = xpp_cg_nr_nodes(cg), *path = NULL, cap = 0;
	int ret = 0;

	/* the tree read lean (parent, key, own samples), not as full nodes: 56 bytes each
	   of a million paths' nodes (issue 20) */
	for (uint32_t id = 1; id < nr && !ret; id++) {
		uint32_t depth = 0, comm, i, g;
		uint64_t period, count;
		Sample *s;

		if (!xpp_cg_self(cg, id, &period, &count) || !count)
			continue;
		for (uint32_t at = id; at; at = xpp_cg_parent(cg, at)) {
			if (XB_ARRAY_RESERVE(path, cap, (size_t)depth + 1, 64))
				return free(path), -ENOMEM;
			path[depth++] = xpp_cg_key(cg, at);
		}
		comm = path[--depth];
		if (!(s = new_sample(pp, comm, depth, ev, count, period))) {
			ret = -ENOMEM;
			break;
		}
		/* path[0..depth) is innermost first: group inline frames with their host */
		for (i = 0; i < depth && !ret; i = g) {
			int64_t loc;

			for (g = i; g + 1 < depth &&
				    xpp_profile_frame_key(pp->p, comm, path[g]).inl; g++)
				;
			g++;
			if ((loc = frames_location(pp, comm, path + i, g - i)) < 0)
				ret = (int)loc;
			else
				s->location_id[s->n_location_id++] = (uint64_t)loc;
		}
	}
	free(path);
	return ret;
}

/*
 * A file without call chains has no tree: one Sample per entry of the event's flat
 * histogram (command, object, symbol, and line with source lines), its stack the sample's
 * own location, so that pprof counts every sample the report shows.
 */
static int flat_samples(struct pp *pp, const xpp_hist *h, uint32_t ev)
{
	size_t n;
	const struct xpp_hist_rec *e = xpp_hist_recs(h, &n);

	for (size_t i = 0; i < n; i++) {
		struct xpp_hist_key kv = xpp_hist_key_at(h, i), *k = &kv;
		char key[96];
		int len;
		int64_t loc;
		Sample *s;

		if (!e[i].nr_samples)
			continue;
		/* 'h': apart from the tree's frame ids, which a file never mixes with these */
		len = snprintf(key, sizeof(key), "h%u,%d,%" PRIx64 ",%u", k->dso, k->sym,
			       k->sym >= 0 ? 0 : k->addr, k->srcline);
		if (!(s = new_sample(pp, k->comm, 1, ev, e[i].nr_samples, e[i].period)))
			return -ENOMEM;
		if ((loc = location_of(pp, key, (size_t)len, k, 1)) < 0)
			return (int)loc;
		s->location_id[s->n_location_id++] = (uint64_t)loc;
	}
	return 0;
}

static const char *unit_of(const struct xpf_attr *a)
{
	return a->attr.type == PERF_TYPE_SOFTWARE &&
			       (a->attr.config == PERF_COUNT_SW_CPU_CLOCK ||
				a->attr.config == PERF_COUNT_SW_TASK_CLOCK) ?
		       "nanoseconds" : "count";
}

static int write_gz(const char *path, const uint8_t *buf, size_t len, struct xb_error *err)
{
	gzFile gz = strcmp(path, "-") ? gzopen(path, "wb") : gzdopen(dup(STDOUT_FILENO), "wb");
	int ok;

	if (!gz)
		return xb_error_set(err, -errno ? -errno : -ENOMEM, "cannot create '%s': %s",
				     path, strerror(errno ? errno : ENOMEM));
	ok = len == 0 || gzwrite(gz, buf, (unsigned int)len) == (int)len;
	if (gzclose(gz) != Z_OK || !ok)
		return xb_error_set(err, -EIO, "cannot write '%s'", path);
	return 0;
}

static void free_all(struct pp *pp, Profile *pr)
{
	for (size_t i = 0; i < pp->samples.n; i++) {
		Sample *s = pp->samples.v[i];

		if (s->label)
			free(s->label[0]);
		free(s->label);
		free(s->location_id);
		free(s->value);
		free(s);
	}
	for (size_t i = 0; i < pp->locations.n; i++) {
		Location *l = pp->locations.v[i];

		for (size_t j = 0; j < l->n_line; j++)
			free(l->line[j]);
		free(l->line);
		free(l);
	}
	for (size_t i = 0; i < pp->functions.n; i++)
		free(pp->functions.v[i]);
	for (size_t i = 0; i < pp->mappings.n; i++)
		free(pp->mappings.v[i]);
	free(pp->samples.v);
	free(pp->locations.v);
	free(pp->functions.v);
	free(pp->mappings.v);
	free(pp->map_of_dso);
	if (pr) {
		for (size_t i = 0; i < pr->n_sample_type; i++)
			free(pr->sample_type[i]);
		free(pr->sample_type);
		free(pr->string_table);
	}
	xpp_intern_free(pp->strs);
	xpp_intern_free(pp->fn_keys);
	xpp_intern_free(pp->loc_keys);
}

int report_pprof_write(xpp_profile *p, const char *path, uint32_t only, struct xb_error *err)
{
	xpf_reader *r = xpp_profile_reader(p);
	const struct xpf_features *f = xpf_reader_features(r);
	struct pp pp = { .p = p };
	Profile pr;
	ValueType period_type;
	const struct xpp_event *ev;
	uint32_t nev, first = UINT32_MAX, hi;
	uint8_t *buf = NULL;
	size_t len;
	char nbuf[64];
	int ret = -ENOMEM;

	perftools__profiles__profile__init(&pr);
	perftools__profiles__value_type__init(&period_type);
	ev = xpp_profile_events(p, &nev);
	pp.ev_lo = only < nev ? only : 0;
	hi = only < nev ? only + 1 : nev;
	pp.nr_types = 2 * (hi - pp.ev_lo);
	pp.strs = xpp_intern_create();
	pp.fn_keys = xpp_intern_create();
	pp.loc_keys = xpp_intern_create();
	if (!pp.strs || !pp.fn_keys || !pp.loc_keys || str(&pp, "") < 0)
		goto out;
	if (!(pr.sample_type = calloc(pp.nr_types ? pp.nr_types : 1, sizeof(*pr.sample_type))))
		goto out;
	for (uint32_t e = pp.ev_lo; e < hi; e++) {
		const struct xpf_attr *a = xpf_reader_attr(r, e);

		for (int j = 0; j < 2; j++) {
			ValueType *vt = malloc(sizeof(*vt));

			if (!vt)
				goto out;
			perftools__profiles__value_type__init(vt);
			pr.sample_type[pr.n_sample_type++] = vt;
			vt->type = str(&pp, j ? xpf_attr_event_name(a, nbuf, sizeof(nbuf)) : "samples");
			vt->unit = str(&pp, j ? unit_of(a) : "count");
		}
		if (first == UINT32_MAX && ev[e].nr_samples)
			first = e;
	}
	ret = 0;
	for (uint32_t e = pp.ev_lo; e < hi; e++) {
		if (ev[e].cg)
			ret = tree_samples(&pp, ev[e].cg, e);
		else if (ev[e].h)
			ret = flat_samples(&pp, ev[e].h, e);
		if (ret < 0)
			goto out;
	}
	ret = -ENOMEM;
	if (first != UINT32_MAX) {
		const struct xpf_attr *a = xpf_reader_attr(r, first);

		/* pprof shows the default type first: the first event's period */
		pr.default_sample_type = pr.sample_type[2 * (first - pp.ev_lo) + 1]->type;
		period_type.type = pr.sample_type[2 * (first - pp.ev_lo) + 1]->type;
		period_type.unit = pr.sample_type[2 * (first - pp.ev_lo) + 1]->unit;
		pr.period_type = &period_type;
		pr.period = a->attr.freq ? (int64_t)(ev[first].total_period / ev[first].nr_samples) :
					   (int64_t)a->attr.sample_period;
	}
	if (f && xpf_features_has(f, XPF_FEAT_SAMPLE_TIME) &&
	    f->sample_time_last > f->sample_time_first)
		pr.duration_nanos = (int64_t)(f->sample_time_last - f->sample_time_first);
	pr.n_sample = pp.samples.n;
	pr.sample = (Sample **)pp.samples.v;
	pr.n_location = pp.locations.n;
	pr.location = (Location **)pp.locations.v;
	pr.n_function = pp.functions.n;
	pr.function = (Function **)pp.functions.v;
	pr.n_mapping = pp.mappings.n;
	pr.mapping = (Mapping **)pp.mappings.v;
	pr.n_string_table = xpp_intern_nr(pp.strs);
	if (!(pr.string_table = calloc(pr.n_string_table, sizeof(char *))))
		goto out;
	for (size_t i = 0; i < pr.n_string_table; i++)
		pr.string_table[i] = (char *)xpp_intern_str(pp.strs, (uint32_t)i);
	len = perftools__profiles__profile__get_packed_size(&pr);
	if (!(buf = malloc(len ? len : 1)))
		goto out;
	perftools__profiles__profile__pack(&pr, buf);
	ret = write_gz(path, buf, len, err);
out:
	if (ret == -ENOMEM && !err->msg[0])
		xb_error_set(err, ret, "cannot build the pprof profile: %s", strerror(ENOMEM));
	free(buf);
	pr.sample = NULL;
	free_all(&pp, &pr);
	return ret;
}
