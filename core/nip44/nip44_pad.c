/* NIP-44 v2 sizes, length prefix and padding. Pure arithmetic: no context, no crypto.
 * Padded lengths reach 2^32 for a plaintext of 2^32 - 1 bytes, so everything is 64-bit. */
#include <softchat/mem.h>
#include <softchat/base64.h>

#include "nip44/nip44_internal.h"

size_t sc_nip44_key_bytes(void)
{
    return SC_NIP44_KEY_BYTES;
}

size_t sc_nip44_nonce_bytes(void)
{
    return SC_NIP44_NONCE_BYTES;
}

uint64_t sc_nip44_padded_len(uint64_t len)
{
    uint64_t np = 32, chunk;

    if (len == 0 || len > SC_NIP44_MAX_PLAINTEXT) {
        return 0;
    }
    if (len <= 32) {
        return 32;
    }
    /* the smallest power of two >= len, i.e. 1 << (floor(log2(len - 1)) + 1), in integers */
    while (np < len) {
        np <<= 1;
    }
    chunk = (np <= 256) ? 32 : np / 8;
    return chunk * ((len - 1) / chunk + 1);
}

size_t sc_nip44_prefix_len(uint64_t len)
{
    return len >= SC_NIP44_EXTENDED_THRESHOLD ? 6 : 2;
}

void sc_nip44_prefix_write(uint8_t *p, uint64_t len)
{
    if (len < SC_NIP44_EXTENDED_THRESHOLD) {
        p[0] = (uint8_t)(len >> 8);
        p[1] = (uint8_t)len;
        return;
    }
    p[0] = 0;
    p[1] = 0;
    p[2] = (uint8_t)(len >> 24);
    p[3] = (uint8_t)(len >> 16);
    p[4] = (uint8_t)(len >> 8);
    p[5] = (uint8_t)len;
}

size_t sc_nip44_encrypt_len(size_t len)
{
    uint64_t padded = sc_nip44_padded_len(len), raw, b64;

    if (padded == 0) {
        return 0;
    }
    raw = SC_NIP44_OVERHEAD + sc_nip44_prefix_len(len) + padded;
    b64 = (raw + 2) / 3 * 4; /* at most about 5.7e9: no 64-bit overflow */
    if (b64 > (uint64_t)(size_t)-1) {
        return 0;
    }
    return (size_t)b64;
}

size_t sc_nip44_decrypt_max(size_t payload_len)
{
    return sc_base64_decode_max(payload_len);
}

sc_status sc_nip44_unpad(const uint8_t *p, size_t n, size_t *off, size_t *len)
{
    uint64_t l;
    size_t pre;

    *off = 0;
    *len = 0;
    if (n < 2) {
        return SC_ERR_PADDING;
    }
    l = ((uint64_t)p[0] << 8) | p[1];
    pre = 2;
    if (l == 0) {
        /* the extended form; a length that fits the short form has exactly one encoding */
        if (n < 6) {
            return SC_ERR_PADDING;
        }
        l = ((uint64_t)p[2] << 24) | ((uint64_t)p[3] << 16) | ((uint64_t)p[4] << 8) | p[5];
        pre = 6;
        if (l < SC_NIP44_EXTENDED_THRESHOLD) {
            return SC_ERR_PADDING;
        }
    }
    /* padded_len(l) >= l, so a matching total also holds all l plaintext bytes */
    if ((uint64_t)n != pre + sc_nip44_padded_len(l)) {
        return SC_ERR_PADDING;
    }
    *off = pre;
    *len = (size_t)l;
    return SC_OK;
}
