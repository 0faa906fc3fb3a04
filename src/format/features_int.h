/* Internal to libxperf-format: the per-feature codecs that live outside features.c. */
#ifndef XPF_FEATURES_INT_H
#define XPF_FEATURES_INT_H

#include "format/feature_io.h"
#include "format/xpf_features.h"

/* Each decode reads from c (which records the first error); each encode appends to b. */
#define FEAT_CODEC(name) \
	int feat_##name##_decode(struct xpf_features *f, unsigned int bit, struct fcur *c); \
	int feat_##name##_encode(const struct xpf_features *f, unsigned int bit, struct fbuf *b); \
	void feat_##name##_clear(struct xpf_features *f, unsigned int bit);

FEAT_CODEC(cmdline)
FEAT_CODEC(event_desc)
FEAT_CODEC(build_id)
FEAT_CODEC(cpu_topology)
FEAT_CODEC(pmu_mappings)
FEAT_CODEC(group_desc)

/* Keep what is left of c as f->raw[bit] (replacing what was there). */
int feat_raw_keep(struct xpf_features *f, unsigned int bit, struct fcur *c);

#endif
