/* Event serialization: the canonical array an id hashes, and the event object. Both go
 * through the one writer, so the length function, the buffer output and the hashed bytes
 * cannot disagree. */
#include <softchat/event.h>

#include "event/event_check.h"
#include "event/event_json.h"

static void write_tags(sc_jw *w, const sc_event *ev)
{
    size_t t, i;

    sc_jw_char(w, '[');
    for (t = 0; t < ev->n_tags; t++) {
        const sc_tag *tag = &ev->tags[t];

        sc_jw_raw(w, t == 0 ? "[" : ",[", t == 0 ? 1 : 2);
        for (i = 0; i < tag->n_items; i++) {
            if (i != 0) {
                sc_jw_char(w, ',');
            }
            sc_jw_string(w, tag->items[i].ptr, tag->items[i].len);
        }
        sc_jw_char(w, ']');
    }
    sc_jw_char(w, ']');
}

#define RAW(w, lit) sc_jw_raw((w), (lit), sizeof(lit) - 1)

void sc_event_write(sc_jw *w, const sc_event *ev, unsigned flags)
{
    if (flags & SC_EVENT_JSON_CANONICAL) {
        RAW(w, "[0,");
        sc_jw_hex(w, ev->pubkey, SC_PUBKEY_BYTES);
        sc_jw_char(w, ',');
        sc_jw_u64(w, (uint64_t)ev->created_at);
        sc_jw_char(w, ',');
        sc_jw_u64(w, ev->kind);
        sc_jw_char(w, ',');
        write_tags(w, ev);
        sc_jw_char(w, ',');
        sc_jw_string(w, ev->content.ptr, ev->content.len);
        sc_jw_char(w, ']');
        return;
    }
    RAW(w, "{");
    if (ev->flags & SC_EVENT_HAS_ID) {
        RAW(w, "\"id\":");
        sc_jw_hex(w, ev->id, SC_EVENT_ID_BYTES);
        RAW(w, ",");
    }
    RAW(w, "\"pubkey\":");
    sc_jw_hex(w, ev->pubkey, SC_PUBKEY_BYTES);
    RAW(w, ",\"created_at\":");
    sc_jw_u64(w, (uint64_t)ev->created_at);
    RAW(w, ",\"kind\":");
    sc_jw_u64(w, ev->kind);
    RAW(w, ",\"tags\":");
    write_tags(w, ev);
    RAW(w, ",\"content\":");
    sc_jw_string(w, ev->content.ptr, ev->content.len);
    if (ev->flags & SC_EVENT_HAS_SIG) {
        RAW(w, ",\"sig\":");
        sc_jw_hex(w, ev->sig, SC_SIG_BYTES);
    }
    RAW(w, "}");
}

/* The checks both entry points share (the UTF-8 is checked by the measuring pass). */
static sc_status ready(const sc_event *ev, unsigned flags)
{
    if ((flags & ~(unsigned)SC_EVENT_JSON_CANONICAL) != 0) {
        return SC_ERR_FLAGS;
    }
    return sc_event_check_written(ev, SC_EVENT_HAS_PUBKEY);
}

/* The serialized length, or 0 with *st set (the sc_event_check errors included). */
static size_t measure(const sc_event *ev, unsigned flags, sc_status *st)
{
    sc_jw w;

    *st = ready(ev, flags);
    if (*st != SC_OK) {
        return 0;
    }
    sc_jw_init_buf(&w, NULL, 0);
    sc_event_write(&w, ev, flags);
    *st = w.st;
    return *st == SC_OK ? w.len : 0;
}

size_t sc_event_to_json_len(const sc_event *ev, unsigned flags)
{
    sc_status st;

    return measure(ev, flags, &st);
}

sc_status sc_event_to_json(char *out, size_t out_cap, size_t *out_len, const sc_event *ev,
                           unsigned flags)
{
    size_t need;
    sc_status st;
    sc_jw w;

    if (out_len == NULL) {
        return SC_ERR_ARG;
    }
    *out_len = 0;
    need = measure(ev, flags, &st);
    if (st != SC_OK) {
        return st;
    }
    if (out_cap < need) {
        *out_len = need;
        return SC_ERR_BUFFER_TOO_SMALL;
    }
    if (out == NULL) {
        return SC_ERR_ARG;
    }
    sc_jw_init_buf(&w, out, out_cap);
    sc_event_write(&w, ev, flags);
    if (w.st != SC_OK || w.len != need) {
        return SC_ERR_INTERNAL; /* the two passes disagree: cannot happen */
    }
    *out_len = need;
    return SC_OK;
}
