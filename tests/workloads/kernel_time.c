/* Workload: 80% of its CPU time in the kernel (read() from /dev/zero), 20% in user code. */
/*
 * Usage: kernel_time [-v] [SECONDS]     (default 1; a fractional value is fine)
 *
 * Intended split of the CPU time:
 *   80%  kt_read_zero: read() of BUF_SIZE bytes from /dev/zero into a buffer already
 *        faulted in, again and again. Nearly all of it is kernel time spent clearing user
 *        memory, so a [k] symbol leads a report: read_zero on Linux 6.18, where clear_user
 *        is inlined (a `rep stos`), elsewhere clear_user_erms, rep_stos_alternative or
 *        __clear_user under read_iter_zero or iov_iter_zero. The syscall path (entry,
 *        vfs_read, ...) is a few points, the user side of the call (libc's read) about one.
 *   20%  kt_user_work: plain user-space compute (BURN).
 * The calls alternate in short rounds, main -> kt_round -> kt_read_zero / kt_user_work,
 * with the counts calibrated at start-up against each part's measured CPU time (kernel
 * time included, as CLOCK_THREAD_CPUTIME_ID counts both) and the user work of each round
 * adjusted to the time the reads took, so the split holds whatever the machine's memory
 * bandwidth. -v prints the measured shares of the two parts and, from
 * getrusage, the kernel (sys) and user shares of the whole run.
 * With frame pointers the user half of a kernel sample's call chain reads
 * read -> kt_round -> main: libc's read() wrapper keeps no frame of its own, so the
 * unwinder skips kt_read_zero, as it does in any perf profile of such a call.
 */
#include "workload.h"

#include <fcntl.h>
#include <sys/resource.h>
#include <unistd.h>

#define SHARE_KERNEL 80
#define SHARE_USER 20
#define ROUND_SECONDS 0.01    /* one round: short, so the last round hardly matters */
#define BUF_SIZE (256 * 1024) /* per read(): big enough that clearing it outweighs the syscall */

#define KEEP_FRAME() __asm__ volatile("" : : "r"(__builtin_frame_address(0)))

static char buf[BUF_SIZE];
static int zero_fd = -1;
volatile uint64_t sink;
uint64_t reads_per_round, iters_user; /* iters_user: a round's nominal user work */
double user_cost;			    /* CPU seconds per iteration of kt_user_work */
double cpu_read, cpu_user; /* measured CPU time per part, for -v */

__attribute__((noinline)) void kt_read_zero(uint64_t n)
{
	KEEP_FRAME();
	for (uint64_t i = 0; i < n; i++) {
		ssize_t got = read(zero_fd, buf, sizeof(buf));

		if (got != (ssize_t)sizeof(buf)) {
			perror("kernel_time: read /dev/zero");
			exit(2);
		}
	}
	sink += buf[sizeof(buf) - 1];
}

__attribute__((noinline)) void kt_user_work(uint64_t n) { uint64_t s = sink; KEEP_FRAME(); BURN(n, s); sink = s; }

/*
 * The cost of a read() varies more than BURN's (memory bandwidth, other tenants), so each
 * round's user work makes up what the shares so far lack instead of using a fixed count:
 * the split then holds over the run however the reads' cost drifts.
 */
__attribute__((noinline)) void kt_round(void)
{
	double t0 = wl_thread_cpu(), t1, t2, lack;
	uint64_t n = 0;

	kt_read_zero(reads_per_round);
	t1 = wl_thread_cpu();
	cpu_read += t1 - t0;
	lack = cpu_read * SHARE_USER / SHARE_KERNEL - cpu_user;
	if (lack > 0)
		n = lack / user_cost + 1;
	if (n > 4 * iters_user)
		n = 4 * iters_user; /* a bounded catch-up: no round is all user time */
	kt_user_work(n);
	t2 = wl_thread_cpu();
	cpu_user += t2 - t1;
}

/* CPU seconds per read() of the buffer, best of a few tries. */
static double read_cost(void)
{
	double best = 1e9;

	for (int i = 0; i < 5; i++) {
		double t0 = wl_thread_cpu();

		kt_read_zero(20);
		double t = wl_thread_cpu() - t0;
		if (t > 0 && t < best)
			best = t;
	}
	return best / 20;
}

static double tv_seconds(struct timeval tv) { return tv.tv_sec + tv.tv_usec / 1e6; }

int main(int argc, char **argv)
{
	int verbose = wl_verbose(&argc, &argv);
	double seconds = wl_arg_double(argc, argv, 1, 1.0);
	double end;
	uint64_t rounds = 0;

	zero_fd = open("/dev/zero", O_RDONLY | O_CLOEXEC);
	if (zero_fd < 0) {
		perror("kernel_time: open /dev/zero");
		return 2;
	}
	memset(buf, 1, sizeof(buf)); /* fault the pages in: clearing, not faulting, is measured */
	reads_per_round = ROUND_SECONDS * SHARE_KERNEL / 100 / read_cost() + 1;
	user_cost = wl_cost_of(kt_user_work);
	iters_user = ROUND_SECONDS * SHARE_USER / 100 / user_cost + 1;
	cpu_read = cpu_user = 0;
	end = wl_now() + seconds;
	do {
		kt_round();
		rounds++;
	} while (wl_now() < end);
	if (verbose) {
		double tot = cpu_read + cpu_user, sys, usr;
		struct rusage ru;

		getrusage(RUSAGE_SELF, &ru);
		sys = tv_seconds(ru.ru_stime);
		usr = tv_seconds(ru.ru_utime);
		printf("kernel_time: %llu rounds, kt_read_zero %.1f%% kt_user_work %.1f%%; "
		       "rusage: sys %.1f%% user %.1f%%\n",
		       (unsigned long long)rounds, 100 * cpu_read / tot, 100 * cpu_user / tot,
		       100 * sys / (sys + usr), 100 * usr / (sys + usr));
	}
	close(zero_fd);
	return 0;
}
