/*
 * Tracepoint fields, as perf script prints them: the event formats come from the file's
 * TRACING_DATA (what perf record copied out of tracefs), libtraceevent parses them and
 * prints each sample's raw data with the event's own print format.
 *
 * TRACING_DATA (perf's trace-event-read.c is the reference; numbers in the file's order):
 *   "\027\010\104tracing" version"\0" big_endian:u8 long_size:u8 page_size:u32
 *   "header_page\0" size:u64 data     "header_event\0" size:u64 data
 *   nr_ftrace:u32 { size:u64 format }
 *   nr_systems:u32 { system"\0" nr:u32 { size:u64 format } }
 *   kallsyms_size:u32 data   printk_size:u32 data   [version >= 0.6: cmdlines_size:u64 data]
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <traceevent/event-parse.h>
#include <traceevent/trace-seq.h>

#include "format/xpf_abi.h"
#include "format/xpf_reader.h"
#include "script/out.h"
#include "script/script.h"
#include "script/tracepoint_format.h"

/*
 * libtraceevent reads a sample's fields where the format says they are, not bounded by the
 * record: a field's offset and size (checked: within 64 KB), a __data_loc's offset and
 * length (16 bits each, after the field for __rel_loc), a string up to its NUL, the length
 * of __print_hex() or the count of __print_array() (bounded to 0xffff by
 * tp_format_bound_lengths(): at most 8 bytes each). So it reads a copy of the raw data at
 * the start of a zeroed buffer larger than all of that: what lies past the record reads
 * as 0 and ends every string.
 */
#define TP_RAW_MAX (64u << 10)
#define TP_PAD     (1u << 20)

/* The lines to say about formats left out: a few, then a count. */
#define TP_MAX_WARNINGS 8

struct tp_printer {
	struct tep_handle *tep;
	struct trace_seq seq;
	xpp_profile *profile;
	unsigned char *raw;          /* TP_PAD bytes, zero but while a sample is printed */
	char *warning[TP_MAX_WARNINGS + 1];
	unsigned int nr_warnings, nr_damaged;
};

/* libtraceevent's question for %pS and friends: which kernel function holds *addr? */
static char *resolve_kernel(void *priv, unsigned long long *addr, char **mod)
{
	struct tp_printer *tp = priv;
	const char *name;
	uint64_t start;

	*mod = NULL;
	if (xpp_profile_kernel_sym(tp->profile, *addr, &name, &start) != 1)
		return NULL;
	*addr = start;
	return (char *)name;
}

/* A bounded cursor over the payload: every read checks the room left. */
struct cursor {
	const char *p, *end;
	bool big_endian;
};

static bool take(struct cursor *c, size_t n, const char **at)
{
	if ((size_t)(c->end - c->p) < n)
		return false;
	*at = c->p;
	c->p += n;
	return true;
}

static bool take_num(struct cursor *c, size_t n, uint64_t *v)
{
	const char *at;
	uint64_t x = 0;

	if (!take(c, n, &at))
		return false;
	for (size_t i = 0; i < n; i++) {
		unsigned char b = (unsigned char)at[c->big_endian ? i : n - 1 - i];

		x = x << 8 | b;
	}
	*v = x;
	return true;
}

static bool take_str(struct cursor *c, const char **s)
{
	const char *nul = memchr(c->p, '\0', (size_t)(c->end - c->p));

	if (!nul)
		return false;
	*s = c->p;
	c->p = nul + 1;
	return true;
}

/* A u64-sized block, as header pages and formats are stored. */
static bool take_block64(struct cursor *c, const char **at, size_t *size)
{
	uint64_t n;

	if (!take_num(c, 8, &n) || n > (uint64_t)(c->end - c->p))
		return false;
	*size = (size_t)n;
	return take(c, *size, at);
}

/*
 * Everything handed to libtraceevent is checked first: its parsers trust their input (the
 * printk parser reads past a line without " : ", and one more byte before a format shorter
 * than three characters), and they stop at a NUL where the section goes on. Text sections
 * must be text: no NUL, no control characters but tab, newline and carriage return.
 */
static bool is_text(const char *at, size_t size)
{
	for (size_t i = 0; i < size; i++) {
		unsigned char ch = (unsigned char)at[i];

		if (ch < 0x20 && ch != '\t' && ch != '\n' && ch != '\r')
			return false;
		if (ch == 0x7f)
			return false;
	}
	return true;
}

/* A NUL-terminated copy of a text section, or NULL (then *bad says why it is not one). */
static char *text_copy(const char *at, size_t size, bool *bad)
{
	char *text;

	*bad = !is_text(at, size);
	if (*bad || !(text = malloc(size + 1)))
		return NULL;
	memcpy(text, at, size);
	text[size] = '\0';
	return text;
}

/*
 * printk_formats lines are "0xADDR : FORMAT" (the kernel's "0x%lx : \"%s\""). Keep the
 * lines libtraceevent reads safely: an address of hex digits, " : ", and a format of at
 * least three characters after its opening quote (shorter ones are dropped: the parser
 * looks two bytes before their end). Any other line is damage. Rewrites text in place.
 */
static bool printk_filter(char *text)
{
	char *out = text, *line = text;

	while (*line) {
		char *end = strchr(line, '\n'), *p = line, *fmt;
		size_t len;

		if (!end)
			end = line + strlen(line);
		if (end == line) { /* empty line: strtok skips it */
			line = *end ? end + 1 : end;
			continue;
		}
		if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X'))
			p += 2;
		if (!isxdigit((unsigned char)*p))
			return false;
		while (isxdigit((unsigned char)*p))
			p++;
		if (end - p < 3 || strncmp(p, " : ", 3))
			return false;
		fmt = p + 3;
		if (fmt < end && *fmt == '"')
			fmt++;
		len = (size_t)(end - fmt);
		if (len >= 3) {
			size_t n = (size_t)(end - line);

			memmove(out, line, n);
			out += n;
			*out++ = '\n';
		}
		line = *end ? end + 1 : end;
	}
	*out = '\0';
	return true;
}

/* Hand a text section to one of libtraceevent's parsers. -EINVAL: not text (or, for printk
 * formats, not their layout). */
static int parse_text(struct tep_handle *tep, const char *at, size_t size,
		      int (*parse)(struct tep_handle *, const char *))
{
	char *text;
	bool bad;

	if (!size)
		return 0;
	if (!(text = text_copy(at, size, &bad)))
		return bad ? -EINVAL : -ENOMEM;
	if (parse == tep_parse_printk_formats && !printk_filter(text)) {
		free(text);
		return -EINVAL;
	}
	parse(tep, text); /* perf goes on without them too: names stay addresses */
	free(text);
	return 0;
}

/*
 * An event format that is not one libtraceevent can read safely (tracepoint_format.c) is
 * left out with one line naming the event: its samples print without their fields.
 */
static int format_damaged(struct tp_printer *tp, const char *sys, const char *name,
			  const char *why)
{
	char *line;

	if (tp->nr_damaged++ >= TP_MAX_WARNINGS)
		return 0;
	if (asprintf(&line, "tracepoint fields of %s:%s are not printed: its format in the "
		     "file's tracing data is damaged (%s)", sys, *name ? name : "?", why) < 0)
		return -ENOMEM;
	tp->warning[tp->nr_warnings++] = line;
	return 0;
}

/*
 * An event format (sys set: checked, then parsed; one that fails the check is said) or the
 * header page: text, copied with its size.
 */
static int parse_format(struct tp_printer *tp, const char *at, size_t size, const char *sys)
{
	const char *why;
	char name[64];
	char *text, *bounded;
	bool bad;
	int ret = 0;

	if (!size)
		return 0;
	if (!(text = text_copy(at, size, &bad))) {
		if (!bad || !sys)
			return bad ? -EINVAL : -ENOMEM;
		/* a NUL or a control character: the name is still worth saying */
		tp_format_ok(at, size, name, sizeof(name), &why);
		return format_damaged(tp, sys, name, "not text");
	}
	if (!sys) {
		if (tp_header_page_ok(text, size, &why))
			tep_parse_header_page(tp->tep, text, size, tep_get_long_size(tp->tep));
		else
			ret = -EINVAL;
		free(text);
		return ret;
	}
	if (!tp_format_ok(text, size, name, sizeof(name), &why)) {
		free(text);
		return format_damaged(tp, sys, name, why);
	}
	bounded = tp_format_bound_lengths(text, size, &size);
	free(text);
	if (!bounded)
		return -ENOMEM;
	tep_parse_event(tp->tep, bounded, size, sys); /* as perf: one it cannot parse is skipped */
	free(bounded);
	return 0;
}

/* A system name: a non-empty word of printable characters. */
static bool name_ok(const char *s)
{
	if (!*s)
		return false;
	for (; *s; s++)
		if (!isgraph((unsigned char)*s))
			return false;
	return true;
}

/* Set *why to "SECTION" in the message for a damaged section; returns ret. */
static int damaged(int ret, const char **why, const char *msg)
{
	if (ret == -EINVAL)
		*why = msg;
	return ret;
}

static int parse_tracing_data(struct tp_printer *tp, const char *data, size_t size,
			      const char **why)
{
	struct tep_handle *tep = tp->tep;
	static const char magic[10] = { 23, 8, 68, 't', 'r', 'a', 'c', 'i', 'n', 'g' };
	struct cursor c = { data, data + size, false };
	const char *at, *version, *sys;
	size_t n;
	uint64_t v, count;
	int ret;

	*why = "the file's tracing data is damaged";
	if (!take(&c, sizeof(magic), &at) || memcmp(at, magic, sizeof(magic)) ||
	    !take_str(&c, &version) || !name_ok(version) || !take(&c, 2, &at))
		return -EINVAL;
	/* a long is 4 or 8 bytes: libtraceevent reads fields with it */
	if (at[1] != 4 && at[1] != 8)
		return damaged(-EINVAL, why, "the file's tracing data is damaged (long size)");
	c.big_endian = at[0] != 0;
	tep_set_file_bigendian(tep, c.big_endian ? TEP_BIG_ENDIAN : TEP_LITTLE_ENDIAN);
	tep_set_local_bigendian(tep, __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__ ? TEP_BIG_ENDIAN
									       : TEP_LITTLE_ENDIAN);
	tep_set_long_size(tep, at[1]);
	if (!take_num(&c, 4, &v) || !v || v > INT32_MAX)
		return -EINVAL;
	tep_set_page_size(tep, (int)v);

	if (!take(&c, 12, &at) || memcmp(at, "header_page", 12) || !take_block64(&c, &at, &n))
		return -EINVAL;
	if ((ret = parse_format(tp, at, n, NULL)) < 0)
		return damaged(ret, why, "the file's tracing data is damaged (header_page)");
	if (!take(&c, 13, &at) || memcmp(at, "header_event", 13) || !take_block64(&c, &at, &n))
		return -EINVAL;

	if (!take_num(&c, 4, &count))
		return -EINVAL;
	for (uint64_t i = 0; i < count; i++) {
		if (!take_block64(&c, &at, &n))
			return -EINVAL;
		if ((ret = parse_format(tp, at, n, "ftrace")) < 0)
			return damaged(ret, why, "the file's tracing data is damaged (ftrace formats)");
	}
	if (!take_num(&c, 4, &count))
		return -EINVAL;
	for (uint64_t i = 0; i < count; i++) {
		uint64_t nr;

		if (!take_str(&c, &sys) || !name_ok(sys) || !take_num(&c, 4, &nr))
			return -EINVAL;
		for (uint64_t j = 0; j < nr; j++) {
			if (!take_block64(&c, &at, &n))
				return -EINVAL;
			if ((ret = parse_format(tp, at, n, sys)) < 0)
				return damaged(ret, why,
					       "the file's tracing data is damaged (event formats)");
		}
	}

	if (!take_num(&c, 4, &v) || !take(&c, (size_t)v, &at))
		return -EINVAL;
	if ((ret = parse_text(tep, at, (size_t)v, tep_parse_kallsyms)) < 0)
		return damaged(ret, why, "the file's tracing data is damaged (kallsyms)");
	if (!take_num(&c, 4, &v) || !take(&c, (size_t)v, &at))
		return -EINVAL;
	if ((ret = parse_text(tep, at, (size_t)v, tep_parse_printk_formats)) < 0)
		return damaged(ret, why, "the file's tracing data is damaged (printk formats)");
	if (strtod(version, NULL) >= 0.6) {
		if (!take_block64(&c, &at, &n))
			return -EINVAL;
		if ((ret = parse_text(tep, at, n, tep_parse_saved_cmdlines)) < 0)
			return damaged(ret, why, "the file's tracing data is damaged (cmdlines)");
	}
	*why = NULL;
	return 0;
}

int tp_printer_create(struct tp_printer **out, xpf_reader *r, xpp_profile *p, const char **why)
{
	const struct xpf_features *f = xpf_reader_features(r);
	const struct xpf_raw_feature *td = &f->raw[XPF_FEAT_TRACING_DATA];
	struct tp_printer *tp;
	int ret;

	*out = NULL;
	if (!xpf_features_has(f, XPF_FEAT_TRACING_DATA) || !td->data || !td->size) {
		*why = "the file has no tracing data (event formats)";
		return -ENOENT;
	}
	if (!(tp = calloc(1, sizeof(*tp))))
		return -ENOMEM;
	/* libtraceevent reports formats it cannot parse on stderr; perf keeps them quiet too */
	tep_set_loglevel(TEP_LOG_NONE);
	if (!(tp->tep = tep_alloc())) {
		free(tp);
		return -ENOMEM;
	}
	trace_seq_init(&tp->seq);
	ret = (tp->raw = calloc(1, TP_PAD)) ? parse_tracing_data(tp, td->data, (size_t)td->size, why)
					     : -ENOMEM;
	if (ret == 0 && tp->nr_damaged > TP_MAX_WARNINGS) {
		char *line;

		if (asprintf(&line, "tracepoint fields of %u more events are not printed: their "
			     "formats are damaged in the file's tracing data",
			     tp->nr_damaged - TP_MAX_WARNINGS) < 0)
			ret = -ENOMEM;
		else
			tp->warning[tp->nr_warnings++] = line;
	}
	if (ret < 0) {
		tp_printer_free(tp);
		return ret;
	}
	/* perf names kernel addresses in fields from a file, not from a pipe: so do we */
	tp->profile = xpf_reader_header(r)->pipe ? NULL : p;
	if (tp->profile && tep_set_function_resolver(tp->tep, resolve_kernel, tp) < 0) {
		tp_printer_free(tp);
		return -ENOMEM;
	}
	*out = tp;
	return 0;
}

void tp_printer_free(struct tp_printer *tp)
{
	if (!tp)
		return;
	trace_seq_destroy(&tp->seq);
	tep_free(tp->tep);
	for (unsigned int i = 0; i < tp->nr_warnings; i++)
		free(tp->warning[i]);
	free(tp->raw);
	free(tp);
}

const char *tp_printer_warning(const struct tp_printer *tp, unsigned int i)
{
	return tp && i < tp->nr_warnings ? tp->warning[i] : NULL;
}

/* Whether every field of the event lies inside the raw data: else it is not printed. */
static bool fields_inside(const struct tep_event *ev, size_t size)
{
	const struct tep_format_field *lists[2] = { ev->format.common_fields, ev->format.fields };

	for (int i = 0; i < 2; i++)
		for (const struct tep_format_field *f = lists[i]; f; f = f->next)
			if (f->offset < 0 || f->size < 0 ||
			    (size_t)f->offset + (size_t)f->size > size)
				return false;
	return true;
}

void tp_print(struct tp_printer *tp, const struct xpf_sample *s, struct out *o)
{
	struct tep_record rec;

	struct tep_event *ev;

	/* no format parsed: libtraceevent has no common_type to find the event with */
	if (!s->raw.data || !s->raw.size || s->raw.size > TP_RAW_MAX ||
	    !tep_get_events_count(tp->tep))
		return;
	memcpy(tp->raw, s->raw.data, s->raw.size);
	memset(&rec, 0, sizeof(rec));
	rec.cpu = (int)s->cpu;
	rec.size = (int)s->raw.size;
	rec.data = tp->raw;
	/* an event whose format was left out, or a sample too short for its fields: no fields */
	ev = tep_find_event_by_record(tp->tep, &rec);
	if (ev && fields_inside(ev, s->raw.size)) {
		trace_seq_reset(&tp->seq);
		tep_print_event(tp->tep, &tp->seq, &rec, "%s", TEP_PRINT_INFO);
		trace_seq_terminate(&tp->seq);
		out_mem(o, tp->seq.buffer, (size_t)tp->seq.len);
	}
	memset(tp->raw, 0, s->raw.size);
}
