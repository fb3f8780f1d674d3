/* The event half of the robustness suite: mutated event JSON texts go to sc_event_parse
 * (into an arena of exactly the size the library asks for), and whatever parses is written
 * back out, re-parsed, and verified. Besides the breaking mutations, a quarter of the texts
 * get only mutations that keep valid JSON valid (whitespace between tokens, \u escapes of
 * plain characters): those must still parse and verify. */
#include "test_robust.h"

/* JSON-significant fragments, escapes, and bytes that are not valid UTF-8. */
static const char *const json_tokens[] = {
    "\"",
    "\\",
    "{",
    "}",
    "[",
    "]",
    ",",
    ":",
    "0",
    "1",
    "9",
    "-",
    "+",
    ".",
    "e",
    "E",
    "\\u",
    "\\u0000",
    "\\u0041",
    "\\ud800",
    "\\udc00",
    "\\ud83e\\udd84",
    "\\ud83e",
    "\\\"",
    "\\/",
    "\\n",
    "\\x",
    "null",
    "true",
    "false",
    "1e5",
    "-0",
    "0.5",
    "99999999999999999999",
    "-1",
    "65536",
    "[]",
    "{}",
    "[[]]",
    "\"\"",
    " ",
    "\t",
    "\r\n",
    "\xc3\xa9",
    "\xe2\x80\xa8",
    "\xf0\x9f\xa6\x84",
    "\x80",
    "\xbf",
    "\xc0\x80",
    "\xc1\xbf",
    "\xed\xa0\x80",
    "\xef\xbf\xbf",
    "\xf4\x90\x80\x80",
    "\xf8\x88\x80\x80\x80",
    "\xfe",
    "\xff",
    "\xe2\x82",
    "\xf0\x9f\xa6",
    "\"id\":",
    "\"kind\":",
    "\"tags\":",
    "\"content\":",
    "\"sig\":",
    "\"pubkey\":",
    "\"created_at\":",
    "[\"e\"]",
    "[\"e\",1]",
};

/* Classifies each byte: outside strings, a string's quote, a plain character inside a string,
 * or part of an escape. Best effort on already-broken text. */
enum {
    POS_OUTSIDE = 0,
    POS_PLAIN = 1,
    POS_ESCAPE = 2,
    POS_QUOTE = 3
};

static void classify(const rb_buf *b, uint8_t *cls)
{
    size_t i;
    int in = 0, esc = 0;

    for (i = 0; i < b->len; i++) {
        uint8_t c = b->p[i];

        if (!in) {
            cls[i] = c == '"' ? POS_QUOTE : POS_OUTSIDE;
            in = c == '"';
        } else if (esc > 0) {
            cls[i] = POS_ESCAPE;
            if (esc == 1 && c == 'u') {
                esc = 5;
            }
            esc--;
        } else if (c == '\\') {
            cls[i] = POS_ESCAPE;
            esc = 1;
        } else if (c == '"') {
            cls[i] = POS_QUOTE;
            in = 0;
        } else {
            cls[i] = POS_PLAIN;
        }
    }
}

static int is_struct_or_ws(uint8_t c)
{
    return c == '{' || c == '}' || c == '[' || c == ']' || c == ',' || c == ':' || c == ' ' ||
           c == '\t' || c == '\n' || c == '\r';
}

/* Whether whitespace may go before byte i of a valid text (i == len: at the end): not inside
 * a string and not inside a number or a literal. */
static int ws_ok(const rb_buf *b, const uint8_t *cls, size_t i)
{
    int prev_str, cur_str;

    if (i == 0 || i == b->len) {
        return 1;
    }
    prev_str = cls[i - 1] != POS_OUTSIDE;
    cur_str = cls[i] != POS_OUTSIDE;
    if (prev_str && cur_str) {
        /* inside a string, unless a closing quote meets an opening one (never in valid JSON) */
        return 0;
    }
    return prev_str != cur_str || is_struct_or_ws(b->p[i - 1]) || is_struct_or_ws(b->p[i]);
}

/* A random byte of class `want`, or SIZE_MAX if there is none. */
static size_t pick_class(const rb_buf *b, const uint8_t *cls, int want)
{
    size_t i, n = 0, k;

    for (i = 0; i < b->len; i++) {
        n += cls[i] == want;
    }
    if (n == 0) {
        return SIZE_MAX;
    }
    k = vt_rand_below(n);
    for (i = 0; i < b->len; i++) {
        if (cls[i] == want && k-- == 0) {
            return i;
        }
    }
    return SIZE_MAX;
}

/* Inserts whitespace between two tokens: keeps a valid text valid. */
static void keep_ws(rb_buf *b, uint8_t *cls)
{
    static const char *const ws[] = {" ", "\t", "\n", "\r\n", "  \n\t "};
    const char *w = ws[vt_rand_below(sizeof ws / sizeof ws[0])];
    size_t i, n = 0, k;

    classify(b, cls);
    for (i = 0; i <= b->len; i++) {
        n += (size_t)ws_ok(b, cls, i);
    }
    k = vt_rand_below(n);
    for (i = 0; i <= b->len; i++) {
        if (ws_ok(b, cls, i) && k-- == 0) {
            rb_buf_insert(b, i, w, strlen(w));
            return;
        }
    }
}

/* Rewrites one plain ASCII character inside a string as \u00XX: keeps a valid text valid. */
static void keep_escape(rb_buf *b, uint8_t *cls)
{
    static const char hexd[] = "0123456789abcdef";
    char e[6] = {'\\', 'u', '0', '0', 0, 0};
    size_t at, tries;

    classify(b, cls);
    for (tries = 0; tries < 8; tries++) {
        at = pick_class(b, cls, POS_PLAIN);
        if (at == SIZE_MAX) {
            return;
        }
        if (b->p[at] >= 0x20 && b->p[at] < 0x7f) {
            e[4] = hexd[b->p[at] >> 4];
            e[5] = hexd[b->p[at] & 15];
            rb_buf_delete(b, at, 1);
            rb_buf_insert(b, at, e, sizeof e);
            return;
        }
    }
}

static const rb_known *find_known(const rb_env *env, const uint8_t id[32])
{
    size_t i;

    for (i = 0; i < env->n_known; i++) {
        if (memcmp(env->known[i].id, id, 32) == 0) {
            return &env->known[i];
        }
    }
    return NULL;
}

static int is_parse_status(sc_status st)
{
    return st == SC_OK || st == SC_ERR_JSON || st == SC_ERR_UTF8 || st == SC_ERR_EVENT_FIELD ||
           st == SC_ERR_EVENT_RANGE || st == SC_ERR_TOO_LARGE;
}

static int event_is_zero(const sc_event *ev)
{
    return vt_all_zero(ev->id, sizeof ev->id) && vt_all_zero(ev->pubkey, sizeof ev->pubkey) &&
           vt_all_zero(ev->sig, sizeof ev->sig) && ev->created_at == 0 && ev->kind == 0 &&
           ev->tags == NULL && ev->n_tags == 0 && ev->content.ptr == NULL && ev->content.len == 0 &&
           ev->flags == 0;
}

/* Writes the canonical (or object) text of ev into a malloc'd buffer; NULL on failure. */
static char *to_json(const sc_event *ev, unsigned flags, size_t *len)
{
    size_t need = sc_event_to_json_len(ev, flags), got = 0;
    char *out;

    if (need == 0) {
        return NULL;
    }
    out = (char *)vt_alloc(need);
    if (sc_event_to_json(out, need, &got, ev, flags) != SC_OK || got != need) {
        free(out);
        return NULL;
    }
    *len = got;
    return out;
}

/* Parses into an arena of exactly the size the library asks for (ASan sees any overrun). */
static sc_status parse_exact(sc_event *ev, void **arena, const uint8_t *in, size_t len,
                             const sc_event_parse_opts *opts)
{
    size_t need = 0, used = 0;
    sc_status st = sc_event_parse(ev, NULL, 0, &need, (const char *)in, len, opts);

    *arena = NULL;
    if (st != SC_ERR_BUFFER_TOO_SMALL) {
        return st;
    }
    *arena = malloc(need);
    if (*arena == NULL) {
        return SC_ERR_NOMEM;
    }
    st = sc_event_parse(ev, *arena, need, &used, (const char *)in, len, opts);
    return st == SC_OK && used != need ? SC_ERR_INTERNAL : st;
}

static void check_event_input(rb_env *env, rb_stats *s, unsigned long iter, const uint8_t *in,
                              size_t len, int must_be_valid, const sc_event_parse_opts *opts)
{
    sc_event ev, ev2;
    void *arena = NULL, *arena2 = NULL;
    char *canon = NULL, *obj = NULL, *canon2 = NULL;
    size_t canon_len = 0, obj_len = 0, canon2_len = 0;
    const rb_known *k;
    sc_status st, vst;

    st = parse_exact(&ev, &arena, in, len, opts);
    rb_stat_status(s->by_status, st);
    if (strcmp(sc_status_name(st), "SC_UNKNOWN") == 0 || !is_parse_status(st)) {
        rb_report(s, iter, in, len, "sc_event_parse returned %s (%d)", sc_status_name(st), (int)st);
        goto out;
    }
    if (st != SC_OK) {
        if (!event_is_zero(&ev)) {
            rb_report(s, iter, in, len, "event not zeroed after %s", sc_status_name(st));
        } else if (must_be_valid) {
            rb_report(s, iter, in, len, "a still-valid text failed to parse: %s",
                      sc_status_name(st));
        }
        goto out;
    }
    s->ok++;
    if (ev.flags != SC_EVENT_SIGNED) {
        /* only with a relaxed opts->require: nothing to verify, but a verify call must still
         * give a documented status */
        vst = sc_event_verify(&env->ctx, &ev);
        if (vst != SC_ERR_EVENT_FIELD && vst != SC_OK && vst != SC_ERR_ID_MISMATCH &&
            vst != SC_ERR_INVALID_SIG) {
            rb_report(s, iter, in, len, "verify of a partial event: %s", sc_status_name(vst));
        }
        goto out;
    }
    /* Round trip: our object form re-parses to the same fields and canonical text. */
    canon = to_json(&ev, SC_EVENT_JSON_CANONICAL, &canon_len);
    obj = to_json(&ev, SC_EVENT_JSON_OBJECT, &obj_len);
    if (canon == NULL || obj == NULL) {
        rb_report(s, iter, in, len, "a parsed event cannot be serialised");
        goto out;
    }
    st = parse_exact(&ev2, &arena2, (const uint8_t *)obj, obj_len, NULL);
    canon2 = st == SC_OK ? to_json(&ev2, SC_EVENT_JSON_CANONICAL, &canon2_len) : NULL;
    if (canon2 == NULL || canon2_len != canon_len || memcmp(canon, canon2, canon_len) != 0 ||
        memcmp(ev.id, ev2.id, 32) != 0 || memcmp(ev.sig, ev2.sig, 64) != 0) {
        rb_report(s, iter, in, len, "object form does not round-trip (%s)", sc_status_name(st));
        goto out;
    }
    vst = sc_event_verify(&env->ctx, &ev);
    rb_stat_status(s->by_status2, vst);
    if (vst != SC_OK && vst != SC_ERR_ID_MISMATCH && vst != SC_ERR_INVALID_SIG) {
        rb_report(s, iter, in, len, "sc_event_verify returned %s", sc_status_name(vst));
        goto out;
    }
    if (vst != SC_OK) {
        if (must_be_valid) {
            rb_report(s, iter, in, len, "a still-valid event fails verification: %s",
                      sc_status_name(vst));
        }
        goto out;
    }
    s->verified++;
    k = find_known(env, ev.id);
    if (k == NULL || k->ser_len != canon_len || memcmp(k->ser, canon, canon_len) != 0) {
        rb_report(s, iter, in, len, "an event verifies that is not one of the signed events");
        goto out;
    }
    if (sc_event_verify(&env->ctx, &ev2) != SC_OK) {
        rb_report(s, iter, in, len, "the re-parsed object form does not verify");
    }
out:
    free(canon);
    free(obj);
    free(canon2);
    free(arena);
    free(arena2);
}

/* Sometimes relaxed or tight options, to reach the require / depth / size paths. */
static const sc_event_parse_opts *random_opts(sc_event_parse_opts *o, size_t len, int *relaxed)
{
    *relaxed = 0;
    if (vt_rand_below(8) != 0) {
        return NULL;
    }
    memset(o, 0, sizeof *o);
    switch (vt_rand_below(3)) {
    case 0:
        o->optional = SC_EVENT_HAS_ALL & ~(unsigned)((unsigned)vt_rand_below(128));
        o->optional &= ~(unsigned)SC_EVENT_HAS_PUBKEY; /* keep serialisation possible */
        break;
    case 1:
        o->optional = 0;
        o->max_depth = 1 + (unsigned)vt_rand_below(4);
        break;
    default:
        o->optional = 0;
        o->max_input = 1 + vt_rand_below(len + 16);
        break;
    }
    *relaxed = 1;
    return o;
}

void test_robust_events(void **state)
{
    rb_env *env = (rb_env *)*state;
    rb_stats s;
    rb_buf b;
    uint8_t *cls;
    unsigned long i, n = env->iterations / 2 + env->iterations % 2;

    memset(&s, 0, sizeof s);
    s.what = "events";
    if (env->n_ev == 0) {
        fail_msg("no event texts to mutate (is %s/%s there?)", env->own_dir, RB_EVENTS_FILE);
    }
    b.cap = RB_MAX_SEED_JSON + RB_MAX_GROWTH * 8;
    b.p = vt_alloc(b.cap);
    cls = vt_alloc(b.cap);
    vt_rand_seed(env->seed);
    for (i = 0; i < n; i++) {
        const rb_item *it = &env->ev[vt_rand_below(env->n_ev)];
        size_t rounds = 1 + vt_rand_below(4), r;
        int keep = it->valid && vt_rand_below(4) == 0, relaxed;
        sc_event_parse_opts o;
        const sc_event_parse_opts *opts;
        uint8_t *in;

        memcpy(b.p, it->text, it->len);
        b.len = it->len;
        for (r = 0; r < rounds; r++) {
            if (keep) {
                if (vt_rand_below(2) == 0) {
                    keep_ws(&b, cls);
                } else {
                    keep_escape(&b, cls);
                }
            } else {
                rb_mutate_any(&b, json_tokens, sizeof json_tokens / sizeof json_tokens[0]);
            }
        }
        s.preserved += (unsigned long)keep;
        opts = random_opts(&o, b.len, &relaxed);
        /* an exact-size copy: a read past the end is an ASan report */
        in = (uint8_t *)malloc(b.len != 0 ? b.len : 1);
        assert_non_null(in);
        memcpy(in, b.p, b.len);
        check_event_input(env, &s, i, in, b.len, keep && !relaxed, opts);
        free(in);
        s.runs++;
    }
    free(b.p);
    free(cls);
    rb_print_stats(env, &s, "sc_event_parse", "sc_event_verify");
    if (s.failures != 0) {
        fail_msg("%lu of %lu mutated events misbehaved (seed 0x%llx)", s.failures, s.runs,
                 (unsigned long long)env->seed);
    }
}
