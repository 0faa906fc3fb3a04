/*
 * libFuzzer harness for everything past the reader: each input is a data file run through
 * the commands that read one, in this process, as a user runs them.
 */
#include <fcntl.h>
#include <ftw.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

/*
 * The commands' own main()s, compiled again with -Dmain=fuzz_main_CMD (Makefile, fuzz
 * section): options, the profile pass (ordering, threads and maps, symbols, DWARF
 * unwinding, call trees) and every view that runs without a terminal, exactly as the
 * binaries run them. Only the TUI is left out: it needs a terminal to draw on.
 */
int fuzz_main_report(int argc, const char **argv);
int fuzz_main_script(int argc, const char **argv);
int fuzz_main_annotate(int argc, const char **argv);
int fuzz_main_inject(int argc, const char **argv);

/*
 * Built by `make fuzz-build` with clang -fsanitize=fuzzer,address,undefined; run by
 * tests/fuzz/run.sh (which sets the environment below). A crash, sanitizer report, leak,
 * hang (-timeout) or memory past -rss_limit_mb on any input is a bug.
 *
 * Nothing risky is looked up: kernel symbols come from XPERF_FUZZ_KALLSYMS (a fixed file of
 * the tree, never /proc/kallsyms), HOME and XDG_CACHE_HOME point at an empty directory of
 * this process (no build-id cache, no kallsyms cache), and the seeds' program is where
 * tests/fuzz/seedprog.sh put it. Output goes to /dev/null, inject's file into that
 * directory.
 */
/* annotate reads kernel code from /proc/kcore: not here, only user code and the vdso */
#define ANNOTATE_DSOS "seedprog,[vdso],libc.so.6,ld-linux-x86-64.so.2"

static char kallsyms[4096] = "tests/fuzz/kallsyms";
static char scratch[64], out_file[128];
static int devnull = -1;

static int remove_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	return remove(path);
}

/* The scratch directory goes with the process (a crash leaves it, with the evidence). */
static void remove_scratch(void)
{
	nftw(scratch, remove_one, 8, FTW_DEPTH | FTW_PHYS);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	const char *k = getenv("XPERF_FUZZ_KALLSYMS");

	(void)argc;
	(void)argv;
	if (k && *k)
		snprintf(kallsyms, sizeof(kallsyms), "%s", k);
	snprintf(scratch, sizeof(scratch), "/tmp/xperf-fuzz-pass.XXXXXX");
	if (!mkdtemp(scratch)) {
		perror("fuzz_pass: mkdtemp");
		exit(1);
	}
	atexit(remove_scratch);
	snprintf(out_file, sizeof(out_file), "%s/inject.data", scratch);
	setenv("HOME", scratch, 1);
	setenv("XDG_CACHE_HOME", scratch, 1);
	setenv("TERM", "dumb", 1);
	setenv("NO_COLOR", "1", 1);
	/* stdout: the views' text; libFuzzer's own lines and sanitizer reports go to stderr */
	devnull = open("/dev/null", O_WRONLY | O_CLOEXEC);
	if (devnull < 0 || dup2(devnull, STDOUT_FILENO) < 0) {
		perror("fuzz_pass: /dev/null");
		exit(1);
	}
	return 0;
}

#define RUN(fn, ...)                                                          \
	do {                                                                  \
		const char *args[] = { __VA_ARGS__, NULL };                   \
		fn((int)(sizeof(args) / sizeof(args[0])) - 1, args);          \
		fflush(stdout);                                               \
	} while (0)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char path[64];
	int fd = memfd_create("fuzz.data", MFD_CLOEXEC);
	size_t done = 0;

	if (fd < 0)
		return 0;
	while (done < size) {
		ssize_t n = write(fd, data + done, size - done);

		if (n <= 0) {
			close(fd);
			return 0;
		}
		done += (size_t)n;
	}
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);

	/* report: the raw views, then every symbolised one */
	RUN(fuzz_main_report, "xperf-report", "-i", path, "-D");
	RUN(fuzz_main_report, "xperf-report", "-i", path, "--header-only");
	RUN(fuzz_main_report, "xperf-report", "-i", path, "--stdio", "--header", "-T",
	    "--kallsyms", kallsyms);
	RUN(fuzz_main_report, "xperf-report", "-i", path, "--stdio", "--no-children", "-n", "-v",
	    "-g", "folded,0,caller,srcline,count", "-s", "comm,pid,dso,sym,srcline,cpu,parent",
	    "--kallsyms", kallsyms);
	RUN(fuzz_main_report, "xperf-report", "-i", path, "--stdio", "--children", "--inline",
	    "-g", "fractal,0.1,callee", "-F", "overhead,overhead_sys,overhead_us,sample,period,sym",
	    "--kallsyms", kallsyms);
	RUN(fuzz_main_report, "xperf-report", "-i", path, "--stdio", "--wall", "--kallsyms",
	    kallsyms);
	RUN(fuzz_main_report, "xperf-report", "-i", path, "--flamegraph", "/dev/null",
	    "--kallsyms", kallsyms);
	RUN(fuzz_main_report, "xperf-report", "-i", path, "--pprof", "/dev/null", "--kallsyms",
	    kallsyms);
	/* script: the default lines, every field and side-band record, folded stacks */
	RUN(fuzz_main_script, "xperf-script", "-i", path, "--kallsyms", kallsyms);
	RUN(fuzz_main_script, "xperf-script", "-i", path, "--kallsyms", kallsyms, "--ns",
	    "-F", "comm,tid,pid,time,cpu,event,trace,ip,sym,symoff,dso,addr,srcline,period,misc",
	    "--show-task-events", "--show-mmap-events", "--show-switch-events");
	RUN(fuzz_main_script, "xperf-script", "-i", path, "--kallsyms", kallsyms, "--folded");
	/* annotate: the disassembly of every symbol with samples, with source lines */
	RUN(fuzz_main_annotate, "xperf-annotate", "-i", path, "--stdio", "-l", "--kallsyms",
	    kallsyms, "--stdio-color", "never", "-d", ANNOTATE_DSOS);
	/* inject: the rewrite to a file (with -b's build ids), and as a compressed pipe stream */
	RUN(fuzz_main_inject, "xperf-inject", "-i", path, "-o", out_file, "-b");
	unlink(out_file);
	RUN(fuzz_main_inject, "xperf-inject", "-i", path, "-o", "-", "-z");

	close(fd);
	return 0;
}
