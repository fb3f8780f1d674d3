/* Differential: the same input through every compiled backend (sc_backend_at over
 * sc_backend_count), which must agree exactly: the same status and the same output bytes.
 * Input: [op][operands...]; op % 14 chooses the call:
 *   0 SHA-256 (one-shot and incremental)   7 NIP-44 conversation key
 *   1 HMAC-SHA256 over two parts           8 NIP-44 decrypt of a raw payload
 *   2 HKDF extract + expand                9 NIP-44 decrypt of a forged payload (valid MAC)
 *   3 ChaCha20 with any counter           10 NIP-44 encrypt with an explicit nonce
 *   4 AES-256-GCM seal + open, any IV     11 event parse + verify, and signing
 *   5 identity import + BIP-340 sign      12 NIP-59 unwrap of a fuzzed rumor in valid layers
 *   6 BIP-340 verify of fuzzer bytes      13 streaming attachment decryption
 * Where a backend lacks a capability (sc_backend_has, or an AES-GCM IV length its library
 * cannot do), it must say SC_ERR_UNSUPPORTED, and the others must still agree. */
#include "fuzz_common.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAXB 8

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    fz_setup();
    return 0;
}

static void disagree(size_t i, const char *what, sc_status a, sc_status b)
{
    char msg[200];

    snprintf(msg, sizeof msg, "backends %s and %s disagree on %s (%s vs %s)",
             sc_backend_at(0)->name, sc_backend_at(i)->name, what, sc_status_name(a),
             sc_status_name(b));
    fz_fail(__FILE__, __LINE__, msg);
}

/* Requires backend i to match the reference (the first backend that ran). */
static void same(size_t i, const char *what, sc_status st0, sc_status st, const void *out0,
                 const void *out, size_t n)
{
    if (st0 != st || (n != 0 && memcmp(out0, out, n) != 0)) {
        disagree(i, what, st0, st);
    }
}

static int has(size_t i, sc_cap cap)
{
    return sc_backend_has(sc_backend_at(i), cap, NULL) == SC_OK;
}

/* ---- primitives ----------------------------------------------------------------------------- */

static void op_sha256(fz_in *in)
{
    size_t split = fz_u8(in), i, len = in->n;
    uint8_t d0[32], d[32], di[32];
    sc_sha256_state s;

    if (split > len) {
        split = len;
    }
    for (i = 0; i < fz_backends(); i++) {
        sc_ctx *ctx = fz_ctx(i);
        sc_status st = sc_crypto_sha256(ctx, d, in->p, len);

        FZ_REQUIRE(st == SC_OK);
        FZ_REQUIRE(sc_crypto_sha256_init(ctx, &s) == SC_OK);
        FZ_REQUIRE(sc_crypto_sha256_update(ctx, &s, in->p, split) == SC_OK);
        FZ_REQUIRE(sc_crypto_sha256_update(ctx, &s, in->p + split, len - split) == SC_OK);
        FZ_REQUIRE(sc_crypto_sha256_final(ctx, &s, di) == SC_OK);
        FZ_REQUIRE(memcmp(d, di, 32) == 0);
        if (i == 0) {
            memcpy(d0, d, 32);
        }
        same(i, "sha256", SC_OK, st, d0, d, 32);
    }
}

static void op_hmac(fz_in *in)
{
    size_t key_len = 0, split = fz_u8(in), i;
    const uint8_t *key = fz_take(in, fz_u8(in), &key_len);
    uint8_t m0[32], m[32];
    sc_status st0 = SC_OK;
    sc_iov parts[2];

    if (split > in->n) {
        split = in->n;
    }
    parts[0].data = in->p;
    parts[0].len = split;
    parts[1].data = in->p + split;
    parts[1].len = in->n - split;
    for (i = 0; i < fz_backends(); i++) {
        sc_status st =
            sc_crypto_hmac_sha256(fz_ctx(i), m, key_len != 0 ? key : NULL, key_len, parts, 2);
        if (i == 0) {
            st0 = st;
            memcpy(m0, m, 32);
        }
        same(i, "hmac_sha256", st0, st, m0, m, 32);
    }
    FZ_REQUIRE(st0 == SC_OK);
}

static void op_hkdf(fz_in *in)
{
    size_t salt_len = 0, ikm_len = 0, info_len = 0, okm_len, i;
    const uint8_t *salt = fz_take(in, fz_u8(in), &salt_len);
    const uint8_t *ikm = fz_take(in, fz_u8(in), &ikm_len);
    const uint8_t *info;
    uint8_t prk0[32], prk[32];
    uint8_t *okm0, *okm;
    sc_status st0 = SC_OK, sx0 = SC_OK;

    okm_len = fz_u16(in) % 8200;
    info = fz_take(in, in->n, &info_len);
    okm0 = fz_alloc(okm_len);
    okm = fz_alloc(okm_len);
    for (i = 0; i < fz_backends(); i++) {
        sc_ctx *ctx = fz_ctx(i);
        sc_status sx = sc_crypto_hkdf_extract(ctx, prk, salt_len ? salt : NULL, salt_len,
                                              ikm_len ? ikm : NULL, ikm_len);
        sc_status st;

        memset(okm, FZ_CANARY, okm_len ? okm_len : 1);
        st = sc_crypto_hkdf_expand(ctx, okm, okm_len, prk, 32, info_len ? info : NULL, info_len);
        if (i == 0) {
            sx0 = sx;
            st0 = st;
            memcpy(prk0, prk, 32);
            memcpy(okm0, okm, okm_len ? okm_len : 1);
        }
        same(i, "hkdf_extract", sx0, sx, prk0, prk, 32);
        same(i, "hkdf_expand", st0, st, okm0, okm, okm_len ? okm_len : 1);
    }
    FZ_REQUIRE(sx0 == SC_OK);
    FZ_STATUS_IN(st0, SC_OK, SC_ERR_ARG);
    FZ_REQUIRE((st0 == SC_OK) == (okm_len >= 1 && okm_len <= 8160));
    free(okm0);
    free(okm);
}

static void op_chacha(fz_in *in)
{
    uint8_t key[32], nonce[12];
    uint32_t counter;
    size_t len, i, ref = (size_t)-1;
    uint8_t *out0, *out;
    sc_status st0 = SC_OK;

    fz_bytes(in, key, 32);
    fz_bytes(in, nonce, 12);
    counter = fz_u32(in);
    if (counter & 0x80000000u) {
        counter |= 0xffffff00u; /* near the wrap, where the bound matters */
    }
    len = in->n;
    out0 = fz_alloc(len);
    out = fz_alloc(len);
    for (i = 0; i < fz_backends(); i++) {
        sc_status st;

        memset(out, FZ_CANARY, len ? len : 1);
        st = sc_crypto_chacha20_xor(fz_ctx(i), len ? out : NULL, len ? in->p : NULL, len, key,
                                    nonce, counter);
        if (counter != 0 && !has(i, SC_CAP_CHACHA20_COUNTER)) {
            /* this library starts at block 0 only: it refuses, writing nothing */
            FZ_STATUS_IN(st, SC_ERR_UNSUPPORTED, SC_ERR_TOO_LARGE);
            FZ_REQUIRE(fz_all_zero(out, len));
            continue;
        }
        if (ref == (size_t)-1) {
            ref = i;
            st0 = st;
            memcpy(out0, out, len ? len : 1);
        }
        same(i, "chacha20", st0, st, out0, out, len ? len : 1);
    }
    if (ref == (size_t)-1) {
        free(out0);
        free(out);
        return; /* no compiled backend takes a nonzero counter */
    }
    FZ_STATUS_IN(st0, SC_OK, SC_ERR_TOO_LARGE);
    FZ_REQUIRE((st0 == SC_OK) == ((uint64_t)counter + (len + 63) / 64 <= ((uint64_t)1 << 32)));
    if (st0 != SC_OK) {
        FZ_REQUIRE(fz_all_zero(out0, len));
    }
    free(out0);
    free(out);
}

static void op_gcm(fz_in *in)
{
    uint8_t key[32], iv[40], tag[16], tag0[16], flip;
    size_t iv_len = fz_u8(in) % 41, aad_len = 0, len, i, ref = (size_t)-1;
    const uint8_t *aad;
    uint8_t *ct0, *ct, *pt;
    sc_status st0 = SC_OK, so0 = SC_OK;

    fz_bytes(in, key, 32);
    fz_bytes(in, iv, iv_len);
    flip = fz_u8(in);
    aad = fz_take(in, fz_u8(in), &aad_len);
    len = in->n;
    ct0 = fz_alloc(len);
    ct = fz_alloc(len);
    pt = fz_alloc(len);
    for (i = 0; i < fz_backends(); i++) {
        sc_ctx *ctx = fz_ctx(i);
        sc_status st, so;

        if (!has(i, SC_CAP_AES256GCM)) {
            sc_status su =
                sc_crypto_aes256gcm_seal(ctx, len ? ct : NULL, tag, key, iv, iv_len,
                                         aad_len ? aad : NULL, aad_len, len ? in->p : NULL, len);
            FZ_REQUIRE(su == (iv_len == 0 ? SC_ERR_ARG : SC_ERR_UNSUPPORTED));
            continue;
        }
        st = sc_crypto_aes256gcm_seal(ctx, len ? ct : NULL, tag, key, iv, iv_len,
                                      aad_len ? aad : NULL, aad_len, len ? in->p : NULL, len);
        if (iv_len == 12) {
            FZ_REQUIRE(st == SC_OK);
        } else if (iv_len == 16 && has(i, SC_CAP_AES256GCM_IV16)) {
            FZ_REQUIRE(st == SC_OK);
        }
        if (st == SC_ERR_UNSUPPORTED) {
            FZ_REQUIRE(iv_len != 12);
            continue; /* this library's limit on IV lengths */
        }
        if (flip & 1) {
            tag[(flip >> 1) & 15] ^= (uint8_t)(1u << (flip >> 5));
        }
        so = sc_crypto_aes256gcm_open(ctx, len ? pt : NULL, key, iv, iv_len, aad_len ? aad : NULL,
                                      aad_len, len ? ct : NULL, len, tag);
        if (ref == (size_t)-1) {
            ref = i;
            st0 = st;
            so0 = so;
            memcpy(ct0, ct, len ? len : 1);
            memcpy(tag0, tag, 16);
        }
        same(i, "aes256gcm_seal", st0, st, ct0, ct, len);
        same(i, "aes256gcm_seal tag", st0, st, tag0, tag, 16);
        same(i, "aes256gcm_open", so0, so, NULL, NULL, 0);
        if (st == SC_OK) {
            if (flip & 1) {
                FZ_REQUIRE(so == SC_ERR_AUTH && fz_all_zero(pt, len));
            } else {
                FZ_REQUIRE(so == SC_OK && (len == 0 || memcmp(pt, in->p, len) == 0));
            }
        } else {
            FZ_REQUIRE(st == SC_ERR_ARG && iv_len == 0);
        }
    }
    free(ct0);
    free(ct);
    free(pt);
}

static void op_identity(fz_in *in)
{
    uint8_t sec[32], msg[32], aux[32], pub0[32], pub[32], sig0[64], sig[64];
    sc_status si0 = SC_OK, ss0 = SC_OK;
    size_t i;

    fz_bytes(in, sec, 32);
    fz_bytes(in, msg, 32);
    fz_bytes(in, aux, 32);
    if (sec[0] & 0x80) {
        memset(sec, 0xff, 16); /* near and above the group order */
    }
    for (i = 0; i < fz_backends(); i++) {
        sc_ctx *ctx = fz_ctx(i);
        sc_identity id;
        sc_status si = sc_identity_import(ctx, &id, sec), ss = SC_ERR_STATE;

        memset(pub, 0, 32);
        memset(sig, 0, 64);
        if (si == SC_OK) {
            FZ_REQUIRE(sc_identity_pubkey(pub, &id) == SC_OK);
            ss = sc_identity_sign_with_rand(ctx, sig, &id, msg, aux);
            FZ_REQUIRE(ss == SC_OK);
            FZ_REQUIRE(sc_identity_verify(ctx, sig, msg, pub) == SC_OK);
        }
        if (i == 0) {
            si0 = si;
            ss0 = ss;
            memcpy(pub0, pub, 32);
            memcpy(sig0, sig, 64);
        }
        same(i, "identity_import", si0, si, pub0, pub, 32);
        same(i, "identity_sign_with_rand", ss0, ss, sig0, sig, 64);
        /* a signature made on another backend verifies here */
        if (si == SC_OK) {
            FZ_REQUIRE(sc_identity_verify(ctx, sig0, msg, pub0) == SC_OK);
        }
        sc_identity_clear(&id);
    }
    FZ_STATUS_IN(si0, SC_OK, SC_ERR_INVALID_KEY);
}

static void op_verify(fz_in *in)
{
    uint8_t sig[64], msg[32], pub[32];
    sc_status st0 = SC_OK;
    size_t i;

    fz_bytes(in, sig, 64);
    fz_bytes(in, msg, 32);
    fz_bytes(in, pub, 32);
    for (i = 0; i < fz_backends(); i++) {
        sc_status st = sc_identity_verify(fz_ctx(i), sig, msg, pub);

        if (i == 0) {
            st0 = st;
        }
        same(i, "identity_verify", st0, st, NULL, NULL, 0);
    }
    FZ_STATUS_IN(st0, SC_OK, SC_ERR_INVALID_SIG);
}

static void op_conv(fz_in *in)
{
    uint8_t sec[32], pub[32], ck0[32], ck[32];
    sc_status st0 = SC_OK;
    size_t i;

    fz_bytes(in, sec, 32);
    fz_bytes(in, pub, 32);
    if (in->n > 0 && (in->p[0] & 1)) {
        memcpy(pub, fz_pub(in->p[0] >> 1), 32); /* a key on the curve */
    }
    for (i = 0; i < fz_backends(); i++) {
        sc_status st = sc_nip44_conversation_key(fz_ctx(i), ck, sec, pub);

        if (i == 0) {
            st0 = st;
            memcpy(ck0, ck, 32);
        }
        same(i, "nip44_conversation_key", st0, st, ck0, ck, 32);
    }
    FZ_STATUS_IN(st0, SC_OK, SC_ERR_INVALID_KEY);
}

/* ---- protocol calls ------------------------------------------------------------------------ */

static void decrypt_all(const uint8_t ck[32], const char *payload, size_t plen)
{
    size_t cap = sc_nip44_decrypt_max(plen), len0 = 0, len, i;
    uint8_t *out0 = fz_alloc(cap), *out = fz_alloc(cap);
    sc_status st0 = SC_OK;

    for (i = 0; i < fz_backends(); i++) {
        sc_status st;

        memset(out, FZ_CANARY, cap ? cap : 1);
        len = 7;
        st = sc_nip44_decrypt(fz_ctx(i), cap ? out : NULL, cap, &len, ck, payload, plen, 0);
        if (i == 0) {
            st0 = st;
            len0 = len;
            memcpy(out0, out, cap ? cap : 1);
        }
        same(i, "nip44_decrypt", st0, st, out0, out, cap ? cap : 1);
        FZ_REQUIRE(len == len0);
    }
    free(out0);
    free(out);
}

static void op_nip44_raw(fz_in *in)
{
    uint8_t ck[32];
    char *payload;

    fz_bytes(in, ck, 32);
    payload = (char *)fz_dup(in->p, in->n);
    decrypt_all(ck, payload, in->n);
    free(payload);
}

static void op_nip44_forged(fz_in *in)
{
    uint8_t nonce[32];
    size_t buf_len = 0, plen = 0;
    const uint8_t *buf;
    char *payload;

    fz_bytes(in, nonce, 32);
    buf = fz_take(in, in->n, &buf_len);
    payload = fz_nip44_forge(fz_ctx(0), fz_conv(1, 0), nonce, 2, buf, buf_len, &plen);
    FZ_REQUIRE(payload != NULL);
    decrypt_all(fz_conv(0, 1), payload, plen);
    free(payload);
}

static void op_nip44_encrypt(fz_in *in)
{
    uint8_t ck[32], nonce[32];
    size_t need, len, got0 = 0, got, i;
    char *out0, *out;
    sc_status st0 = SC_OK;

    fz_bytes(in, ck, 32);
    fz_bytes(in, nonce, 32);
    len = in->n;
    need = sc_nip44_encrypt_len(len);
    out0 = (char *)fz_alloc(need);
    out = (char *)fz_alloc(need);
    for (i = 0; i < fz_backends(); i++) {
        sc_status st;

        got = 7;
        st = sc_nip44_encrypt_with_rand(fz_ctx(i), need ? out : NULL, need, &got, ck, nonce,
                                        len ? in->p : NULL, len, 0);
        if (i == 0) {
            st0 = st;
            got0 = got;
            memcpy(out0, out, need ? need : 1);
        }
        same(i, "nip44_encrypt_with_rand", st0, st, out0, out, need ? need : 1);
        FZ_REQUIRE(got == got0);
    }
    FZ_STATUS_IN(st0, SC_OK, SC_ERR_EMPTY);
    if (st0 == SC_OK) {
        decrypt_all(ck, out0, got0);
    }
    free(out0);
    free(out);
}

static void op_event(fz_in *in)
{
    size_t cap = sc_event_parse_arena_max(in->n), used = 0, i, need, got = 0;
    uint8_t *arena = fz_alloc(cap), aux[32];
    sc_event ev, signed_ev;
    sc_event_parse_opts po;
    char *json0 = NULL, *json;
    sc_status st0 = SC_OK, ss0 = SC_OK;

    memset(&po, 0, sizeof po);
    po.optional = SC_EVENT_HAS_ALL;
    if (sc_event_parse(&ev, arena, cap, &used, (const char *)in->p, in->n, &po) != SC_OK) {
        free(arena);
        return;
    }
    memset(aux, 7, sizeof aux);
    for (i = 0; i < fz_backends(); i++) {
        sc_ctx *ctx = fz_ctx(i);
        sc_status st = (ev.flags & (SC_EVENT_HAS_ID | SC_EVENT_HAS_PUBKEY | SC_EVENT_HAS_SIG)) ==
                               (SC_EVENT_HAS_ID | SC_EVENT_HAS_PUBKEY | SC_EVENT_HAS_SIG)
                           ? sc_event_verify(ctx, &ev)
                           : SC_ERR_EVENT_FIELD;
        sc_status ss;

        if (i == 0) {
            st0 = st;
        }
        same(i, "event_verify", st0, st, NULL, NULL, 0);
        /* signing the parsed fields gives the same event everywhere */
        signed_ev = ev;
        ss = sc_event_sign_with_rand(ctx, &signed_ev, fz_id(1), aux);
        if (i == 0) {
            ss0 = ss;
        }
        same(i, "event_sign_with_rand", ss0, ss, NULL, NULL, 0);
        if (ss != SC_OK) {
            continue;
        }
        FZ_REQUIRE(sc_event_verify(ctx, &signed_ev) == SC_OK);
        need = sc_event_to_json_len(&signed_ev, SC_EVENT_JSON_OBJECT);
        json = (char *)fz_alloc(need);
        FZ_REQUIRE(sc_event_to_json(json, need, &got, &signed_ev, SC_EVENT_JSON_OBJECT) == SC_OK);
        if (i == 0) {
            json0 = json;
        } else {
            same(i, "event_sign_with_rand", SC_OK, SC_OK, json0, json, need);
            free(json);
        }
    }
    free(json0);
    free(arena);
}

static void op_unwrap(fz_in *in)
{
    static const uint8_t n1[32] = {1}, n2[32] = {2};
    size_t seal_len = 0, wrap_len = 0, cap, i, used0 = 0;
    char *seal, *wrap;
    sc_status st0 = SC_OK;
    sc_event r0;
    sc_nip59_info info0;
    uint8_t *a0 = NULL;

    seal = fz_layer(fz_ctx(0), in->p, in->n, 1, 0, SC_NIP59_KIND_SEAL, 1700000000, NULL, 0, n1,
                    &seal_len);
    if (seal == NULL) {
        return;
    }
    wrap = fz_layer(fz_ctx(0), (const uint8_t *)seal, seal_len, 2, 0, SC_NIP59_KIND_WRAP,
                    1700000001, NULL, 0, n2, &wrap_len);
    free(seal);
    if (wrap == NULL) {
        return;
    }
    cap = sc_nip59_unwrap_arena_max(wrap_len);
    for (i = 0; i < fz_backends(); i++) {
        uint8_t *a = fz_alloc(cap);
        sc_event r;
        sc_nip59_info info;
        size_t used = 0;
        sc_status st =
            sc_nip59_unwrap(fz_ctx(i), &r, &info, a, cap, &used, wrap, wrap_len, fz_id(0));

        if (i == 0) {
            st0 = st;
            r0 = r;
            info0 = info;
            used0 = used;
            a0 = a;
            continue;
        }
        same(i, "nip59_unwrap", st0, st, &info0, &info, sizeof info);
        FZ_REQUIRE(used == used0 && r.flags == r0.flags && fz_same_event(&r, &r0));
        free(a);
    }
    free(a0);
    free(wrap);
}

typedef struct sink_buf {
    uint8_t *p;
    size_t n, cap;
    int committed, discarded;
} sink_buf;

static sc_status sb_write(void *u, const uint8_t *d, size_t n)
{
    sink_buf *s = (sink_buf *)u;

    FZ_REQUIRE(s->n + n <= s->cap);
    memcpy(s->p + s->n, d, n);
    s->n += n;
    return SC_OK;
}

static sc_status sb_commit(void *u)
{
    ((sink_buf *)u)->committed++;
    return SC_OK;
}

static void sb_discard(void *u)
{
    ((sink_buf *)u)->discarded++;
}

static void op_file(fz_in *in)
{
    uint8_t key[32], iv[16], tag[16], x0[32], ox0[32], x[32], ox[32], flip = fz_u8(in);
    size_t len = in->n, blob_len = len + 16, i, n0 = 0, ref = (size_t)-1;
    uint8_t *blob = fz_alloc(blob_len), *got0 = fz_alloc(blob_len);
    sc_status st0 = SC_OK;

    memset(key, 0x42, sizeof key);
    memset(iv, 0x24, sizeof iv);
    FZ_REQUIRE(sc_crypto_aes256gcm_seal(fz_ctx(0), len ? blob : NULL, tag, key, iv, 16, NULL, 0,
                                        len ? in->p : NULL, len) == SC_OK);
    memcpy(blob + len, tag, 16);
    if (flip & 1) {
        blob[((size_t)flip >> 1) % blob_len] ^= 0x10;
    }
    for (i = 0; i < fz_backends(); i++) {
        sink_buf sb = {NULL, 0, 0, 0, 0};
        sc_file_sink sink = {NULL, sb_write, sb_commit, sb_discard};
        sc_file_dec d;
        sc_status st;

        if (!has(i, SC_CAP_AES256GCM_STREAM)) {
            FZ_REQUIRE(sc_file_decrypt_init(fz_ctx(i), &d, key, iv, 16, &sink) ==
                       SC_ERR_UNSUPPORTED);
            continue;
        }
        sb.cap = blob_len;
        sb.p = fz_alloc(blob_len);
        sink.user = &sb;
        FZ_REQUIRE(sc_file_decrypt_init(fz_ctx(i), &d, key, iv, 16, &sink) == SC_OK);
        st = sc_file_decrypt_update(&d, blob, blob_len / 2);
        if (st == SC_OK) {
            st = sc_file_decrypt_update(&d, blob + blob_len / 2, blob_len - blob_len / 2);
        }
        if (st == SC_OK) {
            st = sc_file_decrypt_final(&d, x, ox);
        }
        FZ_REQUIRE(sb.committed + sb.discarded == 1);
        if (ref == (size_t)-1) {
            ref = i;
            st0 = st;
            n0 = sb.n;
            memcpy(got0, sb.p, sb.n);
            memcpy(x0, x, 32);
            memcpy(ox0, ox, 32);
        }
        same(i, "file_decrypt", st0, st, x0, x, 32);
        same(i, "file_decrypt ox", st0, st, ox0, ox, 32);
        FZ_REQUIRE(sb.n == n0);
        same(i, "file_decrypt plaintext", st0, st, got0, sb.p, sb.n);
        free(sb.p);
    }
    FZ_REQUIRE(st0 == ((flip & 1) ? SC_ERR_AUTH : SC_OK));
    free(blob);
    free(got0);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fz_in in = {data, size};

    switch (fz_u8(&in) % 14) {
    case 0:
        op_sha256(&in);
        break;
    case 1:
        op_hmac(&in);
        break;
    case 2:
        op_hkdf(&in);
        break;
    case 3:
        op_chacha(&in);
        break;
    case 4:
        op_gcm(&in);
        break;
    case 5:
        op_identity(&in);
        break;
    case 6:
        op_verify(&in);
        break;
    case 7:
        op_conv(&in);
        break;
    case 8:
        op_nip44_raw(&in);
        break;
    case 9:
        op_nip44_forged(&in);
        break;
    case 10:
        op_nip44_encrypt(&in);
        break;
    case 11:
        op_event(&in);
        break;
    case 12:
        op_unwrap(&in);
        break;
    default:
        op_file(&in);
        break;
    }
    return 0;
}
