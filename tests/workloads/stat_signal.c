/* Workload for xperf stat: touch a few pages, then die by signal SIG (default 15) or exit with CODE. */
/* Usage: stat_signal [SIG [exit CODE]]   e.g. "stat_signal 9", "stat_signal 0 exit 7" */
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char buf[64 * 4096];

int main(int argc, char **argv)
{
	int sig = argc > 1 ? atoi(argv[1]) : SIGTERM;
	size_t i;

	for (i = 0; i < sizeof(buf); i += 4096)
		buf[i] = 1;
	if (argc > 3 && !strcmp(argv[2], "exit"))
		return atoi(argv[3]);
	if (sig > 0) {
		signal(sig, SIG_DFL);
		raise(sig);
	}
	pause();
	return 0;
}
