/* Tracepoint fields without libtraceevent: the samples print without them; the command says so once. */
#include <errno.h>

#include "script/script.h"

int tp_printer_create(struct tp_printer **out, xpf_reader *r, xpp_profile *p, const char **why)
{
	(void)r, (void)p;
	*out = NULL;
	*why = "this xperf was built without libtraceevent (libtraceevent-dev)";
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

const char *tp_printer_warning(const struct tp_printer *tp, unsigned int i)
{
	(void)tp, (void)i;
	return NULL;
}
