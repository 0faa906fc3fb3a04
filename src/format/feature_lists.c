/* Feature codecs for the list-shaped features: CMDLINE, EVENT_DESC, BUILD_ID, CPU_TOPOLOGY,
 * PMU_MAPPINGS and GROUP_DESC. */
#include "format/features_int.h"

/* sizeof(struct perf_record_header_build_id): header, pid, 24-byte build-id area */
#define BUILD_ID_REC_SIZE 36
#define MISC_BUILD_ID_SIZE (1 << 15) /* PERF_RECORD_MISC_BUILD_ID_SIZE: size byte is valid */

static int nomem(struct fcur *c)
{
	if (!c->rc)
		c->rc = xb_error_set(c->err, -ENOMEM, "feature %u: out of memory", c->bit);
	return c->rc;
}

static void free_strings(char **v, uint32_t n)
{
	for (uint32_t i = 0; v && i < n; i++)
		free(v[i]);
	free(v);
}

/* u32 nr, then nr strings: CMDLINE and the sibling lists of CPU_TOPOLOGY. */
static int decode_string_list(struct fcur *c, char ***out, uint32_t *out_nr, const char *what)
{
	uint32_t nr, i;
	char **v;

	*out = NULL;
	*out_nr = 0;
	if (fcur_u32(c, &nr, what) || fcur_count(c, nr, 4, what))
		return c->rc;
	v = calloc(nr ? nr : 1, sizeof(*v));
	if (!v)
		return nomem(c);
	for (i = 0; i < nr; i++) {
		if (fcur_string(c, &v[i], what)) {
			free_strings(v, i);
			return c->rc;
		}
	}
	*out = v;
	*out_nr = nr;
	return 0;
}

static void encode_string_list(struct fbuf *b, char *const *v, uint32_t nr)
{
	fbuf_u32(b, nr);
	for (uint32_t i = 0; i < nr; i++)
		fbuf_string(b, v[i]);
}

/* ---- CMDLINE ----------------------------------------------------------------------------- */

void feat_cmdline_clear(struct xpf_features *f, unsigned int bit)
{
	(void)bit;
	free_strings(f->cmdline, f->cmdline_argc);
	f->cmdline = NULL;
	f->cmdline_argc = 0;
}

int feat_cmdline_decode(struct xpf_features *f, unsigned int bit, struct fcur *c)
{
	(void)bit;
	return decode_string_list(c, &f->cmdline, &f->cmdline_argc, "cmdline argument");
}

int feat_cmdline_encode(const struct xpf_features *f, unsigned int bit, struct fbuf *b)
{
	(void)bit;
	encode_string_list(b, f->cmdline, f->cmdline_argc);
	return 0;
}

int xpf_features_set_cmdline(struct xpf_features *f, int argc, const char *const *argv)
{
	char **v;

	if (argc < 0)
		return -EINVAL;
	v = calloc(argc ? (size_t)argc : 1, sizeof(*v));
	if (!v)
		return -ENOMEM;
	for (int i = 0; i < argc; i++) {
		v[i] = strdup(argv[i] ? argv[i] : "");
		if (!v[i]) {
			free_strings(v, (uint32_t)i);
			return -ENOMEM;
		}
	}
	feat_cmdline_clear(f, XPF_FEAT_CMDLINE);
	f->cmdline = v;
	f->cmdline_argc = (uint32_t)argc;
	xpf_features_mark(f, XPF_FEAT_CMDLINE);
	return 0;
}

/* ---- EVENT_DESC -------------------------------------------------------------------------- */

static void event_desc_free(struct xpf_event_desc *v, uint32_t n)
{
	for (uint32_t i = 0; v && i < n; i++) {
		free(v[i].name);
		free(v[i].ids);
	}
	free(v);
}

void feat_event_desc_clear(struct xpf_features *f, unsigned int bit)
{
	(void)bit;
	event_desc_free(f->event_desc, f->nr_event_desc);
	f->event_desc = NULL;
	f->nr_event_desc = 0;
}

/* u32 nr, u32 attr_size, then per event: attr, u32 nr_ids, string name, u64 ids[nr_ids]. */
int feat_event_desc_decode(struct xpf_features *f, unsigned int bit, struct fcur *c)
{
	uint32_t nr, sz, i, k;
	struct xpf_event_desc *v;
	uint8_t *buf;

	(void)bit;
	if (fcur_u32(c, &nr, "event count") || fcur_u32(c, &sz, "attr size"))
		return c->rc;
	if (sz < PERF_ATTR_SIZE_VER0 || sz > 4096) {
		c->rc = xb_error_set(c->err, -EINVAL,
				      "feature EVENT_DESC at offset 0x%llx: attr size %u is invalid",
				      (unsigned long long)c->file_offset, sz);
		return c->rc;
	}
	/* each event: attr, nr_ids and at least an empty string's length */
	if (fcur_count(c, nr, (uint64_t)sz + 8, "event count"))
		return c->rc;
	v = calloc(nr ? nr : 1, sizeof(*v));
	buf = malloc(sz);
	if (!v || !buf) {
		free(v);
		free(buf);
		return nomem(c);
	}
	for (i = 0; i < nr; i++) {
		struct xpf_event_desc *e = &v[i];

		if (fcur_bytes(c, buf, sz, "attr"))
			break;
		if (c->swap)
			xpf_attr_swap_inplace(buf, sz);
		memcpy(&e->attr, buf, sz < sizeof(e->attr) ? sz : sizeof(e->attr));
		if (fcur_u32(c, &e->nr_ids, "id count") || fcur_string(c, &e->name, "event name") ||
		    fcur_count(c, e->nr_ids, 8, "id count"))
			break;
		e->ids = calloc(e->nr_ids ? e->nr_ids : 1, sizeof(uint64_t));
		if (!e->ids) {
			nomem(c);
			break;
		}
		for (k = 0; k < e->nr_ids; k++)
			fcur_u64(c, &e->ids[k], "id");
		if (c->rc)
			break;
	}
	free(buf);
	if (c->rc) {
		event_desc_free(v, nr);
		return c->rc;
	}
	f->event_desc = v;
	f->nr_event_desc = nr;
	return 0;
}

int feat_event_desc_encode(const struct xpf_features *f, unsigned int bit, struct fbuf *b)
{
	uint32_t sz = sizeof(struct perf_event_attr);

	(void)bit;
	/* perf 6.1 refuses attrs it does not know the size of; see XPF_ATTR_SIZE_MAX */
	if (sz > XPF_ATTR_SIZE_MAX)
		sz = XPF_ATTR_SIZE_MAX;
	fbuf_u32(b, f->nr_event_desc);
	fbuf_u32(b, sz);
	for (uint32_t i = 0; i < f->nr_event_desc; i++) {
		const struct xpf_event_desc *e = &f->event_desc[i];
		struct perf_event_attr attr = e->attr;

		if (!attr.size || attr.size > sz)
			attr.size = sz;
		fbuf_put(b, &attr, sz);
		fbuf_u32(b, e->nr_ids);
		fbuf_string(b, e->name ? e->name : "");
		fbuf_put(b, e->ids, (size_t)e->nr_ids * sizeof(uint64_t));
	}
	return 0;
}

int xpf_features_add_event_desc(struct xpf_features *f, const struct perf_event_attr *attr,
				const char *name, const uint64_t *ids, uint32_t nr_ids)
{
	struct xpf_event_desc *v, *e;

	v = realloc(f->event_desc, (f->nr_event_desc + 1) * sizeof(*v));
	if (!v)
		return -ENOMEM;
	f->event_desc = v;
	e = &v[f->nr_event_desc];
	memset(e, 0, sizeof(*e));
	e->attr = *attr;
	e->name = strdup(name ? name : "");
	e->ids = malloc(nr_ids ? nr_ids * sizeof(uint64_t) : 1);
	if (!e->name || !e->ids) {
		free(e->name);
		free(e->ids);
		return -ENOMEM;
	}
	if (nr_ids)
		memcpy(e->ids, ids, nr_ids * sizeof(uint64_t));
	e->nr_ids = nr_ids;
	f->nr_event_desc++;
	xpf_features_mark(f, XPF_FEAT_EVENT_DESC);
	return 0;
}

/* ---- BUILD_ID ---------------------------------------------------------------------------- */

void feat_build_id_clear(struct xpf_features *f, unsigned int bit)
{
	(void)bit;
	for (uint32_t i = 0; f->build_ids && i < f->nr_build_ids; i++)
		free(f->build_ids[i].filename);
	free(f->build_ids);
	f->build_ids = NULL;
	f->nr_build_ids = 0;
}

/*
 * A sequence of perf_record_header_build_id records: {u32 type, u16 misc, u16 size},
 * s32 pid, 24 bytes (20 of id, then the id's size when misc has MISC_BUILD_ID_SIZE),
 * filename NUL-padded up to header.size.
 */
int feat_build_id_decode(struct xpf_features *f, unsigned int bit, struct fcur *c)
{
	struct xpf_build_id_entry *v = NULL, *e;
	uint32_t n = 0, type, pid;
	uint16_t misc, size;
	uint8_t area[24];
	uint64_t at;

	(void)bit;
	while (!c->rc && fcur_left(c) > 0) {
		at = c->pos;
		if (fcur_u32(c, &type, "build-id record"))
			break;
		fcur_bytes(c, &misc, 2, "build-id record");
		fcur_bytes(c, &size, 2, "build-id record");
		fcur_u32(c, &pid, "build-id pid");
		fcur_bytes(c, area, 24, "build-id");
		if (c->rc)
			break;
		if (c->swap) {
			misc = bswap_16(misc);
			size = bswap_16(size);
		}
		if (size < BUILD_ID_REC_SIZE || (uint64_t)(size - BUILD_ID_REC_SIZE) > fcur_left(c)) {
			c->pos = at;
			fcur_fail(c, "build-id record size");
			break;
		}
		e = realloc(v, (n + 1) * sizeof(*v));
		if (!e) {
			nomem(c);
			break;
		}
		v = e;
		e = &v[n];
		memset(e, 0, sizeof(*e));
		e->filename = strndup((const char *)c->p + c->pos, size - BUILD_ID_REC_SIZE);
		if (!e->filename) {
			nomem(c);
			break;
		}
		n++;
		c->pos += size - BUILD_ID_REC_SIZE;
		e->pid = (int32_t)pid;
		e->misc = misc & ~MISC_BUILD_ID_SIZE;
		memcpy(e->build_id, area, 20);
		e->size = (misc & MISC_BUILD_ID_SIZE) ? (area[20] <= 20 ? area[20] : 20) : 20;
	}
	f->build_ids = v;
	f->nr_build_ids = n;
	return c->rc;
}

int feat_build_id_encode(const struct xpf_features *f, unsigned int bit, struct fbuf *b)
{
	(void)bit;
	for (uint32_t i = 0; i < f->nr_build_ids; i++) {
		const struct xpf_build_id_entry *e = &f->build_ids[i];
		const char *name = e->filename ? e->filename : "";
		size_t n = strlen(name) + 1;
		size_t len = (n + XPF_NAME_ALIGN - 1) / XPF_NAME_ALIGN * XPF_NAME_ALIGN;
		uint8_t area[24] = { 0 };
		uint16_t misc = e->misc | MISC_BUILD_ID_SIZE, size;

		if (BUILD_ID_REC_SIZE + len > UINT16_MAX)
			return -ENAMETOOLONG;
		size = (uint16_t)(BUILD_ID_REC_SIZE + len);
		memcpy(area, e->build_id, e->size <= 20 ? e->size : 20);
		area[20] = e->size <= 20 ? e->size : 20;
		/* perf writes type 0 here: these are not stream records */
		fbuf_u32(b, 0);
		fbuf_put(b, &misc, 2);
		fbuf_put(b, &size, 2);
		fbuf_u32(b, (uint32_t)e->pid);
		fbuf_put(b, area, 24);
		fbuf_put(b, name, n);
		fbuf_zero(b, len - n);
	}
	return 0;
}

int xpf_features_add_build_id(struct xpf_features *f, int32_t pid, uint16_t misc,
			      const uint8_t *build_id, uint8_t size, const char *filename)
{
	struct xpf_build_id_entry *v, *e;

	if (size > 20 || !filename)
		return -EINVAL;
	v = realloc(f->build_ids, (f->nr_build_ids + 1) * sizeof(*v));
	if (!v)
		return -ENOMEM;
	f->build_ids = v;
	e = &v[f->nr_build_ids];
	memset(e, 0, sizeof(*e));
	e->filename = strdup(filename);
	if (!e->filename)
		return -ENOMEM;
	e->pid = pid;
	e->misc = misc & ~MISC_BUILD_ID_SIZE;
	e->size = size;
	memcpy(e->build_id, build_id, size);
	f->nr_build_ids++;
	xpf_features_mark(f, XPF_FEAT_BUILD_ID);
	return 0;
}

/* ---- CPU_TOPOLOGY ------------------------------------------------------------------------ */

void feat_cpu_topology_clear(struct xpf_features *f, unsigned int bit)
{
	free_strings(f->core_siblings, f->nr_core_siblings);
	free_strings(f->thread_siblings, f->nr_thread_siblings);
	f->core_siblings = f->thread_siblings = NULL;
	f->nr_core_siblings = f->nr_thread_siblings = 0;
	free(f->raw[bit].data);
	f->raw[bit].data = NULL;
	f->raw[bit].size = 0;
}

/*
 * The sibling lists, then (perf >= 4.x) per-cpu core/socket ids, die lists and die ids
 * whose length depends on NRCPUS: kept as raw bytes, in file byte order.
 */
int feat_cpu_topology_decode(struct xpf_features *f, unsigned int bit, struct fcur *c)
{
	if (decode_string_list(c, &f->core_siblings, &f->nr_core_siblings, "core siblings"))
		return c->rc;
	if (decode_string_list(c, &f->thread_siblings, &f->nr_thread_siblings,
			       "thread siblings"))
		return c->rc;
	return feat_raw_keep(f, bit, c);
}

int feat_cpu_topology_encode(const struct xpf_features *f, unsigned int bit, struct fbuf *b)
{
	encode_string_list(b, f->core_siblings, f->nr_core_siblings);
	encode_string_list(b, f->thread_siblings, f->nr_thread_siblings);
	fbuf_put(b, f->raw[bit].data, f->raw[bit].size);
	return 0;
}

/* ---- PMU_MAPPINGS ------------------------------------------------------------------------ */

void feat_pmu_mappings_clear(struct xpf_features *f, unsigned int bit)
{
	(void)bit;
	for (uint32_t i = 0; f->pmu_mappings && i < f->nr_pmu_mappings; i++)
		free(f->pmu_mappings[i].name);
	free(f->pmu_mappings);
	f->pmu_mappings = NULL;
	f->nr_pmu_mappings = 0;
}

/* u32 nr, then {u32 type, string name} */
int feat_pmu_mappings_decode(struct xpf_features *f, unsigned int bit, struct fcur *c)
{
	uint32_t nr, i;

	if (fcur_u32(c, &nr, "pmu count") || fcur_count(c, nr, 8, "pmu count"))
		return c->rc;
	f->pmu_mappings = calloc(nr ? nr : 1, sizeof(*f->pmu_mappings));
	if (!f->pmu_mappings)
		return nomem(c);
	for (i = 0; i < nr; i++) {
		if (fcur_u32(c, &f->pmu_mappings[i].type, "pmu type") ||
		    fcur_string(c, &f->pmu_mappings[i].name, "pmu name"))
			break;
		f->nr_pmu_mappings = i + 1;
	}
	if (c->rc)
		feat_pmu_mappings_clear(f, bit);
	return c->rc;
}

int feat_pmu_mappings_encode(const struct xpf_features *f, unsigned int bit, struct fbuf *b)
{
	(void)bit;
	fbuf_u32(b, f->nr_pmu_mappings);
	for (uint32_t i = 0; i < f->nr_pmu_mappings; i++) {
		fbuf_u32(b, f->pmu_mappings[i].type);
		fbuf_string(b, f->pmu_mappings[i].name);
	}
	return 0;
}

/* ---- GROUP_DESC -------------------------------------------------------------------------- */

void feat_group_desc_clear(struct xpf_features *f, unsigned int bit)
{
	(void)bit;
	for (uint32_t i = 0; f->groups && i < f->nr_groups; i++)
		free(f->groups[i].name);
	free(f->groups);
	f->groups = NULL;
	f->nr_groups = 0;
}

/* u32 nr, then {string name, u32 leader_idx, u32 nr_members} */
int feat_group_desc_decode(struct xpf_features *f, unsigned int bit, struct fcur *c)
{
	uint32_t nr, i;

	if (fcur_u32(c, &nr, "group count") || fcur_count(c, nr, 12, "group count"))
		return c->rc;
	f->groups = calloc(nr ? nr : 1, sizeof(*f->groups));
	if (!f->groups)
		return nomem(c);
	for (i = 0; i < nr; i++) {
		if (fcur_string(c, &f->groups[i].name, "group name"))
			break;
		f->nr_groups = i + 1;
		if (fcur_u32(c, &f->groups[i].leader_idx, "group leader") ||
		    fcur_u32(c, &f->groups[i].nr_members, "group members"))
			break;
	}
	if (c->rc)
		feat_group_desc_clear(f, bit);
	return c->rc;
}

int feat_group_desc_encode(const struct xpf_features *f, unsigned int bit, struct fbuf *b)
{
	(void)bit;
	fbuf_u32(b, f->nr_groups);
	for (uint32_t i = 0; i < f->nr_groups; i++) {
		fbuf_string(b, f->groups[i].name);
		fbuf_u32(b, f->groups[i].leader_idx);
		fbuf_u32(b, f->groups[i].nr_members);
	}
	return 0;
}
