/* sc_mem_ct_compare: comparison whose timing depends only on the length. */
#include <softchat/mem.h>

int sc_mem_ct_compare(const void *a, const void *b, size_t len)
{
    const volatile unsigned char *x = (const volatile unsigned char *)a;
    const volatile unsigned char *y = (const volatile unsigned char *)b;
    unsigned char diff = 0;
    size_t i;

    for (i = 0; i < len; i++) {
        diff |= (unsigned char)(x[i] ^ y[i]);
    }
    /* 0 when equal, 1 otherwise, without a data-dependent branch on diff's bits. */
    return (int)((1u & ((unsigned)(diff - 1u) >> 8)) ^ 1u);
}
