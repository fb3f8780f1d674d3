/* Kind 15 attachments: fresh keys and IVs, and the IVs a decryption-nonce tag value stands
 * for (the decoded hex, then the legacy early-0xChat reading of the hex text itself). */
#include <softchat/crypto.h>
#include <softchat/mem.h>
#include <softchat/hex.h>
#include <softchat/file.h>

#include <string.h>

/* The legacy IV is the hex text of a 16-byte IV, taken as 32 bytes */
#define LEGACY_IV_CHARS 32u

sc_status sc_file_keygen(sc_ctx *ctx, uint8_t key[SC_FILE_KEY_BYTES], uint8_t iv[SC_FILE_IV_BYTES])
{
    sc_status st;

    if (key == NULL || iv == NULL) {
        if (key != NULL) {
            sc_mem_wipe(key, SC_FILE_KEY_BYTES);
        }
        if (iv != NULL) {
            sc_mem_wipe(iv, SC_FILE_IV_BYTES);
        }
        return SC_ERR_ARG;
    }
    st = sc_crypto_rng_fill(ctx, key, SC_FILE_KEY_BYTES);
    if (st == SC_OK) {
        st = sc_crypto_rng_fill(ctx, iv, SC_FILE_IV_BYTES);
    }
    if (st != SC_OK) {
        sc_mem_wipe(key, SC_FILE_KEY_BYTES);
        sc_mem_wipe(iv, SC_FILE_IV_BYTES);
    }
    return st;
}

sc_status sc_file_iv_candidates(uint8_t ivs[2][32], size_t iv_lens[2], size_t *n,
                                const char *nonce_text, size_t len)
{
    sc_status st;

    if (ivs == NULL || iv_lens == NULL || n == NULL || nonce_text == NULL) {
        if (ivs != NULL) {
            sc_mem_wipe(ivs, 2 * sizeof ivs[0]);
        }
        if (iv_lens != NULL) {
            iv_lens[0] = iv_lens[1] = 0;
        }
        if (n != NULL) {
            *n = 0;
        }
        return SC_ERR_ARG;
    }
    sc_mem_wipe(ivs, 2 * sizeof ivs[0]);
    iv_lens[0] = iv_lens[1] = 0;
    *n = 0;
    if (len != 24 && len != LEGACY_IV_CHARS) {
        return SC_ERR_ENCODING;
    }
    st = sc_hex_decode_fixed(ivs[0], len / 2, nonce_text, len, SC_HEX_ANY_CASE);
    if (st != SC_OK) {
        sc_mem_wipe(ivs[0], sizeof ivs[0]);
        return SC_ERR_ENCODING;
    }
    iv_lens[0] = len / 2;
    *n = 1;
    if (len == LEGACY_IV_CHARS) {
        memcpy(ivs[1], nonce_text, LEGACY_IV_CHARS);
        iv_lens[1] = LEGACY_IV_CHARS;
        *n = 2;
    }
    return SC_OK;
}
