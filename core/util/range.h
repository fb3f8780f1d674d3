/* Buffer ranges and size arithmetic: the one overlap check and the one saturating add and
 * multiply of core/. Sizes saturate at SIZE_MAX inside core; public size functions turn a
 * saturated result into their sentinel 0. */
#ifndef SOFTCHAT_CORE_RANGE_H
#define SOFTCHAT_CORE_RANGE_H

#include <stddef.h>
#include <stdint.h>

#define SC_SIZE_SAT ((size_t)-1)

/* Whether a[0..a_len) and b[0..b_len) share a byte (empty or NULL ranges never do). */
static inline int sc_range_overlap(const void *a, size_t a_len, const void *b, size_t b_len)
{
    uintptr_t x = (uintptr_t)a, y = (uintptr_t)b;

    if (a == NULL || b == NULL || a_len == 0 || b_len == 0) {
        return 0;
    }
    return x < y ? y - x < a_len : x - y < b_len;
}

/* Whether a[0..len) and b[0..len) overlap other than exactly (in-place is a == b). */
static inline int sc_range_overlap_partial(const void *a, const void *b, size_t len)
{
    return a != b && sc_range_overlap(a, len, b, len);
}

/* a + b, or SC_SIZE_SAT when it does not fit (SC_SIZE_SAT in stays SC_SIZE_SAT). */
static inline size_t sc_size_add(size_t a, size_t b)
{
    return a > SC_SIZE_SAT - b ? SC_SIZE_SAT : a + b;
}

/* a * b, or SC_SIZE_SAT when it does not fit. */
static inline size_t sc_size_mul(size_t a, size_t b)
{
    return (b != 0 && a > SC_SIZE_SAT / b) ? SC_SIZE_SAT : a * b;
}

/* A saturated internal size as a public size function's result: 0 for "no such size". */
static inline size_t sc_size_public(size_t n)
{
    return n == SC_SIZE_SAT ? 0 : n;
}

#endif
