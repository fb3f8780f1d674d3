/* The NIP-44 suite: one cmocka group per backend, every test receiving the nt_env below as its
 * initial state. Upstream files are read at run time from --vectors. */
#ifndef SOFTCHAT_TESTS_TEST_NIP44_H
#define SOFTCHAT_TESTS_TEST_NIP44_H

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
#include <softchat/identity.h>
#include <softchat/nip44.h>

#include "vectors_util.h"

#define NT_FILE "nip44.vectors.json"
#define NT_EXT_FILE "nip44.extended-prefix.json"

typedef struct nt_env {
    sc_ctx ctx; /* bound to `backend` for the whole run */
    const char *backend;
    const char *vectors_dir; /* upstream conformance data */
    int vectors_present;
} nt_env;

static inline nt_env *nt_env_of(void **state)
{
    return (nt_env *)*state;
}

/* ---- helpers (test_nip44.c) ------------------------------------------------------------ */

/* Loads an upstream file, or reports it skipped (never passed) and skips the test. */
cJSON *nt_need_upstream(const nt_env *env, const char *rel);

/* Checks each [length, padded length] pair of `pairs` against sc_nip44_padded_len. */
void nt_check_padded_lens(vt_report *r, const cJSON *pairs);
/* The array or object at root.v2.<a>.<b>; fails the test when absent. */
const cJSON *nt_v2(const cJSON *root, const char *a, const char *b);
/* Exactly n bytes from the hex field key; 0 when absent or of another length. */
int nt_json_fixed(const cJSON *obj, const char *key, uint8_t *out, size_t n);
/* 1 when sha256(p[0..n)) equals the 64-hex-digit string want. */
int nt_sha256_is(nt_env *env, const uint8_t *p, size_t n, const char *want);
/* pattern repeated `repeat` times, malloc'd (vt_alloc); *len its length. */
uint8_t *nt_repeat(const char *pattern, size_t repeat, size_t *len);
/* calc_padded_len written again from the spec's formula (bit length of len - 1), so the
 * library's version is checked against an independent one. */
uint64_t nt_padded_len(uint64_t len);
/* The spec's padded buffer prefix || pt || zeros, built independently; malloc'd. */
uint8_t *nt_pad(const uint8_t *pt, size_t len, size_t *n);
/* base64(version || nonce || ChaCha20(padded) || HMAC(nonce || ct)) built out of place from the
 * primitives, for any padded buffer (valid or not); malloc'd, NUL-terminated. */
char *nt_build_payload(nt_env *env, const uint8_t ck[32], const uint8_t nonce[32], uint8_t version,
                       const uint8_t *padded, size_t n, size_t *len);
/* k when p[0..k) are zero and p[k..cap) all equal fill (non-zero): the caller's buffer was
 * zeroed exactly over its first k bytes and left alone after; (size_t)-1 otherwise. */
size_t nt_zeroed_prefix(const uint8_t *p, size_t cap, uint8_t fill);
/* Bytes a strict decoder writes for b64[0..n): 3 * (n / 4) less the '=' padding, or 0 when n
 * is not a multiple of 4 (refused before anything is written). */
size_t nt_decoded_len(const char *b64, size_t n);
/* Encrypts with the library, checks the result against nt_build_payload and round-trips it;
 * 1 on success, else 0 with err. Checks that bytes past the payload are not touched. */
int nt_encrypt_check(nt_env *env, const uint8_t ck[32], const uint8_t nonce[32], const uint8_t *pt,
                     size_t len, unsigned flags, char *err, size_t cap);

/* ---- tests ------------------------------------------------------------------------------ */

/* nip44.vectors.json (test_nip44_vectors.c) */
void test_v2_conversation_key(void **state);
void test_v2_message_keys(void **state);
void test_v2_padded_len(void **state);
void test_v2_encrypt_decrypt(void **state);
void test_v2_long_msg(void **state);
void test_v2_encrypt_msg_lengths(void **state);
void test_v2_invalid_conversation_key(void **state);
void test_v2_invalid_decrypt(void **state);

/* nip44.extended-prefix.json (test_nip44_ext.c) */
void test_ext_valid(void **state);
void test_ext_padded_len(void **state);
void test_ext_invalid_decrypt(void **state);

/* the library's own cases (test_nip44_own.c, test_nip44_inplace.c, test_nip44_args.c) */
void test_own_sizes(void **state);
void test_own_decrypt_statuses(void **state);
void test_own_decrypt_order(void **state);
void test_own_buffers(void **state);
void test_own_conversation(void **state);
void test_own_peer_cache(void **state);
void test_own_random_nonce(void **state);
void test_own_in_place(void **state);
void test_own_b64_in_place(void **state);
void test_own_backend_failure(void **state);
void test_own_args(void **state);

void test_own_identity_calls(void **state);

#endif
