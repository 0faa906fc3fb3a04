/* xperf script -F: perf script's field lists per event type, defaults and checks. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "script/script.h"

static const struct { const char *name; unsigned int field; } names[] = {
	{ "comm", F_COMM }, { "tid", F_TID }, { "pid", F_PID }, { "time", F_TIME },
	{ "cpu", F_CPU }, { "event", F_EVNAME }, { "trace", F_TRACE }, { "ip", F_IP },
	{ "sym", F_SYM }, { "dso", F_DSO }, { "addr", F_ADDR }, { "symoff", F_SYMOFFSET },
	{ "srcline", F_SRCLINE }, { "period", F_PERIOD }, { "misc", F_MISC },
};

/* perf's fields that we do not print yet: named so the error can say so */
static const char *const unsupported[] = {
	"iregs", "uregs", "brstack", "brstacksym", "flags", "data_src", "weight", "bpf-output",
	"brstackinsn", "brstackinsnlen", "brstackoff", "callindent", "insn", "insnlen", "synth",
	"phys_addr", "metric", "srccode", "ipc", "tod", "data_page_size", "code_page_size",
	"ins_lat", "cgroup", "retire_lat", "dsoff", "disasm", "brcntr",
};

static const char *const type_names[T_NR] = {
	"hardware", "software", "tracepoint", "raw", "breakpoint", "hardware-cache",
};

#define DEFAULT_FIELDS (F_COMM | F_TID | F_CPU | F_TIME | F_EVNAME | F_IP | F_SYM | \
			F_SYMOFFSET | F_DSO | F_PERIOD)

/* fields a type cannot have (perf's invalid_fields) */
static unsigned int invalid_of(int t)
{
	return t == T_TRACE ? 0 : F_TRACE;
}

void script_fields_default(struct script_fields *f)
{
	memset(f, 0, sizeof(*f));
	for (int t = 0; t < T_NR; t++)
		f->fields[t] = DEFAULT_FIELDS;
	f->fields[T_TRACE] = F_COMM | F_TID | F_CPU | F_TIME | F_EVNAME | F_TRACE;
	f->fields[T_RAW] |= F_ADDR;
}

int script_output_type(const struct perf_event_attr *a)
{
	switch (a->type) {
	case PERF_TYPE_HARDWARE:
		return T_HW;
	case PERF_TYPE_SOFTWARE:
		return T_SW;
	case PERF_TYPE_TRACEPOINT:
		return T_TRACE;
	case PERF_TYPE_BREAKPOINT:
		return T_BREAKPOINT;
	case PERF_TYPE_HW_CACHE:
		return T_CACHE;
	default:
		return T_RAW; /* perf counts dynamic PMUs as raw too */
	}
}

static int field_of(const char *tok, unsigned int *field)
{
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (!strcmp(tok, names[i].name)) {
			*field = names[i].field;
			return 0;
		}
	for (size_t i = 0; i < sizeof(unsupported) / sizeof(unsupported[0]); i++)
		if (!strcmp(tok, unsupported[i])) {
			cli_error("field '%s' of perf script is not supported by xperf script", tok);
			return -1;
		}
	cli_error("invalid field '%s' in -F (fields: comm, tid, pid, time, cpu, event, trace, "
		  "ip, sym, symoff, dso, addr, srcline, period, misc)", tok);
	return -1;
}

/*
 * As perf's parse_output_fields: "[TYPE:]FIELD,..." replaces the fields of TYPE (or of
 * every type: then fields a type cannot have are ignored with a warning, and the fields
 * named must be in the samples); "+FIELD"/"-FIELD" add to or remove from the defaults;
 * both kinds cannot mix.
 */
int script_fields_parse(struct script_fields *f, const char *arg)
{
	static const char *const tnames[] = { "hw", "sw", "trace", "raw", "break" };
	enum { DEFAULT, SET, ADD, REMOVE } change = DEFAULT;
	char *str = strdup(arg), *tok, *save = NULL, *colon;
	int type = -1, ret = -1;

	if (!str)
		return -1;
	colon = strchr(str, ':');
	tok = str;
	if (colon) {
		*colon = '\0';
		for (size_t i = 0; i < sizeof(tnames) / sizeof(tnames[0]); i++)
			if (!strcmp(str, tnames[i]))
				type = i == 4 ? T_BREAKPOINT : (int)i;
		if (type < 0) {
			cli_error("invalid event type '%s' in -F: use hw, sw, trace, raw or break",
				  str);
			goto out;
		}
		tok = colon + 1;
		if (!strchr(tok, '+') && !strchr(tok, '-')) {
			f->fields[type] = 0;
			if (type == T_HW)
				f->fields[T_CACHE] = 0;
		}
		f->user_set[type] = true;
	} else {
		if (!*str) {
			cli_error("cannot set fields to 'none' for all event types");
			goto out;
		}
		if (!strchr(str, '+') && !strchr(str, '-'))
			for (int t = 0; t < T_NR; t++)
				f->fields[t] = 0;
	}
	for (tok = strtok_r(tok, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		unsigned int field;
		bool remove = false;

		if (*tok == '+' || *tok == '-') {
			if (change == SET)
				goto badmix;
			change = *tok == '+' ? ADD : REMOVE;
			remove = *tok++ == '-';
		} else {
			if (change != SET && change != DEFAULT)
				goto badmix;
			change = SET;
		}
		if (field_of(tok, &field) < 0)
			goto out;
		for (int t = 0; t < T_NR; t++) {
			if (type >= 0 && t != type && !(type == T_HW && t == T_CACHE))
				continue;
			if (invalid_of(t) & field) {
				if (type >= 0) {
					cli_error("'%s' not valid for %s events", tok, type_names[t]);
					goto out;
				}
				if (t != T_RAW && t != T_BREAKPOINT)
					fprintf(stderr, "'%s' not valid for %s events. Ignoring.\n",
						tok, type_names[t]);
				continue;
			}
			if (remove) {
				f->fields[t] &= ~field;
				f->user_fields[t] &= ~field;
			} else {
				f->fields[t] |= field;
				if (type < 0)
					f->user_fields[t] |= field;
			}
			f->user_set[t] = true;
		}
	}
	ret = 0;
	goto out;
badmix:
	cli_error("cannot mix +-field with overridden fields in -F");
out:
	free(str);
	return ret;
}

/* perf's evsel__do_check_stype: a field the samples cannot fill */
static int check_stype(struct script_fields *f, int t, const struct xpf_attr *a, uint64_t bits,
		       const char *what, unsigned int field)
{
	char buf[64];

	/* (no check for PERIOD: perf prints attr.sample_period where samples lack it) */
	if (!(f->fields[t] & field) || (a->attr.sample_type & bits))
		return 0;
	if (f->user_fields[t] & field) {
		cli_error("samples for '%s' event do not have %s attribute set: cannot print "
			  "the '%s' field", xpf_attr_event_name(a, buf, sizeof(buf)), what,
			  what);
		return -1;
	}
	f->fields[t] &= ~field;
	return 0;
}

int script_fields_check(struct script_fields *f, xpf_reader *r)
{
	bool seen[T_NR] = { false };

	for (uint32_t i = 0; i < xpf_reader_nr_attrs(r); i++) {
		const struct xpf_attr *a = xpf_reader_attr(r, i);
		int t = script_output_type(&a->attr);
		unsigned int fl;

		if (seen[t])
			continue; /* perf checks the first event of each type */
		seen[t] = true;
		/*
		 * perf shows tracepoints' call chains unless -F named their fields: with offsets
		 * and DSOs from a file, names only from a pipe (where its check runs before the
		 * attrs arrive and only the attr handler adds ip and sym).
		 */
		if (t == T_TRACE && !f->user_set[t] && (a->attr.sample_type & PERF_SAMPLE_CALLCHAIN))
			f->fields[t] |= F_IP | F_SYM |
					(xpf_reader_header(r)->pipe ? 0 : F_SYMOFFSET | F_DSO);
		if (!f->fields[t])
			continue;
		if (check_stype(f, t, a, PERF_SAMPLE_IP, "IP", F_IP) ||
		    check_stype(f, t, a, PERF_SAMPLE_ADDR, "ADDR", F_ADDR) ||
		    check_stype(f, t, a, PERF_SAMPLE_TID, "TID", F_TID | F_PID) ||
		    check_stype(f, t, a, PERF_SAMPLE_TIME, "TIME", F_TIME) ||
		    check_stype(f, t, a, PERF_SAMPLE_CPU, "CPU", F_CPU))
			return -1;
		fl = f->fields[t];
		if ((fl & F_SYMOFFSET) && !(fl & F_SYM)) {
			cli_error("display of offsets requested but symbol is not selected");
			return -1;
		}
		if ((fl & F_SRCLINE) && !(fl & F_IP)) {
			cli_error("display of source line number requested but sample IP is not "
				  "selected: no address to look the source line up");
			return -1;
		}
	}
	return 0;
}
