/*
 * perf's --time, with perf's arithmetic, so a slice keeps the same samples in both tools:
 * a percentage is rounded to the nanosecond from the first sample's time, and a slice
 * that does not end at the last sample stops one nanosecond short of the next slice.
 */
#include "profile/time_range.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define NSEC_PER_SEC 1000000000ULL

/* "SECONDS[.FRACTION]" (at most 9 fraction digits) of s[0..len) in ns; "" is 0 (open). */
static int parse_ns(const char *s, size_t len, uint64_t *ns)
{
	uint64_t sec = 0, frac = 0;
	size_t i = 0, digits = 0;

	while (i < len && isspace((unsigned char)s[i]))
		i++;
	if (i == len) {
		*ns = 0;
		return 0;
	}
	if (!isdigit((unsigned char)s[i]))
		return -EINVAL;
	for (; i < len && isdigit((unsigned char)s[i]); i++) {
		if (sec > (UINT64_MAX / NSEC_PER_SEC - 9) / 10)
			return -EINVAL;
		sec = sec * 10 + (uint64_t)(s[i] - '0');
	}
	if (i < len && s[i] == '.') {
		for (i++; i < len && isdigit((unsigned char)s[i]); i++, digits++) {
			if (digits == 9)
				return -EINVAL;
			frac = frac * 10 + (uint64_t)(s[i] - '0');
		}
		for (size_t d = digits; d < 9; d++)
			frac *= 10;
	}
	if (i != len)
		return -EINVAL;
	*ns = sec * NSEC_PER_SEC + frac;
	return 0;
}

static int push(struct xpp_time_ranges *t, uint64_t start, uint64_t end)
{
	struct xpp_time_range *r = realloc(t->r, (t->nr + 1) * sizeof(*r));

	if (!r)
		return -ENOMEM;
	t->r = r;
	t->r[t->nr++] = (struct xpp_time_range){ start, end };
	return 0;
}

/* "START,END START,END ...": absolute ranges in increasing order, none overlapping. */
static int parse_absolute(struct xpp_time_ranges *t, const char *s)
{
	const char *p = s;
	int ret;

	for (;;) {
		const char *comma, *tok_end;
		uint64_t start, end;

		while (isspace((unsigned char)*p))
			p++;
		if (!*p)
			break;
		comma = strchr(p, ',');
		if (!comma)
			return -EINVAL;
		/* the end may follow its comma after spaces, then runs to the next space */
		tok_end = comma + 1;
		while (isspace((unsigned char)*tok_end))
			tok_end++;
		while (*tok_end && !isspace((unsigned char)*tok_end)) {
			if (*tok_end == ',')
				return -EINVAL;
			tok_end++;
		}
		if (parse_ns(p, (size_t)(comma - p), &start) ||
		    parse_ns(comma + 1, (size_t)(tok_end - comma - 1), &end))
			return -EINVAL;
		if (end && end < start)
			return -EINVAL;
		if ((ret = push(t, start, end)) < 0)
			return ret;
		p = tok_end;
	}
	if (!t->nr)
		return -EINVAL;
	for (uint32_t i = 0; i + 1 < t->nr; i++)
		if (t->r[i].end >= t->r[i + 1].start)
			return -EINVAL;
	return 0;
}

/* "P%" of s[0..len): P / 100; the '%' must end it. */
static int parse_percent(const char *s, size_t len, double *out)
{
	char buf[64], *end;

	if (!len || len >= sizeof(buf) || s[len - 1] != '%')
		return -EINVAL;
	memcpy(buf, s, len - 1);
	buf[len - 1] = 0;
	*out = strtod(buf, &end) / 100.0;
	return end == buf || *end ? -EINVAL : 0;
}

static int percent_range(struct xpp_time_ranges *t, double from, double to, uint64_t first,
			 uint64_t last)
{
	uint64_t total = last - first, start, end;

	if (!(from >= 0.0 && from <= 1.0 && to >= 0.0 && to <= 1.0))
		return -EINVAL;
	start = first + (uint64_t)llround(from * (double)total);
	end = first + (uint64_t)llround(to * (double)total);
	if (end > start && end != last)
		end--;
	return push(t, start, end);
}

/* One comma-separated piece: "P%/N" (slash), "A%-B%" (dash) or "P%" (the first slice). */
static int parse_piece(struct xpp_time_ranges *t, const char *s, size_t len, char form,
		       uint64_t first, uint64_t last)
{
	const char *sep = memchr(s, form == '%' ? 0 : form, len);
	double a, b;

	if (form == '%')
		return parse_percent(s, len, &a) || a <= 0.0 ? -EINVAL :
		       percent_range(t, 0.0, a, first, last);
	if (!sep || parse_percent(s, (size_t)(sep - s), &a))
		return -EINVAL;
	if (form == '-') {
		if (parse_percent(sep + 1, len - (size_t)(sep - s) - 1, &b))
			return -EINVAL;
		return percent_range(t, a, b, first, last);
	}
	{
		char buf[32], *end;
		size_t n = len - (size_t)(sep - s) - 1;
		long slice;

		if (!n || n >= sizeof(buf) || a <= 0.0)
			return -EINVAL;
		memcpy(buf, sep + 1, n);
		buf[n] = 0;
		slice = strtol(buf, &end, 10);
		if (*end)
			return -EINVAL;
		return percent_range(t, a * (double)(slice - 1), a * (double)slice, first, last);
	}
}

static int parse_percents(struct xpp_time_ranges *t, const char *s, uint64_t first,
			  uint64_t last)
{
	char form = strchr(s, '/') ? '/' : strchr(s, '-') ? '-' : '%';
	const char *p = s;
	int ret;

	for (;;) {
		const char *comma = strchr(p, ',');
		size_t len = comma ? (size_t)(comma - p) : strlen(p);

		if ((ret = parse_piece(t, p, len, form, first, last)) < 0)
			return ret;
		if (!comma)
			return 0;
		p = comma + 1;
	}
}

int xpp_time_ranges_parse(struct xpp_time_ranges *t, const char *s, uint64_t first,
			  uint64_t last, bool have_bounds, struct xb_error *err)
{
	int ret;

	t->r = NULL;
	t->nr = 0;
	if (!s || !*s)
		return 0;
	if (strchr(s, '%')) {
		if (!have_bounds || last < first) {
			xb_error_set(err, -EINVAL, "--time '%s': the file has no first and last "
				     "sample time (SAMPLE_TIME feature) to take a percentage of; "
				     "give absolute times", s);
			return -EINVAL;
		}
		ret = parse_percents(t, s, first, last);
	} else {
		ret = parse_absolute(t, s);
	}
	if (ret == -EINVAL)
		xb_error_set(err, ret, "invalid time string '%s': want START,END in seconds "
			     "(\"1234.5,1235\", several separated by spaces) or percentages "
			     "(\"10%%/2\", \"0%%-10%%,30%%-40%%\")", s);
	else if (ret < 0)
		xb_error_set(err, ret, "--time: %s", strerror(-ret));
	if (ret < 0)
		xpp_time_ranges_free(t);
	return ret;
}

void xpp_time_ranges_free(struct xpp_time_ranges *t)
{
	free(t->r);
	t->r = NULL;
	t->nr = 0;
}

bool xpp_time_ranges_skip(const struct xpp_time_ranges *t, uint64_t ns)
{
	if (!t->nr || !ns)
		return false;
	if (t->nr == 1)
		return (t->r[0].start && ns < t->r[0].start) || (t->r[0].end && ns > t->r[0].end);
	for (uint32_t i = 0; i < t->nr; i++)
		if (ns >= t->r[i].start && (!t->r[i].end || ns <= t->r[i].end))
			return false;
	return true;
}
