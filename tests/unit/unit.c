/* State of the unit-test harness (see unit.h). */
#include "unit.h"

int unit_failed_cases;
int unit_case_failed;
int unit_case_skipped;
const char *unit_case_name;

#include <unistd.h>

const char *unit_build_path(const char *rel)
{
	static char path[4096 + 256];
	char exe[4096];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);

	if (n <= 0)
		n = 0;
	exe[n] = '\0';
	/* BUILD/tests/test_x -> BUILD */
	for (int i = 0; i < 2; i++) {
		char *sl = strrchr(exe, '/');

		if (sl)
			*sl = '\0';
	}
	snprintf(path, sizeof(path), "%s/%s", n ? exe : "build", rel);
	return path;
}

const char *unit_src_path(const char *rel)
{
	static char path[4096 + 512];

	if (access(rel, F_OK) == 0)
		return rel;
	/* BUILD sits at the top of the tree: BUILD/../rel */
	snprintf(path, sizeof(path), "%s", unit_build_path(""));
	snprintf(path + strlen(path), sizeof(path) - strlen(path), "../%s", rel);
	return path;
}
