/* Helpers shared by the workload files. */
#define _DEFAULT_SOURCE 1
#include "ops.h"

#include <softchat/softchat.h>

#include <unistd.h>

int bench_ctx_new(sc_ctx **ctx, const char *backend)
{
    return sc_ctx_new(ctx, backend) == SC_OK ? 0 : -1;
}

void bench_fill(unsigned char *p, size_t n, unsigned seed)
{
    uint32_t x = seed * 2654435761u + 1u;
    size_t i;

    for (i = 0; i < n; i++) {
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        p[i] = (unsigned char)('a' + x % 26u); /* printable, valid UTF-8 */
    }
}

unsigned bench_cores(void)
{
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n < 1 ? 1u : (unsigned)n;
}
