/* The flame graph as SVG: boxes laid out from the tree, titles to hover, a few lines of script to zoom. */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "base/hash.h"
#include "view/flame.h"

#define WIDTH 1200
#define PAD 10           /* left and right margins */
#define FRAME_H 16       /* one row; boxes are one pixel less, so rows stay apart */
#define TOP 60           /* title and subtitle */
#define BOTTOM 34        /* the details line */
#define FONT_SIZE 12
#define CHAR_W (FONT_SIZE * 0.59) /* flamegraph.pl's estimate of an average glyph */
#define MIN_W 0.1        /* boxes narrower than this (pixels) are left out, and their callees */

/*
 * Zoom: a click on a box widens it to the whole graph, its callers stay full width (faded),
 * everything else hides; "Reset Zoom" and a click on it undo. Labels are refit. Who is a
 * caller or a callee comes from the order of the boxes, not from their coordinates: the
 * boxes are written depth first (a box, then each callee's subtree), so a box's callers are
 * the nearest boxes before it one row lower each, and its callees the boxes after it up to
 * the next one on its row or lower. Coordinates compared with a tolerance (flamegraph.pl's
 * way) lost callers whose rounded edges fell the wrong side of it.
 *
 * Search (flamegraph.pl's): the Search button, Ctrl-F or F3 ask for a regular expression;
 * the boxes whose name matches turn magenta and "Matched: N%" gives their share of all the
 * samples, a box inside a matched box counted once; Esc or the button again clears it.
 * "?s=REGEX" in the address searches on load, as in flamegraph.pl.
 */
static const char script[] =
	/* FW: WIDTH - 2 * PAD; CW: CHAR_W */
	"var FW = 1180, PAD = 10, CW = 7.08, frames, depth, details, unzoomBtn, searchBtn, matched;\n"
	"var searching = null;\n"
	"function init(evt) {\n"
	"\tvar all = document.getElementById(\"frames\");\n"
	"\tframes = all.getElementsByTagName(\"g\");\n"
	"\tdepth = [];\n"
	"\tfor (var i = 0; i < frames.length; i++) depth.push(parseInt(frames[i].getAttribute(\"data-d\")));\n"
	"\tdetails = document.getElementById(\"details\").firstChild;\n"
	"\tunzoomBtn = document.getElementById(\"unzoom\");\n"
	"\tsearchBtn = document.getElementById(\"search\");\n"
	"\tmatched = document.getElementById(\"matched\").firstChild;\n"
	"\tall.addEventListener(\"click\", function (e) { var g = e.target.closest(\"g\"); if (g) zoom(g); });\n"
	"\tall.addEventListener(\"mouseover\", function (e) { var g = e.target.closest(\"g\");\n"
	"\t\tif (g) details.nodeValue = g.getElementsByTagName(\"title\")[0].textContent; });\n"
	"\tall.addEventListener(\"mouseout\", function () { details.nodeValue = \" \"; });\n"
	"\tunzoomBtn.addEventListener(\"click\", unzoom);\n"
	"\tsearchBtn.addEventListener(\"click\", function () { if (searching !== null) reset_search(); else search_prompt(); });\n"
	"\twindow.addEventListener(\"keydown\", function (e) {\n"
	"\t\tif (e.keyCode === 114 || (e.ctrlKey && e.keyCode === 70)) { e.preventDefault(); search_prompt(); }\n"
	"\t\telse if (e.keyCode === 27 && searching !== null) reset_search();\n"
	"\t});\n"
	"\tvar s = new URLSearchParams(document.location.search).get(\"s\");\n"
	"\tif (s) search(s);\n"
	"}\n"
	"function fit(name, w) {\n"
	"\tvar n = Math.floor((w - 6) / CW);\n"
	"\tif (n < 3) return \"\";\n"
	"\treturn name.length <= n ? name : name.substring(0, n - 2) + \"..\";\n"
	"}\n"
	/* both edges rounded to 0.1 px, the width their difference: a rounded width put a
	   callee's right edge up to 0.2 px past its caller's, one whose edge is its caller's */
	"function place(g, x, w) {\n"
	"\tvar r = g.getElementsByTagName(\"rect\")[0], t = g.getElementsByTagName(\"text\")[0];\n"
	"\tvar x0 = Math.round((PAD + x * FW) * 10), x1 = Math.round((PAD + (x + w) * FW) * 10);\n"
	"\tr.setAttribute(\"x\", (x0 / 10).toFixed(1));\n"
	"\tr.setAttribute(\"width\", ((x1 - x0) / 10).toFixed(1));\n"
	"\tt.setAttribute(\"x\", (PAD + x * FW + 3).toFixed(1));\n"
	"\tt.textContent = fit(g.getAttribute(\"data-n\"), w * FW);\n"
	"}\n"
	"function num(g, a) { return parseFloat(g.getAttribute(a)); }\n"
	"function zoom(z) {\n"
	"\tvar n = frames.length, zi = Array.prototype.indexOf.call(frames, z), zd = depth[zi];\n"
	"\tvar zx = num(z, \"data-x\"), zw = num(z, \"data-w\"), st = new Array(n), d = zd, i;\n"
	"\tfor (i = zi - 1; i >= 0 && d > 0; i--) if (depth[i] === d - 1) { st[i] = 1; d--; }\n"
	"\tfor (i = zi; i < n && (i === zi || depth[i] > zd); i++) st[i] = 2;\n"
	"\tfor (i = 0; i < n; i++) {\n"
	"\t\tvar g = frames[i];\n"
	"\t\tg.classList.remove(\"hide\");\n"
	"\t\tg.classList.remove(\"p\");\n"
	"\t\tif (st[i] === 1) { g.classList.add(\"p\"); place(g, 0, 1); }\n"
	"\t\telse if (st[i] === 2) place(g, (num(g, \"data-x\") - zx) / zw, num(g, \"data-w\") / zw);\n"
	"\t\telse g.classList.add(\"hide\");\n"
	"\t}\n"
	"\tunzoomBtn.classList.remove(\"hide\");\n"
	"}\n"
	"function unzoom() {\n"
	"\tfor (var i = 0; i < frames.length; i++) {\n"
	"\t\tvar g = frames[i];\n"
	"\t\tg.classList.remove(\"hide\");\n"
	"\t\tg.classList.remove(\"p\");\n"
	"\t\tplace(g, num(g, \"data-x\"), num(g, \"data-w\"));\n"
	"\t}\n"
	"\tunzoomBtn.classList.add(\"hide\");\n"
	"}\n"
	"function search_prompt() {\n"
	"\tvar term = prompt(\"Enter a search term (regexp allowed, eg: ^ext4_)\", searching || \"\");\n"
	"\tif (term === null) return;\n"
	"\tif (term === \"\") reset_search(); else search(term);\n"
	"}\n"
	"function reset_search() {\n"
	"\tfor (var i = 0; i < frames.length; i++) frames[i].classList.remove(\"m\");\n"
	"\tsearching = null;\n"
	"\tsearchBtn.firstChild.nodeValue = \"Search\";\n"
	"\tmatched.nodeValue = \" \";\n"
	"}\n"
	"function search(term) {\n"
	"\tvar re, sum = 0, md = -1;\n"
	"\ttry { re = new RegExp(term); } catch (e) { matched.nodeValue = \"Bad regexp: \" + term; return; }\n"
	"\treset_search();\n"
	"\tsearching = term;\n"
	"\tfor (var i = 0; i < frames.length; i++) {\n"
	"\t\tvar g = frames[i];\n"
	"\t\tif (md >= 0 && depth[i] <= md) md = -1;\n"
	"\t\tif (!re.test(g.getAttribute(\"data-n\"))) continue;\n"
	"\t\tg.classList.add(\"m\");\n"
	"\t\tif (md < 0) { sum += num(g, \"data-w\"); md = depth[i]; }\n"
	"\t}\n"
	"\tsearchBtn.firstChild.nodeValue = \"Reset Search\";\n"
	"\tmatched.nodeValue = \"Matched: \" + (100 * sum).toFixed(1) + \"%\";\n"
	"}\n";

struct writer {
	const struct flame *f;
	FILE *out;
	double total;       /* the root's period */
	uint32_t max_depth; /* of the boxes drawn */
	int height;
	bool inverted;      /* the root on top, callees below (an icicle graph) */
	/* per box: its first child and next sibling, 0 none (the tree's full nodes, 56
	   bytes each, for what 8 do: issue 20) */
	uint32_t *kid, *sib;
};

/* s with XML's special characters escaped and bytes that are not UTF-8 as '?'. */
static void put_escaped(FILE *out, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;

	while (*p) {
		int n = *p < 0x80 ? 1 : (*p >> 5) == 6 ? 2 : (*p >> 4) == 14 ? 3 : (*p >> 3) == 30 ? 4 : 0;
		int i;

		for (i = 1; i < n && (p[i] & 0xc0) == 0x80; i++)
			;
		if (n == 0 || i < n || (*p < 0x20 && *p != '\t')) {
			fputc('?', out);
			p += n && i < n ? i : 1;
			continue;
		}
		if (n > 1) {
			fwrite(p, 1, (size_t)n, out);
		} else if (*p == '&') {
			fputs("&amp;", out);
		} else if (*p == '<') {
			fputs("&lt;", out);
		} else if (*p == '>') {
			fputs("&gt;", out);
		} else if (*p == '"') {
			fputs("&quot;", out);
		} else if (*p == '\'') {
			fputs("&apos;", out);
		} else {
			fputc(*p, out);
		}
		p += n;
	}
}

/* The label that fits in w pixels, as the script fits it after a zoom. */
static void put_label(FILE *out, const char *name, double w)
{
	/* a box is never wider than the graph (the tree's sums saturate; siblings that each
	 * reached 2^64 still add up past their parent) */
	int n = (int)(((w < WIDTH ? w : WIDTH) - 6) / CHAR_W);
	size_t len = strlen(name);
	char buf[512];

	if (n < 3)
		return;
	if (len <= (size_t)n) {
		put_escaped(out, name);
		return;
	}
	if ((size_t)n - 2 >= sizeof(buf))
		n = (int)sizeof(buf) + 1;
	/* cut on a character boundary */
	len = (size_t)n - 2;
	while (len && ((unsigned char)name[len] & 0xc0) == 0x80)
		len--;
	memcpy(buf, name, len);
	memcpy(buf + len, "..", 3);
	put_escaped(out, buf);
}

/* flamegraph.pl's palettes: warm for user code, aqua for the kernel, greys for the rest. */
static void colour(const struct flame *f, uint32_t id, const char *name, int rgb[3])
{
	if (f->base) {
		/* difffolded.pl's: red grew, blue shrank, white the same, deeper the more */
		double d = flame_delta(f, id), m = f->base_max > 0 ? f->base_max : 1;
		int fade = (int)(210 * (m - (d < 0 ? -d : d)) / m);

		if (d > 0)
			rgb[0] = 255, rgb[1] = rgb[2] = fade;
		else if (d < 0)
			rgb[2] = 255, rgb[0] = rgb[1] = fade;
		else
			rgb[0] = rgb[1] = rgb[2] = 255;
		return;
	}
	uint64_t h = xb_hash_str(name) >> 40; /* the top bits are the well mixed ones */
	double v1 = (double)(h & 0xff) / 255, v2 = (double)(h >> 8 & 0xff) / 255,
	       v3 = (double)(h >> 16 & 0xff) / 255;

	switch (f->kind[id]) {
	case FK_KERNEL:
		rgb[0] = 50 + (int)(60 * v1), rgb[1] = 165 + (int)(55 * v1), rgb[2] = 165 + (int)(55 * v1);
		break;
	case FK_USER:
		rgb[0] = 205 + (int)(50 * v3), rgb[1] = (int)(230 * v1), rgb[2] = (int)(55 * v2);
		break;
	case FK_UNKNOWN:
		rgb[0] = rgb[1] = rgb[2] = 160 + (int)(40 * v1);
		break;
	default:
		rgb[0] = rgb[1] = 200 + (int)(30 * v1), rgb[2] = 190 + (int)(30 * v1);
		break;
	}
}

static int cmp_names(const void *a, const void *b, void *arg)
{
	const struct flame *f = arg;
	const char *x = xpp_intern_str(f->names, xpp_cg_key(f->t, *(const uint32_t *)a));
	const char *y = xpp_intern_str(f->names, xpp_cg_key(f->t, *(const uint32_t *)b));

	return strcmp(x, y);
}

/* "1,019": thousands apart, as flamegraph.pl writes sample counts. */
static void put_count(FILE *out, uint64_t v)
{
	char d[32], g[48];
	int n = snprintf(d, sizeof(d), "%" PRIu64, v), k = 0;

	for (int i = 0; i < n; i++) {
		if (i && (n - i) % 3 == 0)
			g[k++] = ',';
		g[k++] = d[i];
	}
	g[k] = '\0';
	fputs(g, out);
}

static double px(const struct writer *w, uint64_t period)
{
	return w->total > 0 ? (double)period / w->total * (WIDTH - 2 * PAD) : 0;
}

/* The deepest row drawn below node id at depth d. */
static void measure(struct writer *w, uint32_t id, uint32_t d)
{
	if (px(w, w->f->period[id]) < MIN_W)
		return;
	if (d > w->max_depth)
		w->max_depth = d;
	for (uint32_t c = w->kid[id]; c; c = w->sib[c])
		measure(w, c, d + 1);
}

/* Node id's box with its left edge at period x, then its callees left to right by name. */
static int draw(struct writer *w, uint32_t id, uint64_t x, uint32_t d)
{
	const struct flame *f = w->f;
	const char *name = xpp_intern_str(f->names, xpp_cg_key(f->t, id));
	double bw = px(w, f->period[id]), bx = PAD + px(w, x);
	double y = w->inverted ? TOP + (double)d * FRAME_H : w->height - BOTTOM - (double)(d + 1) * FRAME_H;
	uint32_t n = 0, first;
	int rgb[3];

	if (bw < MIN_W)
		return 0;
	if (id == 0)
		name = "all";
	colour(f, id, name, rgb);
	/* shares in full precision: a zoom into a narrow box scales them up by 1/width */
	fprintf(w->out, "<g data-x=\"%.17g\" data-w=\"%.17g\" data-d=\"%u\" data-n=\"",
		w->total > 0 ? (double)x / w->total : 0, w->total > 0 ? f->period[id] / w->total : 0,
		d);
	put_escaped(w->out, name);
	fputs("\"><title>", w->out);
	put_escaped(w->out, name);
	if (f->dso[id] && f->kind[id] != FK_UNKNOWN) {
		fputs(" in ", w->out);
		put_escaped(w->out, f->dso[id]);
	}
	fputs(" (", w->out);
	put_count(w->out, f->count[id]);
	fprintf(w->out, " samples, %.2f%%", w->total > 0 ? 100.0 * f->period[id] / w->total : 0);
	if (f->base) /* the change in points of share, as perf diff's Delta */
		fprintf(w->out, ", %+.2f%%", 100.0 * flame_delta(f, id));
	fprintf(w->out, ")</title><rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" "
		"height=\"%d\" fill=\"rgb(%d,%d,%d)\" rx=\"2\" ry=\"2\"/><text x=\"%.1f\" "
		"y=\"%.1f\">", bx, y, bw,
		FRAME_H - 1, rgb[0], rgb[1], rgb[2], bx + 3, y + 11.5);
	put_label(w->out, name, bw);
	fputs("</text></g>\n", w->out);

	/* the children in name order (folded stacks sort so), left-aligned under the box */
	first = 0;
	for (uint32_t c = w->kid[id]; c; c = w->sib[c])
		n++;
	if (!n)
		return 0;
	uint32_t *kids = malloc(n * sizeof(*kids));

	if (!kids)
		return -ENOMEM;
	for (uint32_t c = w->kid[id]; c; c = w->sib[c])
		kids[first++] = c;
	qsort_r(kids, n, sizeof(*kids), cmp_names, (void *)f);
	for (uint32_t i = 0; i < n; i++) {
		int ret = draw(w, kids[i], x, d + 1);

		if (ret < 0) {
			free(kids);
			return ret;
		}
		x += f->period[kids[i]];
	}
	free(kids);
	return 0;
}

int flame_write_svg(const struct flame *f, FILE *out, const char *title, const char *subtitle,
		    bool inverted)
{
	struct writer w = { .f = f, .out = out, .total = (double)f->period[0], .inverted = inverted };
	uint32_t nr = xpp_cg_nr_nodes(f->t);
	int ret;

	/* each box under its parent; those too narrow to draw still move their siblings */
	w.kid = calloc(nr ? nr : 1, sizeof(*w.kid));
	w.sib = calloc(nr ? nr : 1, sizeof(*w.sib));
	if (!w.kid || !w.sib) {
		free(w.kid);
		free(w.sib);
		return -ENOMEM;
	}
	for (uint32_t id = 1; id < nr; id++) {
		uint32_t parent = xpp_cg_parent(f->t, id);

		w.sib[id] = w.kid[parent];
		w.kid[parent] = id;
	}
	measure(&w, 0, 0);
	w.height = TOP + (int)(w.max_depth + 1) * FRAME_H + BOTTOM;
	fprintf(out, "<?xml version=\"1.0\" standalone=\"no\"?>\n"
		"<!DOCTYPE svg PUBLIC \"-//W3C//DTD SVG 1.1//EN\" "
		"\"http://www.w3.org/Graphics/SVG/1.1/DTD/svg11.dtd\">\n"
		"<svg version=\"1.1\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" "
		"onload=\"init(evt)\" xmlns=\"http://www.w3.org/2000/svg\">\n",
		WIDTH, w.height, WIDTH, w.height);
	fprintf(out, "<defs><linearGradient id=\"bg\" y1=\"0\" y2=\"1\" x1=\"0\" x2=\"0\">"
		"<stop stop-color=\"#eeeeee\" offset=\"5%%\"/><stop stop-color=\"#eeeeb0\" "
		"offset=\"95%%\"/></linearGradient></defs>\n"
		"<style type=\"text/css\">\n"
		"text { font-family: Verdana, sans-serif; font-size: %dpx; fill: rgb(0,0,0); }\n"
		"#title { text-anchor: middle; font-size: 17px; }\n"
		"#subtitle { text-anchor: middle; fill: rgb(100,100,100); }\n"
		"#unzoom, #search { cursor: pointer; }\n"
		"#search, #matched { text-anchor: end; }\n"
		"#frames > g:hover { stroke: black; stroke-width: 0.5; cursor: pointer; }\n"
		".hide { display: none; }\n"
		".p { opacity: 0.5; }\n"
		".m rect { fill: rgb(230,0,230); }\n"
		"</style>\n<script type=\"text/ecmascript\"><![CDATA[\n%s]]></script>\n",
		FONT_SIZE, script);
	fprintf(out, "<rect x=\"0\" y=\"0\" width=\"%d\" height=\"%d\" fill=\"url(#bg)\"/>\n",
		WIDTH, w.height);
	fprintf(out, "<text id=\"title\" x=\"%d\" y=\"24\">", WIDTH / 2);
	put_escaped(out, title);
	fprintf(out, "</text>\n<text id=\"subtitle\" x=\"%d\" y=\"44\">", WIDTH / 2);
	put_escaped(out, subtitle);
	fprintf(out, "</text>\n<text id=\"unzoom\" class=\"hide\" x=\"%d\" y=\"24\">Reset Zoom"
		"</text>\n<text id=\"search\" x=\"%d\" y=\"24\">Search</text>\n"
		"<text id=\"details\" x=\"%d\" y=\"%d\"> </text>\n"
		"<text id=\"matched\" x=\"%d\" y=\"%d\"> </text>\n<g id=\"frames\">\n",
		PAD, WIDTH - PAD, PAD, w.height - 17, WIDTH - PAD, w.height - 17);
	ret = f->period[0] ? draw(&w, 0, 0, 0) : 0;
	fputs("</g>\n</svg>\n", out);
	free(w.kid);
	free(w.sib);
	return ret;
}
