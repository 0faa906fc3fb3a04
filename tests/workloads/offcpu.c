/*
 * Workload for --off-cpu: one thread whose wall time is known. Each round (100 ms) it
 * computes in compute() for 50 ms, sleeps in sleep_a_while() (nanosleep) for 30 ms and
 * waits in wait_for_pipe() for 20 ms on an empty pipe, which an interval timer's SIGALRM
 * handler fills (no second thread, so every nanosecond of the process is this thread's).
 * Usage: offcpu [ROUNDS [cpu]]  (default 20 rounds). With "cpu", compute() runs until it
 * has had 50 ms of cpu, however long a busy machine makes that take: the thread's on-CPU
 * and blocked times are then 50/30/20 whatever the load. Prints on stderr what it measured:
 *   offcpu: wall S compute S compute_cpu S sleep S pipe S
 */
#include <errno.h>
#include <signal.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <unistd.h>

#include "workload.h"

/*
 * The system calls are made here, not through libc: libc's wrappers keep no frame pointer,
 * so a frame-pointer call chain taken inside them skips their caller, the very function
 * the tests look for. With the instruction in our function, its frame is the first one.
 */
#define SYSCALL3(nr, a, b, c) __extension__({					\
	long _ret;								\
	__asm__ volatile("syscall" : "=a"(_ret)					\
			 : "a"((long)(nr)), "D"((long)(a)), "S"((long)(b)),	\
			   "d"((long)(c))					\
			 : "rcx", "r11", "memory");				\
	_ret;									\
})

static int pipe_fd[2];
static volatile uint64_t sink;

static void on_alarm(int sig)
{
	char c = 1;

	(void)sig;
	if (write(pipe_fd[1], &c, 1) < 0)
		_exit(3);
}

static int cpu_mode;

/* Spins until `secs` of wall time (or in cpu mode, of the thread's cpu time) have passed. */
static void compute(double secs)
{
	double (*clock)(void) = cpu_mode ? wl_thread_cpu : wl_now;
	double end = clock() + secs;
	uint64_t s = sink;

	while (clock() < end)
		BURN(20000, s);
	sink = s;
}

static void sleep_a_while(double secs)
{
	struct timespec ts = { 0, (long)(secs * 1e9) };

	/* interrupted (by a stray signal): sleep what is left */
	while (SYSCALL3(SYS_nanosleep, &ts, &ts, 0) == -EINTR)
		;
}

/* Blocks in read() until the timer's handler writes a byte, `secs` from now. */
static void wait_for_pipe(double secs)
{
	struct itimerval it = { { 0, 0 }, { 0, (long)(secs * 1e6) } };
	char c;

	long n;

	setitimer(ITIMER_REAL, &it, NULL);
	/* SA_RESTART: the kernel restarts the read after the handler */
	while ((n = SYSCALL3(SYS_read, pipe_fd[0], &c, 1)) != 1)
		if (n != -EINTR)
			exit(2);
}

int main(int argc, char **argv)
{
	int rounds = argc > 1 ? atoi(argv[1]) : 20;
	double t0, t, compute_s = 0, sleep_s = 0, pipe_s = 0, cpu0;
	struct sigaction sa = { .sa_handler = on_alarm, .sa_flags = SA_RESTART };

	cpu_mode = argc > 2 && !strcmp(argv[2], "cpu");
	if (pipe(pipe_fd) < 0 || sigaction(SIGALRM, &sa, NULL) < 0)
		return 1;
	t0 = wl_now();
	cpu0 = wl_thread_cpu();
	for (int i = 0; i < rounds; i++) {
		t = wl_now();
		compute(0.050);
		compute_s += wl_now() - t;
		t = wl_now();
		sleep_a_while(0.030);
		sleep_s += wl_now() - t;
		t = wl_now();
		wait_for_pipe(0.020);
		pipe_s += wl_now() - t;
	}
	fprintf(stderr, "offcpu: wall %.6f compute %.6f compute_cpu %.6f sleep %.6f pipe %.6f\n",
		wl_now() - t0, compute_s, wl_thread_cpu() - cpu0, sleep_s, pipe_s);
	return 0;
}
