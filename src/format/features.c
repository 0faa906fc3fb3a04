/* Feature sections: the table of per-feature decode/encode, the simple features, and setters. */
#include <stdio.h>

#include "format/feature_io.h"
#include "format/features_int.h"
#include "format/xpf_features.h"

/* ---- raw features: kept as found ------------------------------------------------------ */

static void raw_clear(struct xpf_features *f, unsigned int bit)
{
	free(f->raw[bit].data);
	f->raw[bit].data = NULL;
	f->raw[bit].size = 0;
}

int feat_raw_keep(struct xpf_features *f, unsigned int bit, struct fcur *c)
{
	uint64_t n = fcur_left(c);
	void *p = malloc(n ? n : 1);

	if (!p)
		return xb_error_set(c->err, -ENOMEM, "out of memory");
	memcpy(p, c->p + c->pos, n);
	c->pos += n;
	raw_clear(f, bit);
	f->raw[bit].data = p;
	f->raw[bit].size = n;
	return 0;
}

static int raw_decode(struct xpf_features *f, unsigned int bit, struct fcur *c)
{
	return feat_raw_keep(f, bit, c);
}

static int raw_encode(const struct xpf_features *f, unsigned int bit, struct fbuf *b)
{
	fbuf_put(b, f->raw[bit].data, f->raw[bit].size);
	return 0;
}

/* ---- strings ------------------------------------------------------------------------- */

static char **string_field(struct xpf_features *f, unsigned int bit)
{
	switch (bit) {
	case XPF_FEAT_HOSTNAME: return &f->hostname;
	case XPF_FEAT_OSRELEASE: return &f->osrelease;
	case XPF_FEAT_VERSION: return &f->version;
	case XPF_FEAT_ARCH: return &f->arch;
	case XPF_FEAT_CPUDESC: return &f->cpudesc;
	case XPF_FEAT_CPUID: return &f->cpuid;
	default: return NULL;
	}
}

static void string_clear(struct xpf_features *f, unsigned int bit)
{
	char **s = string_field(f, bit);

	free(*s);
	*s = NULL;
}

static int string_decode(struct xpf_features *f, unsigned int bit, struct fcur *c)
{
	char *s;

	if (fcur_string(c, &s, "string"))
		return c->rc;
	string_clear(f, bit);
	*string_field(f, bit) = s;
	return 0;
}

static int string_encode(const struct xpf_features *f, unsigned int bit, struct fbuf *b)
{
	fbuf_string(b, *string_field((struct xpf_features *)f, bit));
	return 0;
}

/* ---- fixed-size features --------------------------------------------------------------- */

static void nothing_clear(struct xpf_features *f, unsigned int bit)
{
	(void)f;
	(void)bit;
}

/* perf writes nr_cpus_avail first, then nr_cpus_online (write_nrcpus). */
static int nrcpus_decode(struct xpf_features *f, unsigned int bit, struct fcur *c)
{
	(void)bit;
	fcur_u32(c, &f->nr_cpus_avail, "nr_cpus_avail");
	fcur_u32(c, &f->nr_cpus_online, "nr_cpus_online");
	return c->rc;
}

static int nrcpus_encode(const struct xpf_features *f, unsigned int bit, struct fbuf *b)
{
	(void)bit;
	fbuf_u32(b, f->nr_cpus_avail);
	fbuf_u32(b, f->nr_cpus_online);
	return 0;
}

static int total_mem_decode(struct xpf_features *f, unsigned int bit, struct fcur *c)
{
	(void)bit;
	return fcur_u64(c, &f->total_mem_kb, "total_mem");
}

static int total_mem_encode(const struct xpf_features *f, unsigned int bit, struct fbuf *b)
{
	(void)bit;
	fbuf_u64(b, f->total_mem_kb);
	return 0;
}

static int sample_time_decode(struct xpf_features *f, unsigned int bit, struct fcur *c)
{
	(void)bit;
	fcur_u64(c, &f->sample_time_first, "first sample time");
	fcur_u64(c, &f->sample_time_last, "last sample time");
	return c->rc;
}

static int sample_time_encode(const struct xpf_features *f, unsigned int bit, struct fbuf *b)
{
	(void)bit;
	fbuf_u64(b, f->sample_time_first);
	fbuf_u64(b, f->sample_time_last);
	return 0;
}

static int clockid_decode(struct xpf_features *f, unsigned int bit, struct fcur *c)
{
	(void)bit;
	return fcur_u64(c, &f->clockid_res_ns, "clockid resolution");
}

static int clockid_encode(const struct xpf_features *f, unsigned int bit, struct fbuf *b)
{
	(void)bit;
	fbuf_u64(b, f->clockid_res_ns);
	return 0;
}

static int compressed_decode(struct xpf_features *f, unsigned int bit, struct fcur *c)
{
	struct xpf_compressed_desc *d = &f->compressed;

	(void)bit;
	fcur_u32(c, &d->version, "version");
	fcur_u32(c, &d->type, "type");
	fcur_u32(c, &d->level, "level");
	fcur_u32(c, &d->ratio, "ratio");
	fcur_u32(c, &d->mmap_len, "mmap_len");
	return c->rc;
}

static int compressed_encode(const struct xpf_features *f, unsigned int bit, struct fbuf *b)
{
	const struct xpf_compressed_desc *d = &f->compressed;

	(void)bit;
	fbuf_u32(b, d->version);
	fbuf_u32(b, d->type);
	fbuf_u32(b, d->level);
	fbuf_u32(b, d->ratio);
	fbuf_u32(b, d->mmap_len);
	return 0;
}

/* ---- the table --------------------------------------------------------------------------- */

struct feat_ops {
	int (*decode)(struct xpf_features *f, unsigned int bit, struct fcur *c);
	int (*encode)(const struct xpf_features *f, unsigned int bit, struct fbuf *b);
	void (*clear)(struct xpf_features *f, unsigned int bit);
};

#define RAW { raw_decode, raw_encode, raw_clear }
#define STR { string_decode, string_encode, string_clear }

static const struct feat_ops feat_ops[XPF_FEAT_LAST_KNOWN] = {
	[XPF_FEAT_TRACING_DATA] = RAW,
	[XPF_FEAT_BUILD_ID] = { feat_build_id_decode, feat_build_id_encode, feat_build_id_clear },
	[XPF_FEAT_HOSTNAME] = STR,
	[XPF_FEAT_OSRELEASE] = STR,
	[XPF_FEAT_VERSION] = STR,
	[XPF_FEAT_ARCH] = STR,
	[XPF_FEAT_NRCPUS] = { nrcpus_decode, nrcpus_encode, nothing_clear },
	[XPF_FEAT_CPUDESC] = STR,
	[XPF_FEAT_CPUID] = STR,
	[XPF_FEAT_TOTAL_MEM] = { total_mem_decode, total_mem_encode, nothing_clear },
	[XPF_FEAT_CMDLINE] = { feat_cmdline_decode, feat_cmdline_encode, feat_cmdline_clear },
	[XPF_FEAT_EVENT_DESC] = { feat_event_desc_decode, feat_event_desc_encode,
				  feat_event_desc_clear },
	[XPF_FEAT_CPU_TOPOLOGY] = { feat_cpu_topology_decode, feat_cpu_topology_encode,
				    feat_cpu_topology_clear },
	[XPF_FEAT_NUMA_TOPOLOGY] = RAW,
	[XPF_FEAT_BRANCH_STACK] = RAW,
	[XPF_FEAT_PMU_MAPPINGS] = { feat_pmu_mappings_decode, feat_pmu_mappings_encode,
				    feat_pmu_mappings_clear },
	[XPF_FEAT_GROUP_DESC] = { feat_group_desc_decode, feat_group_desc_encode,
				  feat_group_desc_clear },
	[XPF_FEAT_AUXTRACE] = RAW,
	[XPF_FEAT_STAT] = RAW,
	[XPF_FEAT_CACHE] = RAW,
	[XPF_FEAT_SAMPLE_TIME] = { sample_time_decode, sample_time_encode, nothing_clear },
	[XPF_FEAT_MEM_TOPOLOGY] = RAW,
	[XPF_FEAT_CLOCKID] = { clockid_decode, clockid_encode, nothing_clear },
	[XPF_FEAT_DIR_FORMAT] = RAW,
	[XPF_FEAT_BPF_PROG_INFO] = RAW,
	[XPF_FEAT_BPF_BTF] = RAW,
	[XPF_FEAT_COMPRESSED] = { compressed_decode, compressed_encode, nothing_clear },
	[XPF_FEAT_CPU_PMU_CAPS] = RAW,
	[XPF_FEAT_CLOCK_DATA] = RAW,
	[XPF_FEAT_HYBRID_TOPOLOGY] = RAW,
	[XPF_FEAT_PMU_CAPS] = RAW,
};

static void unmark(struct xpf_features *f, unsigned int bit)
{
	f->present[bit / 64] &= ~(1ULL << (bit % 64));
}

void xpf_features_free(struct xpf_features *f)
{
	unsigned int bit;

	if (!f)
		return;
	for (bit = 1; bit < XPF_FEAT_LAST_KNOWN; bit++) {
		feat_ops[bit].clear(f, bit);
		/* a decoded feature may have left its raw remainder (CPU_TOPOLOGY) */
		raw_clear(f, bit);
	}
	memset(f, 0, sizeof(*f));
}

int xpf_feature_decode(struct xpf_features *f, unsigned int bit, const void *payload,
		       uint64_t size, bool swap, uint64_t file_offset, struct xb_error *err)
{
	struct fcur c = {
		.p = payload, .size = size, .swap = swap, .file_offset = file_offset,
		.bit = bit, .err = err,
	};
	int rc;

	/* Bits we do not know (newer perf) carry nothing we could use: skip them. */
	if (bit == XPF_FEAT_RESERVED || bit >= XPF_FEAT_LAST_KNOWN)
		return 0;
	if (!payload && size)
		return xb_error_set(err, -EINVAL, "feature %u: no payload", bit);
	feat_ops[bit].clear(f, bit);
	unmark(f, bit);
	rc = feat_ops[bit].decode(f, bit, &c);
	if (!rc && c.rc)
		rc = c.rc;
	if (rc) {
		feat_ops[bit].clear(f, bit);
		return rc;
	}
	xpf_features_mark(f, bit);
	return 0;
}

int xpf_feature_encode(const struct xpf_features *f, unsigned int bit, void **out,
		       uint64_t *out_size, struct xb_error *err)
{
	struct fbuf b = { 0 };
	int rc;

	*out = NULL;
	*out_size = 0;
	if (bit == XPF_FEAT_RESERVED || bit >= XPF_FEAT_LAST_KNOWN || !xpf_features_has(f, bit))
		return xb_error_set(err, -ENOENT, "feature %u is not set", bit);
	rc = feat_ops[bit].encode(f, bit, &b);
	if (rc) {
		free(b.buf);
		return xb_error_set(err, rc, "feature %u: cannot encode", bit);
	}
	if (b.failed) {
		free(b.buf);
		return xb_error_set(err, -ENOMEM, "feature %u: out of memory", bit);
	}
	if (!b.buf)
		b.buf = malloc(1); /* an empty payload is still a payload */
	if (!b.buf)
		return xb_error_set(err, -ENOMEM, "feature %u: out of memory", bit);
	*out = b.buf;
	*out_size = b.len;
	return 0;
}

int xpf_features_set_string(struct xpf_features *f, unsigned int bit, const char *value)
{
	char **field = bit < XPF_FEAT_LAST_KNOWN ? string_field(f, bit) : NULL;
	char *s;

	if (!field || !value)
		return -EINVAL;
	s = strdup(value);
	if (!s)
		return -ENOMEM;
	free(*field);
	*field = s;
	xpf_features_mark(f, bit);
	return 0;
}

int xpf_features_set_raw(struct xpf_features *f, unsigned int bit, const void *data,
			 uint64_t size)
{
	void *p;

	if (bit >= XPF_FEAT_LAST_KNOWN || feat_ops[bit].decode != raw_decode)
		return -EINVAL;
	p = malloc(size ? size : 1);
	if (!p)
		return -ENOMEM;
	if (size)
		memcpy(p, data, size);
	raw_clear(f, bit);
	f->raw[bit].data = p;
	f->raw[bit].size = size;
	xpf_features_mark(f, bit);
	return 0;
}

int xpf_features_merge(struct xpf_features *dst, const struct xpf_features *src,
		       struct xb_error *err)
{
	/* Through encode + decode: one path to keep correct instead of a deep copy per field. */
	for (unsigned int bit = 1; bit < XPF_FEAT_LAST_KNOWN; bit++) {
		void *buf;
		uint64_t size;
		int rc;

		if (!xpf_features_has(src, bit))
			continue;
		rc = xpf_feature_encode(src, bit, &buf, &size, err);
		if (!rc)
			rc = xpf_feature_decode(dst, bit, buf, size, false, 0, err);
		free(buf);
		if (rc)
			return rc;
	}
	return 0;
}

int xpf_features_copy(struct xpf_features *dst, const struct xpf_features *src,
		      struct xb_error *err)
{
	struct xpf_features tmp = { 0 };
	int rc = xpf_features_merge(&tmp, src, err);

	if (rc) {
		xpf_features_free(&tmp);
		return rc;
	}
	*dst = tmp;
	return 0;
}
