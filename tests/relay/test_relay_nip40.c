/* NIP-40: the expiration tag, and expired gift wraps and seals refused on receipt. */
#include "test_relay.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void test_nip40(void **state)
{
    relay_env *e = *state;
    static const char *const t1[] = {"expiration", "1700000100", NULL, NULL};
    static const char *const t2[] = {"expiration", "01", NULL, NULL};
    static const char *const t3[] = {"expiration", "1", NULL, "expiration", "2", NULL, NULL};
    static const char *const t4[] = {"expiration", NULL, NULL};
    static const char *const t5[] = {"expiration", "9223372036854775808", NULL, NULL};
    static const char *const t6[] = {"expirationx", "5", NULL, NULL};
    relay_ev h;
    int64_t at = 1;

    relay_make(e, &h, &e->alice, 1, 1, "x", t1);
    VT_ASSERT_STATUS(sc_nip40_expiration(&h.ev, &at), SC_OK);
    assert_int_equal(at, 1700000100);
    VT_ASSERT_STATUS(sc_nip40_check(&h.ev, 1700000099), SC_OK);
    VT_ASSERT_STATUS(sc_nip40_check(&h.ev, 1700000100), SC_ERR_EXPIRED);
    relay_make(e, &h, &e->alice, 1, 1, "x", t2);
    VT_ASSERT_STATUS(sc_nip40_expiration(&h.ev, &at), SC_ERR_EVENT_FIELD);
    assert_int_equal(at, 0);
    relay_make(e, &h, &e->alice, 1, 1, "x", t3);
    VT_ASSERT_STATUS(sc_nip40_check(&h.ev, 0), SC_ERR_EVENT_FIELD);
    relay_make(e, &h, &e->alice, 1, 1, "x", t4);
    VT_ASSERT_STATUS(sc_nip40_check(&h.ev, 0), SC_ERR_EVENT_FIELD);
    relay_make(e, &h, &e->alice, 1, 1, "x", t5);
    VT_ASSERT_STATUS(sc_nip40_check(&h.ev, 0), SC_ERR_EVENT_FIELD);
    relay_make(e, &h, &e->alice, 1, 1, "x", t6);
    VT_ASSERT_STATUS(sc_nip40_expiration(&h.ev, &at), SC_ERR_NOT_FOUND);
    VT_ASSERT_STATUS(sc_nip40_check(&h.ev, INT64_MAX), SC_OK);
    VT_ASSERT_STATUS(sc_nip40_check(vt_null(), 0), SC_ERR_ARG);
}

/* A kind 14 from alice to bob, wrapped with these options; returns the wrap's length. */
static size_t wrap(relay_env *e, char *out, size_t cap, const sc_nip59_opts *o)
{
    static uint8_t buf[4096], scratch[1 << 16];
    sc_nip17_peer to;
    sc_nip17_chat m;
    sc_event rumor;
    sc_nip59_rand rnd;
    size_t len = 0;

    memset(&to, 0, sizeof to);
    memcpy(to.pubkey, e->bob_pub, 32);
    memset(&m, 0, sizeof m);
    m.content = SC_STR("this message disappears");
    m.to = &to;
    m.n_to = 1;
    m.created_at = 1700000000;
    VT_ASSERT_STATUS(sc_nip17_chat_rumor(&e->ctx, &rumor, buf, sizeof buf, &m, e->alice_pub),
                     SC_OK);
    memset(&rnd, 0x42, sizeof rnd);
    rnd.seal_backdate = 10;
    rnd.wrap_backdate = 20;
    VT_ASSERT_STATUS(sc_nip59_wrap_with_rand(&e->ctx, out, cap, &len, scratch, sizeof scratch,
                                             &rumor, &e->alice, e->bob_pub, o, &rnd),
                     SC_OK);
    return len;
}

/* A gift wrap built by hand: a kind 14 rumor, a seal with ["expiration", seal_exp], a wrap
 * without one, from a fixed one-time key. */
static sc_status hand_wrap(relay_env *e, char *out, size_t cap, size_t *out_len, int64_t seal_exp)
{
    static char rumor_json[2048], seal_content[4096], seal_json[8192], wrap_content[16384];
    static uint8_t buf[4096];
    char exp[24], bob_hex[65];
    sc_nip17_peer to;
    sc_nip17_chat m;
    sc_event rumor, seal, wrap;
    sc_str seal_items[2], wrap_items[2];
    sc_tag seal_tag, wrap_tag;
    sc_identity once;
    uint8_t sec[32];
    size_t len = 0, i;
    sc_status st;

    memset(&to, 0, sizeof to);
    memcpy(to.pubkey, e->bob_pub, 32);
    memset(&m, 0, sizeof m);
    m.content = SC_STR("sealed with a deadline");
    m.to = &to;
    m.n_to = 1;
    m.created_at = 1700000000;
    if ((st = sc_nip17_chat_rumor(&e->ctx, &rumor, buf, sizeof buf, &m, e->alice_pub)) != SC_OK ||
        (st = sc_event_to_json(rumor_json, sizeof rumor_json, &len, &rumor,
                               SC_EVENT_JSON_OBJECT)) != SC_OK ||
        (st = sc_nip44_encrypt_to(&e->ctx, seal_content, sizeof seal_content, &len, &e->alice,
                                  e->bob_pub, (const uint8_t *)rumor_json, len, 0)) != SC_OK) {
        return st;
    }
    snprintf(exp, sizeof exp, "%lld", (long long)seal_exp);
    seal_items[0] = SC_STR("expiration");
    seal_items[1].ptr = exp;
    seal_items[1].len = strlen(exp);
    seal_tag.items = seal_items;
    seal_tag.n_items = 2;
    memset(&seal, 0, sizeof seal);
    seal.kind = SC_NIP59_KIND_SEAL;
    seal.created_at = 1699999000;
    seal.tags = &seal_tag;
    seal.n_tags = 1;
    seal.content.ptr = seal_content;
    seal.content.len = len;
    if ((st = sc_event_sign(&e->ctx, &seal, &e->alice)) != SC_OK ||
        (st = sc_event_to_json(seal_json, sizeof seal_json, &len, &seal, SC_EVENT_JSON_OBJECT)) !=
            SC_OK) {
        return st;
    }
    memset(sec, 0x33, sizeof sec);
    if ((st = sc_identity_import(&e->ctx, &once, sec)) != SC_OK ||
        (st = sc_nip44_encrypt_to(&e->ctx, wrap_content, sizeof wrap_content, &len, &once,
                                  e->bob_pub, (const uint8_t *)seal_json, len, 0)) != SC_OK) {
        return st;
    }
    for (i = 0; i < 32; i++) {
        snprintf(bob_hex + 2 * i, 3, "%02x", e->bob_pub[i]);
    }
    wrap_items[0] = SC_STR("p");
    wrap_items[1].ptr = bob_hex;
    wrap_items[1].len = 64;
    wrap_tag.items = wrap_items;
    wrap_tag.n_items = 2;
    memset(&wrap, 0, sizeof wrap);
    wrap.kind = SC_NIP59_KIND_WRAP;
    wrap.created_at = 1699998000;
    wrap.tags = &wrap_tag;
    wrap.n_tags = 1;
    wrap.content.ptr = wrap_content;
    wrap.content.len = len;
    st = sc_event_sign(&e->ctx, &wrap, &once);
    if (st == SC_OK) {
        st = sc_event_to_json(out, cap, out_len, &wrap, SC_EVENT_JSON_OBJECT);
    }
    sc_identity_clear(&once);
    return st;
}

void test_nip40_unwrap(void **state)
{
    relay_env *e = *state;
    static char w[1 << 15];
    static uint8_t arena[1 << 18];
    sc_nip59_opts o;
    sc_nip17_received msg;
    sc_event rumor, outer;
    size_t n, used = 0;

    memset(&o, 0, sizeof o);
    o.now = 1700000000;
    o.expiration = 1700003600;
    n = wrap(e, w, sizeof w, &o);
    VT_ASSERT_STATUS(
        sc_nip17_receive_at(&e->ctx, &msg, arena, sizeof arena, &used, w, n, &e->bob, 1700003599),
        SC_OK);
    VT_ASSERT_STATUS(
        sc_nip17_receive_at(&e->ctx, &msg, arena, sizeof arena, &used, w, n, &e->bob, 1700003600),
        SC_ERR_WRAP_EXPIRED);
    assert_int_equal(used, 0);
    VT_ASSERT_STATUS(sc_nip59_unwrap_at(&e->ctx, &rumor, NULL, arena, sizeof arena, &used, w, n,
                                        &e->bob, 1800000000),
                     SC_ERR_WRAP_EXPIRED);
    /* without a time the old calls do not look at it */
    VT_ASSERT_STATUS(sc_nip17_receive(&e->ctx, &msg, arena, sizeof arena, &used, w, n, &e->bob),
                     SC_OK);
    VT_ASSERT_STATUS(
        sc_nip59_unwrap_at(&e->ctx, &rumor, NULL, arena, sizeof arena, &used, w, n, &e->bob, -1),
        SC_ERR_ARG);
    /* wrap only: the seal's tags stay empty, the wrap still carries it */
    o.flags = SC_NIP59_EXPIRATION_WRAP_ONLY;
    n = wrap(e, w, sizeof w, &o);
    VT_ASSERT_STATUS(sc_event_parse(&outer, arena, sizeof arena, &used, w, n, NULL), SC_OK);
    VT_ASSERT_STATUS(sc_nip40_check(&outer, 1700003600), SC_ERR_EXPIRED);
    VT_ASSERT_STATUS(sc_nip59_unwrap_at(&e->ctx, &rumor, NULL, arena, sizeof arena, &used, w, n,
                                        &e->bob, 1700000000),
                     SC_OK);
    assert_non_null(strstr(w, "\"expiration\""));
    /* a seal that expired under a wrap that did not: made by hand from the public calls
     * (the seal carries the tag, the wrap none), refused with the seal's own status */
    VT_ASSERT_STATUS(hand_wrap(e, w, sizeof w, &n, 1700000500), SC_OK);
    VT_ASSERT_STATUS(sc_nip59_unwrap_at(&e->ctx, &rumor, NULL, arena, sizeof arena, &used, w, n,
                                        &e->bob, 1700000499),
                     SC_OK);
    VT_ASSERT_STATUS(sc_nip59_unwrap_at(&e->ctx, &rumor, NULL, arena, sizeof arena, &used, w, n,
                                        &e->bob, 1700000500),
                     SC_ERR_SEAL_EXPIRED);
    VT_ASSERT_STATUS(
        sc_nip17_receive_at(&e->ctx, &msg, arena, sizeof arena, &used, w, n, &e->bob, 1700000500),
        SC_ERR_SEAL_EXPIRED);
    o.flags = 0x400;
    VT_ASSERT_STATUS(sc_nip59_wrap(&e->ctx, w, sizeof w, &n, arena, sizeof arena, &rumor, &e->alice,
                                   e->bob_pub, &o),
                     SC_ERR_FLAGS);
}
