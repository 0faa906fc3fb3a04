/* xperf-record session: event attrs, per-cpu rings, and the poll loop that drains them. */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#include "record/record.h"

/* How often the loop looks around (child, attached processes) without a wake-up. */
#define TICK_MS 100
/*
 * Without a wake-up, drain at least this often so rounds reach the disk: a recorder killed
 * with SIGKILL loses at most this much (plus one drain). Each round costs a compression
 * flush and a rewrite of the features: measured at 10 kHz with call graphs, 100 ms against
 * 500 ms adds 0.06 % of a cpu to the recorder and 1-2 % to the file (at 1 kHz, 6-20 %: about
 * 50 bytes a round); 50 ms would double that again.
 */
#define DRAIN_MS 100

static uint64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

/* Does this kernel fill MMAP2 records with build ids (attr.build_id, Linux 5.12)? */
static bool kernel_has_build_id(void)
{
	struct perf_event_attr a = {
		.type = PERF_TYPE_SOFTWARE,
		.config = PERF_COUNT_SW_DUMMY,
		.size = sizeof(a),
		.disabled = 1,
		.mmap = 1,
		.mmap2 = 1,
		.build_id = 1,
		.exclude_kernel = 1,
	};
	int fd = xpe_perf_event_open(&a, 0, -1, -1, 0);

	if (fd < 0)
		return false;
	close(fd);
	return true;
}

void session_config(struct rec_session *s, const struct rec_opts *o, const struct rec_target *t)
{
	size_t n = xpe_evlist_count(s->evl), i;
	long page = sysconf(_SC_PAGESIZE);
	size_t ring = o->mmap_pages * (size_t)page;
	uint64_t st = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_PERIOD;
	bool build_id = !o->no_buildid && kernel_has_build_id();

	bool tracepoints = false;

	for (i = 0; i < n; i++)
		tracepoints |= xpe_evlist_event(s->evl, i)->kind == XPE_KIND_TRACEPOINT;
	/* perf samples tracepoints with their raw data and cpu; every attr shares the type. */
	if (tracepoints)
		st |= PERF_SAMPLE_RAW | PERF_SAMPLE_CPU;
	if (t->tg.per_cpu)
		st |= PERF_SAMPLE_CPU;
	if (n > 1)
		st |= PERF_SAMPLE_IDENTIFIER;
	if (o->callgraph != REC_CG_NONE)
		st |= PERF_SAMPLE_CALLCHAIN;
	if (o->callgraph == REC_CG_DWARF)
		st |= PERF_SAMPLE_REGS_USER | PERF_SAMPLE_STACK_USER;
	st |= control_sample_type(&o->ctl);

	for (i = 0; i < n; i++) {
		struct xpe_event *ev = xpe_evlist_event(s->evl, i);
		struct perf_event_attr *a = &ev->attr;

		a->size = sizeof(*a);
		a->sample_type = st;
		a->read_format = PERF_FORMAT_ID;
		control_config(&o->ctl, a);
		/*
		 * Tracepoints and breakpoints keep the parser's period of 1 unless -c or -F
		 * was given (perf's evsel__config rule).
		 */
		bool weak = ev->kind == XPE_KIND_TRACEPOINT || ev->kind == XPE_KIND_BREAKPOINT;

		if (!ev->period_set && !(weak && !o->user_freq && !o->period)) {
			if (o->period) {
				a->freq = 0;
				a->sample_period = o->period;
			} else {
				a->freq = 1;
				a->sample_freq = o->freq;
			}
		}
		a->sample_id_all = 1;
		a->disabled = 1;
		/* A forked command is measured from its exec on (-D: later), not from our set-up. */
		a->enable_on_exec = t->cmd_is_target && !o->ctl.delay_ms;
		a->inherit = !o->no_inherit;
		/* Wake the reader at a quarter full: time to drain before anything is lost. */
		a->watermark = 1;
		a->wakeup_watermark = (uint32_t)(ring / 4 > 0 ? ring / 4 : 1);
		if (o->callgraph == REC_CG_DWARF) {
			a->sample_regs_user = REC_X86_64_REGS_MASK;
			a->sample_stack_user = o->stack_size;
			a->exclude_callchain_user = 1;
		}
		if (s->tracking_is_dummy && i == s->tracking) {
			/* -D's dummy (perf's "dummy:HG") runs from the exec, the others later */
			a->freq = 0;
			a->sample_period = 1;
			a->enable_on_exec = t->cmd_is_target;
		}
		if (i == s->tracking) {
			/* The tracking event reports tasks and maps for everyone, as perf's does. */
			a->mmap = 1;
			a->mmap2 = 1;
			a->comm = 1;
			a->comm_exec = 1;
			a->task = 1;
			a->build_id = build_id;
			/* switch records: asked for, or --off-cpu's switch-in times */
			a->context_switch = o->switch_events || o->off_cpu;
			/*
			 * DWARF unwinding reads the unwind tables (.eh_frame) from the DSOs'
			 * read-only segments, which are not executable: perf's report needs
			 * those maps, so the kernel must report data mappings too, as perf
			 * asks in this mode.
			 */
			a->mmap_data = o->callgraph == REC_CG_DWARF || o->ctl.sample_addr;
		}
	}
}

int session_open(struct rec_session *s, const struct rec_opts *o, struct rec_target *t,
		 struct xb_error *err)
{
	int ret, failed = -1;

	ret = xpe_evlist_open(s->evl, s->ctx, &t->tg.cpus, &t->tg.threads, XPE_OPEN_FALLBACK,
			      &failed, err);
	if (ret < 0)
		return ret;
	s->rings = calloc((size_t)t->tg.cpus.nr, sizeof(*s->rings));
	if (!s->rings)
		return xb_error_set(err, -ENOMEM, "out of memory");
	s->nr_rings = t->tg.cpus.nr;
	return xpe_rings_map(s->evl, &t->tg.cpus, t->tg.threads.nr, o->mmap_pages, s->rings, err);
}

static int add_attr(struct rec_session *s, const struct xpe_event *ev, struct xb_error *err)
{
	uint64_t *ids = calloc((size_t)ev->nr_fd + 1, sizeof(*ids));
	uint32_t nr = 0;
	int j, ret;

	if (!ids)
		return xb_error_set(err, -ENOMEM, "out of memory");
	for (j = 0; j < ev->nr_fd; j++)
		if (ev->fd[j] >= 0 && ev->id[j])
			ids[nr++] = ev->id[j];
	ret = xpf_writer_add_attr(s->w, &ev->attr, ids, nr, ev->name, err);
	free(ids);
	return ret;
}

int session_offcpu(struct rec_session *s, const struct rec_opts *o, struct xb_error *err)
{
	size_t n = xpe_evlist_count(s->evl);

	if (!o->off_cpu)
		return 0;
	return rec_offcpu_create(&s->offcpu, xpe_evlist_event(s->evl, n - 1),
				 xpe_evlist_event(s->evl, 0), o->switch_events,
				 xpe_ctx_tracefs(s->ctx), err);
}

int session_add_attrs(struct rec_session *s, struct xb_error *err)
{
	size_t n = xpe_evlist_count(s->evl), i;

	if (s->offcpu) {
		struct perf_event_attr a;
		uint64_t id;
		int ret;

		rec_offcpu_attr(s->offcpu, &a, &id);
		for (i = 0; i < n; i++) {
			ret = add_attr(s, xpe_evlist_event(s->evl, i), err);
			if (ret < 0)
				return ret;
		}
		return xpf_writer_add_attr(s->w, &a, &id, 1, REC_OFFCPU_NAME, err);
	}

	for (i = 0; i < n; i++) {
		int ret = add_attr(s, xpe_evlist_event(s->evl, i), err);

		if (ret < 0)
			return ret;
	}
	return 0;
}

/* Look at a record on its way to the file: counts, DSOs for build ids. */
static void account(struct rec_session *s, const struct perf_event_header *h)
{
	const unsigned char *body = (const unsigned char *)(h + 1);
	size_t len = h->size - sizeof(*h);
	uint64_t v;

	s->st.records++;
	switch (h->type) {
	case PERF_RECORD_SAMPLE:
		s->st.samples++;
		break;
	case PERF_RECORD_LOST:
		if (len >= 16) {
			memcpy(&v, body + 8, 8);
			s->st.lost += v;
		}
		break;
	case PERF_RECORD_LOST_SAMPLES:
		if (len >= 8) {
			memcpy(&v, body, 8);
			s->st.lost_samples += v;
		}
		break;
	case PERF_RECORD_THROTTLE:
		s->st.throttled++;
		break;
	case PERF_RECORD_UNTHROTTLE:
		s->st.unthrottled++;
		break;
	case PERF_RECORD_MMAP2:
		/* pid tid addr len pgoff (32), maj/min/ino or build id (24), prot flags (8) */
		if (s->bids && len > 64) {
			const char *name = (const char *)body + 64;
			bool kernel = (h->misc & PERF_RECORD_MISC_CPUMODE_MASK) ==
				      PERF_RECORD_MISC_KERNEL;

			if (!memchr(name, 0, len - 64))
				break;
			if (h->misc & PERF_RECORD_MISC_MMAP_BUILD_ID) {
				uint8_t size = body[32];

				if (size > 20)
					size = 20;
				xrec_buildids_add(s->bids, name, kernel, body + 36, size);
			} else {
				xrec_buildids_add(s->bids, name, kernel, NULL, 0);
			}
		}
		break;
	}
}

int session_write(void *arg, const struct perf_event_header *h)
{
	struct rec_session *s = arg;
	int ret;

	if (s->write_err)
		return s->write_err;
	account(s, h);
	ret = xpf_writer_write(s->w, h, &s->werr);
	if (ret < 0)
		s->write_err = ret;
	return ret;
}

/* A record of a ring on its way to the file (after a write error: consumed, not written). */
static int drain_one(void *arg, const struct perf_event_header *h)
{
	struct rec_session *s = arg;

	if (s->write_err)
		return 0;
	if (s->offcpu) {
		int keep = rec_offcpu_see(s->offcpu, h);

		if (keep < 0) {
			s->write_err = keep;
			xb_error_set(&s->werr, keep, "--off-cpu: out of memory");
		}
		if (keep <= 0)
			return 0;
	}
	session_write(s, h);
	return 0;
}

size_t session_drain(struct rec_session *s)
{
	size_t total = xpe_rings_drain(s->rings, s->nr_rings, drain_one, s, &s->st.corrupt).bytes;

	if (total && s->offcpu && !s->write_err) {
		int ret = rec_offcpu_flush(s->offcpu, session_write, s);

		if (ret < 0 && !s->write_err) {
			s->write_err = ret;
			xb_error_set(&s->werr, ret, "--off-cpu: out of memory");
		}
	}
	if (total && !s->write_err) {
		int ret = xpf_writer_finished_round(s->w, &s->werr);

		if (ret < 0)
			s->write_err = ret;
	}
	return total;
}

static int reap_child(struct rec_target *t, int *status)
{
	pid_t p;

	if (t->wl.pid <= 0)
		return 0;
	p = waitpid(t->wl.pid, status, WNOHANG);
	if (p == t->wl.pid) {
		t->wl.pid = -1;
		return 1;
	}
	return 0;
}

/* --max-size and --switch-output, after a round: true when the recording must stop. */
static bool output_limits(struct rec_session *s)
{
	uint64_t size = xpf_writer_bytes_written(s->w);

	if (s->max_size && size >= s->max_size) {
		s->max_size_hit = true;
		return true;
	}
	if (!s->rotate || s->write_err)
		return false;
	if ((s->switch_flag && *s->switch_flag) || (s->switch_size && size >= s->switch_size)) {
		if (s->switch_flag)
			*s->switch_flag = 0;
		return s->rotate(s) < 0;
	}
	return false;
}

int session_run(struct rec_session *s, struct rec_target *t, volatile sig_atomic_t *done,
		int *child_status)
{
	struct pollfd *pfd = calloc((size_t)(s->nr_rings + rec_switch_event_nr_fds(s->swev)) + 1,
				    sizeof(*pfd));
	sigset_t blocked, orig;
	int i, nr = 0;
	bool had_child = t->wl.pid > 0;
	uint64_t looked = now_ms(), next = looked + DRAIN_MS;

	if (!pfd)
		return -ENOMEM;
	for (i = 0; i < s->nr_rings; i++) {
		if (!s->rings[i])
			continue;
		pfd[nr].fd = xpe_ring_fd(s->rings[i]);
		pfd[nr].events = POLLIN;
		nr++;
	}
	if (s->swev)
		nr += rec_switch_event_pollfds(s->swev, pfd + nr);
	/* Signals are taken only inside ppoll, so a SIGCHLD cannot slip in before it. */
	sigemptyset(&blocked);
	sigaddset(&blocked, SIGCHLD);
	sigaddset(&blocked, SIGINT);
	sigaddset(&blocked, SIGTERM);
	sigprocmask(SIG_BLOCK, &blocked, &orig);

	for (;;) {
		struct timespec tick;
		uint64_t now, wait;
		int ret;

		if (reap_child(t, child_status) || *done || s->write_err)
			break;
		/* Attached processes (-p/-t/-u) are looked at once a tick: it reads /proc. */
		if (!had_child && t->tg.nr_pids && now_ms() - looked >= TICK_MS) {
			if (!xpe_target_alive(&t->tg))
				break;
			looked = now_ms();
		}
		/* sleep until the next round is due, a tick at most */
		now = now_ms();
		wait = next > now ? next - now : 0;
		if (wait > TICK_MS)
			wait = TICK_MS;
		tick.tv_sec = (time_t)(wait / 1000);
		tick.tv_nsec = (long)(wait % 1000) * 1000000L;
		ret = ppoll(pfd, (nfds_t)nr, &tick, &orig);
		/* perf counts every return of its poll but timeouts: data, hang-ups, signals */
		if (ret != 0)
			s->st.wakeups++;
		if (ret > 0) {
			for (i = 0; i < nr; i++) {
				/* A ring whose tasks are all gone stays readable: stop polling it. */
				if (pfd[i].revents & (POLLHUP | POLLERR))
					pfd[i].fd = -pfd[i].fd - 1;
			}
			/* --switch-output-event: as a SIGUSR2, after this round */
			if (s->swev && rec_switch_event_fired(s->swev) && s->switch_flag)
				*s->switch_flag = 1;
		} else if (ret < 0 && errno != EINTR) {
			break;
		}
		now = now_ms();
		if (ret == 0 && now < next)
			continue;
		/* rounds keep their pace from start to start, however long one takes */
		next = now + DRAIN_MS;
		session_drain(s);
		if (output_limits(s))
			break;
	}
	sigprocmask(SIG_SETMASK, &orig, NULL);
	free(pfd);
	/* Stop the events, then take what they wrote before stopping. */
	xpe_evlist_ioctl(s->evl, PERF_EVENT_IOC_DISABLE);
	while (session_drain(s) && !s->write_err)
		;
	return s->write_err;
}

/* Unmap the rings and close the events' fds (nr_rings stays: the summary reads it). */
static void release_events(struct rec_session *s)
{
	for (int i = 0; s->rings && i < s->nr_rings; i++)
		xpe_ring_unmap(s->rings[i]);
	free(s->rings);
	s->rings = NULL;
	xpe_evlist_close(s->evl);
	s->released = true;
}

static int cmp_int(const void *a, const void *b)
{
	return *(const int *)a - *(const int *)b;
}

static bool has_tracepoint(xpe_evlist *evl)
{
	for (size_t i = 0; i < xpe_evlist_count(evl); i++)
		if (xpe_evlist_event(evl, i)->kind == XPE_KIND_TRACEPOINT)
			return true;
	return false;
}

/* The open fds of the events and `also`, sorted; NULL without memory. */
static int *event_fds(xpe_evlist *evl, int also, size_t *nr)
{
	size_t n = xpe_evlist_count(evl), total = 1, k = 0;
	int *fds;

	for (size_t i = 0; i < n; i++)
		total += (size_t)xpe_evlist_event(evl, i)->nr_fd;
	fds = malloc(total * sizeof(*fds));
	if (!fds)
		return NULL;
	for (size_t i = 0; i < n; i++) {
		const struct xpe_event *ev = xpe_evlist_event(evl, i);

		for (int j = 0; ev->fd && j < ev->nr_fd; j++)
			if (ev->fd[j] >= 0)
				fds[k++] = ev->fd[j];
	}
	fds[k++] = also;
	qsort(fds, k, sizeof(*fds), cmp_int);
	*nr = k;
	return fds;
}

/*
 * In the child: close every fd but `keep` (sorted: the events' and the gate), wait until
 * the parent has closed its copies of the events (the gate's end of file), and exit,
 * which closes ours, the last ones. Only async-signal-safe calls, as after any fork.
 */
static __attribute__((noreturn)) void hold_events(const int *keep, size_t nr, int gate)
{
	unsigned int from = 0;
	sigset_t all;
	char c;

	sigfillset(&all);
	sigprocmask(SIG_SETMASK, &all, NULL);
	for (size_t i = 0; i < nr; i++) {
		if ((unsigned int)keep[i] > from)
			close_range(from, (unsigned int)keep[i] - 1, 0);
		from = (unsigned int)keep[i] + 1;
	}
	close_range(from, ~0U, 0);
	while (read(gate, &c, 1) < 0 && errno == EINTR)
		;
	_exit(0);
}

/*
 * With tracepoints (--off-cpu's sched:sched_switch), the kernel's release of the event at
 * its last close waits for RCU grace periods, some 30-40 ms here (perf waits them too),
 * in which there is nothing left to do: the events are stopped and their rings drained,
 * and no record can come from them any more. A short-lived child takes the last
 * references over and waits in our place, so the command writes the file's end and
 * returns while the kernel lets the events go. Sound because: the child holds nothing
 * but the events (every other fd, the output and stdout/stderr included, is closed
 * first, so no reader waits for it), touches no memory of ours, is gone once the kernel
 * has released them (tens of ms; we reap it if it is done before we are, else init
 * does), and a release cannot fail in a way a user could act on. The parent closes its
 * copies before the child may close its own, or the parent's close would be the last.
 * Without a tracepoint (a release in microseconds) or when fork fails: released here.
 */
void session_release(struct rec_session *s)
{
	int gate[2];
	int *keep;
	size_t nr = 0;
	pid_t pid;

	if (!has_tracepoint(s->evl) || pipe2(gate, O_CLOEXEC) < 0) {
		release_events(s);
		return;
	}
	keep = event_fds(s->evl, gate[0], &nr);
	pid = keep ? fork() : -1;
	if (pid == 0)
		hold_events(keep, nr, gate[0]);
	free(keep);
	close(gate[0]);
	release_events(s);
	/* the child may close its copies now (without a child: nothing waits) */
	close(gate[1]);
	s->releaser = pid > 0 ? pid : 0;
}

void session_close(struct rec_session *s)
{
	if (!s->released)
		release_events(s);
	/* reaped here if it is done already, else by init once we are gone */
	if (s->releaser > 0)
		waitpid(s->releaser, NULL, WNOHANG);
	s->releaser = 0;
	s->nr_rings = 0;
	rec_offcpu_free(s->offcpu);
	s->offcpu = NULL;
	rec_switch_event_free(s->swev);
	s->swev = NULL;
}
