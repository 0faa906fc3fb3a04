/*
 * Workload: a sized function with a 0-size local label inside it (as V8's builtins in node
 * have), the hot loop past the label; perf names the function, not the label.
 */
#include "workload.h"

/*
 * label_work(n): n turns of a loop. Written in assembly so the label stays in .symtab as a
 * LOCAL NOTYPE symbol of size 0 (a C label never reaches the symbol table), and the function
 * keeps a frame pointer like the other workloads.
 */
void label_work(uint64_t n);
__asm__(".text\n"
	".type label_work, @function\n"
	"label_work:\n"
	"	push %rbp\n"
	"	mov %rsp, %rbp\n"
	"label_inside:\n"
	"	mov %rdi, %rax\n"
	"	nop; nop; nop; nop; nop; nop; nop; nop\n"
	"1:	dec %rax\n"
	"	jnz 1b\n"
	"	pop %rbp\n"
	"	ret\n"
	".size label_work, .-label_work\n");

int main(int argc, char **argv)
{
	double seconds = wl_arg_double(argc, argv, 1, 1.0);
	double end = wl_now() + seconds;

	do
		label_work(1000000);
	while (wl_now() < end);
	return 0;
}
