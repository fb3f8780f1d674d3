/* Event parsing: a strict JSON reader into a caller arena, in two passes. Pass 1 validates
 * the whole text, decodes the fixed-size fields into the event and measures the arena; pass
 * 2 revisits only the tags array and the content string (their offsets were noted) and
 * unescapes them into the arena. Layout: the sc_tag array, then the sc_str array, then the
 * string bytes. Nothing is allocated and nothing outside json[0..json_len) is read. */
#include <softchat/mem.h>
#include <softchat/hex.h>
#include <softchat/event.h>

#include <string.h>

#include "event/event_align.h"
#include "util/json_scan.h"
#include "util/range.h"

typedef char sc_parse_depth_fits[(SC_EVENT_PARSE_MAX_DEPTH <= SC_JSCAN_DEPTH_LIMIT) ? 1 : -1];

#define DEFAULT_MAX_INPUT ((size_t)1 << 20)
#define DEFAULT_MAX_DEPTH 32u

enum {
    F_ID,
    F_PUBKEY,
    F_SIG,
    F_KIND,
    F_CREATED_AT,
    F_TAGS,
    F_CONTENT,
    F_COUNT
};

static const struct {
    const char *name;
    unsigned flag;
} k_fields[F_COUNT] = {
    {"id", SC_EVENT_HAS_ID},
    {"pubkey", SC_EVENT_HAS_PUBKEY},
    {"sig", SC_EVENT_HAS_SIG},
    {"kind", SC_EVENT_HAS_KIND},
    {"created_at", SC_EVENT_HAS_CREATED_AT},
    {"tags", SC_EVENT_HAS_TAGS},
    {"content", SC_EVENT_HAS_CONTENT},
};

/* Pass 2's destination. */
typedef struct fill {
    sc_tag *tags;
    sc_str *items;
    uint8_t *bytes;
    size_t n_tags, n_items, n_bytes; /* capacities measured by pass 1 */
    size_t t, i, b;                  /* used so far */
} fill;

typedef struct parser {
    sc_jscan s;
    unsigned max_depth;
    sc_status field_err; /* first field error; reading goes on so a syntax error still wins */
    size_t field_err_at; /* where it was found */
    int field_err_k;     /* the field concerned (F_COUNT: the text is not an object) */
    int cur;             /* the field being read, F_COUNT outside known fields */
    unsigned seen;       /* SC_EVENT_HAS_* */
    size_t n_tags, n_items, n_bytes;
    size_t tags_at, content_at; /* offsets of the tags '[' and the content '"' */
    sc_event *ev;
    fill *f; /* NULL in pass 1 */
} parser;

static void field_error(parser *ps, sc_status st)
{
    if (ps->field_err == SC_OK) {
        ps->field_err = st;
        ps->field_err_at = ps->s.pos;
        ps->field_err_k = ps->cur;
    }
}

/* A known field holding the wrong JSON type: noted, then skipped as any value. */
static sc_status wrong_type(parser *ps)
{
    field_error(ps, SC_ERR_EVENT_FIELD);
    return sc_jscan_skip(&ps->s, ps->max_depth);
}

/* After an element: ',' (*more = 1) or the closing byte (*more = 0), else an error. */
static sc_status next_or_close(parser *ps, int close, int *more)
{
    int c;

    sc_jscan_ws(&ps->s);
    c = sc_jscan_peek(&ps->s);
    if (c == ',' || c == close) {
        ps->s.pos++;
        *more = c == ',';
        return SC_OK;
    }
    return sc_jscan_bad(&ps->s);
}

/* id, pubkey or sig: exactly 2n lowercase hex characters once unescaped. The usual text,
 * 2n hex digits between two quotes, is decoded in place: hex digits are never escaped, so
 * the JSON string is then exactly those digits. Anything else takes the scanner's path. */
static sc_status parse_hex(parser *ps, uint8_t *out, size_t n)
{
    uint8_t buf[2 * SC_SIG_BYTES];
    const uint8_t *p = ps->s.p + ps->s.pos;
    size_t len;
    sc_status st;

    if (sc_jscan_peek(&ps->s) != '"') {
        return wrong_type(ps);
    }
    if (ps->s.len - ps->s.pos >= 2 * n + 2 && p[2 * n + 1] == '"' &&
        sc_hex_decode_fixed(out, n, (const char *)p + 1, 2 * n, SC_HEX_LOWER_ONLY) == SC_OK) {
        ps->s.pos += 2 * n + 2;
        return SC_OK;
    }
    st = sc_jscan_string(&ps->s, buf, sizeof buf, &len);
    if (st != SC_OK) {
        return st;
    }
    if (len != 2 * n ||
        sc_hex_decode_fixed(out, n, (const char *)buf, len, SC_HEX_LOWER_ONLY) != SC_OK) {
        field_error(ps, SC_ERR_EVENT_FIELD);
    }
    return SC_OK;
}

/* kind or created_at: a non-negative integer <= max in plain integer syntax. */
static sc_status parse_uint(parser *ps, uint64_t max, uint64_t *out)
{
    int c = sc_jscan_peek(&ps->s);
    uint64_t v = 0;
    sc_jnum num;
    sc_status st;
    size_t i;

    if (c != '-' && (c < '0' || c > '9')) {
        return wrong_type(ps);
    }
    st = sc_jscan_number(&ps->s, &num);
    if (st != SC_OK) {
        return st;
    }
    if (num.negative || num.fraction || num.exponent) {
        field_error(ps, SC_ERR_EVENT_RANGE);
        return SC_OK;
    }
    for (i = 0; i < num.n_digits; i++) {
        unsigned d = ps->s.p[num.digits + i] - (unsigned)'0';

        if (v > (max - d) / 10) {
            field_error(ps, SC_ERR_EVENT_RANGE);
            return SC_OK;
        }
        v = v * 10 + d;
    }
    *out = v;
    return SC_OK;
}

/* One string of a tag or the content: measured in pass 1, unescaped into the arena in
 * pass 2. */
static sc_status parse_text(parser *ps, sc_str *view)
{
    fill *f = ps->f;
    uint8_t *dst = f != NULL ? f->bytes + f->b : NULL;
    size_t len;
    sc_status st;

    st = sc_jscan_string(&ps->s, dst, f != NULL ? f->n_bytes - f->b : 0, &len);
    if (st != SC_OK) {
        return st;
    }
    ps->n_bytes += len;
    if (f != NULL) {
        if (len > f->n_bytes - f->b) {
            return SC_ERR_INTERNAL;
        }
        view->ptr = len != 0 ? (const char *)dst : "";
        view->len = len;
        f->b += len;
    }
    return SC_OK;
}

/* One tag, at its '[': a non-empty array of strings. */
static sc_status parse_tag(parser *ps)
{
    fill *f = ps->f;
    size_t first = f != NULL ? f->i : 0, n = 0;
    int more = 1;
    sc_status st;

    ps->s.pos++;
    sc_jscan_ws(&ps->s);
    if (sc_jscan_peek(&ps->s) == ']') {
        ps->s.pos++;
        field_error(ps, SC_ERR_EVENT_FIELD); /* an empty tag */
        return SC_OK;
    }
    while (more) {
        sc_jscan_ws(&ps->s);
        if (sc_jscan_peek(&ps->s) != '"') {
            st = wrong_type(ps);
        } else if (f != NULL && f->i == f->n_items) {
            st = SC_ERR_INTERNAL;
        } else {
            st = parse_text(ps, f != NULL ? &f->items[f->i++] : NULL);
            n++;
        }
        if (st == SC_OK) {
            st = next_or_close(ps, ']', &more);
        }
        if (st != SC_OK) {
            return st;
        }
    }
    ps->n_items += n;
    ps->n_tags++;
    if (f != NULL) {
        if (f->t == f->n_tags) {
            return SC_ERR_INTERNAL;
        }
        f->tags[f->t].items = f->items + first;
        f->tags[f->t].n_items = n;
        f->t++;
    }
    return SC_OK;
}

/* The tags array, at its '['. */
static sc_status parse_tags(parser *ps)
{
    int more = 1;
    sc_status st;

    ps->tags_at = ps->s.pos;
    ps->s.pos++;
    sc_jscan_ws(&ps->s);
    if (sc_jscan_peek(&ps->s) == ']') {
        ps->s.pos++;
        return SC_OK;
    }
    while (more) {
        sc_jscan_ws(&ps->s);
        st = sc_jscan_peek(&ps->s) == '[' ? parse_tag(ps) : wrong_type(ps);
        if (st == SC_OK) {
            st = next_or_close(ps, ']', &more);
        }
        if (st != SC_OK) {
            return st;
        }
    }
    return SC_OK;
}

/* The value of known field k (pass 1), at its first byte. */
static sc_status parse_field(parser *ps, int k)
{
    sc_event *ev = ps->ev;
    uint64_t v = 0;
    sc_status st;

    switch (k) {
    case F_ID:
        return parse_hex(ps, ev->id, SC_EVENT_ID_BYTES);
    case F_PUBKEY:
        return parse_hex(ps, ev->pubkey, SC_PUBKEY_BYTES);
    case F_SIG:
        return parse_hex(ps, ev->sig, SC_SIG_BYTES);
    case F_KIND:
        st = parse_uint(ps, SC_EVENT_KIND_MAX, &v);
        ev->kind = (uint32_t)v;
        return st;
    case F_CREATED_AT:
        st = parse_uint(ps, (uint64_t)INT64_MAX, &v);
        ev->created_at = (int64_t)v;
        return st;
    case F_TAGS:
        return sc_jscan_peek(&ps->s) == '[' ? parse_tags(ps) : wrong_type(ps);
    default:
        if (sc_jscan_peek(&ps->s) != '"') {
            return wrong_type(ps);
        }
        ps->content_at = ps->s.pos;
        return parse_text(ps, NULL);
    }
}

/* The field a key names, or F_COUNT for an unknown key. */
static int field_of(const uint8_t *key, size_t len)
{
    int k;

    for (k = 0; k < F_COUNT; k++) {
        if (strlen(k_fields[k].name) == len && memcmp(k_fields[k].name, key, len) == 0) {
            return k;
        }
    }
    return F_COUNT;
}

/* One "key": value member, at the key's '"'. */
static sc_status parse_member(parser *ps)
{
    uint8_t key[16];
    size_t len;
    sc_status st;
    int k;

    st = sc_jscan_string(&ps->s, key, sizeof key, &len);
    if (st != SC_OK) {
        return st;
    }
    sc_jscan_ws(&ps->s);
    if (sc_jscan_peek(&ps->s) != ':') {
        return sc_jscan_bad(&ps->s);
    }
    ps->s.pos++;
    sc_jscan_ws(&ps->s);
    k = len <= sizeof key ? field_of(key, len) : F_COUNT;
    if (k == F_COUNT) {
        return sc_jscan_skip(&ps->s, ps->max_depth);
    }
    ps->cur = k;
    if (ps->seen & k_fields[k].flag) {
        field_error(ps, SC_ERR_EVENT_FIELD); /* a duplicate */
        st = sc_jscan_skip(&ps->s, ps->max_depth);
    } else {
        ps->seen |= k_fields[k].flag;
        st = parse_field(ps, k);
    }
    ps->cur = F_COUNT;
    return st;
}

/* Pass 1 over the whole text. */
static sc_status parse_object(parser *ps)
{
    int more = 1;
    sc_status st;

    sc_jscan_ws(&ps->s);
    if (sc_jscan_peek(&ps->s) != '{') {
        /* well-formed JSON that is not an object is not an event */
        st = sc_jscan_skip(&ps->s, ps->max_depth);
        field_error(ps, SC_ERR_EVENT_FIELD);
    } else {
        ps->s.pos++;
        sc_jscan_ws(&ps->s);
        if (sc_jscan_peek(&ps->s) == '}') {
            ps->s.pos++;
            more = 0;
        }
        for (st = SC_OK; st == SC_OK && more;) {
            sc_jscan_ws(&ps->s);
            st = sc_jscan_peek(&ps->s) == '"' ? parse_member(ps) : sc_jscan_bad(&ps->s);
            if (st == SC_OK) {
                st = next_or_close(ps, '}', &more);
            }
        }
    }
    if (st != SC_OK) {
        return st;
    }
    sc_jscan_ws(&ps->s);
    return ps->s.pos == ps->s.len ? SC_OK : sc_jscan_bad(&ps->s);
}

size_t sc_event_parse_arena_max(size_t json_len)
{
    /* A tag takes at least 3 bytes of text per string plus 2 for its brackets and comma
     * ("[\"\"],"), and a string's unescaped bytes never outnumber its escaped ones, so with
     * T tags, I >= T strings and S string bytes, 2T + 3I + S <= json_len. The arena need
     * T * sizeof(sc_tag) + I * sizeof(sc_str) + S is then at most the largest of the
     * corners below; the alignment padding comes on top. */
    size_t by_tags =
        sc_size_add(sc_size_mul(json_len / 5 + 1, sizeof(sc_tag) + sizeof(sc_str)), SC_EVENT_ALIGN);
    size_t by_items = sc_size_add(sc_size_mul(json_len / 3 + 1, sizeof(sc_str)), SC_EVENT_ALIGN);
    size_t by_bytes = sc_size_add(json_len, SC_EVENT_ALIGN);
    size_t m = by_tags > by_items ? by_tags : by_items;

    return sc_size_public(m > by_bytes ? m : by_bytes);
}

/* The arena bytes pass 2 needs at arena (with its alignment padding), or 0 on overflow. */
static int arena_need(const parser *ps, const void *arena, size_t *need)
{
    size_t pad = ps->n_tags != 0 ? sc_event_align_pad(arena) : 0;

    *need = sc_size_add(sc_size_add(sc_size_add(sc_size_mul(ps->n_tags, sizeof(sc_tag)), pad),
                                    sc_size_mul(ps->n_items, sizeof(sc_str))),
                        ps->n_bytes);
    return *need != SC_SIZE_SAT;
}

/* Pass 2: the content and the tags, unescaped into the arena. */
static sc_status fill_arena(const parser *pass1, uint8_t *arena, size_t need)
{
    parser ps = *pass1;
    fill f;
    uint8_t *base;
    sc_status st = SC_OK;

    pass1->ev->content.ptr = "";
    pass1->ev->content.len = 0;
    if (need == 0) {
        return SC_OK; /* no tags and no string bytes (the arena may be NULL) */
    }
    base = arena + (pass1->n_tags != 0 ? sc_event_align_pad(arena) : 0);
    memset(&f, 0, sizeof f);
    f.n_tags = pass1->n_tags;
    f.n_items = pass1->n_items;
    f.n_bytes = pass1->n_bytes;
    f.tags = (sc_tag *)(void *)base;
    f.items = (sc_str *)(void *)(base + f.n_tags * sizeof(sc_tag));
    f.bytes = base + f.n_tags * sizeof(sc_tag) + f.n_items * sizeof(sc_str);
    ps.f = &f;
    ps.n_tags = ps.n_items = ps.n_bytes = 0;
    if (pass1->seen & SC_EVENT_HAS_CONTENT) {
        ps.s.pos = pass1->content_at;
        st = parse_text(&ps, &ps.ev->content);
    }
    if (st == SC_OK && pass1->n_tags != 0) {
        ps.s.pos = pass1->tags_at;
        st = parse_tags(&ps);
    }
    if (st == SC_OK && (ps.field_err != SC_OK || f.t != f.n_tags || f.i != f.n_items ||
                        f.b != f.n_bytes || (size_t)(f.bytes + f.b - arena) != need)) {
        st = SC_ERR_INTERNAL; /* the passes disagree: cannot happen */
    }
    ps.ev->tags = f.n_tags != 0 ? f.tags : NULL;
    ps.ev->n_tags = f.t;
    return st;
}

/* Fills opts->error (when asked for) for a failure st of the parse behind ps. */
static void note_error(const sc_event_parse_opts *opts, const parser *ps, sc_status st,
                       unsigned missing)
{
    sc_event_parse_error *e = opts != NULL ? opts->error : NULL;
    int k;

    if (e == NULL) {
        return;
    }
    e->offset = ps->s.pos;
    e->field = NULL;
    if (st == ps->field_err && (ps->field_err_k != F_COUNT || st == SC_ERR_EVENT_FIELD)) {
        e->offset = ps->field_err_at;
        e->field = ps->field_err_k != F_COUNT ? k_fields[ps->field_err_k].name : NULL;
    } else if (missing != 0) {
        for (k = 0; k < F_COUNT && (missing & k_fields[k].flag) == 0; k++) {
        }
        e->offset = ps->s.len;
        e->field = k < F_COUNT ? k_fields[k].name : NULL;
    }
}

sc_status sc_event_parse(sc_event *ev, void *arena, size_t arena_cap, size_t *arena_used,
                         const char *json, size_t json_len, const sc_event_parse_opts *opts)
{
    static const sc_event_parse_opts defaults = {0, 0, 0, NULL};
    size_t max_input, need = 0;
    unsigned require, missing = 0;
    parser ps;
    sc_status st;

    if (arena_used != NULL) {
        *arena_used = 0;
    }
    if (ev != NULL) {
        memset(ev, 0, sizeof *ev);
    }
    if (opts == NULL) {
        opts = &defaults;
    }
    if (opts->error != NULL) {
        opts->error->offset = 0;
        opts->error->field = NULL;
    }
    if (ev == NULL || arena_used == NULL || (json == NULL && json_len != 0) ||
        (arena == NULL && arena_cap != 0)) {
        return SC_ERR_ARG;
    }
    if ((opts->optional & ~(unsigned)SC_EVENT_HAS_ALL) != 0) {
        return SC_ERR_FLAGS;
    }
    if (opts->max_depth > SC_EVENT_PARSE_MAX_DEPTH) {
        return SC_ERR_ARG;
    }
    max_input = opts->max_input != 0 ? opts->max_input : DEFAULT_MAX_INPUT;
    require = SC_EVENT_HAS_ALL & ~opts->optional;
    memset(&ps, 0, sizeof ps);
    ps.max_depth = opts->max_depth != 0 ? opts->max_depth : DEFAULT_MAX_DEPTH;
    ps.cur = F_COUNT;
    ps.field_err_k = F_COUNT;
    if (json_len > max_input) {
        return SC_ERR_TOO_LARGE; /* before reading anything: offset 0 */
    }
    sc_jscan_init(&ps.s, json, json_len);
    ps.ev = ev;
    st = parse_object(&ps);
    if (st == SC_OK) {
        st = ps.field_err;
    }
    if (st == SC_OK && (ps.seen & require) != require) {
        missing = require & ~ps.seen;
        st = SC_ERR_EVENT_FIELD; /* a required field is missing */
    }
    if (st == SC_OK && !arena_need(&ps, arena, &need)) {
        st = SC_ERR_TOO_LARGE;
    }
    if (st == SC_OK && need > arena_cap) {
        *arena_used = need;
        st = SC_ERR_BUFFER_TOO_SMALL;
    }
    if (st == SC_OK) {
        st = fill_arena(&ps, (uint8_t *)arena, need);
        if (st != SC_OK) {
            sc_mem_wipe(arena, need);
        }
    }
    if (st != SC_OK) {
        memset(ev, 0, sizeof *ev);
        if (st != SC_ERR_BUFFER_TOO_SMALL) {
            note_error(opts, &ps, st, missing);
        }
        return st;
    }
    ev->flags = ps.seen;
    *arena_used = need;
    return SC_OK;
}
