/* --header-only: the file header and its features, line for line as perf report --header-only. */
#include <string.h>
#include <time.h>

#include "report/report.h"

/* ---- attr printing (perf's perf_event_attr__fprintf, the 6.1 field list) ------------- */

struct bit_name {
	uint64_t bit;
	const char *name;
};

static void bits(uint64_t v, const struct bit_name *names, char *buf, size_t size)
{
	size_t len = 0;

	buf[0] = 0;
	for (; names->name; names++) {
		if (!(v & names->bit) || len >= size)
			continue;
		len += snprintf(buf + len, size - len, "%s%s", len ? "|" : "", names->name);
	}
}

void report_bits_sample_type(uint64_t v, char *buf, size_t size)
{
	static const struct bit_name n[] = {
		{ PERF_SAMPLE_IP, "IP" }, { PERF_SAMPLE_TID, "TID" }, { PERF_SAMPLE_TIME, "TIME" },
		{ PERF_SAMPLE_ADDR, "ADDR" }, { PERF_SAMPLE_READ, "READ" },
		{ PERF_SAMPLE_CALLCHAIN, "CALLCHAIN" }, { PERF_SAMPLE_ID, "ID" },
		{ PERF_SAMPLE_CPU, "CPU" }, { PERF_SAMPLE_PERIOD, "PERIOD" },
		{ PERF_SAMPLE_STREAM_ID, "STREAM_ID" }, { PERF_SAMPLE_RAW, "RAW" },
		{ PERF_SAMPLE_BRANCH_STACK, "BRANCH_STACK" }, { PERF_SAMPLE_REGS_USER, "REGS_USER" },
		{ PERF_SAMPLE_STACK_USER, "STACK_USER" }, { PERF_SAMPLE_WEIGHT, "WEIGHT" },
		{ PERF_SAMPLE_DATA_SRC, "DATA_SRC" }, { PERF_SAMPLE_IDENTIFIER, "IDENTIFIER" },
		{ PERF_SAMPLE_TRANSACTION, "TRANSACTION" }, { PERF_SAMPLE_REGS_INTR, "REGS_INTR" },
		{ PERF_SAMPLE_PHYS_ADDR, "PHYS_ADDR" }, { PERF_SAMPLE_AUX, "AUX" },
		{ PERF_SAMPLE_CGROUP, "CGROUP" }, { PERF_SAMPLE_DATA_PAGE_SIZE, "DATA_PAGE_SIZE" },
		{ PERF_SAMPLE_CODE_PAGE_SIZE, "CODE_PAGE_SIZE" },
		{ PERF_SAMPLE_WEIGHT_STRUCT, "WEIGHT_STRUCT" }, { 0, NULL }
	};
	bits(v, n, buf, size);
}

void report_bits_read_format(uint64_t v, char *buf, size_t size)
{
	static const struct bit_name n[] = {
		{ PERF_FORMAT_TOTAL_TIME_ENABLED, "TOTAL_TIME_ENABLED" },
		{ PERF_FORMAT_TOTAL_TIME_RUNNING, "TOTAL_TIME_RUNNING" },
		{ PERF_FORMAT_ID, "ID" }, { PERF_FORMAT_GROUP, "GROUP" },
		{ 1ULL << 4 /* PERF_FORMAT_LOST */, "LOST" }, { 0, NULL }
	};
	bits(v, n, buf, size);
}

void report_bits_branch_type(uint64_t v, char *buf, size_t size)
{
	static const struct bit_name n[] = {
		{ PERF_SAMPLE_BRANCH_USER, "USER" }, { PERF_SAMPLE_BRANCH_KERNEL, "KERNEL" },
		{ PERF_SAMPLE_BRANCH_HV, "HV" }, { PERF_SAMPLE_BRANCH_ANY, "ANY" },
		{ PERF_SAMPLE_BRANCH_ANY_CALL, "ANY_CALL" },
		{ PERF_SAMPLE_BRANCH_ANY_RETURN, "ANY_RETURN" },
		{ PERF_SAMPLE_BRANCH_IND_CALL, "IND_CALL" },
		{ PERF_SAMPLE_BRANCH_ABORT_TX, "ABORT_TX" }, { PERF_SAMPLE_BRANCH_IN_TX, "IN_TX" },
		{ PERF_SAMPLE_BRANCH_NO_TX, "NO_TX" }, { PERF_SAMPLE_BRANCH_COND, "COND" },
		{ PERF_SAMPLE_BRANCH_CALL_STACK, "CALL_STACK" },
		{ PERF_SAMPLE_BRANCH_IND_JUMP, "IND_JUMP" }, { PERF_SAMPLE_BRANCH_CALL, "CALL" },
		{ PERF_SAMPLE_BRANCH_NO_FLAGS, "NO_FLAGS" },
		{ PERF_SAMPLE_BRANCH_NO_CYCLES, "NO_CYCLES" },
		{ PERF_SAMPLE_BRANCH_TYPE_SAVE, "TYPE_SAVE" },
		{ PERF_SAMPLE_BRANCH_HW_INDEX, "HW_INDEX" }, { 0, NULL }
	};
	bits(v, n, buf, size);
}

#define U(f) do { if (a->f) fprintf(out, ", %s = %llu", #f, (unsigned long long)a->f); } while (0)
#define UN(n, f) do { if (a->f) fprintf(out, ", %s = %llu", n, (unsigned long long)a->f); } while (0)
#define X(n, f) do { if (a->f) fprintf(out, ", %s = %#llx", n, (unsigned long long)a->f); } while (0)

void header_print_attr(const struct perf_event_attr *a, FILE *out)
{
	char buf[512];

	U(type);
	U(size);
	X("config", config);
	UN("{ sample_period, sample_freq }", sample_period);
	if (a->sample_type) {
		report_bits_sample_type(a->sample_type, buf, sizeof(buf));
		fprintf(out, ", sample_type = %s", buf);
	}
	if (a->read_format) {
		report_bits_read_format(a->read_format, buf, sizeof(buf));
		fprintf(out, ", read_format = %s", buf);
	}
	U(disabled); U(inherit); U(pinned); U(exclusive); U(exclude_user); U(exclude_kernel);
	U(exclude_hv); U(exclude_idle); U(mmap); U(comm); U(freq); U(inherit_stat);
	U(enable_on_exec); U(task); U(watermark); U(precise_ip); U(mmap_data); U(sample_id_all);
	U(exclude_host); U(exclude_guest); U(exclude_callchain_kernel);
	U(exclude_callchain_user); U(mmap2); U(comm_exec); U(use_clockid); U(context_switch);
	U(write_backward); U(namespaces); U(ksymbol); U(bpf_event); U(aux_output); U(cgroup);
	U(text_poke); U(build_id); U(inherit_thread); U(remove_on_exec); U(sigtrap);
	UN("{ wakeup_events, wakeup_watermark }", wakeup_events);
	U(bp_type);
	X("{ bp_addr, config1 }", bp_addr);
	X("{ bp_len, config2 }", bp_len);
	if (a->branch_sample_type) {
		report_bits_branch_type(a->branch_sample_type, buf, sizeof(buf));
		fprintf(out, ", branch_sample_type = %s", buf);
	}
	X("sample_regs_user", sample_regs_user);
	U(sample_stack_user);
	if (a->clockid)
		fprintf(out, ", clockid = %d", a->clockid);
	X("sample_regs_intr", sample_regs_intr);
	U(aux_watermark);
	U(sample_max_stack);
	U(aux_sample_size);
	U(sig_data);
}

#undef U
#undef UN
#undef X

/* ---- features ----------------------------------------------------------------------- */

static void print_cmdline(const struct xpf_features *f, FILE *out)
{
	fputs("# cmdline : ", out);
	for (uint32_t i = 0; i < f->cmdline_argc; i++) {
		/* perf escapes single quotes so the line can be pasted back into a shell */
		for (const char *p = f->cmdline[i]; p && *p; p++) {
			if (*p == '\'')
				fputs("\\'", out);
			else
				fputc(*p, out);
		}
		fputc(' ', out);
	}
	fputc('\n', out);
}

static void print_event_desc(const xpf_reader *r, const struct xpf_features *f, FILE *out)
{
	(void)r;
	for (uint32_t i = 0; i < f->nr_event_desc; i++) {
		const struct xpf_event_desc *d = &f->event_desc[i];

		fprintf(out, "# event : name = %s, ", d->name ? d->name : "");
		if (d->nr_ids) {
			fputs(", id = {", out);
			for (uint32_t j = 0; j < d->nr_ids; j++)
				fprintf(out, "%s %llu", j ? "," : "", (unsigned long long)d->ids[j]);
			fputs(" }", out);
		}
		header_print_attr(&d->attr, out);
		fputc('\n', out);
	}
}

static const char *event_name(const xpf_reader *r, uint32_t idx)
{
	const struct xpf_attr *a = xpf_reader_attr(r, idx);

	return a && a->name ? a->name : "";
}

static void print_group_desc(const xpf_reader *r, const struct xpf_features *f, FILE *out)
{
	uint32_t nr_attrs = xpf_reader_nr_attrs(r);

	for (uint32_t i = 0; i < f->nr_groups; i++) {
		const struct xpf_group_desc *g = &f->groups[i];
		const char *gname = g->name && strcmp(g->name, "{anon_group}") ? g->name : "";

		if (g->nr_members <= 1 || g->leader_idx >= nr_attrs)
			continue;
		fprintf(out, "# group: %s{%s", gname, event_name(r, g->leader_idx));
		for (uint32_t m = 1; m < g->nr_members && g->leader_idx + m < nr_attrs; m++)
			fprintf(out, ",%s", event_name(r, g->leader_idx + m));
		fputs("}\n", out);
	}
}

static void print_pmu_mappings(const struct xpf_features *f, FILE *out)
{
	fputs("# pmu mappings: ", out);
	if (!f->nr_pmu_mappings)
		fputs("not available", out);
	for (uint32_t i = 0; i < f->nr_pmu_mappings; i++)
		fprintf(out, "%s%s = %u", i ? ", " : "", f->pmu_mappings[i].name,
			f->pmu_mappings[i].type);
	fputc('\n', out);
}

/* "%lu.%06lu": seconds and microseconds, as perf's timestamp__scnprintf_usec */
static void print_usec(const char *what, uint64_t ns, FILE *out)
{
	fprintf(out, "# %s : %llu.%06llu\n", what, (unsigned long long)(ns / 1000000000ULL),
		(unsigned long long)(ns % 1000000000ULL / 1000ULL));
}

/* A perf string in a raw payload: u32 len (padded), then bytes. NULL when it overruns. */
static const char *raw_string(const uint8_t **p, const uint8_t *end)
{
	uint32_t len;
	const char *s;

	if (end - *p < 4)
		return NULL;
	memcpy(&len, *p, 4);
	if ((uint64_t)(end - *p - 4) < len || !len)
		return NULL;
	s = (const char *)*p + 4;
	if (!memchr(s, 0, len))
		return NULL;
	*p += 4 + len;
	return s;
}

/* One PMU's capabilities ("name=value" pairs) from a CPU_PMU_CAPS / PMU_CAPS payload. */
static bool print_caps(const uint8_t **p, const uint8_t *end, const char *pmu, FILE *out)
{
	uint32_t nr;

	if (end - *p < 4)
		return false;
	memcpy(&nr, *p, 4);
	*p += 4;
	if (!nr) {
		fprintf(out, "# %s pmu capabilities: not available\n", pmu);
		return true;
	}
	fprintf(out, "# %s pmu capabilities: ", pmu);
	for (uint32_t i = 0; i < nr; i++) {
		const char *name = raw_string(p, end), *value = name ? raw_string(p, end) : NULL;

		if (!value)
			break;
		fprintf(out, "%s%s=%s", i ? ", " : "", name, value);
	}
	fputc('\n', out);
	return true;
}

static void print_pmu_caps(const struct xpf_features *f, FILE *out)
{
	const struct xpf_raw_feature *raw = &f->raw[XPF_FEAT_PMU_CAPS];
	const uint8_t *p = raw->data, *end = p + raw->size;
	uint32_t nr_pmu;

	if (!p || raw->size < 4)
		return;
	memcpy(&nr_pmu, p, 4);
	p += 4;
	for (uint32_t i = 0; i < nr_pmu; i++) {
		/* caps come first, the PMU name after them */
		const uint8_t *caps = p, *q = p;
		uint32_t nr;
		const char *name;

		if (end - q < 4)
			return;
		memcpy(&nr, q, 4);
		q += 4;
		for (uint32_t j = 0; j < 2 * nr; j++)
			if (!raw_string(&q, end))
				return;
		name = raw_string(&q, end);
		if (!name)
			return;
		print_caps(&caps, end, name, out);
		p = q;
	}
}

static void print_feature(const xpf_reader *r, const struct xpf_features *f, unsigned int bit,
			  FILE *out)
{
	switch (bit) {
	case XPF_FEAT_HOSTNAME:
		fprintf(out, "# hostname : %s\n", f->hostname ? f->hostname : "");
		break;
	case XPF_FEAT_OSRELEASE:
		fprintf(out, "# os release : %s\n", f->osrelease ? f->osrelease : "");
		break;
	case XPF_FEAT_VERSION:
		fprintf(out, "# perf version : %s\n", f->version ? f->version : "");
		break;
	case XPF_FEAT_ARCH:
		fprintf(out, "# arch : %s\n", f->arch ? f->arch : "");
		break;
	case XPF_FEAT_NRCPUS:
		fprintf(out, "# nrcpus online : %u\n# nrcpus avail : %u\n", f->nr_cpus_online,
			f->nr_cpus_avail);
		break;
	case XPF_FEAT_CPUDESC:
		fprintf(out, "# cpudesc : %s\n", f->cpudesc ? f->cpudesc : "");
		break;
	case XPF_FEAT_CPUID:
		fprintf(out, "# cpuid : %s\n", f->cpuid ? f->cpuid : "");
		break;
	case XPF_FEAT_TOTAL_MEM:
		fprintf(out, "# total memory : %llu kB\n", (unsigned long long)f->total_mem_kb);
		break;
	case XPF_FEAT_CMDLINE:
		print_cmdline(f, out);
		break;
	case XPF_FEAT_EVENT_DESC:
		print_event_desc(r, f, out);
		break;
	case XPF_FEAT_CPU_TOPOLOGY:
	case XPF_FEAT_NUMA_TOPOLOGY:
	case XPF_FEAT_CACHE:
	case XPF_FEAT_MEM_TOPOLOGY:
	case XPF_FEAT_HYBRID_TOPOLOGY:
		fprintf(out, "# %s info available, use -I to display\n", xpf_feature_name(bit));
		break;
	case XPF_FEAT_BRANCH_STACK:
		fputs("# contains samples with branch stack\n", out);
		break;
	case XPF_FEAT_PMU_MAPPINGS:
		print_pmu_mappings(f, out);
		break;
	case XPF_FEAT_GROUP_DESC:
		print_group_desc(r, f, out);
		break;
	case XPF_FEAT_AUXTRACE:
		fputs("# contains AUX area data (e.g. instruction trace)\n", out);
		break;
	case XPF_FEAT_STAT:
		fputs("# contains stat data\n", out);
		break;
	case XPF_FEAT_SAMPLE_TIME:
		print_usec("time of first sample", f->sample_time_first, out);
		print_usec("time of last sample", f->sample_time_last, out);
		fprintf(out, "# sample duration : %10.3f ms\n",
			(double)(f->sample_time_last - f->sample_time_first) / 1e6);
		break;
	case XPF_FEAT_CLOCKID:
		fprintf(out, "# clockid frequency: %llu MHz\n",
			(unsigned long long)f->clockid_res_ns * 1000);
		break;
	case XPF_FEAT_DIR_FORMAT:
		if (f->raw[bit].size >= 8) {
			uint64_t v;

			memcpy(&v, f->raw[bit].data, 8);
			fprintf(out, "# directory data version : %llu\n", (unsigned long long)v);
		}
		break;
	case XPF_FEAT_COMPRESSED:
		fprintf(out, "# compressed : %s, level = %u, ratio = %u\n",
			f->compressed.type == XPF_COMP_ZSTD ? "Zstd" : "Unknown",
			f->compressed.level, f->compressed.ratio);
		break;
	case XPF_FEAT_CPU_PMU_CAPS: {
		const uint8_t *p = f->raw[bit].data;

		if (p)
			print_caps(&p, p + f->raw[bit].size, "cpu", out);
		break;
	}
	case XPF_FEAT_PMU_CAPS:
		print_pmu_caps(f, out);
		break;
	default:
		/* BUILD_ID, TRACING_DATA, BPF_*, CLOCK_DATA: perf prints nothing without -I */
		break;
	}
}

void header_print(const xpf_reader *r, int64_t captured, FILE *out)
{
	const struct xpf_header_info *h = xpf_reader_header(r);
	const struct xpf_features *f = xpf_reader_features(r);
	time_t t = (time_t)captured;
	char when[64];

	if (!ctime_r(&t, when))
		snprintf(when, sizeof(when), "%lld\n", (long long)captured);
	fputs("# ========\n", out);
	fprintf(out, "# captured on    : %s", when);
	fputs("# header version : 1\n", out);
	if (h->pipe) {
		/* perf shows the stream's features after the block, as their records arrive */
		fputs("# data offset    : 0\n# data size      : 0\n# feat offset    : 0\n", out);
		fputs("# ========\n#\n", out);
	} else {
		fprintf(out, "# data offset    : %llu\n", (unsigned long long)h->data.offset);
		fprintf(out, "# data size      : %llu\n", (unsigned long long)h->data.size);
		fprintf(out, "# feat offset    : %llu\n",
			(unsigned long long)(h->data.offset + h->data.size));
	}
	for (unsigned int bit = 1; bit < XPF_FEAT_BITS; bit++)
		if (xpf_features_has(f, bit))
			print_feature(r, f, bit, out);
	if (h->pipe)
		return;
	fputs("# missing features: ", out);
	for (unsigned int bit = 1; bit < XPF_FEAT_LAST_KNOWN; bit++)
		if (!((h->adds_features[bit / 64] >> (bit % 64)) & 1))
			fprintf(out, "%s ", xpf_feature_name(bit));
	fputs("\n# ========\n#\n", out);
}
