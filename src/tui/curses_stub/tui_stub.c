/* The TUI of a build without ncursesw: says so, and xperf report prints the stdio view. */
#include <errno.h>

#include "tui/tui.h"

int report_tui_run(xpf_reader *r, const struct report_tui_opts *o)
{
	(void)r;
	(void)o;
	return -EOPNOTSUPP;
}
