/* NIP-01 field checks: sc_event_check, and the shape-only form the writers run before letting
 * the JSON writer find ill-formed UTF-8 on its single pass over the text. */
#include <softchat/event.h>

#include "event/event_check.h"
#include "util/utf8.h"

/* A string view: NULL only when empty, and valid UTF-8 when utf8 is set. */
static sc_status check_str(const sc_str *s, int utf8)
{
    if (s->ptr == NULL && s->len != 0) {
        return SC_ERR_ARG;
    }
    return utf8 ? sc_utf8_check(s->ptr, s->len) : SC_OK;
}

/* sc_event_check's order of checks; utf8 = 0 leaves the text unread (the shape alone). */
static sc_status check_event(const sc_event *ev, int utf8)
{
    size_t t, i;
    sc_status st;

    if (ev == NULL) {
        return SC_ERR_ARG;
    }
    if (ev->kind > SC_EVENT_KIND_MAX || ev->created_at < 0) {
        return SC_ERR_EVENT_RANGE;
    }
    if (ev->tags == NULL && ev->n_tags != 0) {
        return SC_ERR_ARG;
    }
    for (t = 0; t < ev->n_tags; t++) {
        const sc_tag *tag = &ev->tags[t];

        if (tag->n_items == 0) {
            return SC_ERR_EVENT_FIELD;
        }
        if (tag->items == NULL) {
            return SC_ERR_ARG;
        }
        for (i = 0; i < tag->n_items; i++) {
            st = check_str(&tag->items[i], utf8);
            if (st != SC_OK) {
                return st;
            }
        }
    }
    return check_str(&ev->content, utf8);
}

sc_status sc_event_check_shape(const sc_event *ev)
{
    return check_event(ev, 0);
}

sc_status sc_event_check_written(const sc_event *ev, unsigned need)
{
    sc_status st = sc_event_check_shape(ev);

    if (st != SC_OK) {
        return sc_event_check(ev); /* the first failure in sc_event_check's order */
    }
    if ((ev->flags & need) != need) {
        st = sc_event_check(ev); /* ill-formed text comes before a missing field */
        return st != SC_OK ? st : SC_ERR_EVENT_FIELD;
    }
    return SC_OK;
}

sc_status sc_event_check(const sc_event *ev)
{
    return check_event(ev, 1);
}
