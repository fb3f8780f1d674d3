/* The NIP-17 private-message suite for one backend:
 *   test_nip17 --backend NAME [--vectors DIR] [--own DIR]
 * --vectors names the upstream data (nip17.spec-example.json and nip17.kind15-aesgcm.json are
 * read from it at run time); --own is accepted for symmetry (the own cases are in code). */
#include "test_nip17.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void n17_hex(char out[65], const uint8_t in[32])
{
    size_t i;

    for (i = 0; i < 32; i++) {
        snprintf(out + 2 * i, 3, "%02x", in[i]);
    }
}

sc_status n17_receive(gw_env *env, const char *json, size_t len, const sc_identity *me,
                      sc_nip17_received *msg, uint8_t **arena, size_t *used)
{
    size_t cap = sc_nip17_receive_arena_max(len);
    char *copy = (char *)vt_alloc(len);
    uint8_t *a = vt_alloc(cap);
    sc_status st;

    memcpy(copy, json, len);
    memset(a, 0xa5, cap);
    memset(msg, 0x5a, sizeof *msg);
    *used = 999;
    st = sc_nip17_receive(&env->ctx, msg, a, cap, used, copy, len, me);
    free(copy);
    if (st != SC_OK) {
        if (!vt_all_zero((const uint8_t *)msg, sizeof *msg)) {
            fail_msg("%s: msg not zeroed", sc_status_name(st));
        }
        if (st != SC_ERR_BUFFER_TOO_SMALL && *used != 0) {
            fail_msg("%s: arena_used %zu, not 0", sc_status_name(st), *used);
        }
        if (!vt_only_zero_or(a, cap, 0xa5)) {
            fail_msg("%s: the arena still holds bytes the call wrote", sc_status_name(st));
        }
    } else {
        const uint8_t *room = (const uint8_t *)msg->room;

        if (*used > cap || msg->n_room == 0 || room < a || room + msg->n_room * 32 != a + *used ||
            !vt_only_zero_or(a + *used, cap - *used, 0xa5)) {
            fail_msg("the room is not at the end of the used arena, or bytes after it remain");
        }
        if (memcmp(msg->room[0], msg->rumor.pubkey, 32) != 0 ||
            memcmp(msg->wrap.sender, msg->rumor.pubkey, 32) != 0) {
            fail_msg("the room does not start with the sender");
        }
    }
    *arena = a;
    return st;
}

int main(int argc, char **argv)
{
    static gw_env env; /* the state of every test */
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_prestate(test_dm_spec_wraps, &env),
        cmocka_unit_test_prestate(test_dm_spec_rebuild, &env),
        cmocka_unit_test_prestate(test_kind15_vectors, &env),
        cmocka_unit_test_prestate(test_chat_tags, &env),
        cmocka_unit_test_prestate(test_chat_buffers, &env),
        cmocka_unit_test_prestate(test_chat_errors, &env),
        cmocka_unit_test_prestate(test_receive_room, &env),
        cmocka_unit_test_prestate(test_receive_arena, &env),
        cmocka_unit_test_prestate(test_send_flow, &env),
        cmocka_unit_test_prestate(test_send_rules, &env),
        cmocka_unit_test_prestate(test_file_roundtrip, &env),
        cmocka_unit_test_prestate(test_file_parse_rules, &env),
        cmocka_unit_test_prestate(test_file_build_errors, &env),
        cmocka_unit_test_prestate(test_inbox_relays, &env),
        cmocka_unit_test_prestate(test_nip17_args, &env),
    };

    return gw_main(argc, argv, "NIP-17 private messages", tests, sizeof tests / sizeof tests[0],
                   &env);
}
