/* Edit distance (optimal string alignment) for suggestions: three rows, any length. */
#include <stdlib.h>
#include <string.h>

#include "base/edit_distance.h"

static unsigned int min3(unsigned int a, unsigned int b, unsigned int c)
{
	unsigned int m = a < b ? a : b;

	return m < c ? m : c;
}

unsigned int xb_edit_distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b), longer = la > lb ? la : lb;
	unsigned int stack[3 * 64], *heap = NULL, *pp, *prev, *cur, d;

	/* rows i-2, i-1 and i of the (la+1) x (lb+1) table; words are short, the stack will do */
	if (3 * (lb + 1) > sizeof(stack) / sizeof(stack[0])) {
		heap = malloc(3 * (lb + 1) * sizeof(*heap));
		if (!heap)
			return (unsigned int)longer;
	}
	pp = heap ? heap : stack;
	prev = pp + lb + 1;
	cur = prev + lb + 1;
	for (size_t j = 0; j <= lb; j++)
		prev[j] = (unsigned int)j;
	for (size_t i = 1; i <= la; i++) {
		unsigned int *t;

		cur[0] = (unsigned int)i;
		for (size_t j = 1; j <= lb; j++) {
			unsigned int v = min3(prev[j] + 1, cur[j - 1] + 1,
					      prev[j - 1] + (a[i - 1] != b[j - 1]));

			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] &&
			    pp[j - 2] + 1 < v)
				v = pp[j - 2] + 1;
			cur[j] = v;
		}
		t = pp, pp = prev, prev = cur, cur = t;
	}
	d = prev[lb];
	free(heap);
	return d;
}
