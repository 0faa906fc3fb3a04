/* The output file of an export: a path, or stdout for "-", and its errors said once. */
#include <errno.h>
#include <string.h>

#include "cli/cli.h"

FILE *cli_output_open(const char *path)
{
	FILE *out = strcmp(path, "-") ? fopen(path, "w") : stdout;

	if (!out)
		cli_error("cannot write '%s': %s", path, strerror(errno));
	return out;
}

int cli_output_close(FILE *out, const char *path, int ret)
{
	/* a full disk shows at the last write: fclose()'s or fflush()'s */
	if (out != stdout) {
		if (fclose(out) && ret == 0)
			ret = -errno;
	} else if (fflush(out) && ret == 0) {
		ret = -errno;
	}
	if (ret < 0)
		cli_error("cannot write '%s': %s", path, strerror(-ret));
	return ret;
}
