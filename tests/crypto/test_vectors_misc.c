/* Statuses that must come back exactly, on every backend: a flipped AES-GCM tag, out-of-range
 * scalars and non-lifting x, ChaCha20 counter overflow and partial overlap, NULL pointers,
 * HKDF size limits; and the RNG's basic behaviour, including after fork(). */
#define _POSIX_C_SOURCE 200809L /* fork, pipe */
#include "test_vectors.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static const uint8_t order_n[32] = {
    0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xfe,
    0xba, 0xae, 0xdc, 0xe6, 0xaf, 0x48, 0xa0, 0x3b, 0xbf, 0xd2, 0x5e, 0x8c, 0xd0, 0x36, 0x41, 0x41};

void test_neg_aead(void **state)
{
    vt_env *env = vt_env_of(state);
    uint8_t key[32], iv[16], aad[20], pt[50], ct[50], out[50], tag[16];
    size_t i, ivl;

    vt_need_cap(env, SC_CAP_AES256GCM, "negative AES-GCM cases");
    for (i = 0; i < sizeof key; i++) {
        key[i] = (uint8_t)(i * 3 + 1);
    }
    memset(iv, 0x42, sizeof iv);
    memset(aad, 0x17, sizeof aad);
    memset(pt, 0x61, sizeof pt);
    for (ivl = 12; ivl <= 16; ivl += 4) {
        const char *why = NULL;

        if (sc_backend_has(sc_ctx_backend(&env->ctx),
                           ivl == 12 ? SC_CAP_AES256GCM : SC_CAP_AES256GCM_IV16, &why) != SC_OK) {
            VT_ASSERT_STATUS(sc_crypto_aes256gcm_seal(&env->ctx, ct, tag, key, iv, ivl, aad,
                                                      sizeof aad, pt, sizeof pt),
                             SC_ERR_UNSUPPORTED);
            continue;
        }
        VT_ASSERT_STATUS(sc_crypto_aes256gcm_seal(&env->ctx, ct, tag, key, iv, ivl, aad, sizeof aad,
                                                  pt, sizeof pt),
                         SC_OK);
        for (i = 0; i < 16 * 8; i += 37) { /* a flipped bit anywhere in the tag */
            tag[i / 8] ^= (uint8_t)(1u << (i % 8));
            memset(out, 0xa5, sizeof out);
            VT_ASSERT_STATUS(sc_crypto_aes256gcm_open(&env->ctx, out, key, iv, ivl, aad, sizeof aad,
                                                      ct, sizeof ct, tag),
                             SC_ERR_AUTH);
            assert_true(vt_all_zero(out, sizeof out));
            tag[i / 8] ^= (uint8_t)(1u << (i % 8));
        }
        ct[7] ^= 0x80; /* a flipped ciphertext bit */
        VT_ASSERT_STATUS(sc_crypto_aes256gcm_open(&env->ctx, out, key, iv, ivl, aad, sizeof aad, ct,
                                                  sizeof ct, tag),
                         SC_ERR_AUTH);
        ct[7] ^= 0x80;
        aad[0] ^= 1; /* different associated data */
        VT_ASSERT_STATUS(sc_crypto_aes256gcm_open(&env->ctx, out, key, iv, ivl, aad, sizeof aad, ct,
                                                  sizeof ct, tag),
                         SC_ERR_AUTH);
        aad[0] ^= 1;
        VT_ASSERT_STATUS(sc_crypto_aes256gcm_open(&env->ctx, out, key, iv, ivl, aad, sizeof aad, ct,
                                                  sizeof ct, tag),
                         SC_OK);
        assert_memory_equal(out, pt, sizeof pt);
        /* partial overlap and an empty IV are caller errors */
        memcpy(out, pt, sizeof pt);
        VT_ASSERT_STATUS(sc_crypto_aes256gcm_seal(&env->ctx, out + 1, tag, key, iv, ivl, NULL, 0,
                                                  out, sizeof out - 1),
                         SC_ERR_OVERLAP);
        VT_ASSERT_STATUS(
            sc_crypto_aes256gcm_seal(&env->ctx, ct, tag, key, iv, 0, NULL, 0, pt, sizeof pt),
            SC_ERR_ARG);
        VT_ASSERT_STATUS(
            sc_crypto_aes256gcm_open(&env->ctx, out, key, iv, 0, NULL, 0, ct, sizeof ct, tag),
            SC_ERR_ARG);
    }
}

void test_neg_curve(void **state)
{
    vt_env *env = vt_env_of(state);
    sc_ctx_impl *impl;
    uint8_t zero[32], n[32], n1[32], ones[32], sec[32], pub[32], x[32], bad_x[32], sig[64];
    sc_curve_keypair kp;
    sc_status st;

    vt_need_cap(env, SC_CAP_SECP256K1, "negative curve cases");
    impl = vt_impl(env);
    memset(zero, 0, 32);
    memcpy(n, order_n, 32);
    memcpy(n1, order_n, 32);
    n1[31]++; /* n + 1 */
    memset(ones, 0xff, 32);
    memset(sec, 0, 32);
    sec[31] = 7;
    VT_ASSERT_STATUS(impl->curve->keypair(impl->st[SC_GROUP_CURVE], &kp, pub, sec), SC_OK);
    VT_ASSERT_STATUS(impl->curve->ecdh_x(impl->st[SC_GROUP_CURVE], x, sec, pub), SC_OK);
    {
        const uint8_t *bad[4] = {zero, n, n1, ones};
        size_t i;

        for (i = 0; i < 4; i++) {
            st = impl->curve->ecdh_x(impl->st[SC_GROUP_CURVE], x, bad[i], pub);
            VT_ASSERT_STATUS(st, SC_ERR_INVALID_KEY);
            st = impl->curve->keypair(impl->st[SC_GROUP_CURVE], &kp, x, bad[i]);
            VT_ASSERT_STATUS(st, SC_ERR_INVALID_KEY);
        }
    }
    /* x = 5 does not lift (5^3 + 7 = 132 is not a square mod p); x = p is out of range */
    memset(bad_x, 0, 32);
    bad_x[31] = 5;
    VT_ASSERT_STATUS(impl->curve->ecdh_x(impl->st[SC_GROUP_CURVE], x, sec, bad_x),
                     SC_ERR_INVALID_KEY);
    memset(bad_x, 0xff, 32);
    bad_x[27] = 0xfe;
    bad_x[30] = 0xfc;
    bad_x[31] = 0x2f;
    VT_ASSERT_STATUS(impl->curve->ecdh_x(impl->st[SC_GROUP_CURVE], x, sec, bad_x),
                     SC_ERR_INVALID_KEY);
    /* a signature under a key that is not on the curve never verifies */
    VT_ASSERT_STATUS(impl->curve->keypair(impl->st[SC_GROUP_CURVE], &kp, pub, sec), SC_OK);
    VT_ASSERT_STATUS(impl->curve->sign(impl->st[SC_GROUP_CURVE], sig, &kp, zero, 32, zero), SC_OK);
    VT_ASSERT_STATUS(impl->curve->verify(impl->st[SC_GROUP_CURVE], sig, zero, 32, pub), SC_OK);
    VT_ASSERT_STATUS(impl->curve->verify(impl->st[SC_GROUP_CURVE], sig, zero, 32, bad_x),
                     SC_ERR_INVALID_SIG);
    VT_ASSERT_STATUS(impl->curve->verify(impl->st[SC_GROUP_CURVE], sig, zero, 31, pub),
                     SC_ERR_INVALID_SIG);
    sc_mem_wipe(&kp, sizeof kp);
}

void test_neg_chacha20(void **state)
{
    vt_env *env = vt_env_of(state);
    uint8_t key[32], nonce[12], buf[200];
    sc_status ok;

    vt_need_cap(env, SC_CAP_CHACHA20, "negative ChaCha20 cases");
    memset(key, 1, sizeof key);
    memset(nonce, 2, sizeof nonce);
    memset(buf, 0, sizeof buf);
    /* the 32-bit block counter must not wrap: counter + ceil(len / 64) <= 2^32 (checked before
     * the backend, so also where it starts at counter 0 only and refuses the rest) */
    ok = sc_backend_has(sc_ctx_backend(&env->ctx), SC_CAP_CHACHA20_COUNTER, NULL) == SC_OK
             ? SC_OK
             : SC_ERR_UNSUPPORTED;
    VT_ASSERT_STATUS(sc_crypto_chacha20_xor(&env->ctx, buf, buf, 64, key, nonce, 0xffffffffu), ok);
    VT_ASSERT_STATUS(sc_crypto_chacha20_xor(&env->ctx, buf, buf, 65, key, nonce, 0xffffffffu),
                     SC_ERR_TOO_LARGE);
    VT_ASSERT_STATUS(sc_crypto_chacha20_xor(&env->ctx, buf, buf, 128, key, nonce, 0xfffffffeu), ok);
    VT_ASSERT_STATUS(sc_crypto_chacha20_xor(&env->ctx, buf, buf, 129, key, nonce, 0xfffffffeu),
                     SC_ERR_TOO_LARGE);
    VT_ASSERT_STATUS(sc_crypto_chacha20_xor(&env->ctx, buf, buf, 0, key, nonce, 0xffffffffu),
                     SC_OK);
    /* exact in-place is fine, partial overlap either way is not */
    VT_ASSERT_STATUS(sc_crypto_chacha20_xor(&env->ctx, buf + 1, buf, 100, key, nonce, 0),
                     SC_ERR_OVERLAP);
    VT_ASSERT_STATUS(sc_crypto_chacha20_xor(&env->ctx, buf, buf + 99, 100, key, nonce, 0),
                     SC_ERR_OVERLAP);
    VT_ASSERT_STATUS(sc_crypto_chacha20_xor(&env->ctx, buf, buf + 100, 100, key, nonce, 0), SC_OK);
}

void test_neg_null_args(void **state)
{
    vt_env *env = vt_env_of(state);
    uint8_t *null = (uint8_t *)vt_null(), buf[64], key[32], tag[16];
    sc_sha256_state s;
    sc_iov part;
    sc_status st;

    memset(buf, 0, sizeof buf);
    memset(key, 0, sizeof key);
    memset(tag, 0, sizeof tag);
    VT_ASSERT_STATUS(sc_crypto_sha256(&env->ctx, null, buf, 1), SC_ERR_ARG);
    VT_ASSERT_STATUS(sc_crypto_sha256(&env->ctx, buf, null, 1), SC_ERR_ARG);
    VT_ASSERT_STATUS(sc_crypto_sha256(&env->ctx, buf, null, 0),
                     SC_OK); /* empty input may be NULL */
    VT_ASSERT_STATUS(sc_crypto_sha256_init(&env->ctx, (sc_sha256_state *)vt_null()), SC_ERR_ARG);
    VT_ASSERT_STATUS(sc_crypto_sha256_init(&env->ctx, &s), SC_OK);
    VT_ASSERT_STATUS(sc_crypto_sha256_update(&env->ctx, &s, null, 3), SC_ERR_ARG);
    VT_ASSERT_STATUS(sc_crypto_sha256_final(&env->ctx, &s, null), SC_ERR_ARG);
    /* those failures wiped s: finishing it is harmless, and a backend that can tell (psa)
     * reports the dead state */
    st = sc_crypto_sha256_final(&env->ctx, &s, buf);
    if (st != SC_OK && st != SC_ERR_STATE) {
        fail_msg("final on a wiped state returned %s", sc_status_name(st));
    }
    part.data = null;
    part.len = 5;
    VT_ASSERT_STATUS(sc_crypto_hmac_sha256(&env->ctx, null, key, 32, NULL, 0), SC_ERR_ARG);
    VT_ASSERT_STATUS(sc_crypto_hmac_sha256(&env->ctx, buf, null, 32, NULL, 0), SC_ERR_ARG);
    VT_ASSERT_STATUS(sc_crypto_hmac_sha256(&env->ctx, buf, key, 32, (const sc_iov *)vt_null(), 1),
                     SC_ERR_ARG);
    VT_ASSERT_STATUS(sc_crypto_hmac_sha256(&env->ctx, buf, key, 32, &part, 1), SC_ERR_ARG);
    VT_ASSERT_STATUS(sc_crypto_hkdf_extract(&env->ctx, null, NULL, 0, buf, 8), SC_ERR_ARG);
    VT_ASSERT_STATUS(sc_crypto_hkdf_extract(&env->ctx, key, null, 4, buf, 8), SC_ERR_ARG);
    VT_ASSERT_STATUS(sc_crypto_hkdf_extract(&env->ctx, key, NULL, 0, null, 8), SC_ERR_ARG);
    VT_ASSERT_STATUS(sc_crypto_hkdf_expand(&env->ctx, null, 32, key, 32, NULL, 0), SC_ERR_ARG);
    VT_ASSERT_STATUS(sc_crypto_hkdf_expand(&env->ctx, buf, 32, null, 32, NULL, 0), SC_ERR_ARG);
    VT_ASSERT_STATUS(sc_crypto_hkdf_expand(&env->ctx, buf, 32, key, 32, null, 3), SC_ERR_ARG);
    VT_ASSERT_STATUS(sc_crypto_chacha20_xor(&env->ctx, buf, buf, 8, null, key, 0), SC_ERR_ARG);
    VT_ASSERT_STATUS(sc_crypto_chacha20_xor(&env->ctx, buf, buf, 8, key, null, 0), SC_ERR_ARG);
    VT_ASSERT_STATUS(sc_crypto_chacha20_xor(&env->ctx, null, buf, 8, key, key, 0), SC_ERR_ARG);
    VT_ASSERT_STATUS(sc_crypto_chacha20_xor(&env->ctx, buf, null, 8, key, key, 0), SC_ERR_ARG);
    VT_ASSERT_STATUS(sc_crypto_aes256gcm_seal(&env->ctx, buf, null, key, key, 12, NULL, 0, buf, 8),
                     SC_ERR_ARG);
    VT_ASSERT_STATUS(sc_crypto_aes256gcm_seal(&env->ctx, buf, tag, null, key, 12, NULL, 0, buf, 8),
                     SC_ERR_ARG);
    VT_ASSERT_STATUS(sc_crypto_aes256gcm_seal(&env->ctx, buf, tag, key, null, 12, NULL, 0, buf, 8),
                     SC_ERR_ARG);
    VT_ASSERT_STATUS(sc_crypto_aes256gcm_seal(&env->ctx, buf, tag, key, key, 12, null, 4, buf, 8),
                     SC_ERR_ARG);
    VT_ASSERT_STATUS(sc_crypto_aes256gcm_seal(&env->ctx, null, tag, key, key, 12, NULL, 0, buf, 8),
                     SC_ERR_ARG);
    VT_ASSERT_STATUS(sc_crypto_aes256gcm_open(&env->ctx, buf, key, key, 12, NULL, 0, buf, 8, null),
                     SC_ERR_ARG);
    VT_ASSERT_STATUS(sc_crypto_aes256gcm_open(&env->ctx, buf, key, key, 12, NULL, 0, null, 8, tag),
                     SC_ERR_ARG);
    VT_ASSERT_STATUS(sc_crypto_aes256gcm_open(&env->ctx, null, key, key, 12, NULL, 0, buf, 8, tag),
                     SC_ERR_ARG);
    VT_ASSERT_STATUS(sc_crypto_rng_fill(&env->ctx, null, 8), SC_ERR_ARG);
    VT_ASSERT_STATUS(sc_ctx_selftest((sc_ctx *)vt_null(), SC_GROUP_HASH), SC_ERR_ARG);
    VT_ASSERT_STATUS(sc_ctx_selftest(&env->ctx, (sc_group)SC_GROUP_COUNT), SC_ERR_ARG);
}

void test_neg_hkdf(void **state)
{
    vt_env *env = vt_env_of(state);
    uint8_t prk[32], okm[8161];

    vt_need_cap(env, SC_CAP_HMAC_SHA256, "negative HKDF cases");
    memset(prk, 0x0b, sizeof prk);
    VT_ASSERT_STATUS(sc_crypto_hkdf_expand(&env->ctx, okm, 0, prk, 32, NULL, 0), SC_ERR_ARG);
    VT_ASSERT_STATUS(sc_crypto_hkdf_expand(&env->ctx, okm, 8161, prk, 32, NULL, 0), SC_ERR_ARG);
    VT_ASSERT_STATUS(sc_crypto_hkdf_expand(&env->ctx, okm, 8160, prk, 32, NULL, 0), SC_OK);
    VT_ASSERT_STATUS(sc_crypto_hkdf_expand(&env->ctx, okm, 32, prk, 31, NULL, 0), SC_ERR_ARG);
    VT_ASSERT_STATUS(sc_crypto_hkdf_expand(&env->ctx, okm, 1, prk, 32, NULL, 0), SC_OK);
}

void test_rng(void **state)
{
    vt_env *env = vt_env_of(state);
    uint8_t a[64], b[64], big[4096];
    size_t i, ones = 0;

    vt_need_cap(env, SC_CAP_RNG, "rng");
    memset(a, 0, sizeof a);
    memset(b, 0, sizeof b);
    VT_ASSERT_STATUS(sc_crypto_rng_fill(&env->ctx, a, sizeof a), SC_OK);
    VT_ASSERT_STATUS(sc_crypto_rng_fill(&env->ctx, b, sizeof b), SC_OK);
    assert_memory_not_equal(a, b, sizeof a);
    assert_false(vt_all_zero(a, sizeof a));
    VT_ASSERT_STATUS(sc_crypto_rng_fill(&env->ctx, (uint8_t *)vt_null(), 0), SC_OK);
    VT_ASSERT_STATUS(sc_crypto_rng_fill(&env->ctx, big, sizeof big), SC_OK);
    for (i = 0; i < sizeof big; i++) {
        uint8_t v = big[i];
        while (v != 0) {
            ones += v & 1u;
            v >>= 1;
        }
    }
    /* 32768 fair bits: mean 16384, sd 90.5; 8 sd either way */
    assert_in_range(ones, 16384 - 724, 16384 + 724);
}

/* After fork(), parent and child must not produce the same bytes from the context they share
 * (a DRBG copied by fork would, unless it reseeds). A platform without processes (wasm32:
 * fork() fails with ENOSYS) skips it, saying so; anywhere else a failing fork fails. */
void test_rng_fork(void **state)
{
    vt_env *env = vt_env_of(state);
    uint8_t warm[16], mine[32], theirs[32];
    int fds[2], status = 0;
    pid_t pid;

    vt_need_cap(env, SC_CAP_RNG, "rng after fork");
    VT_ASSERT_STATUS(sc_crypto_rng_fill(&env->ctx, warm, sizeof warm), SC_OK); /* state in use */
    assert_int_equal(pipe(fds), 0);
    errno = 0;
    pid = fork();
    if (pid < 0 && errno == ENOSYS) {
        close(fds[0]);
        close(fds[1]);
        printf("[%s] rng after fork: skipped (this platform has no fork(): ENOSYS)\n",
               env->backend);
        skip();
    }
    assert_true(pid >= 0);
    if (pid == 0) {
        uint8_t child[32];
        close(fds[0]);
        if (sc_crypto_rng_fill(&env->ctx, child, sizeof child) != SC_OK ||
            write(fds[1], child, sizeof child) != (ssize_t)sizeof child) {
            _exit(1);
        }
        _exit(0);
    }
    close(fds[1]);
    VT_ASSERT_STATUS(sc_crypto_rng_fill(&env->ctx, mine, sizeof mine), SC_OK);
    assert_int_equal(read(fds[0], theirs, sizeof theirs), (int)sizeof theirs);
    close(fds[0]);
    assert_int_equal(waitpid(pid, &status, 0), pid);
    assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    assert_memory_not_equal(mine, theirs, sizeof mine);
}
