/* The strict parser of relay messages. Pass 1 checks the whole text's syntax and notes each
 * element's byte range; pass 2 checks the shape of the named type and decodes the elements
 * into the arena: the EVENT's event first (parsed by sc_event_parse, then verified), then
 * the strings and the NEG-MSG bytes. */
#include <softchat/hex.h>
#include <softchat/mem.h>
#include <softchat/relay.h>

#include <string.h>

#include "relay/relay_internal.h"
#include "util/json_scan.h"
#include "util/range.h"

#define DEFAULT_MAX_INPUT ((size_t)1 << 20)
#define DEFAULT_MAX_DEPTH 32u
#define MAX_ELEMS 4 /* the longest message, OK, has 4 */

typedef struct span {
    size_t at, end;
} span;

static const struct {
    const char *label;
    sc_relay_type type;
    size_t n;          /* elements including the label */
    const char *shape; /* per element after the label: s string, i sub id, o event, b bool,
                          h hex id, x hex blob, c count object */
} k_types[] = {
    {"EVENT", SC_RELAY_EVENT, 3, "io"},     {"OK", SC_RELAY_OK, 4, "hbs"},
    {"EOSE", SC_RELAY_EOSE, 2, "i"},        {"CLOSED", SC_RELAY_CLOSED, 3, "is"},
    {"NOTICE", SC_RELAY_NOTICE, 2, "s"},    {"AUTH", SC_RELAY_AUTH, 2, "s"},
    {"COUNT", SC_RELAY_COUNT, 3, "ic"},     {"NEG-MSG", SC_RELAY_NEG_MSG, 3, "ix"},
    {"NEG-ERR", SC_RELAY_NEG_ERR, 3, "is"},
};

static const struct {
    const char *word;
    sc_relay_prefix prefix;
} k_prefixes[] = {
    {"duplicate", SC_RELAY_PREFIX_DUPLICATE},
    {"pow", SC_RELAY_PREFIX_POW},
    {"blocked", SC_RELAY_PREFIX_BLOCKED},
    {"rate-limited", SC_RELAY_PREFIX_RATE_LIMITED},
    {"invalid", SC_RELAY_PREFIX_INVALID},
    {"restricted", SC_RELAY_PREFIX_RESTRICTED},
    {"mute", SC_RELAY_PREFIX_MUTE},
    {"error", SC_RELAY_PREFIX_ERROR},
    {"auth-required", SC_RELAY_PREFIX_AUTH_REQUIRED},
    {"closed", SC_RELAY_PREFIX_CLOSED},
};

sc_relay_prefix sc_relay_prefix_of(sc_str text, sc_str *reason)
{
    size_t i = 0, k;

    *reason = text;
    /* a prefix is a word of lowercase letters and '-' followed by ':' */
    while (i < text.len && ((text.ptr[i] >= 'a' && text.ptr[i] <= 'z') || text.ptr[i] == '-')) {
        i++;
    }
    if (i == 0 || i >= text.len || text.ptr[i] != ':') {
        return SC_RELAY_PREFIX_NONE;
    }
    reason->ptr = text.ptr + i + 1;
    reason->len = text.len - i - 1;
    while (reason->len > 0 && reason->ptr[0] == ' ') {
        reason->ptr++;
        reason->len--;
    }
    for (k = 0; k < sizeof k_prefixes / sizeof k_prefixes[0]; k++) {
        if (strlen(k_prefixes[k].word) == i && memcmp(k_prefixes[k].word, text.ptr, i) == 0) {
            return k_prefixes[k].prefix;
        }
    }
    return SC_RELAY_PREFIX_OTHER;
}

size_t sc_relay_parse_arena_max(size_t json_len)
{
    /* the event's bound, plus every string unescaped (never longer than the text) and the
     * alignment slack */
    size_t b = sc_event_parse_arena_max(json_len);

    if (b == 0) {
        return 0;
    }
    return sc_size_public(sc_size_add(b, sc_size_add(json_len, 2 * sizeof(void *))));
}

/* Pass 1: the whole text is one array; its elements' ranges. */
static sc_status split(sc_jscan *s, span *el, size_t *n, unsigned depth)
{
    sc_jscan t = *s;
    sc_status st;

    sc_jscan_ws(&t);
    st = sc_jscan_skip(&t, depth);
    if (st != SC_OK) {
        return st;
    }
    sc_jscan_ws(&t);
    if (t.pos != t.len) {
        return SC_ERR_JSON;
    }
    sc_jscan_ws(s);
    if (sc_jscan_peek(s) != '[') {
        return SC_ERR_RELAY_MESSAGE;
    }
    s->pos++;
    *n = 0;
    sc_jscan_ws(s);
    if (sc_jscan_peek(s) == ']') {
        return SC_ERR_RELAY_MESSAGE;
    }
    for (;;) {
        size_t at;
        int c;

        sc_jscan_ws(s);
        at = s->pos;
        (void)sc_jscan_skip(s, depth); /* checked above */
        if (*n < MAX_ELEMS) {
            el[*n].at = at;
            el[*n].end = s->pos;
        }
        if (*n <= MAX_ELEMS) {
            (*n)++; /* MAX_ELEMS + 1: too many for any type; the label still tells which */
        }
        sc_jscan_ws(s);
        c = sc_jscan_peek(s);
        s->pos++;
        if (c == ']') {
            return SC_OK;
        }
    }
}

/* The unescaped string at el into dst (NULL: measure); SC_ERR_RELAY_MESSAGE if not one. */
static sc_status string_at(const sc_jscan *s, span el, uint8_t *dst, size_t cap, size_t *len)
{
    sc_jscan t = *s;

    t.pos = el.at;
    if (sc_jscan_peek(&t) != '"') {
        return SC_ERR_RELAY_MESSAGE;
    }
    return sc_jscan_string(&t, dst, cap, len);
}

/* The integer "count" of a COUNT object. Pass 1 checked the syntax at a larger depth, so
 * every status is still checked here: a value nested over depth is SC_ERR_TOO_LARGE, and the
 * cursor never moves on from a value it did not skip whole. */
static sc_status count_at(const sc_jscan *s, span el, unsigned depth, uint64_t *count)
{
    sc_jscan t = *s;
    int seen = 0;

    t.pos = el.at;
    if (sc_jscan_peek(&t) != '{') {
        return SC_ERR_RELAY_MESSAGE;
    }
    t.pos++;
    sc_jscan_ws(&t);
    if (sc_jscan_peek(&t) == '}') {
        return SC_ERR_RELAY_MESSAGE;
    }
    for (;;) {
        uint8_t key[8];
        size_t klen = 0;
        sc_status st;
        int c;

        sc_jscan_ws(&t);
        if (sc_jscan_peek(&t) != '"') {
            return SC_ERR_JSON;
        }
        st = sc_jscan_string(&t, key, sizeof key, &klen);
        if (st != SC_OK) {
            return st;
        }
        sc_jscan_ws(&t);
        if (sc_jscan_peek(&t) != ':') {
            return SC_ERR_JSON;
        }
        t.pos++;
        sc_jscan_ws(&t);
        if (klen == 5 && memcmp(key, "count", 5) == 0) {
            sc_jnum num;
            uint64_t v = 0;
            size_t i;

            c = sc_jscan_peek(&t);
            if (seen || (c != '-' && (c < '0' || c > '9'))) {
                return SC_ERR_RELAY_MESSAGE;
            }
            st = sc_jscan_number(&t, &num);
            if (st != SC_OK) {
                return st;
            }
            if (num.negative || num.fraction || num.exponent) {
                return SC_ERR_RELAY_MESSAGE;
            }
            for (i = 0; i < num.n_digits; i++) {
                unsigned dg = (unsigned)(t.p[num.digits + i] - '0');

                if (v > (UINT64_MAX - dg) / 10) {
                    return SC_ERR_RELAY_MESSAGE;
                }
                v = v * 10 + dg;
            }
            *count = v;
            seen = 1;
        } else {
            st = sc_jscan_skip(&t, depth);
            if (st != SC_OK) {
                return st;
            }
        }
        sc_jscan_ws(&t);
        c = sc_jscan_peek(&t);
        if (c == '}') {
            return seen ? SC_OK : SC_ERR_RELAY_MESSAGE;
        }
        if (c != ',') {
            return SC_ERR_JSON;
        }
        t.pos++;
    }
}

/* Which type the label names: SC_OK with *k; SC_ERR_RELAY_UNKNOWN; SC_ERR_RELAY_MESSAGE. */
static sc_status type_of(const sc_jscan *s, span el, size_t *k)
{
    uint8_t buf[16];
    size_t len = 0, i;
    sc_status st = string_at(s, el, buf, sizeof buf, &len);

    if (st != SC_OK) {
        return st;
    }
    for (i = 0; i < sizeof k_types / sizeof k_types[0]; i++) {
        if (strlen(k_types[i].label) == len && memcmp(k_types[i].label, buf, len) == 0) {
            *k = i;
            return SC_OK;
        }
    }
    return SC_ERR_RELAY_UNKNOWN;
}

/* Pass 2 over the elements: check them and, with arena set, decode them. */
typedef struct decoder {
    sc_ctx *ctx;
    const sc_jscan *s;
    const span *el;
    size_t k;
    unsigned depth;
    sc_relay_msg *m;
    uint8_t *arena; /* NULL: measuring */
    size_t cap, used;
    const char *json;
} decoder;

static sc_status take_string(decoder *d, span el, sc_str *out, int sub_id)
{
    size_t len = 0;
    sc_status st = string_at(d->s, el, NULL, 0, &len);

    if (st != SC_OK) {
        return st;
    }
    if (sub_id && (len == 0 || len > SC_RELAY_SUB_ID_MAX)) {
        return SC_ERR_RELAY_MESSAGE;
    }
    if (d->arena != NULL) {
        if (len > d->cap - d->used) {
            return SC_ERR_BUFFER_TOO_SMALL;
        }
        (void)string_at(d->s, el, d->arena + d->used, len, &len);
        out->ptr = (const char *)d->arena + d->used;
    } else {
        out->ptr = "";
    }
    out->len = len;
    if (len == 0) {
        out->ptr = "";
    }
    d->used = sc_size_add(d->used, len);
    return SC_OK;
}

/* Whether the element is a string of plain lowercase hex digits (no escapes). */
static int plain_hex(const decoder *d, span el)
{
    size_t i;

    if (el.end - el.at < 2 || d->json[el.at] != '"') {
        return 0;
    }
    for (i = el.at + 1; i + 1 < el.end; i++) {
        char c = d->json[i];

        if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) {
            return 0;
        }
    }
    return 1;
}

/* A hex element (plain_hex: the digits between the quotes, no escapes) decoded straight from
 * the text: into fixed (an OK's event id, 32 bytes, in both passes: it takes no arena, and an
 * OK with an empty message needs none), or into the arena as a blob of half the text's length
 * (a NEG-MSG's payload), so both passes count the same bytes. */
static sc_status take_hex(decoder *d, span el, uint8_t *fixed, const uint8_t **blob,
                          size_t *blob_len)
{
    const char *digits = d->json + el.at + 1;
    size_t len, n;

    if (!plain_hex(d, el)) {
        return SC_ERR_RELAY_MESSAGE;
    }
    len = el.end - el.at - 2;
    n = len / 2;
    if (fixed != NULL) {
        if (len != 2 * SC_EVENT_ID_BYTES) {
            return SC_ERR_RELAY_MESSAGE;
        }
        if (sc_hex_decode_fixed(fixed, SC_EVENT_ID_BYTES, digits, len, SC_HEX_LOWER_ONLY) !=
            SC_OK) {
            return SC_ERR_RELAY_MESSAGE;
        }
        return SC_OK;
    }
    if (len == 0 || len % 2 != 0) {
        return SC_ERR_RELAY_MESSAGE;
    }
    if (d->arena != NULL) {
        if (n > d->cap - d->used) {
            return SC_ERR_BUFFER_TOO_SMALL;
        }
        if (sc_hex_decode_fixed(d->arena + d->used, n, digits, len, SC_HEX_LOWER_ONLY) != SC_OK) {
            return SC_ERR_RELAY_MESSAGE; /* plain_hex checked every digit: cannot happen */
        }
        *blob = d->arena + d->used;
    }
    d->used = sc_size_add(d->used, n);
    *blob_len = n;
    return SC_OK;
}

static sc_status take_event(decoder *d, span el)
{
    sc_event_parse_opts eo;
    size_t need = 0;
    sc_status st;

    memset(&eo, 0, sizeof eo);
    eo.max_input = el.end - el.at;
    eo.max_depth = d->depth;
    if (d->s->p[el.at] != '{') {
        return SC_ERR_RELAY_MESSAGE;
    }
    if (d->arena == NULL) {
        st = sc_event_parse(&d->m->event, NULL, 0, &need, d->json + el.at, el.end - el.at, &eo);
        if (st == SC_ERR_BUFFER_TOO_SMALL || st == SC_OK) {
            /* the need at address 0, plus the most alignment another address can take */
            d->used = sc_size_add(d->used, sc_size_add(need, sizeof(void *) - 1));
            memset(&d->m->event, 0, sizeof d->m->event);
            return SC_OK;
        }
        return st;
    }
    st =
        sc_event_parse(&d->m->event, d->arena, d->cap, &need, d->json + el.at, el.end - el.at, &eo);
    if (st != SC_OK) {
        return st;
    }
    d->used = need;
    return sc_event_verify(d->ctx, &d->m->event);
}

static sc_status decode(decoder *d)
{
    const char *shape = k_types[d->k].shape;
    sc_relay_msg *m = d->m;
    size_t i;
    sc_status st = SC_OK;

    m->type = k_types[d->k].type;
    /* the event goes first in the arena: its views must be aligned from the arena start */
    for (i = 0; shape[i] != '\0'; i++) {
        if (shape[i] == 'o') {
            st = take_event(d, d->el[i + 1]);
            if (st != SC_OK) {
                return st;
            }
        }
    }
    for (i = 0; shape[i] != '\0' && st == SC_OK; i++) {
        span el = d->el[i + 1];

        switch (shape[i]) {
        case 'i':
            st = take_string(d, el, &m->sub_id, 1);
            break;
        case 's':
            st = take_string(d, el, &m->message, 0);
            break;
        case 'h':
            st = take_hex(d, el, m->event_id, NULL, NULL);
            break;
        case 'x':
            st = take_hex(d, el, NULL, &m->neg, &m->neg_len);
            break;
        case 'b': {
            const char *p = d->json + el.at;
            size_t n = el.end - el.at;

            if (n == 4 && memcmp(p, "true", 4) == 0) {
                m->accepted = 1;
            } else if (n == 5 && memcmp(p, "false", 5) == 0) {
                m->accepted = 0;
            } else {
                st = SC_ERR_RELAY_MESSAGE;
            }
            break;
        }
        case 'c':
            st = count_at(d->s, el, d->depth, &m->count);
            break;
        default:
            break;
        }
    }
    if (st == SC_OK && m->type == SC_RELAY_AUTH && m->message.len == 0) {
        st = SC_ERR_RELAY_MESSAGE; /* NIP-42: an empty challenge is nothing to sign */
    }
    if (st == SC_OK &&
        (m->type == SC_RELAY_OK || m->type == SC_RELAY_CLOSED || m->type == SC_RELAY_NEG_ERR)) {
        m->prefix = sc_relay_prefix_of(m->message, &m->reason);
    }
    return st;
}

sc_status sc_relay_parse(sc_ctx *ctx, sc_relay_msg *m, void *arena, size_t arena_cap,
                         size_t *arena_used, const char *json, size_t json_len,
                         const sc_relay_parse_opts *opts)
{
    static const sc_relay_parse_opts defaults = {0, 0};
    span el[MAX_ELEMS];
    size_t n = 0, k = 0, max_input;
    unsigned depth;
    sc_jscan s;
    decoder d;
    sc_status st;

    if (arena_used != NULL) {
        *arena_used = 0;
    }
    if (m != NULL) {
        memset(m, 0, sizeof *m);
    }
    if (opts == NULL) {
        opts = &defaults;
    }
    if (ctx == NULL || m == NULL || arena_used == NULL || (json == NULL && json_len > 0) ||
        (arena == NULL && arena_cap > 0) || opts->max_depth > SC_EVENT_PARSE_MAX_DEPTH) {
        return SC_ERR_ARG;
    }
    max_input = opts->max_input != 0 ? opts->max_input : DEFAULT_MAX_INPUT;
    depth = opts->max_depth != 0 ? opts->max_depth : DEFAULT_MAX_DEPTH;
    if (json_len > max_input) {
        return SC_ERR_TOO_LARGE;
    }
    sc_jscan_init(&s, json, json_len);
    /* the message array and the event's own nesting (object, tags, tag) come on top */
    st = split(&s, el, &n, depth + 4 > SC_JSCAN_DEPTH_LIMIT ? SC_JSCAN_DEPTH_LIMIT : depth + 4);
    if (st == SC_OK) {
        st = type_of(&s, el[0], &k);
        if (st == SC_ERR_JSON || st == SC_ERR_UTF8) {
            st = SC_ERR_RELAY_MESSAGE; /* cannot happen after pass 1; be safe */
        }
    }
    if (st == SC_OK && n != k_types[k].n) {
        st = SC_ERR_RELAY_MESSAGE;
    }
    if (st != SC_OK) {
        return st;
    }
    memset(&d, 0, sizeof d);
    d.ctx = ctx;
    d.s = &s;
    d.el = el;
    d.k = k;
    d.depth = depth;
    d.m = m;
    d.json = json;
    /* measure first: nothing is written unless it all fits */
    st = decode(&d);
    if (st == SC_OK) {
        size_t need = d.used;

        memset(m, 0, sizeof *m);
        if (need > arena_cap) {
            *arena_used = need;
            return SC_ERR_BUFFER_TOO_SMALL;
        }
        d.arena = (uint8_t *)arena;
        d.cap = arena_cap;
        d.used = 0;
        st = decode(&d);
        if (st == SC_OK) {
            *arena_used = d.used;
            return SC_OK;
        }
        sc_mem_wipe(arena, d.used < arena_cap ? d.used : arena_cap);
    }
    memset(m, 0, sizeof *m);
    return st;
}
