/* sc_mem_ct_compare: comparison whose timing depends only on the length. Eight bytes at a
 * time: the differences accumulate in a volatile word, so every load and every step happens
 * whatever the data (no early exit can be derived), and the result comes from the
 * accumulated bits without a branch on them. */
#include <softchat/mem.h>

#include <stdint.h>
#include <string.h>

int sc_mem_ct_compare(const void *a, const void *b, size_t len)
{
    const unsigned char *x = (const unsigned char *)a, *y = (const unsigned char *)b;
    volatile uint64_t acc = 0;
    uint64_t d;
    size_t i = 0;

    for (; len - i >= 8; i += 8) {
        uint64_t p, q;

        memcpy(&p, x + i, 8);
        memcpy(&q, y + i, 8);
        acc |= p ^ q;
    }
    for (; i < len; i++) {
        acc |= (uint64_t)(x[i] ^ y[i]);
    }
    d = acc;
    /* 0 when equal, 1 otherwise: the top bit of d | -d is set exactly when d != 0. */
    return (int)((d | (0u - d)) >> 63);
}
