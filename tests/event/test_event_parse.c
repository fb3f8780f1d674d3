/* Parsing: alternative encodings of one signed event that must all give it back, a table of
 * rejects with their exact statuses, the arena contract (exact need, alignment, the bound),
 * the options, every truncation of a valid text, and random mutations. Inputs are parsed from
 * exact-size heap copies, so any read past json_len is caught by ASan and valgrind. */
#include "test_event.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vt_rand.h"

/* ---- one signed event and its alternative encodings --------------------------------------- */

typedef struct signed_event {
    sc_event ev;
    uint8_t buf[512];
    char id[65], pk[65], sig[129];
} signed_event;

/* kind 1, created_at 1700000000, tags [["e","abc"],["t","A/b"]], content "A/\U0001F600 \u00e9\n",
 * signed with the BIP-340 vector-1 key and zero aux. */
static void make_signed(ev_env *env, signed_event *s)
{
    static const uint8_t zero_aux[32] = {0};
    static const sc_str e_tag[] = {{"e", 1}, {"abc", 3}};
    static const sc_str t_tag[] = {{"t", 1}, {"A/b", 3}};
    static const char content[] = "A/\xf0\x9f\x98\x80 \xc3\xa9\n";
    sc_event_builder b;
    sc_identity who;
    size_t n;

    VT_ASSERT_STATUS(sc_event_builder_init(&b, s->buf, sizeof s->buf), SC_OK);
    sc_event_builder_created_at(&b, 1700000000);
    sc_event_builder_tag(&b, e_tag, 2);
    sc_event_builder_tag(&b, t_tag, 2);
    sc_event_builder_content(&b, content, sizeof content - 1);
    VT_ASSERT_STATUS(sc_event_builder_final(&b, &s->ev, NULL), SC_OK);
    ev_identity(env, &who);
    VT_ASSERT_STATUS(sc_event_sign_with_rand(&env->ctx, &s->ev, &who, zero_aux), SC_OK);
    sc_identity_clear(&who);
    VT_ASSERT_STATUS(sc_hex_encode(s->id, 64, &n, s->ev.id, 32), SC_OK);
    VT_ASSERT_STATUS(sc_hex_encode(s->pk, 64, &n, s->ev.pubkey, 32), SC_OK);
    VT_ASSERT_STATUS(sc_hex_encode(s->sig, 128, &n, s->ev.sig, 64), SC_OK);
    s->id[64] = s->pk[64] = s->sig[128] = '\0';
}

/* Replaces @ID, @IDESC (the id with its first character as a \u escape), @PK and @SIG. */
static size_t expand(const signed_event *s, const char *tmpl, char *out, size_t cap)
{
    size_t n = 0;

    while (*tmpl != '\0') {
        char tmp[80];
        const char *put = NULL;
        size_t skip = 0, len;

        if (strncmp(tmpl, "@IDESC", 6) == 0) {
            snprintf(tmp, sizeof tmp, "\\u%04x%s", (unsigned)s->id[0], s->id + 1);
            put = tmp;
            skip = 6;
        } else if (strncmp(tmpl, "@ID", 3) == 0) {
            put = s->id;
            skip = 3;
        } else if (strncmp(tmpl, "@PK", 3) == 0) {
            put = s->pk;
            skip = 3;
        } else if (strncmp(tmpl, "@SIG", 4) == 0) {
            put = s->sig;
            skip = 4;
        }
        len = put != NULL ? strlen(put) : 1;
        assert_true(n + len < cap);
        memcpy(out + n, put != NULL ? put : tmpl, len);
        n += len;
        tmpl += put != NULL ? skip : 1;
    }
    out[n] = '\0';
    return n;
}

static const char *const k_alternatives[] = {
    /* escapes: \u0041, \/, a surrogate pair (either case), \u00E9, \u000a */
    "{\"id\":\"@ID\",\"pubkey\":\"@PK\",\"created_at\":1700000000,\"kind\":1,\"tags\":[[\"e\","
    "\"abc\"],[\"t\",\"\\u0041\\/b\"]],\"content\":\"\\u0041\\/\\ud83d\\uDE00 \\u00E9\\u000a\","
    "\"sig\":\"@SIG\"}",
    /* reversed key order, raw UTF-8 */
    "{\"sig\":\"@SIG\",\"content\":\"A/\xf0\x9f\x98\x80 \xc3\xa9\\n\",\"tags\":[[\"e\",\"abc\"],"
    "[\"t\",\"A/b\"]],\"kind\":1,\"created_at\":1700000000,\"pubkey\":\"@PK\",\"id\":\"@ID\"}",
    /* whitespace everywhere JSON allows it */
    " \r\n\t{ \"id\" :\t\"@ID\" ,\n \"pubkey\"\r\n:\"@PK\" , \"created_at\" : 1700000000 ,"
    "\"kind\"\n:\n1\n,\"tags\" : [ [ \"e\" , \"abc\" ] ,\n [ \"t\" , \"A/b\" ] ] , \"content\""
    " : \"A/\\ud83d\\ude00 \\u00e9\\n\" , \"sig\" : \"@SIG\" } \n\r\t ",
    /* unknown fields of every type, nested, duplicated, with escaped keys */
    "{\"x\":\"str\\\"\\u0000}\",\"id\":\"@ID\",\"n\":-1.5e+10,\"pubkey\":\"@PK\",\"t\":true,"
    "\"f\":false,\"z\":null,\"created_at\":1700000000,\"o\":{\"a\":[1,{\"b\":[]}],\"c\":{},"
    "\"d\":\"}\"},\"kind\":1,\"a\":[[],[[]],{},\"]\",0,-0,0.0e0,1E-2,true,null],\"tags\":[[\"e\","
    "\"abc\"],[\"t\",\"A/b\"]],\"x\":\"a duplicate unknown key is fine\",\"content\":"
    "\"A/\xf0\x9f\x98\x80 \xc3\xa9\\n\",\"e\":{},\"sig\":\"@SIG\",\"\\u0078y\":[],"
    "\"Kind\":\"not the kind\",\"kind \":0,\"\":1,\"content\\u0000\":2}",
    /* escaped known keys and an escaped hex digit in the id */
    "{\"\\u0069d\":\"@IDESC\",\"pub\\u006bey\":\"@PK\",\"created\\u005fat\":1700000000,"
    "\"k\\u0069nd\":1,\"\\u0074ags\":[[\"e\",\"abc\"],[\"t\",\"A\\u002fb\"]],\"\\u0063ontent\":"
    "\"A/\\uD83D\\uDE00 \\u00e9\\n\",\"si\\u0067\":\"@SIG\"}",
};

void test_parse_alternatives(void **state)
{
    ev_env *env = ev_env_of(state);
    static signed_event s;
    char json[2048];
    uint8_t arena[2048], id[32];
    size_t k, n, used;
    sc_event ev;

    make_signed(env, &s);
    for (k = 0; k <= sizeof k_alternatives / sizeof k_alternatives[0]; k++) {
        if (k == 0) {
            char *obj = ev_to_json(&s.ev, SC_EVENT_JSON_OBJECT, &n); /* the library's own form */

            assert_true(n < sizeof json);
            memcpy(json, obj, n);
            free(obj);
        } else {
            n = expand(&s, k_alternatives[k - 1], json, sizeof json);
        }
        if (ev_parse_exact(&ev, arena, sizeof arena, &used, json, n, NULL) != SC_OK) {
            fail_msg(
                "alternative %zu: %s", k,
                sc_status_name(sc_event_parse(&ev, arena, sizeof arena, &used, json, n, NULL)));
        }
        assert_int_equal(ev.flags, SC_EVENT_SIGNED);
        ev_assert_same(&s.ev, &ev);
        VT_ASSERT_STATUS(sc_event_compute_id(&env->ctx, id, &ev), SC_OK);
        assert_memory_equal(id, s.ev.id, 32);
        VT_ASSERT_STATUS(sc_event_verify(&env->ctx, &ev), SC_OK);
    }
}

/* ---- rejects ------------------------------------------------------------------------------ */

enum {
    O_NONE,
    O_ALL,
    O_SMALL,
    O_DEPTH2
}; /* require nothing / NULL opts / max_input 16 /
      max_depth 2 */

typedef struct reject {
    const char *name;
    const char *json;
    size_t len;
    sc_status want;
    int opts;
} reject;

#define R(name, lit, want, opts)                                                                   \
    {                                                                                              \
        name, lit, sizeof(lit) - 1, want, opts                                                     \
    }

#define H64 "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"
#define FULL_EV(id, created, kind, tags, content)                                                  \
    "{\"id\":\"" id "\",\"pubkey\":\"" H64 "\",\"created_at\":" created ",\"kind\":" kind          \
    ",\"tags\":" tags ",\"content\":" content ",\"sig\":\"" H64 H64 "\"}"

static const reject k_rejects[] = {
    /* JSON syntax */
    R("empty input", "", SC_ERR_JSON, O_NONE),
    R("whitespace only", " \n\t ", SC_ERR_JSON, O_NONE),
    R("lone brace", "{", SC_ERR_JSON, O_NONE),
    R("unterminated object", "{\"kind\":1", SC_ERR_JSON, O_NONE),
    R("trailing comma in object", "{\"kind\":1,}", SC_ERR_JSON, O_NONE),
    R("double comma", "{\"kind\":1,,\"x\":1}", SC_ERR_JSON, O_NONE),
    R("missing colon", "{\"kind\" 1}", SC_ERR_JSON, O_NONE),
    R("unquoted key", "{kind:1}", SC_ERR_JSON, O_NONE),
    R("single-quoted key", "{'kind':1}", SC_ERR_JSON, O_NONE),
    R("single-quoted string", "{\"content\":'x'}", SC_ERR_JSON, O_NONE),
    R("unterminated string", "{\"content\":\"abc", SC_ERR_JSON, O_NONE),
    R("raw control char in string", "{\"content\":\"a\x01z\"}", SC_ERR_JSON, O_NONE),
    R("raw newline in string", "{\"content\":\"a\nz\"}", SC_ERR_JSON, O_NONE),
    R("raw tab in a key", "{\"con\ttent\":\"\"}", SC_ERR_JSON, O_NONE),
    R("raw NUL in string", "{\"content\":\"a\0z\"}", SC_ERR_JSON, O_NONE),
    R("unknown escape \\x", "{\"content\":\"\\x41\"}", SC_ERR_JSON, O_NONE),
    R("escape \\U (upper case)", "{\"content\":\"\\U0041\"}", SC_ERR_JSON, O_NONE),
    R("escape \\' ", "{\"content\":\"\\'\"}", SC_ERR_JSON, O_NONE),
    R("short \\u escape", "{\"content\":\"\\u12\"}", SC_ERR_JSON, O_NONE),
    R("non-hex \\u escape", "{\"content\":\"\\u12G4\"}", SC_ERR_JSON, O_NONE),
    R("backslash at the end", "{\"content\":\"\\", SC_ERR_JSON, O_NONE),
    R("trailing garbage", "{\"kind\":1} x", SC_ERR_JSON, O_NONE),
    R("two objects", "{}{}", SC_ERR_JSON, O_NONE),
    R("leading zero", "{\"created_at\":01}", SC_ERR_JSON, O_NONE),
    R("minus alone", "{\"created_at\":-}", SC_ERR_JSON, O_NONE),
    R("fraction without digits", "{\"created_at\":1.}", SC_ERR_JSON, O_NONE),
    R("exponent without digits", "{\"created_at\":1e}", SC_ERR_JSON, O_NONE),
    R("leading dot", "{\"kind\":.5}", SC_ERR_JSON, O_NONE),
    R("plus sign", "{\"kind\":+1}", SC_ERR_JSON, O_NONE),
    R("hex number", "{\"kind\":0x1}", SC_ERR_JSON, O_NONE),
    R("NaN", "{\"x\":NaN}", SC_ERR_JSON, O_NONE),
    R("truncated literal", "{\"x\":tru}", SC_ERR_JSON, O_NONE),
    R("literal with a tail", "{\"x\":nulll}", SC_ERR_JSON, O_NONE),
    R("capitalised literal", "{\"x\":True}", SC_ERR_JSON, O_NONE),
    R("unknown array missing comma", "{\"x\":[1 2]}", SC_ERR_JSON, O_NONE),
    R("unknown array trailing comma", "{\"x\":[1,2,]}", SC_ERR_JSON, O_NONE),
    R("unknown object missing colon", "{\"x\":{\"a\" 1}}", SC_ERR_JSON, O_NONE),
    R("unknown object number key", "{\"x\":{1:2}}", SC_ERR_JSON, O_NONE),
    R("mismatched brackets", "{\"x\":[}", SC_ERR_JSON, O_NONE),
    R("tags missing comma", "{\"tags\":[[\"a\"] [\"b\"]]}", SC_ERR_JSON, O_NONE),
    R("tag missing comma", "{\"tags\":[[\"a\" \"b\"]]}", SC_ERR_JSON, O_NONE),
    R("tags trailing comma", "{\"tags\":[[\"a\"],]}", SC_ERR_JSON, O_NONE),
    R("comment", "{/* c */\"kind\":1}", SC_ERR_JSON, O_NONE),
    R("byte order mark", "\xef\xbb\xbf{\"kind\":1}", SC_ERR_JSON, O_NONE),
    R("syntax error after a field error", "{\"kind\":\"1\",", SC_ERR_JSON, O_NONE),
    R("syntax error after a range error", "{\"kind\":70000,\"x\":[}", SC_ERR_JSON, O_NONE),
    R("top-level garbage", "nope", SC_ERR_JSON, O_NONE),
    R("form feed is not whitespace", "{\f\"kind\":1}", SC_ERR_JSON, O_NONE),
    /* UTF-8 */
    R("0xff in a string", "{\"content\":\"a\xff\"}", SC_ERR_UTF8, O_NONE),
    R("overlong '/' in a string", "{\"content\":\"\xc0\xaf\"}", SC_ERR_UTF8, O_NONE),
    R("raw surrogate in a string", "{\"content\":\"\xed\xa0\x80\"}", SC_ERR_UTF8, O_NONE),
    R("above U+10FFFF in a string", "{\"content\":\"\xf4\x90\x80\x80\"}", SC_ERR_UTF8, O_NONE),
    R("truncated sequence before the quote", "{\"content\":\"\xe2\x82\"}", SC_ERR_UTF8, O_NONE),
    R("lone continuation byte", "{\"content\":\"\x80\"}", SC_ERR_UTF8, O_NONE),
    R("lone high surrogate escape", "{\"content\":\"\\ud83d\"}", SC_ERR_UTF8, O_NONE),
    R("lone low surrogate escape", "{\"content\":\"\\ude00\"}", SC_ERR_UTF8, O_NONE),
    R("high surrogate then a letter", "{\"content\":\"\\ud83dx\"}", SC_ERR_UTF8, O_NONE),
    R("high surrogate then \\u0041", "{\"content\":\"\\ud83d\\u0041\"}", SC_ERR_UTF8, O_NONE),
    R("two high surrogates", "{\"content\":\"\\ud83d\\ud83d\"}", SC_ERR_UTF8, O_NONE),
    R("reversed surrogate pair", "{\"content\":\"\\ude00\\ud83d\"}", SC_ERR_UTF8, O_NONE),
    R("invalid UTF-8 in a tag", "{\"tags\":[[\"\xc3\x28\"]]}", SC_ERR_UTF8, O_NONE),
    R("invalid UTF-8 in an unknown key", "{\"\xfe\":1}", SC_ERR_UTF8, O_NONE),
    R("invalid UTF-8 in an unknown value", "{\"x\":[\"\xed\xbf\xbf\"]}", SC_ERR_UTF8, O_NONE),
    R("invalid UTF-8 after the object", "{\"kind\":1}\xff", SC_ERR_UTF8, O_NONE),
    R("invalid UTF-8 where a value goes", "{\"kind\":\x80}", SC_ERR_UTF8, O_NONE),
    /* fields: missing, duplicated, ill-typed */
    R("missing sig",
      "{\"id\":\"" H64 "\",\"pubkey\":\"" H64 "\",\"created_at\":1,\"kind\":1,"
      "\"tags\":[],\"content\":\"\"}",
      SC_ERR_EVENT_FIELD, O_ALL),
    R("missing content",
      "{\"id\":\"" H64 "\",\"pubkey\":\"" H64 "\",\"created_at\":1,"
      "\"kind\":1,\"tags\":[],\"sig\":\"" H64 H64 "\"}",
      SC_ERR_EVENT_FIELD, O_ALL),
    R("empty object, all required", "{}", SC_ERR_EVENT_FIELD, O_ALL),
    R("duplicate kind", "{\"kind\":1,\"kind\":1}", SC_ERR_EVENT_FIELD, O_NONE),
    R("duplicate content", "{\"content\":\"\",\"content\":\"\"}", SC_ERR_EVENT_FIELD, O_NONE),
    R("duplicate tags", "{\"tags\":[],\"tags\":[]}", SC_ERR_EVENT_FIELD, O_NONE),
    R("duplicate via an escaped key", "{\"sig\":\"" H64 H64 "\",\"s\\u0069g\":\"" H64 H64 "\"}",
      SC_ERR_EVENT_FIELD, O_NONE),
    R("kind as a string", "{\"kind\":\"1\"}", SC_ERR_EVENT_FIELD, O_NONE),
    R("kind as true", "{\"kind\":true}", SC_ERR_EVENT_FIELD, O_NONE),
    R("created_at as a string", "{\"created_at\":\"1700000000\"}", SC_ERR_EVENT_FIELD, O_NONE),
    R("created_at null", "{\"created_at\":null}", SC_ERR_EVENT_FIELD, O_NONE),
    R("content as a number", "{\"content\":1}", SC_ERR_EVENT_FIELD, O_NONE),
    R("content null", "{\"content\":null}", SC_ERR_EVENT_FIELD, O_NONE),
    R("content as an array", "{\"content\":[\"a\"]}", SC_ERR_EVENT_FIELD, O_NONE),
    R("tags as an object", "{\"tags\":{}}", SC_ERR_EVENT_FIELD, O_NONE),
    R("tags as a string", "{\"tags\":\"[]\"}", SC_ERR_EVENT_FIELD, O_NONE),
    R("tags null", "{\"tags\":null}", SC_ERR_EVENT_FIELD, O_NONE),
    R("a tag that is a string", "{\"tags\":[\"e\"]}", SC_ERR_EVENT_FIELD, O_NONE),
    R("a tag that is an object", "{\"tags\":[{}]}", SC_ERR_EVENT_FIELD, O_NONE),
    R("an empty tag", "{\"tags\":[[\"e\"],[]]}", SC_ERR_EVENT_FIELD, O_NONE),
    R("a tag item that is a number", "{\"tags\":[[\"e\",1]]}", SC_ERR_EVENT_FIELD, O_NONE),
    R("a tag item that is null", "{\"tags\":[[\"e\",null]]}", SC_ERR_EVENT_FIELD, O_NONE),
    R("a tag item that is an array", "{\"tags\":[[\"e\",[\"x\"]]]}", SC_ERR_EVENT_FIELD, O_NONE),
    R("id in upper case",
      FULL_EV("0123456789ABCDEF0123456789abcdef0123456789abcdef0123456789"
              "abcdef",
              "1", "1", "[]", "\"\""),
      SC_ERR_EVENT_FIELD, O_ALL),
    R("id of 63 characters",
      "{\"id\":\""
      "123456789abcdef0123456789abcdef0123456789abcdef0123"
      "456789abcdef\"}",
      SC_ERR_EVENT_FIELD, O_NONE),
    R("id of 65 characters", "{\"id\":\"0" H64 "\"}", SC_ERR_EVENT_FIELD, O_NONE),
    R("id empty", "{\"id\":\"\"}", SC_ERR_EVENT_FIELD, O_NONE),
    R("id as a number", "{\"id\":1}", SC_ERR_EVENT_FIELD, O_NONE),
    R("id null", "{\"id\":null}", SC_ERR_EVENT_FIELD, O_NONE),
    R("pubkey with a non-hex letter",
      "{\"pubkey\":\"g123456789abcdef0123456789abcdef01234567"
      "89abcdef0123456789abcdef\"}",
      SC_ERR_EVENT_FIELD, O_NONE),
    R("pubkey with an escaped upper-case digit",
      "{\"pubkey\":\"\\u0041123456789abcdef012345"
      "6789abcdef0123456789abcdef0123456789abcdef\"}",
      SC_ERR_EVENT_FIELD, O_NONE),
    R("pubkey with a space",
      "{\"pubkey\":\" 123456789abcdef0123456789abcdef0123456789abcdef"
      "0123456789abcdef\"}",
      SC_ERR_EVENT_FIELD, O_NONE),
    R("sig of 126 characters",
      "{\"sig\":\""
      "23456789abcdef0123456789abcdef0123456789abcdef"
      "0123456789abcdef" H64 "\"}",
      SC_ERR_EVENT_FIELD, O_NONE),
    R("sig of 64 characters", "{\"sig\":\"" H64 "\"}", SC_ERR_EVENT_FIELD, O_NONE),
    R("top-level array", "[]", SC_ERR_EVENT_FIELD, O_NONE),
    R("top-level string", " \"x\" ", SC_ERR_EVENT_FIELD, O_NONE),
    R("top-level number", "1", SC_ERR_EVENT_FIELD, O_NONE),
    R("the first field error wins (field)", "{\"tags\":{},\"kind\":70000}", SC_ERR_EVENT_FIELD,
      O_NONE),
    /* ranges */
    R("created_at -1", "{\"created_at\":-1}", SC_ERR_EVENT_RANGE, O_NONE),
    R("created_at -0", "{\"created_at\":-0}", SC_ERR_EVENT_RANGE, O_NONE),
    R("created_at 1.5", "{\"created_at\":1.5}", SC_ERR_EVENT_RANGE, O_NONE),
    R("created_at 1.0", "{\"created_at\":1.0}", SC_ERR_EVENT_RANGE, O_NONE),
    R("created_at 1e3", "{\"created_at\":1e3}", SC_ERR_EVENT_RANGE, O_NONE),
    R("created_at 1E+3", "{\"created_at\":1E+3}", SC_ERR_EVENT_RANGE, O_NONE),
    R("created_at 2^63", "{\"created_at\":9223372036854775808}", SC_ERR_EVENT_RANGE, O_NONE),
    R("created_at 2^64", "{\"created_at\":18446744073709551616}", SC_ERR_EVENT_RANGE, O_NONE),
    R("created_at of 30 digits", "{\"created_at\":123456789012345678901234567890}",
      SC_ERR_EVENT_RANGE, O_NONE),
    R("kind 65536", "{\"kind\":65536}", SC_ERR_EVENT_RANGE, O_NONE),
    R("kind -1", "{\"kind\":-1}", SC_ERR_EVENT_RANGE, O_NONE),
    R("kind 1E2", "{\"kind\":1E2}", SC_ERR_EVENT_RANGE, O_NONE),
    R("kind 1.0", "{\"kind\":1.0}", SC_ERR_EVENT_RANGE, O_NONE),
    R("kind 2^32 + 1", "{\"kind\":4294967297}", SC_ERR_EVENT_RANGE, O_NONE),
    R("kind in a full event", FULL_EV(H64, "1", "65536", "[]", "\"\""), SC_ERR_EVENT_RANGE, O_ALL),
    R("the first field error wins (range)", "{\"kind\":70000,\"tags\":{}}", SC_ERR_EVENT_RANGE,
      O_NONE),
    /* limits */
    R("over max_input", "{\"kind\":1,\"x\":11}", SC_ERR_TOO_LARGE, O_SMALL),
    R("over max_input, even if garbage", "@@@@@@@@@@@@@@@@@", SC_ERR_TOO_LARGE, O_SMALL),
    R("unknown value 3 deep, limit 2", "{\"x\":[[[]]]}", SC_ERR_TOO_LARGE, O_DEPTH2),
    R("unknown object 3 deep, limit 2", "{\"x\":{\"a\":{\"b\":{}}}}", SC_ERR_TOO_LARGE, O_DEPTH2),
    R("ill-typed known field 3 deep, limit 2", "{\"content\":[[[1]]]}", SC_ERR_TOO_LARGE, O_DEPTH2),
    R("a tag item 3 deep, limit 2", "{\"tags\":[[\"e\",[[[]]]]]}", SC_ERR_TOO_LARGE, O_DEPTH2),
};

static const sc_event_parse_opts *opts_of(int which, sc_event_parse_opts *o)
{
    memset(o, 0, sizeof *o);
    o->optional = SC_EVENT_HAS_ALL;
    switch (which) {
    case O_ALL:
        return NULL;
    case O_SMALL:
        o->max_input = 16;
        break;
    case O_DEPTH2:
        o->max_depth = 2;
        break;
    default:
        break;
    }
    return o;
}

void test_parse_rejects(void **state)
{
    uint8_t arena[1024];
    size_t k, used, per[5] = {0};
    sc_event_parse_opts o;
    sc_event ev;

    (void)state;
    assert_true(sizeof k_rejects / sizeof k_rejects[0] >= 40);
    for (k = 0; k < sizeof k_rejects / sizeof k_rejects[0]; k++) {
        const reject *r = &k_rejects[k];
        sc_status st;

        memset(arena, 0x5a, sizeof arena);
        used = 99;
        st = ev_parse_exact(&ev, arena, sizeof arena, &used, r->json, r->len, opts_of(r->opts, &o));
        if (st != r->want) {
            fail_msg("reject %zu (%s): got %s, expected %s", k, r->name, sc_status_name(st),
                     sc_status_name(r->want));
        }
        assert_true(vt_all_zero((const uint8_t *)&ev, sizeof ev));
        assert_int_equal(used, 0);
        per[r->want == SC_ERR_JSON          ? 0
            : r->want == SC_ERR_UTF8        ? 1
            : r->want == SC_ERR_EVENT_FIELD ? 2
            : r->want == SC_ERR_EVENT_RANGE ? 3
                                            : 4]++;
    }
    printf("[parse] %zu rejects: %zu JSON, %zu UTF8, %zu EVENT_FIELD, %zu EVENT_RANGE, "
           "%zu TOO_LARGE\n",
           k, per[0], per[1], per[2], per[3], per[4]);
}

/* ---- the arena ---------------------------------------------------------------------------- */

/* Every view of ev lies inside arena[0..used). */
static void assert_views_inside(const sc_event *ev, const uint8_t *arena, size_t used)
{
    size_t t, i;

#define INSIDE(p, n)                                                                               \
    assert_true((n) == 0 ||                                                                        \
                ((const uint8_t *)(p) >= arena && (const uint8_t *)(p) + (n) <= arena + used))
    INSIDE(ev->tags, ev->n_tags * sizeof(sc_tag));
    INSIDE(ev->content.ptr, ev->content.len);
    for (t = 0; t < ev->n_tags; t++) {
        INSIDE(ev->tags[t].items, ev->tags[t].n_items * sizeof(sc_str));
        for (i = 0; i < ev->tags[t].n_items; i++) {
            INSIDE(ev->tags[t].items[i].ptr, ev->tags[t].items[i].len);
        }
    }
#undef INSIDE
}

void test_parse_arena(void **state)
{
    ev_env *env = ev_env_of(state);
    static signed_event s;
    /* 2 tags, 4 strings, "e"+"abc"+"t"+"A/b" and 10 content bytes */
    const size_t exact = 2 * sizeof(sc_tag) + 4 * sizeof(sc_str) + 8 + 10;
    uint8_t *arena, *block;
    size_t len, used, need, off, i;
    sc_event ev;
    char *json;

    make_signed(env, &s);
    json = ev_to_json(&s.ev, SC_EVENT_JSON_OBJECT, &len);

    /* measuring with no arena gives the exact need; the bound covers it */
    VT_ASSERT_STATUS(sc_event_parse(&ev, NULL, 0, &need, json, len, NULL), SC_ERR_BUFFER_TOO_SMALL);
    assert_int_equal(need, exact);
    assert_true(sc_event_parse_arena_max(len) >= need);
    assert_true(vt_all_zero((const uint8_t *)&ev, sizeof ev));

    for (off = 0; off < 8; off++) {
        block = vt_alloc(exact + 16);
        arena = block + off;
        /* the need at this address, then one byte short: nothing written */
        VT_ASSERT_STATUS(sc_event_parse(&ev, arena, 1, &need, json, len, NULL),
                         SC_ERR_BUFFER_TOO_SMALL);
        assert_true(need >= exact && need < exact + sizeof(void *));
        memset(block, 0x5a, exact + 16);
        VT_ASSERT_STATUS(sc_event_parse(&ev, arena, need - 1, &used, json, len, NULL),
                         SC_ERR_BUFFER_TOO_SMALL);
        assert_int_equal(used, need);
        for (i = 0; i < exact + 16; i++) {
            assert_int_equal(block[i], 0x5a);
        }
        /* exactly the need: success, all views inside, aligned arrays */
        VT_ASSERT_STATUS(sc_event_parse(&ev, arena, need, &used, json, len, NULL), SC_OK);
        assert_int_equal(used, need);
        assert_views_inside(&ev, arena, used);
        assert_int_equal((uintptr_t)ev.tags % sizeof(void *), 0);
        assert_int_equal((uintptr_t)ev.tags[0].items % sizeof(void *), 0);
        ev_assert_same(&s.ev, &ev);
        /* nothing past the need was touched */
        for (i = off + need; i < exact + 16; i++) {
            assert_int_equal(block[i], 0x5a);
        }
        free(block);
    }
    free(json);

    /* no tags and empty content need no arena at all */
    {
        static const char empty[] = "{\"tags\":[],\"content\":\"\",\"kind\":7}";
        sc_event_parse_opts o = {0, SC_EVENT_HAS_ALL, 0, NULL};

        VT_ASSERT_STATUS(ev_parse_exact(&ev, NULL, 0, &used, empty, sizeof empty - 1, &o), SC_OK);
        assert_int_equal(used, 0);
        assert_int_equal(ev.kind, 7);
        assert_non_null(ev.content.ptr);
        assert_int_equal(ev.content.len, 0);
        assert_null(ev.tags);
        assert_int_equal(ev.flags, SC_EVENT_HAS_TAGS | SC_EVENT_HAS_CONTENT | SC_EVENT_HAS_KIND);
    }
}

/* Fills buf with {"tags":[tag,tag,...]} up to about len bytes; returns the length. */
static size_t tags_text(char *buf, size_t cap, const char *tag, size_t count)
{
    size_t n = (size_t)snprintf(buf, cap, "{\"tags\":["), k, tl = strlen(tag);

    for (k = 0; k < count; k++) {
        assert_true(n + tl + 4 < cap);
        if (k != 0) {
            buf[n++] = ',';
        }
        memcpy(buf + n, tag, tl);
        n += tl;
    }
    memcpy(buf + n, "]}", 2);
    return n + 2;
}

void test_parse_opts(void **state)
{
    static const char rumor[] = "{\"id\":\"" H64 "\",\"pubkey\":\"" H64 "\",\"created_at\":1,"
                                "\"kind\":1,\"tags\":[],\"content\":\"\"}";
    static char big[(1 << 20) + 64];
    static uint8_t arena[(1 << 20) + 64];
    sc_event_parse_opts o = {0, 0, 0, NULL};
    sc_event ev;
    size_t used, n, depth, worst;
    char *deep;

    (void)state;
    /* require */
    o.optional = SC_EVENT_HAS_ALL & ~(unsigned)(SC_EVENT_RUMOR);
    VT_ASSERT_STATUS(ev_parse_exact(&ev, arena, 64, &used, rumor, sizeof rumor - 1, &o), SC_OK);
    assert_int_equal(ev.flags, SC_EVENT_RUMOR);
    o.optional = 0;
    VT_ASSERT_STATUS(ev_parse_exact(&ev, arena, 64, &used, rumor, sizeof rumor - 1, &o),
                     SC_ERR_EVENT_FIELD);
    VT_ASSERT_STATUS(ev_parse_exact(&ev, arena, 64, &used, rumor, sizeof rumor - 1, NULL),
                     SC_ERR_EVENT_FIELD);
    o.optional = SC_EVENT_HAS_ALL & ~(unsigned)(SC_EVENT_HAS_CONTENT);
    VT_ASSERT_STATUS(ev_parse_exact(&ev, arena, 64, &used, "{}", 2, &o), SC_ERR_EVENT_FIELD);
    o.optional = SC_EVENT_HAS_ALL;
    VT_ASSERT_STATUS(ev_parse_exact(&ev, arena, 64, &used, "{}", 2, &o), SC_OK);
    assert_int_equal(ev.flags, 0);
    o.optional = 128;
    VT_ASSERT_STATUS(ev_parse_exact(&ev, arena, 64, &used, "{}", 2, &o), SC_ERR_FLAGS);
    o.optional = SC_EVENT_HAS_ALL;

    /* max_depth: exactly at the limit passes, one more is too deep */
    deep = (char *)vt_alloc(4200);
    for (depth = 1; depth <= SC_EVENT_PARSE_MAX_DEPTH + 1; depth++) {
        unsigned limit = depth <= 40 ? 0u : (unsigned)SC_EVENT_PARSE_MAX_DEPTH;
        unsigned eff = limit == 0 ? 32u : limit;
        size_t k;

        if (depth > 40 && depth < SC_EVENT_PARSE_MAX_DEPTH - 1) {
            continue;
        }
        n = (size_t)snprintf(deep, 16, "{\"x\":");
        for (k = 0; k < depth; k++) {
            deep[n++] = k % 2 ? '[' : '{';
            if (k % 2 == 0) {
                memcpy(deep + n, "\"k\":", 4);
                n += 4;
            }
        }
        deep[n++] = '1';
        for (k = depth; k-- > 0;) {
            deep[n++] = k % 2 ? ']' : '}';
        }
        deep[n++] = '}';
        o.max_depth = limit;
        VT_ASSERT_STATUS(ev_parse_exact(&ev, arena, 64, &used, deep, n, &o),
                         depth <= eff ? SC_OK : SC_ERR_TOO_LARGE);
    }
    o.max_depth = SC_EVENT_PARSE_MAX_DEPTH + 1;
    VT_ASSERT_STATUS(ev_parse_exact(&ev, arena, 64, &used, "{}", 2, &o), SC_ERR_ARG);
    o.max_depth = 0;
    free(deep);

    /* max_input: the default is 1 MiB, checked before anything is read */
    memset(big, ' ', sizeof big);
    memcpy(big, "{\"content\":\"", 12);
    memset(big + 12, 'a', (1 << 20) - 14);
    memcpy(big + (1 << 20) - 2, "\"}", 2);
    VT_ASSERT_STATUS(sc_event_parse(&ev, arena, sizeof arena, &used, big, 1 << 20, &o), SC_OK);
    assert_int_equal(ev.content.len, (1 << 20) - 14);
    VT_ASSERT_STATUS(sc_event_parse(&ev, arena, sizeof arena, &used, big, (1 << 20) + 1, &o),
                     SC_ERR_TOO_LARGE);
    o.max_input = 5;
    VT_ASSERT_STATUS(ev_parse_exact(&ev, arena, 64, &used, "{ } ", 4, &o), SC_OK);
    VT_ASSERT_STATUS(ev_parse_exact(&ev, arena, 64, &used, "{  } ", 5, &o), SC_OK);
    VT_ASSERT_STATUS(ev_parse_exact(&ev, arena, 64, &used, "{   } ", 6, &o), SC_ERR_TOO_LARGE);
    o.max_input = 0;

    /* the bound holds for the densest inputs: many one-string tags, many strings */
    for (worst = 0; worst < 3; worst++) {
        static const char *const shapes[] = {"[\"\"]", "[\"\",\"\",\"\",\"\",\"\",\"\"]",
                                             "[\"\\u00e9\\n\"]"};
        size_t need = 0;

        n = tags_text(big, sizeof big, shapes[worst], 5000);
        VT_ASSERT_STATUS(sc_event_parse(&ev, NULL, 0, &need, big, n, &o), SC_ERR_BUFFER_TOO_SMALL);
        assert_true(need <= sc_event_parse_arena_max(n));
        VT_ASSERT_STATUS(
            sc_event_parse(&ev, arena + 3, sc_event_parse_arena_max(n), &used, big, n, &o), SC_OK);
        assert_int_equal(ev.n_tags, 5000);
    }
    assert_true(sc_event_parse_arena_max((size_t)-1) == 0);
    assert_true(sc_event_parse_arena_max(0) >= 1);

    /* argument checks */
    VT_ASSERT_STATUS(sc_event_parse(vt_null(), arena, 64, &used, "{}", 2, &o), SC_ERR_ARG);
    VT_ASSERT_STATUS(sc_event_parse(&ev, arena, 64, vt_null(), "{}", 2, &o), SC_ERR_ARG);
    VT_ASSERT_STATUS(sc_event_parse(&ev, arena, 64, &used, NULL, 2, &o), SC_ERR_ARG);
    VT_ASSERT_STATUS(sc_event_parse(&ev, NULL, 64, &used, "{}", 2, &o), SC_ERR_ARG);
    VT_ASSERT_STATUS(sc_event_parse(&ev, arena, 64, &used, NULL, 0, &o), SC_ERR_JSON);
}

/* ---- truncations and mutations ---------------------------------------------------------- */

void test_parse_prefixes(void **state)
{
    ev_env *env = ev_env_of(state);
    static signed_event s;
    uint8_t arena[2048];
    char json[2048];
    size_t n, cut, used, utf8 = 0;
    sc_event ev;

    make_signed(env, &s);
    n = expand(&s, k_alternatives[3], json, sizeof json);
    VT_ASSERT_STATUS(ev_parse_exact(&ev, arena, sizeof arena, &used, json, n, NULL), SC_OK);
    for (cut = 0; cut < n; cut++) {
        sc_status st = ev_parse_exact(&ev, arena, sizeof arena, &used, json, cut, NULL);
        /* a cut inside a multi-byte character leaves a truncated sequence */
        int mid_char = cut < n && ((uint8_t)json[cut] & 0xc0) == 0x80;

        if (st != (mid_char ? SC_ERR_UTF8 : SC_ERR_JSON)) {
            fail_msg("prefix of %zu bytes: %s", cut, sc_status_name(st));
        }
        utf8 += mid_char;
    }
    assert_true(utf8 > 0);
}

void test_parse_mutations(void **state)
{
    static const uint8_t k_bytes[] = {'"',  '\\', '{',  '}',  '[',  ']',  ',',  ':',  '0',
                                      '9',  '-',  'e',  '.',  'u',  ' ',  '\n', 0x00, 0x1f,
                                      0x7f, 0x80, 0xc3, 0xed, 0xf0, 0xff, 't',  'n'};
    ev_env *env = ev_env_of(state);
    static signed_event s;
    static uint8_t arena[8192];
    char base[2048], json[2100];
    size_t n, round, hist[6] = {0};
    sc_event ev, back;

    make_signed(env, &s);
    n = expand(&s, k_alternatives[3], base, sizeof base);
    vt_rand_seed(0x5eed0002);
    for (round = 0; round < 20000; round++) {
        size_t len = n, edits = 1 + vt_rand_below(3), e, used = 0;
        sc_status st;

        memcpy(json, base, n);
        for (e = 0; e < edits; e++) {
            size_t at = vt_rand_below(len), kind = vt_rand_below(4);
            uint8_t b = vt_rand_below(3) == 0 ? (uint8_t)vt_rand_u64()
                                              : k_bytes[vt_rand_below(sizeof k_bytes)];

            if (kind == 0 && len > 1) { /* delete */
                memmove(json + at, json + at + 1, len - at - 1);
                len--;
            } else if (kind == 1 && len < sizeof json) { /* insert */
                memmove(json + at + 1, json + at, len - at);
                json[at] = (char)b;
                len++;
            } else { /* replace */
                json[at] = (char)b;
            }
        }
        st = ev_parse_exact(&ev, arena, sizeof arena, &used, json, len, NULL);
        switch (st) {
        case SC_OK: {
            /* whatever was accepted serializes and reparses to itself */
            size_t olen;
            char *obj = ev_to_json(&ev, SC_EVENT_JSON_OBJECT, &olen);
            static uint8_t arena2[8192];

            VT_ASSERT_STATUS(ev_parse_exact(&back, arena2, sizeof arena2, &used, obj, olen, NULL),
                             SC_OK);
            ev_assert_same(&ev, &back);
            free(obj);
            hist[0]++;
            break;
        }
        case SC_ERR_JSON:
            hist[1]++;
            break;
        case SC_ERR_UTF8:
            hist[2]++;
            break;
        case SC_ERR_EVENT_FIELD:
            hist[3]++;
            break;
        case SC_ERR_EVENT_RANGE:
            hist[4]++;
            break;
        case SC_ERR_TOO_LARGE:
            hist[5]++;
            break;
        default:
            fail_msg("mutation %zu: unexpected %s", round, sc_status_name(st));
        }
        if (st != SC_OK) {
            assert_true(vt_all_zero((const uint8_t *)&ev, sizeof ev));
            assert_int_equal(used, 0);
        }
    }
    printf("[parse] 20000 mutations: %zu accepted, %zu JSON, %zu UTF8, %zu EVENT_FIELD, "
           "%zu EVENT_RANGE, %zu TOO_LARGE\n",
           hist[0], hist[1], hist[2], hist[3], hist[4], hist[5]);
    assert_true(hist[0] > 0 && hist[1] > 0 && hist[2] > 0 && hist[3] > 0);
}

/* opts->error names where a parse failed: the offset of the failing byte or value and the
 * field, for syntax errors, field errors, a missing field, and an oversized input; NULL
 * options behave exactly as zeroed ones (all seven fields required). */
void test_parse_error_detail(void **state)
{
    static const struct {
        const char *json;
        sc_status want;
        size_t offset;
        const char *field;
    } k_cases[] = {
        {"{\"kind\":1,}", SC_ERR_JSON, 10, NULL},
        {"{\"kind\":-1}", SC_ERR_EVENT_RANGE, 10, "kind"},
        {"{\"kind\":1,\"kind\":2}", SC_ERR_EVENT_FIELD, 17, "kind"},
        {"{\"content\":7}", SC_ERR_EVENT_FIELD, 11, "content"},
        {"{\"tags\":[[]]}", SC_ERR_EVENT_FIELD, 11, "tags"},
        {"[1]", SC_ERR_EVENT_FIELD, 3, NULL},
        {"{\"kind\":1}", SC_ERR_EVENT_FIELD, 10, "id"},
        {"{\"content\":\"a\x01\"}", SC_ERR_JSON, 13, NULL},
    };
    uint8_t arena[256];
    sc_event_parse_error err;
    sc_event_parse_opts o;
    sc_event ev, ev2;
    size_t k, used, used2;

    (void)state;
    for (k = 0; k < sizeof k_cases / sizeof k_cases[0]; k++) {
        size_t len = strlen(k_cases[k].json);
        sc_status st;

        memset(&o, 0, sizeof o);
        memset(&err, 0x5a, sizeof err);
        o.error = &err;
        st = sc_event_parse(&ev, arena, sizeof arena, &used, k_cases[k].json, len, &o);
        VT_ASSERT_STATUS(st, k_cases[k].want);
        assert_int_equal(err.offset, k_cases[k].offset);
        if (k_cases[k].field == NULL) {
            assert_null(err.field);
        } else {
            assert_non_null(err.field);
            assert_string_equal(err.field, k_cases[k].field);
        }
        /* NULL options: the same status as zeroed ones */
        o.error = NULL;
        VT_ASSERT_STATUS(
            sc_event_parse(&ev2, arena, sizeof arena, &used2, k_cases[k].json, len, NULL), st);
    }
    /* an oversized input: offset 0; an unknown optional bit: SC_ERR_FLAGS */
    memset(&o, 0, sizeof o);
    o.error = &err;
    o.max_input = 4;
    VT_ASSERT_STATUS(sc_event_parse(&ev, arena, sizeof arena, &used, "{\"kind\":1}", 10, &o),
                     SC_ERR_TOO_LARGE);
    assert_int_equal(err.offset, 0);
    assert_null(err.field);
    o.max_input = 0;
    o.optional = 1u << 7;
    VT_ASSERT_STATUS(sc_event_parse(&ev, arena, sizeof arena, &used, "{}", 2, &o), SC_ERR_FLAGS);
}
