/* Lying signers: every lie a double can tell is caught (SC_ERR_SIGNER_ANSWER, or the layer
 * status a forged layer gets from a local unwrap too), the operation's outputs are left as
 * its contract says for a failure, and a lie that cannot be seen at the sender (a payload
 * under the wrong key) still gives no message that verifies at the receiver. */
#include "test_signer.h"

#include <stdlib.h>
#include <string.h>

#define NOW 1700000000

typedef struct lie_case {
    int lie;
    uint32_t seq;
    sc_status want;
} lie_case;

/* A rumor from `from` of `len` bytes of content (a repeated letter). */
static void long_rumor(gw_env *env, sc_event *ev, uint8_t *buf, size_t cap, const uint8_t *from,
                       size_t len)
{
    char *content = (char *)vt_alloc(len + 1);

    memset(content, 'q', len);
    gw_rumor(env, ev, buf, cap, from, 14, NOW, content, len, NULL);
    free(content);
}

/* One gift wrap over a lying double; checks the failure's outputs. */
static void wrap_lie(gw_env *env, const sc_event *rumor, const sc_identity *alice,
                     const sc_identity *mallory, const uint8_t *bpub, const lie_case *c)
{
    size_t cap = sc_nip59_wrap_max(rumor, NULL), scap = sc_nip59_wrap_scratch_max(rumor, NULL);
    char *out = (char *)vt_alloc(cap);
    uint8_t *scratch = vt_alloc(scap);
    sc_signer_req req;
    size_t len = 99;
    sc_signer ext;
    sc_signer_op op;
    sg_double d;

    memset(out, 0xee, cap);
    sg_external(&ext, alice);
    sg_double_init(&d, env, alice);
    d.other = mallory;
    d.lie = c->lie;
    d.lie_seq = c->seq;
    VT_ASSERT_STATUS(
        sc_nip59_wrap_start(&env->ctx, &op, out, cap, &len, scratch, scap, rumor, &ext, bpub, NULL),
        SC_OK);
    VT_ASSERT_STATUS(sg_drive(&op, &d, 0), c->want);
    /* the failure stays, and the outputs say nothing */
    VT_ASSERT_STATUS(sc_signer_op_step(&op, &env->ctx, 0, &req), c->want);
    assert_int_equal(req.kind, SC_SIGNER_REQ_NONE);
    assert_int_equal(len, 0);
    assert_true(vt_only_zero_or((const uint8_t *)out, cap, 0xee));
    assert_true(vt_all_zero(scratch, scap));
    sc_signer_op_clear(&op);
    free(out);
    free(scratch);
}

void test_lies_on_send(void **state)
{
    gw_env *env = gw_env_of(state);
    static const lie_case cases[] = {
        {SG_SIG_OTHER_KEY, 0, SC_ERR_SIGNER_ANSWER},  {SG_SIG_OTHER_EVENT, 0, SC_ERR_SIGNER_ANSWER},
        {SG_SIG_BITFLIP, 0, SC_ERR_SIGNER_ANSWER},    {SG_SIG_PUBKEY, 0, SC_ERR_SIGNER_ANSWER},
        {SG_SIG_ID, 0, SC_ERR_SIGNER_ANSWER},         {SG_SIG_NOT_JSON, 0, SC_ERR_SIGNER_ANSWER},
        {SG_SIG_NO_SIG, 0, SC_ERR_SIGNER_ANSWER},     {SG_PAYLOAD_LONG, 0, SC_ERR_SIGNER_ANSWER},
        {SG_PAYLOAD_SHORT, 0, SC_ERR_SIGNER_ANSWER},  {SG_PAYLOAD_VERSION, 0, SC_ERR_SIGNER_ANSWER},
        {SG_PAYLOAD_BASE64, 0, SC_ERR_SIGNER_ANSWER}, {SG_PAYLOAD_PAD, 0, SC_ERR_SIGNER_ANSWER},
        {SG_REFUSE, 1, SC_ERR_SIGNER_REFUSED},        {SG_REFUSE, 2, SC_ERR_SIGNER_REFUSED},
    };
    uint8_t apub[32], bpub[32], mpub[32], buf[4096], buf2[4096];
    sc_identity alice, bob, mallory;
    sc_event rumor, big;
    size_t i;

    gw_key(env, &alice, apub, 0x51);
    gw_key(env, &bob, bpub, 0x52);
    gw_key(env, &mallory, mpub, 0x53);
    gw_rumor(env, &rumor, buf, sizeof buf, apub, 14, NOW, "do not lie", 10, NULL);
    long_rumor(env, &big, buf2, sizeof buf2, apub, 1500); /* a payload past 1100 characters */
    for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        wrap_lie(env, &rumor, &alice, &mallory, bpub, &cases[i]);
        wrap_lie(env, &big, &alice, &mallory, bpub, &cases[i]);
    }
    /* NIP-17: a lie on the second wrap's seal: that wrap's index, nothing written */
    {
        char bhex[65], *out, *scratch;
        const char *tags[] = {"p", bhex, NULL, NULL};
        sc_nip17_wrap w[2];
        size_t cap, scap, len = 9, n = 9;
        sc_signer ext;
        sc_signer_op op;
        sg_double d;

        sg_hex(bhex, bpub);
        gw_rumor(env, &rumor, buf, sizeof buf, apub, 14, NOW, "two wraps", 9, tags);
        cap = sc_nip17_send_max(&rumor, apub, NULL);
        scap = sc_nip17_send_scratch_max(&rumor, apub, NULL);
        out = (char *)vt_alloc(cap);
        scratch = (char *)vt_alloc(scap);
        memset(w, 0xee, sizeof w);
        sg_external(&ext, &alice);
        sg_double_init(&d, env, &alice);
        d.other = &mallory;
        d.lie = SG_SIG_OTHER_KEY;
        d.lie_seq = 4;
        VT_ASSERT_STATUS(sc_nip17_send_start(&env->ctx, &op, out, cap, &len, w, 2, &n, scratch,
                                             scap, &rumor, &ext, NULL),
                         SC_OK);
        VT_ASSERT_STATUS(sg_drive(&op, &d, 0), SC_ERR_SIGNER_ANSWER);
        assert_int_equal(d.n, 4);
        assert_int_equal(len, 0);
        assert_int_equal(n, 1);
        assert_true(vt_all_zero((const uint8_t *)out, cap));
        assert_true(vt_all_zero((const uint8_t *)&w[0], sizeof w[0]));
        assert_true(vt_all_zero((const uint8_t *)scratch, scap));
        sc_signer_op_clear(&op);
        free(out);
        free(scratch);
    }
    sc_identity_clear(&alice);
    sc_identity_clear(&bob);
    sc_identity_clear(&mallory);
}

/* Unwraps json over bob's lying double; checks a failure's outputs. Returns the requests the
 * double saw. */
static size_t unwrap_lie(gw_env *env, const char *json, size_t len, const sc_identity *bob, int lie,
                         uint32_t seq, sc_status want)
{
    size_t cap = sc_nip59_unwrap_arena_max(len), used = 7;
    uint8_t *arena = vt_alloc(cap);
    sc_nip59_info info;
    sc_signer ext;
    sc_signer_op op;
    sc_event rumor;
    sg_double d;

    memset(arena, 0xa5, cap);
    sg_external(&ext, bob);
    sg_double_init(&d, env, bob);
    d.lie = lie;
    d.lie_seq = seq;
    VT_ASSERT_STATUS(sc_nip59_unwrap_start(&env->ctx, &op, &rumor, &info, arena, cap, &used, json,
                                           len, &ext, NOW),
                     SC_OK);
    VT_ASSERT_STATUS(sg_drive(&op, &d, 0), want);
    if (want != SC_OK) {
        assert_true(vt_only_zero_or(arena, cap, 0xa5));
        assert_true(vt_all_zero((const uint8_t *)&rumor, sizeof rumor));
        assert_true(vt_all_zero((const uint8_t *)&info, sizeof info));
        assert_int_equal(used, 0);
    }
    sc_signer_op_clear(&op);
    free(arena);
    return d.n;
}

/* A gift wrap to `to` whose content is not a NIP-44 payload at all. */
static char *wrap_with_content(gw_env *env, const uint8_t *to, const char *content, size_t *len)
{
    char hex[65];
    sc_str items[2];
    sc_tag tag;
    sc_identity one;
    uint8_t pub[32];
    sc_event ev;
    char *json;

    gw_key(env, &one, pub, 0x5f);
    sg_hex(hex, to);
    items[0] = SC_STR("p");
    items[1].ptr = hex;
    items[1].len = 64;
    tag.items = items;
    tag.n_items = 2;
    memset(&ev, 0, sizeof ev);
    ev.kind = 1059;
    ev.created_at = NOW;
    ev.tags = &tag;
    ev.n_tags = 1;
    ev.content.ptr = content;
    ev.content.len = strlen(content);
    VT_ASSERT_STATUS(sc_event_sign(&env->ctx, &ev, &one), SC_OK);
    *len = sc_event_to_json_len(&ev, SC_EVENT_JSON_OBJECT);
    json = (char *)vt_alloc(*len);
    VT_ASSERT_STATUS(sc_event_to_json(json, *len, len, &ev, SC_EVENT_JSON_OBJECT), SC_OK);
    sc_identity_clear(&one);
    return json;
}

void test_lies_on_receive(void **state)
{
    gw_env *env = gw_env_of(state);
    uint8_t apub[32], bpub[32], cpub[32], buf[512];
    sc_identity alice, bob, carol;
    char *json, *forged, *junk, content[201];
    size_t len = 0, flen = 0, jlen = 0;
    sc_event rumor;

    gw_key(env, &alice, apub, 0x54);
    gw_key(env, &bob, bpub, 0x55);
    gw_key(env, &carol, cpub, 0x56);
    gw_rumor(env, &rumor, buf, sizeof buf, apub, 14, NOW, "what did alice say?", 19, NULL);
    json = gw_wrap(env, &rumor, &alice, bpub, NULL, &len);
    assert_int_equal(unwrap_lie(env, json, len, &bob, SG_HONEST, 0, SC_OK), 2);
    /* a plaintext of another length than its payload holds, or not UTF-8 */
    assert_int_equal(unwrap_lie(env, json, len, &bob, SG_PLAIN_LONGER, 1, SC_ERR_SIGNER_ANSWER), 1);
    assert_int_equal(unwrap_lie(env, json, len, &bob, SG_PLAIN_LONGER, 2, SC_ERR_SIGNER_ANSWER), 2);
    assert_int_equal(unwrap_lie(env, json, len, &bob, SG_PLAIN_UTF8, 1, SC_ERR_SIGNER_ANSWER), 1);
    assert_int_equal(unwrap_lie(env, json, len, &bob, SG_PLAIN_UTF8, 2, SC_ERR_SIGNER_ANSWER), 2);
    /* a plaintext of the right length that is not the real one: the layer's own checks */
    assert_int_equal(unwrap_lie(env, json, len, &bob, SG_PLAIN_BITFLIP, 1, SC_ERR_SEAL_SIG), 1);
    assert_int_equal(unwrap_lie(env, json, len, &bob, SG_PLAIN_GARBAGE, 1, SC_ERR_SEAL_JSON), 1);
    assert_int_equal(unwrap_lie(env, json, len, &bob, SG_PLAIN_GARBAGE, 2, SC_ERR_RUMOR_JSON), 2);
    assert_int_equal(unwrap_lie(env, json, len, &bob, SG_REFUSE, 2, SC_ERR_SIGNER_REFUSED), 2);
    /* a wrap for someone else: an honest signer cannot decrypt it, and refuses */
    assert_int_equal(unwrap_lie(env, json, len, &carol, SG_HONEST, 0, SC_ERR_SIGNER_REFUSED), 1);
    /* a forged wrap never reaches the signer */
    forged = gw_layer(env, "{}", 2, &alice, bpub, 1059, NOW, NULL, 0, GW_BAD_SIG, &flen);
    assert_int_equal(unwrap_lie(env, forged, flen, &bob, SG_HONEST, 0, SC_ERR_WRAP_SIG), 0);
    /* nor does a content that no key can make a NIP-44 payload of */
    memset(content, '!', sizeof content - 1); /* not base64 */
    content[sizeof content - 1] = '\0';
    junk = wrap_with_content(env, bpub, content, &jlen);
    assert_int_equal(unwrap_lie(env, junk, jlen, &bob, SG_HONEST, 0, SC_ERR_WRAP_DECRYPT), 0);
    free(junk);
    memset(content, 'A', sizeof content - 1); /* 200 characters, zeros: version 0 */
    junk = wrap_with_content(env, bpub, content, &jlen);
    assert_int_equal(unwrap_lie(env, junk, jlen, &bob, SG_HONEST, 0, SC_ERR_WRAP_DECRYPT), 0);
    free(junk);
    free(forged);
    free(json);
    sc_identity_clear(&alice);
    sc_identity_clear(&bob);
    sc_identity_clear(&carol);
}

void test_lie_unseen_fails_at_receiver(void **state)
{
    gw_env *env = gw_env_of(state);
    uint8_t apub[32], bpub[32], mpub[32], buf[512], *arena = NULL, *scratch;
    sc_identity alice, bob, mallory;
    size_t cap, scap, len = 0, used = 0;
    sc_nip59_info info;
    sc_event rumor, got;
    sc_signer ext;
    sc_signer_op op;
    sg_double d;
    char *out;

    gw_key(env, &alice, apub, 0x57);
    gw_key(env, &bob, bpub, 0x58);
    gw_key(env, &mallory, mpub, 0x59);
    gw_rumor(env, &rumor, buf, sizeof buf, apub, 14, NOW, "encrypted to the wrong key", 26, NULL);
    cap = sc_nip59_wrap_max(&rumor, NULL);
    scap = sc_nip59_wrap_scratch_max(&rumor, NULL);
    out = (char *)vt_alloc(cap);
    scratch = vt_alloc(scap);
    sg_external(&ext, &alice);
    sg_double_init(&d, env, &alice);
    d.other = &mallory;
    d.lie = SG_PAYLOAD_OTHER_KEY;
    VT_ASSERT_STATUS(sc_nip59_wrap_start(&env->ctx, &op, out, cap, &len, scratch, scap, &rumor,
                                         &ext, bpub, NULL),
                     SC_OK);
    VT_ASSERT_STATUS(sg_drive(&op, &d, 0), SC_OK); /* a well-formed payload: it goes out */
    sc_signer_op_clear(&op);
    /* bob cannot read it, whichever signer he uses */
    VT_ASSERT_STATUS(gw_unwrap(env, out, len, &bob, &got, &info, &arena, &used),
                     SC_ERR_SEAL_DECRYPT);
    free(arena);
    assert_int_equal(unwrap_lie(env, out, len, &bob, SG_HONEST, 0, SC_ERR_SIGNER_REFUSED), 2);
    free(out);
    free(scratch);
    sc_identity_clear(&alice);
    sc_identity_clear(&bob);
    sc_identity_clear(&mallory);
}

void test_lies_on_event(void **state)
{
    gw_env *env = gw_env_of(state);
    static const int lies[] = {SG_SIG_OTHER_KEY, SG_SIG_OTHER_EVENT, SG_SIG_BITFLIP, SG_SIG_PUBKEY,
                               SG_SIG_ID,        SG_SIG_NOT_JSON,    SG_SIG_NO_SIG};
    uint8_t pub[32], mpub[32];
    sc_identity alice, mallory;
    sc_signer ext;
    sc_signer_op op;
    sg_double d;
    sc_event ev;
    size_t i;

    gw_key(env, &alice, pub, 0x5a);
    gw_key(env, &mallory, mpub, 0x5b);
    sg_external(&ext, &alice);
    for (i = 0; i < sizeof lies / sizeof lies[0]; i++) {
        memset(&ev, 0, sizeof ev);
        ev.kind = 1;
        ev.created_at = NOW;
        ev.content = SC_STR("sign this, not that");
        sg_double_init(&d, env, &alice);
        d.other = &mallory;
        d.lie = lies[i];
        VT_ASSERT_STATUS(sc_event_sign_start(&env->ctx, &op, &ev, &ext), SC_OK);
        VT_ASSERT_STATUS(sg_drive(&op, &d, 0), SC_ERR_SIGNER_ANSWER);
        sc_signer_op_clear(&op);
        assert_true(vt_all_zero(ev.id, 32));
        assert_true(vt_all_zero(ev.sig, 64));
        assert_int_equal(ev.flags & (SC_EVENT_HAS_ID | SC_EVENT_HAS_SIG), 0);
    }
    sc_identity_clear(&alice);
    sc_identity_clear(&mallory);
}

void test_lies_on_nip44(void **state)
{
    gw_env *env = gw_env_of(state);
    static const int enc_lies[] = {SG_PAYLOAD_LONG, SG_PAYLOAD_SHORT, SG_PAYLOAD_VERSION,
                                   SG_PAYLOAD_BASE64, SG_PAYLOAD_PAD};
    static const int dec_lies[] = {SG_PLAIN_LONGER, SG_PLAIN_UTF8};
    uint8_t apub[32], bpub[32], pt[256];
    char payload[512], enc[512];
    size_t plen = 0, n = 5, i;
    sc_identity alice, bob;
    sc_signer ext;
    sc_signer_op op;
    sg_double d;

    gw_key(env, &alice, apub, 0x5c);
    gw_key(env, &bob, bpub, 0x5d);
    VT_ASSERT_STATUS(sc_nip44_encrypt_to(&env->ctx, payload, sizeof payload, &plen, &alice, bpub,
                                         (const uint8_t *)"hello bob", 9, 0),
                     SC_OK);
    sg_external(&ext, &alice);
    for (i = 0; i < sizeof enc_lies / sizeof enc_lies[0]; i++) {
        sg_double_init(&d, env, &alice);
        d.lie = enc_lies[i];
        memset(enc, 0xee, sizeof enc);
        VT_ASSERT_STATUS(sc_nip44_encrypt_start(&env->ctx, &op, enc, sizeof enc, &n, &ext, bpub,
                                                (const uint8_t *)"hello bob", 9, 0),
                         SC_OK);
        VT_ASSERT_STATUS(sg_drive(&op, &d, 0), SC_ERR_SIGNER_ANSWER);
        sc_signer_op_clear(&op);
        assert_int_equal(n, 0);
        assert_true(vt_only_zero_or((const uint8_t *)enc, sizeof enc, 0xee));
    }
    sg_external(&ext, &bob);
    for (i = 0; i < sizeof dec_lies / sizeof dec_lies[0]; i++) {
        sg_double_init(&d, env, &bob);
        d.lie = dec_lies[i];
        memset(pt, 0xee, sizeof pt);
        VT_ASSERT_STATUS(
            sc_nip44_decrypt_start(&env->ctx, &op, pt, sizeof pt, &n, &ext, apub, payload, plen, 0),
            SC_OK);
        VT_ASSERT_STATUS(sg_drive(&op, &d, 0), SC_ERR_SIGNER_ANSWER);
        sc_signer_op_clear(&op);
        assert_int_equal(n, 0);
        assert_true(vt_only_zero_or(pt, sizeof pt, 0xee));
    }
    sc_identity_clear(&alice);
    sc_identity_clear(&bob);
}
