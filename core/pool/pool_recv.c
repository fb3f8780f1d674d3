/* What comes in from a relay: one text frame checked against its type's size limit before it
 * is parsed, parsed and verified into the caller's arena (an OK refused for its id alone is
 * read the tolerant way), applied to the relay's session, and turned into what it means for
 * the pool's publishes, subscriptions and AUTH. A message that cannot be used is counted for
 * SC_POOL_U_DROPPED. */
#include <softchat/pool.h>

#include <string.h>

#include "pool/pool_internal.h"
#include "relay/relay_internal.h"
#include "util/json_scan.h"

/* Whether the text starts as an EVENT message: '[' then the label "EVENT" (whitespace
 * allowed around, the label written plainly). */
static int is_event(const char *t, size_t n)
{
    size_t i = 0;

    while (i < n && (t[i] == ' ' || t[i] == '\t' || t[i] == '\n' || t[i] == '\r')) {
        i++;
    }
    if (i >= n || t[i] != '[') {
        return 0;
    }
    i++;
    while (i < n && (t[i] == ' ' || t[i] == '\t' || t[i] == '\n' || t[i] == '\r')) {
        i++;
    }
    return n - i >= 7 && memcmp(t + i, "\"EVENT\"", 7) == 0;
}

/* The event object of an EVENT message the parser took: the third element's text. */
static sc_str event_json(const char *text, size_t len)
{
    sc_str v = {"", 0};
    sc_jscan s;
    size_t at, k;

    sc_jscan_init(&s, text, len);
    sc_jscan_ws(&s);
    s.pos++;                  /* '[' */
    for (k = 0; k < 2; k++) { /* the label, the sub id: strings, then ',' */
        sc_jscan_ws(&s);
        if (sc_jscan_skip(&s, 1) != SC_OK) {
            return v;
        }
        sc_jscan_ws(&s);
        s.pos++;
    }
    sc_jscan_ws(&s);
    at = s.pos;
    if (sc_jscan_skip(&s, SC_JSCAN_DEPTH_LIMIT) == SC_OK) {
        v.ptr = text + at;
        v.len = s.pos - at;
    }
    return v;
}

/* A message that cannot be used: counted, reported at most once a second. */
static sc_status dropped(sc_pl_pool *pl, sc_pl_relay *r, sc_status st)
{
    if (r->dropped < UINT32_MAX) {
        r->dropped++;
    }
    r->dropped_status = st;
    sc_pl_due(pl, sc_pl_after(r->dropped_at, 1000));
    return st;
}

static void set_pending(sc_pl_pool *pl, sc_pool_update_kind kind, size_t slot, sc_str text)
{
    memset(&pl->pending, 0, sizeof pl->pending);
    pl->pending.full = 1;
    pl->pending.kind = kind;
    pl->pending.relay = slot;
    pl->pending.text = text;
}

/* What the session said a message means, for the pool. */
static void apply(sc_pl_pool *pl, sc_pl_relay *r, size_t slot, const sc_relay_update *u)
{
    const sc_relay_msg *m = &pl->msg;

    switch (u->kind) {
    case SC_RELAY_U_EVENT:
        sc_pl_sub_event(pl, slot, u->sub_id, &m->event);
        break;
    case SC_RELAY_U_EOSE:
        sc_pl_sub_eose(pl, slot, u->sub_id);
        break;
    case SC_RELAY_U_CLOSED:
        sc_pl_sub_closed(pl, slot, m->sub_id, m->prefix, m->message);
        break;
    case SC_RELAY_U_ACCEPTED:
    case SC_RELAY_U_REJECTED:
        (void)sc_pl_pub_ok(pl, slot, u->event_id, m->accepted, m->prefix, m->message);
        break;
    case SC_RELAY_U_AUTH_REQUIRED:
        sc_pl_keep(r->authreq, &r->authreq_len, m->message);
        if (u->sub_id.len > 0) {
            sc_pl_sub_held(pl, slot, u->sub_id);
        } else {
            sc_pl_pub_held(pl, slot, u->event_id);
        }
        r->auth_wanted = 1;
        sc_pl_touch(pl);
        break;
    case SC_RELAY_U_AUTH_CHALLENGE:
        set_pending(pl, SC_POOL_U_AUTH, slot, m->message);
        sc_pl_touch(pl); /* the policy may answer it */
        break;
    case SC_RELAY_U_AUTHENTICATED:
        set_pending(pl, SC_POOL_U_AUTHENTICATED, slot, m->message);
        sc_pl_pubs_auth(pl, slot, 1);
        sc_pl_subs_auth(pl, slot, 1);
        break;
    case SC_RELAY_U_AUTH_REFUSED:
        set_pending(pl, SC_POOL_U_AUTH_REFUSED, slot, m->message);
        pl->pending.prefix = m->prefix;
        r->auth_refused = 1;
        sc_pl_auth_refused(pl, slot);
        break;
    case SC_RELAY_U_NOTICE:
        sc_pl_keep(r->notice, &r->notice_len, m->message);
        set_pending(pl, SC_POOL_U_NOTICE, slot, m->message);
        break;
    case SC_RELAY_U_OTHER:
        set_pending(pl, SC_POOL_U_OTHER, slot, m->message);
        break;
    default: /* an OK the session does not wait for: a late answer to a retried publish */
        if (m->type == SC_RELAY_OK) {
            (void)sc_pl_pub_ok(pl, slot, m->event_id, m->accepted, m->prefix, m->message);
        }
        break;
    }
}

sc_status sc_pool_receive(sc_pool *p, sc_ctx *ctx, uint32_t relay, const char *text,
                          size_t text_len, int64_t now_ms, void *arena, size_t arena_cap)
{
    sc_relay_parse_opts po;
    sc_relay_update u;
    size_t used = 0, slot;
    sc_pl_pool *pl;
    sc_pl_relay *r;
    sc_status st;

    if (p == NULL || ctx == NULL || arena == NULL || (text == NULL && text_len > 0)) {
        return SC_ERR_ARG;
    }
    if ((pl = sc_pl_of(p)) == NULL) {
        return SC_ERR_STATE;
    }
    if ((r = sc_pl_relay_get(pl, relay)) == NULL) {
        return SC_ERR_NOT_FOUND;
    }
    if (r->link != SC_POOL_LINK_CONNECTED || pl->pending.full) {
        return SC_ERR_STATE; /* not connected, or the last message's update not polled */
    }
    sc_pl_time(pl, now_ms);
    slot = sc_pl_relay_slot(pl, r);
    memset(&po, 0, sizeof po);
    po.max_input = is_event(text, text_len) ? pl->max_event_msg : pl->max_other_msg;
    if (text_len > po.max_input) {
        return dropped(pl, r, SC_ERR_TOO_LARGE); /* refused before any parsing */
    }
    st = sc_relay_parse(ctx, &pl->msg, arena, arena_cap, &used, text, text_len, &po);
    if (st == SC_ERR_RELAY_MESSAGE &&
        sc_relay_parse_ok_loose(&pl->msg, arena, arena_cap, text, text_len) == SC_OK) {
        r->failures = 0;
        sc_pl_pub_ok_unattributed(pl, slot, pl->msg.accepted, pl->msg.prefix, pl->msg.message);
        return SC_OK;
    }
    if (st == SC_ERR_BUFFER_TOO_SMALL || st == SC_ERR_ARG || st == SC_ERR_STATE ||
        st == SC_ERR_UNSUPPORTED) {
        return st; /* the caller's arena or context: nothing taken */
    }
    if (st != SC_OK) {
        return dropped(pl, r, st);
    }
    st = sc_relay_session_handle(&r->sess, &u, &pl->msg);
    if (st != SC_OK) {
        return dropped(pl, r, st);
    }
    r->failures = 0;
    apply(pl, r, slot, &u);
    if (pl->pending.full && pl->pending.kind == SC_POOL_U_EVENT) {
        pl->pending.event_json = event_json(text, text_len); /* delivered: where it lies */
    }
    return SC_OK;
}
