/* Internal interface of xperf-report: the modes (dump, stats, header) and what they share. */
#ifndef XPERF_REPORT_H
#define XPERF_REPORT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "format/xpf_reader.h"
#include "profile/profile.h"

/*
 * Per-type record counts of one pass, as perf report --stats keeps them: types below
 * REPORT_NR_TYPES by number, anything else in `unknown`. Per-attr sample counts are
 * indexed like xpf_reader_attr() (attrs can appear during a pipe stream, so the array grows).
 */
#define REPORT_NR_TYPES 128

struct report_stats {
	uint64_t total;
	uint64_t nr[REPORT_NR_TYPES];
	uint64_t unknown;
	uint64_t *attr_samples, *attr_lost; /* per attr index */
	uint32_t nr_attrs, cap_attrs;
	uint64_t samples_no_attr;           /* samples whose id matches no attr */
};

/* SAMPLE and LOST_SAMPLES: the per-attr part of report_stats_add(). */
int report_stats_add_sample(struct report_stats *st, const xpf_reader *r,
			    const struct perf_event_header *hdr);

/* Count one record. Inline: it runs once per record, a million times for a big file. */
static inline int report_stats_add(struct report_stats *st, const xpf_reader *r,
				   const struct perf_event_header *hdr)
{
	uint32_t type = hdr->type;

	st->total++;
	if (type >= REPORT_NR_TYPES) {
		st->unknown++;
		return 0;
	}
	st->nr[type]++;
	if (type != PERF_RECORD_SAMPLE && type != PERF_RECORD_LOST_SAMPLES)
		return 0;
	return report_stats_add_sample(st, r, hdr);
}
/* Print in perf's "Aggregated stats:" layout. */
void report_stats_print(const struct report_stats *st, const xpf_reader *r, FILE *out);
void report_stats_free(struct report_stats *st);

/* The attr index of a (a pointer returned by xpf_reader_attr*), or UINT32_MAX. */
uint32_t report_attr_index(const xpf_reader *r, const struct xpf_attr *a);

/* --dump: one record, as perf report -D prints its decoded line(s). */
void dump_record(const xpf_reader *r, const struct xpf_record *rec, FILE *out);
/* The SAMPLE part of dump_record: decoded fields after the "PERF_RECORD_SAMPLE" word. */
void dump_sample(const struct perf_event_attr *attr, const struct perf_event_header *hdr,
		 const struct xpf_sample *s, FILE *out);
/* The decoded body of perf's own (user) record types: ID_INDEX, CPU_MAP, EVENT_UPDATE... */
void dump_user_record(const xpf_reader *r, const struct perf_event_header *hdr, FILE *out);

/*
 * --header-only: the header block and one line per feature, as perf report --header-only
 * prints them. `captured` is the file's modification time (or now, for a pipe).
 */
void header_print(const xpf_reader *r, int64_t captured, FILE *out);
/* Attr description as perf prints it after "# event : name = X, " (sample_type = ...). */
void header_print_attr(const struct perf_event_attr *attr, FILE *out);

/* Names of PERF_SAMPLE_* / PERF_FORMAT_* bits joined by '|' into buf. */
void report_bits_sample_type(uint64_t v, char *buf, size_t size);
void report_bits_read_format(uint64_t v, char *buf, size_t size);
void report_bits_branch_type(uint64_t v, char *buf, size_t size);

/*
 * -T: per-thread counts from PERF_RECORD_READ (`record -s`). report_threads_add is a
 * profile side-band hook (struct xpp_opts.on_side_band, ctx the report_threads); print
 * writes perf's "#   PID    TID  EVENT..." table. The reader is borrowed.
 */
struct report_threads;
struct report_threads *report_threads_create(const xpf_reader *r);
void report_threads_free(struct report_threads *t);
int report_threads_add(void *ctx, const struct perf_event_header *hdr);
void report_threads_print(const struct report_threads *t, FILE *out);

/*
 * --event NAME: the index of the event an export of p draws (after xpp_profile_run()):
 * the one named, else the first with samples, with a warning naming it when others have
 * samples too (not with quiet). `what` names the export in messages ("the flame graph").
 * CLI_EXIT_OK with *idx set, or an exit status after the error: CLI_EXIT_USAGE for a name
 * the file lacks (the message lists those it has), CLI_EXIT_RUNTIME for no samples.
 */
int report_event_pick(const xpp_profile *p, const char *name, const char *what, bool quiet,
		      uint32_t *idx);
/*
 * The same, for an export that shows event `besides` (off-CPU time) beside the one picked:
 * without a name, `besides` is neither picked nor counted among the others.
 */
int report_event_pick_besides(const xpp_profile *p, const char *name, const char *what,
			      bool quiet, uint32_t besides, uint32_t *idx);

#endif
