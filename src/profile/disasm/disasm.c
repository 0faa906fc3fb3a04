/* Decoding: Zydis for x86 code where the build has it, capstone for the rest. */
#include <elf.h>
#include <errno.h>

#include "profile/disasm/disasm.h"

bool xpp_disasm_available(void)
{
	return xpp_zydis_built() || xpp_cs_built();
}

/* Preload what the host's own code needs: annotate mostly decodes this machine's code. */
void xpp_disasm_preload(void)
{
#if defined(__x86_64__) || defined(__i386__)
	if (xpp_zydis_built()) {
		xpp_zydis_preload();
		return;
	}
#endif
	xpp_cs_preload();
}

/*
 * Zydis decodes today's x86 (AVX-512, where capstone 4 says "(bad)" and loses its place)
 * and its fields give objdump's text exactly; capstone stays for other machines, and for x86
 * when Zydis is not built in or cannot be loaded.
 */
int xpp_disasm(const struct xpp_code *code, struct xpp_raw_insn **out, uint32_t *nr,
	       struct xb_error *err)
{
	int ret;

	if ((code->machine == EM_X86_64 || code->machine == EM_386) && xpp_zydis_built()) {
		ret = xpp_zydis_disasm(code, out, nr, err);
		if (ret != -ENOENT || !xpp_cs_built())
			return ret;
	}
	return xpp_cs_disasm(code, out, nr, err);
}
