/* The NIP-01 event suite: one cmocka group per backend; every test receives the ev_env below
 * as its initial state. */
#ifndef SOFTCHAT_TESTS_TEST_EVENT_H
#define SOFTCHAT_TESTS_TEST_EVENT_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>
#include <cjson/cJSON.h>
#include <softchat/softchat.h>

#include "vectors_util.h"

typedef struct ev_env {
    sc_ctx ctx; /* bound to `backend` for the whole run */
    const char *backend;
    const char *vectors_dir; /* upstream conformance data (nip01.events.json) */
    int vectors_present;     /* vectors_dir exists */
} ev_env;

static inline ev_env *ev_env_of(void **state)
{
    return (ev_env *)*state;
}

/* The secret key of BIP-340 test vector 1, which signed the generated NIP-01 vectors. */
extern const uint8_t ev_bip340_sec1[32];

/* Imports ev_bip340_sec1 (fails the test on error). */
void ev_identity(ev_env *env, sc_identity *id);

/* Parses json[0..len) from an exact-size heap copy, so a read past the end is caught by
 * ASan and valgrind. */
sc_status ev_parse_exact(sc_event *ev, void *arena, size_t cap, size_t *used, const char *json,
                         size_t len, const sc_event_parse_opts *opts);

/* Serializes ev into a malloc'd buffer (the caller frees); fails the test on error. */
char *ev_to_json(const sc_event *ev, unsigned flags, size_t *len);

/* Fails the test unless a and b have the same fields (flags, id/pubkey/sig as flagged,
 * created_at, kind, tags and content byte for byte). */
void ev_assert_same(const sc_event *a, const sc_event *b);
/* 1 when equal as above, else 0 with a reason in why. */
int ev_same(const sc_event *a, const sc_event *b, char *why, size_t cap);

/* test_event_vectors.c */
void test_nip01_vectors(void **state);

/* test_event_write.c */
void test_escape_every_c0(void **state);
void test_escape_at_every_position(void **state);
void test_utf8_at_every_position(void **state);
void test_write_checks_in_check_order(void **state);
void test_verbatim_specials(void **state);
void test_nul_in_content(void **state);
void test_object_form(void **state);
void test_json_len_and_buffer(void **state);
void test_check_rejects(void **state);
void test_utf8_table(void **state);
void test_streamed_id_matches_text(void **state);

/* test_event_sign.c */
void test_verify_key_cache(void **state);
void test_sign_verify(void **state);
void test_sign_reproduces_vector(void **state);
void test_tamper(void **state);
void test_sign_failures(void **state);
void test_builder_happy(void **state);
void test_builder_errors(void **state);
void test_builder_capacity(void **state);
void test_builder_two_pass(void **state);
void test_parse_error_detail(void **state);

/* test_event_parse.c */
void test_parse_alternatives(void **state);
void test_parse_rejects(void **state);
void test_parse_arena(void **state);
void test_parse_opts(void **state);
void test_parse_prefixes(void **state);
void test_parse_mutations(void **state);

#endif
