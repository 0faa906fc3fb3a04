/* xperf script --folded: "comm;outer;...;inner count" lines from the call trees, for flame graphs. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "base/array.h"
#include "profile/symbols/dso.h"
#include "script/script.h"

struct line {
	char *s;
	uint64_t count;
};

struct lines {
	struct line *v;
	size_t nr, cap;
};

static int cmp_line(const void *a, const void *b)
{
	return strcmp(((const struct line *)a)->s, ((const struct line *)b)->s);
}

/* Growable string for one line. */
struct str {
	char *b;
	size_t n, cap;
};

static int str_add(struct str *s, const char *t, size_t len)
{
	if (XB_ARRAY_RESERVE(s->b, s->cap, s->n + len + 1, 256))
		return -ENOMEM;
	memcpy(s->b + s->n, t, len);
	s->n += len;
	s->b[s->n] = 0;
	return 0;
}

/*
 * A frame as flame-graph collapsers name the lines of perf script: the symbol (an inline
 * frame: the inlined function), else the base name of its DSO, else "[unknown]".
 */
static const char *frame_name(xpp_profile *p, uint32_t comm, uint32_t f)
{
	struct xpp_hist_key k = xpp_profile_frame_key(p, comm, f);
	const char *name = xpp_profile_sym_name(p, &k), *slash;
	const struct xpp_dso *d;

	if (name)
		return name;
	d = k.dso == XPP_HIST_NO_DSO ? NULL : xpp_dso_table_get(xpp_profile_dsos(p), k.dso);
	if (!d)
		return "[unknown]";
	slash = strrchr(d->long_name, '/');
	return slash ? slash + 1 : d->long_name;
}

/* The lines of one tree: one per node where samples end, its path from the comm. */
static int tree_lines(xpp_profile *p, const xpp_callgraph *cg, struct lines *ls)
{
	uint32_t nr = xpp_cg_nr_nodes(cg), *path = NULL, cap = 0;
	const xpp_intern *comms = xpp_profile_comms(p);
	struct str s = { 0 };
	int ret = 0;

	/* the tree read lean (parent, key, own samples), not as full nodes: 56 bytes each
	   of a million paths' nodes (issue 20) */
	for (uint32_t id = 1; id < nr && !ret; id++) {
		uint32_t depth = 0, comm;
		uint64_t count;

		if (!xpp_cg_self(cg, id, NULL, &count) || !count)
			continue;
		for (uint32_t at = id; at && !ret; at = xpp_cg_parent(cg, at)) {
			ret = XB_ARRAY_RESERVE(path, cap, (size_t)depth + 1, 64) ? -ENOMEM : 0;
			if (!ret)
				path[depth++] = xpp_cg_key(cg, at);
		}
		if (ret)
			break;
		/* path[depth - 1] is the comm, the rest frames, innermost first */
		comm = path[depth - 1];
		s.n = 0;
		const char *c = xpp_intern_str(comms, comm);

		ret = str_add(&s, c ? c : ":-1", strlen(c ? c : ":-1"));
		for (uint32_t i = depth - 1; i-- > 0 && !ret;) {
			const char *name = frame_name(p, comm, path[i]);

			ret = str_add(&s, ";", 1);
			if (!ret)
				ret = str_add(&s, name, strlen(name));
		}
		if (ret)
			break;
		if (XB_ARRAY_RESERVE(ls->v, ls->cap, ls->nr + 1, 1024)) {
			ret = -ENOMEM;
			break;
		}
		if (!(ls->v[ls->nr].s = strdup(s.b))) {
			ret = -ENOMEM;
			break;
		}
		ls->v[ls->nr++].count = count;
	}
	free(s.b);
	free(path);
	return ret;
}

int script_print_folded(xpp_profile *p, struct out *out)
{
	const struct xpp_event *ev;
	struct lines ls = { 0 };
	uint32_t nr;
	int ret = 0;

	ev = xpp_profile_events(p, &nr);
	for (uint32_t e = 0; e < nr && !ret; e++)
		if (ev[e].cg)
			ret = tree_lines(p, ev[e].cg, &ls);
	if (!ret) {
		if (ls.nr) /* a file without call chains has no lines: ls.v is NULL */
			qsort(ls.v, ls.nr, sizeof(*ls.v), cmp_line);
		/* frames that print alike (two unknown addresses of one DSO) are one stack */
		for (size_t i = 0; i < ls.nr;) {
			uint64_t count = 0;
			size_t j = i;

			for (; j < ls.nr && !strcmp(ls.v[j].s, ls.v[i].s); j++)
				count += ls.v[j].count;
			out_str(out, ls.v[i].s);
			out_chr(out, ' ');
			out_udec(out, count, 0);
			out_chr(out, '\n');
			i = j;
		}
	}
	for (size_t i = 0; i < ls.nr; i++)
		free(ls.v[i].s);
	free(ls.v);
	return ret ? ret : out->err ? -out->err : 0;
}
