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

#if HAVE_CAPSTONE
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
#if HAVE_CAPSTONE
	RUN(test_decode_x86_64);
	RUN(test_unknown_machine);
#else
	SKIP(test_decode_x86_64, "built without capstone");
	RUN(test_without_capstone);
#endif
	RUN(test_address_spaces);
	RUN(test_kcore);
	UNIT_MAIN_END();
}
