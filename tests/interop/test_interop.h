/* The interop suite: the cross-implementation vectors that nostr-tools made
 * (vectors/nostr-tools.*.json), run against one backend per process. Each test receives the
 * it_env below as its cmocka state. */
#ifndef SOFTCHAT_TESTS_TEST_INTEROP_H
#define SOFTCHAT_TESTS_TEST_INTEROP_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>
#include <cjson/cJSON.h>
#include <softchat/softchat.h>

#include "vectors_util.h"

#define IT_EVENTS_FILE "nostr-tools.events.json"
#define IT_NIP44_FILE "nostr-tools.nip44.json"

typedef struct it_env {
    sc_ctx ctx; /* bound to `backend` for the whole run */
    const char *backend;
    const char *own_dir; /* the project's vectors/ folder */
    cJSON *events;       /* parsed IT_EVENTS_FILE, or NULL (why in events_why) */
    cJSON *nip44;        /* parsed IT_NIP44_FILE, or NULL */
    char events_why[512];
    char nip44_why[512];
} it_env;

static inline it_env *it_env_of(void **state)
{
    return (it_env *)*state;
}

/* The array `key` of a loaded file; fails the test when the file or the array is missing
 * (these files live in the repository: their absence is an error, never a skip). */
const cJSON *it_need_array(const it_env *env, const cJSON *doc, const char *file, const char *why,
                           const char *key);

/* The status whose sc_status_name is `name`, or 1 (never a status) when there is none. */
int it_status_by_name(const char *name);

/* Hex of exactly n bytes from a JSON string field into out. Returns 1 on success. */
int it_json_hex_exact(const cJSON *obj, const char *key, uint8_t *out, size_t n);

/* A JSON integer field as int64_t (exact up to 2^53, as JSON numbers from JavaScript are).
 * Returns 1 when the field is a number. */
int it_json_i64(const cJSON *obj, const char *key, int64_t *out);

/* A JSON string field with its byte length (cJSON strings end at the first NUL; the texts in
 * these files never contain a raw NUL: JSON escapes it). NULL when absent. */
const char *it_json_text(const cJSON *obj, const char *key, size_t *len);

/* First index where a and b differ (for messages), or the shorter length. */
size_t it_first_diff(const char *a, size_t an, const char *b, size_t bn);

/* events (test_interop_events.c) */
void test_interop_events(void **state);
void test_interop_event_alternates(void **state);
void test_interop_event_rejects(void **state);

/* NIP-44 (test_interop_nip44.c) */
void test_interop_nip44_conversation_keys(void **state);
void test_interop_nip44_encrypt(void **state);
void test_interop_nip44_rejects(void **state);

#endif
