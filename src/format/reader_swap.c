/* Byte-swapping perf.data structures written on a host of the other byte order. */
#include <byteswap.h>
#include <stddef.h>
#include <string.h>

#include "format/reader_int.h"
#include "format/xpf_sample.h"

/*
 * All helpers take a byte offset and the record size and do nothing past the end, so a
 * garbled record is swapped as far as it goes and the decoders report the damage.
 */
static void sw16(uint8_t *p, size_t off, size_t size)
{
	uint16_t v;

	if (off + 2 > size)
		return;
	memcpy(&v, p + off, 2);
	v = bswap_16(v);
	memcpy(p + off, &v, 2);
}

static void sw32(uint8_t *p, size_t off, size_t size)
{
	uint32_t v;

	if (off + 4 > size)
		return;
	memcpy(&v, p + off, 4);
	v = bswap_32(v);
	memcpy(p + off, &v, 4);
}

static void sw64(uint8_t *p, size_t off, size_t size)
{
	uint64_t v;

	if (off + 8 > size)
		return;
	memcpy(&v, p + off, 8);
	v = bswap_64(v);
	memcpy(p + off, &v, 8);
}

static void sw64_from(uint8_t *p, size_t off, size_t size)
{
	for (; off + 8 <= size; off += 8)
		sw64(p, off, size);
}

void xpf_swap_u64s(void *p, size_t n)
{
	sw64_from(p, 0, n * 8);
}

void xpf_swap_header(struct xpf_file_header *h)
{
	uint64_t *bits = h->adds_features;
	const unsigned int hostname = XPF_FEAT_HOSTNAME;

	xpf_swap_u64s(h, offsetof(struct xpf_file_header, adds_features) / 8);
	/*
	 * perf declares the bitmap as unsigned long, so a 32-bit writer's words are u32. perf
	 * tells them apart by the HOSTNAME bit, which every perf sets; we do the same.
	 */
	xpf_swap_u64s(bits, XPF_FEAT_BITS / 64);
	if (!((bits[hostname / 64] >> (hostname % 64)) & 1)) {
		uint32_t w[XPF_FEAT_BITS / 32];

		xpf_swap_u64s(bits, XPF_FEAT_BITS / 64);
		memcpy(w, bits, sizeof(w));
		for (size_t i = 0; i < XPF_FEAT_BITS / 32; i++)
			w[i] = bswap_32(w[i]);
		memcpy(bits, w, sizeof(w));
	}
	if (!((bits[hostname / 64] >> (hostname % 64)) & 1)) {
		/* as perf: no trustworthy bitmap, assume only BUILD_ID */
		memset(bits, 0, XPF_FEAT_BITS / 8);
		bits[0] = 1ULL << XPF_FEAT_BUILD_ID;
	}
}

static uint8_t revbyte(uint8_t b)
{
	b = (uint8_t)((b & 0xf0) >> 4 | (b & 0x0f) << 4);
	b = (uint8_t)((b & 0xcc) >> 2 | (b & 0x33) << 2);
	return (uint8_t)((b & 0xaa) >> 1 | (b & 0x55) << 1);
}

void xpf_swap_attr(void *attr, uint32_t size)
{
	/* {offset, width} of every field of perf_event_attr up to PERF_ATTR_SIZE_VER8 */
	static const uint8_t fields[][2] = {
		{ 0, 4 },   { 4, 4 },   { 8, 8 },   { 16, 8 },  { 24, 8 },  { 32, 8 },
		/* 40: the bitfield word, handled below */
		{ 48, 4 },  { 52, 4 },  { 56, 8 },  { 64, 8 },  { 72, 8 },  { 80, 8 },
		{ 88, 4 },  { 92, 4 },  { 96, 8 },  { 104, 4 }, { 108, 2 }, { 110, 2 },
		{ 112, 4 }, { 116, 4 }, { 120, 8 }, { 128, 8 },
	};
	uint8_t *p = attr;

	for (size_t i = 0; i < sizeof(fields) / sizeof(fields[0]); i++) {
		size_t off = fields[i][0];

		switch (fields[i][1]) {
		case 2: sw16(p, off, size); break;
		case 4: sw32(p, off, size); break;
		default: sw64(p, off, size); break;
		}
	}
	/*
	 * Bitfields are allocated from the other end of the storage unit on the other byte
	 * order; perf undoes that by reversing the bits of each byte, keeping byte order.
	 */
	if (size >= 48)
		for (size_t i = 40; i < 48; i++)
			p[i] = revbyte(p[i]);
}

/* A u32 pair swapped as one u64 has its halves exchanged: put them back. */
static void fix_pair(uint8_t *p, size_t off, size_t size)
{
	uint64_t v;

	if (off + 8 > size)
		return;
	memcpy(&v, p + off, 8);
	v = v << 32 | v >> 32;
	memcpy(p + off, &v, 8);
}

static uint64_t word(const uint8_t *p, size_t off, size_t size)
{
	uint64_t v = 0;

	if (off + 8 <= size)
		memcpy(&v, p + off, 8);
	return v;
}

/*
 * perf swaps a sample as u64 words and then repairs the u32 fields while parsing; we
 * repair right away: pid/tid and cpu/res, and the raw block, which goes back to file order
 * with only its size swapped (raw tracepoint data is parsed in the writer's order).
 */
static void swap_sample(uint8_t *p, size_t size, const struct perf_event_attr *attr)
{
	uint64_t t = attr->sample_type;
	size_t off = 8;

	sw64_from(p, 8, size);
	off += 8 * (!!(t & PERF_SAMPLE_IDENTIFIER) + !!(t & PERF_SAMPLE_IP));
	if (t & PERF_SAMPLE_TID) {
		fix_pair(p, off, size);
		off += 8;
	}
	off += 8 * (!!(t & PERF_SAMPLE_TIME) + !!(t & PERF_SAMPLE_ADDR) + !!(t & PERF_SAMPLE_ID) +
		    !!(t & PERF_SAMPLE_STREAM_ID));
	if (t & PERF_SAMPLE_CPU) {
		fix_pair(p, off, size);
		off += 8;
	}
	if (t & PERF_SAMPLE_PERIOD)
		off += 8;
	if (t & PERF_SAMPLE_READ) {
		uint64_t rf = attr->read_format, per = 1 + !!(rf & PERF_FORMAT_ID) +
						       !!(rf & PERF_FORMAT_LOST);
		uint64_t times = !!(rf & PERF_FORMAT_TOTAL_TIME_ENABLED) +
				 !!(rf & PERF_FORMAT_TOTAL_TIME_RUNNING);

		if (rf & PERF_FORMAT_GROUP) {
			uint64_t nr = word(p, off, size);

			if (nr > size / 8)
				return;
			off += 8 * (1 + times + nr * per);
		} else {
			off += 8 * (times + per);
		}
	}
	if (t & PERF_SAMPLE_CALLCHAIN) {
		uint64_t nr = word(p, off, size);

		if (nr > size / 8)
			return;
		off += 8 * (1 + nr);
	}
	if (t & PERF_SAMPLE_RAW && off + 8 <= size) {
		uint32_t raw_size;
		size_t end;

		/* back to file order: the first u32 of the first word is the size */
		sw64(p, off, size);
		memcpy(&raw_size, p + off, 4);
		raw_size = bswap_32(raw_size);
		end = off + ((4 + (size_t)raw_size + 7) & ~(size_t)7);
		if (end > size)
			end = size;
		for (size_t o = off + 8; o + 8 <= end; o += 8)
			sw64(p, o, size);
		memcpy(p + off, &raw_size, 4);
	}
}

/*
 * Per type as perf's session.c: the fixed fields by width, u64 bodies as u64s, and for
 * kernel records the sample_id trailer, found from the end of the record.
 */
void xpf_swap_record(struct perf_event_header *hdr, const struct perf_event_attr *attr)
{
	uint8_t *p = (uint8_t *)hdr;
	size_t size = hdr->size;
	size_t all_from = 0; /* swap every u64 from here to the end */

	if (size < 8)
		return;
	switch (hdr->type) {
	case PERF_RECORD_SAMPLE:
		if (attr)
			swap_sample(p, size, attr);
		else
			sw64_from(p, 8, size);
		return;
	case PERF_RECORD_MMAP:
		sw32(p, 8, size), sw32(p, 12, size);
		sw64(p, 16, size), sw64(p, 24, size), sw64(p, 32, size);
		break;
	case PERF_RECORD_MMAP2:
		sw32(p, 8, size), sw32(p, 12, size);
		sw64(p, 16, size), sw64(p, 24, size), sw64(p, 32, size);
		if (!(hdr->misc & PERF_RECORD_MISC_MMAP_BUILD_ID)) {
			sw32(p, 40, size), sw32(p, 44, size);
			sw64(p, 48, size), sw64(p, 56, size);
		}
		sw32(p, 64, size), sw32(p, 68, size);
		break;
	case PERF_RECORD_COMM:
	case PERF_RECORD_ITRACE_START:
	case PERF_RECORD_SWITCH_CPU_WIDE:
		sw32(p, 8, size), sw32(p, 12, size);
		break;
	case PERF_RECORD_FORK:
	case PERF_RECORD_EXIT:
		for (size_t o = 8; o < 24; o += 4)
			sw32(p, o, size);
		sw64(p, 24, size);
		break;
	case PERF_RECORD_READ:
	case PERF_RECORD_NAMESPACES:
		sw32(p, 8, size), sw32(p, 12, size);
		all_from = 16;
		break;
	case PERF_RECORD_KSYMBOL:
		sw64(p, 8, size), sw32(p, 16, size), sw16(p, 20, size), sw16(p, 22, size);
		break;
	case PERF_RECORD_BPF_EVENT:
		sw16(p, 8, size), sw16(p, 10, size), sw32(p, 12, size);
		break;
	case PERF_RECORD_CGROUP:
		sw64(p, 8, size);
		break;
	case PERF_RECORD_TEXT_POKE:
		sw64(p, 8, size), sw16(p, 16, size), sw16(p, 18, size);
		break;
	case PERF_RECORD_LOST:
	case PERF_RECORD_THROTTLE:
	case PERF_RECORD_UNTHROTTLE:
	case PERF_RECORD_AUX:
	case PERF_RECORD_LOST_SAMPLES:
	case PERF_RECORD_SWITCH:
	case PERF_RECORD_AUX_OUTPUT_HW_ID:
		all_from = 8;
		break;
	case XPF_RECORD_ID_INDEX:
	case XPF_RECORD_STAT_CONFIG:
	case XPF_RECORD_STAT_ROUND:
	case XPF_RECORD_TIME_CONV:
		sw64_from(p, 8, size);
		return;
	case XPF_RECORD_HEADER_ATTR: {
		uint32_t asz = 0;

		if (size >= 16) {
			memcpy(&asz, p + 12, 4);
			asz = bswap_32(asz);
			if (!asz)
				asz = PERF_ATTR_SIZE_VER0;
		}
		if (asz > size - 8)
			asz = (uint32_t)(size - 8) & ~7u;
		xpf_swap_attr(p + 8, asz);
		sw64_from(p, 8 + asz, size);
		return;
	}
	case XPF_RECORD_HEADER_EVENT_TYPE:
	case XPF_RECORD_HEADER_FEATURE: /* the payload stays in file order for the decoder */
	case XPF_RECORD_COMPRESSED2:
		sw64(p, 8, size);
		return;
	case XPF_RECORD_HEADER_TRACING_DATA:
	case XPF_RECORD_HEADER_BUILD_ID:
		sw32(p, 8, size);
		return;
	case XPF_RECORD_AUXTRACE_INFO:
		sw32(p, 8, size);
		sw64_from(p, 16, size);
		return;
	case XPF_RECORD_AUXTRACE:
		sw64(p, 8, size), sw64(p, 16, size), sw64(p, 24, size);
		for (size_t o = 32; o < 48; o += 4)
			sw32(p, o, size);
		return;
	case XPF_RECORD_AUXTRACE_ERROR:
		for (size_t o = 8; o < 32; o += 4)
			sw32(p, o, size);
		sw64(p, 32, size), sw64(p, 40, size);
		sw32(p, 112, size), sw32(p, 116, size);
		return;
	case XPF_RECORD_THREAD_MAP: {
		uint64_t nr;

		sw64(p, 8, size);
		nr = word(p, 8, size);
		for (uint64_t i = 0; i < nr && 16 + i * 24 + 8 <= size; i++)
			sw64(p, 16 + i * 24, size);
		return;
	}
	case XPF_RECORD_STAT:
		sw64(p, 8, size), sw32(p, 16, size), sw32(p, 20, size);
		sw64_from(p, 24, size);
		return;
	case XPF_RECORD_EVENT_UPDATE:
		sw64(p, 8, size), sw64(p, 16, size);
		if (word(p, 8, size) == 1) /* PERF_EVENT_UPDATE__SCALE: a double */
			sw64(p, 24, size);
		return;
	default:
		/* unknown or byte-only (FINISHED_ROUND, COMPRESSED, ...): untouched, as perf */
		return;
	}
	if (all_from)
		sw64_from(p, all_from, size);
	if (attr && attr->sample_id_all) {
		uint64_t t = attr->sample_type;
		size_t trailer = xpf_sample_id_size(t);

		if (trailer > size - 8)
			return;
		if (!all_from)
			sw64_from(p, size - trailer, size);
		/* pid/tid and cpu/res are u32 pairs */
		if (t & PERF_SAMPLE_TID)
			fix_pair(p, size - trailer, size);
		if (t & PERF_SAMPLE_CPU)
			fix_pair(p, size - 8 * (1 + !!(t & PERF_SAMPLE_IDENTIFIER)), size);
	}
}
