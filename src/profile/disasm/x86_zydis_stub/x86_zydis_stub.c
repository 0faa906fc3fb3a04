/* Decoding x86 without Zydis: xpp_disasm hands x86 code to capstone instead. */
#include <errno.h>

#include "profile/disasm/disasm.h"

bool xpp_zydis_built(void)
{
	return false;
}

void xpp_zydis_preload(void)
{
}

int xpp_zydis_disasm(const struct xpp_code *code, struct xpp_raw_insn **out, uint32_t *nr,
		     struct xb_error *err)
{
	(void)code;
	*out = NULL;
	*nr = 0;
	return xb_error_set(err, -EOPNOTSUPP, "this build has no Zydis (libzydis-dev)");
}
