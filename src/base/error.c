/* Filling struct xb_error. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "base/error.h"

int xb_error_set(struct xb_error *err, int code, const char *fmt, ...)
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

void xb_error_clear(struct xb_error *err)
{
	if (!err)
		return;
	err->code = 0;
	err->msg[0] = '\0';
}
