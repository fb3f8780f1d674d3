/* Filters: the matcher (NIP-01's rules) and the strict parser, which agree. */
#include "test_relay.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static sc_status match_json(const char *json, const sc_event *ev)
{
    static uint8_t arena[1 << 14];
    sc_relay_filter f;
    size_t used = 0;
    sc_status st = sc_relay_filter_parse(&f, arena, sizeof arena, &used, json, strlen(json));

    if (st != SC_OK) {
        fail_msg("filter %s: %s", json, sc_status_name(st));
    }
    return sc_relay_filter_match(&f, 1, ev);
}

void test_filter_match(void **state)
{
    relay_env *e = *state;
    static const char *const tags[] = {"p",  "aa", "wss://r", NULL, "t", "Nostr",
                                       NULL, "e",  "bb",      NULL, NULL};
    char json[512], ahex[65], idhex[65];
    relay_ev h;
    sc_relay_filter two[2];
    size_t i;

    relay_make(e, &h, &e->alice, 1059, 1700000000, "x", tags);
    for (i = 0; i < 32; i++) {
        sprintf(ahex + 2 * i, "%02x", e->alice_pub[i]);
        sprintf(idhex + 2 * i, "%02x", h.ev.id[i]);
    }
    VT_ASSERT_STATUS(match_json("{}", &h.ev), SC_OK);
    VT_ASSERT_STATUS(match_json("{\"kinds\":[1,1059]}", &h.ev), SC_OK);
    VT_ASSERT_STATUS(match_json("{\"kinds\":[1]}", &h.ev), SC_ERR_NO_MATCH);
    VT_ASSERT_STATUS(match_json("{\"#p\":[\"zz\",\"aa\"]}", &h.ev), SC_OK);
    VT_ASSERT_STATUS(match_json("{\"#p\":[\"wss://r\"]}", &h.ev), SC_ERR_NO_MATCH);
    VT_ASSERT_STATUS(match_json("{\"#t\":[\"nostr\"]}", &h.ev), SC_ERR_NO_MATCH); /* exact */
    VT_ASSERT_STATUS(match_json("{\"#t\":[\"Nostr\"],\"#e\":[\"bb\"]}", &h.ev), SC_OK);
    VT_ASSERT_STATUS(match_json("{\"#t\":[\"Nostr\"],\"#e\":[\"cc\"]}", &h.ev), SC_ERR_NO_MATCH);
    VT_ASSERT_STATUS(match_json("{\"#T\":[\"Nostr\"]}", &h.ev), SC_ERR_NO_MATCH);
    VT_ASSERT_STATUS(match_json("{\"since\":1700000000,\"until\":1700000000}", &h.ev), SC_OK);
    VT_ASSERT_STATUS(match_json("{\"since\":1700000001}", &h.ev), SC_ERR_NO_MATCH);
    VT_ASSERT_STATUS(match_json("{\"until\":1699999999}", &h.ev), SC_ERR_NO_MATCH);
    VT_ASSERT_STATUS(match_json("{\"limit\":0}", &h.ev), SC_OK); /* limit is not a condition */
    snprintf(json, sizeof json, "{\"authors\":[\"%s\"],\"ids\":[\"%s\"]}", ahex, idhex);
    VT_ASSERT_STATUS(match_json(json, &h.ev), SC_OK);
    ahex[0] = ahex[0] == '0' ? '1' : '0';
    snprintf(json, sizeof json, "{\"authors\":[\"%s\"]}", ahex);
    VT_ASSERT_STATUS(match_json(json, &h.ev), SC_ERR_NO_MATCH);
    /* OR over filters */
    memset(two, 0, sizeof two);
    {
        static const uint32_t k1 = 1, k2 = 1059;

        two[0].kinds = &k1;
        two[0].n_kinds = 1;
        two[1].kinds = &k2;
        two[1].n_kinds = 1;
        VT_ASSERT_STATUS(sc_relay_filter_match(two, 2, &h.ev), SC_OK);
        VT_ASSERT_STATUS(sc_relay_filter_match(two, 1, &h.ev), SC_ERR_NO_MATCH);
        VT_ASSERT_STATUS(sc_relay_filter_match(two, 0, &h.ev), SC_ERR_NO_MATCH);
        VT_ASSERT_STATUS(sc_relay_filter_match(NULL, 1, &h.ev), SC_ERR_ARG);
    }
}

void test_filter_parse(void **state)
{
    static const struct {
        const char *json;
        sc_status st;
    } bad[] = {
        {"[]", SC_ERR_FILTER},
        {"{\"kinds\":[]}", SC_ERR_FILTER},
        {"{\"kinds\":[65536]}", SC_ERR_FILTER},
        {"{\"kinds\":[-1]}", SC_ERR_FILTER},
        {"{\"kinds\":[1.5]}", SC_ERR_FILTER},
        {"{\"kinds\":1}", SC_ERR_FILTER},
        {"{\"ids\":[\"ab\"]}", SC_ERR_FILTER},
        {"{\"ids\":[\"ABABABABABABABABABABABABABABABABABABABABABABABABABABABABABABABAB\"]}",
         SC_ERR_FILTER},
        {"{\"since\":1,\"since\":2}", SC_ERR_FILTER},
        {"{\"#p\":[\"a\"],\"#p\":[\"b\"]}", SC_ERR_FILTER},
        {"{\"#pp\":[\"a\"]}", SC_ERR_FILTER},
        {"{\"#1\":[\"a\"]}", SC_ERR_FILTER},
        {"{\"#p\":[1]}", SC_ERR_FILTER},
        {"{\"search\":\"x\"}", SC_ERR_FILTER},
        {"{\"since\":9223372036854775808}", SC_ERR_FILTER},
        {"{\"kinds\":[1]", SC_ERR_JSON},
        {"{\"#p\":[\"\xc3\"]}", SC_ERR_UTF8},
    };
    static uint8_t arena[4096];
    sc_relay_filter f;
    size_t i, used = 0, need = 0;
    const char *good =
        "{\"ids\":[\"abababababababababababababababababababababababababababababababab\"],"
        "\"kinds\":[0,65535],\"#e\":[\"x\",\"\",\"y\\u0041\"],\"#Z\":[\"q\"],"
        "\"since\":0,\"until\":9223372036854775807,\"limit\":18446744073709551615}";
    char out[1024];
    sc_relay_client_msg m;
    size_t len = 0;

    (void)state;
    for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        sc_status st =
            sc_relay_filter_parse(&f, arena, sizeof arena, &used, bad[i].json, strlen(bad[i].json));

        if (st != bad[i].st) {
            fail_msg("%s: %s", bad[i].json, sc_status_name(st));
        }
    }
    VT_ASSERT_STATUS(sc_relay_filter_parse(&f, NULL, 0, &need, good, strlen(good)),
                     SC_ERR_BUFFER_TOO_SMALL);
    assert_true(need <= sc_relay_filter_parse_arena_max(strlen(good)));
    VT_ASSERT_STATUS(sc_relay_filter_parse(&f, arena, need, &used, good, strlen(good)), SC_OK);
    assert_int_equal(used, need);
    assert_int_equal(f.n_ids, 1);
    assert_int_equal(f.n_kinds, 2);
    assert_int_equal(f.kinds[1], 65535);
    assert_int_equal(f.n_tags, 2);
    assert_int_equal(f.tags[0].letter, 'e');
    assert_int_equal(f.tags[0].n_values, 3);
    assert_int_equal(f.tags[0].values[1].len, 0);
    assert_memory_equal(f.tags[0].values[2].ptr, "yA", 2);
    assert_int_equal(f.tags[1].letter, 'Z');
    assert_true(f.has == (SC_RELAY_FILTER_SINCE | SC_RELAY_FILTER_UNTIL | SC_RELAY_FILTER_LIMIT));
    assert_true(f.limit == UINT64_MAX);
    /* round trip: written back in the canonical key order */
    memset(&m, 0, sizeof m);
    m.type = SC_RELAY_CLIENT_REQ;
    m.sub_id = SC_STR("r");
    m.filters = &f;
    m.n_filters = 1;
    VT_ASSERT_STATUS(sc_relay_msg_write(out, sizeof out, &len, &m), SC_OK);
    out[len] = '\0';
    assert_string_equal(
        out, "[\"REQ\",\"r\",{\"ids\":["
             "\"abababababababababababababababababababababababababababababababab\"],"
             "\"kinds\":[0,65535],\"#e\":[\"x\",\"\",\"yA\"],\"#Z\":[\"q\"],"
             "\"since\":0,\"until\":9223372036854775807,\"limit\":18446744073709551615}]");
    VT_ASSERT_STATUS(sc_relay_filter_parse(&f, arena, sizeof arena, &used, "{}", 2), SC_OK);
    assert_int_equal(used, 0);
    VT_ASSERT_STATUS(sc_relay_filter_parse(&f, NULL, 5, &used, "{}", 2), SC_ERR_ARG);
}
