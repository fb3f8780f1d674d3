/* The strict filter parser: the text's syntax is checked whole first, then the object is read
 * twice, once to measure and once to fill the arena (the tag conditions, their value views,
 * the kinds, the ids and authors, then the string bytes). */
#include <softchat/hex.h>
#include <softchat/mem.h>
#include <softchat/relay.h>

#include <string.h>

#include "util/json_scan.h"
#include "util/range.h"

#define MAX_INPUT ((size_t)1 << 20)
#define DEPTH 4u

#define ALIGN_OF(t) (sizeof(t) > 8 ? 8 : sizeof(t))

typedef struct counts {
    size_t ids, authors, kinds, tags, values, bytes;
} counts;

typedef struct filler {
    sc_relay_tag_filter *tags;
    sc_str *values;
    uint32_t *kinds;
    uint8_t (*ids)[SC_EVENT_ID_BYTES];
    uint8_t (*authors)[SC_PUBKEY_BYTES];
    uint8_t *bytes;
    counts used;
} filler;

typedef struct reader {
    sc_jscan s;
    counts n;
    sc_relay_filter *f;
    filler *fill; /* NULL: measuring */
    unsigned seen;
    uint64_t letters; /* '#' keys seen: a-z bits 0..25, A-Z 26..51 */
} reader;

enum {
    K_IDS = 1,
    K_AUTHORS = 2,
    K_KINDS = 4,
    K_SINCE = 8,
    K_UNTIL = 16,
    K_LIMIT = 32
};

/* After an element: 1 for ',', 0 for the closing byte (the syntax was checked). */
static int more(reader *r)
{
    int c;

    sc_jscan_ws(&r->s);
    c = sc_jscan_peek(&r->s);
    r->s.pos++;
    return c == ',';
}

/* At '[': an empty list is refused; *first is set up to read the first element. */
static sc_status open_list(reader *r)
{
    sc_jscan_ws(&r->s);
    if (sc_jscan_peek(&r->s) != '[') {
        return SC_ERR_FILTER;
    }
    r->s.pos++;
    sc_jscan_ws(&r->s);
    return sc_jscan_peek(&r->s) == ']' ? SC_ERR_FILTER : SC_OK;
}

static sc_status read_uint(reader *r, uint64_t max, uint64_t *v)
{
    sc_jnum num;
    int c;
    size_t i;

    sc_jscan_ws(&r->s);
    c = sc_jscan_peek(&r->s);
    if (c != '-' && (c < '0' || c > '9')) {
        return SC_ERR_FILTER;
    }
    (void)sc_jscan_number(&r->s, &num);
    if (num.negative || num.fraction || num.exponent) {
        return SC_ERR_FILTER;
    }
    *v = 0;
    for (i = 0; i < num.n_digits; i++) {
        unsigned d = (unsigned)(r->s.p[num.digits + i] - '0');

        if (*v > (max - d) / 10) {
            return SC_ERR_FILTER;
        }
        *v = *v * 10 + d;
    }
    return SC_OK;
}

static sc_status read_hex_list(reader *r, int authors)
{
    sc_status st = open_list(r);

    if (st != SC_OK) {
        return st;
    }
    do {
        char buf[64];
        size_t len = 0;

        sc_jscan_ws(&r->s);
        if (sc_jscan_peek(&r->s) != '"') {
            return SC_ERR_FILTER;
        }
        st = sc_jscan_string(&r->s, (uint8_t *)buf, sizeof buf, &len);
        if (st != SC_OK) {
            return st;
        }
        if (len != 64) {
            return SC_ERR_FILTER;
        }
        if (r->fill != NULL) {
            uint8_t *dst = authors ? r->fill->authors[r->fill->used.authors++]
                                   : r->fill->ids[r->fill->used.ids++];

            if (sc_hex_decode_fixed(dst, 32, buf, len, SC_HEX_LOWER_ONLY) != SC_OK) {
                return SC_ERR_FILTER;
            }
        } else {
            uint8_t tmp[32];

            if (sc_hex_decode_fixed(tmp, 32, buf, len, SC_HEX_LOWER_ONLY) != SC_OK) {
                return SC_ERR_FILTER;
            }
            if (authors) {
                r->n.authors++;
            } else {
                r->n.ids++;
            }
        }
    } while (more(r));
    return SC_OK;
}

static sc_status read_kinds(reader *r)
{
    sc_status st = open_list(r);

    if (st != SC_OK) {
        return st;
    }
    do {
        uint64_t v;

        st = read_uint(r, SC_EVENT_KIND_MAX, &v);
        if (st != SC_OK) {
            return st;
        }
        if (r->fill != NULL) {
            r->fill->kinds[r->fill->used.kinds++] = (uint32_t)v;
        } else {
            r->n.kinds++;
        }
    } while (more(r));
    return SC_OK;
}

static sc_status read_tag(reader *r, char letter)
{
    sc_relay_tag_filter *t = NULL;
    sc_status st = open_list(r);

    if (st != SC_OK) {
        return st;
    }
    if (r->fill != NULL) {
        t = &r->fill->tags[r->fill->used.tags++];
        t->letter = letter;
        t->values = &r->fill->values[r->fill->used.values];
    } else {
        r->n.tags++;
    }
    do {
        size_t len = 0;

        sc_jscan_ws(&r->s);
        if (sc_jscan_peek(&r->s) != '"') {
            return SC_ERR_FILTER;
        }
        if (r->fill != NULL) {
            sc_str *v = &r->fill->values[r->fill->used.values++];
            uint8_t *dst = r->fill->bytes + r->fill->used.bytes;

            st = sc_jscan_string(&r->s, dst, SC_SIZE_SAT, &len);
            v->ptr = len > 0 ? (const char *)dst : "";
            v->len = len;
            r->fill->used.bytes += len;
            t->n_values++;
        } else {
            st = sc_jscan_string(&r->s, NULL, 0, &len);
            r->n.values++;
            r->n.bytes = sc_size_add(r->n.bytes, len);
        }
        if (st != SC_OK) {
            return st;
        }
    } while (more(r));
    return SC_OK;
}

static sc_status read_member(reader *r)
{
    uint8_t key[8];
    size_t klen = 0;
    unsigned bit = 0;
    uint64_t v;
    sc_status st;

    sc_jscan_ws(&r->s);
    st = sc_jscan_string(&r->s, key, sizeof key, &klen);
    if (st != SC_OK) {
        return st;
    }
    sc_jscan_ws(&r->s);
    r->s.pos++; /* ':' */
    if (klen == 2 && key[0] == '#' &&
        ((key[1] >= 'a' && key[1] <= 'z') || (key[1] >= 'A' && key[1] <= 'Z'))) {
        unsigned b = key[1] >= 'a' ? (unsigned)(key[1] - 'a') : 26u + (unsigned)(key[1] - 'A');

        if (r->letters & ((uint64_t)1 << b)) {
            return SC_ERR_FILTER;
        }
        r->letters |= (uint64_t)1 << b;
        return read_tag(r, (char)key[1]);
    }
#define IS(lit) (klen == sizeof(lit) - 1 && memcmp(key, lit, klen) == 0)
    if (IS("ids")) {
        bit = K_IDS;
    } else if (IS("authors")) {
        bit = K_AUTHORS;
    } else if (IS("kinds")) {
        bit = K_KINDS;
    } else if (IS("since")) {
        bit = K_SINCE;
    } else if (IS("until")) {
        bit = K_UNTIL;
    } else if (IS("limit")) {
        bit = K_LIMIT;
    } else {
        return SC_ERR_FILTER; /* an unknown key, also a long one cut in key[] */
    }
#undef IS
    if (klen > sizeof key || (r->seen & bit)) {
        return SC_ERR_FILTER;
    }
    r->seen |= bit;
    switch (bit) {
    case K_IDS:
        return read_hex_list(r, 0);
    case K_AUTHORS:
        return read_hex_list(r, 1);
    case K_KINDS:
        return read_kinds(r);
    case K_LIMIT:
        st = read_uint(r, UINT64_MAX, &v);
        r->f->limit = v;
        r->f->has |= SC_RELAY_FILTER_LIMIT;
        return st;
    default:
        st = read_uint(r, (uint64_t)INT64_MAX, &v);
        if (bit == K_SINCE) {
            r->f->since = (int64_t)v;
            r->f->has |= SC_RELAY_FILTER_SINCE;
        } else {
            r->f->until = (int64_t)v;
            r->f->has |= SC_RELAY_FILTER_UNTIL;
        }
        return st;
    }
}

static sc_status read_object(reader *r)
{
    sc_jscan_ws(&r->s);
    if (sc_jscan_peek(&r->s) != '{') {
        return SC_ERR_FILTER;
    }
    r->s.pos++;
    sc_jscan_ws(&r->s);
    if (sc_jscan_peek(&r->s) == '}') {
        r->s.pos++;
        return SC_OK;
    }
    do {
        sc_status st = read_member(r);

        if (st != SC_OK) {
            return st;
        }
    } while (more(r));
    return SC_OK;
}

static size_t pad_to(uintptr_t at, size_t align)
{
    return (size_t)((align - at % align) % align);
}

/* The layout of the arena for counts n at address base; returns the total or SC_SIZE_SAT. */
static size_t layout(const counts *n, uintptr_t base, filler *f)
{
    size_t off = 0, need;

#define PLACE(field, type, count)                                                                  \
    do {                                                                                           \
        off = sc_size_add(off, pad_to(base + off, ALIGN_OF(type)));                                \
        if (f != NULL) {                                                                           \
            f->field = (void *)(base + off);                                                       \
        }                                                                                          \
        off = sc_size_add(off, sc_size_mul((count), sizeof(type)));                                \
    } while (0)
    PLACE(tags, sc_relay_tag_filter, n->tags);
    PLACE(values, sc_str, n->values);
    PLACE(kinds, uint32_t, n->kinds);
    PLACE(ids, uint8_t[32], n->ids);
    PLACE(authors, uint8_t[32], n->authors);
    PLACE(bytes, uint8_t, n->bytes);
#undef PLACE
    need = off;
    return need;
}

size_t sc_relay_filter_parse_arena_max(size_t json_len)
{
    /* every count is at most the text's length over the smallest JSON it takes (a value is
     * one byte plus a separator); ids and authors cost 32 bytes per 67 characters */
    size_t per = sizeof(sc_relay_tag_filter) + sizeof(sc_str) + sizeof(uint32_t);
    size_t b = sc_size_add(sc_size_mul(json_len, per), json_len);

    return sc_size_public(sc_size_add(b, 64));
}

/* The syntax of the whole text: one JSON value, at most DEPTH deep, nothing after it. */
static sc_status check_syntax(const char *json, size_t json_len)
{
    sc_jscan s;
    sc_status st;

    sc_jscan_init(&s, json, json_len);
    sc_jscan_ws(&s);
    st = sc_jscan_skip(&s, DEPTH);
    sc_jscan_ws(&s);
    if (st == SC_OK && s.pos != s.len) {
        st = SC_ERR_JSON;
    }
    return st == SC_ERR_TOO_LARGE ? SC_ERR_FILTER : st; /* deeper than any filter value */
}

/* The second reading: the lists and strings counted in n go into the arena (need bytes, laid
 * out by layout) and f's views point there. */
static sc_status fill_arena(sc_relay_filter *f, const counts *n, void *arena, size_t need,
                            const char *json, size_t json_len)
{
    reader r;
    filler fl;
    sc_status st;

    memset(&fl, 0, sizeof fl);
    (void)layout(n, (uintptr_t)arena, &fl);
    if (need > 0) {
        memset(arena, 0, need);
    }
    memset(f, 0, sizeof *f);
    memset(&r, 0, sizeof r);
    sc_jscan_init(&r.s, json, json_len);
    r.f = f;
    r.fill = &fl;
    st = read_object(&r);
    if (st != SC_OK) {
        return st;
    }
    f->ids = n->ids > 0 ? (const uint8_t(*)[32])fl.ids : NULL;
    f->n_ids = n->ids;
    f->authors = n->authors > 0 ? (const uint8_t(*)[32])fl.authors : NULL;
    f->n_authors = n->authors;
    f->kinds = n->kinds > 0 ? fl.kinds : NULL;
    f->n_kinds = n->kinds;
    f->tags = n->tags > 0 ? fl.tags : NULL;
    f->n_tags = n->tags;
    return SC_OK;
}

sc_status sc_relay_filter_parse(sc_relay_filter *f, void *arena, size_t arena_cap,
                                size_t *arena_used, const char *json, size_t json_len)
{
    reader r;
    size_t need;
    sc_status st;

    if (arena_used != NULL) {
        *arena_used = 0;
    }
    if (f != NULL) {
        memset(f, 0, sizeof *f);
    }
    if (f == NULL || arena_used == NULL || (json == NULL && json_len > 0) ||
        (arena == NULL && arena_cap > 0)) {
        return SC_ERR_ARG;
    }
    if (json_len > MAX_INPUT) {
        return SC_ERR_TOO_LARGE;
    }
    st = check_syntax(json, json_len);
    if (st != SC_OK) {
        return st;
    }
    memset(&r, 0, sizeof r);
    sc_jscan_init(&r.s, json, json_len);
    r.f = f;
    st = read_object(&r); /* the first reading counts */
    if (st != SC_OK) {
        memset(f, 0, sizeof *f);
        return st;
    }
    need = layout(&r.n, (uintptr_t)arena, NULL);
    if (need == SC_SIZE_SAT) {
        memset(f, 0, sizeof *f);
        return SC_ERR_TOO_LARGE;
    }
    if (need > arena_cap) {
        memset(f, 0, sizeof *f);
        *arena_used = need;
        return SC_ERR_BUFFER_TOO_SMALL;
    }
    st = fill_arena(f, &r.n, arena, need, json, json_len);
    if (st != SC_OK) {
        sc_mem_wipe(arena, need);
        memset(f, 0, sizeof *f);
        return st;
    }
    *arena_used = need;
    return SC_OK;
}
