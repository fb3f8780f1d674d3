/* The kind 15 attachment suite (api/softchat/file.h): one cmocka group per backend, every test
 * receiving the ft_env below as its initial state. Upstream files are read at run time from
 * --vectors; the independent AES-GCM reference is node's crypto, run at test time. */
#ifndef SOFTCHAT_TESTS_TEST_FILE_H
#define SOFTCHAT_TESTS_TEST_FILE_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>
#include <cjson/cJSON.h>
#include <softchat/crypto.h>
#include <softchat/ctx.h>
#include <softchat/base64.h>
#include <softchat/hex.h>
#include <softchat/mem.h>
#include <softchat/file.h>

#include "vectors_util.h"

#define FT_FILE "nip17.kind15-aesgcm.json"

typedef struct ft_env {
    sc_ctx ctx; /* bound to `backend` for the whole run */
    const char *backend;
    const char *vectors_dir; /* upstream conformance data */
    int vectors_present;
    const char *node;        /* the node executable ("" when CMake found none) */
    const char *gcm_ref;     /* tests/file/gcm_ref.mjs */
    const char *gcm_ref_dir; /* what gcm_ref.mjs wrote before the test ran ("": run it here) */
    int stream_ok;           /* SC_CAP_AES256GCM_STREAM on this backend */
    const char *stream_why;  /* why not */
    uint64_t seed;           /* for the random chunkings and inputs */
} ft_env;

static inline ft_env *ft_env_of(void **state)
{
    return (ft_env *)*state;
}

/* Returns when the backend streams AES-GCM; otherwise prints "[backend] what: skipped (why)"
 * and skips the running test (never a pass). */
void ft_need_stream(const ft_env *env, const char *what);

/* ---- a sink in memory ------------------------------------------------------------------- */

/* Records everything: the pending (uncommitted) bytes, what was committed, and each callback.
 * Optional faults: fail the n-th write or the commit; call back into the operation. */
typedef struct ft_sink {
    uint8_t *pending;
    size_t pending_len, pending_cap;
    uint8_t *committed; /* non-NULL only after a commit */
    size_t committed_len;
    unsigned writes, commits, discards;
    size_t max_write;    /* the largest single write */
    unsigned fail_write; /* 1-based write number that fails (0: none) */
    int fail_commit;
    sc_status fail_status; /* what a failing write or commit returns (0: SC_ERR_IO) */
    sc_file_dec *reenter;  /* with reenter_mode: the operation a write calls back into */
    int reenter_mode;      /* 1: update, 2: final, 3: abort (at the first write) */
    sc_status reenter_status;
} ft_sink;

/* A fresh sink k wired into *out. */
void ft_sink_init(ft_sink *k, sc_file_sink *out);
void ft_sink_free(ft_sink *k);
/* 1 when the operation ended by exactly one discard and nothing was ever committed (the
 * pending bytes are gone too). */
int ft_sink_discarded_once(const ft_sink *k);

/* ---- whole-buffer helpers over the streaming API ---------------------------------------- */

/* Piece sizes for the helpers: a fixed size, or FT_CHUNK_RANDOM for random pieces (0 to 9000
 * bytes, empty pieces included). */
#define FT_CHUNK_RANDOM ((size_t)0)

/* Encrypts pt[0..len) in pieces; *blob (malloc'd, len + 16 bytes) on SC_OK.
 * Checks on the way that each update wrote what the contract says. */
sc_status ft_encrypt(ft_env *env, const uint8_t key[32], const uint8_t *iv, size_t iv_len,
                     const uint8_t *pt, size_t len, size_t chunk, uint8_t **blob, size_t *blob_len,
                     uint8_t x[32], uint8_t ox[32], uint64_t *size);

/* Decrypts blob[0..len) in pieces into the sink k (initialised by the caller); returns the
 * first failing status (init, update or final). */
sc_status ft_decrypt(ft_env *env, const uint8_t key[32], const uint8_t *iv, size_t iv_len,
                     const uint8_t *blob, size_t len, size_t chunk, ft_sink *k, uint8_t x[32],
                     uint8_t ox[32]);

/* sha256 of p[0..n) by the library's one-shot call. */
void ft_sha256(ft_env *env, const uint8_t *p, size_t n, uint8_t out[32]);

/* ---- tests ------------------------------------------------------------------------------ */

/* test_file_vectors.c */
void test_unsupported_backend(void **state);
void test_kind15_vectors(void **state);
/* test_file_ref.c */
void test_node_reference(void **state);
/* test_file_stream.c */
void test_chunkings(void **state);
void test_hashes(void **state);
void test_tamper(void **state);
void test_short_blobs(void **state);
void test_sink_failures(void **state);
void test_sink_reentry(void **state);
void test_lease(void **state);
void test_ctx_clear(void **state);
void test_buffer_too_small(void **state);
void test_too_large(void **state);
void test_backend_failures(void **state);
/* test_file_args.c */
void test_keygen(void **state);
void test_iv_candidates(void **state);
void test_args(void **state);

#endif
