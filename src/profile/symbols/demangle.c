/* C++ and Rust names as perf shows them: binutils' libiberty, called as perf 6.1 calls it. */
#include <stdlib.h>
#include <string.h>

#include <libiberty/demangle.h>

#include "profile/symbols/load.h"

/*
 * perf (built without libbfd, as Debian builds it) calls libiberty's cplus_demangle() with
 * DMGL_NO_OPTS unless -v: no parameters ("ns::f(int) const" is "ns::f", a template
 * function's return type goes too), and libiberty's automatic style, which tries Rust
 * (legacy names lose their "::h<hash>", v0 names are read) before the C++ ABI.
 */
char *xpp_demangle(const char *name)
{
	if (name[0] != '_')
		return NULL; /* every scheme the automatic style knows starts so */
	return cplus_demangle(name, DMGL_NO_OPTS);
}

/* objdump -C calls libiberty with DMGL_PARAMS | DMGL_ANSI (binutils' demangle_flags). */
char *xpp_demangle_params(const char *name)
{
	if (name[0] != '_')
		return NULL;
	return cplus_demangle(name, DMGL_PARAMS | DMGL_ANSI);
}
