/* libFuzzer harness for the perf.data reader: open an image, walk every record, decode samples. */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "format/xpf_reader.h"

/*
 * Built by `make fuzz-build` with clang -fsanitize=fuzzer,address,undefined; run by
 * tests/fuzz/run.sh. Any crash, sanitizer report, leak or hang is a reader bug: every size,
 * count and offset in the input is hostile.
 */

/* Enough records to cover any corpus file; a reader that loops forever is caught by the
 * fuzzer's -timeout, not here. */
#define MAX_RECORDS 100000

/* Touch what the reader hands out, so a bad pointer or length is a sanitizer report here
 * rather than a silent pass. */
static volatile uint64_t sink;

static void touch(const void *p, size_t len)
{
	const unsigned char *c = p;
	uint64_t sum = 0;

	for (size_t i = 0; i < len; i++)
		sum += c[i];
	sink += sum;
}

static void walk_sample(const xpf_reader *r, const struct perf_event_header *hdr)
{
	struct xpf_sample s;
	struct xb_error err;

	memset(&s, 0, sizeof(s));
	if (xpf_reader_decode_sample(r, hdr, &s, &err) < 0)
		return;
	if (s.callchain.ips)
		touch(s.callchain.ips, s.callchain.nr * sizeof(uint64_t));
	if (s.raw.data)
		touch(s.raw.data, s.raw.size);
	if (s.branch_stack.entries)
		touch(s.branch_stack.entries, s.branch_stack.nr * sizeof(struct perf_branch_entry));
	if (s.user_regs.regs)
		touch(s.user_regs.regs, s.user_regs.nr * sizeof(uint64_t));
	if (s.intr_regs.regs)
		touch(s.intr_regs.regs, s.intr_regs.nr * sizeof(uint64_t));
	if (s.user_stack.data)
		touch(s.user_stack.data, s.user_stack.size);
	if (s.aux.data)
		touch(s.aux.data, s.aux.size);
	if (s.read.entries)
		touch(s.read.entries, s.read.nr * s.read.stride * sizeof(uint64_t));
}

static void touch_str(const char *s)
{
	if (s)
		touch(s, strlen(s));
}

static void walk_features(const xpf_reader *r)
{
	const struct xpf_features *f = xpf_reader_features(r);

	if (!f)
		return;
	touch_str(f->hostname);
	touch_str(f->osrelease);
	touch_str(f->version);
	touch_str(f->arch);
	touch_str(f->cpudesc);
	touch_str(f->cpuid);
	for (uint32_t i = 0; f->cmdline && i < f->cmdline_argc; i++)
		touch_str(f->cmdline[i]);
	for (uint32_t i = 0; f->event_desc && i < f->nr_event_desc; i++) {
		touch_str(f->event_desc[i].name);
		if (f->event_desc[i].ids)
			touch(f->event_desc[i].ids, f->event_desc[i].nr_ids * sizeof(uint64_t));
	}
	for (uint32_t i = 0; f->build_ids && i < f->nr_build_ids; i++)
		touch_str(f->build_ids[i].filename);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct xb_error err;
	struct xpf_record rec;
	xpf_reader *r = NULL;
	const char *warning;
	int n = 0;

	if (xpf_reader_open_mem(&r, data, size, "fuzz.data", &err) < 0)
		return 0;
	walk_features(r);
	for (uint32_t i = 0; i < xpf_reader_nr_attrs(r); i++) {
		const struct xpf_attr *a = xpf_reader_attr(r, i);

		if (a && a->ids)
			touch(a->ids, a->nr_ids * sizeof(uint64_t));
		if (a)
			touch_str(a->name);
	}
	while (n++ < MAX_RECORDS && xpf_reader_next(r, &rec, &err) > 0) {
		touch(rec.hdr, rec.hdr->size);
		if (rec.hdr->type == PERF_RECORD_SAMPLE)
			walk_sample(r, rec.hdr);
	}
	warning = xpf_reader_warning(r);
	touch_str(warning);
	xpf_reader_close(r);
	return 0;
}
