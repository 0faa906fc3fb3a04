/* --dump of perf's own record types (64 and up): ID_INDEX, THREAD_MAP, CPU_MAP, EVENT_UPDATE... */
#include <string.h>

#include "report/report.h"

/* Bounded reads from a record body: past the end they yield 0 and stop loops via `left`. */
struct ub {
	const uint8_t *p, *end;
};

static uint64_t left(const struct ub *b)
{
	return (uint64_t)(b->end - b->p);
}

static uint64_t g64(struct ub *b)
{
	uint64_t v = 0;

	if (left(b) >= 8)
		memcpy(&v, b->p, 8), b->p += 8;
	else
		b->p = b->end;
	return v;
}

static uint32_t g32(struct ub *b)
{
	uint32_t v = 0;

	if (left(b) >= 4)
		memcpy(&v, b->p, 4), b->p += 4;
	else
		b->p = b->end;
	return v;
}

static uint16_t g16(struct ub *b)
{
	uint16_t v = 0;

	if (left(b) >= 2)
		memcpy(&v, b->p, 2), b->p += 2;
	else
		b->p = b->end;
	return v;
}

/* A fixed-size, possibly unterminated string field. */
static void fixed_str(struct ub *b, size_t size, FILE *out)
{
	size_t n = size < left(b) ? size : (size_t)left(b);

	fwrite(b->p, 1, strnlen((const char *)b->p, n), out);
	b->p += n;
}

/* A list of CPUs as ranges: "0-3,5" */
struct cpu_list {
	int first, last;
	bool any;
};

static void cpu_list_add(struct cpu_list *l, int cpu, FILE *out)
{
	if (l->any && cpu == l->last + 1) {
		l->last = cpu;
		return;
	}
	if (l->any) {
		fprintf(out, "%d", l->first);
		if (l->last != l->first)
			fprintf(out, "-%d", l->last);
		fputc(',', out);
	}
	l->first = l->last = cpu, l->any = true;
}

static void cpu_list_end(struct cpu_list *l, FILE *out)
{
	if (!l->any)
		return;
	fprintf(out, "%d", l->first);
	if (l->last != l->first)
		fprintf(out, "-%d", l->last);
}

/* The cpu map data of CPU_MAP and EVENT_UPDATE(CPUS): three encodings. */
static void cpu_map_data(struct ub *b, FILE *out)
{
	struct cpu_list l = { 0 };
	uint16_t type = g16(b), nr, long_size;

	switch (type) {
	case 0: /* PERF_CPU_MAP__CPUS: u16 nr, u16 cpu[nr] */
		nr = g16(b);
		for (uint16_t i = 0; i < nr && left(b) >= 2; i++) {
			uint16_t cpu = g16(b);

			cpu_list_add(&l, cpu == 0xffff ? -1 : cpu, out);
		}
		break;
	case 1: /* PERF_CPU_MAP__MASK: u16 nr, u16 long_size, then the mask words */
		nr = g16(b), long_size = g16(b);
		if (long_size == 8)
			b->p += left(b) >= 2 ? 2 : left(b); /* the u64 words are 8-byte aligned */
		for (uint32_t w = 0; w < nr && left(b) >= long_size; w++) {
			uint64_t m = long_size == 8 ? g64(b) : g32(b);

			for (unsigned int bit = 0; bit < long_size * 8u; bit++)
				if (m >> bit & 1)
					cpu_list_add(&l, (int)(w * long_size * 8 + bit), out);
		}
		break;
	case 2: { /* PERF_CPU_MAP__RANGE_CPUS: u8 any_cpu, u8 pad, u16 start, u16 end */
		uint16_t any = g16(b), start = g16(b), end = g16(b);

		if (any & 0xff)
			cpu_list_add(&l, -1, out);
		for (uint32_t c = start; c <= end; c++)
			cpu_list_add(&l, (int)c, out);
		break;
	}
	default:
		fprintf(out, "(cpu map type %u)", type);
		return;
	}
	cpu_list_end(&l, out);
}

static void dump_id_index(struct ub *b, FILE *out)
{
	uint64_t nr = g64(b);

	fprintf(out, " nr: %llu\n", (unsigned long long)nr);
	for (uint64_t i = 0; i < nr && left(b) >= 32; i++) {
		uint64_t id = g64(b), idx = g64(b), cpu = g64(b), tid = g64(b);

		fprintf(out, " ... id: %llu  idx: %llu  cpu: %lld  tid: %lld\n",
			(unsigned long long)id, (unsigned long long)idx, (long long)cpu,
			(long long)tid);
	}
}

static void dump_thread_map(struct ub *b, FILE *out)
{
	uint64_t nr = g64(b);

	fprintf(out, " nr: %llu thread%s: ", (unsigned long long)nr, nr > 1 ? "s" : "");
	for (uint64_t i = 0; i < nr && left(b) >= 24; i++) {
		uint64_t pid = g64(b);

		b->p += 16; /* comm[16] */
		fprintf(out, "%s%lld", i ? ", " : "", (long long)pid);
	}
	fputc('\n', out);
}

static void dump_event_update(struct ub *b, FILE *out)
{
	uint64_t type = g64(b), id = g64(b);
	double scale;

	fprintf(out, "\n... id:    %llu\n", (unsigned long long)id);
	switch (type) {
	case 0: /* UNIT */
		fputs("... unit:  ", out);
		fixed_str(b, left(b), out);
		fputc('\n', out);
		break;
	case 1: /* SCALE */
		if (left(b) >= 8) {
			memcpy(&scale, b->p, 8);
			fprintf(out, "... scale: %f\n", scale);
		}
		break;
	case 2: /* NAME */
		fputs("... name:  ", out);
		fixed_str(b, left(b), out);
		fputc('\n', out);
		break;
	case 3: /* CPUS */
		fputs("... cpus:  ", out);
		cpu_map_data(b, out);
		fputc('\n', out);
		break;
	default:
		fprintf(out, "... unknown type %llu\n", (unsigned long long)type);
		break;
	}
}

static void dump_time_conv(struct ub *b, FILE *out)
{
	uint64_t shift = g64(b), mult = g64(b), zero = g64(b);

	fprintf(out, "\n... Time Shift      %llu\n", (unsigned long long)shift);
	fprintf(out, "... Time Muliplier  %llu\n", (unsigned long long)mult);
	fprintf(out, "... Time Zero       %llu\n", (unsigned long long)zero);
	if (left(b) >= 24) {
		uint64_t cycles = g64(b), mask = g64(b);
		uint8_t zero_cap = b->p[0], short_cap = b->p[1];

		fprintf(out, "... Time Cycles     %llu\n", (unsigned long long)cycles);
		fprintf(out, "... Time Mask       %#llx\n", (unsigned long long)mask);
		fprintf(out, "... Cap Time Zero   %u\n", zero_cap);
		fprintf(out, "... Cap Time Short  %u\n", short_cap);
	}
}

static void dump_attr(const struct perf_event_header *hdr, struct ub *b, FILE *out)
{
	struct perf_event_attr attr;
	uint32_t size;

	memset(&attr, 0, sizeof(attr));
	if (left(b) < 8) {
		fputc('\n', out);
		return;
	}
	memcpy(&size, b->p + 4, 4); /* attr.size follows attr.type */
	if (size < 8 || size > left(b)) {
		fprintf(out, ": bad attr size %u\n", size);
		return;
	}
	memcpy(&attr, b->p, size < sizeof(attr) ? size : sizeof(attr));
	b->p += size;
	fprintf(out, ": type %u, config %#llx, %llu ids", attr.type,
		(unsigned long long)attr.config, (unsigned long long)(left(b) / 8));
	(void)hdr;
	fputc('\n', out);
}

void dump_user_record(const xpf_reader *r, const struct perf_event_header *hdr, FILE *out)
{
	struct ub b = { (const uint8_t *)(hdr + 1), (const uint8_t *)hdr + hdr->size };
	const char *name;
	uint64_t v1, v2, v3;
	uint32_t a, c;

	(void)r;
	switch (hdr->type) {
	case XPF_RECORD_HEADER_ATTR:
		dump_attr(hdr, &b, out);
		break;
	case XPF_RECORD_HEADER_FEATURE:
		v1 = g64(&b);
		name = v1 < XPF_FEAT_BITS ? xpf_feature_name((unsigned int)v1) : NULL;
		/* perf ends a stream's feature records with one for HEADER_LAST_FEATURE */
		if (v1 == XPF_FEAT_LAST_KNOWN)
			name = "end of features";
		fprintf(out, ": %s (%llu), %llu bytes\n", name ? name : "unknown",
			(unsigned long long)v1, (unsigned long long)left(&b));
		break;
	case XPF_RECORD_HEADER_TRACING_DATA:
		fprintf(out, ": size %u\n", g32(&b));
		break;
	case XPF_RECORD_HEADER_BUILD_ID: {
		int32_t pid = (int32_t)g32(&b);

		b.p += left(&b) >= 24 ? 24 : left(&b); /* build id bytes */
		fprintf(out, ": pid %d: ", pid);
		fixed_str(&b, left(&b), out);
		fputc('\n', out);
		break;
	}
	case XPF_RECORD_ID_INDEX:
		dump_id_index(&b, out);
		break;
	case XPF_RECORD_THREAD_MAP:
		dump_thread_map(&b, out);
		break;
	case XPF_RECORD_CPU_MAP:
		fputs(": ", out);
		cpu_map_data(&b, out);
		fputc('\n', out);
		break;
	case XPF_RECORD_EVENT_UPDATE:
		dump_event_update(&b, out);
		break;
	case XPF_RECORD_TIME_CONV:
		dump_time_conv(&b, out);
		break;
	case XPF_RECORD_AUXTRACE_INFO:
		fprintf(out, ": type %u\n", g32(&b));
		break;
	case XPF_RECORD_AUXTRACE:
		v1 = g64(&b), v2 = g64(&b), v3 = g64(&b);
		a = g32(&b), c = g32(&b);
		fprintf(out, " size: %#llx  offset: %#llx  ref: %#llx  idx: %u  tid: %d  cpu: %d\n",
			(unsigned long long)v1, (unsigned long long)v2, (unsigned long long)v3, a,
			(int)c, (int)g32(&b));
		break;
	case XPF_RECORD_AUXTRACE_ERROR:
		a = g32(&b), c = g32(&b);
		fprintf(out, ": type %u code %u\n", a, c);
		break;
	case XPF_RECORD_STAT_CONFIG:
		v1 = g64(&b);
		fprintf(out, ": nr %llu\n", (unsigned long long)v1);
		for (uint64_t i = 0; i < v1 && left(&b) >= 16; i++) {
			v2 = g64(&b), v3 = g64(&b);
			fprintf(out, "... tag %llu: %llu\n", (unsigned long long)v2,
				(unsigned long long)v3);
		}
		break;
	case XPF_RECORD_STAT:
		v1 = g64(&b), a = g32(&b), c = g32(&b), v2 = g64(&b);
		fprintf(out, "\n... id %llu, cpu %d, thread %d\n... value %llu\n",
			(unsigned long long)v1, (int)a, (int)c, (unsigned long long)v2);
		break;
	case XPF_RECORD_STAT_ROUND:
		v1 = g64(&b), v2 = g64(&b);
		fprintf(out, "\n... time %llu, type %s\n", (unsigned long long)v2,
			v1 ? "FINAL" : "INTERVAL");
		break;
	case XPF_RECORD_COMPRESSED:
	case XPF_RECORD_COMPRESSED2:
		fprintf(out, ": %u bytes of compressed data\n", hdr->size - 8);
		break;
	case XPF_RECORD_FINISHED_ROUND:
	case XPF_RECORD_FINISHED_INIT:
		fputc('\n', out);
		break;
	default:
		fprintf(out, ": size %u\n", hdr->size);
		break;
	}
}
