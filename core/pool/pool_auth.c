/* The pool's NIP-42 side: the identity and policy it answers challenges with (at most one
 * AUTH signed by the pool per connection, so a relay cannot make it sign without end), the
 * AUTH_WANTED update when the policy would answer and the pool has no identity, an AUTH
 * answered by the application as a local identity or as an event signed elsewhere (checked
 * as the relay will check it before it goes out), and what a refused AUTH means for what
 * waited for it. The AUTH message waits in its relay's buffer for sc_pool_next. */
#include <softchat/mem.h>
#include <softchat/pool.h>

#include <string.h>

#include "pool/pool_internal.h"
#include "relay/relay_internal.h"

static sc_str challenge_of(const sc_pl_relay *r)
{
    const sc_sess *t = sc_sess_of(&r->sess);
    sc_str c = {"", 0};

    if (t != NULL && t->challenge_len > 0) {
        c.ptr = t->challenge;
        c.len = t->challenge_len;
    }
    return c;
}

static sc_str url_of(const sc_pl_relay *r)
{
    sc_str url;

    url.ptr = r->url;
    url.len = r->url_len;
    return url;
}

sc_status sc_pool_auth_identity(sc_pool *p, const sc_identity *who)
{
    sc_pl_pool *pl;

    if (p == NULL) {
        return SC_ERR_ARG;
    }
    if ((pl = sc_pl_of(p)) == NULL) {
        return SC_ERR_STATE;
    }
    pl->who = who;
    sc_pl_touch(pl); /* a challenge waiting for it may be answered now */
    return SC_OK;
}

/* Signs relay r's AUTH as who into its buffer. */
static sc_status sign(sc_ctx *ctx, sc_pl_relay *r, const sc_identity *who, int64_t now_s)
{
    size_t len = 0;
    sc_status st;

    sc_mem_wipe(r->auth, r->auth_len);
    r->auth_len = 0;
    st = sc_relay_session_auth(&r->sess, ctx, r->auth, r->auth_cap, &len, who, now_s);
    if (st == SC_OK) {
        r->auth_len = len;
        r->auth_done = 1;
    }
    return st == SC_ERR_BUFFER_TOO_SMALL ? SC_ERR_INTERNAL : st; /* auth_cap is a bound */
}

sc_status sc_pool_auth(sc_pool *p, sc_ctx *ctx, uint32_t relay, const sc_identity *who, int64_t now)
{
    sc_pl_pool *pl;
    sc_pl_relay *r;

    if (p == NULL || ctx == NULL || who == NULL) {
        return SC_ERR_ARG;
    }
    if ((pl = sc_pl_of(p)) == NULL) {
        return SC_ERR_STATE;
    }
    if ((r = sc_pl_relay_get(pl, relay)) == NULL) {
        return SC_ERR_NOT_FOUND;
    }
    if (r->link != SC_POOL_LINK_CONNECTED) {
        return SC_ERR_STATE;
    }
    if (challenge_of(r).len == 0) {
        return SC_ERR_NOT_FOUND;
    }
    return sign(ctx, r, who, now);
}

sc_status sc_pool_auth_template(const sc_pool *p, sc_relay_auth *a, uint32_t relay,
                                const uint8_t pubkey[SC_PUBKEY_BYTES], int64_t now)
{
    const sc_pl_pool *pl;
    const sc_pl_relay *r;
    sc_str chal;
    sc_status st;

    if (a != NULL) {
        memset(a, 0, sizeof *a);
    }
    if (p == NULL || a == NULL || pubkey == NULL) {
        return SC_ERR_ARG;
    }
    if ((pl = sc_pl_of(p)) == NULL) {
        return SC_ERR_STATE;
    }
    if (now < 0) {
        return SC_ERR_EVENT_RANGE;
    }
    if ((r = sc_pl_relay_get(pl, relay)) == NULL || (chal = challenge_of(r)).len == 0) {
        return SC_ERR_NOT_FOUND;
    }
    st = sc_relay_auth_fill(a, url_of(r), chal, now);
    if (st != SC_OK) {
        return st;
    }
    memcpy(a->event.pubkey, pubkey, SC_PUBKEY_BYTES);
    a->event.flags |= SC_EVENT_HAS_PUBKEY;
    return SC_OK;
}

sc_status sc_pool_auth_send(sc_pool *p, sc_ctx *ctx, uint32_t relay, const sc_event *ev,
                            int64_t now)
{
    sc_relay_client_msg m;
    sc_pl_pool *pl;
    sc_pl_relay *r;
    sc_str chal;
    size_t len = 0;
    sc_status st;

    if (p == NULL || ctx == NULL || ev == NULL) {
        return SC_ERR_ARG;
    }
    if ((pl = sc_pl_of(p)) == NULL) {
        return SC_ERR_STATE;
    }
    if ((r = sc_pl_relay_get(pl, relay)) == NULL) {
        return SC_ERR_NOT_FOUND;
    }
    if (r->link != SC_POOL_LINK_CONNECTED) {
        return SC_ERR_STATE;
    }
    if ((chal = challenge_of(r)).len == 0) {
        return SC_ERR_NOT_FOUND;
    }
    st = sc_relay_auth_verify(ctx, ev, url_of(r), chal, now, 0);
    if (st != SC_OK) {
        return st;
    }
    memset(&m, 0, sizeof m);
    m.type = SC_RELAY_CLIENT_AUTH;
    m.event = ev;
    if (sc_relay_msg_write_len(&m) > r->auth_cap) {
        return SC_ERR_TOO_LARGE;
    }
    sc_mem_wipe(r->auth, r->auth_len);
    r->auth_len = 0;
    st = sc_relay_msg_write(r->auth, r->auth_cap, &len, &m);
    if (st != SC_OK) {
        return st;
    }
    r->auth_len = len;
    r->auth_done = 1;
    sc_sess_auth_expect(sc_sess_of(&r->sess), ev->id);
    return SC_OK;
}

void sc_pl_auth_refused(sc_pl_pool *pl, size_t slot)
{
    sc_pl_pubs_auth(pl, slot, 0);
    sc_pl_subs_auth(pl, slot, 0);
}

/* Whether the pool's policy answers relay r's challenge now: connected, a challenge, no AUTH
 * answered or accepted on this connection, and (ON_DEMAND) something refused for want of one. */
static int due(const sc_pl_pool *pl, const sc_pl_relay *r)
{
    const sc_sess *t = sc_sess_of(&r->sess);

    return r->state == PL_RELAY_USED && r->link == SC_POOL_LINK_CONNECTED && t != NULL &&
           !r->auth_done && !t->authed && !t->auth_pending && t->challenge_len > 0 &&
           (pl->auth == SC_POOL_AUTH_ALWAYS || r->auth_wanted);
}

void sc_pl_auth_tick(sc_pl_pool *pl, sc_ctx *ctx)
{
    size_t i;

    if (pl->auth == SC_POOL_AUTH_NEVER) {
        return;
    }
    for (i = 0; i < pl->max_relays; i++) {
        sc_pl_relay *r = &pl->relays[i];
        sc_status st;

        if (!due(pl, r)) {
            continue;
        }
        if (pl->who == NULL) { /* the application answers: told once per connection */
            if (!r->auth_asked) {
                r->auth_asked = 1;
                r->auth_ask = 1;
            }
            continue;
        }
        st = sign(ctx, r, pl->who, sc_pl_seconds(pl->now));
        if (st != SC_OK) {
            r->auth_done = 1;
            r->auth_refused = 1;
            r->auth_failed = 1;
            r->auth_status = st;
            sc_pl_auth_refused(pl, i);
        }
        sc_pl_touch(pl);
    }
}

int sc_pl_auth_report(sc_pl_pool *pl, sc_pool_update *u)
{
    size_t i;

    for (i = 0; i < pl->max_relays; i++) {
        sc_pl_relay *r = &pl->relays[i];

        if (r->state == PL_RELAY_USED && r->auth_failed) {
            r->auth_failed = 0;
            u->kind = SC_POOL_U_AUTH_REFUSED;
            u->relay = sc_pl_handle(r->gen, i);
            u->url = url_of(r);
            u->status = r->auth_status;
            u->text.ptr = "the pool could not sign the AUTH";
            u->text.len = strlen(u->text.ptr);
            return 1;
        }
    }
    for (i = 0; i < pl->max_relays; i++) {
        sc_pl_relay *r = &pl->relays[i];

        if (r->auth_ask) {
            r->auth_ask = 0;
            if (!due(pl, r)) {
                continue; /* answered, or the connection changed, since */
            }
            u->kind = SC_POOL_U_AUTH_WANTED;
            u->relay = sc_pl_handle(r->gen, i);
            u->url = url_of(r);
            u->text.ptr = r->authreq;
            u->text.len = r->authreq_len;
            u->prefix = r->auth_wanted ? SC_RELAY_PREFIX_AUTH_REQUIRED : SC_RELAY_PREFIX_NONE;
            return 1;
        }
    }
    return 0;
}
