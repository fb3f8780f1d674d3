/* Client messages: EVENT, REQ, CLOSE, AUTH, COUNT and the NIP-77 NEG-OPEN / NEG-MSG /
 * NEG-CLOSE, written through the one JSON writer (measure, then write). */
#include <softchat/relay.h>

#include <string.h>

#include "event/event_json.h"
#include "relay/relay_internal.h"

/* what a signed event carries (the other flags only say what a parse found) */
#define SIGNED_FLAGS (SC_EVENT_HAS_ID | SC_EVENT_HAS_PUBKEY | SC_EVENT_HAS_SIG)
#include "util/utf8.h"

#define RAW(w, lit) sc_jw_raw((w), (lit), sizeof(lit) - 1)

sc_status sc_relay_sub_id_check(sc_str id)
{
    if (id.ptr == NULL && id.len > 0) {
        return SC_ERR_ARG;
    }
    if (id.len == 0) {
        return SC_ERR_EMPTY;
    }
    if (id.len > SC_RELAY_SUB_ID_MAX) {
        return SC_ERR_TOO_LARGE;
    }
    return sc_utf8_check(id.ptr, id.len);
}

static sc_status check_event(const sc_event *ev)
{
    if (ev == NULL) {
        return SC_ERR_ARG;
    }
    if ((ev->flags & SIGNED_FLAGS) != SIGNED_FLAGS) {
        return SC_ERR_EVENT_FIELD;
    }
    return sc_event_check(ev);
}

/* The checks of m, in the order the header lists them. */
static sc_status check_msg(const sc_relay_client_msg *m)
{
    sc_status st;
    size_t i;

    switch (m->type) {
    case SC_RELAY_CLIENT_EVENT:
    case SC_RELAY_CLIENT_AUTH:
        return check_event(m->event);
    case SC_RELAY_CLIENT_REQ:
    case SC_RELAY_CLIENT_COUNT:
    case SC_RELAY_CLIENT_NEG_OPEN:
        if ((st = sc_relay_sub_id_check(m->sub_id)) != SC_OK) {
            return st;
        }
        if (m->filters == NULL && m->n_filters > 0) {
            return SC_ERR_ARG;
        }
        if (m->n_filters == 0) {
            return SC_ERR_EMPTY;
        }
        if (m->type == SC_RELAY_CLIENT_NEG_OPEN && m->n_filters != 1) {
            return SC_ERR_FILTER;
        }
        for (i = 0; i < m->n_filters; i++) {
            if ((st = sc_relay_filter_check(&m->filters[i])) != SC_OK) {
                return st;
            }
        }
        if (m->type == SC_RELAY_CLIENT_NEG_OPEN) {
            if (m->neg == NULL && m->neg_len > 0) {
                return SC_ERR_ARG;
            }
            return m->neg_len == 0 ? SC_ERR_EMPTY : SC_OK;
        }
        return SC_OK;
    case SC_RELAY_CLIENT_NEG_MSG:
        if ((st = sc_relay_sub_id_check(m->sub_id)) != SC_OK) {
            return st;
        }
        if (m->neg == NULL && m->neg_len > 0) {
            return SC_ERR_ARG;
        }
        return m->neg_len == 0 ? SC_ERR_EMPTY : SC_OK;
    case SC_RELAY_CLIENT_CLOSE:
    case SC_RELAY_CLIENT_NEG_CLOSE:
        return sc_relay_sub_id_check(m->sub_id);
    default:
        return SC_ERR_FLAGS;
    }
}

static void hex_blob(sc_jw *w, const uint8_t *p, size_t n)
{
    static const char digits[] = "0123456789abcdef";
    char buf[128];
    size_t i, k = 0;

    RAW(w, "\"");
    for (i = 0; i < n; i++) {
        buf[k++] = digits[p[i] >> 4];
        buf[k++] = digits[p[i] & 15];
        if (k == sizeof buf) {
            sc_jw_raw(w, buf, k);
            k = 0;
        }
    }
    sc_jw_raw(w, buf, k);
    RAW(w, "\"");
}

sc_status sc_relay_msg_emit(sc_jw *w, const sc_relay_client_msg *m, int64_t since_floor)
{
    static const char *const labels[] = {
        NULL,          "[\"EVENT\",",    "[\"REQ\",",     "[\"CLOSE\",",    "[\"AUTH\",",
        "[\"COUNT\",", "[\"NEG-OPEN\",", "[\"NEG-MSG\",", "[\"NEG-CLOSE\","};
    sc_status st = check_msg(m);
    size_t i;

    if (st != SC_OK) {
        return st;
    }
    sc_jw_raw(w, labels[m->type], strlen(labels[m->type]));
    if (m->type == SC_RELAY_CLIENT_EVENT || m->type == SC_RELAY_CLIENT_AUTH) {
        sc_event_write(w, m->event, SC_EVENT_JSON_OBJECT);
    } else {
        sc_jw_string(w, m->sub_id.ptr, m->sub_id.len);
        if (m->type == SC_RELAY_CLIENT_REQ || m->type == SC_RELAY_CLIENT_COUNT ||
            m->type == SC_RELAY_CLIENT_NEG_OPEN) {
            for (i = 0; i < m->n_filters; i++) {
                RAW(w, ",");
                sc_relay_filter_write(w, &m->filters[i],
                                      m->type == SC_RELAY_CLIENT_NEG_OPEN ? -1 : since_floor);
            }
        }
        if (m->type == SC_RELAY_CLIENT_NEG_OPEN || m->type == SC_RELAY_CLIENT_NEG_MSG) {
            RAW(w, ",");
            hex_blob(w, m->neg, m->neg_len);
        }
    }
    RAW(w, "]");
    return w->st;
}

size_t sc_relay_msg_write_len(const sc_relay_client_msg *m)
{
    sc_jw w;

    if (m == NULL) {
        return 0;
    }
    sc_jw_init_buf(&w, NULL, 0);
    return sc_relay_msg_emit(&w, m, -1) == SC_OK ? w.len : 0;
}

sc_status sc_relay_msg_write(char *out, size_t out_cap, size_t *out_len,
                             const sc_relay_client_msg *m)
{
    sc_jw w;
    sc_status st;

    if (out_len == NULL) {
        return SC_ERR_ARG;
    }
    *out_len = 0;
    if (m == NULL || (out == NULL && out_cap > 0)) {
        return SC_ERR_ARG;
    }
    sc_jw_init_buf(&w, NULL, 0);
    st = sc_relay_msg_emit(&w, m, -1);
    if (st != SC_OK) {
        return st;
    }
    if (w.len > out_cap) {
        *out_len = w.len;
        return SC_ERR_BUFFER_TOO_SMALL;
    }
    sc_jw_init_buf(&w, out, out_cap);
    st = sc_relay_msg_emit(&w, m, -1);
    if (st != SC_OK) {
        return st;
    }
    *out_len = w.len;
    return SC_OK;
}
