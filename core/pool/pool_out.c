/* What goes out to a relay: its AUTH first, then what its session has queued (CLOSEs, REQs,
 * EVENTs), with the publish an EVENT carries marked sent (its attempt counted, its OK
 * deadline started); and the sizes a transport needs. */
#include <softchat/mem.h>
#include <softchat/pool.h>

#include <string.h>

#include "pool/pool_internal.h"

size_t sc_pool_next_len(const sc_pool *p, uint32_t relay)
{
    const sc_pl_pool *pl = sc_pl_of(p);
    const sc_pl_relay *r = pl != NULL ? sc_pl_relay_get(pl, relay) : NULL;

    if (r == NULL || r->link != SC_POOL_LINK_CONNECTED) {
        return 0;
    }
    return r->auth_len > 0 ? r->auth_len : sc_relay_session_next_len(&r->sess);
}

sc_status sc_pool_next(sc_pool *p, uint32_t relay, char *out, size_t out_cap, size_t *out_len)
{
    uint8_t id[SC_EVENT_ID_BYTES];
    sc_sess_next_kind kind;
    sc_str sub_id = {NULL, 0};
    char sub_copy[SC_RELAY_SUB_ID_MAX];
    sc_pl_pool *pl;
    sc_pl_relay *r;
    size_t slot;
    sc_status st;

    if (out_len == NULL) {
        return SC_ERR_ARG;
    }
    *out_len = 0;
    if (p == NULL || (out == NULL && out_cap > 0)) {
        return SC_ERR_ARG;
    }
    if ((pl = sc_pl_of(p)) == NULL) {
        return SC_ERR_STATE;
    }
    if ((r = sc_pl_relay_get(pl, relay)) == NULL) {
        return SC_ERR_NOT_FOUND;
    }
    if (r->link != SC_POOL_LINK_CONNECTED) {
        return SC_OK; /* nothing goes out before the socket is open */
    }
    slot = sc_pl_relay_slot(pl, r);
    if (r->auth_len > 0) {
        if (r->auth_len > out_cap) {
            *out_len = r->auth_len;
            return SC_ERR_BUFFER_TOO_SMALL;
        }
        memcpy(out, r->auth, r->auth_len);
        *out_len = r->auth_len;
        sc_mem_wipe(r->auth, r->auth_len);
        r->auth_len = 0;
        return SC_OK;
    }
    kind = sc_sess_next_peek(sc_sess_of(&r->sess), id, &sub_id);
    if (sub_id.len > 0) {
        memcpy(sub_copy, sub_id.ptr, sub_id.len); /* a dropped entry takes its id along */
        sub_id.ptr = sub_copy;
    }
    st = sc_relay_session_next(&r->sess, out, out_cap, out_len);
    if (st == SC_OK && *out_len > 0 && kind == SC_SESS_NEXT_EVENT) {
        sc_pl_pub_sent(pl, slot, id);
    } else if (st != SC_OK && st != SC_ERR_BUFFER_TOO_SMALL) {
        /* the caller changed an event or filter it lent: the session dropped the entry */
        if (kind == SC_SESS_NEXT_EVENT) {
            sc_pl_pub_unwritable(pl, slot, id, st);
        } else if (kind == SC_SESS_NEXT_REQ) {
            sc_pl_sub_unwritable(pl, slot, sub_id, st);
        }
    }
    return st;
}

size_t sc_pool_message_max(const sc_pool *p)
{
    const sc_pl_pool *pl = sc_pl_of(p);

    if (pl == NULL) {
        return 0;
    }
    return pl->max_event_msg > pl->max_other_msg ? pl->max_event_msg : pl->max_other_msg;
}

size_t sc_pool_receive_arena_max(size_t text_len)
{
    return sc_relay_parse_arena_max(text_len);
}
