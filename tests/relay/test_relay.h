/* The relay protocol suite (relay.h, nip40.h, the NIP-40 unwrap checks): shared helpers. */
#ifndef SOFTCHAT_TESTS_RELAY_H
#define SOFTCHAT_TESTS_RELAY_H

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <softchat/softchat.h>

#include "vectors_util.h"

typedef struct relay_env {
    sc_ctx ctx;
    const char *backend;
    sc_identity alice, bob;
    uint8_t alice_pub[32], bob_pub[32];
} relay_env;

/* A signed event of alice: kind, created_at, content, and tags given as NULL-separated
 * item lists ending with two NULLs: {"p", hex, NULL, "t", "x", NULL, NULL}. The event and
 * its arrays live in *hold (caller-owned, static lifetime in a test). */
typedef struct relay_ev {
    sc_event ev;
    sc_tag tags[8];
    sc_str items[24];
} relay_ev;
void relay_make(relay_env *e, relay_ev *h, const sc_identity *who, uint32_t kind,
                int64_t created_at, const char *content, const char *const *tags);

/* JSON text of a relay message made by hand around ev. */
size_t relay_event_msg(char *out, size_t cap, const char *sub, const sc_event *ev);

void test_write_messages(void **state);
void test_write_errors(void **state);
void test_parse_messages(void **state);
void test_parse_rejects(void **state);
void test_parse_arena(void **state);
void test_parse_need(void **state);
void test_parse_count(void **state);
void test_filter_match(void **state);
void test_filter_parse(void **state);
void test_url_normalize(void **state);
void test_auth_event(void **state);
void test_session_flow(void **state);
void test_session_reconnect(void **state);
void test_session_resume_cut(void **state);
void test_session_future(void **state);
void test_session_auth(void **state);
void test_session_auth_signed_elsewhere(void **state);
void test_session_limits(void **state);
void test_nip40(void **state);
void test_nip40_unwrap(void **state);

#endif
