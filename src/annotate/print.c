/* perf annotate's --stdio layout: perf prints objdump -l -S output; we print the same lines from the annotation. */
#include <ctype.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "annotate/annotate_stdio.h"

#define MIN_GREEN 0.5 /* perf's colour thresholds (util/color.h) */
#define MIN_RED 5.0
#define CONTEXT_LINES 5 /* objdump's SHOW_PRECEDING_CONTEXT_LINES */

/* objdump's memory of each source file while it prints one listing (objdump.c show_line). */
struct file_state {
	uint32_t last_line, max_printed;
};

struct printer {
	FILE *out;
	const struct ann_print_opts *o;
	int width;              /* the first column: 8, 12 for periods */
	int addr_width;         /* hex digits of the last instruction's address */
	int nr;                 /* perf's number for the next objdump line (see text_line) */
	struct file_state *files;
};

static const char *percent_color(double pct)
{
	return pct >= MIN_RED ? "\033[31m" : pct >= MIN_GREEN ? "\033[32m" : NULL;
}

/*
 * A line of objdump's output that is not an instruction. perf numbers them: each line
 * counts one, and a "/file:line" marker (which perf hides) sets the count to that line,
 * so source lines carry numbers near their own.
 */
static void text_line(struct printer *p, const char *s)
{
	if (!*s)
		fprintf(p->out, " %*s:\n", p->width, " ");
	else
		fprintf(p->out, " %*s: %-*d %s\n", p->width, " ", p->addr_width, p->nr, s);
	p->nr++;
}

/* A source line as perf shows it: trimmed, tabs expanded to 8 columns. */
static void source_line(struct printer *p, const char *s)
{
	char buf[4096];
	size_t n = 0, len;

	while (isspace((unsigned char)*s))
		s++;
	len = strlen(s);
	while (len && isspace((unsigned char)s[len - 1]))
		len--;
	for (size_t i = 0; i < len && n + 9 < sizeof(buf); i++) {
		if (s[i] == '\t') {
			buf[n++] = ' ';
			while (n % 8)
				buf[n++] = ' ';
		} else {
			buf[n++] = s[i];
		}
	}
	buf[n] = '\0';
	text_line(p, buf);
}

/* objdump -S: the lines up to `line` not printed yet, with up to 5 lines of context. */
static void dump_source(struct printer *p, xpp_annotation *a, uint32_t file, uint32_t line)
{
	struct file_state *f = &p->files[file];
	uint32_t l, nr = xpp_annotation_src_lines(a, file);

	if (!nr || line == f->last_line)
		return;
	l = line > CONTEXT_LINES ? line - CONTEXT_LINES : 1;
	if (f->max_printed >= l)
		l = f->max_printed < line ? f->max_printed + 1 : line;
	for (; l <= line; l++) {
		const char *t = xpp_annotation_src_text(a, file, l);

		if (t)
			source_line(p, t);
	}
	if (f->max_printed < line)
		f->max_printed = line;
	f->last_line = line;
}

/* "shares.c:24" (the full path with -P), as perf's -l names an instruction's line. */
static void srcline(xpp_annotation *a, const struct xpp_ann_insn *in, bool full, char *buf,
		    size_t size)
{
	const struct xpp_annotation_info *info = xpp_annotation_info(a);
	const char *f = xpp_annotation_file(a, in->file), *slash;

	if (!f || !in->line) {
		snprintf(buf, size, "%s[%" PRIx64 "]", info->dso_name, in->addr);
		return;
	}
	slash = strrchr(f, '/');
	snprintf(buf, size, "%s:%u", full || !slash ? f : slash + 1, in->line);
}

static double share(const struct xpp_annotation_info *info, const struct xpp_ann_insn *in,
		    bool hits)
{
	if (hits)
		return info->nr_samples ? 100.0 * (double)in->nr_samples / (double)info->nr_samples : 0;
	return in->percent;
}

struct line_sum {
	char path[512];
	double pct;
};

static int cmp_sum(const void *x, const void *y)
{
	const struct line_sum *a = x, *b = y;

	if (a->pct != b->pct)
		return a->pct > b->pct ? -1 : 1;
	return strcmp(a->path, b->path);
}

/* -l: the source lines of the instructions above 0.5%, summed per line, most first. */
static void print_summary(xpp_annotation *a, const struct ann_print_opts *o, FILE *out)
{
	const struct xpp_annotation_info *info = xpp_annotation_info(a);
	uint32_t n, nr = 0;
	const struct xpp_ann_insn *in = xpp_annotation_insns(a, &n);
	struct line_sum *sums = calloc(n ? n : 1, sizeof(*sums));

	fprintf(out, "\nSorted summary for file %s\n", info->dso_path);
	fputs("----------------------------------------------\n\n", out);
	for (uint32_t i = 0; sums && i < n; i++) {
		double pct = share(info, &in[i], o->hits);
		char path[512];
		uint32_t j;

		if (pct <= MIN_GREEN)
			continue;
		srcline(a, &in[i], o->full_paths, path, sizeof(path));
		for (j = 0; j < nr && strcmp(sums[j].path, path); j++)
			;
		if (j == nr)
			snprintf(sums[nr++].path, sizeof(sums->path), "%s", path);
		sums[j].pct += pct;
	}
	if (!nr)
		fprintf(out, " Nothing higher than %1.1f%%\n", MIN_GREEN);
	if (sums)
		qsort(sums, nr, sizeof(*sums), cmp_sum);
	for (uint32_t j = 0; j < nr; j++) {
		const char *c = o->color ? percent_color(sums[j].pct) : NULL;

		fprintf(out, "%s %7.2f %s%s\n", c ? c : "", sums[j].pct, sums[j].path,
			c ? "\033[m" : "");
	}
	free(sums);
}

static void insn_line(struct printer *p, xpp_annotation *a, const struct xpp_ann_insn *in,
		      struct ann_print_state *st)
{
	const struct xpp_annotation_info *info = xpp_annotation_info(a);
	double pct = share(info, in, p->o->hits);
	const char *c = p->o->color ? percent_color(pct) : NULL;
	char hex[32];
	int pad;

	if (c)
		fputs(c, p->out);
	if (p->o->value == ANN_PERIOD)
		fprintf(p->out, " %11" PRIu64, in->period);
	else if (p->o->value == ANN_NR_SAMPLES)
		fprintf(p->out, " %7" PRIu64, in->nr_samples);
	else
		fprintf(p->out, " %7.2f", pct);
	if (c)
		fputs("\033[m", p->out);
	/* objdump's "addr:<TAB>insn", the tab expanded from the trimmed line's start */
	pad = snprintf(hex, sizeof(hex), "%" PRIx64, in->addr) + 1;
	pad = 8 - pad % 8;
	fprintf(p->out, " :   %*" PRIx64 ":%*s", p->addr_width, in->addr, pad, "");
	if (in->operands[0])
		fprintf(p->out, "%-6s %s", in->mnemonic, in->operands);
	else
		fputs(in->mnemonic, p->out);
	if (p->o->print_lines && pct > MIN_GREEN) {
		char path[512];

		srcline(a, in, p->o->full_paths, path, sizeof(path));
		if (strcmp(path, st->last_path)) {
			fprintf(p->out, "%s // %s%s", c ? c : "", path, c ? "\033[m" : "");
			snprintf(st->last_path, sizeof(st->last_path), "%s", path);
		}
	}
	fputc('\n', p->out);
	p->nr++;
}

/*
 * objdump -l's marker before an instruction whose line differs from the last one. perf
 * hides markers of absolute paths (and takes their line number); others it prints.
 */
static void line_marker(struct printer *p, xpp_annotation *a, const struct xpp_ann_insn *in)
{
	const char *f = xpp_annotation_file(a, in->file);
	char buf[4096];

	if (!f)
		f = "???";
	if (in->discriminator)
		snprintf(buf, sizeof(buf), "%s:%u (discriminator %u)", f, in->line,
			 in->discriminator);
	else
		snprintf(buf, sizeof(buf), "%s:%u", f, in->line);
	if (f[0] == '/' && strchr(f, ':') == NULL)
		p->nr = (int)in->line;
	else
		text_line(p, buf);
}

void ann_print_stdio(xpp_annotation *a, const struct ann_print_opts *o,
		     struct ann_print_state *st, FILE *out)
{
	const struct xpp_annotation_info *info = xpp_annotation_info(a);
	const char *name = info->dso_path, *slash = strrchr(name, '/');
	struct printer p = { .out = out, .o = o, .width = o->value == ANN_PERIOD ? 12 : 8 };
	uint32_t n, prev_line = 0, prev_discr = 0;
	const char *prev_func = NULL;
	const struct xpp_ann_insn *in = xpp_annotation_insns(a, &n);
	char buf[256];
	int len;

	if (o->print_lines)
		print_summary(a, o, out);
	if (!o->full_paths && slash)
		name = slash + 1;
	len = fprintf(out, " %-*.*s|\tSource code & Disassembly of %s for %s (%" PRIu64
		      " samples, percent: %s)\n", p.width, p.width,
		      o->value == ANN_PERIOD ? "Period" :
		      o->value == ANN_NR_SAMPLES ? "Samples" : "Percent",
		      name, o->event, info->nr_samples, o->hits ? "local hits" : "local period");
	for (int i = 0; i < len + 4; i++)
		fputc('-', out);
	fputc('\n', out);

	p.files = calloc(info->nr_files ? info->nr_files : 1, sizeof(*p.files));
	p.addr_width = n ? snprintf(buf, sizeof(buf), "%" PRIx64, in[n - 1].addr) : 0;
	/* objdump's head: its file-format line is the one perf drops */
	text_line(&p, "");
	text_line(&p, "");
	text_line(&p, "");
	snprintf(buf, sizeof(buf), "Disassembly of section %s:",
		 info->section[0] ? info->section : ".text");
	text_line(&p, buf);
	text_line(&p, "");
	snprintf(buf, sizeof(buf), "%0*" PRIx64 " <%.200s>:", info->is64 ? 16 : 8, info->start,
		 info->sym_name);
	text_line(&p, buf);
	for (uint32_t i = 0; i < n; i++) {
		/* objdump -l: the function's name where it changes (inlined code too) */
		if (in[i].function && (!prev_func || strcmp(in[i].function, prev_func))) {
			/* a demangled C++ name has its parameters; objdump adds () to others */
			snprintf(buf, sizeof(buf), strchr(in[i].function, '(') ? "%.200s:" : "%.200s():",
				 in[i].function);
			text_line(&p, buf);
			prev_func = in[i].function;
			prev_line = 0;
		}
		if (in[i].line && (in[i].line != prev_line || in[i].discriminator != prev_discr))
			line_marker(&p, a, &in[i]);
		if (o->source && p.files && in[i].line && in[i].file != XPP_ANN_NONE)
			dump_source(&p, a, in[i].file, in[i].line);
		if (in[i].line)
			prev_line = in[i].line;
		prev_discr = in[i].discriminator;
		insn_line(&p, a, &in[i], st);
	}
	free(p.files);
}
