/* Numbers as printf writes them, for output loops of a million lines (fmt_num.h). */
#include <math.h> /* signbit, a macro: nothing from libm */
#include <stdio.h>
#include <string.h>

#include "base/fmt_num.h"

size_t xb_fmt_u64(char *buf, uint64_t v)
{
	char tmp[24];
	size_t n = 0;

	do {
		tmp[n++] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	for (size_t i = 0; i < n; i++)
		buf[i] = tmp[n - 1 - i];
	buf[n] = '\0';
	return n;
}

size_t xb_fmt_hex(char *buf, uint64_t v, int width)
{
	static const char digits[] = "0123456789abcdef";
	char tmp[16];
	size_t n = 0, len;

	do {
		tmp[n++] = digits[v & 15];
		v >>= 4;
	} while (v);
	if (width > 32)
		width = 32;
	len = width > 0 && (size_t)width > n ? (size_t)width : n;
	memset(buf, '0', len - n);
	for (size_t i = 0; i < n; i++)
		buf[len - 1 - i] = tmp[i];
	buf[len] = '\0';
	return len;
}

size_t xb_fmt_fixed2(char *buf, double v)
{
	double s, frac;
	uint64_t whole, r;
	size_t n;

	/*
	 * printf rounds v's exact binary value to hundredths. v * 100 is off from it by at
	 * most half an ulp, so only a fraction that close to one half can round the other
	 * way (near a whole number either side rounds to it). Below 1e4, v * 100 < 2^20 and
	 * half an ulp is below 2^-32: a margin of 1e-6 holds it. Those near one half, the
	 * negative (and -0.0's sign), NaN and 1e4 or more go to snprintf.
	 */
	if (!(v >= 0) || signbit(v) || v >= 1e4)
		return (size_t)snprintf(buf, XB_FMT_NUM_MAX, "%.2f", v);
	s = v * 100.0;
	whole = (uint64_t)s; /* s >= 0: truncation is its floor, and s - whole exact */
	frac = s - (double)whole;
	if (frac > 0.5 - 1e-6 && frac < 0.5 + 1e-6)
		return (size_t)snprintf(buf, XB_FMT_NUM_MAX, "%.2f", v);
	r = whole + (frac > 0.5);
	n = xb_fmt_u64(buf, r / 100);
	buf[n++] = '.';
	buf[n++] = (char)('0' + r / 10 % 10);
	buf[n++] = (char)('0' + r % 10);
	buf[n] = '\0';
	return n;
}
