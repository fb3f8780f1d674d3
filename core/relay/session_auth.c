/* The session's NIP-42 side: the relay's challenge, the signed AUTH that answers it, the OK
 * that accepts or refuses it, and which refusals wait for it (held until it is accepted). */
#include <softchat/crypto.h>
#include <softchat/mem.h>
#include <softchat/relay.h>

#include <string.h>

#include "relay/relay_internal.h"
#include "relay/session_internal.h"

void sc_sess_auth_reset(sc_sess *t)
{
    sc_mem_wipe(t->challenge, t->challenge_len);
    t->challenge_len = 0;
    t->authed = 0;
    t->auth_pending = 0;
    memset(t->auth_id, 0, sizeof t->auth_id);
}

int sc_sess_auth_holds(const sc_sess *t, sc_relay_prefix prefix)
{
    return prefix == SC_RELAY_PREFIX_AUTH_REQUIRED && !t->authed;
}

sc_status sc_sess_auth_challenge(sc_sess *t, sc_relay_update *u, const sc_relay_msg *m)
{
    if (m->message.len > t->max_challenge) {
        return SC_ERR_TOO_LARGE;
    }
    if (m->message.len == 0) {
        return SC_OK; /* no challenge (sc_relay_parse refuses it): nothing to answer */
    }
    sc_mem_wipe(t->challenge, t->challenge_len);
    memcpy(t->challenge, m->message.ptr, m->message.len);
    t->challenge_len = m->message.len;
    u->kind = SC_RELAY_U_AUTH_CHALLENGE;
    return SC_OK;
}

void sc_sess_auth_expect(sc_sess *t, const uint8_t id[SC_EVENT_ID_BYTES])
{
    memcpy(t->auth_id, id, SC_EVENT_ID_BYTES);
    t->auth_pending = 1;
}

int sc_sess_auth_ok(sc_sess *t, sc_relay_update *u, const sc_relay_msg *m)
{
    if (!t->auth_pending || memcmp(m->event_id, t->auth_id, SC_EVENT_ID_BYTES) != 0) {
        return 0;
    }
    t->auth_pending = 0;
    if (m->accepted) {
        t->authed = 1;
        sc_sess_subs_release(t); /* everything held goes out again */
        sc_sess_pends_release(t);
        u->kind = SC_RELAY_U_AUTHENTICATED;
    } else {
        u->kind = SC_RELAY_U_AUTH_REFUSED;
    }
    return 1;
}

/* The session of s when it is connected (SC_OK), with its URL and challenge. */
static sc_status connected(const sc_relay_session *s, sc_sess **t, sc_str *url, sc_str *chal)
{
    *t = sc_sess_of(s);
    if (*t == NULL || !(*t)->connected) {
        return SC_ERR_STATE;
    }
    if ((*t)->challenge_len == 0) {
        return SC_ERR_NOT_FOUND;
    }
    url->ptr = (*t)->url;
    url->len = (*t)->url_len;
    chal->ptr = (*t)->challenge;
    chal->len = (*t)->challenge_len;
    return SC_OK;
}

/* Writes the AUTH message of the signed ev into out and expects its OK. */
static sc_status emit_auth(sc_sess *t, char *out, size_t out_cap, size_t *out_len,
                           const sc_event *ev)
{
    sc_relay_client_msg m;
    sc_jw w;
    sc_status st;

    memset(&m, 0, sizeof m);
    m.type = SC_RELAY_CLIENT_AUTH;
    m.event = ev;
    sc_jw_init_buf(&w, NULL, 0);
    st = sc_relay_msg_emit(&w, &m, -1);
    if (st == SC_OK && w.len > out_cap) {
        *out_len = w.len;
        return SC_ERR_BUFFER_TOO_SMALL;
    }
    if (st == SC_OK) {
        sc_jw_init_buf(&w, out, out_cap);
        st = sc_relay_msg_emit(&w, &m, -1);
    }
    if (st != SC_OK) {
        if (out != NULL) {
            sc_mem_wipe(out, out_cap);
        }
        return st;
    }
    *out_len = w.len;
    sc_sess_auth_expect(t, ev->id);
    return SC_OK;
}

sc_status sc_relay_session_auth_with_rand(sc_relay_session *s, sc_ctx *ctx, char *out,
                                          size_t out_cap, size_t *out_len, const sc_identity *who,
                                          int64_t now, const uint8_t aux[SC_AUX_RAND_BYTES])
{
    sc_relay_auth a;
    sc_str url, chal;
    sc_sess *t;
    sc_status st;

    if (out_len == NULL) {
        return SC_ERR_ARG;
    }
    *out_len = 0;
    if (s == NULL || ctx == NULL || who == NULL || aux == NULL || (out == NULL && out_cap > 0)) {
        return SC_ERR_ARG;
    }
    st = connected(s, &t, &url, &chal);
    if (st == SC_OK) {
        st = sc_relay_auth_sign_with_rand(ctx, &a, who, url, chal, now, aux);
    }
    if (st == SC_OK) {
        st = emit_auth(t, out, out_cap, out_len, &a.event);
    }
    sc_mem_wipe(&a, sizeof a);
    return st;
}

sc_status sc_relay_session_auth_template(const sc_relay_session *s, sc_relay_auth *a,
                                         const uint8_t pubkey[SC_PUBKEY_BYTES], int64_t now)
{
    sc_str url, chal;
    sc_sess *t;
    sc_status st;

    if (a != NULL) {
        memset(a, 0, sizeof *a);
    }
    if (s == NULL || a == NULL || pubkey == NULL) {
        return SC_ERR_ARG;
    }
    st = connected(s, &t, &url, &chal);
    if (st == SC_OK && now < 0) {
        st = SC_ERR_EVENT_RANGE;
    }
    if (st == SC_OK) {
        st = sc_relay_auth_fill(a, url, chal, now);
    }
    if (st != SC_OK) {
        memset(a, 0, sizeof *a);
        return st;
    }
    memcpy(a->event.pubkey, pubkey, SC_PUBKEY_BYTES);
    a->event.flags |= SC_EVENT_HAS_PUBKEY;
    return SC_OK;
}

sc_status sc_relay_session_auth_send(sc_relay_session *s, sc_ctx *ctx, char *out, size_t out_cap,
                                     size_t *out_len, const sc_event *ev, int64_t now)
{
    sc_str url, chal;
    sc_sess *t;
    sc_status st;

    if (out_len == NULL) {
        return SC_ERR_ARG;
    }
    *out_len = 0;
    if (s == NULL || ctx == NULL || ev == NULL || (out == NULL && out_cap > 0)) {
        return SC_ERR_ARG;
    }
    st = connected(s, &t, &url, &chal);
    if (st == SC_OK) {
        st = sc_relay_auth_verify(ctx, ev, url, chal, now, 0);
    }
    return st == SC_OK ? emit_auth(t, out, out_cap, out_len, ev) : st;
}

sc_status sc_relay_session_auth(sc_relay_session *s, sc_ctx *ctx, char *out, size_t out_cap,
                                size_t *out_len, const sc_identity *who, int64_t now)
{
    uint8_t aux[SC_AUX_RAND_BYTES];
    sc_status st;

    if (out_len == NULL) {
        return SC_ERR_ARG;
    }
    *out_len = 0;
    if (s == NULL || ctx == NULL || who == NULL) {
        return SC_ERR_ARG;
    }
    st = sc_crypto_rng_fill(ctx, aux, sizeof aux);
    if (st == SC_OK) {
        st = sc_relay_session_auth_with_rand(s, ctx, out, out_cap, out_len, who, now, aux);
    }
    sc_mem_wipe(aux, sizeof aux);
    return st;
}
