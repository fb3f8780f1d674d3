/* Helpers shared by the NIP-59 and NIP-17 suites: the per-backend environment, keys, rumors,
 * wrap/unwrap through exact-size heap buffers (so ASan and valgrind see any overrun), layers
 * forged from the library's primitives, an independent opener of gift wraps, and a scripted
 * RNG double. */
#ifndef SOFTCHAT_TESTS_TEST_NIP59_UTIL_H
#define SOFTCHAT_TESTS_TEST_NIP59_UTIL_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>
#include <cjson/cJSON.h>
#include <softchat/softchat.h>

#include "vectors_util.h"

typedef struct gw_env {
    sc_ctx ctx; /* bound to `backend` for the whole run */
    const char *backend;
    const char *vectors_dir; /* upstream conformance data */
    int vectors_present;
} gw_env;

static inline gw_env *gw_env_of(void **state)
{
    return (gw_env *)*state;
}

/* Parses the command line (--backend, --vectors, --own), creates the context, prints the
 * banner and runs the tests as one cmocka group named after the backend. */
int gw_main(int argc, char **argv, const char *suite, const struct CMUnitTest *tests,
            size_t n_tests, gw_env *env);

/* Loads an upstream file, or reports it skipped (never passed) and skips the test. */
cJSON *gw_need_upstream(const gw_env *env, const char *rel);
/* Exactly 32 bytes from 64 hex characters; fails the test otherwise. */
void gw_hex32(const char *hex, uint8_t out[32]);
/* The 32-byte hex field key of obj; fails the test when absent or malformed. */
void gw_json32(const cJSON *obj, const char *key, uint8_t out[32]);

/* A fixed identity per seed (1..127): the secret key is 32 bytes of `seed`. */
void gw_key(gw_env *env, sc_identity *id, uint8_t pub[32], uint8_t seed);

/* Builds a rumor of author into buf: tags are given as strings, each tag ended by NULL and
 * the list by an extra NULL ({"p", hex, NULL, "subject", "x", NULL, NULL}); tags may be NULL.
 * Fails the test on error. */
void gw_rumor(gw_env *env, sc_event *ev, void *buf, size_t cap, const uint8_t author[32],
              uint32_t kind, int64_t created_at, const char *content, size_t len,
              const char *const *tags);

/* sc_nip59_wrap into exact-size heap buffers (sizes from the size functions); fails the test
 * unless it succeeds and leaves the scratch all zero. Returns the malloc'd JSON. */
char *gw_wrap(gw_env *env, const sc_event *rumor, const sc_identity *author,
              const uint8_t recipient[32], const sc_nip59_opts *opts, size_t *len);

/* sc_nip59_unwrap of an exact-size heap copy of json into a heap arena of exactly
 * sc_nip59_unwrap_arena_max(len) bytes, filled with 0xa5 first. *arena (malloc'd, the
 * caller frees) holds the rumor on success; *used is the arena use. On failure it checks that
 * rumor and info are zero, *used is 0 (but for SC_ERR_BUFFER_TOO_SMALL) and the arena holds
 * only 0 and 0xa5. */
sc_status gw_unwrap(gw_env *env, const char *json, size_t len, const sc_identity *me,
                    sc_event *rumor, sc_nip59_info *info, uint8_t **arena, size_t *used);

/* Tampering of a forged layer. */
#define GW_BAD_ID 1u      /* flip a bit of the id after signing */
#define GW_BAD_SIG 2u     /* flip a bit of the signature */
#define GW_BAD_PAYLOAD 4u /* flip a bit of the NIP-44 payload before signing */
#define GW_NO_SIG 8u      /* serialize without the signature */

/* One layer made from the primitives: inner[0..inner_len) NIP-44-encrypted under
 * conv(signer, to), as the content of an event of `kind`, created_at, tags, signed by signer,
 * tampered as asked. Returns the malloc'd JSON. */
char *gw_layer(gw_env *env, const char *inner, size_t inner_len, const sc_identity *signer,
               const uint8_t to[32], uint32_t kind, int64_t created_at, const sc_tag *tags,
               size_t n_tags, unsigned tamper, size_t *len);

/* A gift wrap opened with the primitives only (not sc_nip59_unwrap), each step asserted. */
typedef struct gw_opened {
    sc_event wrap, seal;
    char *seal_json, *rumor_json;
    size_t seal_len, rumor_len;
    uint8_t *arena_wrap, *arena_seal;
} gw_opened;

void gw_open(gw_env *env, const char *json, size_t len, const sc_identity *me, gw_opened *o);
void gw_opened_free(gw_opened *o);

/* 1 when a and b agree on id and pubkey (where both are flagged), created_at, kind, tags and
 * content, byte for byte; else 0 with a reason in why. */
int gw_same(const sc_event *a, const sc_event *b, char *why, size_t cap);
/* Fails the test unless gw_same. */
void gw_assert_same(const sc_event *a, const sc_event *b);

/* Parses an unsigned or signed event text (all fields but sig required) into a malloc'd arena;
 * fails the test on error. */
uint8_t *gw_parse(sc_event *ev, const char *json, size_t len);

/* The 32-byte NIP-44 nonce inside a payload (base64 of 0x02 || nonce || ...). */
void gw_payload_nonce(const char *payload, size_t len, uint8_t nonce[32]);

/* Whether tag t is exactly the given strings (NULL-terminated list). */
int gw_tag_is(const sc_tag *t, const char *const *items);

/* ---- a scripted RNG ---------------------------------------------------------------------- */

/* A context over env's backend whose RNG first serves the scripted bytes (each fill takes
 * from the script while it has enough), then the real generator; or fails when set to. */
void gw_ctx_scripted(gw_env *env, sc_ctx *ctx);
void gw_rng_script(const uint8_t *bytes, size_t n);
void gw_rng_fail(int on);
size_t gw_rng_calls(void);

#endif
