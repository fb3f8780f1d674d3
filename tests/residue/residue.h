/* The residue test: after each call of each primitive group and of the protocol operations,
 * the process's writable memory must hold no copy of the secrets the call was handed or
 * derived (scan.h). Shared by test_residue.c (the harness and the primitive groups),
 * residue_proto.c (identity, NIP-44, NIP-59, files) and residue_nip49.c (XChaCha20-Poly1305,
 * scrypt, NIP-49).
 *
 * Each case: fresh random secrets; the needles (the secrets and what a backend could hold of
 * them: padded HMAC keys, inner digests, SHA-256 state words, the keystream of a last partial
 * block, GCM's E_K(J0)) computed on a reference context of the same backend that is cleared
 * again before the call; a control scan that must find none of them; the call on the context
 * under test, which lives for the whole run; the test's own copies wiped; the scan. At the end
 * the context under test is cleared and every case's needles are looked for once more. */
#ifndef SOFTCHAT_TESTS_RESIDUE_H
#define SOFTCHAT_TESTS_RESIDUE_H

#include <softchat/softchat.h>

#include "scan.h"

#define RT_MAX_CASES 48

typedef struct rt {
    const char *backend;
    sc_ctx ctx; /* the context under test */
    int failures;
    size_t cases;
    rs_set sets[RT_MAX_CASES]; /* every case's needles, for the scan after sc_ctx_clear */
    const char *names[RT_MAX_CASES];
} rt;

#define RT_WIPE(x) sc_mem_wipe((x), sizeof(x))

/* ---- cases ------------------------------------------------------------------------------- */

/* A fresh needle set for case `name` (kept for the final scan), or NULL when too many. */
rs_set *rt_case(rt *t, const char *name);

/* The control scan before the call: 1 when none of s's needles is in memory outside the
 * test's live inputs (live[0..n_live)). */
int rt_control(rt *t, const char *name, const rs_set *s, const rs_range *live, size_t n_live);
/* rt_control with the live ranges listed: RT_CONTROL(t, name, s, RS_LIVE(key), ...). */
#define RT_CONTROL(t, name, s, ...)                                                                \
    rt_control((t), (name), (s), (const rs_range[]){__VA_ARGS__},                                  \
               sizeof((const rs_range[]){__VA_ARGS__}) / sizeof(rs_range))

/* The call's verdict: st must be want, and none of s's needles may be in memory. */
void rt_verdict(rt *t, const char *name, sc_status st, sc_status want, const rs_set *s);

void rt_skip(const char *name, const char *why);
void rt_fail(rt *t, const char *name, const char *fmt, ...)
#if defined(__GNUC__) || defined(__clang__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

/* Whether the backend provides cap; prints the skip with its reason when it does not. */
int rt_has(rt *t, const char *name, sc_cap cap);

/* ---- secrets and reference computations ---------------------------------------------------- */

void rt_fresh(uint8_t *p, size_t n);
/* A fresh valid secp256k1 secret key. */
void rt_fresh_key(uint8_t sec[32]);
/* Lowercase hex of random bytes, n characters (a private message text). */
void rt_fresh_text(char *p, size_t n);

/* A reference context on the backend under test; 0 (failure reported) when it fails. */
int rt_ref_begin(rt *t, const char *name, sc_ctx *ref);
void rt_ref_end(sc_ctx *ref);

/* The x-only public key of sec, through the reference context. */
int rt_pub(rt *t, const char *name, sc_ctx *ref, uint8_t pub[32], const uint8_t sec[32]);

/* Needles of an HMAC-SHA256 key: the key, its SHA-256 when longer than a block, and the key
 * part of K0 ^ ipad and K0 ^ opad. */
int rt_add_hmac_key(rs_set *s, sc_ctx *ref, const char *what, const uint8_t *key, size_t len);

/* Needles of the inner digest SHA-256(K0 ^ ipad || parts) of HMAC(key, parts), plain and as
 * state words. */
int rt_add_hmac_inner(rs_set *s, sc_ctx *ref, const char *what, const uint8_t *key, size_t len,
                      const sc_iov *parts, size_t n_parts);

/* Needles of HKDF-Expand(prk, info, okm_len): prk as an HMAC key, every block T(i) (plain and
 * as state words) and each block's inner digest. okm receives the output (the caller wipes
 * it). */
int rt_add_hkdf_expand(rs_set *s, sc_ctx *ref, const char *what, uint8_t *okm, size_t okm_len,
                       const uint8_t *prk, size_t prk_len, const uint8_t *info, size_t info_len);

/* Needles of a NIP-44 conversation key between sec and pub: sec, the ECDH x (computed by
 * libsecp256k1 directly), the key itself (plain and as state words) and the HKDF-Extract inner
 * digest. ck receives the key (the caller wipes it). */
int rt_add_conversation(rs_set *s, sc_ctx *ref, const char *what, uint8_t ck[32],
                        const uint8_t sec[32], const uint8_t pub[32]);

/* Needles of one NIP-44 payload under ck, from the payload itself: the message keys of its
 * nonce (HKDF-Expand blocks, ChaCha20 key, HMAC key), the keystream of the last ChaCha20
 * block, the MAC's inner digest and the first 128 bytes of the plaintext. The keys are
 * checked against the payload first (the MAC recomputed, the ciphertext decrypted); pt, when
 * not NULL, receives the plaintext (the caller wipes it). Returns 1, or 0 with the failure
 * reported. */
int rt_add_nip44_payload(rt *t, const char *name, rs_set *s, sc_ctx *ref, const uint8_t ck[32],
                         const char *payload, size_t payload_len, uint8_t *pt, size_t pt_cap,
                         size_t *pt_len);

/* Needles of AES-256-GCM under key and iv over len bytes (len + 15 <= 4096): the key,
 * E_K(J0) (the tag of the empty message) and the keystream of the last block. */
int rt_add_gcm(rs_set *s, sc_ctx *ref, const uint8_t key[32], const uint8_t *iv, size_t iv_len,
               size_t len);

/* ---- the protocol cases (residue_proto.c) -------------------------------------------------- */

void rt_identity_cases(rt *t);
void rt_nip44_cases(rt *t);
void rt_nip59_cases(rt *t);
void rt_file_cases(rt *t);

/* ---- XChaCha20-Poly1305, scrypt and NIP-49 (residue_nip49.c) -------------------------------- */

void rt_nip49_cases(rt *t);

#endif
