/* xperf report --pprof: the call trees as pprof's profile.proto (libprotobuf-c), gzip-compressed (zlib). */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
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

/*
 * The Profile is written as it is made, never held whole: each Sample, Location and
 * Function is packed as soon as it exists and written as one occurrence of its repeated
 * Profile field (tag, length, bytes) into the gzip stream, as protobuf allows: a reader
 * appends every occurrence of a repeated field, whatever comes between them. What grows
 * to the end or is known only then (the mappings' memory_limit, the string table, the
 * sample types, the period) follows the samples. Held as protobuf-c objects, a million
 * samples of distinct addresses took 3.8 GiB (issue 20).
 */
enum { F_SAMPLE = 2, F_LOCATION = 4, F_FUNCTION = 5, F_STRING = 6 }; /* Profile's fields */
#define WIRE_LEN 2                 /* protobuf's wire type of a length-delimited field */
#define OUT_FLUSH (256u << 10)     /* bytes gathered per gzwrite() */

/* The gzip stream, written through a buffer (gzwrite() per field would cost a call each). */
struct out {
	gzFile gz;
	uint8_t *buf;
	size_t n, cap;
	bool failed;               /* a gzwrite() failed: the file is lost */
	int write_errno;           /* why, where the system said */
	char *tmp;                 /* the file written, renamed to the path once whole; NULL:
				      the path itself (stdout, a device, a link) */
};

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
	struct out out;
	xpp_intern *strs;          /* the string table, ids as written */
	xpp_intern *fn_keys;       /* "name\1file" -> function id - 1 */
	int64_t comm_str;          /* the string id of "comm", -1 until the first sample */
	/*
	 * Locations already written, by what makes them: a frame alone (no inline frames,
	 * the common case) by its frame id, 0 where none is yet; an inline group
	 * "frame,frame,..." or a flat entry "h..." by its interned key.
	 */
	uint32_t *loc_of_frame;
	size_t frame_cap;
	xpp_intern *loc_keys;      /* key -> index in loc_of_key */
	uint32_t *loc_of_key;
	size_t nr_keyed, keyed_cap;
	uint32_t nr_locations, nr_functions;
	struct vec mappings;       /* written at the end: their memory_limit grows */
	uint64_t *str_samples;     /* per string id: the samples of the command so named */
	size_t str_samples_cap;
	uint32_t *map_of_dso;      /* dso id -> mapping id (0: none yet) */
	uint32_t nr_dsos;
	uint32_t ev_lo;            /* the first event written (--event: the only one) */
	uint32_t nr_types;         /* 2 per event written */
	/* reused by each Sample and Location as it is packed */
	uint64_t *loc_ids;
	size_t loc_ids_cap;
	int64_t *vals;
	Line *lines, **line_ptrs;
	size_t lines_cap;
};

static int out_flush(struct out *o)
{
	if (o->n && !o->failed && gzwrite(o->gz, o->buf, (unsigned int)o->n) != (int)o->n) {
		o->failed = true;
		o->write_errno = errno;
	}
	o->n = 0;
	return o->failed ? -EIO : 0;
}

/* Room for len more bytes at o->buf + o->n (one message may be larger than OUT_FLUSH). */
static int out_room(struct out *o, size_t len)
{
	if (o->n + len > OUT_FLUSH && out_flush(o) < 0)
		return -EIO;
	/* a buffer even for 0 bytes: o->buf + o->n must point somewhere (a profile of no
	   samples, types or mappings packs an empty tail) */
	if (XB_ARRAY_RESERVE(o->buf, o->cap, o->n + len + 1, OUT_FLUSH))
		return -ENOMEM;
	return 0;
}

static size_t put_varint(uint8_t *at, uint64_t v)
{
	size_t n = 0;

	for (; v >= 0x80; v >>= 7)
		at[n++] = (uint8_t)(v | 0x80);
	at[n++] = (uint8_t)v;
	return n;
}

/* One occurrence of the Profile's field `field` (below 16: a one-byte tag), len bytes. */
static int put_field(struct out *o, unsigned int field, size_t len, uint8_t **at)
{
	int ret = out_room(o, 1 + 10 + len);

	if (ret < 0)
		return ret;
	*at = o->buf + o->n;
	*(*at)++ = (uint8_t)(field << 3 | WIRE_LEN);
	*at += put_varint(*at, len);
	o->n = (size_t)(*at - o->buf) + len;
	return 0;
}

/* Message m as one element of the Profile's repeated message field `field`. */
static int emit(struct pp *pp, unsigned int field, const ProtobufCMessage *m)
{
	size_t len = protobuf_c_message_get_packed_size(m);
	uint8_t *at;
	int ret = put_field(&pp->out, field, len, &at);

	if (ret == 0)
		protobuf_c_message_pack(m, at);
	return ret;
}

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
	if (m->filename < 0 || m->build_id < 0 || vec_push(&pp->mappings, m) < 0) {
		free(m); /* not in the list that frees the others */
		return -ENOMEM;
	}
	pp->map_of_dso[dso] = (uint32_t)m->id;
	return (int64_t)m->id;
}

/* A frame's function (name and source file, written where new) and line, into *l. */
static int line_of(struct pp *pp, const struct xpp_hist_key *kp, Line *l)
{
	struct xpp_hist_key k = *kp;
	const char *name = xpp_profile_sym_name(pp->p, &k);
	const char *src = xpp_profile_srcline(pp->p, &k, false);
	char key[2048];
	const char *colon = NULL;
	int64_t id, line = 0;
	size_t flen = 0;

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
	if ((size_t)id == pp->nr_functions) {
		Function fn;
		char file[1024];
		int ret;

		perftools__profiles__function__init(&fn);
		fn.id = (uint64_t)id + 1;
		fn.name = fn.system_name = str(pp, name);
		snprintf(file, sizeof(file), "%.*s", (int)flen, src ? src : "");
		fn.filename = str(pp, file);
		if (fn.name < 0 || fn.filename < 0)
			return -ENOMEM;
		if ((ret = emit(pp, F_FUNCTION, &fn.base)) < 0)
			return ret;
		pp->nr_functions++;
	}
	perftools__profiles__line__init(l);
	l->function_id = (uint64_t)id + 1;
	l->line = line;
	return 0;
}

/* The next location id: frames k[0..n) (inline frames, then the function they are in), written. */
static int64_t new_location(struct pp *pp, const struct xpp_hist_key *k, uint32_t n)
{
	const struct xpp_hist_key *host = &k[n - 1];
	Location loc;
	int ret;

	/* ids are held as uint32_t: 4 billion locations are beyond any file's means */
	if (pp->nr_locations == UINT32_MAX)
		return -ENOMEM;
	perftools__profiles__location__init(&loc);
	loc.id = ++pp->nr_locations;
	loc.address = host->addr;
	if (host->dso != XPP_HIST_NO_DSO) {
		const struct xpp_dso *d = xpp_dso_table_get(xpp_profile_dsos(pp->p), host->dso);
		int64_t m;

		if (host->sym >= 0)
			loc.address = d->syms.syms[host->sym].start;
		if ((m = mapping_of(pp, host->dso, loc.address)) < 0)
			return m;
		loc.mapping_id = (uint64_t)m;
	}
	if (n > pp->lines_cap) {
		size_t cap = pp->lines_cap;

		if (XB_ARRAY_RESERVE(pp->lines, cap, n, 8) ||
		    XB_ARRAY_RESERVE(pp->line_ptrs, pp->lines_cap, n, 8))
			return -ENOMEM;
	}
	for (uint32_t i = 0; i < n; i++) {
		if ((ret = line_of(pp, &k[i], &pp->lines[i])) < 0)
			return ret;
		pp->line_ptrs[i] = &pp->lines[i];
	}
	loc.n_line = n;
	loc.line = pp->line_ptrs;
	ret = emit(pp, F_LOCATION, &loc.base);
	return ret < 0 ? ret : (int64_t)loc.id;
}

/* The location of frames k[0..n) found again by `key` (len bytes), written where new. */
static int64_t keyed_location(struct pp *pp, const char *key, size_t len,
			      const struct xpp_hist_key *k, uint32_t n)
{
	int64_t id = xpp_intern_id(pp->loc_keys, key, len), loc;

	if (id < 0 || (size_t)id < pp->nr_keyed)
		return id < 0 ? id : pp->loc_of_key[id];
	if (XB_ARRAY_RESERVE(pp->loc_of_key, pp->keyed_cap, pp->nr_keyed + 1, 64))
		return -ENOMEM;
	if ((loc = new_location(pp, k, n)) >= 0)
		pp->loc_of_key[pp->nr_keyed++] = (uint32_t)loc;
	return loc;
}

/* The location of call-tree frames f[0..n) (inline frames, then their host) of command comm. */
static int64_t frames_location(struct pp *pp, uint32_t comm, const uint32_t *f, uint32_t n)
{
	struct xpp_hist_key small[8], *k;
	char *key, *at;
	int64_t ret = -ENOMEM;

	if (n == 1) {
		if (f[0] >= pp->frame_cap &&
		    XB_ARRAY_RESERVE0(pp->loc_of_frame, pp->frame_cap, (size_t)f[0] + 1, 1024))
			return -ENOMEM;
		if (!pp->loc_of_frame[f[0]]) {
			small[0] = xpp_profile_frame_key(pp->p, comm, f[0]);
			if ((ret = new_location(pp, small, 1)) < 0)
				return ret;
			pp->loc_of_frame[f[0]] = (uint32_t)ret;
		}
		return pp->loc_of_frame[f[0]];
	}
	k = n <= 8 ? small : malloc(n * sizeof(*k));
	at = key = malloc((size_t)n * 11 + 1);
	if (k && key) {
		for (uint32_t i = 0; i < n; i++) {
			k[i] = xpp_profile_frame_key(pp->p, comm, f[i]);
			at += sprintf(at, "%u,", f[i]);
		}
		ret = keyed_location(pp, key, (size_t)(at - key), k, n);
	}
	if (k != small)
		free(k);
	free(key);
	return ret;
}

/*
 * Sample of command comm, its n locations in pp->loc_ids, its values for event ev, written.
 * Its label's strings are interned before its locations' are (string ids as they were).
 */
static int sample_label(struct pp *pp, uint32_t comm, Label *l)
{
	perftools__profiles__label__init(l);
	if (pp->comm_str < 0)
		pp->comm_str = str(pp, "comm");
	l->key = pp->comm_str;
	l->str = str(pp, xpp_intern_str(xpp_profile_comms(pp->p), comm));
	return l->key < 0 || l->str < 0 ? -ENOMEM : 0;
}

static int write_sample(struct pp *pp, Label *label, size_t n, uint32_t ev, uint64_t count,
			uint64_t period)
{
	Sample s;
	int ret;

	/* the command with the most samples names the program (main_mapping()) */
	if ((size_t)label->str >= pp->str_samples_cap &&
	    XB_ARRAY_RESERVE0(pp->str_samples, pp->str_samples_cap, (size_t)label->str + 1, 64))
		return -ENOMEM;
	pp->str_samples[label->str] += count;
	perftools__profiles__sample__init(&s);
	s.n_location_id = n;
	s.location_id = pp->loc_ids;
	s.n_value = pp->nr_types;
	s.value = pp->vals;
	s.value[2 * (ev - pp->ev_lo)] = (int64_t)count;
	s.value[2 * (ev - pp->ev_lo) + 1] = (int64_t)period;
	s.n_label = 1;
	s.label = &label;
	ret = emit(pp, F_SAMPLE, &s.base);
	s.value[2 * (ev - pp->ev_lo)] = s.value[2 * (ev - pp->ev_lo) + 1] = 0;
	return ret;
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
		size_t n = 0;
		Label label;

		if (!xpp_cg_self(cg, id, &period, &count) || !count)
			continue;
		for (uint32_t at = id; at; at = xpp_cg_parent(cg, at)) {
			if (XB_ARRAY_RESERVE(path, cap, (size_t)depth + 1, 64))
				return free(path), -ENOMEM;
			path[depth++] = xpp_cg_key(cg, at);
		}
		comm = path[--depth];
		if ((ret = sample_label(pp, comm, &label)) < 0 ||
		    XB_ARRAY_RESERVE(pp->loc_ids, pp->loc_ids_cap, depth ? depth : 1, 64)) {
			ret = ret < 0 ? ret : -ENOMEM;
			break;
		}
		/* path[0..depth) is innermost first: group inline frames with their host */
		for (i = 0; i < depth && !ret; i = g) {
			int64_t loc;

			for (g = i; g + 1 < depth && xpp_profile_frame_rec(pp->p, path[g])->inl; g++)
				;
			g++;
			if ((loc = frames_location(pp, comm, path + i, g - i)) < 0)
				ret = (int)loc;
			else
				pp->loc_ids[n++] = (uint64_t)loc;
		}
		if (!ret)
			ret = write_sample(pp, &label, n, ev, count, period);
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

	if (XB_ARRAY_RESERVE(pp->loc_ids, pp->loc_ids_cap, 1, 64))
		return -ENOMEM;
	for (size_t i = 0; i < n; i++) {
		struct xpp_hist_key kv = xpp_hist_key_at(h, i), *k = &kv;
		char key[96];
		int len, ret;
		int64_t loc;
		Label label;

		if (!e[i].nr_samples)
			continue;
		/* 'h': apart from the tree's frame ids, which a file never mixes with these */
		len = snprintf(key, sizeof(key), "h%u,%d,%" PRIx64 ",%u", k->dso, k->sym,
			       k->sym >= 0 ? 0 : k->addr, k->srcline);
		if ((ret = sample_label(pp, k->comm, &label)) < 0)
			return ret;
		if ((loc = keyed_location(pp, key, (size_t)len, k, 1)) < 0)
			return (int)loc;
		pp->loc_ids[0] = (uint64_t)loc;
		if ((ret = write_sample(pp, &label, 1, ev, e[i].nr_samples, e[i].period)) < 0)
			return ret;
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

/*
 * zlib's fastest level, as Go's runtime/pprof writes its own profiles: the default level
 * spent 4x the time on a file 12% smaller, half the export of a million unresolved
 * samples (issue 20).
 */
static int open_gz(struct out *o, const char *path, struct xb_error *err)
{
	struct stat st;
	int fd = -1;

	/*
	 * A regular file (or a new one) is written beside it and renamed over it once whole:
	 * the profile is written as it is made, so a failure halfway (no memory, a full disk)
	 * would otherwise leave a cut file, valid gzip of well-formed messages, in place of
	 * the old one. Anything else (stdout, a device, a link) is written in place.
	 */
	if (strcmp(path, "-") && (lstat(path, &st) ? errno == ENOENT : S_ISREG(st.st_mode)) &&
	    asprintf(&o->tmp, "%s.XXXXXX", path) >= 0) {
		mode_t mask = umask(0);

		umask(mask);
		if ((fd = mkstemp(o->tmp)) < 0 || fchmod(fd, 0666 & ~mask)) {
			if (fd >= 0)
				close(fd), unlink(o->tmp);
			fd = -1;
			free(o->tmp);
			o->tmp = NULL; /* e.g. no room to write in the directory: in place */
		}
	}
	if (fd >= 0) {
		if (!(o->gz = gzdopen(fd, "wb1")))
			close(fd), unlink(o->tmp);
	} else if (strcmp(path, "-")) {
		o->gz = gzopen(path, "wb1");
	} else if ((fd = dup(STDOUT_FILENO)) >= 0 && !(o->gz = gzdopen(fd, "wb1"))) {
		close(fd);
	}
	if (!o->gz) {
		int e = errno ? errno : ENOMEM;

		free(o->tmp);
		o->tmp = NULL;
		return xb_error_set(err, -e, "cannot create '%s': %s", path, strerror(e));
	}
	return 0;
}

/*
 * Writes what is left and closes the file, renamed over the path when whole, removed
 * when not: ret, or -EIO where a write failed.
 */
static int close_gz(struct out *o, const char *path, int ret, struct xb_error *err)
{
	if (!o->gz)
		return ret;
	if (ret == 0)
		out_flush(o);
	if (gzclose(o->gz) != Z_OK && !o->failed) {
		o->failed = true;
		o->write_errno = errno;
	}
	o->gz = NULL;
	if (o->tmp) {
		if (ret == 0 && !o->failed && rename(o->tmp, path)) {
			o->failed = true;
			o->write_errno = errno;
		}
		if (ret < 0 || o->failed)
			unlink(o->tmp);
		free(o->tmp);
		o->tmp = NULL;
	}
	if (o->failed && (ret == 0 || ret == -EIO))
		return xb_error_set(err, -EIO, "cannot write '%s': %s", path,
				    strerror(o->write_errno ? o->write_errno : EIO));
	return ret;
}

/*
 * What follows the samples, as one more piece of the Profile: the sample types, the
 * mappings, the period and duration (protobuf-c packs them), then the string table.
 */
/*
 * The mapping of the program: the file named as the command with the most samples (a
 * command name is the file's, cut at 15 characters), or 0, the first made. pprof calls
 * the first mapping the main binary ("File:" above its reports), whose id it may have any.
 */
static size_t main_mapping(const struct pp *pp)
{
	size_t top = 0;
	const char *comm;

	for (size_t i = 1; i < pp->str_samples_cap; i++)
		if (pp->str_samples[i] > pp->str_samples[top])
			top = i;
	if (!pp->str_samples_cap || !pp->str_samples[top])
		return 0;
	comm = xpp_intern_str(pp->strs, (uint32_t)top);
	for (size_t i = 0; comm && *comm && i < pp->mappings.n; i++) {
		const Mapping *m = pp->mappings.v[i];
		const char *file = xpp_intern_str(pp->strs, (uint32_t)m->filename);
		const char *base = file ? strrchr(file, '/') : NULL;

		base = base ? base + 1 : file;
		if (base && (strlen(comm) >= 15 ? !strncmp(base, comm, strlen(comm)) :
						  !strcmp(base, comm)))
			return i;
	}
	return 0;
}

static int write_tail(struct pp *pp, Profile *pr)
{
	size_t len, n = xpp_intern_nr(pp->strs), first = main_mapping(pp);
	int ret;

	if (first) { /* the program's mapping first, the others in the order they came */
		void *m = pp->mappings.v[first];

		memmove(pp->mappings.v + 1, pp->mappings.v, first * sizeof(*pp->mappings.v));
		pp->mappings.v[0] = m;
	}
	pr->n_mapping = pp->mappings.n;
	pr->mapping = (Mapping **)pp->mappings.v;
	len = perftools__profiles__profile__get_packed_size(pr);
	if ((ret = out_room(&pp->out, len)) < 0)
		return ret;
	pp->out.n += perftools__profiles__profile__pack(pr, pp->out.buf + pp->out.n);
	for (size_t i = 0; i < n; i++) {
		const char *s = xpp_intern_str(pp->strs, (uint32_t)i);
		uint8_t *at;

		len = strlen(s);
		if ((ret = put_field(&pp->out, F_STRING, len, &at)) < 0)
			return ret;
		memcpy(at, s, len);
	}
	return 0;
}

static void free_all(struct pp *pp, Profile *pr)
{
	for (size_t i = 0; i < pp->mappings.n; i++)
		free(pp->mappings.v[i]);
	free(pp->mappings.v);
	free(pp->str_samples);
	free(pp->map_of_dso);
	free(pp->loc_of_frame);
	free(pp->loc_of_key);
	free(pp->loc_ids);
	free(pp->vals);
	free(pp->lines);
	free(pp->line_ptrs);
	free(pp->out.buf);
	for (size_t i = 0; i < pr->n_sample_type; i++)
		free(pr->sample_type[i]);
	free(pr->sample_type);
	xpp_intern_free(pp->strs);
	xpp_intern_free(pp->fn_keys);
	xpp_intern_free(pp->loc_keys);
}

int report_pprof_write(xpp_profile *p, const char *path, uint32_t only, struct xb_error *err)
{
	xpf_reader *r = xpp_profile_reader(p);
	const struct xpf_features *f = xpf_reader_features(r);
	struct pp pp = { .p = p, .comm_str = -1 };
	Profile pr;
	ValueType period_type;
	const struct xpp_event *ev;
	uint32_t nev, first = UINT32_MAX, hi;
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
	if (!(pr.sample_type = calloc(pp.nr_types ? pp.nr_types : 1, sizeof(*pr.sample_type))) ||
	    !(pp.vals = calloc(pp.nr_types ? pp.nr_types : 1, sizeof(*pp.vals))))
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
	if ((ret = open_gz(&pp.out, path, err)) < 0)
		goto out;
	for (uint32_t e = pp.ev_lo; e < hi && ret == 0; e++) {
		if (ev[e].cg)
			ret = tree_samples(&pp, ev[e].cg, e);
		else if (ev[e].h)
			ret = flat_samples(&pp, ev[e].h, e);
	}
	if (ret < 0)
		goto out;
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
	ret = write_tail(&pp, &pr);
out:
	ret = close_gz(&pp.out, path, ret, err);
	if (ret == -ENOMEM && !err->msg[0])
		xb_error_set(err, ret, "cannot build the pprof profile: %s", strerror(ENOMEM));
	free_all(&pp, &pr);
	return ret;
}
