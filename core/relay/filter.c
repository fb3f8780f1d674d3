/* NIP-01 filters: the validity checks, the matcher relays and local stores share, and the
 * JSON writer used in REQ, COUNT and NEG-OPEN. */
#include <softchat/relay.h>

#include <string.h>

#include "relay/relay_internal.h"
#include "util/utf8.h"

static int letter_ok(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

sc_status sc_relay_filter_check(const sc_relay_filter *f)
{
    size_t i, j;

    if ((f->ids == NULL && f->n_ids > 0) || (f->authors == NULL && f->n_authors > 0) ||
        (f->kinds == NULL && f->n_kinds > 0) || (f->tags == NULL && f->n_tags > 0) ||
        (f->has &
         ~(unsigned)(SC_RELAY_FILTER_SINCE | SC_RELAY_FILTER_UNTIL | SC_RELAY_FILTER_LIMIT)) != 0) {
        return SC_ERR_FILTER;
    }
    if (((f->has & SC_RELAY_FILTER_SINCE) && f->since < 0) ||
        ((f->has & SC_RELAY_FILTER_UNTIL) && f->until < 0)) {
        return SC_ERR_FILTER;
    }
    for (i = 0; i < f->n_kinds; i++) {
        if (f->kinds[i] > SC_EVENT_KIND_MAX) {
            return SC_ERR_FILTER;
        }
    }
    for (i = 0; i < f->n_tags; i++) {
        const sc_relay_tag_filter *t = &f->tags[i];

        if (!letter_ok(t->letter) || t->n_values == 0 || t->values == NULL) {
            return SC_ERR_FILTER;
        }
        for (j = 0; j < i; j++) {
            if (f->tags[j].letter == t->letter) {
                return SC_ERR_FILTER; /* "#x" twice: a key the object may hold once */
            }
        }
        for (j = 0; j < t->n_values; j++) {
            if (t->values[j].ptr == NULL && t->values[j].len > 0) {
                return SC_ERR_FILTER;
            }
            if (sc_utf8_check(t->values[j].ptr, t->values[j].len) != SC_OK) {
                return SC_ERR_UTF8;
            }
        }
    }
    return SC_OK;
}

static int has_tag_value(const sc_event *ev, char letter, const sc_relay_tag_filter *t)
{
    size_t i, j;

    for (i = 0; i < ev->n_tags; i++) {
        const sc_tag *g = &ev->tags[i];

        if (g->n_items < 2 || g->items[0].len != 1 || g->items[0].ptr[0] != letter) {
            continue;
        }
        for (j = 0; j < t->n_values; j++) {
            if (g->items[1].len == t->values[j].len &&
                (g->items[1].len == 0 ||
                 memcmp(g->items[1].ptr, t->values[j].ptr, g->items[1].len) == 0)) {
                return 1;
            }
        }
    }
    return 0;
}

static int match_one(const sc_relay_filter *f, const sc_event *ev)
{
    size_t i;

    if (f->n_ids > 0) {
        for (i = 0; i < f->n_ids && memcmp(f->ids[i], ev->id, SC_EVENT_ID_BYTES) != 0; i++) {
        }
        if (i == f->n_ids) {
            return 0;
        }
    }
    if (f->n_authors > 0) {
        for (i = 0; i < f->n_authors && memcmp(f->authors[i], ev->pubkey, SC_PUBKEY_BYTES) != 0;
             i++) {
        }
        if (i == f->n_authors) {
            return 0;
        }
    }
    if (f->n_kinds > 0) {
        for (i = 0; i < f->n_kinds && f->kinds[i] != ev->kind; i++) {
        }
        if (i == f->n_kinds) {
            return 0;
        }
    }
    if ((f->has & SC_RELAY_FILTER_SINCE) && ev->created_at < f->since) {
        return 0;
    }
    if ((f->has & SC_RELAY_FILTER_UNTIL) && ev->created_at > f->until) {
        return 0;
    }
    for (i = 0; i < f->n_tags; i++) {
        if (!has_tag_value(ev, f->tags[i].letter, &f->tags[i])) {
            return 0;
        }
    }
    return 1;
}

sc_status sc_relay_filter_match(const sc_relay_filter *filters, size_t n_filters,
                                const sc_event *ev)
{
    size_t i;
    int any = 0;

    if (ev == NULL || (filters == NULL && n_filters > 0) || (ev->tags == NULL && ev->n_tags > 0)) {
        return SC_ERR_ARG;
    }
    for (i = 0; i < n_filters; i++) {
        sc_status st = sc_relay_filter_check(&filters[i]);

        if (st != SC_OK) {
            return st == SC_ERR_UTF8 ? SC_ERR_FILTER : st;
        }
    }
    for (i = 0; i < n_filters && !any; i++) {
        any = match_one(&filters[i], ev);
    }
    return any ? SC_OK : SC_ERR_NO_MATCH;
}

/* ---- the writer ------------------------------------------------------------------------ */

#define RAW(w, lit) sc_jw_raw((w), (lit), sizeof(lit) - 1)

static void sep(sc_jw *w, int *first)
{
    if (!*first) {
        RAW(w, ",");
    }
    *first = 0;
}

static void hex_list(sc_jw *w, const char *key, size_t key_len, const uint8_t *p, size_t n,
                     int *first)
{
    size_t i;

    sep(w, first);
    sc_jw_raw(w, key, key_len);
    RAW(w, "[");
    for (i = 0; i < n; i++) {
        if (i > 0) {
            RAW(w, ",");
        }
        sc_jw_hex(w, p + 32 * i, 32);
    }
    RAW(w, "]");
}

void sc_relay_filter_write(sc_jw *w, const sc_relay_filter *f, int64_t since_floor)
{
    int first = 1;
    size_t i, j;
    int has_since = (f->has & SC_RELAY_FILTER_SINCE) != 0;
    int64_t since = f->since;

    RAW(w, "{");
    if (f->n_ids > 0) {
        hex_list(w, "\"ids\":", 6, f->ids[0], f->n_ids, &first);
    }
    if (f->n_authors > 0) {
        hex_list(w, "\"authors\":", 10, f->authors[0], f->n_authors, &first);
    }
    if (f->n_kinds > 0) {
        sep(w, &first);
        RAW(w, "\"kinds\":[");
        for (i = 0; i < f->n_kinds; i++) {
            if (i > 0) {
                RAW(w, ",");
            }
            sc_jw_u64(w, f->kinds[i]);
        }
        RAW(w, "]");
    }
    for (i = 0; i < f->n_tags; i++) {
        char key[5] = {'"', '#', f->tags[i].letter, '"', ':'};

        sep(w, &first);
        sc_jw_raw(w, key, sizeof key);
        RAW(w, "[");
        for (j = 0; j < f->tags[i].n_values; j++) {
            if (j > 0) {
                RAW(w, ",");
            }
            sc_jw_string(w, f->tags[i].values[j].ptr, f->tags[i].values[j].len);
        }
        RAW(w, "]");
    }
    if (since_floor >= 0 && (!has_since || since < since_floor)) {
        has_since = 1;
        since = since_floor;
    }
    if (has_since) {
        sep(w, &first);
        RAW(w, "\"since\":");
        sc_jw_u64(w, (uint64_t)since);
    }
    if (f->has & SC_RELAY_FILTER_UNTIL) {
        sep(w, &first);
        RAW(w, "\"until\":");
        sc_jw_u64(w, (uint64_t)f->until);
    }
    if ((f->has & SC_RELAY_FILTER_LIMIT) && since_floor < 0) { /* a resume wants them all */
        sep(w, &first);
        RAW(w, "\"limit\":");
        sc_jw_u64(w, f->limit);
    }
    RAW(w, "}");
}
