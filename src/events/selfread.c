/* libxperf-events: a counter of the calling thread read through its mmap page (rdpmc), or read(2). */
#include <errno.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>

#include "events/xpe_open.h"
#include "events/xpe_selfread.h"

#if defined(__x86_64__) || defined(__i386__)
#define HAVE_RDPMC 1
static uint64_t x86_rdpmc(uint32_t counter)
{
	uint32_t lo, hi;

	__asm__ volatile("rdpmc" : "=a"(lo), "=d"(hi) : "c"(counter));
	return (uint64_t)hi << 32 | lo;
}

static uint64_t x86_rdtsc(void)
{
	uint32_t lo, hi;

	__asm__ volatile("rdtsc" : "=a"(lo), "=d"(hi));
	return (uint64_t)hi << 32 | lo;
}
#else
#define HAVE_RDPMC 0
#endif

/* A compiler barrier: the loads between two reads of `lock` stay between them. */
#define barrier() __asm__ volatile("" ::: "memory")

uint64_t xpe_mmap_page_delta(uint64_t cyc, uint32_t time_mult, uint16_t time_shift,
			     uint64_t time_offset, bool short_time, uint64_t time_cycles,
			     uint64_t time_mask)
{
	uint64_t quot, rem;

	/* cap_user_time_short: the TSC as the kernel's short counter sees it */
	if (short_time)
		cyc = time_cycles + ((cyc - time_cycles) & time_mask);
	if (time_shift >= 64)
		return time_offset;
	/* cyc * mult >> shift in two parts, so the product cannot overflow */
	quot = cyc >> time_shift;
	rem = cyc & ((1ULL << time_shift) - 1);
	return time_offset + quot * time_mult + ((rem * time_mult) >> time_shift);
}

int xpe_mmap_page_read(const volatile struct perf_event_mmap_page *pc, xpe_rdpmc_fn rdpmc,
		       xpe_tsc_fn tsc, struct xpe_self_value *v)
{
	uint32_t seq, index, time_mult = 0;
	uint16_t time_shift = 0, width;
	uint64_t count, cyc = 0, time_offset = 0, time_cycles = 0, time_mask = ~0ULL;
	bool user_time, short_time = false, can_count;
	int64_t pmc;

#if HAVE_RDPMC
	if (!rdpmc)
		rdpmc = x86_rdpmc;
	if (!tsc)
		tsc = x86_rdtsc;
#endif
	memset(v, 0, sizeof(*v));
	do {
		seq = pc->lock;
		barrier();
		v->time_enabled = pc->time_enabled;
		v->time_running = pc->time_running;
		user_time = pc->cap_user_time && tsc;
		if (user_time) {
			cyc = tsc();
			time_mult = pc->time_mult;
			time_shift = pc->time_shift;
			time_offset = pc->time_offset;
			short_time = pc->cap_user_time_short;
			if (short_time) {
				time_cycles = pc->time_cycles;
				time_mask = pc->time_mask;
			}
		}
		index = pc->index;
		count = pc->offset;
		pmc = 0;
		can_count = pc->cap_user_rdpmc && index && rdpmc;
		if (can_count) {
			width = pc->pmc_width;
			pmc = (int64_t)rdpmc(index - 1);
			/* the counter holds `width` bits: sign-extend them */
			if (width && width < 64) {
				pmc = (int64_t)((uint64_t)pmc << (64 - width));
				pmc >>= 64 - width;
			}
		}
		barrier();
	} while (pc->lock != seq);

	if (!can_count)
		return -EOPNOTSUPP;
	v->value = count + (uint64_t)pmc;
	if (user_time) {
		/* the event is on a counter (index): it has been enabled and running since */
		uint64_t delta = xpe_mmap_page_delta(cyc, time_mult, time_shift, time_offset,
						     short_time, time_cycles, time_mask);

		v->time_enabled += delta;
		v->time_running += delta;
		v->times_now = true;
	}
	return 0;
}

int xpe_self_open(struct xpe_self_counter *c, struct perf_event_attr *attr,
		  struct xb_error *err)
{
	long page = sysconf(_SC_PAGESIZE);
	void *p;

	c->fd = -1;
	c->page = NULL;
	c->page_size = (size_t)page;
	attr->size = sizeof(*attr);
	attr->read_format = PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
	attr->sample_period = 0;
	attr->freq = 0;
	c->fd = xpe_perf_event_open(attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	if (c->fd < 0) {
		int ret = c->fd;

		c->fd = -1;
		return xb_error_set(err, ret, "cannot open the counter: %s", strerror(-ret));
	}
	/* the page alone: no ring buffer pages, nothing to lock in memory */
	p = mmap(NULL, c->page_size, PROT_READ, MAP_SHARED, c->fd, 0);
	if (p == MAP_FAILED) {
		int ret = -errno;

		close(c->fd);
		c->fd = -1;
		return xb_error_set(err, ret, "cannot map the counter's page: %s", strerror(-ret));
	}
	c->page = p;
	return 0;
}

int xpe_self_read(const struct xpe_self_counter *c, struct xpe_self_value *v)
{
	uint64_t buf[3];
	ssize_t n;

	if (c->page && xpe_mmap_page_read(c->page, NULL, NULL, v) == 0)
		return 0;
	n = read(c->fd, buf, sizeof(buf));
	if (n < 0)
		return -errno;
	if (n != (ssize_t)sizeof(buf))
		return -EIO;
	v->value = buf[0];
	v->time_enabled = buf[1];
	v->time_running = buf[2];
	v->by_read = true;
	v->times_now = false;
	return 0;
}

void xpe_self_close(struct xpe_self_counter *c)
{
	if (c->page)
		munmap(c->page, c->page_size);
	if (c->fd >= 0)
		close(c->fd);
	c->page = NULL;
	c->fd = -1;
}
