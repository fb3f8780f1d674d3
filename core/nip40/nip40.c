/* NIP-40: the expiration tag of an event, and the check against a caller-supplied time. */
#include <softchat/nip40.h>

#include <string.h>

static const char k_expiration[] = "expiration";

sc_status sc_nip40_expiration(const sc_event *ev, int64_t *expiration)
{
    size_t i, found = 0;
    int64_t value = 0;

    if (expiration != NULL) {
        *expiration = 0;
    }
    if (ev == NULL || expiration == NULL || (ev->tags == NULL && ev->n_tags > 0)) {
        return SC_ERR_ARG;
    }
    for (i = 0; i < ev->n_tags; i++) {
        const sc_tag *t = &ev->tags[i];
        const sc_str *v;
        size_t k;

        if (t->n_items == 0 || t->items == NULL || t->items[0].len != sizeof k_expiration - 1 ||
            memcmp(t->items[0].ptr, k_expiration, sizeof k_expiration - 1) != 0) {
            continue;
        }
        if (++found > 1 || t->n_items < 2) {
            return SC_ERR_EVENT_FIELD;
        }
        v = &t->items[1];
        if (v->len == 0 || v->len > 19 || (v->len > 1 && v->ptr[0] == '0')) {
            return SC_ERR_EVENT_FIELD;
        }
        value = 0;
        for (k = 0; k < v->len; k++) {
            int d = v->ptr[k] - '0';

            if (d < 0 || d > 9 || value > (INT64_MAX - d) / 10) {
                return SC_ERR_EVENT_FIELD;
            }
            value = value * 10 + d;
        }
    }
    if (found == 0) {
        return SC_ERR_NOT_FOUND;
    }
    *expiration = value;
    return SC_OK;
}

sc_status sc_nip40_check(const sc_event *ev, int64_t now)
{
    int64_t at = 0;
    sc_status st;

    if (ev == NULL) {
        return SC_ERR_ARG;
    }
    st = sc_nip40_expiration(ev, &at);
    if (st == SC_ERR_NOT_FOUND) {
        return SC_OK;
    }
    if (st != SC_OK) {
        return st;
    }
    return now >= at ? SC_ERR_EXPIRED : SC_OK;
}
