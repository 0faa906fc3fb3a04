/* JSON strings: escaping, and invalid UTF-8 replaced, in one place. */
#include <stdint.h>

#include "base/json.h"

/* The length of the valid UTF-8 sequence at s[0..n), 0 if it is not one (RFC 3629). */
static size_t utf8_len(const unsigned char *s, size_t n)
{
	size_t len, i;
	uint32_t cp;

	if (s[0] < 0x80)
		return 1;
	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		len = 2, cp = s[0] & 0x1f;
	else if (s[0] >= 0xe0 && s[0] <= 0xef)
		len = 3, cp = s[0] & 0x0f;
	else if (s[0] >= 0xf0 && s[0] <= 0xf4)
		len = 4, cp = s[0] & 0x07;
	else
		return 0;
	if (len > n)
		return 0;
	for (i = 1; i < len; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (s[i] & 0x3f);
	}
	/* overlong forms, surrogates and code points past U+10FFFF are not UTF-8 */
	if ((len == 3 && cp < 0x800) || (len == 4 && (cp < 0x10000 || cp > 0x10ffff)) ||
	    (cp >= 0xd800 && cp <= 0xdfff))
		return 0;
	return len;
}

void xb_json_str(FILE *out, const char *str, size_t len)
{
	const unsigned char *s = (const unsigned char *)str;
	size_t i = 0, run = 0;

	putc('"', out);
	while (i < len) {
		unsigned char c = s[i];
		size_t n = c >= 0x20 && c < 0x80 && c != '"' && c != '\\' ? 1 :
			   c >= 0x80 ? utf8_len(s + i, len - i) : 0;

		if (n) {
			i += n;
			run += n;
			continue;
		}
		/* the plain bytes before this one in one write */
		fwrite(s + i - run, 1, run, out);
		run = 0;
		if (c == '"' || c == '\\')
			fprintf(out, "\\%c", c);
		else if (c < 0x20)
			fprintf(out, "\\u%04x", c);
		else
			fputs("\\ufffd", out);
		i++;
	}
	fwrite(s + i - run, 1, run, out);
	putc('"', out);
}
