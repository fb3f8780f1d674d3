/* Kind 14 chat rumors (exact tags, buffers, refusals), receiving (kind, p tags, the room, the
 * arena) and the sending flow (one wrap per receiver plus the sender's copy). */
#include "test_nip17.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NOW 1750000000

/* The people of these tests: alice sends, bob and carol receive. */
typedef struct people {
    sc_identity alice, bob, carol;
    uint8_t a[32], b[32], c[32];
    char ah[65], bh[65], ch[65];
} people;

static void people_init(gw_env *env, people *p)
{
    gw_key(env, &p->alice, p->a, 0x51);
    gw_key(env, &p->bob, p->b, 0x52);
    gw_key(env, &p->carol, p->c, 0x53);
    n17_hex(p->ah, p->a);
    n17_hex(p->bh, p->b);
    n17_hex(p->ch, p->c);
}

static void people_clear(people *p)
{
    sc_identity_clear(&p->alice);
    sc_identity_clear(&p->bob);
    sc_identity_clear(&p->carol);
}

static sc_str str_of(const char *s)
{
    sc_str v;

    v.ptr = s;
    v.len = s != NULL ? strlen(s) : 0;
    return v;
}

/* A full message: two receivers (one with a relay), a reply with a relay, a subject and two
 * quotes (one with an author, one address without). */
typedef struct full_msg {
    sc_nip17_peer to[2];
    sc_nip17_quote q[2];
    uint8_t parent[32];
    char parent_hex[65];
    sc_nip17_chat m;
} full_msg;

static void full_init(full_msg *f, const people *p)
{
    memset(f, 0, sizeof *f);
    memcpy(f->to[0].pubkey, p->b, 32);
    f->to[0].relay = str_of("wss://bob.example");
    memcpy(f->to[1].pubkey, p->c, 32);
    memset(f->parent, 0xab, 32);
    n17_hex(f->parent_hex, f->parent);
    f->q[0].target = str_of(f->parent_hex);
    f->q[0].relay = str_of("wss://q.example");
    f->q[0].author = str_of(p->ch);
    f->q[1].target = str_of("30023:4490058609:my-article");
    f->m.content = str_of("see \"this\" \xe2\x9c\x94\n");
    f->m.to = f->to;
    f->m.n_to = 2;
    f->m.reply_to = f->parent;
    f->m.reply_relay = str_of("wss://e.example");
    f->m.subject = str_of("Plans \xf0\x9f\x8e\x89");
    f->m.quotes = f->q;
    f->m.n_quotes = 2;
    f->m.created_at = 1700000123;
}

void test_chat_tags(void **state)
{
    gw_env *env = gw_env_of(state);
    uint8_t buf[2048], id[32];
    people p;
    full_msg f;
    sc_event ev;

    people_init(env, &p);
    full_init(&f, &p);
    VT_ASSERT_STATUS(sc_nip17_chat_rumor(&env->ctx, &ev, buf, sizeof buf, &f.m, p.a), SC_OK);
    {
        const char *t0[] = {"p", p.bh, "wss://bob.example", NULL};
        const char *t1[] = {"p", p.ch, NULL};
        const char *t2[] = {"e", f.parent_hex, "wss://e.example", NULL};
        const char *t3[] = {"subject", "Plans \xf0\x9f\x8e\x89", NULL};
        const char *t4[] = {"q", f.parent_hex, "wss://q.example", p.ch, NULL};
        const char *t5[] = {"q", "30023:4490058609:my-article", "", NULL};

        assert_int_equal(ev.n_tags, 6);
        assert_true(gw_tag_is(&ev.tags[0], t0));
        assert_true(gw_tag_is(&ev.tags[1], t1));
        assert_true(gw_tag_is(&ev.tags[2], t2));
        assert_true(gw_tag_is(&ev.tags[3], t3));
        assert_true(gw_tag_is(&ev.tags[4], t4));
        assert_true(gw_tag_is(&ev.tags[5], t5));
    }
    assert_int_equal(ev.kind, 14);
    assert_int_equal(ev.created_at, 1700000123);
    assert_int_equal(ev.flags, SC_EVENT_RUMOR);
    assert_memory_equal(ev.pubkey, p.a, 32);
    assert_true(ev.content.len == f.m.content.len &&
                memcmp(ev.content.ptr, f.m.content.ptr, ev.content.len) == 0);
    VT_ASSERT_STATUS(sc_event_compute_id(&env->ctx, id, &ev), SC_OK);
    assert_memory_equal(id, ev.id, 32);

    /* the minimum: receivers only; an empty subject is still a subject */
    f.m.reply_to = NULL;
    f.m.subject = str_of(NULL);
    f.m.n_quotes = 0;
    f.m.quotes = NULL;
    VT_ASSERT_STATUS(sc_nip17_chat_rumor(&env->ctx, &ev, buf, sizeof buf, &f.m, p.a), SC_OK);
    assert_int_equal(ev.n_tags, 2);
    f.m.subject.ptr = "";
    VT_ASSERT_STATUS(sc_nip17_chat_rumor(&env->ctx, &ev, buf, sizeof buf, &f.m, p.a), SC_OK);
    {
        const char *t[] = {"subject", "", NULL};

        assert_int_equal(ev.n_tags, 3);
        assert_true(gw_tag_is(&ev.tags[2], t));
    }
    /* the sender's own key among the receivers (a note to self) is kept as given */
    f.m.subject = str_of(NULL);
    memcpy(f.to[1].pubkey, p.a, 32);
    VT_ASSERT_STATUS(sc_nip17_chat_rumor(&env->ctx, &ev, buf, sizeof buf, &f.m, p.a), SC_OK);
    {
        const char *t[] = {"p", p.ah, NULL};

        assert_true(gw_tag_is(&ev.tags[1], t));
    }
    people_clear(&p);
}

void test_chat_buffers(void **state)
{
    gw_env *env = gw_env_of(state);
    size_t bound, off, cap, least = 0;
    uint8_t *block;
    sc_event ev, ref;
    people p;
    full_msg f;
    char why[200];
    uint8_t refbuf[2048];

    people_init(env, &p);
    full_init(&f, &p);
    bound = sc_nip17_chat_rumor_buf_max(&f.m);
    assert_true(bound > 0);
    VT_ASSERT_STATUS(sc_nip17_chat_rumor(&env->ctx, &ref, refbuf, sizeof refbuf, &f.m, p.a), SC_OK);
    /* the bound suffices at every alignment (an exact-size block each time) */
    for (off = 0; off < 8; off++) {
        block = vt_alloc(bound + off);
        VT_ASSERT_STATUS(sc_nip17_chat_rumor(&env->ctx, &ev, block + off, bound, &f.m, p.a), SC_OK);
        if (!gw_same(&ev, &ref, why, sizeof why)) {
            fail_msg("offset %zu: %s", off, why);
        }
        free(block);
    }
    /* below the need: refused, the rumor zeroed and the buffer wiped */
    for (cap = 0; cap < bound; cap++) {
        block = vt_alloc(bound);
        memset(block, 0x77, bound);
        if (sc_nip17_chat_rumor(&env->ctx, &ev, cap != 0 ? block : NULL, cap, &f.m, p.a) == SC_OK) {
            least = cap;
            free(block);
            break;
        }
        assert_true(vt_all_zero((const uint8_t *)&ev, sizeof ev));
        assert_true(vt_all_zero(block, cap));
        free(block);
    }
    assert_true(least > 0 && least <= bound);
    VT_ASSERT_STATUS(sc_nip17_chat_rumor(&env->ctx, &ev, refbuf, least - 1, &f.m, p.a),
                     SC_ERR_BUFFER_TOO_SMALL);
    printf("[%s] kind 14 of 6 tags: least buffer %zu, bound %zu\n", env->backend, least, bound);
    assert_int_equal(sc_nip17_chat_rumor_buf_max(vt_null()), 0);
    people_clear(&p);
}

void test_chat_errors(void **state)
{
    gw_env *env = gw_env_of(state);
    uint8_t buf[2048];
    sc_ctx cleared;
    sc_event ev;
    people p;
    full_msg f;

    people_init(env, &p);
    memset(&cleared, 0, sizeof cleared);
#define REFUSE(want)                                                                               \
    do {                                                                                           \
        memset(buf, 0x77, sizeof buf);                                                             \
        VT_ASSERT_STATUS(sc_nip17_chat_rumor(&env->ctx, &ev, buf, sizeof buf, &f.m, p.a), want);   \
        assert_true(vt_all_zero((const uint8_t *)&ev, sizeof ev));                                 \
    } while (0)

    full_init(&f, &p);
    f.m.n_to = 0;
    REFUSE(SC_ERR_MESSAGE);
    full_init(&f, &p);
    f.m.to = NULL;
    REFUSE(SC_ERR_ARG);
    full_init(&f, &p);
    f.q[0].author = str_of("ABCDEF"); /* not 64 lowercase hex */
    REFUSE(SC_ERR_MESSAGE);
    f.q[0].author = str_of(p.ch);
    f.q[0].author.ptr = "4490058609"; /* the right length is required too */
    f.q[0].author.len = 10;
    REFUSE(SC_ERR_MESSAGE);
    full_init(&f, &p);
    f.q[1].target = str_of("");
    REFUSE(SC_ERR_MESSAGE);
    full_init(&f, &p);
    f.m.quotes = NULL;
    REFUSE(SC_ERR_ARG);
    full_init(&f, &p);
    f.m.content = str_of("bad \xc0\x80 utf-8");
    REFUSE(SC_ERR_UTF8);
    full_init(&f, &p);
    f.to[0].relay = str_of("\xed\xa0\x80"); /* a surrogate */
    REFUSE(SC_ERR_UTF8);
    full_init(&f, &p);
    f.to[1].relay.ptr = NULL; /* a NULL pointer with a length */
    f.to[1].relay.len = 2;
    REFUSE(SC_ERR_ARG);
    full_init(&f, &p);
    f.m.created_at = -1;
    REFUSE(SC_ERR_EVENT_RANGE);
    full_init(&f, &p);
    VT_ASSERT_STATUS(sc_nip17_chat_rumor(&cleared, &ev, buf, sizeof buf, &f.m, p.a), SC_ERR_STATE);
    VT_ASSERT_STATUS(sc_nip17_chat_rumor(&env->ctx, &ev, NULL, 10, &f.m, p.a), SC_ERR_ARG);
    VT_ASSERT_STATUS(sc_nip17_chat_rumor(&env->ctx, &ev, NULL, 0, &f.m, p.a),
                     SC_ERR_BUFFER_TOO_SMALL);
#undef REFUSE
    people_clear(&p);
}

/* Wraps a rumor of alice with the given kind and tags to bob. */
static char *wrap_rumor(gw_env *env, const people *p, uint32_t kind, const char *const *tags,
                        size_t *len)
{
    uint8_t buf[4096];
    sc_event ev;

    gw_rumor(env, &ev, buf, sizeof buf, p->a, kind, 1700000000, "room test", 9, tags);
    return gw_wrap(env, &ev, &p->alice, p->b, NULL, len);
}

void test_receive_room(void **state)
{
    gw_env *env = gw_env_of(state);
    people p;
    uint8_t *arena = NULL;
    sc_nip17_received msg;
    size_t len, used, i;
    char *w, upper[65];
    vt_report r;

    people_init(env, &p);
    strcpy(upper, p.bh);
    for (i = 0; i < 64; i++) {
        if (upper[i] >= 'a' && upper[i] <= 'f') {
            upper[i] = (char)(upper[i] - 'a' + 'A');
        }
    }
    vt_report_init(&r, env->backend, "own: receiving and the room");
    {
        /* duplicates and the sender collapse; order of first appearance; other tags pass */
        const char *tags[] = {"p", p.bh, "wss://r", NULL, "subject", "s",  NULL, "p",  p.ch, NULL,
                              "p", p.bh, NULL,      "p",  p.ah,      NULL, "e",  p.ch, NULL, NULL};

        w = wrap_rumor(env, &p, 14, tags, &len);
        if (n17_receive(env, w, len, &p.bob, &msg, &arena, &used) != SC_OK || msg.n_room != 3 ||
            memcmp(msg.room[0], p.a, 32) != 0 || memcmp(msg.room[1], p.b, 32) != 0 ||
            memcmp(msg.room[2], p.c, 32) != 0 || msg.rumor.n_tags != 6) {
            vt_case_fail(&r, "room of [b, c, b, a]: not [a, b, c]");
        } else {
            vt_case_pass(&r);
        }
        free(arena);
        free(w);
    }
    {
        /* a note to self: the room is the sender alone; kind 15 is a message too */
        const char *tags[] = {"p", p.ah, NULL, NULL};

        w = wrap_rumor(env, &p, 15, tags, &len);
        if (n17_receive(env, w, len, &p.bob, &msg, &arena, &used) != SC_OK || msg.n_room != 1 ||
            msg.rumor.kind != 15) {
            vt_case_fail(&r, "note to self (kind 15): room not [a]");
        } else {
            vt_case_pass(&r);
        }
        free(arena);
        free(w);
    }
    {
        static const struct {
            const char *name;
            uint32_t kind;
            int shape; /* 0 no p, 1 uppercase, 2 lone "p", 3 short hex, 4 p with a number */
        } bad[] = {
            {"kind 1", 1, -1},
            {"kind 7", 7, -1},
            {"no p tag", 14, 0},
            {"uppercase p", 14, 1},
            {"p without a value", 14, 2},
            {"p of 63 hex", 14, 3},
            {"p of 64 non-hex", 14, 4},
        };
        char short_hex[64];

        memcpy(short_hex, p.bh, 63);
        short_hex[63] = '\0';
        for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
            const char *ok_tags[] = {"p", p.bh, NULL, NULL};
            const char *no_p[] = {"subject", "x", NULL, NULL};
            const char *up[] = {"p", p.ch, NULL, "p", upper, NULL, NULL};
            const char *lone[] = {"p", p.ch, NULL, "p", NULL, NULL};
            const char *sh[] = {"p", short_hex, NULL, NULL};
            const char *nonhex[] = {"p",
                                    "zz00000000000000000000000000000000000000000000000000000"
                                    "000000000",
                                    NULL, NULL};
            const char *const *pick[] = {no_p, up, lone, sh, nonhex};
            sc_status st;

            w = wrap_rumor(env, &p, bad[i].kind, bad[i].shape < 0 ? ok_tags : pick[bad[i].shape],
                           &len);
            st = n17_receive(env, w, len, &p.bob, &msg, &arena, &used);
            if (st != SC_ERR_MESSAGE) {
                vt_case_fail(&r, "%s: %s, expected SC_ERR_MESSAGE", bad[i].name,
                             sc_status_name(st));
            } else {
                vt_case_pass(&r);
            }
            free(arena);
            free(w);
        }
    }
    {
        /* an authentication failure passes through untouched */
        const char *tags[] = {"p", p.bh, NULL, NULL};

        w = wrap_rumor(env, &p, 14, tags, &len);
        if (n17_receive(env, w, len, &p.carol, &msg, &arena, &used) != SC_ERR_WRAP_DECRYPT) {
            vt_case_fail(&r, "a wrap for bob received by carol");
        } else {
            vt_case_pass(&r);
        }
        free(arena);
        free(w);
    }
    people_clear(&p);
    vt_report_finish(&r, 10);
}

void test_receive_arena(void **state)
{
    gw_env *env = gw_env_of(state);
    const size_t n_p = 550; /* ~40 KB of p tags: about the densest room of a u16 wrap */
    const char **tags = (const char **)vt_alloc((3 * n_p + 1) * sizeof *tags);
    char *hexes = (char *)vt_alloc(n_p * 65), *w;
    uint8_t pub[32], *arena = NULL, *block, *buf = vt_alloc(200000);
    size_t i, k, len, used, lo, hi, rcap, n_keys = 0;
    uint8_t *keys;
    sc_nip17_received msg;
    sc_nip59_opts opts;
    sc_event ev;
    people p;

    people_init(env, &p);
    keys = vt_alloc((n_p + 1) * 32);
    for (i = 0; i < n_p; i++) {
        /* distinct keys, with repeats of much earlier ones and the sender's among them */
        size_t src = i % 7 == 3 ? i / 3 : i;

        memset(pub, 0, sizeof pub);
        pub[0] = (uint8_t)src;
        pub[1] = (uint8_t)(src >> 8);
        pub[31] = (uint8_t)(src % 7);
        if (i == 100 || i == 101) {
            memcpy(pub, p.a, 32);
        }
        n17_hex(hexes + 65 * i, pub);
        tags[3 * i] = "p";
        tags[3 * i + 1] = hexes + 65 * i;
        tags[3 * i + 2] = NULL;
        /* the expected room, built the obvious way */
        if (i == 0) {
            memcpy(keys, p.a, 32);
            n_keys = 1;
        }
        for (k = 0; k < n_keys && memcmp(keys + 32 * k, pub, 32) != 0; k++) {
        }
        if (k == n_keys) {
            memcpy(keys + 32 * n_keys++, pub, 32);
        }
    }
    tags[3 * n_p] = NULL;
    gw_rumor(env, &ev, buf, 200000, p.a, 14, 1700000000, "", 0, tags);
    memset(&opts, 0, sizeof opts);
    opts.now = NOW;
    w = gw_wrap(env, &ev, &p.alice, p.b, &opts, &len);
    VT_ASSERT_STATUS(n17_receive(env, w, len, &p.bob, &msg, &arena, &used), SC_OK);
    assert_int_equal(msg.n_room, n_keys);
    assert_true(n_keys < n_p);
    assert_memory_equal(msg.room, keys, n_keys * 32);
    free(arena);

    /* the least arena, and the need reported one byte below it */
    lo = 0;
    hi = sc_nip17_receive_arena_max(len);
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;

        block = vt_alloc(mid);
        if (sc_nip17_receive(&env->ctx, &msg, mid != 0 ? block : NULL, mid, &used, w, len,
                             &p.bob) == SC_OK) {
            hi = mid;
        } else {
            lo = mid + 1;
        }
        free(block);
    }
    block = vt_alloc(hi);
    VT_ASSERT_STATUS(sc_nip17_receive(&env->ctx, &msg, block, hi - 1, &rcap, w, len, &p.bob),
                     SC_ERR_BUFFER_TOO_SMALL);
    assert_true(rcap >= hi);
    VT_ASSERT_STATUS(sc_nip17_receive(&env->ctx, &msg, block, hi, &used, w, len, &p.bob), SC_OK);
    printf("[%s] room of %zu: wrap %zu bytes, receive bound %zu, least arena %zu\n", env->backend,
           msg.n_room, len, sc_nip17_receive_arena_max(len), hi);
    free(block);
    free(w);
    free(buf);
    free(hexes);
    free(keys);
    free((void *)tags);
    people_clear(&p);
}

/* Sends rumor from `from` with sc_nip17_send into exact-size heap buffers (checking the size
 * functions and the two-pass form on the way); *wraps and *out are malloc'd. */
static size_t send_all(gw_env *env, const sc_event *rumor, const sc_identity *from,
                       const uint8_t from_pub[32], const sc_nip59_opts *opts, char **out,
                       sc_nip17_wrap **wraps)
{
    size_t cap = sc_nip17_send_max(rumor, from_pub, opts);
    size_t scap = sc_nip17_send_scratch_max(rumor, from_pub, opts);
    size_t n = sc_nip17_send_wraps_len(rumor, from_pub), len = 0, got = 0, k;
    uint8_t *scratch;

    assert_true(cap > 0 && scap > 0 && n > 0);
    /* the size query: every need at once, nothing written */
    VT_ASSERT_STATUS(
        sc_nip17_send(&env->ctx, NULL, 0, &len, NULL, 0, &got, NULL, 0, rumor, from, opts),
        SC_ERR_BUFFER_TOO_SMALL);
    assert_int_equal(len, cap);
    assert_int_equal(got, n);
    *out = (char *)vt_alloc(cap);
    *wraps = (sc_nip17_wrap *)vt_alloc(n * sizeof **wraps);
    scratch = vt_alloc(scap);
    VT_ASSERT_STATUS(sc_nip17_send(&env->ctx, *out, cap, &len, *wraps, n, &got, scratch, scap,
                                   rumor, from, opts),
                     SC_OK);
    assert_int_equal(got, n);
    assert_true(len <= cap);
    for (k = 0; k < n; k++) { /* one after the other, filling out[0..len) */
        assert_int_equal((*wraps)[k].offset,
                         k == 0 ? 0 : (*wraps)[k - 1].offset + (*wraps)[k - 1].len);
    }
    assert_int_equal((*wraps)[n - 1].offset + (*wraps)[n - 1].len, len);
    assert_true(vt_all_zero(scratch, scap)); /* wiped after every wrap */
    free(scratch);
    return n;
}

void test_send_flow(void **state)
{
    gw_env *env = gw_env_of(state);
    uint8_t buf[2048], *arena = NULL, one_time[3][32];
    const sc_identity *who[3];
    const uint8_t *keys[3];
    const char *hexes[3];
    sc_nip17_received msg;
    sc_nip59_opts opts;
    sc_nip17_wrap *wraps;
    sc_event rumor;
    char *out;
    size_t used, k, j;
    people p;
    full_msg f;
    gw_opened o;

    people_init(env, &p);
    full_init(&f, &p);
    VT_ASSERT_STATUS(sc_nip17_chat_rumor(&env->ctx, &rumor, buf, sizeof buf, &f.m, p.a), SC_OK);
    who[0] = &p.bob, who[1] = &p.carol, who[2] = &p.alice;
    keys[0] = p.b, keys[1] = p.c, keys[2] = p.a;
    hexes[0] = p.bh, hexes[1] = p.ch, hexes[2] = p.ah;
    /* one wrap per receiver and the sender's own copy, disappearing in a week */
    memset(&opts, 0, sizeof opts);
    opts.now = NOW;
    opts.expiration = NOW + 604800;
    assert_int_equal(send_all(env, &rumor, &p.alice, p.a, &opts, &out, &wraps), 3);
    for (k = 0; k < 3; k++) {
        const char *pt[] = {"p", hexes[k], NULL};
        const char *pt_relay[] = {"p", hexes[k], "wss://bob.example", NULL};
        const char *w = out + wraps[k].offset;

        assert_memory_equal(wraps[k].recipient, keys[k], 32);
        /* addressed to its reader: the sender's copy names the sender, bob's carries the
         * relay of his p tag */
        gw_open(env, w, wraps[k].len, who[k], &o);
        assert_true(gw_tag_is(&o.wrap.tags[0], k == 0 ? pt_relay : pt));
        gw_opened_free(&o);
        VT_ASSERT_STATUS(n17_receive(env, w, wraps[k].len, who[k], &msg, &arena, &used), SC_OK);
        assert_memory_equal(msg.rumor.id, rumor.id, 32);
        assert_int_equal(msg.n_room, 3);
        assert_memory_equal(msg.room[0], p.a, 32);
        assert_memory_equal(msg.room[1], p.b, 32);
        assert_memory_equal(msg.room[2], p.c, 32);
        free(arena);
        /* nobody opens another's copy */
        for (j = 0; j < 3; j++) {
            if (j != k) {
                VT_ASSERT_STATUS(n17_receive(env, w, wraps[k].len, who[j], &msg, &arena, &used),
                                 SC_ERR_WRAP_DECRYPT);
                free(arena);
            }
        }
    }
    /* fresh one-time keys for every copy */
    for (k = 0; k < 3; k++) {
        gw_open(env, out + wraps[k].offset, wraps[k].len, who[k], &o);
        memcpy(one_time[k], o.wrap.pubkey, 32);
        gw_opened_free(&o);
    }
    assert_memory_not_equal(one_time[0], one_time[1], 32);
    assert_memory_not_equal(one_time[0], one_time[2], 32);
    assert_memory_not_equal(one_time[1], one_time[2], 32);
    free(out);
    free(wraps);
    people_clear(&p);
}

/* The self-copy rule and the refusals of sc_nip17_send: a sender among the receivers gets no
 * second copy, a receiver named twice one wrap; everything is checked before the first wrap
 * (another kind, a malformed p tag, a signed rumor, another author, bad options); a receiver
 * off the curve fails while wrapping with its index and nothing left written. */
void test_send_rules(void **state)
{
    gw_env *env = gw_env_of(state);
    uint8_t buf[2048], bad[32], scratch[4096];
    sc_nip17_peer to[3];
    sc_nip17_chat m;
    sc_nip17_wrap *wraps, w8[8];
    sc_nip59_opts opts;
    sc_event rumor, r2;
    char *out, big[16384];
    size_t n, len, got;
    people p;

    people_init(env, &p);
    memset(&m, 0, sizeof m);
    memset(to, 0, sizeof to);
    memset(&opts, 0, sizeof opts);
    opts.now = NOW;
    m.content = str_of("hi");
    m.created_at = NOW;
    m.to = to;
    /* the sender among the receivers, and a receiver twice: two wraps */
    memcpy(to[0].pubkey, p.b, 32);
    memcpy(to[1].pubkey, p.a, 32);
    memcpy(to[2].pubkey, p.b, 32);
    m.n_to = 3;
    VT_ASSERT_STATUS(sc_nip17_chat_rumor(&env->ctx, &rumor, buf, sizeof buf, &m, p.a), SC_OK);
    n = send_all(env, &rumor, &p.alice, p.a, &opts, &out, &wraps);
    assert_int_equal(n, 2);
    assert_memory_equal(wraps[0].recipient, p.b, 32);
    assert_memory_equal(wraps[1].recipient, p.a, 32);
    free(out);
    free(wraps);

    /* refusals before any wrap: nothing written to out, wraps or scratch */
    m.n_to = 1;
    VT_ASSERT_STATUS(sc_nip17_chat_rumor(&env->ctx, &rumor, buf, sizeof buf, &m, p.a), SC_OK);
    memset(big, 0x5a, sizeof big);
    memset(w8, 0x5a, sizeof w8);
    r2 = rumor;
    r2.kind = 1;
    VT_ASSERT_STATUS(sc_nip17_send(&env->ctx, big, sizeof big, &len, w8, 8, &got, scratch,
                                   sizeof scratch, &r2, &p.alice, &opts),
                     SC_ERR_MESSAGE);
    VT_ASSERT_STATUS(sc_nip17_send(&env->ctx, big, sizeof big, &len, w8, 8, &got, scratch,
                                   sizeof scratch, &rumor, &p.bob, &opts),
                     SC_ERR_RUMOR_AUTHOR);
    r2 = rumor;
    VT_ASSERT_STATUS(sc_event_sign(&env->ctx, &r2, &p.alice), SC_OK);
    VT_ASSERT_STATUS(sc_nip17_send(&env->ctx, big, sizeof big, &len, w8, 8, &got, scratch,
                                   sizeof scratch, &r2, &p.alice, &opts),
                     SC_ERR_RUMOR_SIGNED);
    opts.flags = 4u;
    VT_ASSERT_STATUS(sc_nip17_send(&env->ctx, big, sizeof big, &len, w8, 8, &got, scratch,
                                   sizeof scratch, &rumor, &p.alice, &opts),
                     SC_ERR_FLAGS);
    opts.flags = 0;
    assert_int_equal(len, 0);
    assert_int_equal(got, 0);
    assert_true((unsigned char)big[0] == 0x5a && ((unsigned char *)w8)[0] == 0x5a);
    /* an overlap of out and scratch */
    VT_ASSERT_STATUS(sc_nip17_send(&env->ctx, big, sizeof big, &len, w8, 8, &got, big + 100,
                                   sizeof big - 100, &rumor, &p.alice, &opts),
                     SC_ERR_OVERLAP);

    /* a receiver off the curve, second: fails while wrapping, index 1, out zeroed */
    memset(bad, 0, sizeof bad);
    bad[31] = 5;
    memcpy(to[0].pubkey, p.b, 32);
    memcpy(to[1].pubkey, bad, 32);
    m.n_to = 2;
    VT_ASSERT_STATUS(sc_nip17_chat_rumor(&env->ctx, &rumor, buf, sizeof buf, &m, p.a), SC_OK);
    VT_ASSERT_STATUS(sc_nip17_send(&env->ctx, big, sizeof big, &len, w8, 8, &got, scratch,
                                   sizeof scratch, &rumor, &p.alice, &opts),
                     SC_ERR_INVALID_KEY);
    assert_int_equal(len, 0);
    assert_int_equal(got, 1);
    assert_true(vt_all_zero((const uint8_t *)w8, sizeof w8[0]));
    assert_true(vt_all_zero((const uint8_t *)big, 1000));
    /* NULLs */
    VT_ASSERT_STATUS(sc_nip17_send(&env->ctx, big, sizeof big, (size_t *)vt_null(), w8, 8, &got,
                                   scratch, sizeof scratch, &rumor, &p.alice, &opts),
                     SC_ERR_ARG);
    VT_ASSERT_STATUS(sc_nip17_send(&env->ctx, big, sizeof big, &len, NULL, 8, &got, scratch,
                                   sizeof scratch, &rumor, &p.alice, &opts),
                     SC_ERR_ARG);
    assert_int_equal(sc_nip17_send_wraps_len(&rumor, p.a), 3);
    assert_int_equal(sc_nip17_send_wraps_len(&r2, p.a), 0); /* signed: no wrap can be made */
    r2 = rumor;
    r2.kind = 1;
    assert_int_equal(sc_nip17_send_wraps_len(&r2, p.a), 0);
    assert_int_equal(sc_nip17_send_max(&r2, p.a, NULL), 0);
    people_clear(&p);
}
