/* The residue test's NIP-49 cases (residue.h): XChaCha20-Poly1305 seal, open and a refused
 * open; scrypt; NIP-49 encryption, decryption and a decryption under a wrong password. The
 * needles beyond the inputs are what a backend could keep of them: the HChaCha20 subkey, the
 * Poly1305 one-time key and the keystream of the last block under it; for scrypt the password
 * as an HMAC key (PBKDF2's), the first block of B = PBKDF2(password, salt) (from which
 * password guesses could be checked without scrypt's cost) and the derived key. They are
 * computed test-side from the ChaCha20 block of a reference context (HChaCha20 is the block
 * minus the initial state) and from its HMAC. */
#include "residue.h"

#include <stdio.h>
#include <string.h>

#define LOG_N 4 /* scrypt's cost in these cases: 16 KiB of working memory at r = 8 */
#define MSG_LEN 100

static uint32_t le32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static void put32(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)v;
    p[1] = (uint8_t)(v >> 8);
    p[2] = (uint8_t)(v >> 16);
    p[3] = (uint8_t)(v >> 24);
}

/* HChaCha20(key, in[0..16)) through ref's ChaCha20: one block at counter le32(in) with nonce
 * in[4..16), minus the initial state's constants and input words. */
static int ref_hchacha(sc_ctx *ref, uint8_t sub[32], const uint8_t key[32], const uint8_t in[16])
{
    static const uint32_t sigma[4] = {0x61707865u, 0x3320646eu, 0x79622d32u, 0x6b206574u};
    uint8_t block[64];
    size_t i;
    int ok;

    memset(block, 0, sizeof block);
    ok = sc_crypto_chacha20_xor(ref, block, block, sizeof block, key, in + 4, le32(in)) == SC_OK;
    for (i = 0; i < 4; i++) {
        put32(sub + 4 * i, le32(block + 4 * i) - sigma[i]);
        put32(sub + 16 + 4 * i, le32(block + 48 + 4 * i) - le32(in + 4 * i));
    }
    RT_WIPE(block);
    return ok;
}

/* Needles of XChaCha20-Poly1305 under key and nonce over len bytes (len <= 128): the key,
 * the subkey, the Poly1305 key (block 0 under the subkey) and the last keystream block. */
static int add_xaead(rs_set *s, sc_ctx *ref, const uint8_t key[32], const uint8_t nonce[24],
                     size_t len)
{
    uint8_t sub[32], n12[12], blocks[3 * 64];
    size_t last = 1 + (len - 1) / 64;
    int ok = len >= 1 && len <= 128 && ref_hchacha(ref, sub, key, nonce);

    memset(n12, 0, 4);
    memcpy(n12 + 4, nonce + 16, 8);
    memset(blocks, 0, sizeof blocks);
    ok = ok && sc_crypto_chacha20_xor(ref, blocks, blocks, sizeof blocks, sub, n12, 0) == SC_OK;
    if (ok) {
        rs_add(s, "XChaCha20 key", key, 32);
        rs_add(s, "HChaCha20 subkey", sub, 32);
        rs_add(s, "Poly1305 key", blocks, 32);
        rs_add(s, "keystream, last block", blocks + 64 * last, 64);
    }
    RT_WIPE(sub);
    RT_WIPE(blocks);
    return ok;
}

static void case_xaead(rt *t, const char *name, int op)
{
    static uint8_t key[32], nonce[24], aad[5], pt[MSG_LEN], ct[MSG_LEN], tag[16], out[MSG_LEN];
    rs_set *s = rt_case(t, name);
    sc_status st, want = SC_OK;
    sc_ctx ref;
    int ok;

    if (s == NULL || !rt_has(t, name, SC_CAP_XCHACHA20POLY1305) ||
        !rt_has(t, name, SC_CAP_CHACHA20_COUNTER)) {
        return;
    }
    rt_fresh(key, sizeof key);
    rt_fresh(nonce, sizeof nonce);
    rt_fresh(aad, sizeof aad);
    rt_fresh(pt, sizeof pt);
    if (!rt_ref_begin(t, name, &ref)) {
        return;
    }
    ok = add_xaead(s, &ref, key, nonce, sizeof pt) &&
         sc_crypto_xchacha20poly1305_seal(&ref, ct, tag, key, nonce, aad, sizeof aad, pt,
                                          sizeof pt) == SC_OK;
    rt_ref_end(&ref);
    rs_add(s, "plaintext", pt, sizeof pt);
    if (!ok) {
        rt_fail(t, name, "reference XChaCha20-Poly1305 failed");
        return;
    }
    if (!RT_CONTROL(t, name, s, RS_LIVE(key), RS_LIVE(pt))) {
        return;
    }
    if (op == 0) {
        st = sc_crypto_xchacha20poly1305_seal(&t->ctx, out, tag, key, nonce, aad, sizeof aad, pt,
                                              sizeof pt);
    } else {
        if (op == 2) {
            tag[0] ^= 1;
            want = SC_ERR_AUTH;
        }
        st = sc_crypto_xchacha20poly1305_open(&t->ctx, out, key, nonce, aad, sizeof aad, ct,
                                              sizeof ct, tag);
    }
    RT_WIPE(key);
    RT_WIPE(pt);
    RT_WIPE(out);
    rt_verdict(t, name, st, want, s);
}

/* Needles of scrypt(password, salt, 2^LOG_N, 8, 1) into dk: the password (as PBKDF2's HMAC
 * key), the first 32 bytes of B = PBKDF2-HMAC-SHA256(password, salt, 1) and dk itself. */
static int add_scrypt(rs_set *s, sc_ctx *ref, uint8_t dk[32], const uint8_t *pw, size_t pw_len,
                      const uint8_t *salt, size_t salt_len)
{
    static const uint8_t one[4] = {0, 0, 0, 1};
    uint8_t b1[32];
    sc_iov parts[2];
    int ok;

    parts[0].data = salt;
    parts[0].len = salt_len;
    parts[1].data = one;
    parts[1].len = sizeof one;
    ok = sc_crypto_hmac_sha256(ref, b1, pw, pw_len, parts, 2) == SC_OK &&
         sc_crypto_scrypt(ref, dk, 32, pw, pw_len, salt, salt_len, LOG_N, 8, 1) == SC_OK &&
         rt_add_hmac_key(s, ref, "password", pw, pw_len);
    if (ok) {
        rs_add(s, "scrypt B, first block", b1, 32);
        rs_add(s, "scrypt key", dk, 32);
        rs_add_words(s, "scrypt key", dk, 32);
    }
    RT_WIPE(b1);
    return ok;
}

static void case_scrypt(rt *t)
{
    static const char *name = "scrypt (log_n 4, r 8, p 1)";
    static uint8_t pw[24], salt[16], dk[32], out[32];
    rs_set *s = rt_case(t, name);
    sc_status st;
    sc_ctx ref;
    int ok;

    if (s == NULL || !rt_has(t, name, SC_CAP_SCRYPT)) {
        return;
    }
    rt_fresh(pw, sizeof pw);
    rt_fresh(salt, sizeof salt);
    if (!rt_ref_begin(t, name, &ref)) {
        return;
    }
    ok = add_scrypt(s, &ref, dk, pw, sizeof pw, salt, sizeof salt);
    rt_ref_end(&ref);
    RT_WIPE(dk);
    if (!ok) {
        rt_fail(t, name, "reference scrypt failed");
        return;
    }
    if (!RT_CONTROL(t, name, s, RS_LIVE(pw))) {
        return;
    }
    st = sc_crypto_scrypt(&t->ctx, out, sizeof out, pw, sizeof pw, salt, sizeof salt, LOG_N, 8, 1);
    RT_WIPE(pw);
    RT_WIPE(out);
    rt_verdict(t, name, st, SC_OK, s);
}

/* NIP-49: 0 encrypt, 1 decrypt, 2 decrypt under a wrong password. The secret key, the
 * password, its scrypt key and the XChaCha20-Poly1305 needles under that key must all be gone
 * after the call (under a wrong password: both passwords' keys). */
static void case_nip49(rt *t, const char *name, int op)
{
    static uint8_t sec[32], back[32], salt[16], nonce[24], key[32], wrong_key[32];
    static char pw[25], wrong[25], text[SC_NIP49_LEN];
    rs_set *s = rt_case(t, name);
    size_t n = 0;
    sc_status st, want = op == 2 ? SC_ERR_AUTH : SC_OK;
    sc_ctx ref;
    int ok;

    if (s == NULL || !rt_has(t, name, SC_CAP_SCRYPT) ||
        !rt_has(t, name, SC_CAP_XCHACHA20POLY1305) || !rt_has(t, name, SC_CAP_CHACHA20_COUNTER)) {
        return;
    }
    rt_fresh_key(sec);
    rt_fresh_text(pw, 24);
    rt_fresh_text(wrong, 24);
    rt_fresh(salt, sizeof salt);
    rt_fresh(nonce, sizeof nonce);
    if (!rt_ref_begin(t, name, &ref)) {
        return;
    }
    ok = add_scrypt(s, &ref, key, (const uint8_t *)pw, 24, salt, sizeof salt) &&
         add_xaead(s, &ref, key, nonce, 32) &&
         sc_nip49_encrypt_with_rand(&ref, text, sizeof text, &n, sec, pw, 24, LOG_N,
                                    SC_NIP49_KEY_SECURE, salt, nonce) == SC_OK;
    if (ok && op == 2) {
        ok = add_scrypt(s, &ref, wrong_key, (const uint8_t *)wrong, 24, salt, sizeof salt) &&
             add_xaead(s, &ref, wrong_key, nonce, 32);
    }
    rt_ref_end(&ref);
    rs_add(s, "secret key", sec, 32);
    RT_WIPE(key);
    RT_WIPE(wrong_key);
    if (!ok) {
        rt_fail(t, name, "reference NIP-49 failed");
        return;
    }
    if (!RT_CONTROL(t, name, s, RS_LIVE(sec), RS_LIVE(pw), RS_LIVE(wrong))) {
        return;
    }
    if (op == 0) {
        st = sc_nip49_encrypt_with_rand(&t->ctx, text, sizeof text, &n, sec, pw, 24, LOG_N,
                                        SC_NIP49_KEY_SECURE, salt, nonce);
    } else {
        st = sc_nip49_decrypt(&t->ctx, back, NULL, text, n, op == 2 ? wrong : pw, 24);
    }
    RT_WIPE(sec);
    RT_WIPE(back);
    RT_WIPE(pw);
    RT_WIPE(wrong);
    rt_verdict(t, name, st, want, s);
}

void rt_nip49_cases(rt *t)
{
    case_xaead(t, "xchacha20poly1305_seal", 0);
    case_xaead(t, "xchacha20poly1305_open", 1);
    case_xaead(t, "xchacha20poly1305_open (wrong tag)", 2);
    case_scrypt(t);
    case_nip49(t, "nip49_encrypt", 0);
    case_nip49(t, "nip49_decrypt", 1);
    case_nip49(t, "nip49_decrypt (wrong password)", 2);
}
