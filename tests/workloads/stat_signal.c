/* Workload for xperf stat: touch 256 fresh pages, then die by signal SIG (default 15) or exit with CODE. */
/* Usage: stat_signal [SIG [exit CODE]]   e.g. "stat_signal 9", "stat_signal 0 exit 7" */
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	int sig = argc > 1 ? atoi(argv[1]) : SIGTERM;
	long ps = sysconf(_SC_PAGESIZE), i;
	volatile char *p = mmap(NULL, 256 * ps, PROT_READ | PROT_WRITE,
				MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		return 2;
	madvise((void *)p, 256 * ps, MADV_NOHUGEPAGE);
	for (i = 0; i < 256; i++)
		p[i * ps] = 1;
	if (argc > 3 && !strcmp(argv[2], "exit"))
		return atoi(argv[3]);
	if (sig > 0) {
		signal(sig, SIG_DFL);
		raise(sig);
	}
	pause();
	return 0;
}
