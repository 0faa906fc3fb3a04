/* C++ names as perf shows them: demangled (libstdc++'s demangler, loaded on first need), no parameters. */
#include <dlfcn.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "profile/symbols/load.h"

typedef char *(*cxa_demangle_fn)(const char *name, char *buf, size_t *len, int *status);

/* dlopen'ed so xperf-report needs no C++ runtime unless a file has C++ symbols */
static cxa_demangle_fn demangler(void)
{
	static cxa_demangle_fn fn;
	static bool tried;

	if (!tried) {
		void *h = dlopen("libstdc++.so.6", RTLD_LAZY | RTLD_LOCAL);

		tried = true;
		if (h)
			*(void **)&fn = dlsym(h, "__cxa_demangle");
	}
	return fn;
}

static bool ends_with(const char *s, size_t len, const char *suffix)
{
	size_t n = strlen(suffix);

	return len >= n && !memcmp(s + len - n, suffix, n);
}

/*
 * perf demangles without DMGL_PARAMS: "ns::f(int) const" shows as "ns::f" and a template
 * function's return type goes too ("void f<int>(int)" -> "f<int>"). Edits s in place.
 */
static void strip_params(char *s)
{
	size_t len = strlen(s), i;
	int depth = 0;
	char *clone = strstr(s, " [clone ");
	char *tail = clone ? strdup(clone) : NULL;

	if (clone) {
		*clone = '\0';
		len = (size_t)(clone - s);
	}
	for (;;) {
		if (ends_with(s, len, " const"))
			len -= 6;
		else if (ends_with(s, len, " volatile"))
			len -= 9;
		else if (ends_with(s, len, " &&"))
			len -= 3;
		else if (ends_with(s, len, " &"))
			len -= 2;
		else
			break;
	}
	if (len && s[len - 1] == ')') {
		for (i = len; i > 0; i--) {
			depth += s[i - 1] == ')' ? 1 : s[i - 1] == '(' ? -1 : 0;
			if (!depth)
				break;
		}
		if (i > 1)
			len = i - 1;
	}
	s[len] = '\0';

	/* the return type: everything up to the last space outside brackets */
	size_t cut = 0;

	depth = 0;
	for (i = 0; i < len; i++) {
		char c = s[i];

		if (c == '<' || c == '(' || c == '[' || c == '{')
			depth++;
		else if ((c == '>' || c == ')' || c == ']' || c == '}') && depth > 0)
			depth--;
		else if (!depth && c == ' ')
			cut = i + 1;
		else if (!depth && !strncmp(s + i, "operator", 8))
			break; /* "operator new", "operator unsigned long": spaces belong to the name */
	}
	if (i == len && cut)
		memmove(s, s + cut, len - cut + 1);
	if (tail) {
		size_t n = strlen(s);

		memcpy(s + n, tail, strlen(tail) + 1); /* fits: it was there before */
		free(tail);
	}
}

char *xpp_demangle(const char *name)
{
	cxa_demangle_fn fn;
	char *out;
	int status = -1;

	if (strncmp(name, "_Z", 2) || !(fn = demangler()))
		return NULL;
	out = fn(name, NULL, NULL, &status);
	if (!out || status) {
		free(out);
		return NULL;
	}
	strip_params(out);
	return out;
}
