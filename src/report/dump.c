/* --dump: each record's offset, size, type and decoded fields, in the style of perf report -D. */
#include <string.h>
#include <sys/mman.h>

#include "report/report.h"

/* Bounded view of a record body; reads past the end yield zeros and set `short_`. */
struct body {
	const uint8_t *p, *end;
	bool short_;
};

static void body_init(struct body *b, const struct perf_event_header *hdr)
{
	b->p = (const uint8_t *)(hdr + 1);
	b->end = (const uint8_t *)hdr + hdr->size;
	b->short_ = false;
}

static uint64_t u64(struct body *b)
{
	uint64_t v = 0;

	if (b->end - b->p >= 8)
		memcpy(&v, b->p, 8), b->p += 8;
	else
		b->short_ = true, b->p = b->end;
	return v;
}

static uint32_t u32(struct body *b)
{
	uint32_t v = 0;

	if (b->end - b->p >= 4)
		memcpy(&v, b->p, 4), b->p += 4;
	else
		b->short_ = true, b->p = b->end;
	return v;
}

static uint16_t u16(struct body *b)
{
	uint16_t v = 0;

	if (b->end - b->p >= 2)
		memcpy(&v, b->p, 2), b->p += 2;
	else
		b->short_ = true, b->p = b->end;
	return v;
}

/*
 * A NUL-terminated string inside the record, then skip to the next u64 boundary (strings
 * in kernel records are padded to 8 bytes). Never reads past the record: an unterminated
 * string is printed up to the record's end.
 */
static void str(struct body *b, FILE *out)
{
	size_t max = (size_t)(b->end - b->p), len = strnlen((const char *)b->p, max);

	fwrite(b->p, 1, len, out);
	len = (len + 8) & ~(size_t)7;
	b->p += len < max ? len : max;
}

/* A sample_type that carries time/cpu for the prefix, and whether records carry ids */
struct dump_ctx {
	uint64_t sample_type;
	bool sample_id_all;
};

static void print_prefix(const xpf_reader *r, const struct xpf_record *rec,
			 const struct dump_ctx *c, const struct xpf_sample *s, FILE *out)
{
	uint32_t type = rec->hdr->type;

	/* perf prints "-1 -1" for kernel records that cannot say when they happened */
	if (type < XPF_RECORD_HEADER_ATTR && type != PERF_RECORD_SAMPLE && !c->sample_id_all) {
		fputs("-1 -1 ", out);
	} else if (xpf_reader_nr_attrs(r) == 0 ||
		   (type == XPF_RECORD_HEADER_ATTR && xpf_reader_nr_attrs(r) == 1)) {
		/* no event known yet (the reader has applied this first HEADER_ATTR already) */
		fputs("-1 -1 ", out);
	} else {
		if (c->sample_type & PERF_SAMPLE_CPU)
			fprintf(out, "%u ", s->cpu);
		if (c->sample_type & PERF_SAMPLE_TIME)
			fprintf(out, "%llu ", (unsigned long long)s->time);
	}
	fprintf(out, "%#llx [%#x]: PERF_RECORD_", (unsigned long long)rec->file_offset,
		rec->hdr->size);
	const char *name = xpf_record_type_name(type);

	if (name)
		fputs(name, out);
	else
		fprintf(out, "UNKNOWN(%u)", type);
}

static void dump_mmap(const struct perf_event_header *hdr, FILE *out)
{
	struct body b;
	uint32_t pid, tid;
	uint64_t start, len, pgoff;

	body_init(&b, hdr);
	pid = u32(&b), tid = u32(&b);
	start = u64(&b), len = u64(&b), pgoff = u64(&b);
	fprintf(out, " %d/%d: [%#llx(%#llx) @ %#llx]: %c ", (int)pid, (int)tid,
		(unsigned long long)start, (unsigned long long)len, (unsigned long long)pgoff,
		hdr->misc & PERF_RECORD_MISC_MMAP_DATA ? 'r' : 'x');
	str(&b, out);
	fputc('\n', out);
}

static void dump_mmap2(const struct perf_event_header *hdr, FILE *out)
{
	struct body b;
	uint32_t pid, tid, prot, flags;
	uint64_t start, len, pgoff;

	body_init(&b, hdr);
	pid = u32(&b), tid = u32(&b);
	start = u64(&b), len = u64(&b), pgoff = u64(&b);
	fprintf(out, " %d/%d: [%#llx(%#llx) @ %#llx ", (int)pid, (int)tid,
		(unsigned long long)start, (unsigned long long)len, (unsigned long long)pgoff);
	if (hdr->misc & PERF_RECORD_MISC_MMAP_BUILD_ID) {
		uint8_t size = 0, id[20] = { 0 };

		if (b.end - b.p >= 24) {
			size = b.p[0];
			memcpy(id, b.p + 4, 20);
		}
		b.p += b.end - b.p >= 24 ? 24 : b.end - b.p;
		fputc('<', out);
		for (unsigned int i = 0; i < size && i < 20; i++)
			fprintf(out, "%02x", id[i]);
		fputs(">]", out);
	} else {
		uint32_t maj = u32(&b), min = u32(&b);
		uint64_t ino = u64(&b), gen = u64(&b);

		fprintf(out, "%02x:%02x %llu %llu]", maj, min, (unsigned long long)ino,
			(unsigned long long)gen);
	}
	prot = u32(&b), flags = u32(&b);
	fprintf(out, ": %c%c%c%c ", prot & PROT_READ ? 'r' : '-', prot & PROT_WRITE ? 'w' : '-',
		prot & PROT_EXEC ? 'x' : '-', flags & MAP_SHARED ? 's' : 'p');
	str(&b, out);
	fputc('\n', out);
}

static void dump_comm(const struct perf_event_header *hdr, FILE *out)
{
	struct body b;
	uint32_t pid, tid;

	body_init(&b, hdr);
	pid = u32(&b), tid = u32(&b);
	fprintf(out, "%s: ", hdr->misc & PERF_RECORD_MISC_COMM_EXEC ? " exec" : "");
	str(&b, out);
	fprintf(out, ":%d/%d\n", (int)pid, (int)tid);
}

static void dump_namespaces(struct body *b, FILE *out)
{
	static const char *const names[] = { "net", "uts", "ipc", "pid", "user", "mnt", "cgroup" };
	uint32_t pid = u32(b), tid = u32(b);
	uint64_t nr = u64(b);

	fprintf(out, " %d/%d - nr_namespaces: %llu\n\t\t[", (int)pid, (int)tid,
		(unsigned long long)nr);
	for (uint64_t i = 0; i < nr && !b->short_; i++) {
		uint64_t dev = u64(b), ino = u64(b);

		fprintf(out, "%llu/%s: %llu/%#llx%s", (unsigned long long)i,
			i < 7 ? names[i] : "unknown", (unsigned long long)dev,
			(unsigned long long)ino, i + 1 != nr ? ", " : "");
	}
	fputs("]\n", out);
}

static void dump_switch(const struct perf_event_header *hdr, struct body *b, FILE *out)
{
	bool is_out = hdr->misc & PERF_RECORD_MISC_SWITCH_OUT;
	const char *in_out = !is_out ? "IN         " :
			     !(hdr->misc & PERF_RECORD_MISC_SWITCH_OUT_PREEMPT) ? "OUT        " :
										  "OUT preempt";

	if (hdr->type == PERF_RECORD_SWITCH) {
		fprintf(out, " %s\n", in_out);
		return;
	}
	uint32_t pid = u32(b), tid = u32(b);

	fprintf(out, " %s  %s pid/tid: %5d/%-5d\n", in_out, is_out ? "next" : "prev", (int)pid,
		(int)tid);
}

/* Kernel record types other than SAMPLE, MMAP, MMAP2 and COMM. */
static void dump_kernel_other(const struct perf_event_header *hdr, FILE *out)
{
	struct body b;
	uint64_t a1, a2, a3;
	uint32_t p1, p2, p3, p4;

	body_init(&b, hdr);
	switch (hdr->type) {
	case PERF_RECORD_FORK:
	case PERF_RECORD_EXIT:
		p1 = u32(&b), p2 = u32(&b), p3 = u32(&b), p4 = u32(&b);
		/* pid, ppid, tid, ptid on disk; perf prints (pid:tid):(ppid:ptid) */
		fprintf(out, "(%d:%d):(%d:%d)\n", (int)p1, (int)p3, (int)p2, (int)p4);
		break;
	case PERF_RECORD_LOST:
		a1 = u64(&b), a2 = u64(&b);
		fprintf(out, ": id:%llu: lost:%llu\n", (unsigned long long)a1, (unsigned long long)a2);
		break;
	case PERF_RECORD_THROTTLE:
	case PERF_RECORD_UNTHROTTLE:
		a1 = u64(&b), a2 = u64(&b), a3 = u64(&b);
		fprintf(out, ": time %llu id %llu stream_id %llu\n", (unsigned long long)a1,
			(unsigned long long)a2, (unsigned long long)a3);
		break;
	case PERF_RECORD_READ:
		p1 = u32(&b), p2 = u32(&b), a1 = u64(&b);
		fprintf(out, ": %d %d %llu\n", (int)p1, (int)p2, (unsigned long long)a1);
		break;
	case PERF_RECORD_AUX:
		a1 = u64(&b), a2 = u64(&b), a3 = u64(&b);
		fprintf(out, " offset: %#llx size: %#llx flags: %#llx [%s%s%s]\n",
			(unsigned long long)a1, (unsigned long long)a2, (unsigned long long)a3,
			a3 & PERF_AUX_FLAG_TRUNCATED ? "T" : "",
			a3 & PERF_AUX_FLAG_OVERWRITE ? "O" : "",
			a3 & PERF_AUX_FLAG_PARTIAL ? "P" : "");
		break;
	case PERF_RECORD_ITRACE_START:
		p1 = u32(&b), p2 = u32(&b);
		fprintf(out, " pid: %u tid: %u\n", p1, p2);
		break;
	case PERF_RECORD_LOST_SAMPLES:
		a1 = u64(&b);
		fprintf(out, " lost %llu\n", (unsigned long long)a1);
		break;
	case PERF_RECORD_SWITCH:
	case PERF_RECORD_SWITCH_CPU_WIDE:
		dump_switch(hdr, &b, out);
		break;
	case PERF_RECORD_NAMESPACES:
		dump_namespaces(&b, out);
		break;
	case PERF_RECORD_KSYMBOL:
		a1 = u64(&b), p1 = u32(&b), p2 = u16(&b), p3 = u16(&b);
		fprintf(out, " addr %llx len %u type %u flags 0x%x name ", (unsigned long long)a1,
			p1, p2, p3);
		str(&b, out);
		fputc('\n', out);
		break;
	case PERF_RECORD_BPF_EVENT:
		p1 = u16(&b), p2 = u16(&b), p3 = u32(&b);
		fprintf(out, " type %u, flags %u, id %u\n", p1, p2, p3);
		break;
	case PERF_RECORD_CGROUP:
		a1 = u64(&b);
		fprintf(out, " cgroup: %llu ", (unsigned long long)a1);
		str(&b, out);
		fputc('\n', out);
		break;
	case PERF_RECORD_TEXT_POKE:
		a1 = u64(&b), p1 = u16(&b), p2 = u16(&b);
		fprintf(out, " %#llx old len %u new len %u\n", (unsigned long long)a1, p1, p2);
		break;
	case PERF_RECORD_AUX_OUTPUT_HW_ID:
		a1 = u64(&b);
		fprintf(out, " hw_id: %#llx\n", (unsigned long long)a1);
		break;
	default:
		fprintf(out, ": size %u\n", hdr->size);
		break;
	}
}

void dump_record(const xpf_reader *r, const struct xpf_record *rec, FILE *out)
{
	const struct perf_event_header *hdr = rec->hdr;
	const struct xpf_attr *first = xpf_reader_nr_attrs(r) ? xpf_reader_attr(r, 0) : NULL;
	struct dump_ctx c = { 0 };
	struct xpf_sample s;
	struct xb_error err;
	bool have_sample = false;
	const struct xpf_attr *sattr = NULL;

	memset(&s, 0, sizeof(s));
	if (first) {
		c.sample_type = first->attr.sample_type;
		c.sample_id_all = first->attr.sample_id_all;
	}
	if (hdr->type == PERF_RECORD_SAMPLE) {
		sattr = xpf_reader_attr_of(r, hdr);
		if (!sattr)
			snprintf(err.msg, sizeof(err.msg), "no event has this sample's id");
		else
			have_sample = xpf_sample_decode(&sattr->attr, hdr, &s, &err) == 0;
	} else if (hdr->type < XPF_RECORD_HEADER_ATTR && c.sample_id_all) {
		const struct xpf_attr *a = xpf_reader_attr_of(r, hdr);

		if (a && xpf_sample_id_decode(&a->attr, hdr, &s, NULL) != 0)
			memset(&s, 0, sizeof(s));
	}
	print_prefix(r, rec, &c, &s, out);

	switch (hdr->type) {
	case PERF_RECORD_SAMPLE:
		if (have_sample) {
			dump_sample(&sattr->attr, hdr, &s, out);
		} else {
			fprintf(out, ": cannot decode: %s\n", err.msg);
		}
		break;
	case PERF_RECORD_MMAP:
		dump_mmap(hdr, out);
		break;
	case PERF_RECORD_MMAP2:
		dump_mmap2(hdr, out);
		break;
	case PERF_RECORD_COMM:
		dump_comm(hdr, out);
		break;
	default:
		if (hdr->type >= XPF_RECORD_HEADER_ATTR)
			dump_user_record(r, hdr, out);
		else
			dump_kernel_other(hdr, out);
		break;
	}
}
