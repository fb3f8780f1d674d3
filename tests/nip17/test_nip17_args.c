/* Argument and state checks of the NIP-17 functions. This file passes NULL on purpose to
 * parameters declared non-NULL. */
#include "test_nip17.h"

#include <string.h>

void test_nip17_args(void **state)
{
    gw_env *env = gw_env_of(state);
    uint8_t buf[1024], pub[32], arena[256];
    sc_nip17_received msg;
    sc_nip17_peer to;
    sc_nip17_chat m;
    sc_nip17_file f;
    sc_identity me, erased;
    sc_event ev;
    sc_str relays[1];
    size_t n = 3, used = 3;
    sc_ctx cleared;

    gw_key(env, &me, pub, 0x7a);
    memset(&erased, 0, sizeof erased);
    memset(&cleared, 0, sizeof cleared);
    memset(&to, 0, sizeof to);
    memset(&m, 0, sizeof m);
    memset(&f, 0, sizeof f);
    m.to = &to;
    m.n_to = 1;

    /* kind 14 / 15 builders */
    VT_ASSERT_STATUS(sc_nip17_chat_rumor(vt_null(), &ev, buf, sizeof buf, &m, pub), SC_ERR_ARG);
    VT_ASSERT_STATUS(sc_nip17_chat_rumor(&env->ctx, vt_null(), buf, sizeof buf, &m, pub),
                     SC_ERR_ARG);
    VT_ASSERT_STATUS(sc_nip17_chat_rumor(&env->ctx, &ev, buf, sizeof buf, vt_null(), pub),
                     SC_ERR_ARG);
    VT_ASSERT_STATUS(sc_nip17_chat_rumor(&env->ctx, &ev, buf, sizeof buf, &m, vt_null()),
                     SC_ERR_ARG);
    VT_ASSERT_STATUS(sc_nip17_chat_rumor(&cleared, &ev, buf, sizeof buf, &m, pub), SC_ERR_STATE);
    VT_ASSERT_STATUS(sc_nip17_file_rumor(&env->ctx, &ev, buf, sizeof buf, &m, vt_null(), pub),
                     SC_ERR_ARG);
    VT_ASSERT_STATUS(sc_nip17_file_rumor(&env->ctx, vt_null(), buf, sizeof buf, &m, &f, pub),
                     SC_ERR_ARG);
    VT_ASSERT_STATUS(sc_nip17_file_rumor(&cleared, &ev, buf, sizeof buf, &m, &f, pub),
                     SC_ERR_STATE);

    /* readers */
    VT_ASSERT_STATUS(sc_nip17_file_parse(vt_null(), NULL, 0, &(size_t){0}, &ev), SC_ERR_ARG);
    VT_ASSERT_STATUS(sc_nip17_file_parse(&f, NULL, 0, &(size_t){0}, vt_null()), SC_ERR_ARG);
    VT_ASSERT_STATUS(sc_nip17_file_parse(&f, vt_null(), 2, &(size_t){0}, &ev), SC_ERR_ARG);
    VT_ASSERT_STATUS(sc_nip17_inbox_parse(relays, 1, vt_null(), &ev), SC_ERR_ARG);
    VT_ASSERT_STATUS(sc_nip17_inbox_parse(relays, 1, &n, vt_null()), SC_ERR_ARG);
    assert_int_equal(n, 0);
    VT_ASSERT_STATUS(sc_nip17_inbox_parse(vt_null(), 1, &n, &ev), SC_ERR_ARG);
    VT_ASSERT_STATUS(sc_nip17_inbox_build(vt_null(), buf, sizeof buf, relays, 0, 1), SC_ERR_ARG);
    VT_ASSERT_STATUS(sc_nip17_inbox_build(&ev, vt_null(), 10, relays, 0, 1), SC_ERR_ARG);
    VT_ASSERT_STATUS(sc_nip17_inbox_build(&ev, buf, sizeof buf, vt_null(), 1, 1), SC_ERR_ARG);
    assert_int_equal(sc_nip17_inbox_build_buf_max(vt_null(), 1), 0);

    /* receiving */
    VT_ASSERT_STATUS(
        sc_nip17_receive(&env->ctx, vt_null(), arena, sizeof arena, &used, "{}", 2, &me),
        SC_ERR_ARG);
    assert_int_equal(used, 0);
    VT_ASSERT_STATUS(sc_nip17_receive(vt_null(), &msg, arena, sizeof arena, &used, "{}", 2, &me),
                     SC_ERR_ARG);
    VT_ASSERT_STATUS(
        sc_nip17_receive(&env->ctx, &msg, arena, sizeof arena, vt_null(), "{}", 2, &me),
        SC_ERR_ARG);
    VT_ASSERT_STATUS(
        sc_nip17_receive(&env->ctx, &msg, arena, sizeof arena, &used, "{}", 2, vt_null()),
        SC_ERR_ARG);
    VT_ASSERT_STATUS(sc_nip17_receive(&cleared, &msg, arena, sizeof arena, &used, "{}", 2, &me),
                     SC_ERR_STATE);
    VT_ASSERT_STATUS(
        sc_nip17_receive(&env->ctx, &msg, arena, sizeof arena, &used, "{}", 2, &erased),
        SC_ERR_STATE);
    VT_ASSERT_STATUS(sc_nip17_receive(&env->ctx, &msg, arena, sizeof arena, &used, "{}", 2, &me),
                     SC_ERR_EVENT_FIELD);
    assert_true(sc_nip17_receive_arena_max(100) > sc_nip59_unwrap_arena_max(100));
    assert_int_equal(sc_nip17_receive_arena_max((size_t)-1), 0);
    sc_identity_clear(&me);
}
