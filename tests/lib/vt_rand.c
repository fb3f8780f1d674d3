/* splitmix64 (Steele, Lea, Flood 2014): tiny, fast, and every seed gives a full period. */
#define _POSIX_C_SOURCE 200809L /* clock_gettime, getpid */

#include "vt_rand.h"

#include <time.h>
#include <unistd.h>

static uint64_t state = 0x5eedc0ffee123457ull;

void vt_rand_seed(uint64_t seed)
{
    state = seed;
}

uint64_t vt_rand_u64(void)
{
    uint64_t z = (state += 0x9e3779b97f4a7c15ull);

    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

size_t vt_rand_below(size_t n)
{
    return n <= 1 ? 0 : (size_t)(vt_rand_u64() % (uint64_t)n);
}

void vt_rand_bytes(uint8_t *out, size_t n)
{
    size_t i;
    uint64_t w = 0;

    for (i = 0; i < n; i++) {
        if (i % 8 == 0) {
            w = vt_rand_u64();
        }
        out[i] = (uint8_t)(w >> (8 * (i % 8)));
    }
}

uint64_t vt_rand_fresh_seed(void)
{
    struct timespec ts;
    uint64_t s = 0;

    if (clock_gettime(CLOCK_REALTIME, &ts) == 0) {
        s = (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
    }
    return s ^ ((uint64_t)getpid() << 32);
}
