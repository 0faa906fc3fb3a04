/* Workload (C++): CPU time in a template instance, a lambda and an inlined-only function. */
/*
 * Usage: cxx_inline [-v] [SECONDS]     (default 1; a fractional value is fine)
 *
 * The symbols the coming symbolisation features are tested with, all in namespace work so
 * their linkage names are mangled (_ZN4work...) and reports must demangle them. Intended
 * split of the CPU time (perf report --no-children --sort sym), a third each:
 *
 *   work::sum_squares<double>(double const*, unsigned long, unsigned long)        ~33%
 *       a function template, instantiated for double
 *   work::lambda_host(unsigned long)::{lambda(unsigned long)#1}::operator()(unsigned long) const
 *                                                                                  ~33%
 *       a lambda called in a loop by work::lambda_host (which keeps well under 1%)
 *   work::inline_host(unsigned long)                                              ~33%
 *       nearly all of it inside work::hot_inlined, which exists only inlined there: no
 *       symbol of its own, only DWARF's DW_TAG_inlined_subroutine names it (through
 *       DW_AT_abstract_origin, then DW_AT_specification to its declaration in the namespace)
 *
 * perf 6.1 prints the first and third without their parameter lists ("work::inline_host").
 * Its --inline shows no hot_inlined frame here (Debian's perf asks binutils' addr2line, which
 * names this C++ inline frame after its host), but --sort srcline puts inline_host's samples
 * on hot_inlined's lines.
 *
 * Built with g++ -O2 -g -fno-omit-frame-pointer (not -fno-inline, which would defeat
 * always_inline's purpose here). The out-of-line functions are noinline and noclone, so
 * GCC neither inlines them into do_round nor renames them (".isra.0", ".constprop.0").
 * As in shares.c, the iteration counts are calibrated at start-up against each part's
 * measured cost, so the thirds hold in CPU time; -v prints the measured shares. Calls go
 * main -> work::do_round -> the three, so call-graph tests see a chain.
 */
#include "workload.h"

#define ROUND_SECONDS 0.006 /* one round: short, so the last round hardly matters */
#define LEN 1024	    /* elements of the template's input: in L1, a power of two */
#define CHUNK 256	    /* iterations per call of the lambda and of hot_inlined */

#define OUT_OF_LINE __attribute__((noinline, noclone))
/* A frame of its own even as a leaf, so frame-pointer unwinding sees the caller (shares.c). */
#define KEEP_FRAME() __asm__ volatile("" : : "r"(__builtin_frame_address(0)))

namespace work {

double data[LEN];
volatile uint64_t sink;
volatile double sink_d;

/* n squares summed, cycling over v[0..len) (len a power of two). */
template <typename T> OUT_OF_LINE T sum_squares(const T *v, unsigned long len, unsigned long n)
{
	T s = 0;

	KEEP_FRAME();
	for (unsigned long i = 0; i < n; i++) {
		T x = v[i & (len - 1)];

		s += x * x;
	}
	return s;
}

/* n iterations of the lambda's loop, CHUNK per call. */
OUT_OF_LINE void lambda_host(unsigned long n)
{
	uint64_t state = sink;
	auto step = [&state](unsigned long k) OUT_OF_LINE {
		KEEP_FRAME();
		BURN(k, state);
	};

	for (unsigned long done = 0; done < n; done += CHUNK)
		step(CHUNK);
	sink = state;
}

/*
 * Never called out of line and never address-taken: with always_inline GCC emits no copy
 * of its own, only the inlined one in inline_host (and the DWARF that names it).
 */
static inline __attribute__((always_inline)) uint64_t hot_inlined(uint64_t x, unsigned long k)
{
	for (unsigned long i = 0; i < k; i++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		__asm__ volatile("" : "+r"(x));
	}
	return x;
}

/* n iterations of hot_inlined's loop, CHUNK per inlined call. */
OUT_OF_LINE void inline_host(unsigned long n)
{
	uint64_t x = sink | 1;

	KEEP_FRAME();
	for (unsigned long done = 0; done < n; done += CHUNK)
		x = hot_inlined(x, CHUNK);
	sink = x;
}

unsigned long iters_sum, iters_lambda, iters_inline;
double cpu_sum, cpu_lambda, cpu_inline; /* measured CPU time per part, for -v */

OUT_OF_LINE void do_round(void)
{
	double t0 = wl_thread_cpu(), t1, t2, t3;

	sink_d = sink_d + sum_squares(data, LEN, iters_sum);
	t1 = wl_thread_cpu();
	lambda_host(iters_lambda);
	t2 = wl_thread_cpu();
	inline_host(iters_inline);
	t3 = wl_thread_cpu();
	cpu_sum += t1 - t0;
	cpu_lambda += t2 - t1;
	cpu_inline += t3 - t2;
}

} /* namespace work */

/* Calibration entry points for wl_cost_of (void (*)(uint64_t)); they run only at start-up. */
static void cost_sum(uint64_t n) { work::sink_d = work::sum_squares(work::data, LEN, n); }
static void cost_lambda(uint64_t n) { work::lambda_host(n); }
static void cost_inline(uint64_t n) { work::inline_host(n); }

int main(int argc, char **argv)
{
	int verbose = wl_verbose(&argc, &argv);
	double seconds = wl_arg_double(argc, argv, 1, 1.0);
	double end;
	uint64_t rounds = 0;

	for (int i = 0; i < LEN; i++)
		work::data[i] = 1.0 + i / (double)LEN;
	work::iters_sum = ROUND_SECONDS / 3 / wl_cost_of(cost_sum) + 1;
	work::iters_lambda = ROUND_SECONDS / 3 / wl_cost_of(cost_lambda) + 1;
	work::iters_inline = ROUND_SECONDS / 3 / wl_cost_of(cost_inline) + 1;
	end = wl_now() + seconds;
	do {
		work::do_round();
		rounds++;
	} while (wl_now() < end);
	if (verbose) {
		double tot = work::cpu_sum + work::cpu_lambda + work::cpu_inline;

		printf("cxx_inline: %llu rounds, sum_squares %.1f%% lambda %.1f%% inline_host %.1f%%\n",
		       (unsigned long long)rounds, 100 * work::cpu_sum / tot,
		       100 * work::cpu_lambda / tot, 100 * work::cpu_inline / tot);
	}
	return 0;
}
