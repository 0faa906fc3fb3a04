/* xperf-record: what the user sees at the end: wake-ups, size, samples, losses, the command's fate. */
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>

#include "cli/cli.h"
#include "record/record.h"

void summary_print(const struct rec_session *s, const struct rec_opts *o, const char *name,
		   uint64_t bytes_out, uint64_t bytes_in, uint64_t samples)
{
	const struct rec_stats *st = &s->st;
	uint64_t lost = st->lost + st->lost_samples;

	if (lost) {
		cli_warning("%llu samples lost (%s); the ring buffer of %zu pages per cpu "
			    "overflowed", (unsigned long long)lost,
			    st->lost ? "PERF_RECORD_LOST" : "PERF_RECORD_LOST_SAMPLES",
			    o->mmap_pages);
		cli_hint("use a larger buffer (-m %zu) or a lower rate (-F %llu)",
			 o->mmap_pages * 4, (unsigned long long)(o->period ? 0 : o->freq / 2));
	}
	/*
	 * In frequency mode each event starts with a short period and may be throttled once
	 * while the kernel adjusts it; only more than that is worth a warning.
	 */
	if (st->throttled > (uint64_t)s->nr_rings || (o->period && st->throttled)) {
		cli_warning("sampling was throttled %llu times by the kernel "
			    "(kernel.perf_event_max_sample_rate = %ld)",
			    (unsigned long long)st->throttled,
			    rec_read_sysctl("/proc/sys/kernel/perf_event_max_sample_rate"));
		cli_hint("use a lower rate (-F) or a larger period (-c)");
	}
	if (st->corrupt)
		cli_warning("%llu corrupt ring buffer reads were skipped",
			    (unsigned long long)st->corrupt);
	if (o->quiet)
		return;
	fprintf(stderr, "[ xperf record: Woken up %llu times to write data ]\n",
		(unsigned long long)st->wakeups);
	fprintf(stderr, "[ xperf record: Captured and wrote %.3f MB %s (%llu samples)",
		(double)bytes_out / (1024.0 * 1024.0),
		strcmp(name, "-") ? name : "(pipe)", (unsigned long long)samples);
	if (o->compress_level && bytes_out)
		fprintf(stderr, ", compression ratio %.1f", (double)bytes_in / (double)bytes_out);
	fprintf(stderr, " ]\n");
}

int summary_child_status(const struct rec_opts *o, int status)
{
	if (WIFEXITED(status))
		return WEXITSTATUS(status);
	if (WIFSIGNALED(status)) {
		int sig = WTERMSIG(status);

		if (!o->quiet || sig != SIGTERM)
			cli_warning("command '%s' was terminated by signal %d (%s)%s",
				    o->argv[0], sig, strsignal(sig),
				    WCOREDUMP(status) ? ", core dumped" : "");
		return 128 + sig;
	}
	return 0;
}
