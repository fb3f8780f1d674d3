/* Serialization: JSON.stringify escaping of every C0 control, verbatim specials, NUL inside
 * content, the OBJECT form, exact length accounting, sc_event_check, UTF-8 acceptance, and the
 * streamed id against SHA-256 of the written text on random events. */
#include "test_event.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vt_rand.h"

#define PK_HEX "dff1d77f2a671c5f36183726db2341be58feae1da2deced843240f7b502ba659"

/* An event over the given content and one tag ["x", item], with the BIP-340 vector-1 pubkey. */
static void make_event(sc_event *ev, sc_tag *tag, sc_str items[2], const char *content,
                       size_t content_len, const char *item, size_t item_len)
{
    vt_bytes pk = {0};

    memset(ev, 0, sizeof *ev);
    assert_true(vt_hex_to_bytes(PK_HEX, &pk));
    memcpy(ev->pubkey, pk.p, 32);
    vt_bytes_free(&pk);
    items[0].ptr = "x";
    items[0].len = 1;
    items[1].ptr = item;
    items[1].len = item_len;
    tag->items = items;
    tag->n_items = 2;
    ev->tags = tag;
    ev->n_tags = 1;
    ev->content.ptr = content;
    ev->content.len = content_len;
    ev->created_at = 1;
    ev->kind = 1;
    ev->flags = SC_EVENT_HAS_PUBKEY;
}

/* The canonical text must be exactly want[0..want_len); its SHA-256 must be the id. */
static void expect_canonical(ev_env *env, const sc_event *ev, const char *want, size_t want_len)
{
    uint8_t id[32], ref[32];
    size_t len = 0;
    char *got = ev_to_json(ev, SC_EVENT_JSON_CANONICAL, &len);

    if (len != want_len || memcmp(got, want, len) != 0) {
        fail_msg("canonical text\n  got:  %.*s\n  want: %.*s", (int)len, got, (int)want_len, want);
    }
    VT_ASSERT_STATUS(sc_event_compute_id(&env->ctx, id, ev), SC_OK);
    VT_ASSERT_STATUS(sc_crypto_sha256(&env->ctx, ref, (const uint8_t *)want, want_len), SC_OK);
    assert_memory_equal(id, ref, 32);
    free(got);
}

void test_escape_every_c0(void **state)
{
    /* Written out by hand from JSON.stringify's behaviour, not computed. */
    static const char *const k_esc[32] = {
        "\\u0000", "\\u0001", "\\u0002", "\\u0003", "\\u0004", "\\u0005", "\\u0006", "\\u0007",
        "\\b",     "\\t",     "\\n",     "\\u000b", "\\f",     "\\r",     "\\u000e", "\\u000f",
        "\\u0010", "\\u0011", "\\u0012", "\\u0013", "\\u0014", "\\u0015", "\\u0016", "\\u0017",
        "\\u0018", "\\u0019", "\\u001a", "\\u001b", "\\u001c", "\\u001d", "\\u001e", "\\u001f",
    };
    ev_env *env = ev_env_of(state);
    char want[512], all_raw[64], all_esc[256] = "";
    sc_str items[2];
    sc_tag tag;
    sc_event ev;
    int c, n;

    for (c = 0; c < 32; c++) {
        char raw[3] = {'<', (char)c, '>'};

        make_event(&ev, &tag, items, raw, 3, raw, 3);
        n = snprintf(want, sizeof want, "[0,\"" PK_HEX "\",1,1,[[\"x\",\"<%s>\"]],\"<%s>\"]",
                     k_esc[c], k_esc[c]);
        expect_canonical(env, &ev, want, (size_t)n);
        all_raw[c] = (char)c;
        strcat(all_esc, k_esc[c]);
    }
    /* the two printable escapes, and all 34 in one string */
    all_raw[32] = '"';
    all_raw[33] = '\\';
    strcat(all_esc, "\\\"\\\\");
    make_event(&ev, &tag, items, all_raw, 34, "\"\\", 2);
    n = snprintf(want, sizeof want, "[0,\"" PK_HEX "\",1,1,[[\"x\",\"\\\"\\\\\"]],\"%s\"]",
                 all_esc);
    expect_canonical(env, &ev, want, (size_t)n);
}

void test_verbatim_specials(void **state)
{
    /* '/', DEL, U+2028, U+2029, <>&', U+00E9, U+8868, an astral emoji and U+10FFFF */
    static const char text[] = "/ \x7f \xe2\x80\xa8 \xe2\x80\xa9 <>&' \xc3\xa9 \xe8\xa1\xa8 "
                               "\xf0\x9f\x98\x80 \xf4\x8f\xbf\xbf";
    ev_env *env = ev_env_of(state);
    char want[256];
    sc_str items[2];
    sc_tag tag;
    sc_event ev;
    int n;

    make_event(&ev, &tag, items, text, sizeof text - 1, text, sizeof text - 1);
    n = snprintf(want, sizeof want, "[0,\"" PK_HEX "\",1,1,[[\"x\",\"%s\"]],\"%s\"]", text, text);
    expect_canonical(env, &ev, want, (size_t)n);
}

/* The escape JSON.stringify writes for c, appended at out (a reference, byte by byte). */
static size_t ref_escape(char *out, unsigned char c)
{
    switch (c) {
    case '"':
        return (size_t)sprintf(out, "\\\"");
    case '\\':
        return (size_t)sprintf(out, "\\\\");
    case '\n':
        return (size_t)sprintf(out, "\\n");
    case '\r':
        return (size_t)sprintf(out, "\\r");
    case '\t':
        return (size_t)sprintf(out, "\\t");
    case '\b':
        return (size_t)sprintf(out, "\\b");
    case '\f':
        return (size_t)sprintf(out, "\\f");
    default:
        if (c < 0x20) {
            return (size_t)sprintf(out, "\\u%04x", c);
        }
        out[0] = (char)c;
        return 1;
    }
}

/* The escaper reads eight bytes at a time, with the last word overlapping or padded: a byte
 * to escape at every position of every length up to 40, and the bytes around the escapes'
 * boundaries (0x1f/0x20, 0x21/0x23, 0x5b/0x5d, 0x7f, 0x80+), as content and as a tag item,
 * give the reference text and its SHA-256 as the id. */
void test_escape_at_every_position(void **state)
{
    static const unsigned char specials[] = {'"', '\\', '\n', 0x00, 0x1f, 0x01};
    static const unsigned char plain[] = {0x20, 0x21, 0x23, 0x5b, 0x5d, 0x7f, 'a', '/'};
    ev_env *env = ev_env_of(state);
    char text[48], want[512], esc[64];
    size_t len, pos, k, n, e;
    sc_str items[2];
    sc_tag tag;
    sc_event ev;

    for (len = 1; len <= 40; len++) {
        for (pos = 0; pos < len; pos++) {
            for (k = 0; k < sizeof specials + sizeof plain; k++) {
                unsigned char c = k < sizeof specials ? specials[k] : plain[k - sizeof specials];
                memset(text, "bcdefgh"[len % 7], len);
                text[pos] = (char)c;
                for (e = 0, n = 0; n < len; n++) {
                    e += ref_escape(esc + e, (unsigned char)text[n]);
                }
                n = (size_t)snprintf(want, sizeof want,
                                     "[0,\"" PK_HEX "\",1,1,[[\"x\",\"%.*s\"]],\"%.*s\"]", (int)e,
                                     esc, (int)e, esc);
                make_event(&ev, &tag, items, text, len, text, len);
                expect_canonical(env, &ev, want, n);
            }
        }
    }
}

/* The UTF-8 check skips ASCII sixteen and eight bytes at a time and reads a short tail as one
 * word, and so does the writer's own check (the id, the JSON): an ill-formed byte at every
 * position of every length up to 40 is still found, and a well-formed multi-byte character
 * anywhere still passes. */
void test_utf8_at_every_position(void **state)
{
    ev_env *env = ev_env_of(state);
    uint8_t id[32];
    static const char *const bad[] = {"\xff", "\x80", "\xc0\xaf", "\xed\xa0\x80", "\xc3"};
    static const char *const good[] = {"\xc3\xa9", "\xe2\x82\xac", "\xf0\x9f\x98\x80", "\x7f"};
    char text[64];
    size_t len, pos, k, n;
    sc_str items[2];
    sc_tag tag;
    sc_event ev;

    for (len = 1; len <= 40; len++) {
        for (pos = 0; pos < len; pos++) {
            for (k = 0; k < sizeof bad / sizeof bad[0] + sizeof good / sizeof good[0]; k++) {
                int ok = k >= sizeof bad / sizeof bad[0];
                const char *ins = ok ? good[k - sizeof bad / sizeof bad[0]] : bad[k];
                n = strlen(ins);
                if (pos + n > len) {
                    continue;
                }
                memset(text, 'q', len);
                memcpy(text + pos, ins, n);
                make_event(&ev, &tag, items, text, len, "x", 1);
                if (sc_event_check(&ev) != (ok ? SC_OK : SC_ERR_UTF8)) {
                    fail_msg("content of %zu bytes, piece %zu at %zu: %s", len, k, pos,
                             sc_status_name(sc_event_check(&ev)));
                }
                assert_int_equal(sc_event_compute_id(&env->ctx, id, &ev), ok ? SC_OK : SC_ERR_UTF8);
                assert_true((sc_event_to_json_len(&ev, SC_EVENT_JSON_OBJECT) != 0) == ok);
                make_event(&ev, &tag, items, "c", 1, text, len);
                assert_int_equal(sc_event_check(&ev), ok ? SC_OK : SC_ERR_UTF8);
                assert_int_equal(sc_event_compute_id(&env->ctx, id, &ev), ok ? SC_OK : SC_ERR_UTF8);
            }
        }
    }
}

/* The writing entry points read the text once: their shape check leaves the UTF-8 to the
 * writer. Their status must still be sc_event_check's, in its order: ill-formed UTF-8 in an
 * early tag comes before an empty later tag and before a missing pubkey. */
void test_write_checks_in_check_order(void **state)
{
    ev_env *env = ev_env_of(state);
    sc_str bad_items[1] = {{"\xff", 1}}, ok_items[1] = {{"ok", 2}};
    sc_tag tags[2];
    sc_event ev;
    uint8_t id[32];
    char out[512];
    size_t len;

    memset(&ev, 0, sizeof ev);
    tags[0].items = bad_items;
    tags[0].n_items = 1;
    tags[1].items = ok_items;
    tags[1].n_items = 0; /* empty: SC_ERR_EVENT_FIELD, but after tag 0 */
    ev.tags = tags;
    ev.n_tags = 2;
    ev.content.ptr = "c";
    ev.content.len = 1;
    ev.kind = 1;
    ev.flags = SC_EVENT_HAS_PUBKEY;
    assert_int_equal(sc_event_check(&ev), SC_ERR_UTF8);
    VT_ASSERT_STATUS(sc_event_compute_id(&env->ctx, id, &ev), SC_ERR_UTF8);
    VT_ASSERT_STATUS(sc_event_to_json(out, sizeof out, &len, &ev, SC_EVENT_JSON_OBJECT),
                     SC_ERR_UTF8);
    assert_int_equal(sc_event_to_json_len(&ev, SC_EVENT_JSON_CANONICAL), 0);
    /* the other way round: the empty tag first */
    tags[0].items = ok_items;
    tags[0].n_items = 0;
    tags[1].items = bad_items;
    tags[1].n_items = 1;
    VT_ASSERT_STATUS(sc_event_compute_id(&env->ctx, id, &ev), SC_ERR_EVENT_FIELD);
    /* ill-formed content and no pubkey: the UTF-8 first */
    tags[0].n_items = 1;
    tags[1].items = ok_items;
    ev.content.ptr = "\xc3";
    ev.flags = 0;
    VT_ASSERT_STATUS(sc_event_compute_id(&env->ctx, id, &ev), SC_ERR_UTF8);
    VT_ASSERT_STATUS(sc_event_to_json(out, sizeof out, &len, &ev, SC_EVENT_JSON_OBJECT),
                     SC_ERR_UTF8);
    ev.content.ptr = "c";
    VT_ASSERT_STATUS(sc_event_compute_id(&env->ctx, id, &ev), SC_ERR_EVENT_FIELD);
    /* ill-formed UTF-8 after a long clean run, past the writer's stage */
    {
        static char big[2000];
        memset(big, 'z', sizeof big);
        big[sizeof big - 1] = (char)0x80;
        ev.flags = SC_EVENT_HAS_PUBKEY;
        ev.content.ptr = big;
        ev.content.len = sizeof big;
        VT_ASSERT_STATUS(sc_event_compute_id(&env->ctx, id, &ev), SC_ERR_UTF8);
        assert_int_equal(sc_event_to_json_len(&ev, SC_EVENT_JSON_OBJECT), 0);
    }
}

void test_nul_in_content(void **state)
{
    static const char want[] = "[0,\"" PK_HEX "\",1,1,[[\"x\",\"\\u0000\"]],\"a\\u0000b\"]";
    ev_env *env = ev_env_of(state);
    sc_str items[2];
    sc_tag tag;
    sc_event ev, back;
    size_t len = 0, used = 0;
    uint8_t arena[256];
    char *obj;

    make_event(&ev, &tag, items, "a\0b", 3, "\0", 1);
    expect_canonical(env, &ev, want, sizeof want - 1);
    /* and back: the NUL survives parsing with its length */
    obj = ev_to_json(&ev, SC_EVENT_JSON_OBJECT, &len);
    VT_ASSERT_STATUS(sc_event_parse(&back, arena, sizeof arena, &used, obj, len, NULL),
                     SC_ERR_EVENT_FIELD); /* no id or sig: all seven are required by default */
    {
        sc_event_parse_opts opts = {0, SC_EVENT_HAS_ALL, 0, NULL};

        VT_ASSERT_STATUS(sc_event_parse(&back, arena, sizeof arena, &used, obj, len, &opts), SC_OK);
    }
    assert_int_equal(back.content.len, 3);
    assert_memory_equal(back.content.ptr, "a\0b", 3);
    assert_int_equal(back.tags[0].items[1].len, 1);
    assert_int_equal(back.tags[0].items[1].ptr[0], 0);
    free(obj);
}

void test_object_form(void **state)
{
    static const char base[] = "\"pubkey\":\"" PK_HEX "\",\"created_at\":1,\"kind\":1,"
                               "\"tags\":[[\"x\",\"y\"]],\"content\":\"c\\n\"";
    static const char id_hex[] = "0102030405060708091011121314151617181920212223242526272829303132";
    static const char sig_hex[] =
        "a0a1a2a3a4a5a6a7a8a9aaabacadaeafb0b1b2b3b4b5b6b7b8b9babbbcbdbebf"
        "c0c1c2c3c4c5c6c7c8c9cacbcccdcecfd0d1d2d3d4d5d6d7d8d9dadbdcdddedf";
    ev_env *env = ev_env_of(state);
    char want[512], *got;
    vt_bytes id = {0}, sig = {0};
    sc_str items[2];
    sc_tag tag;
    sc_event ev;
    size_t len;
    int n;

    (void)env;
    make_event(&ev, &tag, items, "c\n", 2, "y", 1);
    assert_true(vt_hex_to_bytes(id_hex, &id) && vt_hex_to_bytes(sig_hex, &sig));
    memcpy(ev.id, id.p, 32);
    memcpy(ev.sig, sig.p, 64);
    vt_bytes_free(&id);
    vt_bytes_free(&sig);

    /* pubkey only: neither id nor sig, although the arrays hold bytes */
    got = ev_to_json(&ev, SC_EVENT_JSON_OBJECT, &len);
    n = snprintf(want, sizeof want, "{%s}", base);
    assert_int_equal(len, (size_t)n);
    assert_memory_equal(got, want, len);
    free(got);

    /* a rumor: id, no sig */
    ev.flags |= SC_EVENT_HAS_ID;
    got = ev_to_json(&ev, SC_EVENT_JSON_OBJECT, &len);
    n = snprintf(want, sizeof want, "{\"id\":\"%s\",%s}", id_hex, base);
    assert_int_equal(len, (size_t)n);
    assert_memory_equal(got, want, len);
    free(got);

    /* signed: all seven in the NIP-01 order */
    ev.flags |= SC_EVENT_HAS_SIG;
    got = ev_to_json(&ev, SC_EVENT_JSON_OBJECT, &len);
    n = snprintf(want, sizeof want, "{\"id\":\"%s\",%s,\"sig\":\"%s\"}", id_hex, base, sig_hex);
    assert_int_equal(len, (size_t)n);
    assert_memory_equal(got, want, len);
    free(got);
}

void test_json_len_and_buffer(void **state)
{
    static const unsigned k_flags[] = {SC_EVENT_JSON_CANONICAL, SC_EVENT_JSON_OBJECT};
    char buf[512];
    size_t need, len, k, i;
    sc_str items[2];
    sc_tag tag;
    sc_event ev;

    (void)state;
    make_event(&ev, &tag, items, "h\x01\"i", 4, "\xf0\x9f\x98\x80", 4);
    ev.flags |= SC_EVENT_HAS_ID | SC_EVENT_HAS_SIG;
    for (k = 0; k < 2; k++) {
        need = sc_event_to_json_len(&ev, k_flags[k]);
        assert_true(need > 0 && need < sizeof buf);
        /* one byte short: the need is reported and nothing is written */
        memset(buf, 0xaa, sizeof buf);
        len = 0;
        VT_ASSERT_STATUS(sc_event_to_json(buf, need - 1, &len, &ev, k_flags[k]),
                         SC_ERR_BUFFER_TOO_SMALL);
        assert_int_equal(len, need);
        for (i = 0; i < sizeof buf; i++) {
            assert_int_equal((uint8_t)buf[i], 0xaa);
        }
        /* a NULL buffer of capacity 0 measures */
        len = 0;
        VT_ASSERT_STATUS(sc_event_to_json(NULL, 0, &len, &ev, k_flags[k]), SC_ERR_BUFFER_TOO_SMALL);
        assert_int_equal(len, need);
        /* exactly need: every byte written, nothing past it */
        VT_ASSERT_STATUS(sc_event_to_json(buf, need, &len, &ev, k_flags[k]), SC_OK);
        assert_int_equal(len, need);
        assert_int_equal((uint8_t)buf[need], 0xaa);
        /* a NULL buffer that claims capacity */
        VT_ASSERT_STATUS(sc_event_to_json(NULL, need, &len, &ev, k_flags[k]), SC_ERR_ARG);
    }
    /* unknown flags */
    assert_int_equal(sc_event_to_json_len(&ev, 2), 0);
    VT_ASSERT_STATUS(sc_event_to_json(buf, sizeof buf, &len, &ev, 2), SC_ERR_FLAGS);
    /* no pubkey */
    ev.flags = 0;
    assert_int_equal(sc_event_to_json_len(&ev, SC_EVENT_JSON_CANONICAL), 0);
    assert_int_equal(sc_event_to_json_len(&ev, SC_EVENT_JSON_OBJECT), 0);
    VT_ASSERT_STATUS(sc_event_to_json(buf, sizeof buf, &len, &ev, SC_EVENT_JSON_OBJECT),
                     SC_ERR_EVENT_FIELD);
    assert_int_equal(len, 0);
    /* NULL arguments */
    VT_ASSERT_STATUS(sc_event_to_json(buf, sizeof buf, vt_null(), &ev, 0), SC_ERR_ARG);
    VT_ASSERT_STATUS(sc_event_to_json(buf, sizeof buf, &len, vt_null(), 0), SC_ERR_ARG);
    assert_int_equal(sc_event_to_json_len(vt_null(), 0), 0);
}

void test_check_rejects(void **state)
{
    ev_env *env = ev_env_of(state);
    sc_str items[2], bad_item = {NULL, 1};
    sc_tag tag, empty_tag = {items, 0}, null_items = {NULL, 1};
    sc_event ev;
    uint8_t id[32];

    make_event(&ev, &tag, items, "c", 1, "y", 1);
    VT_ASSERT_STATUS(sc_event_check(&ev), SC_OK);
    ev.kind = SC_EVENT_KIND_MAX;
    ev.created_at = INT64_MAX;
    VT_ASSERT_STATUS(sc_event_check(&ev), SC_OK);
    assert_true(sc_event_to_json_len(&ev, SC_EVENT_JSON_CANONICAL) > 0);

#define EXPECT_BAD(want)                                                                           \
    do {                                                                                           \
        VT_ASSERT_STATUS(sc_event_check(&ev), (want));                                             \
        memset(id, 0x55, sizeof id);                                                               \
        VT_ASSERT_STATUS(sc_event_compute_id(&env->ctx, id, &ev), (want));                         \
        assert_true(vt_all_zero(id, sizeof id));                                                   \
        assert_int_equal(sc_event_to_json_len(&ev, SC_EVENT_JSON_CANONICAL), 0);                   \
        make_event(&ev, &tag, items, "c", 1, "y", 1);                                              \
    } while (0)

    ev.kind = SC_EVENT_KIND_MAX + 1;
    EXPECT_BAD(SC_ERR_EVENT_RANGE);
    ev.created_at = -1;
    EXPECT_BAD(SC_ERR_EVENT_RANGE);
    ev.created_at = INT64_MIN;
    EXPECT_BAD(SC_ERR_EVENT_RANGE);
    ev.tags = &empty_tag;
    EXPECT_BAD(SC_ERR_EVENT_FIELD);
    ev.tags = NULL;
    EXPECT_BAD(SC_ERR_ARG);
    ev.tags = &null_items;
    EXPECT_BAD(SC_ERR_ARG);
    items[1] = bad_item;
    EXPECT_BAD(SC_ERR_ARG);
    ev.content.ptr = NULL;
    EXPECT_BAD(SC_ERR_ARG);
    ev.content.ptr = "\xc0\x80";
    ev.content.len = 2;
    EXPECT_BAD(SC_ERR_UTF8);
    items[1].ptr = "\xed\xa0\x80";
    items[1].len = 3;
    EXPECT_BAD(SC_ERR_UTF8);
    ev.flags = 0; /* no pubkey: the id cannot be computed */
    VT_ASSERT_STATUS(sc_event_check(&ev), SC_OK);
    memset(id, 0x55, sizeof id);
    VT_ASSERT_STATUS(sc_event_compute_id(&env->ctx, id, &ev), SC_ERR_EVENT_FIELD);
    assert_true(vt_all_zero(id, sizeof id));
#undef EXPECT_BAD

    /* an empty event (NULL views of length 0) is fine */
    ev.flags = SC_EVENT_HAS_PUBKEY;
    ev.tags = NULL;
    ev.n_tags = 0;
    ev.content.ptr = NULL;
    ev.content.len = 0;
    VT_ASSERT_STATUS(sc_event_compute_id(&env->ctx, id, &ev), SC_OK);
    /* NULL arguments and a dead context */
    VT_ASSERT_STATUS(sc_event_check(vt_null()), SC_ERR_ARG);
    VT_ASSERT_STATUS(sc_event_compute_id(vt_null(), id, &ev), SC_ERR_ARG);
    VT_ASSERT_STATUS(sc_event_compute_id(&env->ctx, vt_null(), &ev), SC_ERR_ARG);
    VT_ASSERT_STATUS(sc_event_compute_id(&env->ctx, id, vt_null()), SC_ERR_ARG);
    {
        sc_ctx dead;

        memset(&dead, 0, sizeof dead);
        memset(id, 0x55, sizeof id);
        VT_ASSERT_STATUS(sc_event_compute_id(&dead, id, &ev), SC_ERR_STATE);
        assert_true(vt_all_zero(id, sizeof id));
    }
}

typedef struct utf8_case {
    const char *s;
    size_t len;
    int ok;
} utf8_case;

#define U(lit, ok)                                                                                 \
    {                                                                                              \
        lit, sizeof(lit) - 1, ok                                                                   \
    }

static const utf8_case k_utf8[] = {
    U("", 1),
    U("a", 1),
    U("\x00", 1),
    U("\x7f", 1),
    U("\xc2\x80", 1),
    U("\xdf\xbf", 1),
    U("\xe0\xa0\x80", 1),
    U("\xed\x9f\xbf", 1), /* U+D7FF, just below the surrogates */
    U("\xee\x80\x80", 1), /* U+E000, just above */
    U("\xef\xbf\xbf", 1),
    U("\xf0\x90\x80\x80", 1),
    U("\xf4\x8f\xbf\xbf", 1), /* U+10FFFF */
    U("0123456789abcdef\xc3\xa9", 1),
    U("\x80", 0), /* lone continuation */
    U("\xbf", 0),
    U("\xc0\x80", 0),     /* overlong NUL */
    U("\xc1\xbf", 0),     /* overlong */
    U("\xc2", 0),         /* truncated */
    U("\xc2\x41", 0),     /* bad continuation */
    U("\xe0\x80\x80", 0), /* overlong */
    U("\xe0\x9f\xbf", 0), /* overlong */
    U("\xed\xa0\x80", 0), /* U+D800 */
    U("\xed\xbf\xbf", 0), /* U+DFFF */
    U("\xe2\x82", 0),     /* truncated */
    U("\xe2\x28\xa1", 0),
    U("\xf0\x80\x80\x80", 0), /* overlong */
    U("\xf0\x8f\xbf\xbf", 0), /* overlong */
    U("\xf4\x90\x80\x80", 0), /* U+110000 */
    U("\xf5\x80\x80\x80", 0),
    U("\xf8\x88\x80\x80\x80", 0),
    U("\xfe", 0),
    U("\xff", 0),
    U("\xf0\x9f\x98", 0),                   /* truncated emoji */
    U("abcdefgh\xff", 0),                   /* after an ASCII word */
    U("abcdefghijklmnopqrstuvw\x80xyz", 0), /* deep in ASCII words */
};

void test_utf8_table(void **state)
{
    sc_str items[2];
    sc_tag tag;
    sc_event ev;
    size_t k;

    (void)state;
    for (k = 0; k < sizeof k_utf8 / sizeof k_utf8[0]; k++) {
        const utf8_case *c = &k_utf8[k];
        sc_status want = c->ok ? SC_OK : SC_ERR_UTF8;
        char json[64];
        uint8_t arena[64];
        sc_event_parse_opts opts = {0, SC_EVENT_HAS_ALL, 0, NULL};
        sc_event_builder b;
        size_t n, used;

        /* through sc_event_check, as content and as a tag item */
        make_event(&ev, &tag, items, c->s, c->len, "y", 1);
        if (sc_event_check(&ev) != want) {
            fail_msg("case %zu: content check gave %s", k, sc_status_name(sc_event_check(&ev)));
        }
        make_event(&ev, &tag, items, "c", 1, c->s, c->len);
        VT_ASSERT_STATUS(sc_event_check(&ev), want);
        /* through the builder */
        VT_ASSERT_STATUS(sc_event_builder_init(&b, arena, sizeof arena), SC_OK);
        sc_event_builder_content(&b, c->s, c->len);
        VT_ASSERT_STATUS(sc_event_builder_final(&b, &ev, NULL), want);
        /* through the parser, raw in a JSON string (NUL must be escaped there) */
        if (memchr(c->s, 0, c->len) != NULL) {
            continue;
        }
        n = (size_t)snprintf(json, sizeof json, "{\"content\":\"%s\"}", c->s);
        if (ev_parse_exact(&ev, arena, sizeof arena, &used, json, n, &opts) != want) {
            fail_msg(
                "case %zu: parse gave %s", k,
                sc_status_name(sc_event_parse(&ev, arena, sizeof arena, &used, json, n, &opts)));
        }
    }
}

/* A random string from pieces that stress the escaper: controls, quotes, backslashes,
 * multi-byte characters and long plain runs. */
static size_t random_text(char *out, size_t cap)
{
    static const char *const pieces[] = {
        "a",        "plain text ", "\"", "\\",       "\n",           "\x01",
        "\x1f",     "\x7f",        "/",  "\xc3\xa9", "\xe2\x80\xa8", "\xf0\x9f\x98\x80",
        "\t\r\b\f", "\0",
    };
    size_t n = 0, target = vt_rand_below(cap / 2);

    while (n < target) {
        size_t k = vt_rand_below(sizeof pieces / sizeof pieces[0]);
        size_t len = k == 13 ? 1 : strlen(pieces[k]);

        if (vt_rand_below(50) == 0) { /* now and then a long plain run past the stage */
            size_t run = 400 + vt_rand_below(800);

            if (n + run > cap) {
                break;
            }
            memset(out + n, 'z', run);
            n += run;
            continue;
        }
        if (n + len > cap) {
            break;
        }
        memcpy(out + n, pieces[k], len);
        n += len;
    }
    return n;
}

void test_streamed_id_matches_text(void **state)
{
    enum {
        ROUNDS = 300,
        MAX_TAGS = 6,
        MAX_ITEMS = 4,
        TEXT = 3000
    };
    ev_env *env = ev_env_of(state);
    static char content[TEXT], texts[MAX_TAGS][MAX_ITEMS][200];
    sc_str items[MAX_TAGS][MAX_ITEMS];
    sc_tag tags[MAX_TAGS];
    size_t round, t, i, len, used, need;
    uint8_t id[32], ref[32];
    sc_event_parse_opts opts = {0, SC_EVENT_HAS_ALL, 0, NULL};

    vt_rand_seed(0x5eed0001);
    for (round = 0; round < ROUNDS; round++) {
        sc_event ev, back;
        char *canon, *obj;
        uint8_t *arena;

        memset(&ev, 0, sizeof ev);
        vt_rand_bytes(ev.pubkey, 32);
        vt_rand_bytes(ev.id, 32);
        ev.flags = SC_EVENT_HAS_PUBKEY | SC_EVENT_HAS_ID;
        ev.kind = (uint32_t)vt_rand_below(SC_EVENT_KIND_MAX + 1);
        ev.created_at = (int64_t)(vt_rand_u64() >> (1 + vt_rand_below(63)));
        ev.n_tags = vt_rand_below(MAX_TAGS + 1);
        for (t = 0; t < ev.n_tags; t++) {
            tags[t].n_items = 1 + vt_rand_below(MAX_ITEMS);
            tags[t].items = items[t];
            for (i = 0; i < tags[t].n_items; i++) {
                items[t][i].ptr = texts[t][i];
                items[t][i].len = random_text(texts[t][i], sizeof texts[t][i]);
            }
        }
        ev.tags = tags;
        ev.content.ptr = content;
        ev.content.len = random_text(content, sizeof content);

        canon = ev_to_json(&ev, SC_EVENT_JSON_CANONICAL, &len);
        VT_ASSERT_STATUS(sc_event_compute_id(&env->ctx, id, &ev), SC_OK);
        VT_ASSERT_STATUS(sc_crypto_sha256(&env->ctx, ref, (const uint8_t *)canon, len), SC_OK);
        assert_memory_equal(id, ref, 32);
        free(canon);

        obj = ev_to_json(&ev, SC_EVENT_JSON_OBJECT, &len);
        need = sc_event_parse_arena_max(len);
        arena = vt_alloc(need);
        VT_ASSERT_STATUS(ev_parse_exact(&back, arena, need, &used, obj, len, &opts), SC_OK);
        ev.flags |=
            SC_EVENT_HAS_KIND | SC_EVENT_HAS_CREATED_AT | SC_EVENT_HAS_TAGS | SC_EVENT_HAS_CONTENT;
        if (ev.n_tags == 0) {
            ev.tags = NULL;
        }
        ev_assert_same(&ev, &back);
        free(obj);
        free(arena);
    }
}
