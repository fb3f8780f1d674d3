/* The kind 15 attachment suite for one backend:
 *   test_file --backend NAME [--vectors DIR] [--own DIR] --node PATH --gcm-ref SCRIPT [--seed N]
 *             [--gcm-ref-dir DIR]
 * --vectors names the upstream data (nip17.kind15-aesgcm.json); --own is accepted for symmetry
 * with the other suites (no own vector file here). --node and --gcm-ref run the independent
 * AES-GCM reference (tests/file/gcm_ref.mjs); node is a test dependency, so a missing one is a
 * failure, never a skip. --gcm-ref-dir DIR reads what gcm_ref.mjs wrote into DIR before the
 * suite started instead (a build whose programs cannot start others: wasm32, where ctest's
 * fixture file.gcm-ref runs it). One context is created for the backend and every test runs against
 * it; the cmocka group is named after the backend. */
#include "test_file.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vt_rand.h"

void ft_need_stream(const ft_env *env, const char *what)
{
    if (!env->stream_ok) {
        printf("[%s] %s: skipped (%s)\n", env->backend, what, env->stream_why);
        fflush(stdout);
        skip();
    }
}

/* ---- the memory sink -------------------------------------------------------------------- */

static sc_status sink_write(void *user, const uint8_t *data, size_t len)
{
    ft_sink *k = (ft_sink *)user;

    k->writes++;
    if (len > k->max_write) {
        k->max_write = len;
    }
    if (k->reenter != NULL && k->writes == 1) {
        uint8_t x[32];

        switch (k->reenter_mode) {
        case 1:
            k->reenter_status = sc_file_decrypt_update(k->reenter, data, 1);
            break;
        case 2:
            k->reenter_status = sc_file_decrypt_final(k->reenter, x, NULL);
            break;
        case 3:
            sc_file_decrypt_abort(k->reenter);
            break;
        default:
            break;
        }
    }
    if (k->fail_write != 0 && k->writes == k->fail_write) {
        return k->fail_status != SC_OK ? k->fail_status : SC_ERR_IO;
    }
    if (k->committed != NULL || k->discards != 0) {
        fail_msg("sink: write after the operation ended");
    }
    if (k->pending_len + len > k->pending_cap) {
        size_t cap = (k->pending_len + len) * 2 + 64;
        uint8_t *p = vt_alloc(cap);

        if (k->pending_len != 0) {
            memcpy(p, k->pending, k->pending_len);
        }
        free(k->pending);
        k->pending = p;
        k->pending_cap = cap;
    }
    memcpy(k->pending + k->pending_len, data, len);
    k->pending_len += len;
    return SC_OK;
}

static sc_status sink_commit(void *user)
{
    ft_sink *k = (ft_sink *)user;

    k->commits++;
    if (k->fail_commit) {
        return k->fail_status != SC_OK ? k->fail_status : SC_ERR_IO; /* it cleans up itself */
    }
    k->committed = k->pending != NULL ? k->pending : vt_alloc(1);
    k->committed_len = k->pending_len;
    k->pending = NULL;
    k->pending_len = k->pending_cap = 0;
    return SC_OK;
}

static void sink_discard(void *user)
{
    ft_sink *k = (ft_sink *)user;

    k->discards++;
    if (k->pending != NULL) {
        memset(k->pending, 0, k->pending_cap);
    }
    free(k->pending);
    k->pending = NULL;
    k->pending_len = k->pending_cap = 0;
}

void ft_sink_init(ft_sink *k, sc_file_sink *out)
{
    memset(k, 0, sizeof *k);
    out->user = k;
    out->write = sink_write;
    out->commit = sink_commit;
    out->discard = sink_discard;
}

void ft_sink_free(ft_sink *k)
{
    free(k->pending);
    free(k->committed);
    memset(k, 0, sizeof *k);
}

int ft_sink_discarded_once(const ft_sink *k)
{
    return k->discards == 1 && k->commits == 0 && k->committed == NULL && k->pending_len == 0;
}

/* ---- whole-buffer helpers --------------------------------------------------------------- */

static size_t piece(size_t chunk, size_t left)
{
    size_t n = (chunk == FT_CHUNK_RANDOM) ? vt_rand_below(9001) : chunk;

    return n < left ? n : left;
}

void ft_sha256(ft_env *env, const uint8_t *p, size_t n, uint8_t out[32])
{
    VT_ASSERT_STATUS(sc_crypto_sha256(&env->ctx, out, p, n), SC_OK);
}

sc_status ft_encrypt(ft_env *env, const uint8_t key[32], const uint8_t *iv, size_t iv_len,
                     const uint8_t *pt, size_t len, size_t chunk, uint8_t **blob, size_t *blob_len,
                     uint8_t x[32], uint8_t ox[32], uint64_t *size)
{
    size_t cap = len + 32, pos = 0, used = 0, n = 0;
    uint8_t *out = vt_alloc(cap);
    sc_file_enc e;
    sc_status st;

    *blob = NULL;
    *blob_len = 0;
    st = sc_file_encrypt_init(&env->ctx, &e, key, iv, iv_len);
    while (st == SC_OK && used < len) {
        size_t take = piece(chunk, len - used);

        st = sc_file_encrypt_update(&e, out + pos, cap - pos, &n, pt + used, take);
        /* after U plaintext bytes, exactly floor(U / 16) whole blocks are out */
        if (st == SC_OK && pos + n != (used + take) / 16 * 16) {
            fail_msg("encrypt update of %zu bytes wrote %zu (%zu of %zu done)", take, n, used, len);
        }
        used += take;
        pos += n;
    }
    if (st == SC_OK) {
        st = sc_file_encrypt_final(&e, out + pos, cap - pos, &n, x, ox, size);
    }
    if (st != SC_OK) {
        sc_file_encrypt_abort(&e);
        free(out);
        return st;
    }
    pos += n;
    *blob = out;
    *blob_len = pos;
    return SC_OK;
}

sc_status ft_decrypt(ft_env *env, const uint8_t key[32], const uint8_t *iv, size_t iv_len,
                     const uint8_t *blob, size_t len, size_t chunk, ft_sink *k, uint8_t x[32],
                     uint8_t ox[32])
{
    sc_file_sink sink;
    sc_file_dec d;
    size_t used = 0;
    sc_status st;

    sink.user = k;
    sink.write = sink_write;
    sink.commit = sink_commit;
    sink.discard = sink_discard;
    st = sc_file_decrypt_init(&env->ctx, &d, key, iv, iv_len, &sink);
    if (st != SC_OK) {
        return st;
    }
    while (used < len) {
        size_t take = piece(chunk, len - used);

        st = sc_file_decrypt_update(&d, blob + used, take);
        if (st != SC_OK) {
            return st;
        }
        used += take;
    }
    return sc_file_decrypt_final(&d, x, ox);
}

/* ---- main ------------------------------------------------------------------------------- */

int main(int argc, char **argv)
{
    static ft_env env; /* the state of every test */
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_prestate(test_unsupported_backend, &env),
        cmocka_unit_test_prestate(test_kind15_vectors, &env),
        cmocka_unit_test_prestate(test_node_reference, &env),
        cmocka_unit_test_prestate(test_chunkings, &env),
        cmocka_unit_test_prestate(test_hashes, &env),
        cmocka_unit_test_prestate(test_tamper, &env),
        cmocka_unit_test_prestate(test_short_blobs, &env),
        cmocka_unit_test_prestate(test_sink_failures, &env),
        cmocka_unit_test_prestate(test_sink_reentry, &env),
        cmocka_unit_test_prestate(test_lease, &env),
        cmocka_unit_test_prestate(test_ctx_clear, &env),
        cmocka_unit_test_prestate(test_buffer_too_small, &env),
        cmocka_unit_test_prestate(test_too_large, &env),
        cmocka_unit_test_prestate(test_backend_failures, &env),
        cmocka_unit_test_prestate(test_keygen, &env),
        cmocka_unit_test_prestate(test_iv_candidates, &env),
        cmocka_unit_test_prestate(test_args, &env),
    };
    const char *seed_text = NULL;
    const vt_suite_opt extra[] = {{"--node", &env.node},
                                  {"--gcm-ref", &env.gcm_ref},
                                  {"--gcm-ref-dir", &env.gcm_ref_dir},
                                  {"--seed", &seed_text}};
    vt_suite suite;
    int failed;

    env.node = "";
    env.gcm_ref = "";
    env.gcm_ref_dir = "";
    failed = vt_suite_start(&suite, &env.ctx, argc, argv, "test_file", "kind 15 files",
                            FT_FILE " is", extra, sizeof extra / sizeof extra[0]);
    if (failed != 0) {
        return failed;
    }
    env.backend = suite.backend;
    env.vectors_dir = suite.vectors_dir;
    env.vectors_present = suite.vectors_present;
    env.seed = seed_text != NULL ? strtoull(seed_text, NULL, 10) : vt_rand_fresh_seed();
    env.stream_why = "";
    env.stream_ok =
        sc_backend_has(sc_ctx_backend(&env.ctx), SC_CAP_AES256GCM_STREAM, &env.stream_why) == SC_OK;
    vt_rand_seed(env.seed);
    printf("[%s] seed %llu (rerun with --seed)\n", suite.backend, (unsigned long long)env.seed);
    if (!env.stream_ok) {
        printf("[%s] streaming AES-256-GCM unsupported: %s\n", suite.backend, env.stream_why);
    }
    fflush(stdout);
    failed = cmocka_run_group_tests_name(suite.backend, tests, NULL, NULL);
    sc_ctx_clear(&env.ctx);
    return failed != 0 ? 1 : 0;
}
