/* The speedscope export's writer: speedscope's file format (file-format-schema.json) as JSON. */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "base/array.h"
#include "base/json.h"
#include "report/speedscope/ss_int.h"

#define SCHEMA "https://www.speedscope.app/file-format-schema.json"

static void json_cstr(FILE *out, const char *s)
{
	xb_json_str(out, s, strlen(s));
}

/*
 * Number the frames the written streams use, in the order first met (a node's frames are
 * numbered once, whoever reaches it first): the file holds those alone, not the frames
 * of events it leaves out. Their ids into order[], *nr of them. 0 or -ENOMEM.
 */
static int number_frames(struct ss *s, const uint32_t *st, uint32_t n, uint32_t *order,
			 uint32_t *nr)
{
	uint32_t nodes = xpp_cg_nr_nodes(s->stacks);
	uint8_t *seen = calloc(nodes ? nodes : 1, 1);

	if (!seen)
		return -ENOMEM;
	*nr = 0;
	for (uint32_t i = 0; i < s->nr_frames; i++)
		s->frames[i].out = 0;
	for (uint32_t i = 0; i < n; i++) {
		const struct ss_stream *t = &s->st[st[i]];

		for (uint32_t j = 0; j < t->nr; j++)
			for (uint32_t id = t->node[j]; id && !seen[id];
			     id = xpp_cg_parent(s->stacks, id)) {
				struct ss_frame *f = &s->frames[xpp_cg_key(s->stacks, id)];

				seen[id] = 1;
				if (!f->out) {
					order[(*nr)++] = (uint32_t)(f - s->frames);
					f->out = *nr;
				}
			}
	}
	free(seen);
	return 0;
}

/* One shared frame: its name, and where its function is (source file:line, else object). */
static void write_frame(struct ss *s, FILE *out, const struct ss_frame *f)
{
	const struct xpp_dso *d = f->dso == XPP_HIST_NO_DSO ? NULL :
				  xpp_dso_table_get(xpp_profile_dsos(s->p), f->dso);
	const char *line = NULL, *colon = NULL;
	size_t len;
	const char *name = ss_frame_name(s, f, &len);

	fputs("{\"name\":", out);
	xb_json_str(out, name, len);
	/* the line of the function's first instruction: its definition, as speedscope
	 * shows a frame's file:line (-EOPNOTSUPP without libdw: the object alone) */
	if (d && f->sym >= 0 && f->sym < (int32_t)d->syms.nr &&
	    xpp_profile_srcline_at(s->p, f->dso, d->syms.syms[f->sym].start, &line) > 0)
		colon = strrchr(line, ':');
	if (colon && colon > line && colon[1] >= '1' && colon[1] <= '9') {
		fputs(",\"file\":", out);
		xb_json_str(out, line, (size_t)(colon - line));
		fprintf(out, ",\"line\":%lu", strtoul(colon + 1, NULL, 10));
	} else if (d) {
		/* no source line: the object, by its path (the kernel's map by its short name) */
		fputs(",\"file\":", out);
		json_cstr(out, d->kind == XPP_DSO_USER ? d->long_name : d->short_name);
	}
	fputc('}', out);
}

/* One stream as a sampled profile: its runs' stacks by frame number, and their weights. */
static int write_stream(struct ss *s, FILE *out, const struct ss_stream *t, const char *name,
			const char *unit)
{
	fputs("{\"type\":\"sampled\",\"name\":", out);
	json_cstr(out, name);
	fputs(",\"unit\":", out);
	json_cstr(out, unit);
	fprintf(out, ",\"startValue\":0,\"endValue\":%" PRIu64 ",\n\"samples\":[", t->total);
	for (uint32_t j = 0; j < t->nr; j++) {
		uint32_t depth;

		while (!(depth = xpp_cg_path(s->stacks, t->node[j], s->path, s->cap_path)))
			if (XB_ARRAY_RESERVE(s->path, s->cap_path, (size_t)s->cap_path * 2 + 64, 64))
				return -ENOMEM;
		fputs(j ? ",\n[" : "\n[", out);
		for (uint32_t i = 0; i < depth; i++)
			fprintf(out, i ? ",%" PRIu32 : "%" PRIu32, s->frames[s->path[i]].out - 1);
		fputc(']', out);
	}
	fputs("],\n\"weights\":[", out);
	for (uint32_t j = 0; j < t->nr; j++)
		fprintf(out, j ? ",%" PRIu64 : "%" PRIu64, t->weight[j]);
	fputs("]}", out);
	return 0;
}

int ss_write(struct ss *s, FILE *out, const char *name, const uint32_t *st, uint32_t n,
	     char *const *names, const char *const *units)
{
	uint32_t *order = malloc((s->nr_frames ? s->nr_frames : 1) * sizeof(*order)), nr;
	int ret = -ENOMEM;

	if (!order || number_frames(s, st, n, order, &nr) < 0)
		goto out;
	fputs("{\"$schema\":\"" SCHEMA "\",\n\"exporter\":\"xperf report\",\"name\":", out);
	json_cstr(out, name);
	fputs(",\"activeProfileIndex\":0,\n\"shared\":{\"frames\":[", out);
	for (uint32_t i = 0; i < nr; i++) {
		fputs(i ? ",\n" : "\n", out);
		write_frame(s, out, &s->frames[order[i]]);
	}
	fputs("]},\n\"profiles\":[", out);
	for (uint32_t i = 0; i < n; i++) {
		fputs(i ? ",\n" : "\n", out);
		if ((ret = write_stream(s, out, &s->st[st[i]], names[i], units[i])) < 0)
			goto out;
	}
	fputs("]}\n", out);
	ret = ferror(out) ? -EIO : 0;
out:
	free(order);
	return ret;
}
