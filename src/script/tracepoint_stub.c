/* Tracepoint fields without libtraceevent: none are printed, and the command says why. */
#include <errno.h>

#include "script/script.h"

int tp_printer_create(struct tp_printer **out, xpf_reader *r, const char **why)
{
	(void)r;
	*out = NULL;
	*why = "xperf was built without libtraceevent";
	return -EOPNOTSUPP;
}

void tp_printer_free(struct tp_printer *tp)
{
	(void)tp;
}

void tp_print(struct tp_printer *tp, const struct xpf_sample *s, struct out *o)
{
	(void)tp, (void)s, (void)o;
}
