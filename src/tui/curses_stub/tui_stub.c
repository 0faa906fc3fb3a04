/* The TUI of a build without ncursesw: says so, and the command prints its text view. */
#include <errno.h>

#include "tui/tui.h"

int tui_browse_file(xpf_reader *r, const struct tui_opts *o)
{
	(void)r;
	(void)o;
	return -EOPNOTSUPP;
}

int tui_browse(const struct tui_source *src)
{
	(void)src;
	return -EOPNOTSUPP;
}
