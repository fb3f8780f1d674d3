/* The members of one JSON object and the elements of one array, over the strict scanner. */
#include <string.h>

#include "util/json_object.h"

sc_status sc_jobj_open(sc_jscan *s, int c)
{
    sc_jscan_ws(s);
    if (sc_jscan_peek(s) != c) {
        return sc_jscan_bad(s);
    }
    s->pos++;
    return SC_OK;
}

/* Past a ',' between entries, or at the closing byte: *more says which. */
static sc_status separator(sc_jscan *s, int first, int close, int *more)
{
    sc_jscan_ws(s);
    *more = 0;
    if (sc_jscan_peek(s) == close) {
        s->pos++;
        return SC_OK;
    }
    if (!first) {
        if (sc_jscan_peek(s) != ',') {
            return sc_jscan_bad(s);
        }
        s->pos++;
        sc_jscan_ws(s);
    }
    *more = 1;
    return SC_OK;
}

sc_status sc_jobj_key(sc_jscan *s, int first, char *key, size_t cap, size_t *key_len, int *more)
{
    sc_status st = separator(s, first, '}', more);

    *key_len = 0;
    if (st != SC_OK || !*more) {
        return st;
    }
    if (sc_jscan_peek(s) != '"') {
        return sc_jscan_bad(s); /* a trailing comma, or a key that is not a string */
    }
    st = sc_jscan_string(s, (uint8_t *)key, cap, key_len);
    if (st != SC_OK) {
        return st;
    }
    sc_jscan_ws(s);
    if (sc_jscan_peek(s) != ':') {
        return sc_jscan_bad(s);
    }
    s->pos++;
    sc_jscan_ws(s);
    return SC_OK;
}

sc_status sc_jarr_next(sc_jscan *s, int first, int *more)
{
    return separator(s, first, ']', more);
}

sc_status sc_jobj_string(sc_jscan *s, uint8_t *dst, size_t cap, size_t *len)
{
    sc_status st;

    *len = 0;
    sc_jscan_ws(s);
    if (sc_jscan_peek(s) != '"') {
        st = sc_jscan_skip(s, 32);
        return st != SC_OK ? st : SC_ERR_EVENT_FIELD;
    }
    return sc_jscan_string(s, dst, cap, len);
}

sc_status sc_jobj_end(sc_jscan *s)
{
    sc_jscan_ws(s);
    return s->pos == s->len ? SC_OK : sc_jscan_bad(s);
}
