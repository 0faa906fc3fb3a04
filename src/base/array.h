/* libxperf-base: growing arrays by doubling, with the size arithmetic checked. */
#ifndef XB_ARRAY_H
#define XB_ARRAY_H

#include <stdbool.h>
#include <stddef.h>

/*
 * XB_ARRAY_RESERVE(arr, cap, need, first): make the array arr (a pointer lvalue, from
 * malloc or NULL) hold at least need elements. cap (an lvalue of any unsigned integer type)
 * is its capacity in elements; it doubles, starting at first when the array is empty, and
 * never passes what cap's type can count. Returns 0, or -ENOMEM with arr and cap untouched
 * (the old array stays valid). New elements are not initialised; XB_ARRAY_RESERVE0 zeroes
 * them.
 *     if (h->nr == h->cap && XB_ARRAY_RESERVE(h->e, h->cap, h->nr + 1, 256))
 *             return -ENOMEM;
 */
#define XB_ARRAY_RESERVE(arr, cap, need, first) XB_ARRAY_RESERVE_(arr, cap, need, first, false)
#define XB_ARRAY_RESERVE0(arr, cap, need, first) XB_ARRAY_RESERVE_(arr, cap, need, first, true)

#define XB_ARRAY_RESERVE_(arr, cap, need, first, zero) __extension__({			\
	_Static_assert((__typeof__(cap))-1 > 0, "XB_ARRAY_RESERVE: cap must be unsigned");	\
	void *xb_p_ = (arr);								\
	size_t xb_c_ = (cap), xb_n_ = (need);						\
	/* the common case, room already, costs one comparison and no call */		\
	int xb_r_ = xb_n_ <= xb_c_ ? 0 :							\
		xb_array_reserve(&xb_p_, &xb_c_, xb_n_, (first), sizeof(*(arr)),	\
				 (__typeof__(cap))-1, (zero));				\
	if (!xb_r_) {									\
		(arr) = xb_p_;								\
		(cap) = (__typeof__(cap))xb_c_;						\
	}										\
	xb_r_;										\
})

/* The function behind XB_ARRAY_RESERVE; max_cap bounds the capacity. */
int xb_array_reserve(void **arr, size_t *cap, size_t need, size_t first, size_t elem_size,
		     size_t max_cap, bool zero);

#endif
