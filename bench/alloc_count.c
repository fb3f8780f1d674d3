/* A counting allocator for the bench binary: interposes malloc and friends (glibc), so
 * allocations inside libsoftchat and inside the crypto libraries it calls are all counted.
 * Built only when SOFTCHAT_BENCH_COUNT_ALLOCS is on (not under sanitizers or valgrind, which
 * interpose the allocator themselves). */
#include "harness.h"

#if defined(SOFTCHAT_BENCH_COUNT_ALLOCS) && defined(__GLIBC__)
#include <stddef.h>

extern void *__libc_malloc(size_t size);
extern void *__libc_calloc(size_t n, size_t size);
extern void *__libc_realloc(void *p, size_t size);
extern void *__libc_memalign(size_t align, size_t size);
extern void __libc_free(void *p);

static long long allocs; /* updated with relaxed atomic builtins */

void *malloc(size_t size);
void *calloc(size_t n, size_t size);
void *realloc(void *p, size_t size);
void free(void *p);
void *aligned_alloc(size_t align, size_t size);
int posix_memalign(void **out, size_t align, size_t size);

void *malloc(size_t size)
{
    __atomic_fetch_add(&allocs, 1, __ATOMIC_RELAXED);
    return __libc_malloc(size);
}

void *calloc(size_t n, size_t size)
{
    __atomic_fetch_add(&allocs, 1, __ATOMIC_RELAXED);
    return __libc_calloc(n, size);
}

void *realloc(void *p, size_t size)
{
    __atomic_fetch_add(&allocs, 1, __ATOMIC_RELAXED);
    return __libc_realloc(p, size);
}

void *aligned_alloc(size_t align, size_t size)
{
    __atomic_fetch_add(&allocs, 1, __ATOMIC_RELAXED);
    return __libc_memalign(align, size);
}

int posix_memalign(void **out, size_t align, size_t size)
{
    void *p;

    __atomic_fetch_add(&allocs, 1, __ATOMIC_RELAXED);
    p = __libc_memalign(align, size);
    if (p == NULL) {
        return 12; /* ENOMEM */
    }
    *out = p;
    return 0;
}

void free(void *p)
{
    __libc_free(p);
}

long long bench_alloc_count(void)
{
    return __atomic_load_n(&allocs, __ATOMIC_RELAXED);
}
#else
long long bench_alloc_count(void)
{
    return -1;
}
#endif
