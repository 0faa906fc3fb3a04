/* xpf-kcache: writes the kallsyms cache another boot of the running kernel would have left. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "profile/symbols/load.h"

/*
 * Usage: xpf-kcache FILE [OFFSET]
 *
 * The first report after a boot into the same kernel finds the kallsyms cache of the boot
 * before, whose KASLR offset was another: every address in it differs from this boot's by
 * one offset. This writes FILE (a cache, as xperf writes it into its cache directory) from
 * the running kernel's /proc/kallsyms with every address moved down by OFFSET (hex; default
 * 0x2600000, a KASLR step's multiple), so that a bench or a test can time or check the
 * first report after a boot without rebooting. Exit 0, or 1 with a message.
 */
static struct xpp_kallsyms_head head;

int main(int argc, char **argv)
{
	struct xpp_symtab t = { 0 };
	struct xb_error err = { 0 };
	struct xpp_kallsyms_key key;
	uint64_t d = argc > 2 ? strtoull(argv[2], NULL, 16) : 0x2600000;
	int ret;

	if (argc < 2 || argc > 3) {
		fprintf(stderr, "usage: xpf-kcache FILE [OFFSET]\n");
		return 1;
	}
	if (xpp_kallsyms_load(&t, "/proc/kallsyms", &err)) {
		fprintf(stderr, "xpf-kcache: %s\n", err.msg);
		return 1;
	}
	if ((ret = xpp_kallsyms_head_read(&head, "/proc/kallsyms")) || !head.anchor[0] ||
	    (ret = xpp_kallsyms_key_running(&key))) {
		fprintf(stderr, "xpf-kcache: no head or key for the running kernel: %s\n",
			strerror(ret ? -ret : ENOENT));
		return 1;
	}
	for (uint32_t i = 0; i < t.nr; i++) {
		t.syms[i].start -= d;
		t.syms[i].end -= d;
	}
	if (t.image_end)
		t.image_end -= d;
	head.anchor_addr -= d;
	ret = xpp_kallsyms_cache_write(&t, argv[1], &key, &head);
	xpp_symtab_free(&t);
	if (ret) {
		fprintf(stderr, "xpf-kcache: cannot write %s: %s\n", argv[1], strerror(-ret));
		return 1;
	}
	return 0;
}
