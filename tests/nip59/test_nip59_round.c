/* Round trips: sc_nip59_wrap then sc_nip59_unwrap, with every layer also opened independently
 * (gw_open: NIP-44 and the parser only) to check what unwrap does not return: the seal's kind,
 * tags and time, the wrap's tags, and the exact rumor JSON that was sealed. */
#include "test_nip59.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "vt_rand.h"

#define NOW 1750000000 /* a fixed "now" where the test sets one */

/* Text pieces that stress escaping and UTF-8: every JSON escape class, U+0000, DEL, the line
 * separators, 2-, 3- and 4-byte sequences. */
static const char *const k_pieces[] = {
    "a",
    "hello world ",
    "\"",
    "\\",
    "\n",
    "\r\t",
    "\b\f",
    "\x01",
    "\x1f",
    "\x7f",
    "/",
    "<>&",
    "\xe2\x80\xa8",
    "\xe2\x80\xa9",
    "\xc3\xa9",
    "\xe4\xb8\xad",
    "\xf0\x9f\xa6\x84",
    "{\"json\":[1,2]}",
};

/* Random valid UTF-8 of about len bytes (never more than cap); U+0000 too when nul. */
static size_t random_text(char *out, size_t cap, size_t len, int nul)
{
    size_t n = 0;

    while (n < len) {
        const char *p = k_pieces[vt_rand_below(sizeof k_pieces / sizeof k_pieces[0])];
        size_t l = strlen(p);

        if (nul && vt_rand_below(50) == 0) {
            p = "\0";
            l = 1;
        }
        if (n + l > cap) {
            break;
        }
        memcpy(out + n, p, l);
        n += l;
    }
    return n;
}

/* What one round trip used. */
typedef struct trip {
    const sc_event *rumor;
    const uint8_t *author_pub, *recipient_pub;
    const sc_nip59_opts *opts;
    int64_t t_lo, t_hi; /* the range the timestamps must fall in */
} trip;

/* Opens wrap with both openers and checks everything; 1 on success, else 0 with err. */
static int check_trip(gw_env *env, const trip *t, const char *wrap, size_t len,
                      const sc_identity *me, char *err, size_t cap)
{
    char p_hex[65], exp_dec[24], *rumor_json;
    const char *p_tag[] = {"p", p_hex, NULL, NULL}, *e_tag[] = {"expiration", exp_dec, NULL};
    uint8_t *arena = NULL;
    size_t used = 0, rlen = sc_event_to_json_len(t->rumor, SC_EVENT_JSON_OBJECT), n = 0, i, w_tags;
    int64_t exp = t->opts != NULL ? t->opts->expiration : 0;
    sc_nip59_info info;
    sc_event got;
    gw_opened o;
    sc_status st;
    char why[200];
    int ok = 0;

    for (i = 0; i < 32; i++) {
        snprintf(p_hex + 2 * i, 3, "%02x", t->recipient_pub[i]);
    }
    snprintf(exp_dec, sizeof exp_dec, "%lld", (long long)exp);
    if (t->opts != NULL && t->opts->relay.len != 0) {
        char *relay = (char *)vt_alloc(t->opts->relay.len + 1);

        memcpy(relay, t->opts->relay.ptr, t->opts->relay.len);
        p_tag[2] = relay; /* relays here have no U+0000 */
    }
    rumor_json = (char *)vt_alloc(rlen);
    VT_ASSERT_STATUS(sc_event_to_json(rumor_json, rlen, &n, t->rumor, SC_EVENT_JSON_OBJECT), SC_OK);
    st = gw_unwrap(env, wrap, len, me, &got, &info, &arena, &used);
    gw_open(env, wrap, len, me, &o);
    w_tags = 1 + (exp > 0);
    if (st != SC_OK) {
        snprintf(err, cap, "unwrap: %s", sc_status_name(st));
    } else if (!gw_same(&got, t->rumor, why, sizeof why) || got.flags != SC_EVENT_RUMOR) {
        snprintf(err, cap, "the unwrapped rumor differs: %s", why);
    } else if (memcmp(info.sender, t->author_pub, 32) != 0 ||
               memcmp(info.wrap_pubkey, o.wrap.pubkey, 32) != 0 ||
               memcmp(info.wrap_id, o.wrap.id, 32) != 0 ||
               memcmp(info.seal_id, o.seal.id, 32) != 0 ||
               info.wrap_created_at != o.wrap.created_at ||
               info.seal_created_at != o.seal.created_at) {
        snprintf(err, cap, "info disagrees with the layers");
    } else if (o.wrap.kind !=
                   ((t->opts != NULL && (t->opts->flags & SC_NIP59_EPHEMERAL)) ? 21059u : 1059u) ||
               info.wrap_kind != o.wrap.kind || o.seal.kind != 13) {
        snprintf(err, cap, "kinds: wrap %u, seal %u", o.wrap.kind, o.seal.kind);
    } else if (o.wrap.created_at < t->t_lo || o.wrap.created_at > t->t_hi ||
               o.seal.created_at < t->t_lo || o.seal.created_at > t->t_hi) {
        snprintf(err, cap, "timestamps %lld / %lld outside [%lld, %lld]",
                 (long long)o.wrap.created_at, (long long)o.seal.created_at, (long long)t->t_lo,
                 (long long)t->t_hi);
    } else if (o.wrap.n_tags != w_tags || !gw_tag_is(&o.wrap.tags[0], p_tag) ||
               (exp > 0 && !gw_tag_is(&o.wrap.tags[1], e_tag))) {
        snprintf(err, cap, "wrap tags are not [p%s%s]", p_tag[2] != NULL ? " + relay" : "",
                 exp > 0 ? ", expiration" : "");
    } else if (o.seal.n_tags != (size_t)(exp > 0) ||
               (exp > 0 && !gw_tag_is(&o.seal.tags[0], e_tag))) {
        snprintf(err, cap, "seal tags are not %s", exp > 0 ? "[expiration]" : "[]");
    } else if (o.rumor_len != rlen || memcmp(o.rumor_json, rumor_json, rlen) != 0) {
        snprintf(err, cap, "the sealed text is not the rumor's JSON object");
    } else if (len > sc_nip59_wrap_max(t->rumor, t->opts)) {
        snprintf(err, cap, "wrap of %zu bytes over sc_nip59_wrap_max %zu", len,
                 sc_nip59_wrap_max(t->rumor, t->opts));
    } else {
        ok = 1;
    }
    if (arena != NULL) {
        sc_mem_wipe(arena, used);
    }
    free(arena);
    free((void *)p_tag[2]);
    free(rumor_json);
    gw_opened_free(&o);
    return ok;
}

/* A random rumor of author into buf: kind, time, content up to max_content bytes and 0..5
 * tags of tricky strings. The text buffers live in txt. */
static void random_rumor(gw_env *env, sc_event *ev, uint8_t *buf, size_t cap, char *txt,
                         size_t txt_cap, const uint8_t author[32], size_t content_len)
{
    static const uint32_t kinds[] = {1, 14, 15, 7, 30023, 65535, 0};
    sc_event_builder b;
    sc_str items[4];
    size_t used, n_tags = vt_rand_below(6), t, i;

    VT_ASSERT_STATUS(sc_event_builder_init(&b, buf, cap), SC_OK);
    sc_event_builder_kind(&b, kinds[vt_rand_below(sizeof kinds / sizeof kinds[0])]);
    sc_event_builder_created_at(&b, (int64_t)(vt_rand_u64() & ((UINT64_C(1) << 40) - 1)));
    used = random_text(txt, txt_cap, content_len, 1);
    sc_event_builder_content(&b, txt, used);
    for (t = 0; t < n_tags; t++) {
        size_t n_items = 1 + vt_rand_below(4);

        for (i = 0; i < n_items; i++) {
            items[i].ptr = txt + used;
            items[i].len = random_text(txt + used, txt_cap - used, vt_rand_below(40), 1);
            used += items[i].len;
        }
        sc_event_builder_tag(&b, items, n_items);
    }
    VT_ASSERT_STATUS(sc_event_builder_final(&b, ev, NULL), SC_OK);
    VT_ASSERT_STATUS(sc_nip59_rumor(&env->ctx, ev, author), SC_OK);
}

void test_round_random(void **state)
{
    static const char *const relays[] = {"wss://relay.example.com", "wss://r\xc3\xa9lay/\"q\"\\",
                                         "ws://127.0.0.1:7777/path?x=1&y=2"};
    gw_env *env = gw_env_of(state);
    const size_t rounds = 30, txt_cap = 48000, buf_cap = 64000;
    uint64_t seed = vt_rand_fresh_seed();
    char *txt = (char *)vt_alloc(txt_cap);
    uint8_t *buf = vt_alloc(buf_cap), apub[32], rpub[32];
    sc_identity author, recipient;
    size_t k, len, clen, extended = 0;
    char err[300];
    vt_report r;

    printf("[%s] round trips: seed %llu\n", env->backend, (unsigned long long)seed);
    vt_rand_seed(seed);
    vt_report_init(&r, env->backend, "own: random round trips (0..40 KB, tricky text)");
    for (k = 0; k < rounds; k++) {
        sc_nip59_opts opts;
        sc_event rumor;
        trip t;
        char *wrap;

        VT_ASSERT_STATUS(sc_identity_generate(&env->ctx, &author), SC_OK);
        VT_ASSERT_STATUS(sc_identity_generate(&env->ctx, &recipient), SC_OK);
        VT_ASSERT_STATUS(sc_identity_pubkey(apub, &author), SC_OK);
        VT_ASSERT_STATUS(sc_identity_pubkey(rpub, &recipient), SC_OK);
        clen = k == 0 ? 0 : k == 1 ? 1 : k < 10 ? vt_rand_below(200) : vt_rand_below(40001);
        random_rumor(env, &rumor, buf, buf_cap, txt, txt_cap, apub, clen);
        memset(&opts, 0, sizeof opts);
        opts.now = NOW + (int64_t)vt_rand_below(1000000);
        opts.flags = (opts.flags & ~SC_NIP59_EPHEMERAL) |
                     (((int)vt_rand_below(2)) ? SC_NIP59_EPHEMERAL : 0u);
        if (vt_rand_below(2)) {
            const char *rl = relays[vt_rand_below(3)];

            opts.relay.ptr = rl;
            opts.relay.len = strlen(rl);
        }
        if (vt_rand_below(2)) {
            opts.expiration = opts.now + (int64_t)vt_rand_below(10000000);
        }
        /* escapes can push a 40 KB content's JSON past the 40960 bytes u16 receivers read */
        opts.flags =
            (opts.flags & ~SC_NIP44_EXTENDED) |
            ((sc_event_to_json_len(&rumor, SC_EVENT_JSON_OBJECT) > 40960) ? SC_NIP44_EXTENDED : 0u);
        extended += (opts.flags & SC_NIP44_EXTENDED) != 0;
        wrap = gw_wrap(env, &rumor, &author, rpub, &opts, &len);
        t.rumor = &rumor;
        t.author_pub = apub;
        t.recipient_pub = rpub;
        t.opts = &opts;
        t.t_lo = opts.now - SC_NIP59_MAX_BACKDATE;
        t.t_hi = opts.now;
        if (!check_trip(env, &t, wrap, len, &recipient, err, sizeof err)) {
            vt_case_fail(&r, "round %zu (content %zu bytes): %s", k, rumor.content.len, err);
        } else {
            vt_case_pass(&r);
        }
        free(wrap);
        sc_identity_clear(&author);
        sc_identity_clear(&recipient);
    }
    free(txt);
    free(buf);
    snprintf(r.detail, sizeof r.detail, "seed %llu, %zu needing the extended prefix",
             (unsigned long long)seed, extended);
    vt_report_finish(&r, rounds);
}

void test_round_options(void **state)
{
    static const struct {
        const char *name;
        int ephemeral;
        const char *relay;
        int64_t expiration;
    } cases[] = {
        {"defaults", 0, NULL, 0},
        {"ephemeral kind 21059", 1, NULL, 0},
        {"relay hint", 0, "wss://inbox.example", 0},
        {"expiration on seal and wrap", 0, NULL, 1760000000},
        {"all of them", 1, "wss://inbox.example", 4102444800},
    };
    static const char *const tags[] = {"p",
                                       "8f8a7ec43b77d25799281207e1a47f7a654755055788f748265"
                                       "3f9c9661c6d51",
                                       NULL, NULL};
    gw_env *env = gw_env_of(state);
    uint8_t buf[512], apub[32], rpub[32];
    sc_identity author, recipient;
    sc_nip59_opts opts;
    sc_event rumor;
    size_t i, len;
    char err[300];
    vt_report r;
    trip t;

    gw_key(env, &author, apub, 0x11);
    gw_key(env, &recipient, rpub, 0x22);
    gw_rumor(env, &rumor, buf, sizeof buf, apub, 14, 1700000000, "options", 7, tags);
    vt_report_init(&r, env->backend, "own: wrap options");
    for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char *wrap;

        memset(&opts, 0, sizeof opts);
        opts.now = NOW;
        opts.flags =
            (opts.flags & ~SC_NIP59_EPHEMERAL) | ((cases[i].ephemeral) ? SC_NIP59_EPHEMERAL : 0u);
        opts.relay.ptr = cases[i].relay;
        opts.relay.len = cases[i].relay != NULL ? strlen(cases[i].relay) : 0;
        opts.expiration = cases[i].expiration;
        wrap = gw_wrap(env, &rumor, &author, rpub, &opts, &len);
        t.rumor = &rumor;
        t.author_pub = apub;
        t.recipient_pub = rpub;
        t.opts = &opts;
        t.t_lo = NOW - SC_NIP59_MAX_BACKDATE;
        t.t_hi = NOW;
        if (!check_trip(env, &t, wrap, len, &recipient, err, sizeof err)) {
            vt_case_fail(&r, "%s: %s", cases[i].name, err);
        } else {
            vt_case_pass(&r);
        }
        free(wrap);
    }
    /* NULL options: the defaults */
    {
        char *wrap;

        memset(&opts, 0, sizeof opts);
        wrap = gw_wrap(env, &rumor, &author, rpub, NULL, &len);
        t.opts = NULL;
        t.t_lo = (int64_t)time(NULL) - SC_NIP59_MAX_BACKDATE - 5;
        t.t_hi = (int64_t)time(NULL) + 5;
        if (!check_trip(env, &t, wrap, len, &recipient, err, sizeof err)) {
            vt_case_fail(&r, "NULL options: %s", err);
        } else {
            vt_case_pass(&r);
        }
        free(wrap);
    }
    sc_identity_clear(&author);
    sc_identity_clear(&recipient);
    vt_report_finish(&r, sizeof cases / sizeof cases[0] + 1);
}

void test_round_fresh(void **state)
{
    gw_env *env = gw_env_of(state);
    uint8_t buf[256], apub[32], rpub[32], *a1 = NULL, *a2 = NULL;
    size_t l1, l2, u1, u2, k;
    sc_identity author, recipient;
    sc_nip59_info i1, i2;
    sc_event rumor, g1, g2;
    gw_opened o1, o2;
    char *w1, *w2;

    gw_key(env, &author, apub, 0x31);
    gw_key(env, &recipient, rpub, 0x32);
    gw_rumor(env, &rumor, buf, sizeof buf, apub, 14, 1700000000, "same rumor twice", 16, NULL);
    /* many draws: the backdates are independent and cover both halves of their range */
    {
        int seal_low = 0, seal_high = 0, differ = 0;

        for (k = 0; k < 16; k++) {
            sc_nip59_opts opts;

            memset(&opts, 0, sizeof opts);
            opts.now = NOW;
            w1 = gw_wrap(env, &rumor, &author, rpub, &opts, &l1);
            gw_open(env, w1, l1, &recipient, &o1);
            seal_low += o1.seal.created_at > NOW - SC_NIP59_MAX_BACKDATE / 2;
            seal_high += o1.seal.created_at <= NOW - SC_NIP59_MAX_BACKDATE / 2;
            differ += o1.seal.created_at != o1.wrap.created_at;
            gw_opened_free(&o1);
            free(w1);
        }
        /* each fails with probability 2^-16 for a fair generator */
        assert_true(seal_low > 0 && seal_high > 0);
        assert_true(differ > 0);
    }
    w1 = gw_wrap(env, &rumor, &author, rpub, NULL, &l1);
    w2 = gw_wrap(env, &rumor, &author, rpub, NULL, &l2);
    gw_open(env, w1, l1, &recipient, &o1);
    gw_open(env, w2, l2, &recipient, &o2);
    /* fresh one-time keys, nonces and signatures */
    assert_memory_not_equal(o1.wrap.pubkey, o2.wrap.pubkey, 32);
    assert_memory_not_equal(o1.wrap.id, o2.wrap.id, 32);
    assert_memory_not_equal(o1.seal.id, o2.seal.id, 32);
    assert_false(o1.wrap.content.len == o2.wrap.content.len &&
                 memcmp(o1.wrap.content.ptr, o2.wrap.content.ptr, o1.wrap.content.len) == 0);
    assert_false(o1.seal.content.len == o2.seal.content.len &&
                 memcmp(o1.seal.content.ptr, o2.seal.content.ptr, o1.seal.content.len) == 0);
    /* the same seal signer, the same rumor */
    assert_memory_equal(o1.seal.pubkey, o2.seal.pubkey, 32);
    VT_ASSERT_STATUS(gw_unwrap(env, w1, l1, &recipient, &g1, &i1, &a1, &u1), SC_OK);
    VT_ASSERT_STATUS(gw_unwrap(env, w2, l2, &recipient, &g2, &i2, &a2, &u2), SC_OK);
    gw_assert_same(&g1, &rumor);
    gw_assert_same(&g2, &rumor);
    assert_memory_equal(g1.id, g2.id, 32);
    gw_opened_free(&o1);
    gw_opened_free(&o2);
    free(a1);
    free(a2);
    free(w1);
    free(w2);
    sc_identity_clear(&author);
    sc_identity_clear(&recipient);
}

void test_round_clock(void **state)
{
    gw_env *env = gw_env_of(state);
    uint8_t buf[256], apub[32], rpub[32];
    sc_identity author, recipient;
    sc_nip59_opts opts;
    sc_event rumor;
    gw_opened o;
    int64_t t0, t1;
    size_t len;
    char *w;

    gw_key(env, &author, apub, 0x41);
    gw_key(env, &recipient, rpub, 0x42);
    gw_rumor(env, &rumor, buf, sizeof buf, apub, 14, 5, "clock", 5, NULL);
    memset(&opts, 0, sizeof opts);
    t0 = (int64_t)time(NULL);
    w = gw_wrap(env, &rumor, &author, rpub, &opts, &len); /* now = 0: the clock */
    t1 = (int64_t)time(NULL);
    gw_open(env, w, len, &recipient, &o);
    assert_true(o.wrap.created_at >= t0 - SC_NIP59_MAX_BACKDATE && o.wrap.created_at <= t1);
    assert_true(o.seal.created_at >= t0 - SC_NIP59_MAX_BACKDATE && o.seal.created_at <= t1);
    gw_opened_free(&o);
    free(w);

    /* a "now" inside the first two days never gives a negative time */
    opts.now = 1;
    w = gw_wrap(env, &rumor, &author, rpub, &opts, &len);
    gw_open(env, w, len, &recipient, &o);
    assert_true(o.wrap.created_at >= 0 && o.wrap.created_at <= 1);
    assert_true(o.seal.created_at >= 0 && o.seal.created_at <= 1);
    gw_opened_free(&o);
    free(w);
    sc_identity_clear(&author);
    sc_identity_clear(&recipient);
}

void test_round_extended(void **state)
{
    gw_env *env = gw_env_of(state);
    const size_t clen = 300000;
    char *content = (char *)vt_alloc(clen), *out, *w;
    uint8_t *buf = vt_alloc(clen + 256), apub[32], rpub[32], *scratch, *arena = NULL;
    size_t len, need, scap, out_len = 7, used;
    sc_identity author, recipient;
    sc_nip59_opts opts;
    sc_nip59_info info;
    sc_event rumor, got;

    memset(content, 'z', clen);
    gw_key(env, &author, apub, 0x51);
    gw_key(env, &recipient, rpub, 0x52);
    gw_rumor(env, &rumor, buf, clen + 256, apub, 14, 1700000000, content, clen, NULL);
    memset(&opts, 0, sizeof opts);
    opts.now = NOW;
    need = sc_nip59_wrap_max(&rumor, &opts);
    scap = sc_nip59_wrap_scratch_max(&rumor, &opts);
    out = (char *)vt_alloc(need);
    scratch = vt_alloc(scap);
    /* refused by default, before the buffers are looked at */
    VT_ASSERT_STATUS(
        sc_nip59_wrap(&env->ctx, out, need, &out_len, scratch, scap, &rumor, &author, rpub, &opts),
        SC_ERR_POLICY);
    assert_int_equal(out_len, 0);
    VT_ASSERT_STATUS(
        sc_nip59_wrap(&env->ctx, NULL, 0, &out_len, NULL, 0, &rumor, &author, rpub, &opts),
        SC_ERR_POLICY);
    /* allowed: both layers use the extended prefix and unwrap reads them */
    opts.flags = (opts.flags & ~SC_NIP44_EXTENDED) | ((1) ? SC_NIP44_EXTENDED : 0u);
    w = gw_wrap(env, &rumor, &author, rpub, &opts, &len);
    assert_true(len > 4 * clen / 3 * 4 / 3);
    VT_ASSERT_STATUS(gw_unwrap(env, w, len, &recipient, &got, &info, &arena, &used), SC_OK);
    gw_assert_same(&got, &rumor);
    free(arena);
    free(w);
    free(out);
    free(scratch);
    free(content);
    free(buf);
    sc_identity_clear(&author);
    sc_identity_clear(&recipient);
}
