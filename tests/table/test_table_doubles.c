/* Miswired test doubles: tables that wrap the default backend's groups but break one thing.
 * Context creation must refuse each with SC_ERR_BACKEND (its known-answer checks catch it),
 * while a faithful wrapper of the same group is accepted, so the refusal is due to the
 * miswiring and not to the wrapping. Also: RNG failures and teardown of partially set-up
 * contexts. */
#include "test_table.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const sc_backend *real; /* the default backend, whose groups the doubles wrap */

static void use_default(void)
{
    real = sc_backend_default();
}

/* Init must succeed with table t (the control), then clear. */
static void expect_init_ok(const sc_backend *t, const char *what)
{
    sc_ctx ctx;
    sc_status st = sc_ctx_init_table(&ctx, t);

    if (st != SC_OK) {
        fail_msg("%s: sc_ctx_init_table returned %s, expected SC_OK", what, sc_status_name(st));
    }
    sc_ctx_clear(&ctx);
}

/* ---- stream ---------------------------------------------------------------------------- */

static sc_status chacha_faithful(sc_bstate *st, uint8_t *out, const uint8_t *in, size_t len,
                                 const uint8_t key[32], const uint8_t nonce[12], uint32_t counter)
{
    return real->stream->chacha20_xor(st, out, in, len, key, nonce, counter);
}

static sc_status chacha_ignores_counter(sc_bstate *st, uint8_t *out, const uint8_t *in, size_t len,
                                        const uint8_t key[32], const uint8_t nonce[12],
                                        uint32_t counter)
{
    (void)counter;
    return real->stream->chacha20_xor(st, out, in, len, key, nonce, 0);
}

static sc_status chacha_counter_plus_one(sc_bstate *st, uint8_t *out, const uint8_t *in, size_t len,
                                         const uint8_t key[32], const uint8_t nonce[12],
                                         uint32_t counter)
{
    return real->stream->chacha20_xor(st, out, in, len, key, nonce, counter + 1);
}

static sc_status chacha_nonce_reversed(sc_bstate *st, uint8_t *out, const uint8_t *in, size_t len,
                                       const uint8_t key[32], const uint8_t nonce[12],
                                       uint32_t counter)
{
    uint8_t n[12];
    size_t i;

    for (i = 0; i < 12; i++) {
        n[i] = nonce[11 - i];
    }
    return real->stream->chacha20_xor(st, out, in, len, key, n, counter);
}

typedef sc_status (*chacha_fn)(sc_bstate *, uint8_t *, const uint8_t *, size_t, const uint8_t *,
                               const uint8_t *, uint32_t);

static void with_chacha(chacha_fn f, sc_status want, const char *what)
{
    sc_backend_stream g = *real->stream;
    sc_backend t = *real;

    g.chacha20_xor = f;
    t.stream = &g;
    if (want == SC_OK) {
        expect_init_ok(&t, what);
    } else {
        tt_expect_init_fails(&t, want, what);
    }
}

void test_miswired_stream(void **state)
{
    (void)state;
    use_default();
    assert_non_null(real->stream);
    with_chacha(chacha_faithful, SC_OK, "faithful chacha20 wrapper");
    with_chacha(chacha_ignores_counter, SC_ERR_BACKEND, "chacha20 that ignores the counter");
    with_chacha(chacha_counter_plus_one, SC_ERR_BACKEND, "chacha20 one block ahead");
    with_chacha(chacha_nonce_reversed, SC_ERR_BACKEND, "chacha20 with the nonce reversed");
}

/* ---- curve ----------------------------------------------------------------------------- */

static sc_ctx hash_helper; /* computes the SHA-256 a miswired ECDH returns */

static sc_status ecdh_faithful(sc_bstate *st, uint8_t x[32], const uint8_t sec[32],
                               const uint8_t pub[32])
{
    return real->curve->ecdh_x(st, x, sec, pub);
}

static sc_status ecdh_hashed(sc_bstate *st, uint8_t x[32], const uint8_t sec[32],
                             const uint8_t pub[32])
{
    uint8_t raw[32];
    sc_status s = real->curve->ecdh_x(st, raw, sec, pub);

    if (s == SC_OK) {
        s = sc_crypto_sha256(&hash_helper, x, raw,
                             32); /* the libsecp256k1 default, wrong for NIP-44 */
    }
    return s;
}

static sc_status ecdh_ignores_secret(sc_bstate *st, uint8_t x[32], const uint8_t sec[32],
                                     const uint8_t pub[32])
{
    uint8_t two[32];

    (void)sec;
    memset(two, 0, 32);
    two[31] = 2;
    return real->curve->ecdh_x(st, x, two, pub);
}

static sc_status verify_always(sc_bstate *st, const uint8_t sig[64], const uint8_t *msg,
                               size_t msg_len, const uint8_t pub[32])
{
    (void)real->curve->verify(st, sig, msg, msg_len, pub);
    return SC_OK;
}

static sc_status sign_flips_s(sc_bstate *st, uint8_t sig[64], const sc_curve_keypair *kp,
                              const uint8_t *msg, size_t msg_len, const uint8_t aux[32])
{
    sc_status s = real->curve->sign(st, sig, kp, msg, msg_len, aux);

    sig[63] ^= 0x01;
    return s;
}

static void with_curve(const sc_backend_curve *g, sc_status want, const char *what)
{
    sc_backend t = *real;

    t.curve = g;
    if (want == SC_OK) {
        expect_init_ok(&t, what);
    } else {
        tt_expect_init_fails(&t, want, what);
    }
}

int tt_hash_helper_setup(void **state)
{
    (void)state;
    return sc_ctx_init(&hash_helper, NULL) == SC_OK ? 0 : -1;
}

int tt_hash_helper_teardown(void **state)
{
    (void)state;
    sc_ctx_clear(&hash_helper);
    return 0;
}

void test_miswired_curve(void **state)
{
    sc_backend_curve g;

    (void)state;
    use_default();
    assert_non_null(real->curve);
    g = *real->curve;
    g.ecdh_x = ecdh_faithful;
    with_curve(&g, SC_OK, "faithful ecdh wrapper");
    g.ecdh_x = ecdh_hashed;
    with_curve(&g, SC_ERR_BACKEND, "ecdh that returns SHA-256 of x");
    g.ecdh_x = ecdh_ignores_secret;
    with_curve(&g, SC_ERR_BACKEND, "ecdh that ignores the secret key");
    g = *real->curve;
    g.verify = verify_always;
    with_curve(&g, SC_ERR_BACKEND, "verify that accepts everything");
    g = *real->curve;
    g.sign = sign_flips_s;
    with_curve(&g, SC_ERR_BACKEND, "sign that flips a bit of s");
}

/* ---- mac ------------------------------------------------------------------------------- */

static sc_status hmac_faithful(sc_bstate *st, uint8_t out[32], const uint8_t *key, size_t key_len,
                               const sc_iov *parts, size_t n_parts)
{
    return real->mac->hmac_sha256(st, out, key, key_len, parts, n_parts);
}

static sc_status hmac_drops_last_part(sc_bstate *st, uint8_t out[32], const uint8_t *key,
                                      size_t key_len, const sc_iov *parts, size_t n_parts)
{
    return real->mac->hmac_sha256(st, out, key, key_len, parts, n_parts > 1 ? n_parts - 1 : 1);
}

static sc_status hmac_ignores_key(sc_bstate *st, uint8_t out[32], const uint8_t *key,
                                  size_t key_len, const sc_iov *parts, size_t n_parts)
{
    (void)key;
    (void)key_len;
    return real->mac->hmac_sha256(st, out, (const uint8_t *)"", 0, parts, n_parts);
}

typedef sc_status (*hmac_fn)(sc_bstate *, uint8_t *, const uint8_t *, size_t, const sc_iov *,
                             size_t);

static void with_hmac(hmac_fn f, sc_status want, const char *what)
{
    sc_backend_mac g = *real->mac;
    sc_backend t = *real;

    g.hmac_sha256 = f;
    t.mac = &g;
    if (want == SC_OK) {
        expect_init_ok(&t, what);
    } else {
        tt_expect_init_fails(&t, want, what);
    }
}

void test_miswired_mac(void **state)
{
    (void)state;
    use_default();
    assert_non_null(real->mac);
    with_hmac(hmac_faithful, SC_OK, "faithful hmac wrapper");
    with_hmac(hmac_drops_last_part, SC_ERR_BACKEND, "hmac that drops the last part");
    with_hmac(hmac_ignores_key, SC_ERR_BACKEND, "hmac that ignores the key");
}

/* ---- hash ------------------------------------------------------------------------------ */

static sc_status sha_appends_byte(sc_bstate *st, uint8_t out[32], const uint8_t *in, size_t len)
{
    sc_sha256_state s;
    sc_status r = real->hash->init(st, &s);

    if (r == SC_OK) {
        r = real->hash->update(st, &s, in, len);
    }
    if (r == SC_OK) {
        r = real->hash->update(st, &s, (const uint8_t *)"\0", 1);
    }
    if (r == SC_OK) {
        r = real->hash->final(st, &s, out);
    }
    return r;
}

static sc_status final_appends_byte(sc_bstate *st, sc_sha256_state *s, uint8_t out[32])
{
    sc_status r = real->hash->update(st, s, (const uint8_t *)"\0", 1);

    return r == SC_OK ? real->hash->final(st, s, out) : r;
}

static sc_status update_skips_single_bytes(sc_bstate *st, sc_sha256_state *s, const uint8_t *in,
                                           size_t len)
{
    return len == 1 ? SC_OK : real->hash->update(st, s, in, len);
}

void test_miswired_hash(void **state)
{
    sc_backend_hash g;
    sc_backend t;

    (void)state;
    use_default();
    assert_non_null(real->hash);
    t = *real;
    t.hash = &g;
    g = *real->hash;
    expect_init_ok(&t, "unchanged hash group copy");
    g.sha256 = sha_appends_byte;
    tt_expect_init_fails(&t, SC_ERR_BACKEND, "one-shot sha256 that appends a byte");
    g = *real->hash;
    g.final = final_appends_byte;
    tt_expect_init_fails(&t, SC_ERR_BACKEND, "incremental sha256 that appends a byte");
    g = *real->hash;
    g.update = update_skips_single_bytes;
    tt_expect_init_fails(&t, SC_ERR_BACKEND, "sha256 update that drops 1-byte updates");
}

/* ---- aead ------------------------------------------------------------------------------ */

static sc_status seal_flips_tag(sc_bstate *st, uint8_t *ct, uint8_t tag[16], const uint8_t key[32],
                                const uint8_t *iv, size_t iv_len, const uint8_t *aad,
                                size_t aad_len, const uint8_t *pt, size_t len)
{
    sc_status s = real->aead->seal(st, ct, tag, key, iv, iv_len, aad, aad_len, pt, len);

    tag[0] ^= 0x01;
    return s;
}

static sc_status open_accepts_any_tag(sc_bstate *st, uint8_t *pt, const uint8_t key[32],
                                      const uint8_t *iv, size_t iv_len, const uint8_t *aad,
                                      size_t aad_len, const uint8_t *ct, size_t len,
                                      const uint8_t tag[16])
{
    sc_status s = real->aead->open(st, pt, key, iv, iv_len, aad, aad_len, ct, len, tag);

    return s == SC_ERR_AUTH ? SC_OK : s;
}

static sc_status finish_flips_tag(sc_bstate *st, int decrypt, uint8_t tag[16])
{
    sc_status s;

    if (decrypt) {
        return real->aead->final(st, decrypt, tag);
    }
    s = real->aead->final(st, decrypt, tag);
    tag[15] ^= 0x80;
    return s;
}

static sc_status update_skips_first_block(sc_bstate *st, uint8_t *out, const uint8_t *in,
                                          size_t len)
{
    static int calls;

    /* keystream drift: every other call encrypts one extra throwaway block first */
    if (++calls % 2 == 1 && len >= 16) {
        uint8_t scratch[16];
        sc_status s = real->aead->update(st, scratch, in, 16);
        if (s != SC_OK) {
            return s;
        }
    }
    return real->aead->update(st, out, in, len);
}

void test_miswired_aead(void **state)
{
    const char *why = NULL;
    sc_backend_aead g;
    sc_backend t;
    int oneshot, stream;

    (void)state;
    use_default();
    if (real->aead == NULL) {
        printf("the default backend %s has no aead group\n", real->name);
        skip();
    }
    oneshot = real->aead->probe(SC_AEAD_ONESHOT, 12, &why) == SC_OK;
    stream = real->aead->probe(SC_AEAD_STREAM, 16, &why) == SC_OK;
    if (!oneshot && !stream) {
        printf("the default backend %s cannot run AES-GCM here: %s\n", real->name, why);
        skip();
    }
    t = *real;
    t.aead = &g;
    g = *real->aead;
    expect_init_ok(&t, "unchanged aead group copy");
    if (oneshot) {
        g.seal = seal_flips_tag;
        tt_expect_init_fails(&t, SC_ERR_BACKEND, "aead whose seal flips a tag bit");
        g = *real->aead;
        g.open = open_accepts_any_tag;
        tt_expect_init_fails(&t, SC_ERR_BACKEND, "aead whose open accepts any tag");
        g = *real->aead;
    }
    if (stream) {
        g.final = finish_flips_tag;
        tt_expect_init_fails(&t, SC_ERR_BACKEND, "aead whose streaming finish flips a tag bit");
        g = *real->aead;
        g.update = update_skips_first_block;
        tt_expect_init_fails(&t, SC_ERR_BACKEND, "aead whose streaming update drifts");
    }
}

/* ---- rng ------------------------------------------------------------------------------- */

static sc_status fill_fails(sc_bstate *st, uint8_t *out, size_t len)
{
    (void)st;
    memset(out, 0x11, len);
    return SC_ERR_RNG;
}

static sc_status fill_constant(sc_bstate *st, uint8_t *out, size_t len)
{
    (void)st;
    memset(out, 0x42, len);
    return SC_OK;
}

static sc_status fill_zero(sc_bstate *st, uint8_t *out, size_t len)
{
    (void)st;
    memset(out, 0, len);
    return SC_OK;
}

static sc_status rng_setup_nomem(sc_bstate **out)
{
    *out = NULL;
    return SC_ERR_NOMEM;
}

static void rng_teardown_none(sc_bstate *st)
{
    (void)st;
}

void test_rng_failures(void **state)
{
    sc_backend_rng g;
    sc_backend t;

    (void)state;
    use_default();
    assert_non_null(real->rng);
    assert_non_null(real->curve);
    t = *real;
    t.rng = &g;
    /* the curve context is seeded from the RNG first: its failure surfaces as SC_ERR_RNG */
    g = *real->rng;
    g.fill = fill_fails;
    tt_expect_init_fails(&t, SC_ERR_RNG, "rng that fails (with a curve group)");
    /* without a curve group the RNG self-test catches it */
    t.curve = NULL;
    tt_expect_init_fails(&t, SC_ERR_BACKEND, "rng that fails (no curve group)");
    t.curve = real->curve;
    g.fill = fill_constant;
    tt_expect_init_fails(&t, SC_ERR_BACKEND, "rng that repeats itself");
    g.fill = fill_zero;
    tt_expect_init_fails(&t, SC_ERR_BACKEND, "rng that returns zeros");
    /* a setup failure is passed through as is */
    g = *real->rng;
    g.setup = rng_setup_nomem;
    g.teardown = rng_teardown_none;
    tt_expect_init_fails(&t, SC_ERR_NOMEM, "rng whose setup runs out of memory");
}

/* ---- teardown of partially set-up contexts --------------------------------------------- */

typedef struct wrap_state {
    sc_bstate *inner;
} wrap_state;

static size_t hash_setups, hash_teardowns;

static sc_bstate *inner_of(sc_bstate *st)
{
    return ((wrap_state *)(void *)st)->inner;
}

static sc_status counting_hash_setup(sc_bstate **out)
{
    wrap_state *w = calloc(1, sizeof *w);
    sc_status s = SC_OK;

    *out = NULL;
    if (w == NULL) {
        return SC_ERR_NOMEM;
    }
    if (real->hash->setup != NULL) {
        s = real->hash->setup(&w->inner);
    }
    if (s != SC_OK) {
        free(w);
        return s;
    }
    hash_setups++;
    *out = (sc_bstate *)(void *)w;
    return SC_OK;
}

static void counting_hash_teardown(sc_bstate *st)
{
    wrap_state *w = (wrap_state *)(void *)st;

    if (real->hash->teardown != NULL) {
        real->hash->teardown(w->inner);
    }
    free(w);
    hash_teardowns++;
}

static sc_status wrapped_sha256(sc_bstate *st, uint8_t out[32], const uint8_t *in, size_t len)
{
    return real->hash->sha256(inner_of(st), out, in, len);
}

static sc_status wrapped_init(sc_bstate *st, sc_sha256_state *s)
{
    return real->hash->init(inner_of(st), s);
}

static sc_status wrapped_update(sc_bstate *st, sc_sha256_state *s, const uint8_t *in, size_t len)
{
    return real->hash->update(inner_of(st), s, in, len);
}

static sc_status wrapped_final(sc_bstate *st, sc_sha256_state *s, uint8_t out[32])
{
    return real->hash->final(inner_of(st), s, out);
}

void test_teardown_on_failure(void **state)
{
    sc_backend_hash h;
    sc_backend_curve k;
    sc_backend t;
    sc_ctx ctx;

    (void)state;
    use_default();
    assert_non_null(real->hash);
    assert_non_null(real->curve);
    h = *real->hash;
    h.setup = counting_hash_setup;
    h.teardown = counting_hash_teardown;
    h.sha256 = wrapped_sha256;
    h.init = wrapped_init;
    h.update = wrapped_update;
    h.final = wrapped_final;
    t = *real;
    t.hash = &h;
    /* a good table: one setup, one teardown at clear */
    hash_setups = hash_teardowns = 0;
    VT_ASSERT_STATUS(sc_ctx_init_table(&ctx, &t), SC_OK);
    assert_int_equal(hash_setups, 1);
    assert_int_equal(hash_teardowns, 0);
    sc_ctx_clear(&ctx);
    assert_int_equal(hash_teardowns, 1);
    /* the curve (set up last) miswired: the hash state set up before it is torn down */
    k = *real->curve;
    k.ecdh_x = ecdh_ignores_secret;
    t.curve = &k;
    hash_setups = hash_teardowns = 0;
    tt_expect_init_fails(&t, SC_ERR_BACKEND, "miswired curve after a counted hash group");
    assert_int_equal(hash_setups, 1);
    assert_int_equal(hash_teardowns, 1);
}

/* ---- xaead and scrypt (ABI 2.2) --------------------------------------------------------- */

static sc_status xseal_faithful(sc_bstate *st, uint8_t *ct, uint8_t tag[16], const uint8_t key[32],
                                const uint8_t nonce[24], const uint8_t *aad, size_t aad_len,
                                const uint8_t *pt, size_t len)
{
    return real->xaead->seal(st, ct, tag, key, nonce, aad, aad_len, pt, len);
}

static sc_status xseal_drops_aad(sc_bstate *st, uint8_t *ct, uint8_t tag[16], const uint8_t key[32],
                                 const uint8_t nonce[24], const uint8_t *aad, size_t aad_len,
                                 const uint8_t *pt, size_t len)
{
    (void)aad;
    (void)aad_len;
    return real->xaead->seal(st, ct, tag, key, nonce, NULL, 0, pt, len);
}

/* The IETF nonce's 8 bytes taken from the front: HChaCha20 input and AEAD nonce overlap. */
static sc_status xseal_wrong_nonce_half(sc_bstate *st, uint8_t *ct, uint8_t tag[16],
                                        const uint8_t key[32], const uint8_t nonce[24],
                                        const uint8_t *aad, size_t aad_len, const uint8_t *pt,
                                        size_t len)
{
    uint8_t n[24];

    memcpy(n, nonce, 16);
    memcpy(n + 16, nonce, 8);
    return real->xaead->seal(st, ct, tag, key, n, aad, aad_len, pt, len);
}

static sc_status xopen_accepts_any_tag(sc_bstate *st, uint8_t *pt, const uint8_t key[32],
                                       const uint8_t nonce[24], const uint8_t *aad, size_t aad_len,
                                       const uint8_t *ct, size_t len, const uint8_t tag[16])
{
    uint8_t t[16];

    (void)tag;
    return real->xaead->seal(st, pt, t, key, nonce, aad, aad_len, ct, len); /* XOR: decrypts */
}

static void with_xaead(const sc_backend_xaead *g, sc_status want, const char *what)
{
    sc_backend t = *real;

    t.xaead = g;
    if (want == SC_OK) {
        expect_init_ok(&t, what);
    } else {
        tt_expect_init_fails(&t, want, what);
    }
}

void test_miswired_xaead(void **state)
{
    sc_backend_xaead g;

    (void)state;
    use_default();
    if (real->xaead == NULL) {
        printf("skipped: the default backend has no xaead group\n");
        skip();
    }
    g = *real->xaead;
    g.seal = xseal_faithful;
    with_xaead(&g, SC_OK, "xaead: faithful wrapper");
    g.seal = xseal_drops_aad;
    with_xaead(&g, SC_ERR_BACKEND, "xaead: seal drops the AAD");
    g.seal = xseal_wrong_nonce_half;
    with_xaead(&g, SC_ERR_BACKEND, "xaead: seal takes the wrong nonce bytes");
    g = *real->xaead;
    g.open = xopen_accepts_any_tag;
    with_xaead(&g, SC_ERR_BACKEND, "xaead: open accepts any tag");
}

static sc_status scrypt_faithful(sc_bstate *st, uint8_t *out, size_t out_len, const uint8_t *pw,
                                 size_t pw_len, const uint8_t *salt, size_t salt_len,
                                 unsigned log_n, uint32_t r, uint32_t p)
{
    return real->scrypt->scrypt(st, out, out_len, pw, pw_len, salt, salt_len, log_n, r, p);
}

static sc_status scrypt_swaps_r_p(sc_bstate *st, uint8_t *out, size_t out_len, const uint8_t *pw,
                                  size_t pw_len, const uint8_t *salt, size_t salt_len,
                                  unsigned log_n, uint32_t r, uint32_t p)
{
    return real->scrypt->scrypt(st, out, out_len, pw, pw_len, salt, salt_len, log_n, p, r);
}

static sc_status scrypt_swaps_inputs(sc_bstate *st, uint8_t *out, size_t out_len, const uint8_t *pw,
                                     size_t pw_len, const uint8_t *salt, size_t salt_len,
                                     unsigned log_n, uint32_t r, uint32_t p)
{
    return real->scrypt->scrypt(st, out, out_len, salt, salt_len, pw, pw_len, log_n, r, p);
}

static sc_status scrypt_log_n_off_by_one(sc_bstate *st, uint8_t *out, size_t out_len,
                                         const uint8_t *pw, size_t pw_len, const uint8_t *salt,
                                         size_t salt_len, unsigned log_n, uint32_t r, uint32_t p)
{
    return real->scrypt->scrypt(st, out, out_len, pw, pw_len, salt, salt_len, log_n + 1, r, p);
}

typedef sc_status (*scrypt_fn)(sc_bstate *, uint8_t *, size_t, const uint8_t *, size_t,
                               const uint8_t *, size_t, unsigned, uint32_t, uint32_t);

static void with_scrypt(scrypt_fn f, sc_status want, const char *what)
{
    sc_backend_scrypt g = *real->scrypt;
    sc_backend t = *real;

    g.scrypt = f;
    t.scrypt = &g;
    if (want == SC_OK) {
        expect_init_ok(&t, what);
    } else {
        tt_expect_init_fails(&t, want, what);
    }
}

void test_miswired_scrypt(void **state)
{
    (void)state;
    use_default();
    if (real->scrypt == NULL) {
        printf("skipped: the default backend has no scrypt group\n");
        skip();
    }
    with_scrypt(scrypt_faithful, SC_OK, "scrypt: faithful wrapper");
    with_scrypt(scrypt_swaps_r_p, SC_ERR_BACKEND, "scrypt: r and p swapped");
    with_scrypt(scrypt_swaps_inputs, SC_ERR_BACKEND, "scrypt: password and salt swapped");
    with_scrypt(scrypt_log_n_off_by_one, SC_ERR_BACKEND, "scrypt: N = 2^(log_n + 1)");
}
