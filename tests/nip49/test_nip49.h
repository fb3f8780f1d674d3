/* The NIP-49 suite: one context per run, on the backend given, and what every test needs. */
#ifndef SOFTCHAT_TESTS_TEST_NIP49_H
#define SOFTCHAT_TESTS_TEST_NIP49_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>
#include <cjson/cJSON.h>
#include <softchat/softchat.h>

#include "vectors_util.h"

typedef struct n49_env {
    sc_ctx ctx;
    const char *backend;
    const char *vectors_dir;
    int vectors_present;
    const char *own_dir;
    int has_nip49;     /* the backend has scrypt and XChaCha20-Poly1305 */
    const char *why;   /* why not, when it has not */
    unsigned max_cost; /* the highest log_n this run pays for (SOFTCHAT_NIP49_LOG_N_MAX) */
} n49_env;

#define N49_OWN_FILE "nostr-tools.nip49.json"

static inline n49_env *n49_env_of(void **state)
{
    return (n49_env *)*state;
}

/* Skips the running test, saying why, when the backend lacks NIP-49's primitives (they are
 * optional: backends/<dir>/backend.cmake declares which), after checking that encryption and
 * decryption refuse with SC_ERR_UNSUPPORTED. */
void n49_need_backend(n49_env *env, const char *what);

void test_spec_vector(void **state);
void test_spec_nfkc(void **state);
void test_nostr_tools_valid(void **state);
void test_nostr_tools_rejects(void **state);
void test_round_trip(void **state);
void test_args(void **state);
void test_cost_and_size(void **state);
void test_unsupported(void **state);

#endif
