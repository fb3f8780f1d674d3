/* The residue test for one backend (residue.h):
 *   test_residue --backend NAME [--seed N]
 * Cases of the primitive groups here (SHA-256 one-shot and streaming, HMAC with a short and a
 * long key, HKDF-Extract and -Expand, ChaCha20, AES-256-GCM seal, open and a refused open);
 * the protocol cases in residue_proto.c. Exit 0 when every case is clean, 1 otherwise, 2 when
 * the test cannot run. */
#define _DEFAULT_SOURCE 1 /* MAP_ANONYMOUS */

#include "residue.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "vt_rand.h"
#include "vt_secp.h"

static rt the_test; /* large: static, and scanned like any other data (the test wipes it) */

/* ---- the harness ------------------------------------------------------------------------- */

rs_set *rt_case(rt *t, const char *name)
{
    rs_set *s;

    if (t->cases == RT_MAX_CASES) {
        rt_fail(t, name, "too many cases (RT_MAX_CASES)");
        return NULL;
    }
    s = &t->sets[t->cases];
    t->names[t->cases++] = name;
    rs_set_clear(s);
    return s;
}

void rt_fail(rt *t, const char *name, const char *fmt, ...)
{
    va_list ap;

    printf("FAIL %s: ", name);
    va_start(ap, fmt);
    vprintf(fmt, ap);
    va_end(ap);
    printf("\n");
    fflush(stdout);
    t->failures++;
}

void rt_skip(const char *name, const char *why)
{
    printf("skip %s: %s\n", name, why);
    fflush(stdout);
}

int rt_has(rt *t, const char *name, sc_cap cap)
{
    const char *why = NULL;

    if (sc_backend_has(sc_ctx_backend(&t->ctx), cap, &why) == SC_OK) {
        return 1;
    }
    rt_skip(name, why != NULL ? why : "not provided by this backend");
    return 0;
}

static int scan_clean(rt *t, const char *name, const char *when, const rs_set *s,
                      const rs_range *live, size_t n_live)
{
    static rs_result r;

    if (s->overflow) {
        rt_fail(t, name, "the needle set is incomplete (a test bug)");
        return 0;
    }
    rs_scan_except(s, &r, live, n_live);
    if (r.error) {
        rt_fail(t, name, "cannot read /proc/self/maps");
        return 0;
    }
    if (r.hits != 0) {
        rt_fail(t, name, "%zu cop%s of secret material %s:", r.hits, r.hits == 1 ? "y" : "ies",
                when);
        rs_print_hits(s, &r, 12);
        return 0;
    }
    return 1;
}

int rt_control(rt *t, const char *name, const rs_set *s, const rs_range *live, size_t n_live)
{
    return scan_clean(t, name, "before the call (left by the test or the reference context)", s,
                      live, n_live);
}

void rt_verdict(rt *t, const char *name, sc_status st, sc_status want, const rs_set *s)
{
    if (st != want) {
        rt_fail(t, name, "returned %s, expected %s", sc_status_name(st), sc_status_name(want));
        return;
    }
    if (scan_clean(t, name, "after the call returned", s, NULL, 0)) {
        printf("ok   %s (%zu needles)\n", name, s->count);
        fflush(stdout);
    }
}

/* ---- secrets and reference computations ---------------------------------------------------- */

void rt_fresh(uint8_t *p, size_t n)
{
    vt_rand_bytes(p, n);
}

void rt_fresh_key(uint8_t sec[32])
{
    do {
        vt_rand_bytes(sec, 32);
    } while (!vt_secp_scalar_ok(sec));
}

void rt_fresh_text(char *p, size_t n)
{
    static const char hex[] = "0123456789abcdef";
    size_t i;

    for (i = 0; i < n; i++) {
        p[i] = hex[vt_rand_u64() & 15];
    }
}

int rt_ref_begin(rt *t, const char *name, sc_ctx *ref)
{
    sc_status st = sc_ctx_init(ref, t->backend);

    if (st != SC_OK) {
        rt_fail(t, name, "no reference context: %s", sc_status_name(st));
        return 0;
    }
    return 1;
}

void rt_ref_end(sc_ctx *ref)
{
    sc_ctx_clear(ref);
}

int rt_pub(rt *t, const char *name, sc_ctx *ref, uint8_t pub[32], const uint8_t sec[32])
{
    sc_identity id;
    sc_status st = sc_identity_import(ref, &id, sec);

    if (st == SC_OK) {
        st = sc_identity_pubkey(pub, &id);
    }
    sc_identity_clear(&id);
    if (st != SC_OK) {
        rt_fail(t, name, "reference public key: %s", sc_status_name(st));
        return 0;
    }
    return 1;
}

/* K0 of RFC 2104: the key, or its digest when longer than the block, zero-padded to 64. */
static int hmac_k0(sc_ctx *ref, uint8_t k0[64], size_t *k0_len, const uint8_t *key, size_t len)
{
    memset(k0, 0, 64);
    if (len > 64) {
        *k0_len = 32;
        return sc_crypto_sha256(ref, k0, key, len) == SC_OK;
    }
    memcpy(k0, key, len);
    *k0_len = len;
    return 1;
}

int rt_add_hmac_key(rs_set *s, sc_ctx *ref, const char *what, const uint8_t *key, size_t len)
{
    uint8_t k0[64], pad[64];
    char name[64];
    size_t n, i;
    int ok = hmac_k0(ref, k0, &n, key, len);

    if (ok) {
        rs_add(s, what, key, len);
        if (len > 64) {
            snprintf(name, sizeof name, "%s, hashed", what);
            rs_add(s, name, k0, 32);
        }
        for (i = 0; i < n; i++) {
            pad[i] = (uint8_t)(k0[i] ^ 0x36);
        }
        snprintf(name, sizeof name, "%s ^ ipad", what);
        rs_add(s, name, pad, n);
        for (i = 0; i < n; i++) {
            pad[i] = (uint8_t)(k0[i] ^ 0x5c);
        }
        snprintf(name, sizeof name, "%s ^ opad", what);
        rs_add(s, name, pad, n);
    }
    RT_WIPE(k0);
    RT_WIPE(pad);
    return ok;
}

int rt_add_hmac_inner(rs_set *s, sc_ctx *ref, const char *what, const uint8_t *key, size_t len,
                      const sc_iov *parts, size_t n_parts)
{
    sc_sha256_state h;
    uint8_t k0[64], inner[32];
    char name[64];
    size_t n, i;
    int ok = hmac_k0(ref, k0, &n, key, len);

    for (i = 0; i < 64; i++) {
        k0[i] ^= 0x36;
    }
    ok = ok && sc_crypto_sha256_init(ref, &h) == SC_OK &&
         sc_crypto_sha256_update(ref, &h, k0, 64) == SC_OK;
    for (i = 0; ok && i < n_parts; i++) {
        ok = sc_crypto_sha256_update(ref, &h, parts[i].data, parts[i].len) == SC_OK;
    }
    ok = ok && sc_crypto_sha256_final(ref, &h, inner) == SC_OK;
    if (ok) {
        snprintf(name, sizeof name, "%s inner digest", what);
        rs_add(s, name, inner, 32);
        rs_add_words(s, name, inner, 32);
    }
    RT_WIPE(k0);
    RT_WIPE(inner);
    sc_mem_wipe(&h, sizeof h);
    return ok;
}

int rt_add_hkdf_expand(rs_set *s, sc_ctx *ref, const char *what, uint8_t *okm, size_t okm_len,
                       const uint8_t *prk, size_t prk_len, const uint8_t *info, size_t info_len)
{
    char name[64];
    size_t i, blocks = (okm_len + 31) / 32;
    uint8_t counter;
    int ok;

    if (okm_len % 32 != 0) {
        return 0; /* whole blocks only: each block is a needle */
    }
    ok = sc_crypto_hkdf_expand(ref, okm, okm_len, prk, prk_len, info, info_len) == SC_OK &&
         rt_add_hmac_key(s, ref, what, prk, prk_len);
    for (i = 0; ok && i < blocks; i++) {
        sc_iov parts[3];

        counter = (uint8_t)(i + 1);
        parts[0].data = okm + (i == 0 ? 0 : 32 * (i - 1));
        parts[0].len = i == 0 ? 0 : 32;
        parts[1].data = info;
        parts[1].len = info_len;
        parts[2].data = &counter;
        parts[2].len = 1;
        snprintf(name, sizeof name, "%s T(%zu)", what, i + 1);
        rs_add(s, name, okm + 32 * i, 32);
        rs_add_words(s, name, okm + 32 * i, 32);
        ok = rt_add_hmac_inner(s, ref, name, prk, prk_len, parts, 3);
    }
    return ok;
}

int rt_add_conversation(rs_set *s, sc_ctx *ref, const char *what, uint8_t ck[32],
                        const uint8_t sec[32], const uint8_t pub[32])
{
    static const uint8_t salt[8] = {'n', 'i', 'p', '4', '4', '-', 'v', '2'};
    uint8_t x[32];
    char name[64];
    sc_iov part;
    int ok = vt_secp_ecdh_x(x, sec, pub) && sc_nip44_conversation_key(ref, ck, sec, pub) == SC_OK;

    part.data = x;
    part.len = 32;
    if (ok) {
        snprintf(name, sizeof name, "%s: secret key", what);
        rs_add(s, name, sec, 32);
        snprintf(name, sizeof name, "%s: ECDH x", what);
        rs_add(s, name, x, 32);
        snprintf(name, sizeof name, "%s: conversation key", what);
        rs_add(s, name, ck, 32);
        rs_add_words(s, name, ck, 32);
        snprintf(name, sizeof name, "%s: HKDF-Extract", what);
        ok = rt_add_hmac_inner(s, ref, name, salt, sizeof salt, &part, 1);
    }
    RT_WIPE(x);
    return ok;
}

/* The ChaCha20 keystream of one block into ks, made from block 0 (every backend starts
 * there; psa starts nowhere else) over zeroed blocks, which are wiped after. 1 on success. */
static int ref_keystream_block(sc_ctx *ref, uint8_t ks[64], const uint8_t key[32],
                               const uint8_t nonce[12], size_t block)
{
    static uint8_t buf[200000];
    size_t n = (block + 1) * 64;
    int ok = n <= sizeof buf;

    if (ok) {
        memset(buf, 0, n);
        ok = sc_crypto_chacha20_xor(ref, buf, buf, n, key, nonce, 0) == SC_OK;
        memcpy(ks, buf + block * 64, 64);
        sc_mem_wipe(buf, n);
    }
    return ok;
}

int rt_add_nip44_payload(rt *t, const char *name, rs_set *s, sc_ctx *ref, const uint8_t ck[32],
                         const char *payload, size_t payload_len, uint8_t *pt, size_t pt_cap,
                         size_t *pt_len)
{
    static uint8_t raw[200000], pad[200000];
    uint8_t okm[96], mac[32], ks[64];
    size_t raw_len = 0, ct_len, last, plen;
    sc_iov parts[2];
    int ok = 0;

    if (sc_base64_decode(raw, sizeof raw, &raw_len, payload, payload_len) != SC_OK ||
        raw_len < 1 + 32 + 34 + 32 || raw[0] != 2) {
        rt_fail(t, name, "not a NIP-44 v2 payload");
        goto out;
    }
    ct_len = raw_len - 65;
    if (!rt_add_hkdf_expand(s, ref, "message keys", okm, sizeof okm, ck, 32, raw + 1, 32) ||
        !rt_add_hmac_key(s, ref, "hmac key", okm + 44, 32)) {
        rt_fail(t, name, "reference message keys failed");
        goto out;
    }
    rs_add(s, "chacha20 key", okm, 32);
    parts[0].data = raw + 1;
    parts[0].len = 32;
    parts[1].data = raw + 33;
    parts[1].len = ct_len;
    /* the needles are the keys this payload was made with: its MAC and its plaintext */
    if (sc_crypto_hmac_sha256(ref, mac, okm + 44, 32, parts, 2) != SC_OK ||
        sc_mem_ct_compare(mac, raw + 33 + ct_len, 32) != 0 ||
        sc_crypto_chacha20_xor(ref, pad, raw + 33, ct_len, okm, okm + 32, 0) != SC_OK) {
        rt_fail(t, name, "the reference message keys do not reproduce the payload's MAC");
        goto out;
    }
    plen = ((size_t)pad[0] << 8) | pad[1];
    if (plen == 0 || plen + 2 > ct_len) {
        rt_fail(t, name, "the reference keys do not decrypt the payload");
        goto out;
    }
    if (!rt_add_hmac_inner(s, ref, "payload MAC", okm + 44, 32, parts, 2)) {
        rt_fail(t, name, "reference MAC failed");
        goto out;
    }
    /* the keystream of the last block: a backend's partial-block buffer */
    last = (ct_len - 1) / 64;
    if (!ref_keystream_block(ref, ks, okm, okm + 32, last)) {
        rt_fail(t, name, "reference keystream failed");
        goto out;
    }
    rs_add(s, "chacha20 keystream, last block", ks, 64);
    if (plen >= RS_PIECE) {
        rs_add(s, "plaintext", pad + 2, plen < 128 ? plen : 128);
    }
    if (pt != NULL) {
        if (plen > pt_cap) {
            rt_fail(t, name, "plaintext larger than the test's buffer");
            goto out;
        }
        memcpy(pt, pad + 2, plen);
        *pt_len = plen;
    }
    ok = 1;
out:
    sc_mem_wipe(raw, raw_len < sizeof raw ? raw_len : sizeof raw);
    sc_mem_wipe(pad, raw_len < sizeof pad ? raw_len : sizeof pad);
    RT_WIPE(okm);
    RT_WIPE(mac);
    RT_WIPE(ks);
    return ok;
}

/* ---- hash ---------------------------------------------------------------------------------- */

static void case_sha256(rt *t)
{
    static const char *name = "sha256 of a secret (one-shot)";
    static uint8_t msg[81], digest[32];
    rs_set *s = rt_case(t, name);
    sc_ctx ref;
    sc_status st;
    int ok;

    if (s == NULL || !rt_has(t, name, SC_CAP_SHA256)) {
        return;
    }
    rt_fresh(msg, sizeof msg); /* 81 bytes: a full block and a tail left in the block buffer */
    if (!rt_ref_begin(t, name, &ref)) {
        return;
    }
    ok = sc_crypto_sha256(&ref, digest, msg, sizeof msg) == SC_OK;
    rt_ref_end(&ref);
    rs_add(s, "message", msg, sizeof msg);
    rs_add(s, "digest", digest, 32);
    rs_add_words(s, "digest", digest, 32);
    RT_WIPE(digest);
    if (!ok || !RT_CONTROL(t, name, s, RS_LIVE(msg))) {
        RT_WIPE(msg);
        return;
    }
    st = sc_crypto_sha256(&t->ctx, digest, msg, sizeof msg);
    RT_WIPE(msg);
    RT_WIPE(digest);
    rt_verdict(t, name, st, SC_OK, s);
}

static void case_sha256_stream(rt *t)
{
    static const char *name = "sha256 of a secret (init/update/final)";
    static uint8_t msg[81], digest[32];
    static sc_sha256_state h;
    rs_set *s = rt_case(t, name);
    sc_ctx ref;
    sc_status st;
    int ok;

    if (s == NULL || !rt_has(t, name, SC_CAP_SHA256)) {
        return;
    }
    rt_fresh(msg, sizeof msg);
    if (!rt_ref_begin(t, name, &ref)) {
        return;
    }
    ok = sc_crypto_sha256(&ref, digest, msg, sizeof msg) == SC_OK;
    rt_ref_end(&ref);
    rs_add(s, "message", msg, sizeof msg);
    rs_add(s, "digest", digest, 32);
    rs_add_words(s, "digest", digest, 32);
    RT_WIPE(digest);
    if (!ok || !RT_CONTROL(t, name, s, RS_LIVE(msg))) {
        RT_WIPE(msg);
        return;
    }
    st = sc_crypto_sha256_init(&t->ctx, &h);
    if (st == SC_OK) {
        st = sc_crypto_sha256_update(&t->ctx, &h, msg, 50);
    }
    if (st == SC_OK) {
        st = sc_crypto_sha256_update(&t->ctx, &h, msg + 50, sizeof msg - 50);
    }
    if (st == SC_OK) {
        st = sc_crypto_sha256_final(&t->ctx, &h, digest);
    }
    RT_WIPE(msg);
    RT_WIPE(digest);
    sc_mem_wipe(&h, sizeof h); /* the caller's state: the test's to wipe */
    rt_verdict(t, name, st, SC_OK, s);
}

/* ---- mac ----------------------------------------------------------------------------------- */

static void case_hmac(rt *t, const char *name, size_t key_len)
{
    static uint8_t key[100], msg[70], mac[32];
    rs_set *s = rt_case(t, name);
    sc_iov parts[2];
    sc_ctx ref;
    sc_status st;
    int ok;

    if (s == NULL || !rt_has(t, name, SC_CAP_HMAC_SHA256)) {
        return;
    }
    rt_fresh(key, key_len);
    rt_fresh(msg, sizeof msg);
    parts[0].data = msg;
    parts[0].len = 20;
    parts[1].data = msg + 20;
    parts[1].len = sizeof msg - 20;
    if (!rt_ref_begin(t, name, &ref)) {
        return;
    }
    ok = rt_add_hmac_key(s, &ref, "key", key, key_len) &&
         rt_add_hmac_inner(s, &ref, "HMAC", key, key_len, parts, 2);
    rt_ref_end(&ref);
    rs_add(s, "message", msg, sizeof msg);
    if (!ok || !RT_CONTROL(t, name, s, RS_LIVE(key), RS_LIVE(msg))) {
        return;
    }
    st = sc_crypto_hmac_sha256(&t->ctx, mac, key, key_len, parts, 2);
    RT_WIPE(key);
    RT_WIPE(msg);
    RT_WIPE(mac);
    rt_verdict(t, name, st, SC_OK, s);
}

static void case_hkdf_extract(rt *t)
{
    static const char *name = "hkdf_extract";
    static const uint8_t salt[13] = "public salt";
    static uint8_t ikm[32], prk[32];
    rs_set *s = rt_case(t, name);
    sc_iov part;
    sc_ctx ref;
    sc_status st;
    int ok;

    if (s == NULL || !rt_has(t, name, SC_CAP_HMAC_SHA256)) {
        return;
    }
    rt_fresh(ikm, sizeof ikm);
    part.data = ikm;
    part.len = sizeof ikm;
    if (!rt_ref_begin(t, name, &ref)) {
        return;
    }
    ok = sc_crypto_hkdf_extract(&ref, prk, salt, sizeof salt, ikm, sizeof ikm) == SC_OK &&
         rt_add_hmac_inner(s, &ref, "extract", salt, sizeof salt, &part, 1);
    rt_ref_end(&ref);
    rs_add(s, "ikm", ikm, sizeof ikm);
    rs_add(s, "prk", prk, sizeof prk);
    rs_add_words(s, "prk", prk, sizeof prk);
    if (!ok || !RT_CONTROL(t, name, s, RS_LIVE(ikm), RS_LIVE(prk))) {
        return;
    }
    st = sc_crypto_hkdf_extract(&t->ctx, prk, salt, sizeof salt, ikm, sizeof ikm);
    RT_WIPE(ikm);
    RT_WIPE(prk);
    rt_verdict(t, name, st, SC_OK, s);
}

static void case_hkdf_expand(rt *t)
{
    static const char *name = "hkdf_expand (96 bytes)";
    static const uint8_t info[4] = "info";
    static uint8_t prk[32], okm[96];
    rs_set *s = rt_case(t, name);
    sc_ctx ref;
    sc_status st;
    int ok;

    if (s == NULL || !rt_has(t, name, SC_CAP_HMAC_SHA256)) {
        return;
    }
    rt_fresh(prk, sizeof prk);
    if (!rt_ref_begin(t, name, &ref)) {
        return;
    }
    ok = rt_add_hkdf_expand(s, &ref, "prk", okm, sizeof okm, prk, sizeof prk, info, sizeof info);
    rt_ref_end(&ref);
    RT_WIPE(okm);
    if (!ok || !RT_CONTROL(t, name, s, RS_LIVE(prk))) {
        return;
    }
    st = sc_crypto_hkdf_expand(&t->ctx, okm, sizeof okm, prk, sizeof prk, info, sizeof info);
    RT_WIPE(prk);
    RT_WIPE(okm);
    rt_verdict(t, name, st, SC_OK, s);
}

/* ---- stream -------------------------------------------------------------------------------- */

static void case_chacha20(rt *t)
{
    static const char *name = "chacha20_xor (100 bytes)";
    static uint8_t key[32], nonce[12], pt[100], ct[100], ks[64];
    rs_set *s = rt_case(t, name);
    uint32_t from;
    sc_ctx ref;
    sc_status st;
    int ok;

    if (s == NULL || !rt_has(t, name, SC_CAP_CHACHA20)) {
        return;
    }
    /* from block 1 where the backend can start there, else from block 0 (psa) */
    from = sc_backend_has(sc_ctx_backend(&t->ctx), SC_CAP_CHACHA20_COUNTER, NULL) == SC_OK;
    rt_fresh(key, sizeof key);
    rt_fresh(nonce, sizeof nonce);
    rt_fresh(pt, sizeof pt);
    if (!rt_ref_begin(t, name, &ref)) {
        return;
    }
    /* blocks from..from+1; the second is the partial one (36 of its 64 bytes used) */
    ok = ref_keystream_block(&ref, ks, key, nonce, from + 1);
    rt_ref_end(&ref);
    if (ok) {
        rs_add(s, "key", key, sizeof key);
        rs_add(s, "keystream, last block", ks, sizeof ks);
        rs_add(s, "plaintext", pt, sizeof pt);
    }
    RT_WIPE(ks);
    if (!ok) {
        rt_fail(t, name, "reference keystream failed");
        return;
    }
    if (!RT_CONTROL(t, name, s, RS_LIVE(key), RS_LIVE(pt))) {
        return;
    }
    st = sc_crypto_chacha20_xor(&t->ctx, ct, pt, sizeof pt, key, nonce, from);
    RT_WIPE(key);
    RT_WIPE(pt);
    rt_verdict(t, name, st, SC_OK, s);
}

/* ---- aead ---------------------------------------------------------------------------------- */

int rt_add_gcm(rs_set *s, sc_ctx *ref, const uint8_t key[32], const uint8_t *iv, size_t iv_len,
               size_t len)
{
    static uint8_t zeros[4096], ks[4096];
    uint8_t ek0[16], tag[16];
    size_t whole = (len + 15) / 16 * 16;
    int ok =
        whole <= sizeof ks &&
        sc_crypto_aes256gcm_seal(ref, NULL, ek0, key, iv, iv_len, NULL, 0, NULL, 0) == SC_OK &&
        sc_crypto_aes256gcm_seal(ref, ks, tag, key, iv, iv_len, NULL, 0, zeros, whole) == SC_OK;

    if (ok) {
        rs_add(s, "AES key", key, 32);
        rs_add(s, "E_K(J0)", ek0, 16);
        rs_add(s, "keystream, last block", ks + whole - 16, 16);
    }
    sc_mem_wipe(ks, whole <= sizeof ks ? whole : sizeof ks);
    RT_WIPE(ek0);
    RT_WIPE(tag);
    return ok;
}

static void case_gcm(rt *t, const char *name, int op)
{
    static uint8_t key[32], iv[12], aad[20], pt[100], ct[100], tag[16], out[100];
    rs_set *s = rt_case(t, name);
    sc_ctx ref;
    sc_status st, want = SC_OK;
    int ok;

    if (s == NULL || !rt_has(t, name, SC_CAP_AES256GCM)) {
        return;
    }
    rt_fresh(key, sizeof key);
    rt_fresh(iv, sizeof iv);
    rt_fresh(aad, sizeof aad);
    rt_fresh(pt, sizeof pt);
    if (!rt_ref_begin(t, name, &ref)) {
        return;
    }
    ok = rt_add_gcm(s, &ref, key, iv, sizeof iv, sizeof pt) &&
         sc_crypto_aes256gcm_seal(&ref, ct, tag, key, iv, sizeof iv, aad, sizeof aad, pt,
                                  sizeof pt) == SC_OK;
    rt_ref_end(&ref);
    rs_add(s, "plaintext", pt, sizeof pt);
    if (!ok || !RT_CONTROL(t, name, s, RS_LIVE(key), RS_LIVE(pt))) {
        return;
    }
    if (op == 0) {
        st = sc_crypto_aes256gcm_seal(&t->ctx, out, tag, key, iv, sizeof iv, aad, sizeof aad, pt,
                                      sizeof pt);
    } else {
        if (op == 2) {
            tag[0] ^= 1;
            want = SC_ERR_AUTH;
        }
        st = sc_crypto_aes256gcm_open(&t->ctx, out, key, iv, sizeof iv, aad, sizeof aad, ct,
                                      sizeof ct, tag);
    }
    RT_WIPE(key);
    RT_WIPE(pt);
    RT_WIPE(out);
    rt_verdict(t, name, st, want, s);
}

/* ---- the scanner's own check ----------------------------------------------------------------- */

/* The scanner finds a secret planted on the heap and in the middle of a large anonymous
 * mapping (the page-by-page path), and no longer finds it once wiped: otherwise a clean scan
 * would prove nothing in this build (a sanitizer's allocator, say). */
static int self_check(void)
{
    static rs_set one;
    static rs_result r;
    size_t big = (size_t)32 << 20;
    uint8_t secret[32];
    uint8_t *heap = malloc(100), *map;
    int ok;

    map = mmap(NULL, big, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (heap == NULL || map == MAP_FAILED) {
        free(heap);
        return 0;
    }
    rt_fresh(secret, sizeof secret);
    rs_set_clear(&one);
    rs_add(&one, "planted", secret, sizeof secret);
    memcpy(heap + 40, secret, sizeof secret);
    memcpy(map + big / 2 + 1000, secret, sizeof secret);
    RT_WIPE(secret);
    rs_scan(&one, &r);
    ok = !r.error && r.hits == 4; /* two windows, two places */
    sc_mem_wipe(heap, 100);
    sc_mem_wipe(map + big / 2, 4096);
    rs_scan(&one, &r);
    ok = ok && !r.error && r.hits == 0;
    free(heap);
    munmap(map, big);
    return ok;
}

/* ---- the run ------------------------------------------------------------------------------- */

/* After sc_ctx_clear, every case's needles at once (merged into as few sets as fit). */
static void final_scan(rt *t)
{
    static rs_set all;
    static rs_result r;
    size_t i = 0, dirty = 0;

    sc_ctx_clear(&t->ctx);
    while (i < t->cases) {
        rs_set_clear(&all);
        while (i < t->cases && rs_add_set(&all, &t->sets[i])) {
            i++;
        }
        rs_scan(&all, &r);
        if (r.error || r.hits != 0) {
            rt_fail(t, "after sc_ctx_clear", "%zu copies of the cases' secrets", r.hits);
            rs_print_hits(&all, &r, 12);
            dirty++;
        }
    }
    if (dirty == 0) {
        printf("ok   after sc_ctx_clear: no case's secrets anywhere (%zu cases)\n", t->cases);
    }
}

int main(int argc, char **argv)
{
    rt *t = &the_test;
    uint64_t seed = vt_rand_fresh_seed();
    static rs_result probe;
    static rs_set none;
    sc_status st;
    int i;

    for (i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--backend") == 0 && i + 1 < argc) {
            t->backend = argv[++i];
        } else if (strcmp(argv[i], "--seed") == 0 && i + 1 < argc) {
            seed = strtoull(argv[++i], NULL, 0);
        } else {
            fprintf(stderr, "usage: test_residue --backend NAME [--seed N]\n");
            return 2;
        }
    }
    vt_rand_seed(seed);
    rs_init(seed);
    st = sc_ctx_init(&t->ctx, t->backend);
    if (st != SC_OK) {
        fprintf(stderr, "test_residue: no context on %s: %s\n",
                t->backend != NULL ? t->backend : "(default)", sc_status_name(st));
        return 2;
    }
    rs_scan(&none, &probe);
    if (probe.error || probe.mappings == 0) {
        fprintf(stderr, "test_residue: cannot read this process's memory map\n");
        return 2;
    }
    if (!self_check()) {
        fprintf(stderr, "test_residue: the scan does not find a secret planted on the heap\n");
        return 2;
    }
    printf("residue %s (seed %llu): scanning %zu mappings, %zu KiB (%zu reservations left "
           "out)\n",
           sc_ctx_backend(&t->ctx)->name, (unsigned long long)seed, probe.mappings,
           probe.bytes / 1024, probe.skipped_reserved);
    fflush(stdout);

    case_sha256(t);
    case_sha256_stream(t);
    case_hmac(t, "hmac_sha256 (32-byte key)", 32);
    case_hmac(t, "hmac_sha256 (100-byte key)", 100);
    case_hkdf_extract(t);
    case_hkdf_expand(t);
    case_chacha20(t);
    case_gcm(t, "aes256gcm_seal", 0);
    case_gcm(t, "aes256gcm_open", 1);
    case_gcm(t, "aes256gcm_open (wrong tag)", 2);
    rt_identity_cases(t);
    rt_nip44_cases(t);
    rt_nip59_cases(t);
    rt_file_cases(t);
    rt_nip49_cases(t);
    final_scan(t);

    printf("%s: %d failure%s\n", t->failures == 0 ? "PASS" : "FAIL", t->failures,
           t->failures == 1 ? "" : "s");
    return t->failures == 0 ? 0 : 1;
}
