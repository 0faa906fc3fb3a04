/* xperf-stat number and string formatting: thousands grouping, JSON escaping. */
#include <stdio.h>
#include <string.h>

#include "stat/stat.h"

int stat_fmt_number(char *buf, size_t len, double v, int decimals, const char *sep)
{
	char raw[512], *p, *dot, *out;
	size_t seplen = sep ? strlen(sep) : 0, intlen, i, o = 0;
	char tmp[600];

	snprintf(raw, sizeof(raw), "%.*f", decimals, v);
	if (!seplen)
		return snprintf(buf, len, "%s", raw);
	p = raw;
	out = tmp;
	if (*p == '-')
		out[o++] = *p++;
	dot = strchr(p, '.');
	intlen = dot ? (size_t)(dot - p) : strlen(p);
	for (i = 0; i < intlen && o + seplen + 2 < sizeof(tmp); i++) {
		if (i && (intlen - i) % 3 == 0) {
			memcpy(out + o, sep, seplen);
			o += seplen;
		}
		out[o++] = p[i];
	}
	out[o] = 0;
	if (dot)
		snprintf(out + o, sizeof(tmp) - o, "%s", dot);
	return snprintf(buf, len, "%s", tmp);
}

