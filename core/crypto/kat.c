/* Known-answer checks, one per group, run when a context is created (and by
 * sc_ctx_selftest). They catch a miswired backend: swapped functions, a wrong counter
 * convention, a wrong IV layout, a hashed ECDH output. Values are from FIPS 180-4, RFC 4231,
 * RFC 8439 (A.1 and 2.3.2), NIST GCM test case 14, Wycheproof aes_gcm tcId 240, BIP-340 row 0,
 * draft-irtf-cfrg-xchacha-03 A.3.1, and an scrypt case with r != p and distinct password and
 * salt (computed with Python's hashlib, OpenSSL's scrypt, and matched by libsodium's).
 * */
#include <softchat/crypto.h>
#include <softchat/mem.h>
#include <softchat/hex.h>

#include <string.h>

#include "crypto/backend.h"
#include "crypto/dispatch.h"
#include "crypto/kat.h"
#include "ctx/ctx_internal.h"

static int eq_hex(const uint8_t *got, const char *hex, size_t n)
{
    uint8_t want[128];

    if (n > sizeof want || sc_hex_decode_fixed(want, n, hex, strlen(hex), 0) != SC_OK) {
        return 0;
    }
    return sc_mem_ct_compare(got, want, n) == 0;
}

/* Whether p[0..n) is all zero. */
static int all_zero(const uint8_t *p, size_t n)
{
    uint8_t acc = 0;
    size_t i;

    for (i = 0; i < n; i++) {
        acc |= p[i];
    }
    return acc == 0;
}

static sc_status kat_hash(sc_ctx *ctx)
{
    static const char abc_hex[] =
        "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad";
    sc_sha256_state s;
    uint8_t out[32];

    if (sc_crypto_sha256(ctx, out, (const uint8_t *)"abc", 3) != SC_OK ||
        !eq_hex(out, abc_hex, 32)) {
        return SC_ERR_BACKEND;
    }
    memset(out, 0, sizeof out);
    if (sc_crypto_sha256_init(ctx, &s) != SC_OK ||
        sc_crypto_sha256_update(ctx, &s, (const uint8_t *)"a", 1) != SC_OK ||
        sc_crypto_sha256_update(ctx, &s, (const uint8_t *)"bc", 2) != SC_OK ||
        sc_crypto_sha256_final(ctx, &s, out) != SC_OK || !eq_hex(out, abc_hex, 32)) {
        return SC_ERR_BACKEND;
    }
    return SC_OK;
}

static sc_status kat_mac(sc_ctx *ctx)
{
    /* RFC 4231 test case 2, message split in two parts */
    sc_iov parts[2];
    uint8_t out[32];

    parts[0].data = (const uint8_t *)"what do ya want ";
    parts[0].len = 16;
    parts[1].data = (const uint8_t *)"for nothing?";
    parts[1].len = 12;
    if (sc_crypto_hmac_sha256(ctx, out, (const uint8_t *)"Jefe", 4, parts, 2) != SC_OK ||
        !eq_hex(out, "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843", 32)) {
        return SC_ERR_BACKEND;
    }
    return SC_OK;
}

static sc_status kat_stream(sc_ctx *ctx, const sc_backend *b)
{
    /* RFC 8439 appendix A.1 test vector 1 (zero key and nonce, counter 0), then section 2.3.2
     * (block function output for counter 1) where the backend takes any counter; one that
     * starts at counter 0 only must refuse counter 1 as its probe says. */
    uint8_t key[32], nonce[12], ks[64];
    size_t i;
    sc_status st;

    memset(key, 0, sizeof key);
    memset(nonce, 0, sizeof nonce);
    memset(ks, 0, sizeof ks);
    if (sc_crypto_chacha20_xor(ctx, ks, ks, sizeof ks, key, nonce, 0) != SC_OK ||
        !eq_hex(ks,
                "76b8e0ada0f13d90405d6ae55386bd28bdd219b8a08ded1aa836efcc8b770dc7"
                "da41597c5157488d7724e03fb8d84a376a43b8f41518a11cc387b669b2ee6586",
                64)) {
        return SC_ERR_BACKEND;
    }
    for (i = 0; i < 32; i++) {
        key[i] = (uint8_t)i;
    }
    memcpy(nonce, "\x00\x00\x00\x09\x00\x00\x00\x4a\x00\x00\x00\x00", 12);
    memset(ks, 0, sizeof ks);
    st = sc_crypto_chacha20_xor(ctx, ks, ks, sizeof ks, key, nonce, 1);
    if (sc_backend_has(b, SC_CAP_CHACHA20_COUNTER, NULL) != SC_OK) {
        return st == SC_ERR_UNSUPPORTED ? SC_OK : SC_ERR_BACKEND;
    }
    if (st != SC_OK || !eq_hex(ks,
                               "10f1e7e4d13b5915500fdd1fa32071c4c7d1f4c733c068030422aa9ac3d46c4e"
                               "d2826446079faa0914c2d705d98b02a2b5129cd1de164eb9cbd083e8a2503c4e",
                               64)) {
        return SC_ERR_BACKEND;
    }
    return SC_OK;
}

/* One AES-256-GCM known answer, run in every mode and IV length the backend's probe admits. */
typedef struct gcm_kat {
    const char *key, *iv, *pt, *ct, *tag; /* hex */
} gcm_kat;

static const gcm_kat gcm_iv12 = {
    /* NIST GCM test case 14: zero key, zero 12-byte IV, one zero block */
    "0000000000000000000000000000000000000000000000000000000000000000", "000000000000000000000000",
    "00000000000000000000000000000000", "cea7403d4d606b6e074ec5d3baf39d18",
    "d0d1c8a799996bf0265b98b5d48ab919"};

static const gcm_kat gcm_iv16 = {
    /* Wycheproof aes_gcm tcId 240: 16-byte IV (J0 by GHASH), 40-byte zero message */
    "00112233445566778899aabbccddeeff102132435465768798a9bacbdcedfe0f",
    "5c2ea9b695fcf6e264b96074d6bfa572",
    "00000000000000000000000000000000000000000000000000000000000000000000000000000000",
    "28e1c5232f4ee8161dbe4c036309e0b3254e9212bef0a93431ce5e5604c8f6a73c18a3183018b770",
    "d5808a1bd11a01129bf3c6919aff2339"};

typedef struct gcm_bytes {
    uint8_t key[32], iv[16], pt[48];
    size_t iv_len, len;
} gcm_bytes;

static int gcm_load(gcm_bytes *b, const gcm_kat *k)
{
    b->iv_len = strlen(k->iv) / 2;
    b->len = strlen(k->pt) / 2;
    return sc_hex_decode_fixed(b->key, 32, k->key, 64, 0) == SC_OK &&
           sc_hex_decode_fixed(b->iv, b->iv_len, k->iv, 2 * b->iv_len, 0) == SC_OK &&
           sc_hex_decode_fixed(b->pt, b->len, k->pt, 2 * b->len, 0) == SC_OK;
}

static sc_status kat_gcm_oneshot(sc_ctx *ctx, const gcm_kat *k)
{
    gcm_bytes b;
    uint8_t ct[48], tag[16];

    if (!gcm_load(&b, k) ||
        sc_crypto_aes256gcm_seal(ctx, ct, tag, b.key, b.iv, b.iv_len, NULL, 0, b.pt, b.len) !=
            SC_OK ||
        !eq_hex(ct, k->ct, b.len) || !eq_hex(tag, k->tag, 16) ||
        sc_crypto_aes256gcm_open(ctx, ct, b.key, b.iv, b.iv_len, NULL, 0, ct, b.len, tag) !=
            SC_OK ||
        memcmp(ct, b.pt, b.len) != 0) {
        return SC_ERR_BACKEND;
    }
    tag[0] ^= 1;
    if (sc_crypto_aes256gcm_open(ctx, ct, b.key, b.iv, b.iv_len, NULL, 0, ct, b.len, tag) !=
        SC_ERR_AUTH) {
        return SC_ERR_BACKEND;
    }
    return SC_OK;
}

/* Streaming: encrypt in two updates (16 + rest), decrypt in one, check the tag both ways. */
static sc_status kat_gcm_stream(sc_ctx_impl *c, const gcm_kat *k)
{
    gcm_bytes b;
    uint8_t buf[48], tag[16];
    sc_status s;

    if (!gcm_load(&b, k)) {
        return SC_ERR_BACKEND;
    }
    s = sc_dispatch_aead_start(c, 0, b.key, b.iv, b.iv_len);
    if (s == SC_OK) {
        s = sc_dispatch_aead_update(c, buf, b.pt, 16);
    }
    if (s == SC_OK) {
        s = sc_dispatch_aead_update(c, buf + 16, b.pt + 16, b.len - 16);
    }
    if (s == SC_OK) {
        s = sc_dispatch_aead_final(c, 0, tag);
    }
    if (s != SC_OK || !eq_hex(buf, k->ct, b.len) || !eq_hex(tag, k->tag, 16)) {
        sc_dispatch_aead_abort(c);
        return SC_ERR_BACKEND;
    }
    s = sc_dispatch_aead_start(c, 1, b.key, b.iv, b.iv_len);
    if (s == SC_OK) {
        s = sc_dispatch_aead_update(c, buf, buf, b.len);
    }
    if (s == SC_OK) {
        s = sc_dispatch_aead_final(c, 1, tag);
    }
    if (s != SC_OK || memcmp(buf, b.pt, b.len) != 0) {
        sc_dispatch_aead_abort(c);
        return SC_ERR_BACKEND;
    }
    tag[0] ^= 1;
    s = sc_dispatch_aead_start(c, 1, b.key, b.iv, b.iv_len);
    if (s == SC_OK) {
        s = sc_dispatch_aead_update(c, buf, buf, b.len);
    }
    s = (s == SC_OK) ? sc_dispatch_aead_final(c, 1, tag) : s;
    if (s != SC_ERR_AUTH) {
        sc_dispatch_aead_abort(c);
        return SC_ERR_BACKEND;
    }
    return SC_OK;
}

static sc_status kat_aead(sc_ctx *ctx)
{
    static const gcm_kat *const kats[2] = {&gcm_iv12, &gcm_iv16};
    sc_ctx_impl *c = sc_ctx_impl_get(ctx);
    const char *why = NULL;
    int any = 0;
    size_t i;

    for (i = 0; i < 2; i++) {
        size_t iv_len = strlen(kats[i]->iv) / 2;

        if ((c->flags & SC_CTXF_AEAD_BUSY) != 0) {
            return SC_ERR_STATE; /* a streaming operation holds the aead state */
        }
        if (sc_dispatch_aead_probe(c, SC_AEAD_ONESHOT, iv_len, &why) == SC_OK) {
            any = 1;
            if (kat_gcm_oneshot(ctx, kats[i]) != SC_OK) {
                return SC_ERR_BACKEND;
            }
        }
        if (sc_dispatch_aead_probe(c, SC_AEAD_STREAM, iv_len, &why) == SC_OK) {
            any = 1;
            if (kat_gcm_stream(c, kats[i]) != SC_OK) {
                return SC_ERR_BACKEND;
            }
        }
    }
    return any ? SC_OK : SC_ERR_UNSUPPORTED;
}

static sc_status kat_rng(sc_ctx *ctx)
{
    static const uint8_t zero[32] = {0};
    uint8_t a[32], b[32];
    sc_status st = SC_ERR_BACKEND;

    if (sc_crypto_rng_fill(ctx, a, sizeof a) == SC_OK &&
        sc_crypto_rng_fill(ctx, b, sizeof b) == SC_OK && memcmp(a, b, sizeof a) != 0 &&
        memcmp(a, zero, sizeof a) != 0) {
        st = SC_OK;
    }
    sc_mem_wipe(a, sizeof a);
    sc_mem_wipe(b, sizeof b);
    return st;
}

static sc_status kat_curve(sc_ctx *ctx)
{
    /* BIP-340 test vector row 0: sec = 3, aux = 0, msg = 0 */
    static const char pub0[] = "f9308a019258c31049344f85f89d5229b531c845836f99b08601f113bce036f9";
    sc_curve_keypair kp;
    uint8_t sec[32], one[32], zero[32], pub[32], sig[64], x[32];
    sc_status rc = SC_ERR_BACKEND;

    memset(sec, 0, sizeof sec);
    memset(one, 0, sizeof one);
    memset(zero, 0, sizeof zero);
    sec[31] = 3;
    one[31] = 1;
    if (sc_dispatch_curve_keypair(ctx, &kp, pub, sec) != SC_OK || !eq_hex(pub, pub0, 32)) {
        goto out;
    }
    if (sc_dispatch_curve_sign(ctx, sig, &kp, zero, 32, zero) != SC_OK ||
        !eq_hex(sig,
                "e907831f80848d1069a5371b402410364bdf1c5f8307b0084c55f1ce2dca8215"
                "25f66a4a85ea8b71e482a74f382d2ce5ebeee8fdb2172f477df4900d310536c0",
                64)) {
        goto out;
    }
    if (sc_dispatch_curve_verify(ctx, sig, zero, 32, pub) != SC_OK) {
        goto out;
    }
    sig[63] ^= 1;
    if (sc_dispatch_curve_verify(ctx, sig, zero, 32, pub) != SC_ERR_INVALID_SIG) {
        goto out;
    }
    /* ECDH with scalar 1 returns the raw (unhashed) x coordinate of the point itself */
    if (sc_dispatch_curve_ecdh_x(ctx, x, one, pub) != SC_OK || !eq_hex(x, pub0, 32) ||
        sc_dispatch_curve_ecdh_x(ctx, x, zero, pub) != SC_ERR_INVALID_KEY ||
        sc_dispatch_curve_keypair(ctx, &kp, pub, zero) != SC_ERR_INVALID_KEY) {
        goto out;
    }
    rc = SC_OK;
out:
    sc_mem_wipe(&kp, sizeof kp);
    sc_mem_wipe(sec, sizeof sec);
    return rc;
}

/* draft-irtf-cfrg-xchacha-03 A.3.1: the 114-byte "sunscreen" message with 12 bytes of AAD. A
 * wrong HChaCha20 input layout, a dropped AAD or a swapped nonce half changes the tag. */
static sc_status kat_xaead(sc_ctx *ctx)
{
    static const char pt[] = "Ladies and Gentlemen of the class of '99: If I could offer you "
                             "only one tip for the future, sunscreen would be it.";
    static const char ct_hex[] =
        "bd6d179d3e83d43b9576579493c0e939572a1700252bfaccbed2902c21396cbb731c7f1b0b4aa6440bf3a82f4e"
        "da7e39ae64c6708c54c216cb96b72e1213b4522f8c9ba40db5d945b11b69b982c1bb9e3f3fac2bc369488f76b2"
        "383565d3fff921f9664c97637da9768812f615c68b13b52e";
    uint8_t key[32], nonce[24], aad[12], buf[sizeof pt - 1], tag[16];
    size_t i;

    for (i = 0; i < 32; i++) {
        key[i] = (uint8_t)(0x80 + i);
    }
    for (i = 0; i < 24; i++) {
        nonce[i] = (uint8_t)(0x40 + i);
    }
    memcpy(aad, "\x50\x51\x52\x53\xc0\xc1\xc2\xc3\xc4\xc5\xc6\xc7", 12);
    if (sc_crypto_xchacha20poly1305_seal(ctx, buf, tag, key, nonce, aad, sizeof aad,
                                         (const uint8_t *)pt, sizeof buf) != SC_OK ||
        !eq_hex(buf, ct_hex, sizeof buf) || !eq_hex(tag, "c0875924c1c7987947deafd8780acf49", 16) ||
        sc_crypto_xchacha20poly1305_open(ctx, buf, key, nonce, aad, sizeof aad, buf, sizeof buf,
                                         tag) != SC_OK ||
        memcmp(buf, pt, sizeof buf) != 0) {
        return SC_ERR_BACKEND;
    }
    aad[0] ^= 1;
    if (sc_crypto_xchacha20poly1305_seal(ctx, buf, tag, key, nonce, aad, sizeof aad, buf,
                                         sizeof buf) != SC_OK ||
        sc_crypto_xchacha20poly1305_open(ctx, buf, key, nonce, aad, sizeof aad, buf, sizeof buf,
                                         tag) != SC_OK) {
        return SC_ERR_BACKEND;
    }
    tag[15] ^= 1;
    if (sc_crypto_xchacha20poly1305_open(ctx, buf, key, nonce, aad, sizeof aad, buf, sizeof buf,
                                         tag) != SC_ERR_AUTH ||
        !all_zero(buf, sizeof buf)) {
        return SC_ERR_BACKEND;
    }
    return SC_OK;
}

/* scrypt with N = 16, r = 2, p = 3 (a swap of r and p, of password and salt, or N taken for
 * log_n changes the output), then RFC 7914 section 12's first case (empty password and salt). */
static sc_status kat_scrypt(sc_ctx *ctx)
{
    uint8_t out[64];

    if (sc_crypto_scrypt(ctx, out, 32, (const uint8_t *)"pleaseletmein", 13,
                         (const uint8_t *)"SodiumChloride", 14, 4, 2, 3) != SC_OK ||
        !eq_hex(out, "f8704c6373807949c687b195f3a823685a23668aff03a1770bcde755442148a4", 32) ||
        sc_crypto_scrypt(ctx, out, 64, NULL, 0, NULL, 0, 4, 1, 1) != SC_OK ||
        !eq_hex(out,
                "77d6576238657b203b19ca42c18a0497f16b4844e3074ae8dfdffa3fede21442"
                "fcd0069ded0948f8326a753a0fc81f17e8d3e0fb2e0d3628cf35e20c38d18906",
                64)) {
        return SC_ERR_BACKEND;
    }
    return SC_OK;
}

sc_status sc_kat_group(sc_ctx *ctx, sc_group g)
{
    sc_ctx_impl *c = sc_ctx_impl_get(ctx);

    if (c == NULL) {
        return SC_ERR_STATE;
    }
    if (sc_backend_group_ptr(c->b, g) == NULL) {
        return SC_ERR_UNSUPPORTED;
    }
    switch (g) {
    case SC_GROUP_HASH:
        return kat_hash(ctx);
    case SC_GROUP_MAC:
        return kat_mac(ctx);
    case SC_GROUP_STREAM:
        return kat_stream(ctx, c->b);
    case SC_GROUP_AEAD:
        return kat_aead(ctx);
    case SC_GROUP_RNG:
        return kat_rng(ctx);
    case SC_GROUP_CURVE:
        return kat_curve(ctx);
    case SC_GROUP_XAEAD:
        return kat_xaead(ctx);
    case SC_GROUP_SCRYPT:
        return kat_scrypt(ctx);
    }
    return SC_ERR_ARG;
}
