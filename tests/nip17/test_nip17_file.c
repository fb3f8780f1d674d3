/* Kind 15 file messages (exact tags, the reader's rules, refusals) and kind 10050 inbox
 * relays. */
#include "test_nip17.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char k_key_hex[] = "2ba22dd1c0ffee00112233445566778899aabbccddeeff00010203040506"
                                "7c7e";
static const char k_x_hex[] = "c2e8986628bf2d9936a5ee9080467a40a309ebd076e3241ff4b3c8851490f480";
static const char k_ox_hex[] = "cdd8d8787381d290ba35f81eb7f63f8c6354a4b65fb1121c02cd666ec4ac88f4";
static const char k_receiver[] = "918e2da906df4ccd12c8ac672d8335add131a4cf9d27ce42b3bb3625755f0788";

static sc_str str_of(const char *s)
{
    sc_str v;

    v.ptr = s;
    v.len = s != NULL ? strlen(s) : 0;
    return v;
}

/* A file with every optional field and two fallbacks. */
typedef struct full_file {
    sc_nip17_file f;
    sc_str fb[2];
    sc_nip17_peer to;
    sc_nip17_chat m;
} full_file;

static void file_init(full_file *x)
{
    static const uint8_t iv[16] = {0x84, 0xd8, 0xe8, 0x82, 0x86, 0x05, 0x4d, 0x46,
                                   0x61, 0x67, 0xd1, 0x39, 0x4b, 0x6a, 0x98, 0xcd};

    memset(x, 0, sizeof *x);
    x->f.url = str_of("https://blossom.example/4f2a.bin");
    x->f.file_type = str_of("image/jpeg");
    gw_hex32(k_key_hex, x->f.key);
    memcpy(x->f.nonce, iv, 16);
    x->f.nonce_len = 16;
    gw_hex32(k_x_hex, x->f.x);
    gw_hex32(k_ox_hex, x->f.ox);
    x->f.has_ox = 1;
    x->f.size = 1234567;
    x->f.dim = str_of("1920x1080");
    x->f.blurhash = str_of("LEHV6nWB2yk8pyo0adR*.7kCMdnj");
    x->f.thumb = str_of("https://blossom.example/thumb.bin");
    x->fb[0] = str_of("https://mirror1.example/4f2a.bin");
    x->fb[1] = str_of("https://mirror2.example/4f2a.bin");
    x->f.fallbacks = x->fb;
    x->f.n_fallbacks = 2;
    gw_hex32(k_receiver, x->to.pubkey);
    x->m.to = &x->to;
    x->m.n_to = 1;
    x->m.created_at = 1700000000;
    x->m.content = str_of("ignored for kind 15");
}

void test_file_roundtrip(void **state)
{
    gw_env *env = gw_env_of(state);
    uint8_t buf[4096], *arena = NULL, sender[32];
    sc_identity alice, bob;
    uint8_t bob_pub[32];
    sc_nip17_received msg;
    sc_nip17_file g;
    sc_event ev;
    sc_str fb[4];
    full_file x;
    size_t len, used, off, bound;
    char *w;

    gw_key(env, &alice, sender, 0x61);
    gw_key(env, &bob, bob_pub, 0x62);
    file_init(&x);
    memcpy(x.to.pubkey, bob_pub, 32);
    VT_ASSERT_STATUS(sc_nip17_file_rumor(&env->ctx, &ev, buf, sizeof buf, &x.m, &x.f, sender),
                     SC_OK);
    {
        char bh[65];
        const char *t[][4] = {
            {"p", bh, NULL},
            {"file-type", "image/jpeg", NULL},
            {"encryption-algorithm", "aes-gcm", NULL},
            {"decryption-key", k_key_hex, NULL},
            {"decryption-nonce", "84d8e88286054d466167d1394b6a98cd", NULL},
            {"x", k_x_hex, NULL},
            {"ox", k_ox_hex, NULL},
            {"size", "1234567", NULL},
            {"dim", "1920x1080", NULL},
            {"blurhash", "LEHV6nWB2yk8pyo0adR*.7kCMdnj", NULL},
            {"thumb", "https://blossom.example/thumb.bin", NULL},
            {"fallback", "https://mirror1.example/4f2a.bin", NULL},
            {"fallback", "https://mirror2.example/4f2a.bin", NULL},
        };
        size_t i;

        n17_hex(bh, bob_pub);
        assert_int_equal(ev.n_tags, sizeof t / sizeof t[0]);
        for (i = 0; i < sizeof t / sizeof t[0]; i++) {
            if (!gw_tag_is(&ev.tags[i], t[i])) {
                fail_msg("tag %zu is not [%s, %s]", i, t[i][0], t[i][1]);
            }
        }
    }
    assert_int_equal(ev.kind, 15);
    assert_int_equal(ev.flags, SC_EVENT_RUMOR);
    assert_true(ev.content.len == x.f.url.len &&
                memcmp(ev.content.ptr, x.f.url.ptr, x.f.url.len) == 0);

    /* read back: every field */
    VT_ASSERT_STATUS(sc_nip17_file_parse(&g, fb, 4, &(size_t){0}, &ev), SC_OK);
    assert_memory_equal(g.key, x.f.key, 32);
    assert_int_equal(g.nonce_len, 16);
    assert_memory_equal(g.nonce, x.f.nonce, 16);
    assert_true(g.nonce_text.len == 32 &&
                memcmp(g.nonce_text.ptr, "84d8e88286054d466167d1394b6a98cd", 32) == 0);
    assert_memory_equal(g.x, x.f.x, 32);
    assert_memory_equal(g.ox, x.f.ox, 32);
    assert_int_equal(g.has_ox, 1);
    assert_int_equal(g.size, 1234567);
    assert_true(g.url.len == x.f.url.len && g.dim.len == 9 && g.blurhash.len == 28 &&
                g.thumb.len == x.f.thumb.len && g.file_type.len == 10);
    assert_int_equal(g.n_fallbacks, 2);
    assert_ptr_equal(g.fallbacks, fb);
    assert_true(fb[1].len == x.fb[1].len && memcmp(fb[1].ptr, x.fb[1].ptr, fb[1].len) == 0);

    /* sealed, wrapped, received, read */
    w = gw_wrap(env, &ev, &alice, bob_pub, NULL, &len);
    VT_ASSERT_STATUS(n17_receive(env, w, len, &bob, &msg, &arena, &used), SC_OK);
    VT_ASSERT_STATUS(sc_nip17_file_parse(&g, fb, 4, &(size_t){0}, &msg.rumor), SC_OK);
    assert_memory_equal(g.key, x.f.key, 32);
    assert_int_equal(g.n_fallbacks, 2);
    free(arena);
    free(w);

    /* the minimum: required tags only */
    x.f.has_ox = 0;
    x.f.size = 0;
    x.f.dim = x.f.blurhash = x.f.thumb = str_of(NULL);
    x.f.n_fallbacks = 0;
    x.f.fallbacks = NULL;
    x.f.nonce_len = 12;
    VT_ASSERT_STATUS(sc_nip17_file_rumor(&env->ctx, &ev, buf, sizeof buf, &x.m, &x.f, sender),
                     SC_OK);
    assert_int_equal(ev.n_tags, 6);
    VT_ASSERT_STATUS(sc_nip17_file_parse(&g, NULL, 0, &(size_t){0}, &ev), SC_OK);
    assert_int_equal(g.has_ox, 0);
    assert_int_equal(g.size, 0);
    assert_int_equal(g.nonce_len, 12);
    assert_null(g.fallbacks);

    /* the buffer bound suffices at every alignment */
    file_init(&x);
    bound = sc_nip17_file_rumor_buf_max(&x.m, &x.f);
    for (off = 0; off < 8; off++) {
        uint8_t *block = vt_alloc(bound + off);

        VT_ASSERT_STATUS(
            sc_nip17_file_rumor(&env->ctx, &ev, block + off, bound, &x.m, &x.f, sender), SC_OK);
        free(block);
    }
    {
        uint8_t *block = vt_alloc(bound);

        memset(block, 0x77, bound);
        VT_ASSERT_STATUS(sc_nip17_file_rumor(&env->ctx, &ev, block, bound / 2, &x.m, &x.f, sender),
                         SC_ERR_BUFFER_TOO_SMALL);
        assert_true(vt_all_zero(block, bound / 2)); /* the key's hex was there */
        free(block);
    }
    sc_identity_clear(&alice);
    sc_identity_clear(&bob);
}

/* The rumor the views of the last parse_tags point into. */
static uint8_t g_rumor_buf[4096];

/* Parses a kind 15 rumor made of the given tags (into g_rumor_buf); returns the status. */
/* What the last parse_tags reported as the fallbacks' length (used or needed). */
static size_t g_fb_len;

static sc_status parse_tags(gw_env *env, const char *const *tags, uint32_t kind,
                            const char *content, sc_nip17_file *f, sc_str *fb, size_t fb_cap)
{
    uint8_t author[32];
    sc_event ev;

    memset(author, 0x45, sizeof author);
    gw_rumor(env, &ev, g_rumor_buf, sizeof g_rumor_buf, author, kind, 1, content, strlen(content),
             tags);
    return sc_nip17_file_parse(f, fb, fb_cap, &g_fb_len, &ev);
}

void test_file_parse_rules(void **state)
{
#define FT "file-type", "image/png", NULL
#define AL "encryption-algorithm", "aes-gcm", NULL
#define KY "decryption-key", k_key_hex, NULL
#define NC "decryption-nonce", "f0e1d2c3b4a5968778695a4b3c2d1e0f", NULL
#define XX "x", k_x_hex, NULL
    static const struct {
        const char *name;
        sc_status want;
        const char *tags[40];
    } cases[] = {
        {"all required", SC_OK, {"p", k_receiver, NULL, FT, AL, KY, NC, XX, NULL}},
        {"other tags ignored",
         SC_OK,
         {"e", "x", NULL, FT, "thumbhash", "abc", NULL, AL, KY, NC, XX, "subject", "s", NULL,
          NULL}},
        {"uppercase hex",
         SC_OK,
         {FT, AL, "decryption-key",
          "2BA22DD1C0FFEE00112233445566778899AABBCCDDEEFF000102030405067C7E", NULL,
          "decryption-nonce", "F0E1D2C3B4A5968778695A4B3C2D1E0F", NULL, XX, NULL}},
        {"12-byte nonce",
         SC_OK,
         {FT, AL, KY, "decryption-nonce", "cafebabefacedbaddecaf888", NULL, XX, NULL}},
        {"32-byte nonce",
         SC_OK,
         {FT, AL, KY, "decryption-nonce",
          "6630653164326333623461353936383737383639356134623363326431653066", NULL, XX, NULL}},
        {"largest size", SC_OK, {FT, AL, KY, NC, XX, "size", "18446744073709551615", NULL, NULL}},
        {"missing file-type", SC_ERR_MESSAGE, {AL, KY, NC, XX, NULL}},
        {"missing algorithm", SC_ERR_MESSAGE, {FT, KY, NC, XX, NULL}},
        {"missing key", SC_ERR_MESSAGE, {FT, AL, NC, XX, NULL}},
        {"missing nonce", SC_ERR_MESSAGE, {FT, AL, KY, XX, NULL}},
        {"missing x", SC_ERR_MESSAGE, {FT, AL, KY, NC, NULL}},
        {"aes-cbc",
         SC_ERR_MESSAGE,
         {FT, "encryption-algorithm", "aes-cbc", NULL, KY, NC, XX, NULL}},
        {"AES-GCM spelled otherwise",
         SC_ERR_MESSAGE,
         {FT, "encryption-algorithm", "AES-GCM", NULL, KY, NC, XX, NULL}},
        {"two keys", SC_ERR_MESSAGE, {FT, AL, KY, KY, NC, XX, NULL}},
        {"two x", SC_ERR_MESSAGE, {FT, AL, KY, NC, XX, XX, NULL}},
        {"two sizes",
         SC_ERR_MESSAGE,
         {FT, AL, KY, NC, XX, "size", "1", NULL, "size", "1", NULL, NULL}},
        {"key of 63 hex",
         SC_ERR_MESSAGE,
         {FT, AL, "decryption-key",
          "2ba22dd1c0ffee00112233445566778899aabbccddeeff000102030405067c7", NULL, NC, XX, NULL}},
        {"key that is not hex",
         SC_ERR_MESSAGE,
         {FT, AL, "decryption-key",
          "2ba22dd1c0ffee00112233445566778899aabbccddeeff000102030405067c7g", NULL, NC, XX, NULL}},
        {"nonce of 11 bytes",
         SC_ERR_MESSAGE,
         {FT, AL, KY, "decryption-nonce", "cafebabefacedbaddecaf8", NULL, XX, NULL}},
        {"nonce of 33 bytes",
         SC_ERR_MESSAGE,
         {FT, AL, KY, "decryption-nonce",
          "663065316432633362346135393638373738363935613462336332643165306600", NULL, XX, NULL}},
        {"nonce of odd length",
         SC_ERR_MESSAGE,
         {FT, AL, KY, "decryption-nonce", "f0e1d2c3b4a5968778695a4b3c2d1e0", NULL, XX, NULL}},
        {"ox not hex", SC_ERR_MESSAGE, {FT, AL, KY, NC, XX, "ox", "nothex", NULL, NULL}},
        {"size not decimal", SC_ERR_MESSAGE, {FT, AL, KY, NC, XX, "size", "12a", NULL, NULL}},
        {"size negative", SC_ERR_MESSAGE, {FT, AL, KY, NC, XX, "size", "-1", NULL, NULL}},
        {"size over 64 bits",
         SC_ERR_MESSAGE,
         {FT, AL, KY, NC, XX, "size", "18446744073709551616", NULL, NULL}},
        {"empty size", SC_ERR_MESSAGE, {FT, AL, KY, NC, XX, "size", "", NULL, NULL}},
        {"empty file-type", SC_ERR_MESSAGE, {"file-type", "", NULL, AL, KY, NC, XX, NULL}},
        {"x without value", SC_ERR_MESSAGE, {FT, AL, KY, NC, "x", NULL, NULL}},
        {"empty fallback", SC_ERR_MESSAGE, {FT, AL, KY, NC, XX, "fallback", "", NULL, NULL}},
    };
#undef FT
#undef AL
#undef KY
#undef NC
#undef XX
    gw_env *env = gw_env_of(state);
    sc_nip17_file f;
    sc_str fb[2];
    size_t i;
    vt_report r;

    vt_report_init(&r, env->backend, "own: kind 15 reader rules");
    for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        sc_status st = parse_tags(env, cases[i].tags, 15, "https://u", &f, fb, 2);

        if (st != cases[i].want) {
            vt_case_fail(&r, "%s: %s, expected %s", cases[i].name, sc_status_name(st),
                         sc_status_name(cases[i].want));
        } else if (st != SC_OK && !vt_all_zero((const uint8_t *)&f, sizeof f)) {
            vt_case_fail(&r, "%s: f not zeroed", cases[i].name);
        } else if (st == SC_OK && (f.url.len != 9 || f.nonce_len < 12)) {
            vt_case_fail(&r, "%s: url or nonce wrong", cases[i].name);
        } else {
            vt_case_pass(&r);
        }
    }
    {
        /* uppercase parses to the same bytes, and the text is kept as written */
        const char *t[] = {"file-type",
                           "a/b",
                           NULL,
                           "encryption-algorithm",
                           "aes-gcm",
                           NULL,
                           "decryption-key",
                           k_key_hex,
                           NULL,
                           "decryption-nonce",
                           "F0E1D2C3B4A5968778695A4B3C2D1E0F",
                           NULL,
                           "x",
                           k_x_hex,
                           NULL,
                           NULL};

        VT_ASSERT_STATUS(parse_tags(env, t, 15, "u", &f, NULL, 0), SC_OK);
        assert_int_equal(f.nonce[0], 0xf0);
        assert_int_equal(f.nonce[15], 0x0f);
        assert_true(f.nonce_text.len == 32 && memcmp(f.nonce_text.ptr, "F0E1", 4) == 0);
        vt_case_pass(&r);
    }
    {
        /* not kind 15, or no URL */
        const char *t[] = {"file-type", "a/b", NULL, NULL};

        VT_ASSERT_STATUS(parse_tags(env, t, 14, "u", &f, NULL, 0), SC_ERR_MESSAGE);
        VT_ASSERT_STATUS(parse_tags(env, t, 15, "", &f, NULL, 0), SC_ERR_MESSAGE);
        vt_case_pass(&r);
    }
    {
        /* three fallbacks for two slots: the need, nothing else */
        const char *t[] = {"file-type",
                           "a/b",
                           NULL,
                           "encryption-algorithm",
                           "aes-gcm",
                           NULL,
                           "decryption-key",
                           k_key_hex,
                           NULL,
                           "decryption-nonce",
                           "f0e1d2c3b4a5968778695a4b3c2d1e0f",
                           NULL,
                           "x",
                           k_x_hex,
                           NULL,
                           "fallback",
                           "https://1",
                           NULL,
                           "fallback",
                           "https://2",
                           NULL,
                           "fallback",
                           "https://3",
                           NULL,
                           NULL};
        sc_nip17_file zero;

        memset(fb, 0x6b, sizeof fb);
        VT_ASSERT_STATUS(parse_tags(env, t, 15, "u", &f, fb, 2), SC_ERR_BUFFER_TOO_SMALL);
        assert_int_equal(g_fb_len, 3); /* the need */
        memset(&zero, 0, sizeof zero);
        assert_memory_equal(&f, &zero, sizeof f);
        assert_true(vt_all_zero((const uint8_t *)fb, sizeof fb));
        VT_ASSERT_STATUS(parse_tags(env, t, 15, "u", &f, NULL, 0), SC_ERR_BUFFER_TOO_SMALL);
        assert_int_equal(g_fb_len, 3);
        {
            sc_str fb3[3];

            VT_ASSERT_STATUS(parse_tags(env, t, 15, "u", &f, fb3, 3), SC_OK);
            assert_int_equal(f.n_fallbacks, 3);
            assert_int_equal(g_fb_len, 3);
            assert_true(fb3[2].len == 9 && memcmp(fb3[2].ptr, "https://3", 9) == 0);
        }
        vt_case_pass(&r);
    }
    vt_report_finish(&r, sizeof cases / sizeof cases[0] + 3);
}

void test_file_build_errors(void **state)
{
    gw_env *env = gw_env_of(state);
    uint8_t buf[4096], sender[32];
    sc_event ev;
    full_file x;

    memset(sender, 0x46, sizeof sender);
#define REFUSE(want)                                                                               \
    do {                                                                                           \
        memset(buf, 0x77, sizeof buf);                                                             \
        VT_ASSERT_STATUS(sc_nip17_file_rumor(&env->ctx, &ev, buf, sizeof buf, &x.m, &x.f, sender), \
                         want);                                                                    \
        assert_true(vt_all_zero((const uint8_t *)&ev, sizeof ev));                                 \
    } while (0)

    file_init(&x);
    x.f.nonce_len = 11;
    REFUSE(SC_ERR_ARG);
    x.f.nonce_len = 33;
    REFUSE(SC_ERR_ARG);
    file_init(&x);
    x.f.has_ox = 2;
    REFUSE(SC_ERR_ARG);
    file_init(&x);
    x.f.fallbacks = NULL;
    REFUSE(SC_ERR_ARG);
    file_init(&x);
    x.f.url = str_of("");
    REFUSE(SC_ERR_MESSAGE);
    file_init(&x);
    x.f.file_type = str_of("");
    REFUSE(SC_ERR_MESSAGE);
    file_init(&x);
    x.fb[1] = str_of("");
    REFUSE(SC_ERR_MESSAGE);
    file_init(&x);
    x.m.n_to = 0;
    REFUSE(SC_ERR_MESSAGE);
    file_init(&x);
    x.f.dim = str_of("\xff");
    REFUSE(SC_ERR_UTF8);
    assert_true(vt_all_zero(buf, sizeof buf)); /* wiped: it held the key's hex */
#undef REFUSE
    assert_int_equal(sc_nip17_file_rumor_buf_max(vt_null(), &x.f), 0);
    assert_int_equal(sc_nip17_file_rumor_buf_max(&x.m, vt_null()), 0);
}

void test_inbox_relays(void **state)
{
    gw_env *env = gw_env_of(state);
    sc_str relays[3], got[4];
    uint8_t buf[1024], *arena, pub[32];
    size_t n = 9, len, bound, off;
    sc_identity me;
    sc_event ev, back;
    char *json;

    relays[0] = str_of("wss://inbox.example");
    relays[1] = str_of("wss://backup.example/\xc3\xbc");
    relays[2] = str_of("wss://third.example");
    VT_ASSERT_STATUS(sc_nip17_inbox_build(&ev, buf, sizeof buf, relays, 3, 1700000000), SC_OK);
    assert_int_equal(ev.kind, 10050);
    assert_int_equal(ev.created_at, 1700000000);
    assert_int_equal(ev.content.len, 0);
    assert_int_equal(ev.n_tags, 3);
    {
        const char *t[] = {"relay", "wss://backup.example/\xc3\xbc", NULL};

        assert_true(gw_tag_is(&ev.tags[1], t));
    }
    /* signed, serialized, parsed back and read */
    gw_key(env, &me, pub, 0x71);
    VT_ASSERT_STATUS(sc_event_sign(&env->ctx, &ev, &me), SC_OK);
    len = sc_event_to_json_len(&ev, SC_EVENT_JSON_OBJECT);
    json = (char *)vt_alloc(len);
    VT_ASSERT_STATUS(sc_event_to_json(json, len, &n, &ev, SC_EVENT_JSON_OBJECT), SC_OK);
    arena = gw_parse(&back, json, len);
    VT_ASSERT_STATUS(sc_event_verify(&env->ctx, &back), SC_OK);
    VT_ASSERT_STATUS(sc_nip17_inbox_parse(got, 4, &n, &back), SC_OK);
    assert_int_equal(n, 3);
    assert_true(got[2].len == relays[2].len && memcmp(got[2].ptr, relays[2].ptr, got[2].len) == 0);
    /* too few slots: the count, nothing written */
    memset(got, 0x6b, sizeof got);
    VT_ASSERT_STATUS(sc_nip17_inbox_parse(got, 2, &n, &back), SC_ERR_BUFFER_TOO_SMALL);
    assert_int_equal(n, 3);
    assert_int_equal(((uint8_t *)got)[0], 0x6b);
    VT_ASSERT_STATUS(sc_nip17_inbox_parse(NULL, 0, &n, &back), SC_ERR_BUFFER_TOO_SMALL);
    assert_int_equal(n, 3);
    free(arena);
    free(json);

    /* other tags and malformed relay tags are not relays; another kind is refused */
    {
        const char *t[] = {"relay", "wss://a", NULL, "relay", NULL,      "relay", "",   NULL,
                           "r",     "wss://b", NULL, "relay", "wss://c", "read",  NULL, NULL};
        uint8_t rb[1024];

        gw_rumor(env, &back, rb, sizeof rb, pub, 10050, 1, "", 0, t);
        VT_ASSERT_STATUS(sc_nip17_inbox_parse(got, 4, &n, &back), SC_OK);
        assert_int_equal(n, 2);
        assert_true(got[1].len == 7 && memcmp(got[1].ptr, "wss://c", 7) == 0);
        back.kind = 10002;
        VT_ASSERT_STATUS(sc_nip17_inbox_parse(got, 4, &n, &back), SC_ERR_MESSAGE);
        assert_int_equal(n, 0);
    }

    /* no relays is a valid (empty) list; the bound suffices at every alignment */
    VT_ASSERT_STATUS(sc_nip17_inbox_build(&ev, NULL, 0, NULL, 0, 5), SC_OK);
    assert_int_equal(ev.n_tags, 0);
    bound = sc_nip17_inbox_build_buf_max(relays, 3);
    for (off = 0; off < 8; off++) {
        uint8_t *block = vt_alloc(bound + off);

        VT_ASSERT_STATUS(sc_nip17_inbox_build(&ev, block + off, bound, relays, 3, 5), SC_OK);
        free(block);
    }
    VT_ASSERT_STATUS(sc_nip17_inbox_build(&ev, buf, 40, relays, 3, 5), SC_ERR_BUFFER_TOO_SMALL);
    assert_true(vt_all_zero((const uint8_t *)&ev, sizeof ev));
    relays[1] = str_of("");
    VT_ASSERT_STATUS(sc_nip17_inbox_build(&ev, buf, sizeof buf, relays, 3, 5), SC_ERR_ARG);
    relays[1] = str_of("\xc3");
    VT_ASSERT_STATUS(sc_nip17_inbox_build(&ev, buf, sizeof buf, relays, 3, 5), SC_ERR_UTF8);
    relays[1] = str_of("wss://ok");
    VT_ASSERT_STATUS(sc_nip17_inbox_build(&ev, buf, sizeof buf, relays, 3, -1), SC_ERR_EVENT_RANGE);
    sc_identity_clear(&me);
}
