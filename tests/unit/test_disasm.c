/* Unit tests of annotation's pieces: decoding known x86-64 bytes, address spaces of a code range. */
#include <elf.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "config.h"
#include "unit.h"
#include "profile/disasm/annotate.h"
#include "profile/disasm/disasm.h"

/*
 * 1000: push %rbp              55
 * 1001: mov %rsp,%rbp          48 89 e5
 * 1004: mov 0x10(%rip),%rax    48 8b 05 10 00 00 00   (-> 0x101b)
 * 100b: jne 1001               75 f4
 * 100d: call 1020              e8 0e 00 00 00
 * 1012: (bad)                  06 (invalid in 64-bit mode)
 * 1013: ret                    c3
 */
static const uint8_t code_bytes[] = {
	0x55, 0x48, 0x89, 0xe5, 0x48, 0x8b, 0x05, 0x10, 0x00, 0x00, 0x00, 0x75, 0xf4,
	0xe8, 0x0e, 0x00, 0x00, 0x00, 0x06, 0xc3,
};

#if HAVE_ZYDIS
/*
 * AVX-512 (EVEX) code as glibc's *_evex string functions have it, and the spellings where
 * objdump differs from Intel's names: each line's bytes and objdump's text (binutils 2.40,
 * `as` then `objdump -d` on an assembled file), in order from address 0.
 */
static const struct {
	uint8_t len, bytes[11];
	const char *text;
} objdump_lines[] = {
	{ 7, { 0x62, 0xf3, 0x7d, 0x20, 0x3f, 0x07, 0x00 }, "vpcmpeqb (%rdi),%ymm16,%k0" },
	{ 7, { 0x62, 0xf3, 0x6d, 0x22, 0x3e, 0x0f, 0x04 }, "vpcmpnequb (%rdi),%ymm18,%k1{%k2}" },
	{ 6, { 0x62, 0xa1, 0x65, 0xa1, 0xda, 0xda }, "vpminub %ymm18,%ymm19,%ymm19{%k1}{z}" },
	{ 7, { 0x62, 0xe1, 0xfe, 0x28, 0x6f, 0x56, 0x01 }, "vmovdqu64 0x20(%rsi),%ymm18" },
	{ 6, { 0x62, 0xe1, 0x7f, 0x29, 0x7f, 0x07 }, "vmovdqu8 %ymm16,(%rdi){%k1}" },
	{ 6, { 0x62, 0xb2, 0x46, 0x21, 0x26, 0xc7 }, "vptestnmb %ymm23,%ymm23,%k0{%k1}" },
	{ 6, { 0x62, 0xe2, 0x7d, 0x48, 0x7a, 0xc6 }, "vpbroadcastb %esi,%zmm16" },
	{ 6, { 0x62, 0xf1, 0x75, 0x58, 0xfe, 0x10 }, "vpaddd (%rax){1to16},%zmm1,%zmm2" },
	{ 6, { 0x62, 0xf1, 0x6c, 0x18, 0x58, 0xd9 }, "vaddps {rn-sae},%zmm1,%zmm2,%zmm3" },
	{ 5, { 0xc4, 0xe1, 0xf9, 0x98, 0xc8 }, "kortestd %k0,%k1" },
	{ 8, { 0x62, 0xf1, 0x75, 0x40, 0x74, 0x4c, 0x47, 0xff },
	  "vpcmpeqb -0x40(%rdi,%rax,2),%zmm17,%k1" },
	{ 4, { 0x48, 0x83, 0xef, 0x80 }, "sub $0xffffffffffffff80,%rdi" },
	{ 4, { 0x0f, 0xb6, 0x0c, 0x06 }, "movzbl (%rsi,%rax,1),%ecx" },
	{ 10, { 0xf7, 0x05, 0x10, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00 },
	  "testl $0x1,0x10(%rip)" },
	{ 2, { 0xd1, 0xe8 }, "shr %eax" },
	{ 2, { 0xf3, 0xaa }, "rep stos %al,%es:(%rdi)" },
	{ 11, { 0x66, 0x66, 0x2e, 0x0f, 0x1f, 0x84, 0x00, 0x00, 0x00, 0x00, 0x00 },
	  "data16 cs nopw 0x0(%rax,%rax,1)" },
	{ 2, { 0x66, 0x90 }, "xchg %ax,%ax" },
	{ 2, { 0x77, 0x0e }, "ja 79" },
};

static void test_objdump_text(void)
{
	uint8_t bytes[256];
	size_t size = 0, nl = sizeof(objdump_lines) / sizeof(objdump_lines[0]);
	struct xpp_code c = { .bytes = bytes, .vaddr = 0, .machine = EM_X86_64, .is64 = true };
	struct xb_error err = { 0 };
	struct xpp_raw_insn *r;
	uint64_t addr = 0;
	uint32_t n;

	for (size_t i = 0; i < nl; i++) {
		memcpy(bytes + size, objdump_lines[i].bytes, objdump_lines[i].len);
		size += objdump_lines[i].len;
	}
	c.size = size;
	REQUIRE(xpp_disasm(&c, &r, &n, &err) == 0);
	REQUIRE(n == nl); /* no "(bad)" that would lose the instruction boundaries */
	for (uint32_t i = 0; i < n; i++) {
		char text[256];

		snprintf(text, sizeof(text), "%s%s%s", r[i].mnemonic, r[i].operands[0] ? " " : "",
			 r[i].operands);
		CHECK_EQ_U64(r[i].addr, addr);
		CHECK_STR(text, objdump_lines[i].text);
		addr += objdump_lines[i].len;
	}
	CHECK(r[13].has_mem_ref);
	CHECK_EQ_U64(r[13].mem_ref, 0x68); /* objdump's "# 0x68" */
	CHECK_EQ_U64(r[nl - 1].kind, XPP_INSN_JUMP);
	CHECK(r[nl - 1].has_target);
	CHECK_EQ_U64(r[nl - 1].target, 0x79);
	free(r);
}
#endif

#if HAVE_CAPSTONE || HAVE_ZYDIS
static void test_decode_x86_64(void)
{
	struct xpp_code c = { .bytes = (uint8_t *)code_bytes, .size = sizeof(code_bytes),
			      .vaddr = 0x1000, .machine = EM_X86_64, .is64 = true };
	struct xb_error err = { 0 };
	struct xpp_raw_insn *r;
	uint32_t n;

	REQUIRE(xpp_disasm(&c, &r, &n, &err) == 0);
	REQUIRE(n == 7);
	CHECK_EQ_U64(r[0].addr, 0x1000);
	CHECK_EQ_U64(r[0].size, 1);
	CHECK(strncmp(r[0].mnemonic, "push", 4) == 0);
	CHECK_STR(r[0].operands, "%rbp");
	CHECK_STR(r[1].operands, "%rsp,%rbp"); /* objdump's commas, no spaces */
	CHECK(r[2].has_mem_ref);
	CHECK_EQ_U64(r[2].mem_ref, 0x101b);
	CHECK_EQ_U64(r[3].kind, XPP_INSN_JUMP);
	CHECK(r[3].has_target);
	CHECK_EQ_U64(r[3].target, 0x1001);
	CHECK_EQ_U64(r[4].kind, XPP_INSN_CALL);
	CHECK_EQ_U64(r[4].target, 0x1020);
	CHECK_STR(r[5].mnemonic, "(bad)");
	CHECK_EQ_U64(r[5].size, 1);
	CHECK_EQ_U64(r[6].addr, 0x1013);
	CHECK_EQ_U64(r[6].kind, XPP_INSN_RET);
	free(r);
}

static void test_unknown_machine(void)
{
	struct xpp_code c = { .bytes = (uint8_t *)code_bytes, .size = sizeof(code_bytes),
			      .machine = EM_SPARCV9, .is64 = true };
	struct xb_error err = { 0 };
	struct xpp_raw_insn *r;
	uint32_t n;

	CHECK(xpp_disasm(&c, &r, &n, &err) == -EOPNOTSUPP);
	CHECK(err.msg[0] != '\0');
}

#else
static void test_without_capstone(void)
{
	struct xpp_code c = { .bytes = (uint8_t *)code_bytes, .size = sizeof(code_bytes),
			      .machine = EM_X86_64, .is64 = true };
	struct xb_error err = { 0 };
	struct xpp_raw_insn *r;
	uint32_t n;

	CHECK(!xpp_annotate_supported());
	CHECK(xpp_disasm(&c, &r, &n, &err) == -EOPNOTSUPP);
	CHECK(strstr(err.msg, "not supported in this build") != NULL);
}
#endif

/* A file's segments: text at offset 0x1000 loaded at 0x401000, data moved by a page. */
static void test_address_spaces(void)
{
	struct xpp_code c = {
		.load_vaddr = { 0x400000, 0x401000, 0x403e10 },
		.load_off = { 0, 0x1000, 0x2e10 },
		.load_size = { 0x1000, 0x1000, 0x200 },
		.nr_loads = 3,
	};

	CHECK_EQ_U64(xpp_code_to_vaddr(&c, 0x1189), 0x401189);
	CHECK_EQ_U64(xpp_code_to_sym(&c, 0x401189), 0x1189);
	CHECK_EQ_U64(xpp_code_to_vaddr(&c, 0x2e20), 0x403e20);
	CHECK_EQ_U64(xpp_code_to_sym(&c, 0x403e20), 0x2e20);
	/* outside every segment (the kernel's space): unchanged */
	CHECK_EQ_U64(xpp_code_to_sym(&c, 0xffffffff81000000ULL), 0xffffffff81000000ULL);
}

/*
 * Kernel code comes from /proc/kcore, an ELF core file whose PT_LOAD segments map kernel
 * addresses to file offsets: a small fake one, two segments, the code in the second.
 */
static void test_kcore(void)
{
	char path[] = "/tmp/xperf-kcore.XXXXXX";
	int fd = mkstemp(path);
	struct {
		Elf64_Ehdr eh;
		Elf64_Phdr ph[2];
		uint8_t pad[0x100 - sizeof(Elf64_Ehdr) - 2 * sizeof(Elf64_Phdr)];
		uint8_t text[sizeof(code_bytes)];
	} f = { 0 };
	struct xpp_dso d = { .long_name = (char *)"[kernel.kallsyms]",
			     .short_name = "[kernel.kallsyms]", .kind = XPP_DSO_KERNEL };
	struct xb_error err = { 0 };
	struct xpp_code c;

	REQUIRE(fd >= 0);
	memcpy(f.eh.e_ident, ELFMAG, SELFMAG);
	f.eh.e_ident[EI_CLASS] = ELFCLASS64;
	f.eh.e_type = ET_CORE;
	f.eh.e_machine = EM_X86_64;
	f.eh.e_phoff = sizeof(Elf64_Ehdr);
	f.eh.e_phentsize = sizeof(Elf64_Phdr);
	f.eh.e_phnum = 2;
	f.ph[0] = (Elf64_Phdr){ .p_type = PT_NOTE, .p_offset = 0, .p_filesz = 16 };
	f.ph[1] = (Elf64_Phdr){ .p_type = PT_LOAD, .p_offset = 0x100,
				.p_vaddr = 0xffffffff81000000ULL, .p_filesz = sizeof(code_bytes),
				.p_memsz = sizeof(code_bytes) };
	memcpy(f.text, code_bytes, sizeof(code_bytes));
	REQUIRE(write(fd, &f, sizeof(f)) == (ssize_t)sizeof(f));
	close(fd);

	/* a symbol past the segment's end is cut to it */
	CHECK(xpp_code_load(&c, &d, NULL, 0xffffffff81000004ULL, 0xffffffff81001000ULL, path,
			    &err) == 0);
	CHECK_EQ_U64(c.vaddr, 0xffffffff81000004ULL);
	CHECK_EQ_U64(c.size, sizeof(code_bytes) - 4);
	CHECK(c.bytes && !memcmp(c.bytes, code_bytes + 4, sizeof(code_bytes) - 4));
	CHECK_EQ_U64(c.machine, EM_X86_64);
	xpp_code_free(&c);

	/* an address no segment holds, and no kcore at all: errors that say so */
	CHECK(xpp_code_load(&c, &d, NULL, 0xffffffff82000000ULL, 0xffffffff82000010ULL, path, &err) ==
	      -ENOENT);
	CHECK(strstr(err.msg, "not available") != NULL);
	unlink(path);
	CHECK(xpp_code_load(&c, &d, NULL, 0xffffffff81000000ULL, 0xffffffff81000010ULL, path, &err) ==
	      -ENOENT);
	CHECK(strstr(err.msg, "the kernel's code is not available") != NULL);
}

int main(void)
{
#if HAVE_ZYDIS
	RUN(test_objdump_text);
#else
	SKIP(test_objdump_text, "built without Zydis: capstone 4 does not decode AVX-512");
#endif
#if HAVE_CAPSTONE || HAVE_ZYDIS
	RUN(test_decode_x86_64);
	RUN(test_unknown_machine);
#else
	SKIP(test_decode_x86_64, "built without a disassembler");
	RUN(test_without_capstone);
#endif
	RUN(test_address_spaces);
	RUN(test_kcore);
	UNIT_MAIN_END();
}
