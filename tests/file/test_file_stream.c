/* Streaming behaviour of the file API: any chunking gives the one-shot result, the digests,
 * tampering and short blobs (always discarded, never committed), sink failures and sink
 * callbacks that re-enter, the per-context lease, clearing the context mid-operation, short
 * output buffers, GCM's size limit, and backend failures injected through a wrapping table. */
#include "test_file.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ctx/ctx_internal.h"
#include "file/file_internal.h"
#include "vt_rand.h"

static const size_t chunkings[] = {1, 7, 16, 4096, FT_CHUNK_RANDOM};

static void fill_key(uint8_t key[32], uint8_t iv[16])
{
    vt_rand_bytes(key, 32);
    vt_rand_bytes(iv, 16);
}

/* ciphertext || tag by the one-shot primitive: the reference for every chunking. */
static uint8_t *oneshot_blob(ft_env *env, const uint8_t key[32], const uint8_t *iv, size_t iv_len,
                             const uint8_t *pt, size_t len)
{
    uint8_t *blob = vt_alloc(len + 16);

    VT_ASSERT_STATUS(
        sc_crypto_aes256gcm_seal(&env->ctx, blob, blob + len, key, iv, iv_len, NULL, 0, pt, len),
        SC_OK);
    return blob;
}

/* A random plaintext of len bytes and its blob under a fresh key and 16-byte IV. */
typedef struct sample {
    uint8_t key[32], iv[16];
    uint8_t *pt, *blob;
    size_t len, blob_len;
} sample;

static void sample_make(ft_env *env, sample *s, size_t len)
{
    fill_key(s->key, s->iv);
    s->len = len;
    s->pt = vt_alloc(len);
    vt_rand_bytes(s->pt, len);
    s->blob = oneshot_blob(env, s->key, s->iv, 16, s->pt, len);
    s->blob_len = len + 16;
}

static void sample_free(sample *s)
{
    free(s->pt);
    free(s->blob);
}

/* Expects decrypting blob[0..len) to fail with `want` and the sink to be discarded once. */
static void expect_refused(ft_env *env, const sample *s, const uint8_t *blob, size_t len,
                           size_t chunk, sc_status want, const char *what)
{
    uint8_t x[32], ox[32];
    sc_file_sink unused;
    ft_sink k;
    sc_status st;

    ft_sink_init(&k, &unused);
    memset(x, 0xee, 32);
    memset(ox, 0xee, 32);
    st = ft_decrypt(env, s->key, s->iv, 16, blob, len, chunk, &k, x, ox);
    if (st != want || !ft_sink_discarded_once(&k) || !vt_all_zero(x, 32) || !vt_all_zero(ox, 32)) {
        fail_msg("%s: %s (want %s), %u writes, %u commits, %u discards", what, sc_status_name(st),
                 sc_status_name(want), k.writes, k.commits, k.discards);
    }
    ft_sink_free(&k);
}

/* ---- chunkings -------------------------------------------------------------------------- */

void test_chunkings(void **state)
{
    ft_env *env = ft_env_of(state);
    static const size_t sizes[] = {0,  1,   15,   16,   17,   31,    32,
                                   33, 100, 4095, 4096, 4097, 10000, 70001};
    static const size_t iv_lens[] = {12, 16};
    size_t si, ii, ci, runs = 0;

    ft_need_stream(env, "chunkings");
    for (si = 0; si < sizeof sizes / sizeof sizes[0]; si++) {
        for (ii = 0; ii < 2; ii++) {
            uint8_t key[32], iv[16], *pt = vt_alloc(sizes[si]), *ref;
            size_t len = sizes[si];

            fill_key(key, iv);
            vt_rand_bytes(pt, len);
            ref = oneshot_blob(env, key, iv, iv_lens[ii], pt, len);
            for (ci = 0; ci < sizeof chunkings / sizeof chunkings[0]; ci++) {
                uint8_t x[32], ox[32], *blob = NULL;
                size_t blob_len = 0;
                uint64_t size = 0;
                sc_file_sink unused;
                ft_sink k;

                VT_ASSERT_STATUS(ft_encrypt(env, key, iv, iv_lens[ii], pt, len, chunkings[ci],
                                            &blob, &blob_len, x, ox, &size),
                                 SC_OK);
                if (blob_len != len + 16 || memcmp(blob, ref, len + 16) != 0 || size != len + 16) {
                    fail_msg("encrypt %zu bytes, %zu-byte IV, pieces of %zu: differs from the "
                             "one-shot seal",
                             len, iv_lens[ii], chunkings[ci]);
                }
                free(blob);
                ft_sink_init(&k, &unused);
                VT_ASSERT_STATUS(
                    ft_decrypt(env, key, iv, iv_lens[ii], ref, len + 16, chunkings[ci], &k, x, ox),
                    SC_OK);
                if (k.commits != 1 || k.discards != 0 || k.committed_len != len ||
                    memcmp(k.committed, pt, len) != 0 || k.max_write > SC_FILE_SINK_MAX_WRITE) {
                    fail_msg("decrypt %zu bytes, %zu-byte IV, pieces of %zu: wrong plaintext", len,
                             iv_lens[ii], chunkings[ci]);
                }
                ft_sink_free(&k);
                runs++;
            }
            free(ref);
            free(pt);
        }
    }
    printf("[%s] chunkings: %zu encrypt/decrypt pairs match the one-shot AES-GCM\n", env->backend,
           runs);
}

/* ---- digests ---------------------------------------------------------------------------- */

void test_hashes(void **state)
{
    ft_env *env = ft_env_of(state);
    static const char empty_sha[] =
        "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";
    size_t i;

    ft_need_stream(env, "x/ox digests");
    for (i = 0; i < 12; i++) {
        size_t len = (i == 0) ? 0 : vt_rand_below(20000);
        uint8_t x[32], ox[32], dx[32], dox[32], want_x[32], want_ox[32], *blob = NULL;
        size_t blob_len = 0;
        uint64_t size = 0;
        sc_file_sink unused;
        sample s;
        ft_sink k;

        sample_make(env, &s, len);
        VT_ASSERT_STATUS(ft_encrypt(env, s.key, s.iv, 16, s.pt, len, FT_CHUNK_RANDOM, &blob,
                                    &blob_len, x, ox, &size),
                         SC_OK);
        ft_sha256(env, blob, blob_len, want_x);
        ft_sha256(env, s.pt, len, want_ox);
        assert_memory_equal(x, want_x, 32);
        assert_memory_equal(ox, want_ox, 32);
        assert_true(size == (uint64_t)len + 16 && blob_len == len + 16);
        ft_sink_init(&k, &unused);
        VT_ASSERT_STATUS(
            ft_decrypt(env, s.key, s.iv, 16, blob, blob_len, FT_CHUNK_RANDOM, &k, dx, dox), SC_OK);
        assert_memory_equal(dx, want_x, 32);
        assert_memory_equal(dox, want_ox, 32);
        if (len == 0) {
            char hex[65];
            size_t n = 0;

            VT_ASSERT_STATUS(sc_hex_encode(hex, 64, &n, ox, 32), SC_OK);
            hex[64] = '\0';
            assert_string_equal(hex, empty_sha);
            assert_int_equal(k.writes, 0);
            assert_int_equal(k.commits, 1);
        }
        /* the digests are optional outputs of decryption */
        ft_sink_free(&k);
        ft_sink_init(&k, &unused);
        VT_ASSERT_STATUS(ft_decrypt(env, s.key, s.iv, 16, blob, blob_len, 4096, &k, NULL, NULL),
                         SC_OK);
        assert_int_equal(k.commits, 1);
        ft_sink_free(&k);
        free(blob);
        sample_free(&s);
    }
}

/* ---- tampering -------------------------------------------------------------------------- */

void test_tamper(void **state)
{
    ft_env *env = ft_env_of(state);
    size_t len = 5000, ci, i;
    uint8_t *b;
    sample s;

    ft_need_stream(env, "tampering");
    b = vt_alloc(len + 32);
    sample_make(env, &s, len);
    for (ci = 0; ci < sizeof chunkings / sizeof chunkings[0]; ci++) {
        static const size_t flips[] = {0, 2500, 4999, 5000, 5015}; /* ct first/mid/last, tag */
        char what[120];

        for (i = 0; i < sizeof flips / sizeof flips[0]; i++) {
            memcpy(b, s.blob, s.blob_len);
            b[flips[i]] ^= 0x80;
            snprintf(what, sizeof what, "byte %zu flipped, pieces of %zu", flips[i], chunkings[ci]);
            expect_refused(env, &s, b, s.blob_len, chunkings[ci], SC_ERR_AUTH, what);
        }
        memcpy(b, s.blob, s.blob_len);
        expect_refused(env, &s, b, s.blob_len - 1, chunkings[ci], SC_ERR_AUTH, "truncated by 1");
        expect_refused(env, &s, b, s.blob_len - 16, chunkings[ci], SC_ERR_AUTH, "tag cut off");
        expect_refused(env, &s, b, 16, chunkings[ci], SC_ERR_AUTH, "only 16 bytes");
        b[s.blob_len] = 0;
        expect_refused(env, &s, b, s.blob_len + 1, chunkings[ci], SC_ERR_AUTH, "one byte appended");
        memset(b + s.blob_len, 0, 16);
        expect_refused(env, &s, b, s.blob_len + 16, chunkings[ci], SC_ERR_AUTH,
                       "16 bytes appended");
    }
    /* wrong key and wrong IV */
    {
        sample t = s;
        uint8_t x[32], ox[32];
        sc_file_sink unused;
        ft_sink k;

        t.key[31] ^= 1;
        expect_refused(env, &t, s.blob, s.blob_len, 4096, SC_ERR_AUTH, "wrong key");
        t = s;
        t.iv[0] ^= 1;
        expect_refused(env, &t, s.blob, s.blob_len, 4096, SC_ERR_AUTH, "wrong IV");
        /* the same IV bytes as a 12-byte IV are a different IV */
        ft_sink_init(&k, &unused);
        VT_ASSERT_STATUS(ft_decrypt(env, s.key, s.iv, 12, s.blob, s.blob_len, 4096, &k, x, ox),
                         SC_ERR_AUTH);
        assert_true(ft_sink_discarded_once(&k));
        ft_sink_free(&k);
    }
    /* the plaintext did reach the sink before the tag was seen: it was held back, then
     * destroyed (the memory sink keeps it as "pending" until commit) */
    {
        sc_file_sink sink;
        sc_file_dec d;
        ft_sink k;

        memcpy(b, s.blob, s.blob_len);
        b[s.blob_len - 1] ^= 1;
        ft_sink_init(&k, &sink);
        VT_ASSERT_STATUS(sc_file_decrypt_init(&env->ctx, &d, s.key, s.iv, 16, &sink), SC_OK);
        VT_ASSERT_STATUS(sc_file_decrypt_update(&d, b, s.blob_len), SC_OK);
        assert_true(k.pending_len > 4096 && k.committed == NULL && k.discards == 0);
        VT_ASSERT_STATUS(sc_file_decrypt_final(&d, NULL, NULL), SC_ERR_AUTH);
        assert_true(ft_sink_discarded_once(&k));
        /* the operation is over: no second discard, no commit */
        VT_ASSERT_STATUS(sc_file_decrypt_final(&d, NULL, NULL), SC_ERR_STATE);
        VT_ASSERT_STATUS(sc_file_decrypt_update(&d, b, 1), SC_ERR_STATE);
        sc_file_decrypt_abort(&d);
        assert_true(ft_sink_discarded_once(&k));
        ft_sink_free(&k);
    }
    sample_free(&s);
    free(b);
}

void test_short_blobs(void **state)
{
    ft_env *env = ft_env_of(state);
    uint8_t zeros[16] = {0}, x[32], ox[32];
    sc_file_sink unused;
    sample s;
    size_t n;
    ft_sink k;

    ft_need_stream(env, "short blobs");
    sample_make(env, &s, 0); /* the blob of an empty file: the tag alone */
    for (n = 0; n < 16; n++) {
        char what[64];

        snprintf(what, sizeof what, "a %zu-byte blob", n);
        expect_refused(env, &s, s.blob, n, 1, SC_ERR_AUTH, what);
        expect_refused(env, &s, s.blob, n, FT_CHUNK_RANDOM, SC_ERR_AUTH, what);
    }
    expect_refused(env, &s, zeros, 16, 16, SC_ERR_AUTH, "16 zero bytes");
    ft_sink_init(&k, &unused);
    VT_ASSERT_STATUS(ft_decrypt(env, s.key, s.iv, 16, s.blob, 16, 1, &k, x, ox), SC_OK);
    assert_true(k.commits == 1 && k.discards == 0 && k.writes == 0 && k.committed_len == 0);
    ft_sink_free(&k);
    sample_free(&s);
}

/* ---- the sink --------------------------------------------------------------------------- */

void test_sink_failures(void **state)
{
    ft_env *env = ft_env_of(state);
    uint8_t x[32], ox[32], key2[32], iv2[16];
    unsigned writes, fails[3], i;
    sc_file_sink sink;
    sc_file_enc e;
    sc_file_dec d;
    sample s;
    ft_sink k;

    ft_need_stream(env, "sink failures");
    sample_make(env, &s, 3 * 4096 + 100); /* several writes, the last one from final */
    ft_sink_init(&k, &sink);
    VT_ASSERT_STATUS(ft_decrypt(env, s.key, s.iv, 16, s.blob, s.blob_len, 4096, &k, x, ox), SC_OK);
    writes = k.writes;
    assert_true(writes >= 3);
    ft_sink_free(&k);
    fails[0] = 1;
    fails[1] = 2;
    fails[2] = writes;
    for (i = 0; i < 3; i++) {
        /* the sink's own status comes back unchanged; a value that is no status is I/O */
        static const sc_status returned[3] = {SC_ERR_TOO_LARGE, (sc_status)42, SC_ERR_IO};
        static const sc_status want[3] = {SC_ERR_TOO_LARGE, SC_ERR_IO, SC_ERR_IO};

        ft_sink_init(&k, &sink);
        k.fail_write = fails[i];
        k.fail_status = returned[i];
        memset(x, 0xee, 32);
        VT_ASSERT_STATUS(ft_decrypt(env, s.key, s.iv, 16, s.blob, s.blob_len, 4096, &k, x, ox),
                         want[i]);
        /* the last write is made by final, which also zeroes the digests */
        if (!ft_sink_discarded_once(&k) || (i == 2 && !vt_all_zero(x, 32))) {
            fail_msg("write %u of %u failed: %u commits, %u discards", fails[i], writes, k.commits,
                     k.discards);
        }
        ft_sink_free(&k);
    }
    /* a failed commit: SC_ERR_IO, and no discard after it (exactly one of the two) */
    ft_sink_init(&k, &sink);
    k.fail_commit = 1;
    k.fail_status = SC_ERR_NOMEM;
    memset(x, 0xee, 32);
    memset(ox, 0xee, 32);
    VT_ASSERT_STATUS(sc_file_decrypt_init(&env->ctx, &d, s.key, s.iv, 16, &sink), SC_OK);
    VT_ASSERT_STATUS(sc_file_decrypt_update(&d, s.blob, s.blob_len), SC_OK);
    VT_ASSERT_STATUS(sc_file_decrypt_final(&d, x, ox), SC_ERR_NOMEM);
    assert_true(k.commits == 1 && k.discards == 0 && k.committed == NULL);
    assert_true(vt_all_zero(x, 32) && vt_all_zero(ox, 32));
    sc_file_decrypt_abort(&d); /* over already: no discard */
    assert_int_equal(k.discards, 0);
    ft_sink_free(&k);
    /* every ending gave the lease back */
    fill_key(key2, iv2);
    VT_ASSERT_STATUS(sc_file_encrypt_init(&env->ctx, &e, key2, iv2, 16), SC_OK);
    sc_file_encrypt_abort(&e);
    sample_free(&s);
}

void test_sink_reentry(void **state)
{
    ft_env *env = ft_env_of(state);
    uint8_t x[32], ox[32];
    sc_file_sink sink;
    sc_file_dec d;
    sample s;
    ft_sink k;
    int mode;

    ft_need_stream(env, "sink re-entry");
    sample_make(env, &s, 10000);
    for (mode = 1; mode <= 2; mode++) {
        /* update or final from inside write: refused, the running operation unharmed */
        ft_sink_init(&k, &sink);
        k.reenter = &d;
        k.reenter_mode = mode;
        VT_ASSERT_STATUS(sc_file_decrypt_init(&env->ctx, &d, s.key, s.iv, 16, &sink), SC_OK);
        VT_ASSERT_STATUS(sc_file_decrypt_update(&d, s.blob, s.blob_len), SC_OK);
        VT_ASSERT_STATUS(sc_file_decrypt_final(&d, x, ox), SC_OK);
        VT_ASSERT_STATUS(k.reenter_status, SC_ERR_STATE);
        assert_true(k.commits == 1 && k.discards == 0 && k.committed_len == s.len &&
                    memcmp(k.committed, s.pt, s.len) == 0);
        ft_sink_free(&k);
    }
    /* abort from inside write: the running call discards once and returns SC_ERR_STATE */
    ft_sink_init(&k, &sink);
    k.reenter = &d;
    k.reenter_mode = 3;
    VT_ASSERT_STATUS(sc_file_decrypt_init(&env->ctx, &d, s.key, s.iv, 16, &sink), SC_OK);
    VT_ASSERT_STATUS(sc_file_decrypt_update(&d, s.blob, s.blob_len), SC_ERR_STATE);
    assert_true(k.discards == 1 && k.commits == 0 && k.committed == NULL);
    VT_ASSERT_STATUS(sc_file_decrypt_final(&d, x, ox), SC_ERR_STATE);
    assert_int_equal(k.discards, 1);
    ft_sink_free(&k);
    sample_free(&s);
}

/* ---- the lease -------------------------------------------------------------------------- */

void test_lease(void **state)
{
    ft_env *env = ft_env_of(state);
    uint8_t out[64 + 15], other_out[64 + 15], fin[31], x[32], ox[32], ct[32], tag[16];
    size_t n = 0, m = 0;
    uint64_t size = 0;
    sc_file_sink sink;
    sc_file_enc a, b;
    sc_file_dec d;
    sc_ctx other;
    sample s;
    ft_sink k;

    ft_need_stream(env, "lease");
    sample_make(env, &s, 64);
    ft_sink_init(&k, &sink);
    VT_ASSERT_STATUS(sc_file_encrypt_init(&env->ctx, &a, s.key, s.iv, 16), SC_OK);
    VT_ASSERT_STATUS(sc_file_encrypt_update(&a, out, sizeof out, &n, s.pt, 40), SC_OK);
    /* a second streaming operation on the same context is refused, in both directions */
    memset(&b, 0x5a, sizeof b);
    VT_ASSERT_STATUS(sc_file_encrypt_init(&env->ctx, &b, s.key, s.iv, 16), SC_ERR_STATE);
    assert_true(vt_all_zero((const uint8_t *)&b, sizeof b));
    VT_ASSERT_STATUS(sc_file_decrypt_init(&env->ctx, &d, s.key, s.iv, 16, &sink), SC_ERR_STATE);
    assert_int_equal(k.writes + k.commits + k.discards, 0);
    /* the aead self-test needs the streaming state too */
    VT_ASSERT_STATUS(sc_ctx_selftest(&env->ctx, SC_GROUP_AEAD), SC_ERR_STATE);
    /* one-shot AES-GCM does not disturb the running stream */
    VT_ASSERT_STATUS(
        sc_crypto_aes256gcm_seal(&env->ctx, ct, tag, s.key, s.iv, 16, NULL, 0, s.pt, 32), SC_OK);
    /* another context is independent */
    VT_ASSERT_STATUS(sc_ctx_init(&other, env->backend), SC_OK);
    VT_ASSERT_STATUS(sc_file_encrypt_init(&other, &b, s.key, s.iv, 16), SC_OK);
    VT_ASSERT_STATUS(sc_file_encrypt_update(&b, other_out, sizeof other_out, &m, s.pt, 64), SC_OK);
    assert_memory_equal(other_out, s.blob, 64);
    sc_file_encrypt_abort(&b);
    sc_ctx_clear(&other);
    VT_ASSERT_STATUS(sc_file_encrypt_update(&a, out + n, sizeof out - n, &m, s.pt + 40, 24), SC_OK);
    n += m;
    VT_ASSERT_STATUS(sc_file_encrypt_final(&a, fin, sizeof fin, &m, x, ox, &size), SC_OK);
    assert_int_equal(n, 64);
    assert_int_equal(m, 16);
    assert_memory_equal(out, s.blob, 64);
    assert_memory_equal(fin, s.blob + 64, 16);
    /* released by final */
    VT_ASSERT_STATUS(sc_ctx_selftest(&env->ctx, SC_GROUP_AEAD), SC_OK);
    VT_ASSERT_STATUS(sc_file_decrypt_init(&env->ctx, &d, s.key, s.iv, 16, &sink), SC_OK);
    VT_ASSERT_STATUS(sc_file_encrypt_init(&env->ctx, &b, s.key, s.iv, 16), SC_ERR_STATE);
    /* released by abort (which discards) */
    sc_file_decrypt_abort(&d);
    assert_true(ft_sink_discarded_once(&k));
    VT_ASSERT_STATUS(sc_file_encrypt_init(&env->ctx, &b, s.key, s.iv, 16), SC_OK);
    /* a refused call keeps it (the operation is live), abort releases it */
    VT_ASSERT_STATUS(sc_file_encrypt_update(&b, out, 10, &n, s.pt, 64), SC_ERR_BUFFER_TOO_SMALL);
    VT_ASSERT_STATUS(sc_file_encrypt_init(&env->ctx, &a, s.key, s.iv, 16), SC_ERR_STATE);
    sc_file_encrypt_abort(&b);
    VT_ASSERT_STATUS(sc_file_encrypt_init(&env->ctx, &b, s.key, s.iv, 16), SC_OK);
    sc_file_encrypt_abort(&b);
    sc_file_encrypt_abort(&b); /* twice is harmless */
    sc_file_encrypt_abort(NULL);
    sc_file_decrypt_abort(NULL);
    VT_ASSERT_STATUS(sc_ctx_selftest(&env->ctx, SC_GROUP_AEAD), SC_OK);
    ft_sink_free(&k);
    sample_free(&s);
}

void test_ctx_clear(void **state)
{
    ft_env *env = ft_env_of(state);
    uint8_t out[100 + 15], fin[31], x[32], ox[32];
    size_t n = 0;
    uint64_t size = 0;
    sc_file_sink sink;
    sc_file_enc e;
    sc_file_dec d;
    sc_ctx c;
    sample s;
    ft_sink k;

    ft_need_stream(env, "clearing the context");
    sample_make(env, &s, 100);
    /* encryption: the context goes away mid-operation */
    VT_ASSERT_STATUS(sc_ctx_init(&c, env->backend), SC_OK);
    VT_ASSERT_STATUS(sc_file_encrypt_init(&c, &e, s.key, s.iv, 16), SC_OK);
    VT_ASSERT_STATUS(sc_file_encrypt_update(&e, out, sizeof out, &n, s.pt, 50), SC_OK);
    sc_ctx_clear(&c);
    VT_ASSERT_STATUS(sc_file_encrypt_update(&e, out, sizeof out, &n, s.pt + 50, 50), SC_ERR_STATE);
    VT_ASSERT_STATUS(sc_file_encrypt_final(&e, fin, sizeof fin, &n, x, ox, &size), SC_ERR_STATE);
    sc_file_encrypt_abort(&e);
    /* ... and comes back on the same memory: the stale operation stays dead */
    VT_ASSERT_STATUS(sc_file_encrypt_init(&c, &e, s.key, s.iv, 16), SC_ERR_STATE);
    VT_ASSERT_STATUS(sc_ctx_init(&c, env->backend), SC_OK);
    VT_ASSERT_STATUS(sc_file_encrypt_init(&c, &e, s.key, s.iv, 16), SC_OK);
    VT_ASSERT_STATUS(sc_file_encrypt_update(&e, out, sizeof out, &n, s.pt, 50), SC_OK);
    sc_ctx_clear(&c);
    VT_ASSERT_STATUS(sc_ctx_init(&c, env->backend), SC_OK);
    VT_ASSERT_STATUS(sc_file_encrypt_update(&e, out, sizeof out, &n, s.pt + 50, 50), SC_ERR_STATE);
    VT_ASSERT_STATUS(sc_file_encrypt_init(&c, &e, s.key, s.iv, 16), SC_OK); /* lease free */
    sc_file_encrypt_abort(&e);

    /* decryption: cleared between updates, then final */
    ft_sink_init(&k, &sink);
    VT_ASSERT_STATUS(sc_file_decrypt_init(&c, &d, s.key, s.iv, 16, &sink), SC_OK);
    VT_ASSERT_STATUS(sc_file_decrypt_update(&d, s.blob, 60), SC_OK);
    sc_ctx_clear(&c);
    VT_ASSERT_STATUS(sc_file_decrypt_final(&d, x, ox), SC_ERR_STATE);
    assert_true(ft_sink_discarded_once(&k));
    sc_file_decrypt_abort(&d);
    assert_int_equal(k.discards, 1);
    ft_sink_free(&k);
    /* cleared, then update; and cleared, then abort */
    VT_ASSERT_STATUS(sc_ctx_init(&c, env->backend), SC_OK);
    ft_sink_init(&k, &sink);
    VT_ASSERT_STATUS(sc_file_decrypt_init(&c, &d, s.key, s.iv, 16, &sink), SC_OK);
    VT_ASSERT_STATUS(sc_file_decrypt_update(&d, s.blob, 60), SC_OK);
    sc_ctx_clear(&c);
    VT_ASSERT_STATUS(sc_file_decrypt_update(&d, s.blob + 60, 56), SC_ERR_STATE);
    assert_true(ft_sink_discarded_once(&k));
    ft_sink_free(&k);
    VT_ASSERT_STATUS(sc_ctx_init(&c, env->backend), SC_OK);
    ft_sink_init(&k, &sink);
    VT_ASSERT_STATUS(sc_file_decrypt_init(&c, &d, s.key, s.iv, 16, &sink), SC_OK);
    sc_ctx_clear(&c);
    sc_file_decrypt_abort(&d);
    assert_true(ft_sink_discarded_once(&k));
    ft_sink_free(&k);
    sample_free(&s);
}

/* ---- output buffers --------------------------------------------------------------------- */

void test_buffer_too_small(void **state)
{
    ft_env *env = ft_env_of(state);
    uint8_t out[200], x[32], ox[32];
    size_t n = 0;
    uint64_t size = 99;
    sc_file_enc e;
    sample s;

    ft_need_stream(env, "short output buffers");
    sample_make(env, &s, 100);
    /* len + 15 is required up front, whatever this call would write */
    VT_ASSERT_STATUS(sc_file_encrypt_init(&env->ctx, &e, s.key, s.iv, 16), SC_OK);
    memset(out, 0xa5, sizeof out);
    VT_ASSERT_STATUS(sc_file_encrypt_update(&e, out, 32 + 14, &n, s.pt, 32),
                     SC_ERR_BUFFER_TOO_SMALL);
    assert_int_equal(n, 32 + 15);
    assert_int_equal(n, sc_file_encrypt_update_max(32));
    assert_true(out[0] == 0xa5 && memcmp(out, out + 1, sizeof out - 1) == 0);
    /* the refusal consumed nothing: the same call with the size asked for goes on, and the
     * blob comes out as if the refusal had never happened */
    VT_ASSERT_STATUS(sc_file_encrypt_update(&e, out, n, &n, s.pt, 32), SC_OK);
    assert_int_equal(n, 32);
    VT_ASSERT_STATUS(sc_file_encrypt_update(&e, out + 32, sizeof out - 32, &n, s.pt + 32, 68),
                     SC_OK);
    assert_int_equal(n, 64);
    VT_ASSERT_STATUS(sc_file_encrypt_final(&e, out + 96, SC_FILE_FINAL_BYTES - 1, &n, x, ox, &size),
                     SC_ERR_BUFFER_TOO_SMALL);
    VT_ASSERT_STATUS(sc_file_encrypt_final(&e, out + 96, sizeof out - 96, &n, x, ox, &size), SC_OK);
    assert_memory_equal(out, s.blob, s.blob_len);
    assert_true(size == s.blob_len && sc_file_blob_len(100) == s.blob_len);
    /* an overlapping or absent output is refused the same way */
    VT_ASSERT_STATUS(sc_file_encrypt_init(&env->ctx, &e, s.key, s.iv, 16), SC_OK);
    memcpy(out, s.pt, 32);
    VT_ASSERT_STATUS(sc_file_encrypt_update(&e, out + 8, sizeof out - 8, &n, out, 32),
                     SC_ERR_OVERLAP);
    VT_ASSERT_STATUS(sc_file_encrypt_update(&e, NULL, sizeof out, &n, s.pt, 32), SC_ERR_ARG);
    VT_ASSERT_STATUS(sc_file_encrypt_update(&e, out, sizeof out, &n, s.pt, 32), SC_OK);
    assert_memory_equal(out, s.blob, 32);
    sc_file_encrypt_abort(&e);
    assert_int_equal(sc_file_blob_len(SC_FILE_MAX_PLAINTEXT + 1), 0);
    assert_int_equal(sc_file_encrypt_update_max(0), 0);
    assert_int_equal(sc_file_encrypt_update_max((size_t)-1), 0);
    /* exactly len + 15 is enough; len == 0 needs no buffer at all */
    VT_ASSERT_STATUS(sc_file_encrypt_init(&env->ctx, &e, s.key, s.iv, 16), SC_OK);
    VT_ASSERT_STATUS(sc_file_encrypt_update(&e, NULL, 0, &n, s.pt, 0), SC_OK);
    assert_int_equal(n, 0);
    VT_ASSERT_STATUS(sc_file_encrypt_update(&e, out, 1 + 15, &n, s.pt, 1), SC_OK);
    assert_int_equal(n, 0);
    VT_ASSERT_STATUS(sc_file_encrypt_update(&e, out, 99 + 15, &n, s.pt + 1, 99), SC_OK);
    assert_int_equal(n, 96);
    assert_memory_equal(out, s.blob, 96);
    /* final needs SC_FILE_FINAL_BYTES */
    memset(x, 0xee, 32);
    VT_ASSERT_STATUS(sc_file_encrypt_final(&e, out + 96, SC_FILE_FINAL_BYTES - 1, &n, x, ox, &size),
                     SC_ERR_BUFFER_TOO_SMALL);
    assert_int_equal(n, SC_FILE_FINAL_BYTES);
    assert_true(vt_all_zero(x, 32) && vt_all_zero(ox, 32) && size == 0);
    /* and SC_FILE_FINAL_BYTES is enough, on the same live operation */
    VT_ASSERT_STATUS(sc_file_encrypt_final(&e, out + 96, SC_FILE_FINAL_BYTES, &n, x, ox, &size),
                     SC_OK);
    assert_int_equal(n, 4 + 16);
    assert_memory_equal(out, s.blob, s.blob_len);
    assert_true(size == s.blob_len);
    sample_free(&s);
}

/* ---- GCM's limit ------------------------------------------------------------------------ */

/* Sets the byte count of the stream at state + aead_off (white box, through the bytes). */
static void set_total(uint8_t *state, size_t aead_off, uint64_t total)
{
    memcpy(state + aead_off + offsetof(sc_aead_stream, total), &total, sizeof total);
}

void test_too_large(void **state)
{
    ft_env *env = ft_env_of(state);
    uint8_t out[64], buf[64] = {0}, key2[32], iv2[16];
    size_t n = 0;
    sc_file_sink sink;
    sc_file_enc e;
    sc_file_dec d;
    ft_sink k;

    ft_need_stream(env, "GCM size limit");
    fill_key(key2, iv2);
    assert_true(SC_FILE_MAX_PLAINTEXT == SC_AEAD_STREAM_MAX_BYTES);
    /* white box: pretend all but 5 bytes of the allowance were encrypted already */
    VT_ASSERT_STATUS(sc_file_encrypt_init(&env->ctx, &e, key2, iv2, 16), SC_OK);
    set_total((uint8_t *)&e, offsetof(sc_file_enc_impl, aead), SC_FILE_MAX_PLAINTEXT - 5);
    VT_ASSERT_STATUS(sc_file_encrypt_update(&e, out, sizeof out, &n, buf, 5), SC_OK);
    VT_ASSERT_STATUS(sc_file_encrypt_update(&e, out, sizeof out, &n, buf, 1), SC_ERR_TOO_LARGE);
    VT_ASSERT_STATUS(sc_file_encrypt_update(&e, out, sizeof out, &n, buf, 1), SC_ERR_STATE);
    /* decryption: the ciphertext (the blob less its 16 held-back bytes) is bounded the same */
    ft_sink_init(&k, &sink);
    VT_ASSERT_STATUS(sc_file_decrypt_init(&env->ctx, &d, key2, iv2, 16, &sink), SC_OK);
    set_total((uint8_t *)&d, offsetof(sc_file_dec_impl, aead), SC_FILE_MAX_PLAINTEXT - 5);
    VT_ASSERT_STATUS(sc_file_decrypt_update(&d, buf, 16 + 5), SC_OK);
    VT_ASSERT_STATUS(sc_file_decrypt_update(&d, buf, 1), SC_ERR_TOO_LARGE);
    assert_true(ft_sink_discarded_once(&k));
    ft_sink_free(&k);
    /* the lease came back */
    VT_ASSERT_STATUS(sc_file_encrypt_init(&env->ctx, &e, key2, iv2, 16), SC_OK);
    sc_file_encrypt_abort(&e);
}

/* ---- backend failures ------------------------------------------------------------------- */

/* A wrapping aead group that fails on request: the start, the n-th update or the finish. */
static const sc_backend_aead *real_aead;
static int fault_start, fault_finish;
static unsigned fault_update_at, updates, aborts;

static sc_status w_start(sc_bstate *st, int decrypt, const uint8_t key[32], const uint8_t *iv,
                         size_t iv_len, const uint8_t *aad, size_t aad_len)
{
    return fault_start ? SC_ERR_INTERNAL
                       : real_aead->start(st, decrypt, key, iv, iv_len, aad, aad_len);
}

static sc_status w_update(sc_bstate *st, uint8_t *out, const uint8_t *in, size_t len)
{
    updates++;
    return (fault_update_at != 0 && updates == fault_update_at)
               ? SC_ERR_INTERNAL
               : real_aead->update(st, out, in, len);
}

static sc_status w_finish(sc_bstate *st, int decrypt, uint8_t tag[16])
{
    if (fault_finish) {
        real_aead->abort(st); /* a failing finish still ends the operation */
        return SC_ERR_INTERNAL;
    }
    return real_aead->final(st, decrypt, tag);
}

static void w_abort(sc_bstate *st)
{
    aborts++;
    real_aead->abort(st);
}

static void faults(int start, unsigned update_at, int finish)
{
    fault_start = start;
    fault_update_at = update_at;
    fault_finish = finish;
    updates = aborts = 0;
}

void test_backend_failures(void **state)
{
    ft_env *env = ft_env_of(state);
    const sc_backend *real = sc_ctx_backend(&env->ctx);
    uint8_t out[4096 + 15], fin[31], x[32], ox[32];
    size_t n = 0;
    uint64_t size = 0;
    sc_backend t;
    sc_backend_aead g;
    sc_file_sink sink;
    sc_file_enc e;
    sc_file_dec d;
    sc_ctx c;
    sample s;
    ft_sink k;

    ft_need_stream(env, "backend failures");
    real_aead = real->aead;
    g = *real->aead;
    g.start = w_start;
    g.update = w_update;
    g.final = w_finish;
    g.abort = w_abort;
    t = *real;
    t.name = "file-faults";
    t.aead = &g;
    faults(0, 0, 0);
    VT_ASSERT_STATUS(sc_ctx_init_table(&c, &t), SC_OK);
    sample_make(env, &s, 4096);

    /* start fails: init reports it, nothing is held, the sink is never called */
    faults(1, 0, 0);
    ft_sink_init(&k, &sink);
    VT_ASSERT_STATUS(sc_file_encrypt_init(&c, &e, s.key, s.iv, 16), SC_ERR_INTERNAL);
    VT_ASSERT_STATUS(sc_file_decrypt_init(&c, &d, s.key, s.iv, 16, &sink), SC_ERR_INTERNAL);
    assert_int_equal(k.writes + k.commits + k.discards, 0);

    /* an update fails: the backend operation is aborted once, the output zeroed */
    faults(0, 2, 0);
    VT_ASSERT_STATUS(sc_file_encrypt_init(&c, &e, s.key, s.iv, 16), SC_OK);
    VT_ASSERT_STATUS(sc_file_encrypt_update(&e, out, sizeof out, &n, s.pt, 20), SC_OK);
    memset(out, 0xa5, sizeof out);
    VT_ASSERT_STATUS(sc_file_encrypt_update(&e, out, sizeof out, &n, s.pt + 20, 4000),
                     SC_ERR_INTERNAL);
    assert_int_equal(aborts, 1);
    assert_true(n == 0 && vt_all_zero(out, 4000 + 15));
    VT_ASSERT_STATUS(sc_file_encrypt_update(&e, out, sizeof out, &n, s.pt, 1), SC_ERR_STATE);
    faults(0, 1, 0);
    VT_ASSERT_STATUS(sc_file_decrypt_init(&c, &d, s.key, s.iv, 16, &sink), SC_OK);
    VT_ASSERT_STATUS(sc_file_decrypt_update(&d, s.blob, s.blob_len), SC_ERR_INTERNAL);
    assert_true(ft_sink_discarded_once(&k) && aborts == 1);
    ft_sink_free(&k);

    /* the finish fails */
    faults(0, 0, 1);
    VT_ASSERT_STATUS(sc_file_encrypt_init(&c, &e, s.key, s.iv, 16), SC_OK);
    VT_ASSERT_STATUS(sc_file_encrypt_update(&e, out, sizeof out, &n, s.pt, 100), SC_OK);
    memset(fin, 0xa5, sizeof fin);
    VT_ASSERT_STATUS(sc_file_encrypt_final(&e, fin, sizeof fin, &n, x, ox, &size), SC_ERR_INTERNAL);
    assert_true(n == 0 && size == 0 && vt_all_zero(fin, sizeof fin) && vt_all_zero(x, 32) &&
                vt_all_zero(ox, 32));
    ft_sink_init(&k, &sink);
    VT_ASSERT_STATUS(sc_file_decrypt_init(&c, &d, s.key, s.iv, 16, &sink), SC_OK);
    VT_ASSERT_STATUS(sc_file_decrypt_update(&d, s.blob, s.blob_len), SC_OK);
    VT_ASSERT_STATUS(sc_file_decrypt_final(&d, x, ox), SC_ERR_INTERNAL);
    assert_true(ft_sink_discarded_once(&k));
    ft_sink_free(&k);

    /* after every failure the lease is free and the wrapped backend still works */
    faults(0, 0, 0);
    ft_sink_init(&k, &sink);
    VT_ASSERT_STATUS(sc_file_decrypt_init(&c, &d, s.key, s.iv, 16, &sink), SC_OK);
    VT_ASSERT_STATUS(sc_file_decrypt_update(&d, s.blob, s.blob_len), SC_OK);
    VT_ASSERT_STATUS(sc_file_decrypt_final(&d, x, ox), SC_OK);
    assert_true(k.commits == 1 && k.committed_len == s.len &&
                memcmp(k.committed, s.pt, s.len) == 0);
    ft_sink_free(&k);
    sc_ctx_clear(&c);
    sample_free(&s);
}
