/* Filling struct xpf_error. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "format/xpf_error.h"

int xpf_error_set(struct xpf_error *err, int code, const char *fmt, ...)
{
	va_list ap;

	if (!err)
		return code;
	err->code = code;
	va_start(ap, fmt);
	vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
	va_end(ap);
	return code;
}

void xpf_error_clear(struct xpf_error *err)
{
	if (!err)
		return;
	err->code = 0;
	err->msg[0] = '\0';
}
