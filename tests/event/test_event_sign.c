/* Signing, verification and the builder: sign then verify on this backend, a known answer
 * rebuilt from scratch, every tamper giving its own status, failures leaving no half-signed
 * event, and the builder's layout, sticky errors and capacity accounting. */
#include "test_event.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Builds kind 1 with two tags and the given content into buf. */
static void build(sc_event *ev, void *buf, size_t cap, const char *content)
{
    static const sc_str e_tag[] = {{"e", 1}, {"abc", 3}, {"", 0}, {"root", 4}};
    static const sc_str t_tag[] = {{"t", 1}, {"nostr", 5}};
    sc_event_builder b;

    VT_ASSERT_STATUS(sc_event_builder_init(&b, buf, cap), SC_OK);
    sc_event_builder_kind(&b, 1);
    sc_event_builder_created_at(&b, 1700000000);
    sc_event_builder_content(&b, content, strlen(content));
    sc_event_builder_tag(&b, e_tag, 4);
    sc_event_builder_tag(&b, t_tag, 2);
    VT_ASSERT_STATUS(sc_event_builder_final(&b, ev, NULL), SC_OK);
}

void test_sign_verify(void **state)
{
    ev_env *env = ev_env_of(state);
    uint8_t buf[512], arena[1024];
    sc_identity who, other;
    sc_event ev, ev2, back;
    size_t len, used;
    char *obj;

    ev_identity(env, &who);
    VT_ASSERT_STATUS(sc_identity_generate(&env->ctx, &other), SC_OK);
    build(&ev, buf, sizeof buf, "hello \"world\"\n\xf0\x9f\x98\x80");
    VT_ASSERT_STATUS(sc_event_sign(&env->ctx, &ev, &who), SC_OK);
    assert_int_equal(ev.flags, SC_EVENT_SIGNED);
    VT_ASSERT_STATUS(sc_event_verify(&env->ctx, &ev), SC_OK);

    /* fresh aux each time: another signature over the same id, also valid */
    ev2 = ev;
    VT_ASSERT_STATUS(sc_event_sign(&env->ctx, &ev2, &who), SC_OK);
    assert_memory_equal(ev.id, ev2.id, 32);
    assert_memory_not_equal(ev.sig, ev2.sig, 64);
    VT_ASSERT_STATUS(sc_event_verify(&env->ctx, &ev2), SC_OK);

    /* another signer: another pubkey, another id */
    VT_ASSERT_STATUS(sc_event_sign(&env->ctx, &ev2, &other), SC_OK);
    assert_memory_not_equal(ev.pubkey, ev2.pubkey, 32);
    assert_memory_not_equal(ev.id, ev2.id, 32);
    VT_ASSERT_STATUS(sc_event_verify(&env->ctx, &ev2), SC_OK);

    /* through JSON and back */
    obj = ev_to_json(&ev, SC_EVENT_JSON_OBJECT, &len);
    VT_ASSERT_STATUS(ev_parse_exact(&back, arena, sizeof arena, &used, obj, len, NULL), SC_OK);
    VT_ASSERT_STATUS(sc_event_verify(&env->ctx, &back), SC_OK);
    free(obj);
    sc_identity_clear(&who);
    sc_identity_clear(&other);
}

void test_sign_reproduces_vector(void **state)
{
    /* The nip01.events.json entry gen-kind-max-and-large-timestamp, rebuilt from its fields
     * (BIP-340 vector-1 key, zero aux) so this known answer holds without the vectors folder. */
    static const char want_canon[] =
        "[0,\"dff1d77f2a671c5f36183726db2341be58feae1da2deced843240f7b502ba659\",4294967296,"
        "65535,[[\"d\",\"\"]],\"k\"]";
    static const char want_id[] =
        "4e44b4d7d890a20565faaac9fcd149909e1ba6c910dc96c24f4155a386dab988";
    static const char want_sig[] =
        "cd7b2dc484e1618a480dc32137bd21d33e0cf7dd3e3a78fac9be40a9d1d09219"
        "a3577c67a49ae1f19ccdfeceb849450a031017c8a3c0fdc4839227bb6b4b1283";
    static const uint8_t zero_aux[32] = {0};
    static const sc_str d_tag[] = {{"d", 1}, {"", 0}};
    ev_env *env = ev_env_of(state);
    vt_bytes id = {0}, sig = {0};
    sc_event_builder b;
    sc_identity who;
    uint8_t buf[128];
    sc_event ev;
    size_t len;
    char *canon;

    VT_ASSERT_STATUS(sc_event_builder_init(&b, buf, sizeof buf), SC_OK);
    sc_event_builder_kind(&b, 65535);
    sc_event_builder_created_at(&b, 4294967296);
    sc_event_builder_tag(&b, d_tag, 2);
    sc_event_builder_content(&b, "k", 1);
    VT_ASSERT_STATUS(sc_event_builder_final(&b, &ev, NULL), SC_OK);
    ev_identity(env, &who);
    VT_ASSERT_STATUS(sc_event_sign_with_rand(&env->ctx, &ev, &who, zero_aux), SC_OK);
    canon = ev_to_json(&ev, SC_EVENT_JSON_CANONICAL, &len);
    assert_int_equal(len, sizeof want_canon - 1);
    assert_memory_equal(canon, want_canon, len);
    assert_true(vt_hex_to_bytes(want_id, &id) && vt_hex_to_bytes(want_sig, &sig));
    assert_memory_equal(ev.id, id.p, 32);
    assert_memory_equal(ev.sig, sig.p, 64);
    VT_ASSERT_STATUS(sc_event_verify(&env->ctx, &ev), SC_OK);
    free(canon);
    vt_bytes_free(&id);
    vt_bytes_free(&sig);
    sc_identity_clear(&who);
}

void test_tamper(void **state)
{
    ev_env *env = ev_env_of(state);
    uint8_t buf[512];
    sc_str item = {"other", 5};
    sc_tag tags[2];
    sc_identity who;
    sc_event ev, t;

    ev_identity(env, &who);
    build(&ev, buf, sizeof buf, "original");
    VT_ASSERT_STATUS(sc_event_sign(&env->ctx, &ev, &who), SC_OK);

    t = ev;
    t.content.ptr = "originaL";
    VT_ASSERT_STATUS(sc_event_verify(&env->ctx, &t), SC_ERR_ID_MISMATCH);
    t = ev;
    t.content.len--;
    VT_ASSERT_STATUS(sc_event_verify(&env->ctx, &t), SC_ERR_ID_MISMATCH);
    t = ev;
    t.sig[63] ^= 1;
    VT_ASSERT_STATUS(sc_event_verify(&env->ctx, &t), SC_ERR_INVALID_SIG);
    t = ev;
    t.sig[0] ^= 0x80;
    VT_ASSERT_STATUS(sc_event_verify(&env->ctx, &t), SC_ERR_INVALID_SIG);
    t = ev;
    t.id[0] ^= 1;
    VT_ASSERT_STATUS(sc_event_verify(&env->ctx, &t), SC_ERR_ID_MISMATCH);
    t = ev;
    t.pubkey[31] ^= 1;
    VT_ASSERT_STATUS(sc_event_verify(&env->ctx, &t), SC_ERR_ID_MISMATCH);
    t = ev;
    t.kind = 2;
    VT_ASSERT_STATUS(sc_event_verify(&env->ctx, &t), SC_ERR_ID_MISMATCH);
    t = ev;
    t.created_at++;
    VT_ASSERT_STATUS(sc_event_verify(&env->ctx, &t), SC_ERR_ID_MISMATCH);
    t = ev;
    memcpy(tags, ev.tags, sizeof tags);
    tags[1].items = &item; /* ["other"] instead of ["t","nostr"] */
    tags[1].n_items = 1;
    t.tags = tags;
    VT_ASSERT_STATUS(sc_event_verify(&env->ctx, &t), SC_ERR_ID_MISMATCH);
    t = ev;
    t.n_tags = 1;
    VT_ASSERT_STATUS(sc_event_verify(&env->ctx, &t), SC_ERR_ID_MISMATCH);

    /* a consistent id for another pubkey: only the signature is wrong */
    t = ev;
    t.pubkey[31] ^= 1;
    VT_ASSERT_STATUS(sc_event_compute_id(&env->ctx, t.id, &t), SC_OK);
    VT_ASSERT_STATUS(sc_event_verify(&env->ctx, &t), SC_ERR_INVALID_SIG);
    /* a pubkey that is no x coordinate at all (all-ff is >= p), with its consistent id:
     * still SC_ERR_INVALID_SIG */
    t = ev;
    memset(t.pubkey, 0xff, 32);
    VT_ASSERT_STATUS(sc_event_compute_id(&env->ctx, t.id, &t), SC_OK);
    VT_ASSERT_STATUS(sc_event_verify(&env->ctx, &t), SC_ERR_INVALID_SIG);

    /* absent parts are never read */
    t = ev;
    t.flags &= ~(unsigned)SC_EVENT_HAS_SIG;
    VT_ASSERT_STATUS(sc_event_verify(&env->ctx, &t), SC_ERR_EVENT_FIELD);
    t = ev;
    t.flags &= ~(unsigned)SC_EVENT_HAS_ID;
    VT_ASSERT_STATUS(sc_event_verify(&env->ctx, &t), SC_ERR_EVENT_FIELD);
    t = ev;
    t.flags &= ~(unsigned)SC_EVENT_HAS_PUBKEY;
    VT_ASSERT_STATUS(sc_event_verify(&env->ctx, &t), SC_ERR_EVENT_FIELD);
    /* an event that fails its checks */
    t = ev;
    t.kind = 70000;
    VT_ASSERT_STATUS(sc_event_verify(&env->ctx, &t), SC_ERR_EVENT_RANGE);
    VT_ASSERT_STATUS(sc_event_verify(vt_null(), &ev), SC_ERR_ARG);
    VT_ASSERT_STATUS(sc_event_verify(&env->ctx, vt_null()), SC_ERR_ARG);
    sc_identity_clear(&who);
}

/* id and sig zeroed, their flags cleared; pubkey unchanged. */
static void assert_unsigned(const sc_event *ev, const uint8_t pubkey[32], unsigned flags)
{
    assert_true(vt_all_zero(ev->id, 32));
    assert_true(vt_all_zero(ev->sig, 64));
    assert_int_equal(ev->flags, flags & ~(unsigned)(SC_EVENT_HAS_ID | SC_EVENT_HAS_SIG));
    assert_memory_equal(ev->pubkey, pubkey, 32);
}

void test_sign_failures(void **state)
{
    static const uint8_t aux[32] = {1};
    ev_env *env = ev_env_of(state);
    uint8_t buf[512], pubkey[32];
    sc_identity who, erased;
    sc_event ev, signed_ev;
    sc_ctx dead;

    ev_identity(env, &who);
    ev_identity(env, &erased);
    sc_identity_clear(&erased);
    memset(&dead, 0, sizeof dead);
    build(&ev, buf, sizeof buf, "x");
    VT_ASSERT_STATUS(sc_event_sign_with_rand(&env->ctx, &ev, &who, aux), SC_OK);
    signed_ev = ev;
    memcpy(pubkey, ev.pubkey, 32);

    VT_ASSERT_STATUS(sc_event_sign(&env->ctx, &ev, &erased), SC_ERR_STATE);
    assert_unsigned(&ev, pubkey, signed_ev.flags);
    ev = signed_ev;
    VT_ASSERT_STATUS(sc_event_sign(&dead, &ev, &who), SC_ERR_STATE);
    assert_unsigned(&ev, pubkey, signed_ev.flags);
    ev = signed_ev;
    ev.kind = 70000;
    VT_ASSERT_STATUS(sc_event_sign(&env->ctx, &ev, &who), SC_ERR_EVENT_RANGE);
    assert_unsigned(&ev, pubkey, signed_ev.flags);
    ev = signed_ev;
    VT_ASSERT_STATUS(sc_event_sign_with_rand(&env->ctx, &ev, &who, vt_null()), SC_ERR_ARG);
    assert_unsigned(&ev, pubkey, signed_ev.flags);
    ev = signed_ev;
    VT_ASSERT_STATUS(sc_event_sign(&env->ctx, &ev, vt_null()), SC_ERR_ARG);
    assert_unsigned(&ev, pubkey, signed_ev.flags);
    ev = signed_ev;
    VT_ASSERT_STATUS(sc_event_sign(vt_null(), &ev, &who), SC_ERR_ARG);
    assert_unsigned(&ev, pubkey, signed_ev.flags);
    VT_ASSERT_STATUS(sc_event_sign(&env->ctx, vt_null(), &who), SC_ERR_ARG);
    VT_ASSERT_STATUS(sc_event_sign_with_rand(&env->ctx, vt_null(), &who, aux), SC_ERR_ARG);
    /* the same aux signs deterministically */
    ev = signed_ev;
    VT_ASSERT_STATUS(sc_event_sign_with_rand(&env->ctx, &ev, &who, aux), SC_OK);
    assert_memory_equal(ev.sig, signed_ev.sig, 64);
    sc_identity_clear(&who);
}

void test_builder_happy(void **state)
{
    ev_env *env = ev_env_of(state);
    static const char want[] =
        "[0,\"dff1d77f2a671c5f36183726db2341be58feae1da2deced843240f7b502ba659\",1700000000,1,"
        "[[\"e\",\"abc\",\"\",\"root\"],[\"t\",\"nostr\"]],\"hi\\u0000there\"]";
    uint8_t raw[600];
    char content[16] = "hi\0there";
    sc_str items[2] = {{NULL, 0}, {NULL, 0}};
    char item0[4] = "p", item1[8] = "abcdef";
    sc_event_builder b;
    sc_identity who;
    sc_event ev, ev2;
    size_t len, off;
    char *canon;

    /* defaults, with no buffer at all */
    VT_ASSERT_STATUS(sc_event_builder_init(&b, NULL, 0), SC_OK);
    VT_ASSERT_STATUS(sc_event_builder_final(&b, &ev, NULL), SC_OK);
    assert_int_equal(ev.kind, 1);
    assert_int_equal(ev.created_at, 0);
    assert_int_equal(ev.n_tags, 0);
    assert_non_null(ev.content.ptr);
    assert_int_equal(ev.content.len, 0);
    assert_int_equal(ev.flags, SC_EVENT_HAS_KIND | SC_EVENT_HAS_CREATED_AT | SC_EVENT_HAS_TAGS |
                                   SC_EVENT_HAS_CONTENT);

    /* every buffer alignment: the views are aligned and the text is exact */
    ev_identity(env, &who);
    for (off = 0; off < 8; off++) {
        static const sc_str e_tag[] = {{"e", 1}, {"abc", 3}, {"", 0}, {"root", 4}};
        static const sc_str t_tag[] = {{"t", 1}, {"nostr", 5}};

        VT_ASSERT_STATUS(sc_event_builder_init(&b, raw + off, sizeof raw - off), SC_OK);
        sc_event_builder_created_at(&b, 1700000000);
        sc_event_builder_content(&b, "replaced", 8);
        sc_event_builder_content(&b, content, 8);
        sc_event_builder_tag(&b, e_tag, 4);
        sc_event_builder_tag(&b, t_tag, 2);
        VT_ASSERT_STATUS(sc_event_builder_final(&b, &ev, NULL), SC_OK);
        assert_int_equal((uintptr_t)ev.tags % sizeof(void *), 0);
        assert_int_equal((uintptr_t)ev.tags[0].items % sizeof(void *), 0);
        assert_int_equal((uintptr_t)ev.tags[1].items % sizeof(void *), 0);
        assert_true((uint8_t *)ev.tags >= raw + off &&
                    (uint8_t *)(ev.tags + 2) <= raw + sizeof raw);
        VT_ASSERT_STATUS(sc_event_sign(&env->ctx, &ev, &who), SC_OK);
        canon = ev_to_json(&ev, SC_EVENT_JSON_CANONICAL, &len);
        assert_int_equal(len, sizeof want - 1);
        assert_memory_equal(canon, want, len);
        free(canon);
        VT_ASSERT_STATUS(sc_event_verify(&env->ctx, &ev), SC_OK);
        /* finish again: the same event (the tags are not reversed twice) */
        VT_ASSERT_STATUS(sc_event_builder_final(&b, &ev2, NULL), SC_OK);
        assert_ptr_equal(ev2.tags, ev.tags);
        assert_int_equal(ev2.tags[0].n_items, 4);
        assert_memory_equal(ev2.tags[0].items[3].ptr, "root", 4);
    }

    /* strings are copied: changing the inputs afterwards changes nothing */
    items[0].ptr = item0;
    items[0].len = 1;
    items[1].ptr = item1;
    items[1].len = 6;
    VT_ASSERT_STATUS(sc_event_builder_init(&b, raw, sizeof raw), SC_OK);
    sc_event_builder_tag(&b, items, 2);
    sc_event_builder_content(&b, content, 2);
    VT_ASSERT_STATUS(sc_event_builder_final(&b, &ev, NULL), SC_OK);
    memset(item0, 'X', sizeof item0);
    memset(item1, 'X', sizeof item1);
    memset(content, 'X', sizeof content);
    assert_memory_equal(ev.tags[0].items[0].ptr, "p", 1);
    assert_memory_equal(ev.tags[0].items[1].ptr, "abcdef", 6);
    assert_memory_equal(ev.content.ptr, "hi", 2);

    /* many tags stay in order */
    VT_ASSERT_STATUS(sc_event_builder_init(&b, raw, sizeof raw), SC_OK);
    for (off = 0; off < 10; off++) {
        char digit = (char)('0' + off);
        sc_str one = {&digit, 1};

        sc_event_builder_tag(&b, &one, 1);
    }
    VT_ASSERT_STATUS(sc_event_builder_final(&b, &ev, NULL), SC_OK);
    assert_int_equal(ev.n_tags, 10);
    for (off = 0; off < 10; off++) {
        assert_int_equal(ev.tags[off].n_items, 1);
        assert_int_equal(ev.tags[off].items[0].ptr[0], '0' + (int)off);
    }
    sc_identity_clear(&who);
}

void test_builder_errors(void **state)
{
    static const sc_str good[] = {{"a", 1}};
    static const sc_str bad_utf8[] = {{"a", 1}, {"\xc3\x28", 2}};
    static const sc_str null_item[] = {{NULL, 3}};
    uint8_t raw[256];
    sc_event_builder b;
    sc_event ev;

    (void)state;
#define EXPECT_STICKY(setup, want)                                                                 \
    do {                                                                                           \
        VT_ASSERT_STATUS(sc_event_builder_init(&b, raw, sizeof raw), SC_OK);                       \
        setup;                                                                                     \
        /* later calls, good or bad, change nothing */                                             \
        sc_event_builder_kind(&b, 70000);                                                          \
        sc_event_builder_tag(&b, good, 1);                                                         \
        sc_event_builder_content(&b, "ok", 2);                                                     \
        memset(&ev, 0x55, sizeof ev);                                                              \
        VT_ASSERT_STATUS(sc_event_builder_final(&b, &ev, NULL), (want));                           \
        assert_true(vt_all_zero((const uint8_t *)&ev, sizeof ev));                                 \
        VT_ASSERT_STATUS(sc_event_builder_final(&b, &ev, NULL), (want));                           \
    } while (0)

    EXPECT_STICKY(sc_event_builder_kind(&b, SC_EVENT_KIND_MAX + 1), SC_ERR_EVENT_RANGE);
    EXPECT_STICKY(sc_event_builder_kind(&b, UINT32_MAX), SC_ERR_EVENT_RANGE);
    EXPECT_STICKY(sc_event_builder_created_at(&b, -1), SC_ERR_EVENT_RANGE);
    EXPECT_STICKY(sc_event_builder_created_at(&b, INT64_MIN), SC_ERR_EVENT_RANGE);
    EXPECT_STICKY(sc_event_builder_tag(&b, good, 0), SC_ERR_EVENT_FIELD);
    EXPECT_STICKY(sc_event_builder_tag(&b, bad_utf8, 2), SC_ERR_UTF8);
    EXPECT_STICKY(sc_event_builder_tag(&b, null_item, 1), SC_ERR_ARG);
    EXPECT_STICKY(sc_event_builder_tag(&b, vt_null(), 1), SC_ERR_ARG);
    EXPECT_STICKY(sc_event_builder_content(&b, "\xff", 1), SC_ERR_UTF8);
    EXPECT_STICKY(sc_event_builder_content(&b, vt_null(), 1), SC_ERR_ARG);
    /* the first failure wins */
    EXPECT_STICKY((sc_event_builder_tag(&b, good, 0), sc_event_builder_created_at(&b, -1)),
                  SC_ERR_EVENT_FIELD);
#undef EXPECT_STICKY

    /* the boundaries themselves are fine */
    VT_ASSERT_STATUS(sc_event_builder_init(&b, raw, sizeof raw), SC_OK);
    sc_event_builder_kind(&b, SC_EVENT_KIND_MAX);
    sc_event_builder_created_at(&b, INT64_MAX);
    sc_event_builder_content(&b, vt_null(), 0);
    VT_ASSERT_STATUS(sc_event_builder_final(&b, &ev, NULL), SC_OK);
    assert_int_equal(ev.kind, SC_EVENT_KIND_MAX);
    assert_true(ev.created_at == INT64_MAX);

    /* a change after finish is refused, stickily */
    sc_event_builder_tag(&b, good, 1);
    VT_ASSERT_STATUS(sc_event_builder_final(&b, &ev, NULL), SC_ERR_STATE);

    /* arguments and state */
    VT_ASSERT_STATUS(sc_event_builder_init(vt_null(), raw, sizeof raw), SC_ERR_ARG);
    VT_ASSERT_STATUS(sc_event_builder_init(&b, vt_null(), 8), SC_ERR_ARG);
    memset(&b, 0, sizeof b); /* never initialised: calls are no-ops, finish says so */
    sc_event_builder_kind(&b, 3);
    sc_event_builder_tag(&b, good, 1);
    sc_event_builder_content(&b, "x", 1);
    VT_ASSERT_STATUS(sc_event_builder_final(&b, &ev, NULL), SC_ERR_STATE);
    VT_ASSERT_STATUS(sc_event_builder_final(vt_null(), &ev, NULL), SC_ERR_ARG);
    VT_ASSERT_STATUS(sc_event_builder_init(&b, raw, sizeof raw), SC_OK);
    VT_ASSERT_STATUS(sc_event_builder_final(&b, vt_null(), NULL), SC_ERR_ARG);
    sc_event_builder_kind(vt_null(), 1);
    sc_event_builder_created_at(vt_null(), 1);
    sc_event_builder_content(vt_null(), "x", 1);
    sc_event_builder_tag(vt_null(), good, 1);
}

/* Builds a fixed event into a buffer of cap bytes at buf; returns the final status and,
 * in *need, what final reports as the buffer size. */
static sc_status build_need(uint8_t *buf, size_t cap, sc_event *ev, size_t *need)
{
    static const sc_str t1[] = {{"e", 1}, {"0123456789", 10}};
    static const sc_str t2[] = {{"p", 1}};
    static const sc_str t3[] = {{"x", 1}, {"", 0}, {"yz", 2}};
    sc_event_builder b;
    sc_status st = sc_event_builder_init(&b, cap != 0 ? buf : NULL, cap);

    if (st != SC_OK) {
        return st;
    }
    sc_event_builder_content(&b, "content!", 8);
    sc_event_builder_tag(&b, t1, 2);
    sc_event_builder_tag(&b, t2, 1);
    sc_event_builder_tag(&b, t3, 3);
    sc_event_builder_content(&b, "replaced", 8); /* not the last thing added: not reused */
    return sc_event_builder_final(&b, ev, need);
}

static sc_status build_into(uint8_t *buf, size_t cap, sc_event *ev)
{
    size_t need;

    return build_need(buf, cap, ev, &need);
}

void test_builder_capacity(void **state)
{
    uint8_t *raw;
    size_t cap, first_ok = 0, off;
    sc_event ev;

    (void)state;
    /* exactly one threshold: everything below fails with BUFFER_TOO_SMALL, everything from
     * it on succeeds; heap buffers of exact size let ASan see any write past the end */
    for (off = 0; off < 8; off++) {
        first_ok = 0;
        for (cap = 0; cap < 400; cap++) {
            sc_status st;

            raw = vt_alloc(cap + off);
            st = build_into(raw + off, cap, &ev);
            free(raw);
            if (st == SC_OK && first_ok == 0) {
                first_ok = cap;
            }
            if (first_ok == 0) {
                VT_ASSERT_STATUS(st, SC_ERR_BUFFER_TOO_SMALL);
            } else {
                VT_ASSERT_STATUS(st, SC_OK);
            }
        }
        /* the data alone is 8 + 8 + 11 + 1 + 3 bytes, 3 tags and 6 views: the need is close */
        assert_true(first_ok >= 31 + 3 * sizeof(sc_tag) + 6 * sizeof(sc_str));
        assert_true(first_ok <= 31 + 3 * sizeof(sc_tag) + 6 * sizeof(sc_str) + 4 * sizeof(void *));
    }
}

/* The two-pass form: a builder over no buffer (or too small a one) reports, at final, a
 * size that suffices at every alignment; the same size is reported on success; and
 * sc_event_builder_buf_max of the built event is at least that. A real error still wins. */
void test_builder_two_pass(void **state)
{
    static const sc_str bad[] = {{"\xff", 1}};
    size_t need = 0, again = 0, off, bound;
    sc_event_builder b;
    uint8_t *raw;
    sc_event ev, ev2;

    (void)state;
    VT_ASSERT_STATUS(build_need(NULL, 0, &ev, &need), SC_ERR_BUFFER_TOO_SMALL);
    assert_true(need > 31 + 3 * sizeof(sc_tag) + 6 * sizeof(sc_str));
    for (off = 0; off < 2 * sizeof(void *); off++) {
        raw = vt_alloc(need + off);
        VT_ASSERT_STATUS(build_need(raw + off, need, &ev, &again), SC_OK);
        assert_int_equal(again, need);
        assert_int_equal(ev.n_tags, 3);
        assert_memory_equal(ev.content.ptr, "replaced", 8);
        free(raw);
        /* one byte short at the same address can still fail: it must not crash or lie */
        raw = vt_alloc(need + off);
        VT_ASSERT_STATUS(build_need(raw + off, 20, &ev, &again), SC_ERR_BUFFER_TOO_SMALL);
        assert_int_equal(again, need);
        free(raw);
    }
    /* sc_event_builder_buf_max of an event suffices to build a copy of it at any address */
    raw = vt_alloc(need);
    VT_ASSERT_STATUS(build_need(raw, need, &ev, &again), SC_OK);
    bound = sc_event_builder_buf_max(ev.content.len, ev.tags, ev.n_tags);
    for (off = 0; off < 2 * sizeof(void *); off++) {
        uint8_t *copy = vt_alloc(bound + off);
        size_t t;

        VT_ASSERT_STATUS(sc_event_builder_init(&b, copy + off, bound), SC_OK);
        sc_event_builder_content(&b, ev.content.ptr, ev.content.len);
        for (t = 0; t < ev.n_tags; t++) {
            sc_event_builder_tag(&b, ev.tags[t].items, ev.tags[t].n_items);
        }
        VT_ASSERT_STATUS(sc_event_builder_final(&b, &ev2, &again), SC_OK);
        assert_true(again <= bound);
        free(copy);
    }
    free(raw);
    /* out of room, then a real error: the real error is reported, with no size */
    VT_ASSERT_STATUS(sc_event_builder_init(&b, NULL, 0), SC_OK);
    sc_event_builder_content(&b, "abc", 3);
    sc_event_builder_tag(&b, bad, 1);
    VT_ASSERT_STATUS(sc_event_builder_final(&b, &ev, &again), SC_ERR_UTF8);
    assert_int_equal(again, 0);
    /* the size function's own refusals */
    assert_int_equal(sc_event_builder_buf_max(0, NULL, 1), 0);
    assert_true(sc_event_builder_buf_max(0, NULL, 0) > 0);
    assert_int_equal(sc_event_builder_buf_max((size_t)-1, NULL, 0), 0);
}

/* The curve adapter keeps recently lifted public keys: with more signers than it keeps,
 * verified in an order that both hits and evicts, every signature verifies under its own key
 * and under no other (a key in the cache does not vouch for another's signature), a flipped
 * signature bit fails, and an x with no point (never kept) fails in between. */
void test_verify_key_cache(void **state)
{
    ev_env *env = ev_env_of(state);
    enum {
        SIGNERS = 12
    };
    sc_identity id;
    uint8_t pub[SIGNERS][32], sig[SIGNERS][64], msg[SIGNERS][32], aux[32], bad[32], t[64];
    size_t round, i, j;

    memset(aux, 0x5c, sizeof aux);
    memset(bad, 0, sizeof bad);
    bad[31] = 5; /* x = 5 does not lift */
    for (i = 0; i < SIGNERS; i++) {
        memset(msg[i], (int)(0x40 + i), 32);
        VT_ASSERT_STATUS(sc_identity_generate(&env->ctx, &id), SC_OK);
        VT_ASSERT_STATUS(sc_identity_pubkey(pub[i], &id), SC_OK);
        VT_ASSERT_STATUS(sc_identity_sign_with_rand(&env->ctx, sig[i], &id, msg[i], aux), SC_OK);
        sc_identity_clear(&id);
    }
    for (round = 0; round < 400; round++) {
        i = (round * 7 + round / 5) % SIGNERS;
        j = (i + 1 + round % (SIGNERS - 1)) % SIGNERS; /* never i */
        VT_ASSERT_STATUS(sc_identity_verify(&env->ctx, sig[i], msg[i], pub[i]), SC_OK);
        VT_ASSERT_STATUS(sc_identity_verify(&env->ctx, sig[i], msg[i], pub[j]), SC_ERR_INVALID_SIG);
        if (round % 5 == 0) {
            memcpy(t, sig[i], 64);
            t[round % 64] ^= (uint8_t)(1u << (round % 8));
            VT_ASSERT_STATUS(sc_identity_verify(&env->ctx, t, msg[i], pub[i]), SC_ERR_INVALID_SIG);
        }
        if (round % 9 == 0) {
            VT_ASSERT_STATUS(sc_identity_verify(&env->ctx, sig[i], msg[i], bad),
                             SC_ERR_INVALID_SIG);
        }
    }
    printf("[%s] verify key cache: %d signers, 400 rounds, every signature verified under its own "
           "key only\n",
           env->backend, SIGNERS);
}
