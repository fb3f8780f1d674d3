/* The NIP-98 suite: one context per run, on the backend given, a signing identity, and the
 * helpers that make and check headers. */
#ifndef SOFTCHAT_TESTS_TEST_NIP98_H
#define SOFTCHAT_TESTS_TEST_NIP98_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>
#include <cjson/cJSON.h>
#include <softchat/softchat.h>

#include "vectors_util.h"

typedef struct n98_env {
    sc_ctx ctx;
    const char *backend;
    const char *vectors_dir;
    int vectors_present;
    sc_identity id; /* the signer of the headers made here (secret key 3) */
} n98_env;

#define N98_URL "https://api.example.com/v1/upload?name=a%20b&x=1"
#define N98_NOW ((int64_t)1700000000)

static inline n98_env *n98_env_of(void **state)
{
    return (n98_env *)*state;
}

/* "Nostr " and the base64 of an event signed by env->id (aux 0): kind, created_at, content
 * and the tags of `spec`, "name=value|name=value|..." (a value may hold '=', never '|'; a
 * name alone makes a one-item tag). padded 0 drops the base64 padding. The caller frees it. */
char *n98_header(n98_env *env, uint32_t kind, int64_t created_at, const char *content,
                 const char *spec, int padded);

/* "Nostr " and the base64 (padded or not) of json[0..len). The caller frees it. */
char *n98_wrap_json(const char *json, size_t len, int padded);

/* sc_nip98_verify of header against (url, method, payload, now, window), into a scratch of the
 * bound's size; the event is copied out of nothing: only the status and, on SC_OK, the
 * pubkey are checked by callers through *pub (may be NULL). */
sc_status n98_verify(n98_env *env, const char *header, const char *url, const char *method,
                     const uint8_t *payload, int64_t now, int64_t window, uint8_t pub[32]);

void test_spec_examples(void **state);
void test_round_trip(void **state);
void test_header_forms(void **state);
void test_each_check(void **state);
void test_time_window(void **state);
void test_payload(void **state);
void test_sign_args(void **state);
void test_verify_args(void **state);
void test_template_local(void **state);
void test_template_external(void **state);
void test_header_refuses(void **state);
void test_header_args(void **state);

#endif
