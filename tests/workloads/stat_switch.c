/* Workload for xperf stat: N short sleeps, each one voluntary context switch; writes to stdout and stderr. */
/* Usage: stat_switch [N]   (default 100). Prints "out N" on stdout and "err N" on stderr. */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 100, i;
	struct timespec ts = { 0, 200000 };

	for (i = 0; i < n; i++)
		nanosleep(&ts, NULL);
	printf("out %d\n", n);
	fprintf(stderr, "err %d\n", n);
	return 0;
}
