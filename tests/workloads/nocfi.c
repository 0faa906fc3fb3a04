/* Workload: frames without CFI, as node's: code of the binary with no FDE, and JIT code. */
/*
 * Usage: nocfi [SECONDS]     (default 1)
 * Four phases in turn, about a quarter of the time each, every frame keeping its frame
 * pointer:
 *   main -> nocfi_call -> c_leaf   nocfi_call: in .text, with no .eh_frame entry (as V8's
 *                                  builtins in node's text): unwinders fall back on rbp
 *   main -> nocfi_spin             the same, spinning there itself
 *   main -> jit_call -> c_leaf     jit_call: nocfi_call copied into anonymous executable
 *                                  memory, named by /tmp/perf-PID.map (as node's JIT code)
 *   main -> jit_spin               the same for nocfi_spin
 * Prints "nocfi: pid PID" first, so tests can find the map file (and remove it).
 * Exits 77 (skip) on another architecture than x86_64.
 */
#include <sys/mman.h>
#include <unistd.h>

#include "workload.h"

#define SLOT 64 /* bytes between the two functions in the JIT page */
#define ROUND_SECONDS 0.003

typedef void (*leaf_fn)(uint64_t n);

#if defined(__x86_64__)
/*
 * Written in assembly without .cfi directives, so the assembler makes no FDE for them:
 * nocfi_call(n, fn) calls fn(n) from a frame of its own, nocfi_spin(n) counts n down.
 * Position-independent, so their bytes also run where they are copied.
 */
__asm__(".text\n"
	".globl nocfi_call\n.type nocfi_call, @function\n"
	"nocfi_call:\n"
	"	push %rbp\n"
	"	mov %rsp, %rbp\n"
	"	call *%rsi\n"
	"	pop %rbp\n"
	"	ret\n"
	"nocfi_call_end:\n"
	".size nocfi_call, .-nocfi_call\n"
	".globl nocfi_spin\n.type nocfi_spin, @function\n"
	"nocfi_spin:\n"
	"	push %rbp\n"
	"	mov %rsp, %rbp\n"
	"1:	dec %rdi\n"
	"	jnz 1b\n"
	"	pop %rbp\n"
	"	ret\n"
	"nocfi_spin_end:\n"
	".size nocfi_spin, .-nocfi_spin\n"
	".globl nocfi_sizes\n.section .rodata\n"
	"nocfi_sizes: .quad nocfi_call_end - nocfi_call, nocfi_spin_end - nocfi_spin\n"
	".text\n");

void nocfi_call(uint64_t n, leaf_fn fn);
void nocfi_spin(uint64_t n);
extern const uint64_t nocfi_sizes[2];

static uint64_t sink;

/* compiled C, with CFI: called from the frames that have none */
static void c_leaf(uint64_t n)
{
	BURN(n, sink);
}

static void write_map(unsigned char *code)
{
	char path[64];
	FILE *f;

	wl_map_path(path, sizeof(path));
	f = fopen(path, "w");
	if (!f) {
		perror(path);
		exit(2);
	}
	fprintf(f, "%llx %x jit_call\n", (unsigned long long)(uintptr_t)code, SLOT);
	fprintf(f, "%llx %x jit_spin\n", (unsigned long long)(uintptr_t)(code + SLOT), SLOT);
	if (fclose(f)) {
		perror(path);
		exit(2);
	}
}

/* the iterations of c_leaf and of the spin loop that take ROUND_SECONDS / 4 each */
static uint64_t leaf_n, spin_n;
static void leaf_probe(uint64_t n) { nocfi_call(n, c_leaf); }
static void spin_probe(uint64_t n) { nocfi_spin(n); }

int main(int argc, char **argv)
{
	double seconds = wl_arg_double(argc, argv, 1, 1.0);
	size_t len = (size_t)sysconf(_SC_PAGESIZE);
	unsigned char *code = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
				   -1, 0);

	if (code == MAP_FAILED) {
		perror("nocfi: mmap");
		return 2;
	}
	memcpy(code, (const void *)(uintptr_t)nocfi_call, nocfi_sizes[0]);
	memcpy(code + SLOT, (const void *)(uintptr_t)nocfi_spin, nocfi_sizes[1]);
	/* W^X as real JITs do: the kernel reports the mapping (//anon) when it turns executable */
	if (mprotect(code, len, PROT_READ | PROT_EXEC)) {
		perror("nocfi: mprotect");
		return 2;
	}
	printf("nocfi: pid %d\n", (int)getpid());
	fflush(stdout);
	write_map(code);

	void (*jit_call)(uint64_t, leaf_fn) = (void (*)(uint64_t, leaf_fn))(uintptr_t)code;
	void (*jit_spin)(uint64_t) = (void (*)(uint64_t))(uintptr_t)(code + SLOT);
	double end = wl_now() + seconds;

	leaf_n = ROUND_SECONDS / 4 / wl_cost_of(leaf_probe) + 1;
	spin_n = ROUND_SECONDS / 4 / wl_cost_of(spin_probe) + 1;
	do {
		nocfi_call(leaf_n, c_leaf);
		nocfi_spin(spin_n);
		jit_call(leaf_n, c_leaf);
		jit_spin(spin_n);
	} while (wl_now() < end);
	return sink == 42;
}
#else
int main(void)
{
	fprintf(stderr, "nocfi: no machine code for this architecture\n");
	return 77;
}
#endif
