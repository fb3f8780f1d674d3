/* XChaCha20-Poly1305 of the openssl backend: the xaead group.
 *
 * OpenSSL 3.0 has ChaCha20 and the RFC 8439 ChaCha20-Poly1305 AEAD but no XChaCha20. The
 * extended nonce is the construction of draft-irtf-cfrg-xchacha-03: a subkey from HChaCha20
 * of the key and the first 16 nonce bytes, then ChaCha20-Poly1305 under that subkey with the
 * nonce 0^4 || nonce[16..24). HChaCha20 is not in OpenSSL either; it is derived here from one
 * ChaCha20 block (sc_openssl_hchacha20), a construction over OpenSSL's primitive that the
 * draft's HChaCha20 vector (backend.openssl.hchacha) and the Wycheproof and draft XChaCha20-
 * Poly1305 vectors (vectors.openssl) prove.
 *
 * Both ciphers are fetched and their contexts allocated once, in setup. No key material stays
 * in them after a call: both are re-keyed with the all-zero key when a call ends, and the
 * AEAD context, whose Poly1305 key OpenSSL derives from the first block only once data or AAD
 * arrives, is then fed one byte of AAD so that its Poly1305 state is the zero key's too. */
#include <softchat/backend.h>
#include <softchat/mem.h>

#include <openssl/evp.h>

#include <stdlib.h>
#include <string.h>

#include "groups.h"

#define XCHACHA_CHUNK ((size_t)1 << 30) /* per EVP call: EVP lengths are int */

typedef struct xaead_state {
    EVP_CIPHER *chacha;     /* ChaCha20: IV = 32-bit little-endian counter || 96-bit nonce */
    EVP_CIPHER *chachapoly; /* ChaCha20-Poly1305 (RFC 8439), 12-byte IV */
    EVP_CIPHER_CTX *c20;    /* HChaCha20's block */
    EVP_CIPHER_CTX *aead;
} xaead_state;

static void xaead_teardown(sc_bstate *st)
{
    xaead_state *x = (xaead_state *)(void *)st;

    if (x == NULL) {
        return;
    }
    EVP_CIPHER_CTX_free(x->c20); /* frees clear the provider contexts */
    EVP_CIPHER_CTX_free(x->aead);
    EVP_CIPHER_free(x->chacha);
    EVP_CIPHER_free(x->chachapoly);
    free(x);
}

static sc_status xaead_setup(sc_bstate **out)
{
    xaead_state *x = calloc(1, sizeof *x);

    *out = NULL;
    if (x == NULL) {
        return SC_ERR_NOMEM;
    }
    x->chacha = EVP_CIPHER_fetch(NULL, "ChaCha20", NULL);
    x->chachapoly = EVP_CIPHER_fetch(NULL, "ChaCha20-Poly1305", NULL);
    x->c20 = EVP_CIPHER_CTX_new();
    x->aead = EVP_CIPHER_CTX_new();
    if (x->chacha == NULL || x->chachapoly == NULL || x->c20 == NULL || x->aead == NULL ||
        !EVP_CipherInit_ex2(x->c20, x->chacha, NULL, NULL, 1, NULL) ||
        !EVP_CipherInit_ex2(x->aead, x->chachapoly, NULL, NULL, 1, NULL)) {
        xaead_teardown((sc_bstate *)(void *)x);
        return SC_ERR_INTERNAL;
    }
    *out = (sc_bstate *)(void *)x;
    return SC_OK;
}

static uint32_t load32_le(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static void store32_le(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)v;
    p[1] = (uint8_t)(v >> 8);
    p[2] = (uint8_t)(v >> 16);
    p[3] = (uint8_t)(v >> 24);
}

/* HChaCha20 (draft-irtf-cfrg-xchacha-03 section 2.2) from one ChaCha20 block.
 *
 * The ChaCha20 state is the constants "expand 32-byte k" (words 0-3), the key (4-11) and
 * the block counter and nonce (12-15); the block function's output is the state after 20
 * rounds plus the initial state (RFC 8439 2.3). HChaCha20 sets up the same state with its
 * 16-byte input as words 12-15 and outputs words 0-3 and 12-15 after the rounds, without the
 * addition. OpenSSL's ChaCha20 IV is exactly words 12-15 (a little-endian 32-bit counter and
 * a 96-bit nonce), so the keystream of one block for IV = in is that sum, and subtracting the
 * initial words 0-3 (the constants) and 12-15 (in) leaves HChaCha20's output. The arithmetic
 * is on public words (the constants and the nonce) and runs the same for every key. */
sc_status sc_openssl_hchacha20(sc_bstate *st, uint8_t out[32], const uint8_t key[32],
                               const uint8_t in[16])
{
    static const uint8_t zero_key[32] = {0};
    static const uint32_t sigma[4] = {0x61707865u, 0x3320646eu, 0x79622d32u, 0x6b206574u};
    const xaead_state *x = (const xaead_state *)(void *)st;
    uint8_t block[64];
    size_t i;
    int got = 0, ok;

    memset(block, 0, sizeof block);
    ok = EVP_CipherInit_ex2(x->c20, NULL, key, in, 1, NULL) &&
         EVP_CipherUpdate(x->c20, block, &got, block, (int)sizeof block) &&
         got == (int)sizeof block;
    for (i = 0; ok && i < 4; i++) {
        store32_le(out + 4 * i, load32_le(block + 4 * i) - sigma[i]);
        store32_le(out + 16 + 4 * i, load32_le(block + 48 + 4 * i) - load32_le(in + 4 * i));
    }
    sc_mem_wipe(block, sizeof block);
    /* the key schedule goes; a whole block was used, so no keystream is left buffered */
    (void)EVP_CipherInit_ex2(x->c20, NULL, zero_key, NULL, 1, NULL);
    if (!ok) {
        sc_mem_wipe(out, 32);
        return SC_ERR_INTERNAL;
    }
    return SC_OK;
}

/* Runs EVP_CipherUpdate over any size_t length in int-sized pieces (out NULL: AAD). */
static int run_update(EVP_CIPHER_CTX *ctx, uint8_t *out, const uint8_t *in, size_t len)
{
    while (len > 0) {
        size_t n = len < XCHACHA_CHUNK ? len : XCHACHA_CHUNK;
        int got = 0;

        if (!EVP_CipherUpdate(ctx, out, &got, in, (int)n) || (out != NULL && (size_t)got != n)) {
            return 0;
        }
        if (out != NULL) {
            out += n;
        }
        in += n;
        len -= n;
    }
    return 1;
}

/* Leaves the AEAD context holding the all-zero key's schedule and Poly1305 state. */
static void aead_forget(EVP_CIPHER_CTX *ctx)
{
    static const uint8_t zero_key[32] = {0}, zero_iv[12] = {0}, one_byte[1] = {0};
    int got = 0;

    if (EVP_CipherInit_ex2(ctx, NULL, zero_key, zero_iv, 1, NULL)) {
        (void)EVP_CipherUpdate(ctx, NULL, &got, one_byte, 1);
    }
}

/* One XChaCha20-Poly1305 operation: the subkey, then the AEAD over aad and in[0..len) into
 * out. Encrypting writes tag; decrypting checks it (OpenSSL compares in constant time) and
 * returns SC_ERR_AUTH on a mismatch. The caller wipes out on failure. */
static sc_status xchacha_run(xaead_state *x, int enc, uint8_t *out, uint8_t tag[16],
                             const uint8_t key[32], const uint8_t nonce[24], const uint8_t *aad,
                             size_t aad_len, const uint8_t *in, size_t len)
{
    uint8_t subkey[32], iv[12], scratch[16];
    sc_status rc = sc_openssl_hchacha20((sc_bstate *)(void *)x, subkey, key, nonce);
    int got = 0;

    memset(iv, 0, 4);
    memcpy(iv + 4, nonce + 16, 8);
    if (rc == SC_OK &&
        (!EVP_CipherInit_ex2(x->aead, NULL, subkey, iv, enc, NULL) ||
         !run_update(x->aead, NULL, aad, aad_len) || !run_update(x->aead, out, in, len))) {
        rc = SC_ERR_INTERNAL;
    }
    if (rc == SC_OK && enc &&
        (EVP_CipherFinal_ex(x->aead, scratch, &got) <= 0 ||
         !EVP_CIPHER_CTX_ctrl(x->aead, EVP_CTRL_AEAD_GET_TAG, 16, tag))) {
        rc = SC_ERR_INTERNAL;
    }
    if (rc == SC_OK && !enc) {
        if (!EVP_CIPHER_CTX_ctrl(x->aead, EVP_CTRL_AEAD_SET_TAG, 16, tag)) {
            rc = SC_ERR_INTERNAL;
        } else if (EVP_CipherFinal_ex(x->aead, scratch, &got) <= 0) {
            rc = SC_ERR_AUTH;
        }
    }
    aead_forget(x->aead);
    sc_mem_wipe(subkey, sizeof subkey);
    return rc;
}

static sc_status xaead_seal(sc_bstate *st, uint8_t *ct, uint8_t tag[16], const uint8_t key[32],
                            const uint8_t nonce[24], const uint8_t *aad, size_t aad_len,
                            const uint8_t *pt, size_t len)
{
    return xchacha_run((xaead_state *)(void *)st, 1, ct, tag, key, nonce, aad, aad_len, pt, len);
}

static sc_status xaead_open(sc_bstate *st, uint8_t *pt, const uint8_t key[32],
                            const uint8_t nonce[24], const uint8_t *aad, size_t aad_len,
                            const uint8_t *ct, size_t len, const uint8_t tag[16])
{
    uint8_t t[16];
    sc_status rc;

    memcpy(t, tag, sizeof t); /* OpenSSL takes a non-const tag */
    rc = xchacha_run((xaead_state *)(void *)st, 0, pt, t, key, nonce, aad, aad_len, ct, len);
    if (rc != SC_OK) {
        sc_mem_wipe(pt, len); /* OpenSSL decrypts before the tag is checked: release nothing */
    }
    return rc;
}

const sc_backend_xaead sc_openssl_xaead = {
    .size = sizeof(sc_backend_xaead),
    .lib = "openssl",
    .setup = xaead_setup,
    .teardown = xaead_teardown,
    .seal = xaead_seal,
    .open = xaead_open,
};
