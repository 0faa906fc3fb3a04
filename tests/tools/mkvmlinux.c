/* mkvmlinux: a kernel ELF image whose .symtab holds the text symbols of a kallsyms file. */
#include <elf.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/*
 * Usage: mkvmlinux KALLSYMS BUILD_ID_HEX OUT
 *
 * No vmlinux with symbols is on a test machine, yet perf's and xperf's --vmlinux must be
 * compared on real kernel samples. This writes the smallest image perf takes for one: an
 * x86-64 ET_EXEC with a .text section (no bytes: SHT_NOBITS) from the first to past the
 * last text symbol of KALLSYMS (types t, T, w, W, the kernel's own: no [module]), a symbol
 * (STT_FUNC, sized up to the next one) for each in .symtab, and a GNU build-id note of
 * BUILD_ID_HEX ("" none) in .note.gnu.build-id. The symbols sit at the addresses KALLSYMS
 * gives (the running kernel's, relocated): _text among them, perf's reference symbol, so
 * perf relocates nothing. Prints "symbols N".
 */

struct ksym {
	uint64_t addr;
	char *name;
};

static int by_addr(const void *a, const void *b)
{
	const struct ksym *x = a, *y = b;

	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

static void die(const char *what)
{
	fprintf(stderr, "mkvmlinux: %s: %s\n", what, strerror(errno));
	exit(1);
}

/* append n bytes to a growing buffer */
static void put(char **buf, size_t *len, size_t *cap, const void *p, size_t n)
{
	if (*len + n > *cap) {
		*cap = (*len + n) * 2 + 4096;
		*buf = realloc(*buf, *cap);
		if (!*buf)
			die("realloc");
	}
	memcpy(*buf + *len, p, n);
	*len += n;
}

int main(int argc, char **argv)
{
	struct ksym *syms = NULL;
	size_t nr = 0, cap = 0;
	char line[4096], *strtab = NULL, *symtab = NULL;
	size_t strlen_ = 0, strcap = 0, symlen = 0, symcap = 0;
	uint8_t note[16 + 64];
	size_t notelen = 0, idlen;
	FILE *in, *out;

	if (argc != 4) {
		fprintf(stderr, "usage: mkvmlinux KALLSYMS BUILD_ID_HEX OUT\n");
		return 2;
	}
	in = fopen(argv[1], "r");
	if (!in)
		die(argv[1]);
	while (fgets(line, sizeof(line), in)) {
		char type, name[1024], rest[1024] = "";
		uint64_t addr;

		if (sscanf(line, "%" SCNx64 " %c %1023s %1023s", &addr, &type, name, rest) < 3)
			continue;
		if (rest[0] || !addr || !strchr("tTwW", type))
			continue;
		if (nr == cap) {
			cap = cap ? 2 * cap : 4096;
			syms = realloc(syms, cap * sizeof(*syms));
			if (!syms)
				die("realloc");
		}
		syms[nr].addr = addr;
		syms[nr].name = strdup(name);
		if (!syms[nr++].name)
			die("strdup");
	}
	fclose(in);
	if (!nr) {
		fprintf(stderr, "mkvmlinux: no text symbols with addresses in %s\n", argv[1]);
		return 1;
	}
	qsort(syms, nr, sizeof(*syms), by_addr);

	/* the build-id note: namesz 4, descsz, NT_GNU_BUILD_ID, "GNU\0", the id */
	idlen = strlen(argv[2]) / 2;
	if (idlen > 64)
		idlen = 64;
	if (idlen) {
		uint32_t h[3] = { 4, (uint32_t)idlen, NT_GNU_BUILD_ID };

		memcpy(note, h, 12);
		memcpy(note + 12, "GNU", 4);
		for (size_t i = 0; i < idlen; i++) {
			unsigned int b;

			if (sscanf(argv[2] + 2 * i, "%2x", &b) != 1) {
				fprintf(stderr, "mkvmlinux: bad build id '%s'\n", argv[2]);
				return 1;
			}
			note[16 + i] = (uint8_t)b;
		}
		notelen = 16 + ((idlen + 3) & ~(size_t)3);
		memset(note + 16 + idlen, 0, notelen - 16 - idlen);
	}

	/* .strtab and .symtab: the null symbol, then each text symbol */
	put(&strtab, &strlen_, &strcap, "", 1);
	{
		Elf64_Sym s = { 0 };

		put(&symtab, &symlen, &symcap, &s, sizeof(s));
	}
	uint64_t start = syms[0].addr, end = syms[nr - 1].addr + 16;

	for (size_t i = 0; i < nr; i++) {
		Elf64_Sym s = { 0 };

		s.st_name = (uint32_t)strlen_;
		s.st_info = ELF64_ST_INFO(STB_GLOBAL, STT_FUNC);
		s.st_shndx = 1;
		s.st_value = syms[i].addr;
		s.st_size = i + 1 < nr ? syms[i + 1].addr - syms[i].addr : 16;
		put(&strtab, &strlen_, &strcap, syms[i].name, strlen(syms[i].name) + 1);
		put(&symtab, &symlen, &symcap, &s, sizeof(s));
	}

	static const char shstr[] = "\0.text\0.symtab\0.strtab\0.shstrtab\0.note.gnu.build-id";
	Elf64_Ehdr eh = { 0 };
	Elf64_Shdr sh[6];
	size_t off = sizeof(eh);
	uint64_t at_note, at_str, at_sym, at_shstr, at_sh;

	at_note = off;
	off += notelen;
	at_str = off;
	off += strlen_;
	off = (off + 7) & ~(size_t)7;
	at_sym = off;
	off += symlen;
	at_shstr = off;
	off += sizeof(shstr);
	off = (off + 7) & ~(size_t)7;
	at_sh = off;

	memcpy(eh.e_ident, ELFMAG, SELFMAG);
	eh.e_ident[EI_CLASS] = ELFCLASS64;
	eh.e_ident[EI_DATA] = ELFDATA2LSB;
	eh.e_ident[EI_VERSION] = EV_CURRENT;
	eh.e_type = ET_EXEC;
	eh.e_machine = EM_X86_64;
	eh.e_version = EV_CURRENT;
	eh.e_entry = start;
	eh.e_ehsize = sizeof(eh);
	eh.e_shoff = at_sh;
	eh.e_shentsize = sizeof(Elf64_Shdr);
	eh.e_shnum = 6;
	eh.e_shstrndx = 4;

	memset(sh, 0, sizeof(sh));
	sh[1] = (Elf64_Shdr){ .sh_name = 1, .sh_type = SHT_NOBITS,
			      .sh_flags = SHF_ALLOC | SHF_EXECINSTR, .sh_addr = start,
			      .sh_offset = at_note, .sh_size = end - start, .sh_addralign = 16 };
	sh[2] = (Elf64_Shdr){ .sh_name = 7, .sh_type = SHT_SYMTAB, .sh_offset = at_sym,
			      .sh_size = symlen, .sh_link = 3, .sh_info = 1, .sh_addralign = 8,
			      .sh_entsize = sizeof(Elf64_Sym) };
	sh[3] = (Elf64_Shdr){ .sh_name = 15, .sh_type = SHT_STRTAB, .sh_offset = at_str,
			      .sh_size = strlen_, .sh_addralign = 1 };
	sh[4] = (Elf64_Shdr){ .sh_name = 23, .sh_type = SHT_STRTAB, .sh_offset = at_shstr,
			      .sh_size = sizeof(shstr), .sh_addralign = 1 };
	sh[5] = (Elf64_Shdr){ .sh_name = 33, .sh_type = SHT_NOTE, .sh_flags = SHF_ALLOC,
			      .sh_offset = at_note, .sh_size = notelen, .sh_addralign = 4 };
	if (!notelen)
		eh.e_shnum = 5;

	out = fopen(argv[3], "wb");
	if (!out)
		die(argv[3]);
	static const char zeros[8];

	if (fwrite(&eh, sizeof(eh), 1, out) != 1 ||
	    (notelen && fwrite(note, notelen, 1, out) != 1) ||
	    fwrite(strtab, strlen_, 1, out) != 1 ||
	    fwrite(zeros, at_sym - at_str - strlen_, 1, out) > 1 ||
	    fwrite(symtab, symlen, 1, out) != 1 ||
	    fwrite(shstr, sizeof(shstr), 1, out) != 1 ||
	    fwrite(zeros, at_sh - at_shstr - sizeof(shstr), 1, out) > 1 ||
	    fwrite(sh, sizeof(Elf64_Shdr), eh.e_shnum, out) != eh.e_shnum || fclose(out))
		die(argv[3]);
	printf("symbols %zu\n", nr);
	for (size_t i = 0; i < nr; i++)
		free(syms[i].name);
	free(syms);
	free(strtab);
	free(symtab);
	return 0;
}
