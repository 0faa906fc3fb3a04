/* Decoding without capstone: this build decodes no code capstone would, and says so. */
#include <errno.h>

#include "profile/disasm/disasm.h"

bool xpp_cs_built(void)
{
	return false;
}

void xpp_cs_preload(void)
{
}

int xpp_cs_disasm(const struct xpp_code *code, struct xpp_raw_insn **out, uint32_t *nr,
		  struct xb_error *err)
{
	*out = NULL;
	*nr = 0;
	if (xpp_zydis_built())
		return xb_error_set(err, -EOPNOTSUPP,
				     "cannot disassemble code of ELF machine %u in this build (Zydis "
				     "decodes x86 only; install libcapstone-dev and rebuild)",
				     code->machine);
	return xb_error_set(err, -EOPNOTSUPP,
			     "annotate is not supported in this build (xperf was built without "
			     "a disassembler: install libzydis-dev or libcapstone-dev and rebuild)");
}
