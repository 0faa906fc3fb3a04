/* Decoding without capstone: this build cannot disassemble, and says so. */
#include <errno.h>

#include "profile/disasm/disasm.h"

bool xpp_disasm_available(void)
{
	return false;
}

void xpp_disasm_preload(void)
{
}

int xpp_disasm(const struct xpp_code *code, struct xpp_raw_insn **out, uint32_t *nr,
	       struct xb_error *err)
{
	(void)code;
	*out = NULL;
	*nr = 0;
	return xb_error_set(err, -EOPNOTSUPP,
			     "annotate is not supported in this build (xperf was built without "
			     "capstone: install libcapstone-dev and rebuild)");
}
