/* Workload for xperf stat: touch NPAGES fresh anonymous pages (page-fault counts), then exit. */
/* Usage: stat_pages [NPAGES]   (default 2000) */
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 2000, ps = sysconf(_SC_PAGESIZE), i;
	volatile char *p;

	if (n <= 0)
		return 2;
	/* MAP_POPULATE off: each first write is one minor fault */
	p = mmap(NULL, n * ps, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED) {
		perror("mmap");
		return 2;
	}
	madvise((void *)p, n * ps, MADV_NOHUGEPAGE);
	for (i = 0; i < n; i++)
		p[i * ps] = 1;
	return 0;
}
