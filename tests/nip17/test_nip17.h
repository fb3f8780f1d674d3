/* The NIP-17 suite: one cmocka group per backend; every test receives the gw_env of
 * test_nip59_util.h as its initial state. */
#ifndef SOFTCHAT_TESTS_TEST_NIP17_H
#define SOFTCHAT_TESTS_TEST_NIP17_H

#include "test_nip59_util.h"

#define N17_FILE "nip17.spec-example.json"
#define N17_K15_FILE "nip17.kind15-aesgcm.json"

/* Lowercase hex of 32 bytes, NUL-terminated (test_nip17.c). */
void n17_hex(char out[65], const uint8_t in[32]);

/* sc_nip17_receive of an exact-size heap copy of json into a heap arena of exactly
 * sc_nip17_receive_arena_max(len) bytes filled with 0xa5 (the caller frees *arena). On
 * failure it checks that msg is zero, *used is 0 (but for SC_ERR_BUFFER_TOO_SMALL) and the
 * arena holds only 0 and 0xa5; on success that the room lies in the arena right after the
 * rumor and that nothing after the room was left written. */
sc_status n17_receive(gw_env *env, const char *json, size_t len, const sc_identity *me,
                      sc_nip17_received *msg, uint8_t **arena, size_t *used);

/* nip17.spec-example.json and nip17.kind15-aesgcm.json (test_nip17_spec.c) */
void test_dm_spec_wraps(void **state);
void test_dm_spec_rebuild(void **state);
void test_kind15_vectors(void **state);

/* kind 14, receiving, sending (test_nip17_chat.c) */
void test_chat_tags(void **state);
void test_chat_buffers(void **state);
void test_chat_errors(void **state);
void test_receive_room(void **state);
void test_receive_arena(void **state);
void test_send_flow(void **state);
void test_send_rules(void **state);

/* kind 15 and kind 10050 (test_nip17_file.c) */
void test_file_roundtrip(void **state);
void test_file_parse_rules(void **state);
void test_file_build_errors(void **state);
void test_inbox_relays(void **state);

/* arguments and state (test_nip17_args.c) */
void test_nip17_args(void **state);

#endif
