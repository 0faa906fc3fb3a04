/* xperf script's lines: samples with their call chains and side-band records, as perf 6.1 prints them. */
#include <errno.h>
#include <stdio.h>
#include <sys/mman.h>

#include "cli/cli.h"
#include "profile/symbols/dso.h"
#include "script/script.h"

/*
 * perf's misc field: the cpumode's letters (tested bit by bit as perf does, so a hypervisor
 * sample is "KUH"), then the record type's own flag, padded to 6 columns
 */
static void print_misc(struct out *o, uint16_t misc, uint32_t type)
{
#define HAS(m) ((misc & PERF_RECORD_MISC_##m) == PERF_RECORD_MISC_##m)
	static const struct { uint16_t bits; char c; } modes[] = {
		{ PERF_RECORD_MISC_KERNEL, 'K' }, { PERF_RECORD_MISC_USER, 'U' },
		{ PERF_RECORD_MISC_HYPERVISOR, 'H' }, { PERF_RECORD_MISC_GUEST_KERNEL, 'G' },
		{ PERF_RECORD_MISC_GUEST_USER, 'g' },
	};
	int n = 0;

	for (size_t i = 0; i < sizeof(modes) / sizeof(modes[0]); i++)
		if ((misc & modes[i].bits) == modes[i].bits) {
			out_chr(o, modes[i].c);
			n++;
		}
	if ((type == PERF_RECORD_MMAP || type == PERF_RECORD_MMAP2) && HAS(MMAP_DATA)) {
		out_chr(o, 'M');
		n++;
	} else if (type == PERF_RECORD_COMM && HAS(COMM_EXEC)) {
		out_chr(o, 'E');
		n++;
	} else if ((type == PERF_RECORD_SWITCH || type == PERF_RECORD_SWITCH_CPU_WIDE) &&
		   HAS(SWITCH_OUT)) {
		out_chr(o, 'S');
		n++;
		if (misc & PERF_RECORD_MISC_SWITCH_OUT_PREEMPT) {
			out_chr(o, 'p');
			n++;
		}
	}
#undef HAS
	/* "%*s" of " " in 6 - n columns: at least one blank */
	do
		out_chr(o, ' ');
	while (++n < 6);
}

/* perf_sample__fprintf_start: comm, pid/tid, cpu, misc, time */
static void print_start(struct script *sc, unsigned int fl, const char *comm,
			const struct xpf_sample *s, bool chain, uint16_t misc, uint32_t type)
{
	struct out *o = sc->out;

	if (fl & F_COMM) {
		/* perf aligns the comm only where no call chain follows */
		if ((fl & F_IP) && chain) {
			out_str(o, comm);
			out_chr(o, ' ');
		} else {
			out_pad_str(o, comm, 16);
			out_chr(o, ' ');
		}
	}
	if ((fl & F_PID) && (fl & F_TID)) {
		out_dec(o, (int32_t)s->pid, 5, false);
		out_chr(o, '/');
		out_dec(o, (int32_t)s->tid, 5, true);
		out_chr(o, ' ');
	} else if (fl & F_PID) {
		out_dec(o, (int32_t)s->pid, 5, false);
		out_chr(o, ' ');
	} else if (fl & F_TID) {
		out_dec(o, (int32_t)s->tid, 5, false);
		out_chr(o, ' ');
	}
	if (fl & F_CPU) {
		out_chr(o, '[');
		out_zdec(o, s->cpu, 3);
		out_mem(o, "] ", 2);
	}
	if (fl & F_MISC)
		print_misc(o, misc, type);
	if (fl & F_TIME) {
		uint64_t secs = s->time / 1000000000, ns = s->time % 1000000000;

		/* "%12s: " of "secs.usecs", or "%5lu.%09llu: " with --ns */
		if (sc->ns) {
			out_udec(o, secs, 5);
			out_chr(o, '.');
			out_zdec(o, ns, 9);
		} else {
			int len = 8;

			for (uint64_t t = secs; t >= 10; t /= 10)
				len++;
			for (; len < 12; len++)
				out_chr(o, ' ');
			out_udec(o, secs, 0);
			out_chr(o, '.');
			out_zdec(o, ns / 1000, 6);
		}
		out_mem(o, ": ", 2);
	}
}

static const struct xpp_dso *dso_of(const struct script *sc, const struct xpp_hist_key *k)
{
	return k->dso == XPP_HIST_NO_DSO ? NULL : xpp_dso_table_get(xpp_profile_dsos(sc->p), k->dso);
}

/* perf's map__fprintf_dsoname: dso->name, the path for files, "[kernel.kallsyms]" */
static const char *dso_name(const struct xpp_dso *d)
{
	if (!d)
		return "[unknown]";
	return d->kind == XPP_DSO_KERNEL || d->kind == XPP_DSO_MODULE ? d->short_name :
									  d->long_name;
}

/* " name+0xoff", " name" or " [unknown]", the offset from the symbol's start */
static void print_sym(struct script *sc, const struct xpp_hist_key *k, const struct xpp_dso *d,
		      uint64_t addr, bool symoff)
{
	const char *name = xpp_profile_sym_name(sc->p, k);
	struct out *o = sc->out;

	out_chr(o, ' ');
	if (!name) {
		out_str(o, "[unknown]");
		return;
	}
	out_str(o, name);
	if (symoff && d && k->sym >= 0) {
		out_mem(o, "+0x", 3);
		out_hex(o, addr - d->syms.syms[k->sym].start, 0);
	}
}

/*
 * perf's map__fprintf_srcline: "\n  file:line" when the DWARF knows it; it asks without the
 * symbol, so its stand-in is "dso[address]", and an answer of "??:0" (addr2line naming a
 * function but no line: xpp_dso_a2l_names_function()) prints nothing, one naming the
 * function's file too "file:0" (xpp_dso_a2l_file())
 */
static void print_srcline(struct script *sc, const struct xpp_hist_key *k, uint64_t addr,
			  bool mapped)
{
	const char *line;
	const struct xpp_dso *d = mapped ? dso_of(sc, k) : NULL;
	const char *file;
	int ret;

	if (!d)
		return;
	ret = xpp_profile_srcline_at(sc->p, k->dso, addr, &line);
	if (ret == -EOPNOTSUPP && !sc->srcline_unsupported) {
		sc->srcline_unsupported = true;
		cli_warning("source lines need libdw, and this xperf was built without it: "
			    "srcline shows shared objects and addresses");
	}
	if (ret > 0) {
		out_mem(sc->out, "\n  ", 3);
		out_str(sc->out, line);
	} else if (ret != -EOPNOTSUPP && (file = xpp_dso_a2l_file(d, addr))) {
		out_mem(sc->out, "\n  ", 3);
		out_str(sc->out, file);
		out_mem(sc->out, ":0", 2);
	} else if (ret == -EOPNOTSUPP || !xpp_dso_a2l_names_function(d, addr)) {
		out_mem(sc->out, "\n  ", 3);
		out_str(sc->out, d->short_name);
		out_chr(sc->out, '[');
		out_hex(sc->out, addr, 0);
		out_chr(sc->out, ']');
	}
}

/* sample__fprintf_callchain: one line per frame, innermost first */
static void print_chain(struct script *sc, const struct xpp_sample_view *v, unsigned int fl)
{
	struct out *o = sc->out;

	for (uint32_t i = 0; i < v->nr_frames; i++) {
		const struct xpp_view_frame *fr = &v->frames[i];
		struct xpp_hist_key k = xpp_profile_frame_key(sc->p, v->comm, fr->frame);
		const struct xpp_dso *d = fr->mapped ? dso_of(sc, &k) : NULL;

		out_chr(o, '\t');
		if (fl & F_IP) {
			/* perf shows user frames at their address in the file */
			bool rel = d && d->kind != XPP_DSO_KERNEL && d->kind != XPP_DSO_MODULE;

			out_hex(o, rel ? fr->addr : fr->ip, 16);
		}
		if (fl & F_SYM)
			print_sym(sc, &k, d, fr->addr, fl & F_SYMOFFSET);
		if ((fl & F_DSO) && !k.inl) {
			out_mem(o, " (", 2);
			out_str(o, dso_name(d));
			out_chr(o, ')');
		}
		if (fl & F_SRCLINE)
			print_srcline(sc, &k, fr->addr, fr->mapped);
		if (k.inl)
			out_str(o, " (inlined)");
		out_chr(o, '\n');
	}
}

int script_on_sample(void *ctx, const struct xpp_sample_view *v)
{
	struct script *sc = ctx;
	struct out *o = sc->out;
	const struct xpf_sample *s = v->s;
	unsigned int fl = sc->f.fields[script_output_type(&v->attr->attr)];
	const char *comm = xpp_intern_str(xpp_profile_comms(sc->p), v->comm);
	bool chain = v->chain && sc->callchains;

	if (!fl)
		return 0;
	print_start(sc, fl, comm ? comm : ":-1", s, chain, v->cpumode, PERF_RECORD_SAMPLE);
	if (fl & F_PERIOD) {
		out_udec(o, v->period, 10);
		out_chr(o, ' ');
	}
	if (fl & F_EVNAME) {
		out_pad_str(o, v->event < sc->nr_names ? sc->ev_names[v->event] : "[unknown]",
			    sc->name_width);
		out_mem(o, ": ", 2);
	}
	if ((fl & F_TRACE) && (s->type & PERF_SAMPLE_RAW) && sc->tp)
		tp_print(sc->tp, s, o);
	if (fl & F_ADDR) {
		out_hex(o, s->addr, 16);
	}
	if (fl & F_IP) {
		if (chain) {
			out_chr(o, '\n');
			print_chain(sc, v, fl);
		} else {
			struct xpp_hist_key k =
				xpp_profile_frame_key(sc->p, v->comm, v->self.frame);
			const struct xpp_dso *d = v->self.mapped ? dso_of(sc, &k) : NULL;

			out_chr(o, ' ');
			out_hex(o, s->ip, 16);
			if (fl & F_SYM)
				print_sym(sc, &k, d, v->self.addr, fl & F_SYMOFFSET);
			if (fl & F_DSO) {
				out_mem(o, " (", 2);
				out_str(o, dso_name(d));
				out_chr(o, ')');
			}
			if (fl & F_SRCLINE)
				print_srcline(sc, &k, v->self.addr, v->self.mapped);
		}
	}
	out_chr(o, '\n');
	return o->err ? -o->err : 0;
}

/* ---- side-band records (--show-task-events, --show-mmap-events, --show-switch-events) ---- */

static void print_record(struct out *o, const struct perf_event_header *hdr)
{
	const char *b = (const char *)hdr;
	uint32_t u[4];
	uint64_t q[4];

	switch (hdr->type) {
	case PERF_RECORD_SWITCH:
	case PERF_RECORD_SWITCH_CPU_WIDE: {
		/* perf_event__fprintf_switch */
		bool out = hdr->misc & PERF_RECORD_MISC_SWITCH_OUT;
		const char *in_out = !out ? "IN         " :
				     !(hdr->misc & PERF_RECORD_MISC_SWITCH_OUT_PREEMPT) ?
				     "OUT        " : "OUT preempt";

		if (hdr->type == PERF_RECORD_SWITCH) {
			out_fmt(o, "PERF_RECORD_SWITCH %s\n", in_out);
			break;
		}
		memcpy(u, b + 8, 8);
		out_fmt(o, "PERF_RECORD_SWITCH_CPU_WIDE %s  %s pid/tid: %5d/%-5d\n", in_out,
			out ? "next" : "prev", (int32_t)u[0], (int32_t)u[1]);
		break;
	}
	case PERF_RECORD_COMM:
		memcpy(u, b + 8, 8);
		out_fmt(o, "PERF_RECORD_COMM%s: %.*s:%d/%d\n",
			hdr->misc & PERF_RECORD_MISC_COMM_EXEC ? " exec" : "",
			(int)strnlen(b + 16, hdr->size - 16), b + 16, (int32_t)u[0], (int32_t)u[1]);
		break;
	case PERF_RECORD_FORK:
	case PERF_RECORD_EXIT:
		/* pid, ppid, tid, ptid */
		memcpy(u, b + 8, 16);
		out_fmt(o, "PERF_RECORD_%s(%d:%d):(%d:%d)\n",
			hdr->type == PERF_RECORD_FORK ? "FORK" : "EXIT", (int32_t)u[0],
			(int32_t)u[2], (int32_t)u[1], (int32_t)u[3]);
		break;
	case PERF_RECORD_MMAP:
		memcpy(u, b + 8, 8);
		memcpy(q, b + 16, 24);
		out_fmt(o, "PERF_RECORD_MMAP %d/%d: [%#llx(%#llx) @ %#llx]: %c %.*s\n",
			(int32_t)u[0], (int32_t)u[1], (unsigned long long)q[0],
			(unsigned long long)q[1], (unsigned long long)q[2],
			hdr->misc & PERF_RECORD_MISC_MMAP_DATA ? 'r' : 'x',
			(int)strnlen(b + 40, hdr->size - 40), b + 40);
		break;
	case PERF_RECORD_MMAP2: {
		uint32_t prot, flags;
		const char *file = b + 72;
		int flen = (int)strnlen(file, hdr->size - 72);
		char perms[5];

		memcpy(u, b + 8, 8);
		memcpy(q, b + 16, 24);
		memcpy(&prot, b + 64, 4);
		memcpy(&flags, b + 68, 4);
		perms[0] = prot & PROT_READ ? 'r' : '-';
		perms[1] = prot & PROT_WRITE ? 'w' : '-';
		perms[2] = prot & PROT_EXEC ? 'x' : '-';
		perms[3] = flags & MAP_SHARED ? 's' : 'p';
		perms[4] = 0;
		out_fmt(o, "PERF_RECORD_MMAP2 %d/%d: [%#llx(%#llx) @ %#llx ", (int32_t)u[0],
			(int32_t)u[1], (unsigned long long)q[0], (unsigned long long)q[1],
			(unsigned long long)q[2]);
		if (hdr->misc & PERF_RECORD_MISC_MMAP_BUILD_ID) {
			uint8_t n = (uint8_t)b[40];

			out_chr(o, '<');
			for (uint8_t i = 0; i < n && i < 20; i++)
				out_fmt(o, "%02x", (uint8_t)b[44 + i]);
			out_chr(o, '>');
		} else {
			uint32_t maj, min;
			uint64_t ino, gen;

			memcpy(&maj, b + 40, 4);
			memcpy(&min, b + 44, 4);
			memcpy(&ino, b + 48, 8);
			memcpy(&gen, b + 56, 8);
			out_fmt(o, "%02x:%02x %llu %llu", maj, min, (unsigned long long)ino,
				(unsigned long long)gen);
		}
		out_fmt(o, "]: %s %.*s\n", perms, flen, file);
		break;
	}
	}
}

int script_on_side_band(void *ctx, const struct perf_event_header *hdr)
{
	struct script *sc = ctx;
	const struct xpf_attr *a;
	struct xpf_sample id = { 0 };
	const char *b = (const char *)hdr;
	uint32_t u[4];
	unsigned int fl;
	int64_t comm;
	bool task = hdr->type == PERF_RECORD_COMM || hdr->type == PERF_RECORD_FORK ||
		    hdr->type == PERF_RECORD_EXIT;
	bool mmap = hdr->type == PERF_RECORD_MMAP || hdr->type == PERF_RECORD_MMAP2;
	bool swtch = hdr->type == PERF_RECORD_SWITCH || hdr->type == PERF_RECORD_SWITCH_CPU_WIDE;
	size_t min = hdr->type == PERF_RECORD_MMAP ? 40 : hdr->type == PERF_RECORD_MMAP2 ? 72 :
		     hdr->type == PERF_RECORD_COMM ? 24 : hdr->type == PERF_RECORD_SWITCH ? 8 :
		     hdr->type == PERF_RECORD_SWITCH_CPU_WIDE ? 16 : 32;

	if (!(task && sc->show_task) && !(mmap && sc->show_mmap) && !(swtch && sc->show_switch))
		return 0;
	if (hdr->size < min)
		return 0;
	a = xpf_reader_attr_of(sc->r, hdr);
	if (!a)
		a = xpf_reader_attr(sc->r, 0);
	if (!a)
		return 0;
	fl = sc->f.fields[script_output_type(&a->attr)];
	/* the record's own thread: pid, tid (FORK/EXIT: pid, ppid, tid, ptid) */
	memcpy(u, b + 8, swtch ? 8 : 16);
	if (task && hdr->type != PERF_RECORD_COMM)
		u[1] = u[2];
	if (!a->attr.sample_id_all || xpf_sample_id_decode(&a->attr, hdr, &id, NULL) < 0) {
		/* perf's stand-in without sample ids: the record's own pid/tid, no time */
		id.pid = swtch ? (uint32_t)-1 : u[0];
		id.tid = swtch ? (uint32_t)-1 : u[1];
	}
	/* a switch has no thread of its own: perf names the sample id's */
	if (swtch) {
		u[0] = id.pid;
		u[1] = id.tid;
	}
	/* its name as the model has it after the record */
	comm = xpp_profile_thread_comm(sc->p, (int32_t)u[0], (int32_t)u[1]);
	if (comm < 0)
		return (int)comm;
	print_start(sc, fl, xpp_intern_str(xpp_profile_comms(sc->p), (uint32_t)comm), &id,
		    sc->callchains && (a->attr.sample_type & PERF_SAMPLE_CALLCHAIN), hdr->misc,
		    hdr->type);
	print_record(sc->out, hdr);
	return sc->out->err ? -sc->out->err : 0;
}
