/* xperf-inject: rewrite a data file record by record, as perf inject does (uncompressed by default). */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "format/xpf_reader.h"
#include "format/xpf_writer.h"

struct inject_opts {
	const char *input, *output;
	int level;         /* -z: zstd level; 0 plain records */
	bool build_ids;
};

static const char *const usage[] = {
	"xperf inject [<options>]",
	NULL,
};

/* Records the writer makes itself, or that describe a pipe stream (applied, not copied). */
static bool regenerated(uint32_t type)
{
	switch (type) {
	case XPF_RECORD_FINISHED_ROUND:
	case XPF_RECORD_FINISHED_INIT:
	case XPF_RECORD_COMPRESSED:
	case XPF_RECORD_COMPRESSED2:
	case XPF_RECORD_HEADER_ATTR:
	case XPF_RECORD_HEADER_FEATURE:
	case XPF_RECORD_HEADER_EVENT_TYPE:
	case XPF_RECORD_HEADER_TRACING_DATA:
	case XPF_RECORD_HEADER_BUILD_ID:
		return true;
	default:
		return false;
	}
}

/*
 * The temporary the output is written to (PATH.tmp.XXXXXX, renamed over PATH at the end):
 * a Ctrl-C removes it, so an interrupted inject leaves PATH as it was and nothing else.
 */
static char temp_path[4096];

static void on_stop_signal(int sig)
{
	if (temp_path[0])
		unlink(temp_path);
	signal(sig, SIG_DFL);
	raise(sig);
}

static const int stop_signals[] = { SIGINT, SIGTERM, SIGHUP };

static void catch_stop_signals(sigset_t *set)
{
	struct sigaction sa = { .sa_handler = on_stop_signal };

	sigemptyset(set);
	for (size_t i = 0; i < sizeof(stop_signals) / sizeof(stop_signals[0]); i++) {
		sigaddset(set, stop_signals[i]);
		sigaction(stop_signals[i], &sa, NULL);
	}
}

struct inject {
	xpf_reader *r;
	xpf_writer *w;
	struct xpf_features feat;  /* what the output's features will be */
	bool started;
	const struct inject_opts *o;
};

/* A pipe stream's HEADER_BUILD_ID record, into the BUILD_ID feature. */
static int add_build_id_record(struct inject *in, const struct perf_event_header *h)
{
	const char *b = (const char *)h;
	int32_t pid;
	uint8_t size = 20;

	if (h->size <= 8 + 4 + 24)
		return 0;
	memcpy(&pid, b + 8, 4);
	if (h->misc & (1 << 15)) /* PERF_RECORD_MISC_BUILD_ID_SIZE */
		size = (uint8_t)b[12 + 20] <= 20 ? (uint8_t)b[12 + 20] : 20;
	return xpf_features_add_build_id(&in->feat, pid, h->misc & ~(1 << 15),
					 (const uint8_t *)b + 12, size,
					 strndupa(b + 36, h->size - 36));
}

/* -b: a build id the kernel gave in an MMAP2 record, for a file the feature lacks. */
static int add_mmap_build_id(struct inject *in, const struct perf_event_header *h)
{
	const char *b = (const char *)h, *file;
	uint8_t n;

	if (h->type != PERF_RECORD_MMAP2 || !(h->misc & PERF_RECORD_MISC_MMAP_BUILD_ID) ||
	    h->size <= 72)
		return 0;
	n = (uint8_t)b[40];
	file = strndupa(b + 72, h->size - 72);
	if (!n || n > 20 || file[0] == '[' || file[0] != '/')
		return 0;
	for (uint32_t i = 0; i < in->feat.nr_build_ids; i++)
		if (!strcmp(in->feat.build_ids[i].filename, file))
			return 0;
	return xpf_features_add_build_id(&in->feat, -1, PERF_RECORD_MISC_USER,
					 (const uint8_t *)b + 44, n, file);
}

static int set_features(struct inject *in, struct xb_error *err)
{
	/* the writer fills COMPRESSED itself, from its own level */
	in->feat.present[XPF_FEAT_COMPRESSED / 64] &= ~(1ULL << (XPF_FEAT_COMPRESSED % 64));
	return xpf_writer_set_features(in->w, &in->feat, err);
}

static const char *input_name(const struct inject_opts *o)
{
	return strcmp(o->input, "-") ? o->input : "standard input";
}

/*
 * Before the first record goes out (rec; NULL at the end of an input without records):
 * the events, and a pipe stream's features.
 */
static int start(struct inject *in, const struct xpf_record *rec, struct xb_error *err)
{
	uint32_t n = xpf_reader_nr_attrs(in->r);
	int ret;

	in->started = true;
	/* the input's fault, said about the input: the writer would blame its own file */
	if (!n && rec) {
		const char *type = xpf_record_type_name(rec->hdr->type);

		return xb_error_set(err, -EINVAL,
				    "'%s': the %s record at offset 0x%llx comes before any event "
				    "is described (no attr section, no HEADER_ATTR record before "
				    "it): it cannot be rewritten", input_name(in->o),
				    type ? type : "unknown", (unsigned long long)rec->file_offset);
	}
	if (!n)
		return xb_error_set(err, -EINVAL, "'%s' describes no event (no attr section, no "
				    "HEADER_ATTR record): there is nothing to rewrite",
				    input_name(in->o));
	for (uint32_t i = 0; i < n; i++) {
		const struct xpf_attr *a = xpf_reader_attr(in->r, i);

		if (!a->attr.sample_id_all && n > 0) {
			return xb_error_set(err, -EOPNOTSUPP,
					     "event %u of the input has no sample_id_all: such "
					     "files are not rewritten", i);
		}
		ret = xpf_writer_add_attr(in->w, &a->attr, a->ids, a->nr_ids, a->name, err);
		if (ret < 0)
			return ret;
	}
	ret = xpf_features_merge(&in->feat, xpf_reader_features(in->r), err);
	if (ret < 0 || strcmp(in->o->output, "-"))
		return ret;
	/* a pipe stream carries its features before the first record */
	return set_features(in, err);
}

/* Finish the output; the temporary's rename is not cut by a signal halfway. */
static int close_output(struct inject *in, struct xb_error *err)
{
	sigset_t stop, old;
	int ret;

	catch_stop_signals(&stop);
	sigprocmask(SIG_BLOCK, &stop, &old);
	ret = xpf_writer_close(in->w, err);
	in->w = NULL;
	temp_path[0] = 0;
	sigprocmask(SIG_SETMASK, &old, NULL);
	return ret;
}

static int copy(struct inject *in, struct xb_error *err)
{
	bool pipe = xpf_reader_header(in->r)->pipe;
	struct xpf_record rec;
	int ret;

	while ((ret = xpf_reader_next(in->r, &rec, err)) > 0) {
		const struct perf_event_header *h = rec.hdr;

		if (h->type == XPF_RECORD_HEADER_TRACING_DATA && rec.extra) {
			ret = xpf_features_set_raw(&in->feat, XPF_FEAT_TRACING_DATA, rec.extra,
						   rec.extra_size);
		} else if (h->type == XPF_RECORD_HEADER_BUILD_ID) {
			ret = add_build_id_record(in, h);
		} else if (h->type == XPF_RECORD_AUXTRACE) {
			ret = xb_error_set(err, -EOPNOTSUPP,
					    "AUX area data (intel_pt, arm_spe...) is not rewritten");
		} else if (pipe && !in->started && regenerated(h->type)) {
			ret = 0;
		} else {
			if (!in->started && (ret = start(in, &rec, err)) < 0)
				break;
			if (h->type == XPF_RECORD_FINISHED_ROUND)
				ret = xpf_writer_finished_round(in->w, err);
			else if (h->type == XPF_RECORD_FINISHED_INIT)
				ret = xpf_writer_finished_init(in->w, err);
			else if (regenerated(h->type))
				ret = 0;
			else
				ret = xpf_writer_write(in->w, h, err);
			if (!ret && in->o->build_ids)
				ret = add_mmap_build_id(in, h);
		}
		if (ret < 0)
			break;
	}
	if (ret < 0)
		return ret;
	if (!in->started && (ret = start(in, NULL, err)) < 0)
		return ret;
	if (strcmp(in->o->output, "-") && (ret = set_features(in, err)) < 0)
		return ret;
	ret = close_output(in, err);
	return ret;
}

int main(int argc, const char **argv)
{
	struct inject_opts o = { .input = "-", .output = "-" };
	struct cli_option opts[] = {
		OPT_FILENAME('i', "input", &o.input, "FILE",
			   "input file, perf.data or a pipe stream (default: '-', stdin)"),
		OPT_FILENAME('o', "output", &o.output, "FILE",
			   "output file (default: '-', a pipe stream on stdout), written whole then "
			   "renamed; an existing FILE is renamed FILE.old, a link is never followed"),
		/* no command follows, so "-z 5" and "-z abc" are levels (the second wrong) */
		OPT_CALLBACK_DEFAULT('z', "compression-level", &o.level, "LEVEL",
				     "compress the output with zstd at LEVEL (1-22, default 1), "
				     "attached (-z5) or after it (-z 5); without -z the output is "
				     "plain records, which readers built without zstd can read",
				     cli_opt_compression_level, "1"),
		OPT_BOOL('b', "build-ids", &o.build_ids,
			 "add to the BUILD_ID feature the build ids the kernel gave in MMAP2 "
			 "records, for files the feature does not list"),
		OPT_END(),
	};
	struct xpf_writer_opts wo = { 0 };
	struct xb_error err = { 0 };
	struct inject in = { .o = &o };
	int ret;

	cli_set_command("xperf inject");
	argc = cli_parse(argc, argv, opts, usage, 0);
	if (argc < 0)
		return argc == CLI_HELP ? CLI_EXIT_OK : CLI_EXIT_USAGE;
	if (argc > 0) {
		cli_error("unexpected argument '%s'", argv[0]);
		cli_usage(opts, usage, true);
		return CLI_EXIT_USAGE;
	}
	if (strcmp(o.output, "-") && strcmp(o.input, "-") && !strcmp(o.input, o.output)) {
		cli_error("the input and the output are the same file '%s'", o.input);
		return CLI_EXIT_USAGE;
	}
	if (!strcmp(o.output, "-") && o.build_ids) {
		cli_error("-b needs a file output (-o FILE): a pipe stream's features go out "
			  "before the records that bring the build ids");
		return CLI_EXIT_USAGE;
	}
	if (!strcmp(o.output, "-") && isatty(STDOUT_FILENO)) {
		cli_error("refusing to write a pipe stream to a terminal: give -o FILE");
		return CLI_EXIT_USAGE;
	}
	ret = xpf_reader_open(&in.r, o.input, &err);
	if (ret < 0) {
		cli_input_error(err.msg[0] ? err.msg : strerror(-ret), -ret);
		return CLI_EXIT_RUNTIME;
	}
	wo.compress_level = o.level;
	/* as perf inject: an existing output is kept as FILE.old, once the new one is whole */
	wo.keep_old = wo.via_temp = true;
	{
		sigset_t stop;

		catch_stop_signals(&stop);
		sigprocmask(SIG_BLOCK, &stop, NULL);
		ret = xpf_writer_open(&in.w, o.output, &wo, &err);
		if (ret == 0 && xpf_writer_temp_path(in.w))
			snprintf(temp_path, sizeof(temp_path), "%s", xpf_writer_temp_path(in.w));
		sigprocmask(SIG_UNBLOCK, &stop, NULL);
	}
	if (ret < 0)
		goto fail;
	ret = copy(&in, &err);
	if (ret < 0)
		goto fail;
	if (xpf_reader_warning(in.r))
		cli_warning("%s", xpf_reader_warning(in.r));
	xpf_features_free(&in.feat);
	xpf_reader_close(in.r);
	return CLI_EXIT_OK;
fail:
	cli_error("%s", err.msg[0] ? err.msg : strerror(-ret));
	/* the temporary goes; the output path keeps what it held */
	xpf_writer_abort(in.w);
	temp_path[0] = 0;
	xpf_features_free(&in.feat);
	xpf_reader_close(in.r);
	return CLI_EXIT_RUNTIME;
}
