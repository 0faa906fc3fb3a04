/* Unit tests of xperf-report's symbol tables: alias choice, end fix-ups, ELF files against nm. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <fcntl.h>
#include <unistd.h>
#include <sys/stat.h>

#include "unit.h"
#include "elf/build_id.h"
#include "profile/symbols/symtab.h"
#include "profile/symbols/load.h"

static void add(struct xpp_symtab *t, uint64_t start, uint64_t size, enum xpp_sym_binding b,
		const char *name)
{
	CHECK(xpp_symtab_add(t, start, size, b, name, strlen(name)) == 0);
}

static const char *at(const struct xpp_symtab *t, uint64_t addr)
{
	int64_t i = xpp_symtab_find(t, addr);

	return i < 0 ? NULL : xpp_symtab_name(t, (uint32_t)i);
}

static void test_lookup_and_ends(void)
{
	struct xpp_symtab t = { 0 };

	add(&t, 0x3000, 0, XPP_SYM_GLOBAL, "last");      /* unsized, last: to the next page + 1 */
	add(&t, 0x1000, 0x10, XPP_SYM_GLOBAL, "sized");  /* a gap after it */
	add(&t, 0x2000, 0, XPP_SYM_LOCAL, "unsized");    /* extends to the next symbol */
	xpp_symtab_finish(&t);
	CHECK_EQ_U64(t.nr, 3);
	CHECK(at(&t, 0xfff) == NULL);
	CHECK_STR(at(&t, 0x1000), "sized");
	CHECK_STR(at(&t, 0x100f), "sized");
	CHECK(at(&t, 0x1010) == NULL);
	CHECK_STR(at(&t, 0x2fff), "unsized");
	CHECK_STR(at(&t, 0x3000), "last");
	CHECK_STR(at(&t, 0x3fff), "last"); /* roundup(0x3000) + 4096 */
	CHECK(at(&t, 0x4000) == NULL);
	xpp_symtab_free(&t);
}

/*
 * A 0-size label inside a sized function (V8's builtins in node): past the label, inside the
 * function, the function is named, as perf names it; past the function's end the extended
 * label holds what is left up to the next symbol.
 */
static void test_label_inside_function(void)
{
	struct xpp_symtab t = { 0 };

	add(&t, 0x1000, 0x100, XPP_SYM_LOCAL, "func");
	add(&t, 0x103b, 0, XPP_SYM_LOCAL, "label");
	add(&t, 0x1040, 0, XPP_SYM_LOCAL, "label2");
	add(&t, 0x1200, 0x10, XPP_SYM_GLOBAL, "next");
	add(&t, 0x1300, 0x10, XPP_SYM_GLOBAL, "outer");
	add(&t, 0x1304, 0x4, XPP_SYM_LOCAL, "inner");
	xpp_symtab_finish(&t);
	CHECK_STR(at(&t, 0x1000), "func");
	CHECK_STR(at(&t, 0x103b), "func");
	CHECK_STR(at(&t, 0x1045), "func");
	CHECK_STR(at(&t, 0x10ff), "func");
	CHECK_STR(at(&t, 0x1100), "label2");
	CHECK_STR(at(&t, 0x11ff), "label2");
	CHECK_STR(at(&t, 0x1200), "next");
	/* sized inside sized: the inner one, as before */
	CHECK_STR(at(&t, 0x1305), "inner");
	CHECK_STR(at(&t, 0x130c), "outer");
	/* what addr2line names where no symbol holds the address: the one before, any size */
	CHECK(xpp_symtab_preceding(&t, 0xfff) == -1);
	CHECK_STR(xpp_symtab_name(&t, (uint32_t)xpp_symtab_preceding(&t, 0x1210)), "next");
	CHECK_STR(xpp_symtab_name(&t, (uint32_t)xpp_symtab_preceding(&t, 0x1000)), "func");
	xpp_symtab_free(&t);

	/* unsized symbols only (kallsyms): each holds up to the next */
	add(&t, 0x1000, 0, XPP_SYM_GLOBAL, "a");
	add(&t, 0x1010, 0, XPP_SYM_GLOBAL, "b");
	xpp_symtab_finish(&t);
	CHECK_STR(at(&t, 0x100f), "a");
	CHECK_STR(at(&t, 0x1010), "b");
	xpp_symtab_free(&t);
}

/* The workload 'label': its assembly function holds a LOCAL NOTYPE label of size 0. */
static void test_elf_label(void)
{
	struct xpp_symtab t = { 0 };
	struct xb_error err = { 0 };
	int64_t f = -1, l = -1;

	CHECK(xpp_elf_syms_load(&t, unit_build_path("workloads/label"), "/nonexistent", NULL, &err) == 0);
	for (uint32_t i = 0; i < t.nr; i++) {
		if (!strcmp(xpp_symtab_name(&t, i), "label_work"))
			f = i;
		if (!strcmp(xpp_symtab_name(&t, i), "label_inside"))
			l = i;
	}
	REQUIRE(f >= 0 && l >= 0);
	CHECK(t.syms[l].start > t.syms[f].start && t.syms[l].start < t.syms[f].end);
	CHECK_STR(at(&t, t.syms[l].start + 1), "label_work");
	CHECK_STR(at(&t, t.syms[f].end - 1), "label_work");
	xpp_symtab_free(&t);
}

/* perf's choose_best_symbol, checked on the aliases glibc really has */
static void test_alias_choice(void)
{
	struct xpp_symtab t = { 0 };

	/* read: two locals, two globals -> the global with fewer leading underscores */
	add(&t, 0x100, 0x20, XPP_SYM_LOCAL, "__GI___libc_read");
	add(&t, 0x100, 0x20, XPP_SYM_LOCAL, "__libc_read");
	add(&t, 0x100, 0x20, XPP_SYM_GLOBAL, "__read");
	add(&t, 0x100, 0x20, XPP_SYM_GLOBAL, "read");
	/* write: weak globals lose to locals; then the longer name wins */
	add(&t, 0x200, 0x20, XPP_SYM_LOCAL, "__GI___libc_write");
	add(&t, 0x200, 0x20, XPP_SYM_LOCAL, "__libc_write");
	add(&t, 0x200, 0x20, XPP_SYM_WEAK, "__write");
	add(&t, 0x200, 0x20, XPP_SYM_WEAK, "write");
	/* a sized symbol beats an unsized label */
	add(&t, 0x300, 0, XPP_SYM_GLOBAL, "label");
	add(&t, 0x300, 8, XPP_SYM_LOCAL, "_sized_local");
	/* a full tie keeps the first */
	add(&t, 0x400, 8, XPP_SYM_GLOBAL, "first");
	add(&t, 0x400, 8, XPP_SYM_GLOBAL, "other");
	xpp_symtab_finish(&t);
	CHECK_EQ_U64(t.nr, 4);
	CHECK_STR(at(&t, 0x110), "read");
	CHECK_STR(at(&t, 0x210), "__GI___libc_write");
	CHECK_STR(at(&t, 0x304), "_sized_local");
	CHECK_STR(at(&t, 0x404), "first");
	xpp_symtab_free(&t);
}

static void test_kallsyms(void)
{
	char path[] = "/tmp/xperf-kallsyms.XXXXXX";
	int fd = mkstemp(path);
	struct xpp_symtab t = { 0 };
	struct xb_error err = { 0 };
	const char *text =
		"ffffffff81000000 T _text\n"
		"ffffffff81000100 T __pi_thunk\n"
		"ffffffff81000100 T thunk\n"            /* the last alias wins, as in perf */
		"ffffffff81000200 t local_fn\n"
		"ffffffff81000300 D some_data\n"        /* not text: skipped */
		"ffffffff81000400 W weak_fn\n"
		"ffffffffc0000000 t mod_fn\t[some_mod]\n"; /* module symbols are skipped */

	REQUIRE(fd >= 0);
	REQUIRE(write(fd, text, strlen(text)) == (ssize_t)strlen(text));
	close(fd);
	CHECK(xpp_kallsyms_load(&t, path, &err) == 0);
	unlink(path);
	CHECK_EQ_U64(t.nr, 4);
	CHECK_STR(at(&t, 0xffffffff81000000), "_text");
	CHECK_STR(at(&t, 0xffffffff81000180), "thunk");
	CHECK_STR(at(&t, 0xffffffff81000350), "local_fn"); /* up to the next text symbol */
	CHECK_STR(at(&t, 0xffffffff81000400), "weak_fn");
	CHECK(at(&t, 0xffffffffc0000000) == NULL);
	xpp_symtab_free(&t);

	/* kptr_restrict: every address 0 */
	fd = open(path, O_CREAT | O_WRONLY | O_TRUNC, 0600);
	REQUIRE(fd >= 0);
	REQUIRE(write(fd, "0000000000000000 T a\n0000000000000000 T b\n", 42) == 42);
	close(fd);
	CHECK(xpp_kallsyms_load(&t, path, &err) == -EPERM);
	unlink(path);
	xpp_symtab_free(&t);

	/*
	 * The file is parsed as it is read, a chunk at a time: lines across the chunks'
	 * edges, a line longer than a chunk (a 400 KB name) and a last line without its
	 * newline are each one symbol, as when the file was read whole.
	 */
	FILE *f = fopen(path, "w");
	size_t longlen = 400 << 10;
	char *longname = malloc(longlen + 1);

	REQUIRE(f && longname);
	memset(longname, 'x', longlen);
	longname[longlen] = '\0';
	for (unsigned int i = 0; i < 40000; i++)
		fprintf(f, "%016llx %c fn_%u\n", 0xffffffff81000000ull + 16ull * i, i & 1 ? 't' : 'T',
			i);
	fprintf(f, "ffffffff82000000 T %s\nffffffff82001000 T last_no_newline", longname);
	REQUIRE(fclose(f) == 0);
	CHECK(xpp_kallsyms_load(&t, path, &err) == 0);
	unlink(path);
	CHECK_EQ_U64(t.nr, 40002);
	CHECK_STR(at(&t, 0xffffffff81000000), "fn_0");
	CHECK_STR(at(&t, 0xffffffff81000000ull + 16ull * 12345 + 3), "fn_12345");
	CHECK_STR(at(&t, 0xffffffff81000000ull + 16ull * 39999), "fn_39999");
	CHECK_STR(at(&t, 0xffffffff82000010), longname);
	CHECK_STR(at(&t, 0xffffffff82001000), "last_no_newline");
	free(longname);
	xpp_symtab_free(&t);
}

static void write_file(const char *path, const char *text)
{
	int fd = open(path, O_CREAT | O_WRONLY | O_TRUNC, 0600);

	REQUIRE(fd >= 0);
	REQUIRE(write(fd, text, strlen(text)) == (ssize_t)strlen(text));
	close(fd);
}

/*
 * A kallsyms of 302 code symbols moved by shift: "_stext", fillers past the head's first
 * page (4 KB), then `tail`, which only a read of the whole file sees.
 */
static void write_ksyms(const char *path, uint64_t shift, const char *tail)
{
	FILE *f = fopen(path, "w");

	REQUIRE(f);
	fprintf(f, "%016llx T _stext\n", (unsigned long long)(0xffffffff81000000ull + shift));
	for (unsigned int i = 1; i <= 300; i++)
		fprintf(f, "%016llx t filler_%03u\n",
			(unsigned long long)(0xffffffff81000000ull + shift + 16 * i), i);
	fprintf(f, "%016llx T %s\n", (unsigned long long)(0xffffffff81100000ull + shift), tail);
	REQUIRE(fclose(f) == 0);
}

/* The tail symbol's name (write_ksyms()) after loading kallsyms file src, whose symbols are
   moved by shift, through the cache in dir. */
static const char *through_cache(struct xpp_symtab *t, const char *src, const char *dir,
				 uint64_t shift)
{
	static struct xpp_kallsyms_store store;
	struct xb_error err = { 0 };

	xpp_symtab_free(t);
	if (xpp_kallsyms_load_running(t, src, dir, &store, &err))
		return NULL;
	xpp_kallsyms_store_write(t, &store);
	return at(t, 0xffffffff81100010ull + shift);
}

static void test_kallsyms_cache(void)
{
	char dir[] = "/tmp/xperf-kcache.XXXXXX", a[600], b[600], z[600], m[600], cache[600],
		cmd[700];
	static struct xpp_kallsyms_head head;
	struct xpp_kallsyms_key key, stale;
	struct xpp_symtab t = { 0 };
	const uint64_t moved = 0x2600000; /* another boot's KASLR offset */
	struct stat st;
	int fd;

	if (xpp_kallsyms_key_running(&key))
		UNIT_SKIP("this kernel has neither a build-id nor a boot id: no cache");
	REQUIRE(mkdtemp(dir));
	snprintf(a, sizeof(a), "%s/a", dir);
	snprintf(b, sizeof(b), "%s/b", dir);
	snprintf(m, sizeof(m), "%s/m", dir);
	snprintf(cache, sizeof(cache), "%s/sub/kallsyms", dir);
	write_ksyms(a, 0, "from_a");
	write_ksyms(b, 0, "from_b");
	snprintf(z, sizeof(z), "%s/z", dir);
	write_file(z, "0000000000000000 T from_z\n0000000000000000 t z_two\n");
	snprintf(cmd, sizeof(cmd), "%s/sub", dir);
	REQUIRE(xpp_kallsyms_head_read(&head, a) == 0);
	CHECK(head.shown);
	CHECK_STR(head.anchor, "_stext");
	CHECK(head.len <= 4096 && head.len >= 4096 - 64);

	/* the first read writes the cache, private to the user */
	CHECK_STR(through_cache(&t, a, cmd, 0), "from_a");
	REQUIRE(stat(cache, &st) == 0);
	CHECK_EQ_U64(st.st_mode & 0777, 0600);
	/* the next read takes it from the cache, not from the (other) file */
	CHECK_STR(through_cache(&t, b, cmd, 0), "from_a");
	CHECK_STR(at(&t, 0xffffffff81000018), "filler_001");
	CHECK_EQ_U64(t.nr, 302);
	/* a kallsyms that hides its addresses from us (kptr_restrict, perf_event_paranoid):
	 * the cache does not show them either */
	CHECK(through_cache(&t, z, cmd, 0) == NULL);
	CHECK_STR(through_cache(&t, b, cmd, 0), "from_a");

	/* another key (written by an xperf of another parser): read anew and rewritten */
	stale = key;
	stale.parser ^= 1;
	REQUIRE(xpp_kallsyms_cache_write(&t, cache, &stale, &head) == 0);
	CHECK_STR(through_cache(&t, b, cmd, 0), "from_b");
	CHECK_STR(through_cache(&t, a, cmd, 0), "from_b");
	/* kptr_restrict raised since: the addresses are not shown from the cache either */
	stale = key;
	stale.kptr_restrict = key.kptr_restrict + 1;
	REQUIRE(xpp_kallsyms_cache_write(&t, cache, &stale, &head) == 0);
	CHECK_STR(through_cache(&t, a, cmd, 0), "from_a");
	CHECK_STR(through_cache(&t, b, cmd, 0), "from_a");

	/* another boot of the kernel: every symbol moved by one offset, the cache's too */
	write_ksyms(m, moved, "from_m");
	CHECK_STR(through_cache(&t, m, cmd, moved), "from_a");
	CHECK_EQ_U64(t.nr, 302);
	CHECK_EQ_U64(t.syms[0].start, 0xffffffff81000000ull + moved);
	CHECK_STR(at(&t, 0xffffffff81000018ull + moved), "filler_001");
	CHECK(at(&t, 0xffffffff81000018ull) == NULL);
	/* ... and written again at its addresses: used where it is mapped, and moved back */
	CHECK_STR(through_cache(&t, m, cmd, moved), "from_a");
	CHECK(t.map && (char *)t.syms > (char *)t.map);
	CHECK_STR(through_cache(&t, b, cmd, 0), "from_a");
	/* moved by less than a page: not a KASLR offset, the file is read whole */
	write_ksyms(m, moved + 0x10, "from_m");
	CHECK_STR(through_cache(&t, m, cmd, moved + 0x10), "from_m");
	CHECK_STR(through_cache(&t, b, cmd, 0), "from_b");
	/* a head the moved cache does not hold (a symbol of its own): not this kernel */
	write_file(m, "ffffffff83600000 T _stext\nffffffff83600008 t not_cached\n"
		      "ffffffff83600010 t filler_001\n");
	CHECK(through_cache(&t, m, cmd, moved) == NULL); /* no tail: read whole */
	CHECK_STR(at(&t, 0xffffffff83600008), "not_cached");
	CHECK_STR(through_cache(&t, b, cmd, 0), "from_b");
	/* another anchor (the first code symbol): read anew */
	write_ksyms(a, 0, "from_a");
	write_file(m, "ffffffff81000000 T startup_64\nffffffff81000010 t filler_001\n");
	CHECK(through_cache(&t, m, cmd, 0) == NULL);
	CHECK_STR(at(&t, 0xffffffff81000000), "startup_64");
	CHECK_STR(through_cache(&t, a, cmd, 0), "from_a");
	/* the same addresses, another alias winning at one of them: read anew */
	write_file(m, "ffffffff81000000 T _stext\nffffffff81000010 t filler_001\n"
		      "ffffffff81000010 t alias_wins\nffffffff81000020 t filler_002\n");
	CHECK(through_cache(&t, m, cmd, 0) == NULL);
	CHECK_STR(at(&t, 0xffffffff81000010), "alias_wins");
	CHECK_STR(through_cache(&t, a, cmd, 0), "from_a");

	/* a damaged byte in a name: ignored and rewritten */
	REQUIRE(stat(cache, &st) == 0);
	fd = open(cache, O_WRONLY);
	REQUIRE(fd >= 0);
	REQUIRE(pwrite(fd, "X", 1, st.st_size - 3) == 1);
	close(fd);
	CHECK_STR(through_cache(&t, b, cmd, 0), "from_b");
	CHECK_STR(through_cache(&t, a, cmd, 0), "from_b");

	/* a short file */
	REQUIRE(truncate(cache, 50) == 0);
	CHECK_STR(through_cache(&t, a, cmd, 0), "from_a");
	CHECK_STR(through_cache(&t, b, cmd, 0), "from_a");

	/* a file others may write is not trusted */
	REQUIRE(chmod(cache, 0666) == 0);
	CHECK_STR(through_cache(&t, b, cmd, 0), "from_b");
	REQUIRE(stat(cache, &st) == 0);
	CHECK_EQ_U64(st.st_mode & 0777, 0600);

	/* no cache directory: the file itself */
	CHECK_STR(through_cache(&t, b, NULL, 0), "from_b");
	xpp_symtab_free(&t);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	CHECK(system(cmd) == 0);
}

/* The workload's own symbols against nm: every sized function resolves to its name (or an
 * alias at the same address) at its start, middle and last byte. */
static void test_elf_against_nm(void)
{
	char bin[512], cmd[1024], line[1024];
	struct xpp_symtab t = { 0 };
	struct xb_error err = { 0 };
	unsigned int checked = 0;
	FILE *p;

	snprintf(bin, sizeof(bin), "%s", unit_build_path("workloads/shares"));
	CHECK(xpp_elf_syms_load(&t, bin, "/nonexistent", NULL, &err) == 0);
	REQUIRE(t.nr > 10);
	snprintf(cmd, sizeof(cmd), "nm --defined-only -S '%s' 2>/dev/null", bin);
	p = popen(cmd, "r");
	REQUIRE(p);
	while (fgets(line, sizeof(line), p)) {
		unsigned long long addr, size;
		char type, name[512];
		uint64_t probe[3];

		if (sscanf(line, "%llx %llx %c %511s", &addr, &size, &type, name) != 4 || !size ||
		    (type != 'T' && type != 't'))
			continue;
		probe[0] = addr, probe[1] = addr + size / 2, probe[2] = addr + size - 1;
		for (int i = 0; i < 3; i++) {
			int64_t s = xpp_symtab_find(&t, probe[i]);

			if (s < 0) {
				UNIT_FAIL("%s+%#llx not found", name, (unsigned long long)(probe[i] - addr));
				continue;
			}
			if (strcmp(xpp_symtab_name(&t, (uint32_t)s), name) && t.syms[s].start != addr)
				UNIT_FAIL("%#llx: %s, nm says %s", (unsigned long long)probe[i],
					  xpp_symtab_name(&t, (uint32_t)s), name);
		}
		checked++;
	}
	pclose(p);
	CHECK(checked >= 10);
	/* the functions the report tests rely on */
	int64_t a = -1;

	for (uint32_t i = 0; i < t.nr; i++)
		if (!strcmp(xpp_symtab_name(&t, i), "work_a"))
			a = i;
	CHECK(a >= 0);
	xpp_symtab_free(&t);
}

/* A stripped file falls back to .dynsym and gets perf's name@plt entries. */
static void test_dynsym_and_plt(void)
{
	struct xpp_symtab t = { 0 };
	struct xb_error err = { 0 };
	bool plt = false, dyn = false;

	CHECK(xpp_elf_syms_load(&t, "/bin/ls", "/nonexistent", NULL, &err) == 0);
	for (uint32_t i = 0; i < t.nr; i++) {
		const char *n = xpp_symtab_name(&t, i);
		size_t l = strlen(n);

		if (l > 4 && !strcmp(n + l - 4, "@plt"))
			plt = true;
		else
			dyn = true;
	}
	CHECK(plt);
	(void)dyn;
	xpp_symtab_free(&t);
}

static bool has_symbol(const struct xpp_symtab *t, const char *name)
{
	for (uint32_t i = 0; i < t->nr; i++)
		if (!strcmp(xpp_symtab_name(t, i), name))
			return true;
	return false;
}

/*
 * A stripped file finds its symbols in DEBUG_ROOT/.build-id/xx/rest.debug, named by its
 * build-id (read by libxperf-elf from the file libelf has open).
 */
static void test_build_id_debug_file(void)
{
	char dir[] = "/tmp/xperf-debug-XXXXXX", bin[512], cmd[4096], hex[2 * 64 + 1], dbg[1024];
	struct xpp_symtab t = { 0 };
	struct xb_error err = { 0 };
	uint8_t id[64];
	int n;

	snprintf(bin, sizeof(bin), "%s", unit_build_path("workloads/shares"));
	REQUIRE(mkdtemp(dir));
	n = xelf_build_id_read_file(bin, id, sizeof(id), &err);
	REQUIRE(n > 1);
	xelf_build_id_hex(id, (size_t)n, hex);
	snprintf(dbg, sizeof(dbg), "%s/.build-id/%.2s/%s.debug", dir, hex, hex + 2);
	snprintf(cmd, sizeof(cmd), "mkdir -p '%s/.build-id/%.2s' && cp '%s' '%s' && "
		 "strip --strip-all -o '%s/stripped' '%s'", dir, hex, bin, dbg, dir, bin);
	REQUIRE(system(cmd) == 0);
	snprintf(bin, sizeof(bin), "%s/stripped", dir);
	CHECK(xpp_elf_syms_load(&t, bin, "/nonexistent", NULL, &err) == 0);
	CHECK(!has_symbol(&t, "work_a"));
	xpp_symtab_free(&t);
	memset(&t, 0, sizeof(t));
	CHECK(xpp_elf_syms_load(&t, bin, dir, NULL, &err) == 0);
	CHECK(has_symbol(&t, "work_a"));
	xpp_symtab_free(&t);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	CHECK(system(cmd) == 0);
}

/*
 * xpp_elf_syms_may_have() says yes for every name the load gives (demangled C++ ones and
 * aliases included) and no for a name the load does not give: it stands in for loading.
 */
static void may_have_all(const char *bin, const char *debug_root, bool no_demangle)
{
	struct xpp_symtab t = { .no_demangle = no_demangle };
	struct xb_error err = { 0 };
	uint32_t wrong = 0;

	CHECK(xpp_elf_syms_load(&t, bin, debug_root, NULL, &err) == 0);
	REQUIRE(t.nr > 0);
	/* finish keeps one symbol per address: the names it dropped are in the file too */
	for (uint32_t i = 0; i < t.nr; i++)
		if (xpp_elf_syms_may_have(bin, debug_root, NULL, no_demangle, xpp_symtab_name(&t, i)) != 1)
			wrong++;
	CHECK(wrong == 0);
	CHECK(xpp_elf_syms_may_have(bin, debug_root, NULL, no_demangle, "no_such_function_here") == 0);
	xpp_symtab_free(&t);
}

static void test_may_have(void)
{
	char dir[] = "/tmp/xperf-debug-XXXXXX", bin[512], cmd[4096], hex[2 * 64 + 1];
	struct xb_error err = { 0 };
	uint8_t id[64];
	int n;

	snprintf(bin, sizeof(bin), "%s", unit_build_path("workloads/shares"));
	may_have_all(bin, "/nonexistent", false);
	snprintf(bin, sizeof(bin), "%s", unit_build_path("workloads/cxx_inline"));
	if (access(bin, R_OK) == 0) {
		may_have_all(bin, "/nonexistent", false);
		may_have_all(bin, "/nonexistent", true);
		/* a demangled name is found from its mangled one, and only when demangling */
		CHECK(xpp_elf_syms_may_have(bin, "/nonexistent", NULL, false, "work::do_round") == 1);
		CHECK(xpp_elf_syms_may_have(bin, "/nonexistent", NULL, true, "work::do_round") == 0);
		CHECK(xpp_elf_syms_may_have(bin, "/nonexistent", NULL, true, "_ZN4work8do_roundEv") == 1);
	}
	if (access(unit_build_path("workloads/label"), R_OK) == 0)
		RUN(test_elf_label);
	else
		SKIP(test_elf_label, "the workload 'label' is not built");
	if (access("/bin/ls", R_OK) == 0) {
		may_have_all("/bin/ls", "/nonexistent", false);
		CHECK(xpp_elf_syms_may_have("/bin/ls", "/nonexistent", NULL, false, "nothing@plt") == 1);
	}
	/* the symbols of a stripped file are where the load finds them: its debug file */
	snprintf(bin, sizeof(bin), "%s", unit_build_path("workloads/shares"));
	REQUIRE(mkdtemp(dir));
	n = xelf_build_id_read_file(bin, id, sizeof(id), &err);
	REQUIRE(n > 1);
	xelf_build_id_hex(id, (size_t)n, hex);
	snprintf(cmd, sizeof(cmd), "mkdir -p '%s/.build-id/%.2s' && cp '%s' '%s/.build-id/%.2s/%s.debug' && "
		 "strip --strip-all -o '%s/stripped' '%s'", dir, hex, bin, dir, hex, hex + 2, dir, bin);
	REQUIRE(system(cmd) == 0);
	snprintf(bin, sizeof(bin), "%s/stripped", dir);
	CHECK(xpp_elf_syms_may_have(bin, "/nonexistent", NULL, false, "work_a") == 0);
	CHECK(xpp_elf_syms_may_have(bin, dir, NULL, false, "work_a") == 1);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	CHECK(system(cmd) == 0);
	CHECK(xpp_elf_syms_may_have("/nonexistent/file", NULL, NULL, false, "main") == -ENOENT);
	CHECK(xpp_elf_syms_may_have("/etc/hostname", NULL, NULL, false, "main") == -ENOEXEC);
}

static void test_not_elf(void)
{
	struct xpp_symtab t = { 0 };
	struct xb_error err = { 0 };

	CHECK(xpp_elf_syms_load(&t, "/etc/hostname", NULL, NULL, &err) == -ENOEXEC);
	CHECK(strstr(err.msg, "/etc/hostname") != NULL);
	CHECK(xpp_elf_syms_load(&t, "/nonexistent/file", NULL, NULL, &err) == -ENOENT);
	xpp_symtab_free(&t);
}

/* The recorded file is read only when its build-id is the recorded one (this program's). */
static void test_build_id_find(void)
{
	uint8_t id[XPP_BUILD_ID_MAX];
	char self[4096], out[4096];
	bool mismatch;
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	int size;

	REQUIRE(n > 0);
	self[n] = 0;
	size = xpp_elf_build_id(self, id, sizeof(id));
	REQUIRE(size > 0); /* the toolchain links a build-id note (gcc --build-id) */
	CHECK(xpp_build_id_find(self, id, (size_t)size, NULL, "/nonexistent", out, sizeof(out),
				&mismatch) == 0);
	CHECK(!strcmp(out, self) && !mismatch);
	id[0] ^= 0xff;
	CHECK(xpp_build_id_find(self, id, (size_t)size, NULL, "/nonexistent", out, sizeof(out),
				&mismatch) == -ENOENT);
	CHECK(mismatch);
	/* a file that is not there is missing, not another build */
	CHECK(xpp_build_id_find("/nonexistent/prog", id, (size_t)size, NULL, "/nonexistent", out,
				sizeof(out), &mismatch) == -ENOENT);
	CHECK(!mismatch);
}

/*
 * perf's demangling without parameters (checked against perf 6.1 on the same names: the
 * Rust ones are functions of a C program given these names with asm labels, recorded and
 * reported by perf)
 */
static void test_demangle(void)
{
	static const struct { const char *in, *want; } cases[] = {
		{ "_ZNK2ns1W4spinEi", "ns::W::spin" },
		{ "_ZN6__asan9Allocator8AllocateEmmPN11__sanitizer18BufferedStackTraceENS_9AllocTypeEb",
		  "__asan::Allocator::Allocate" },
		{ "_ZZN6fuzzer6Fuzzer6RunOneEPKhmbPNS_9InputInfoEbPbENK3$_1clEj",
		  "fuzzer::Fuzzer::RunOne(unsigned char const*, unsigned long, bool, "
		  "fuzzer::InputInfo*, bool, bool*)::$_1::operator()" },
		{ "_Z4burnIlET_S0_", "burn<long>" },
		{ "_ZN3FoonwEm", "Foo::operator new" },
		/* Rust legacy: the hash goes */
		{ "_ZN4core3fmt5write17h0123456789abcdefE", "core::fmt::write" },
		{ "_ZN5hello4main28_$u7b$$u7b$closure$u7d$$u7d$17h9d0c5a6b2e4f8a11E",
		  "hello::main::{{closure}}" },
		/* Rust v0 */
		{ "_RNvCs15kBYyAo9fc_7mycrate7example", "mycrate::example" },
		{ "_RNvMNtCs1234_7mycrate3fooNtB2_3Bar3baz", "<mycrate::foo::Bar>::baz" },
		{ "_RINvCs8K0hJr5Snt2_5hello4testINtNtCsd8LJXUzK8q0_4core6option6OptionmEEB2_",
		  "hello::test::<core::option::Option<u32>>" },
	};
	char *d;

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		d = xpp_demangle(cases[i].in);
		CHECK_STR(d, cases[i].want);
		free(d);
	}
	CHECK(xpp_demangle("main") == NULL);
	CHECK(xpp_demangle("_Znot_valid(") == NULL);
}

int main(void)
{
	RUN(test_lookup_and_ends);
	RUN(test_alias_choice);
	RUN(test_label_inside_function);
	RUN(test_kallsyms);
	RUN(test_kallsyms_cache);
	/* a precondition missing is a skip, never an ok */
	if (access(unit_build_path("workloads/shares"), R_OK) == 0) {
		RUN(test_elf_against_nm);
		RUN(test_build_id_debug_file);
		RUN(test_may_have);
	} else {
		SKIP(test_elf_against_nm, "the workload 'shares' is not built");
		SKIP(test_build_id_debug_file, "the workload 'shares' is not built");
		SKIP(test_may_have, "the workload 'shares' is not built");
	}
	if (access(unit_build_path("workloads/label"), R_OK) == 0)
		RUN(test_elf_label);
	else
		SKIP(test_elf_label, "the workload 'label' is not built");
	if (access("/bin/ls", R_OK) == 0)
		RUN(test_dynsym_and_plt);
	else
		SKIP(test_dynsym_and_plt, "/bin/ls is absent");
	RUN(test_not_elf);
	RUN(test_demangle);
	RUN(test_build_id_find);
	UNIT_MAIN_END();
}
