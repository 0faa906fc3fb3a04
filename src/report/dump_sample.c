/* --dump of one SAMPLE record: perf's dump_sample lines, plus the fields perf leaves out. */
#include <string.h>

#include "report/report.h"

/* x86-64 perf_regs order (arch/x86/include/uapi/asm/perf_regs.h) */
static const char *const x86_regs[] = {
	"AX", "BX", "CX", "DX", "SI", "DI", "BP", "SP", "IP", "FLAGS", "CS", "SS",
	"DS", "ES", "FS", "GS", "R8", "R9", "R10", "R11", "R12", "R13", "R14", "R15",
};

static const char *reg_name(unsigned int bit, char *buf, size_t size)
{
	if (bit < sizeof(x86_regs) / sizeof(x86_regs[0]))
		return x86_regs[bit];
	if (bit >= 32 && bit < 64) {
		/* XMM registers take two bits each; perf names the first one */
		snprintf(buf, size, "XMM%u", (bit - 32) / 2);
		return buf;
	}
	return "unknown";
}

static void print_regs(const char *kind, uint64_t abi, uint64_t mask, uint32_t nr,
		       const uint64_t *regs, FILE *out)
{
	static const char *const abis[] = { "none", "32-bit", "64-bit" };
	char buf[16];
	uint32_t i = 0;

	/* a kernel-mode sample carries ABI none and no registers: perf prints nothing then */
	if (!regs || !nr)
		return;
	fprintf(out, "... %s regs: mask 0x%llx ABI %s\n", kind, (unsigned long long)mask,
		abi < 3 ? abis[abi] : "unknown");
	for (unsigned int bit = 0; bit < 64 && i < nr; bit++) {
		if (!(mask >> bit & 1))
			continue;
		fprintf(out, ".... %-5s 0x%016llx\n", reg_name(bit, buf, sizeof(buf)),
			(unsigned long long)regs[i++]);
	}
}

static void print_branches(const struct perf_event_attr *attr, const struct xpf_sample *s,
			   FILE *out)
{
	bool callstack = attr->branch_sample_type & PERF_SAMPLE_BRANCH_CALL_STACK;

	fprintf(out, "%s: nr:%llu\n", callstack ? "... branch callstack" : "... branch stack",
		(unsigned long long)s->branch_stack.nr);
	for (uint64_t i = 0; i < s->branch_stack.nr; i++) {
		struct perf_branch_entry e;

		memcpy(&e, &s->branch_stack.entries[i], sizeof(e));
		if (callstack) {
			fprintf(out, "..... %2llu: %016llx\n", (unsigned long long)i,
				(unsigned long long)e.from);
			continue;
		}
		fprintf(out, "..... %2llu: %016llx -> %016llx %hu cycles %s%s%s%s %x\n",
			(unsigned long long)i, (unsigned long long)e.from,
			(unsigned long long)e.to, (unsigned short)e.cycles, e.mispred ? "M" : " ",
			e.predicted ? "P" : " ", e.abort ? "A" : " ", e.in_tx ? "T" : " ",
			(unsigned int)e.reserved);
	}
}

/* "4K", "2M": perf's get_page_size_name */
static void print_page_size(const char *what, uint64_t n, FILE *out)
{
	static const char units[] = "BKMGTPEZY";
	unsigned int i = 0;

	if (!n) {
		fprintf(out, " .. %s: N/A\n", what);
		return;
	}
	while (n / 1024 && i < sizeof(units) - 2)
		n /= 1024, i++;
	fprintf(out, " .. %s: %llu%c\n", what, (unsigned long long)n, units[i]);
}

static void print_read(uint64_t read_format, const struct xpf_read_values *rv, FILE *out)
{
	uint64_t value, id, lost;

	fputs("... sample_read:\n", out);
	if (read_format & PERF_FORMAT_TOTAL_TIME_ENABLED)
		fprintf(out, "...... time enabled %016llx\n", (unsigned long long)rv->time_enabled);
	if (read_format & PERF_FORMAT_TOTAL_TIME_RUNNING)
		fprintf(out, "...... time running %016llx\n", (unsigned long long)rv->time_running);
	if (read_format & PERF_FORMAT_GROUP)
		fprintf(out, ".... group nr %llu\n", (unsigned long long)rv->nr);
	for (uint64_t i = 0; i < rv->nr; i++) {
		xpf_read_entry(rv, i, &value, &id, &lost);
		fprintf(out, "..... id %016llx, value %016llx", (unsigned long long)id,
			(unsigned long long)value);
		if (rv->has_lost)
			fprintf(out, ", lost %llu", (unsigned long long)lost);
		fputc('\n', out);
	}
}

void dump_sample(const struct perf_event_attr *attr, const struct perf_event_header *hdr,
		 const struct xpf_sample *s, FILE *out)
{
	uint64_t t = s->type;

	fprintf(out, "(IP, 0x%x): %d/%d: %#llx period: %llu addr: %#llx\n", hdr->misc,
		(int)s->pid, (int)s->tid, (unsigned long long)s->ip, (unsigned long long)s->period,
		(unsigned long long)s->addr);
	if (t & PERF_SAMPLE_CALLCHAIN) {
		fprintf(out, "... FP chain: nr:%llu\n", (unsigned long long)s->callchain.nr);
		for (uint64_t i = 0; i < s->callchain.nr; i++)
			fprintf(out, "..... %2d: %016llx\n", (int)i,
				(unsigned long long)s->callchain.ips[i]);
	}
	if (t & PERF_SAMPLE_BRANCH_STACK)
		print_branches(attr, s, out);
	if (t & PERF_SAMPLE_REGS_USER)
		print_regs("user", s->user_regs.abi, s->user_regs.mask, s->user_regs.nr,
			   s->user_regs.regs, out);
	if (t & PERF_SAMPLE_REGS_INTR)
		print_regs("intr", s->intr_regs.abi, s->intr_regs.mask, s->intr_regs.nr,
			   s->intr_regs.regs, out);
	if (t & PERF_SAMPLE_STACK_USER) {
		/* perf's offset is where the stack's size word sits in the record */
		unsigned int off = s->user_stack.data ?
			(unsigned int)((const char *)s->user_stack.data - (const char *)hdr - 8) : 0;

		fprintf(out, "... ustack: size %llu, offset 0x%x\n",
			(unsigned long long)s->user_stack.dyn_size, off);
	}
	if (t & (PERF_SAMPLE_WEIGHT | PERF_SAMPLE_WEIGHT_STRUCT)) {
		fprintf(out, "... weight: %llu", (unsigned long long)s->weight);
		if (t & PERF_SAMPLE_WEIGHT_STRUCT)
			fprintf(out, ",0x%x,0x%x", s->weight_var2, s->weight_var3);
		fputc('\n', out);
	}
	if (t & PERF_SAMPLE_DATA_SRC)
		fprintf(out, " . data_src: 0x%llx\n", (unsigned long long)s->data_src);
	if (t & PERF_SAMPLE_PHYS_ADDR)
		fprintf(out, " .. phys_addr: 0x%llx\n", (unsigned long long)s->phys_addr);
	if (t & PERF_SAMPLE_DATA_PAGE_SIZE)
		print_page_size("data page size", s->data_page_size, out);
	if (t & PERF_SAMPLE_CODE_PAGE_SIZE)
		print_page_size("code page size", s->code_page_size, out);
	if (t & PERF_SAMPLE_TRANSACTION)
		fprintf(out, "... transaction: %llx\n", (unsigned long long)s->transaction);
	if (t & PERF_SAMPLE_READ)
		print_read(attr->read_format, &s->read, out);

	/* Fields perf -D does not show; same "... name: value" shape. */
	if (t & (PERF_SAMPLE_ID | PERF_SAMPLE_IDENTIFIER))
		fprintf(out, "... id: %llu\n", (unsigned long long)s->id);
	if (t & PERF_SAMPLE_STREAM_ID)
		fprintf(out, "... stream_id: %llu\n", (unsigned long long)s->stream_id);
	if (t & PERF_SAMPLE_CPU)
		fprintf(out, "... cpu: %u\n", s->cpu);
	if (t & PERF_SAMPLE_CGROUP)
		fprintf(out, "... cgroup: %llu\n", (unsigned long long)s->cgroup);
	if (t & PERF_SAMPLE_RAW)
		fprintf(out, "... raw size: %u\n", s->raw.size);
	if (t & PERF_SAMPLE_AUX)
		fprintf(out, "... aux size: %llu\n", (unsigned long long)s->aux.size);
}
