/*
 * libFuzzer harness for the tracepoint format check (src/script/tracepoint_format.c and
 * print_fmt.c) against libtraceevent itself: an input is an event format's text; when the
 * check passes it, libtraceevent parses it and prints a record of the event as xperf script
 * would (from a zero-padded copy, lengths bounded). Any crash here is a format the check
 * should have refused: script hands libtraceevent nothing else, in its own process.
 *
 * libtraceevent 1.7 asks malloc for about 3 GB when it prints a __get_cpumask() (never
 * touched, so harmless in a release build): run.sh gives this target a malloc limit of 4 GB.
 *
 * Seeds: tests/corpus/tp-formats/ and, where tracefs is mounted, every format of the kernel
 * (tests/fuzz/run.sh copies them).
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <traceevent/event-parse.h>
#include <traceevent/trace-seq.h>

#include "script/tracepoint_format.h"

#define PAD (1u << 20) /* as TP_PAD in src/script/tracepoint_te.c */

/*
 * The size of a record holding every field of the event (at least 64 bytes), as script
 * prints only samples whose raw data holds them all (fields_inside() in tracepoint_te.c):
 * libtraceevent takes a flexible array (size 0) to run to the record's end.
 */
static int record_size(const struct tep_event *ev)
{
	const struct tep_format_field *lists[2] = { ev->format.common_fields, ev->format.fields };
	int size = 64;

	for (int i = 0; i < 2; i++)
		for (const struct tep_format_field *f = lists[i]; f; f = f->next)
			if (f->offset >= 0 && f->size >= 0 && f->offset + f->size > size)
				size = f->offset + f->size;
	return size;
}

/*
 * Print one record of the event whose first bytes but common_type are fill: 0, and 1 (a
 * __data_loc then points 257 bytes in, 257 long). What a damaged sample's data does is the
 * printing's business (bounded lengths, the padded copy), not the format check's.
 */
static void print_record(struct tep_handle *tep, struct tep_event *ev, unsigned char *raw,
			 unsigned char fill)
{
	struct tep_format_field *type = tep_find_common_field(ev, "common_type");
	struct tep_record rec = { .data = raw, .size = record_size(ev) };
	struct trace_seq seq;
	uint16_t id = (uint16_t)ev->id;

	if (!type || type->size != 2 || type->offset < 0 || type->offset > 62)
		return;
	memset(raw, fill, 64);
	memcpy(raw + type->offset, &id, 2);
	trace_seq_init(&seq);
	tep_print_event(tep, &seq, &rec, "%s", TEP_PRINT_INFO);
	trace_seq_destroy(&seq);
	memset(raw, 0, 64);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static unsigned char *raw;
	struct tep_handle *tep;
	struct tep_event *ev;
	char name[64], *text, *bounded;
	const char *why;
	size_t n;

	if (!raw && !(raw = calloc(1, PAD)))
		return 0;
	if (!(text = malloc(size + 1)))
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';
	/* script refuses text with a NUL or a control character before the check */
	for (size_t i = 0; i < size; i++)
		if ((data[i] < 0x20 && data[i] != '\t' && data[i] != '\n' && data[i] != '\r') ||
		    data[i] == 0x7f) {
			free(text);
			return 0;
		}
	if (!tp_format_ok(text, size, name, sizeof(name), &why) ||
	    !(bounded = tp_format_bound_lengths(text, size, &n))) {
		free(text);
		return 0;
	}
	free(text);
	if ((tep = tep_alloc())) {
		tep_set_file_bigendian(tep, TEP_LITTLE_ENDIAN);
		tep_set_local_bigendian(tep, TEP_LITTLE_ENDIAN);
		tep_set_long_size(tep, 8);
		if (tep_parse_event(tep, bounded, n, "sys") == 0 &&
		    (ev = tep_find_event_by_name(tep, "sys", name))) {
			print_record(tep, ev, raw, 0);
			print_record(tep, ev, raw, 0x01);
		}
		tep_free(tep);
	}
	free(bounded);
	return 0;
}
