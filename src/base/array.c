/* Array growth (base/array.h): one place that doubles, checks the product and reallocs. */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/array.h"

int xb_array_reserve(void **arr, size_t *cap, size_t need, size_t first, size_t elem_size,
		     size_t max_cap, bool zero)
{
	size_t n = *cap ? *cap : (first ? first : 1);
	void *p;

	if (need <= *cap)
		return 0;
	if (need > max_cap || !elem_size)
		return -ENOMEM;
	while (n < need)
		n = n > max_cap / 2 ? max_cap : n * 2;
	if (n > max_cap)
		n = max_cap;
	if (n > SIZE_MAX / elem_size)
		return -ENOMEM;
	p = realloc(*arr, n * elem_size);
	if (!p)
		return -ENOMEM;
	if (zero)
		memset((char *)p + *cap * elem_size, 0, (n - *cap) * elem_size);
	*arr = p;
	*cap = n;
	return 0;
}
