/* --stats: counts of each record type in one pass, printed as perf report --stats prints them. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "base/array.h"
#include "report/report.h"

uint32_t report_attr_index(const xpf_reader *r, const struct xpf_attr *a)
{
	uint32_t n = xpf_reader_nr_attrs(r);

	for (uint32_t i = 0; i < n; i++)
		if (xpf_reader_attr(r, i) == a)
			return i;
	return UINT32_MAX;
}

static int grow_attrs(struct report_stats *st, uint32_t need)
{
	/* two arrays of one length: each grows the same way from the same capacity */
	uint32_t cap_samples = st->cap_attrs, cap_lost = st->cap_attrs;

	if (XB_ARRAY_RESERVE0(st->attr_samples, cap_samples, need, 4) ||
	    XB_ARRAY_RESERVE0(st->attr_lost, cap_lost, need, 4))
		return -ENOMEM;
	st->cap_attrs = cap_samples;
	return 0;
}

/* Per-attr counters for the record's attr; NULL when it has none we know. */
static int attr_slot(struct report_stats *st, const xpf_reader *r,
		     const struct perf_event_header *hdr, uint32_t *idx)
{
	uint32_t n = xpf_reader_nr_attrs(r);
	const struct xpf_attr *a;

	/* The common case, one event: no id lookup at all. */
	if (n == 1) {
		*idx = 0;
	} else {
		a = xpf_reader_attr_of(r, hdr);
		*idx = a ? report_attr_index(r, a) : UINT32_MAX;
		if (*idx == UINT32_MAX)
			return -ENOENT;
	}
	if (*idx >= st->cap_attrs) {
		int ret = grow_attrs(st, *idx + 1);

		if (ret)
			return ret;
	}
	if (*idx >= st->nr_attrs)
		st->nr_attrs = *idx + 1;
	return 0;
}

int report_stats_add_sample(struct report_stats *st, const xpf_reader *r,
			    const struct perf_event_header *hdr)
{
	uint32_t type = hdr->type, idx;
	int ret;

	/* the common case, one event already seen: no lookup */
	if (type == PERF_RECORD_SAMPLE && st->nr_attrs == 1 && xpf_reader_nr_attrs(r) == 1) {
		st->attr_samples[0]++;
		return 0;
	}
	ret = attr_slot(st, r, hdr, &idx);
	if (ret == -ENOENT) {
		if (type == PERF_RECORD_SAMPLE)
			st->samples_no_attr++;
		return 0;
	}
	if (ret)
		return ret;
	if (type == PERF_RECORD_SAMPLE) {
		st->attr_samples[idx]++;
	} else if (hdr->size >= sizeof(*hdr) + sizeof(uint64_t)) {
		uint64_t lost;

		memcpy(&lost, hdr + 1, sizeof(lost));
		st->attr_lost[idx] += lost;
	}
	return 0;
}

/* perf prints counts with %d (its counters are u32); we keep u64 and print them whole. */
static void print_line(FILE *out, const char *name, uint64_t n, uint64_t total)
{
	if (total)
		fprintf(out, "%16s events: %10llu  (%4.1f%%)\n", name, (unsigned long long)n,
			100.0 * (double)n / (double)total);
	else
		fprintf(out, "%16s events: %10llu\n", name, (unsigned long long)n);
}

/* perf's names for the generic events, for files without EVENT_DESC (a cut-off file) */
static const char *generic_name(uint32_t type, uint64_t config)
{
	static const char *const hw[] = {
		"cycles", "instructions", "cache-references", "cache-misses", "branches",
		"branch-misses", "bus-cycles", "stalled-cycles-frontend", "stalled-cycles-backend",
		"ref-cycles",
	};
	static const char *const sw[] = {
		"cpu-clock", "task-clock", "page-faults", "context-switches", "cpu-migrations",
		"minor-faults", "major-faults", "alignment-faults", "emulation-faults", "dummy",
		"bpf-output", "cgroup-switches",
	};

	if (type == PERF_TYPE_HARDWARE && config < sizeof(hw) / sizeof(hw[0]))
		return hw[config];
	if (type == PERF_TYPE_SOFTWARE && config < sizeof(sw) / sizeof(sw[0]))
		return sw[config];
	return NULL;
}

static const char *attr_name(const xpf_reader *r, uint32_t idx, char *buf, size_t size)
{
	const struct xpf_attr *a = xpf_reader_attr(r, idx);
	const char *name;

	if (a && a->name)
		return a->name;
	if (!a)
		return "unknown event";
	name = generic_name(a->attr.type, a->attr.config);
	if (name)
		return name;
	snprintf(buf, size, "%u:%#llx", a->attr.type, (unsigned long long)a->attr.config);
	return buf;
}

void report_stats_print(const struct report_stats *st, const xpf_reader *r, FILE *out)
{
	const struct xpf_header_info *h = xpf_reader_header(r);
	char buf[128];

	fprintf(out, "\nAggregated stats:%s\n",
		h && (h->adds_features[XPF_FEAT_AUXTRACE / 64] >> (XPF_FEAT_AUXTRACE % 64)) & 1 ?
		" (excludes AUX area (e.g. instruction trace) decoded / synthesized events)" : "");
	print_line(out, "TOTAL", st->total, 0);
	for (uint32_t t = 1; t < REPORT_NR_TYPES; t++) {
		const char *name = xpf_record_type_name(t);

		if (!st->nr[t])
			continue;
		if (!name) {
			snprintf(buf, sizeof(buf), "type %u", t);
			name = buf;
		}
		print_line(out, name, st->nr[t], st->total);
	}
	if (st->unknown)
		print_line(out, "UNKNOWN", st->unknown, st->total);

	for (uint32_t i = 0; i < st->nr_attrs; i++) {
		if (!st->attr_samples[i] && !st->attr_lost[i])
			continue;
		fprintf(out, "%s stats:\n", attr_name(r, i, buf, sizeof(buf)));
		if (st->attr_samples[i])
			print_line(out, "SAMPLE", st->attr_samples[i], 0);
		if (st->attr_lost[i])
			print_line(out, "LOST_SAMPLES", st->attr_lost[i], 0);
	}
	if (st->samples_no_attr)
		fprintf(out, "samples of no known event: %llu\n",
			(unsigned long long)st->samples_no_attr);
}

void report_stats_free(struct report_stats *st)
{
	if (!st)
		return;
	free(st->attr_samples);
	free(st->attr_lost);
	memset(st, 0, sizeof(*st));
}
