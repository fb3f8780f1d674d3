/* The per-relay session: its state laid out in the caller's memory, the connection's start
 * and end, and the dispatch of each relay message to the part that owns it (subscriptions,
 * publishes, NIP-42, in session_sub.c, session_pub.c, session_auth.c; what goes out, in
 * session_outbox.c). Times are arguments. */
#include <softchat/mem.h>
#include <softchat/relay.h>

#include <string.h>

#include "relay/session_internal.h"
#include "util/range.h"
#include "util/utf8.h"

#define SESSION_MAGIC 0x52454c31u /* "REL1" */
#define DEFAULT_BACKOFF_MIN 500u
#define DEFAULT_BACKOFF_MAX 30000u
#define DEFAULT_MAX_CHALLENGE 256u

typedef struct handle {
    uint64_t magic;
    sc_sess *s;
} handle;

typedef char sc_session_handle_fits[(sizeof(handle) <= sizeof(sc_relay_session)) ? 1 : -1];

#define ALIGN 8u

static size_t pad(uintptr_t p)
{
    return (size_t)((ALIGN - p % ALIGN) % ALIGN);
}

sc_sess *sc_sess_of(const sc_relay_session *s)
{
    const handle *h = (const handle *)(const void *)s;

    return (h != NULL && h->magic == SESSION_MAGIC) ? h->s : NULL;
}

size_t sc_relay_session_mem_max(size_t max_subs, size_t max_pending, size_t url_len,
                                const sc_relay_session_opts *opts)
{
    size_t chal =
        opts != NULL && opts->max_challenge != 0 ? opts->max_challenge : DEFAULT_MAX_CHALLENGE;
    size_t n = sizeof(sc_sess) + 3 * ALIGN;

    n = sc_size_add(n, sc_size_mul(max_subs, sizeof(sc_sess_sub)));
    n = sc_size_add(n, sc_size_mul(max_pending, sizeof(sc_sess_pend)));
    n = sc_size_add(n, url_len);
    n = sc_size_add(n, chal);
    return sc_size_public(n);
}

sc_status sc_relay_session_init(sc_relay_session *s, void *mem, size_t mem_cap, size_t max_subs,
                                size_t max_pending, sc_str relay_url,
                                const sc_relay_session_opts *opts)
{
    static const sc_relay_session_opts defaults = {0, 0, 0, 0};
    handle *h = (handle *)(void *)s;
    size_t need, off;
    uint8_t *base;
    sc_sess *t;

    if (s == NULL) {
        return SC_ERR_ARG;
    }
    memset(s, 0, sizeof *s);
    if (mem == NULL || (relay_url.ptr == NULL && relay_url.len > 0)) {
        return SC_ERR_ARG;
    }
    if (opts == NULL) {
        opts = &defaults;
    }
    if (relay_url.len == 0) {
        return SC_ERR_EMPTY;
    }
    if (sc_utf8_check(relay_url.ptr, relay_url.len) != SC_OK) {
        return SC_ERR_UTF8;
    }
    if (opts->resume_slack < 0 ||
        (opts->backoff_min_ms != 0 && opts->backoff_max_ms != 0 &&
         opts->backoff_min_ms > opts->backoff_max_ms) ||
        (opts->backoff_max_ms == 0 && opts->backoff_min_ms > DEFAULT_BACKOFF_MAX)) {
        return SC_ERR_FLAGS;
    }
    need = sc_relay_session_mem_max(max_subs, max_pending, relay_url.len, opts);
    if (need == 0 || mem_cap < need) {
        return SC_ERR_BUFFER_TOO_SMALL;
    }
    memset(mem, 0, mem_cap);
    base = (uint8_t *)mem;
    off = pad((uintptr_t)base);
    t = (sc_sess *)(void *)(base + off);
    off += sizeof(sc_sess);
    off += pad((uintptr_t)(base + off));
    t->subs = (sc_sess_sub *)(void *)(base + off);
    off += max_subs * sizeof(sc_sess_sub);
    off += pad((uintptr_t)(base + off));
    t->pend = (sc_sess_pend *)(void *)(base + off);
    off += max_pending * sizeof(sc_sess_pend);
    t->url = (char *)(base + off);
    memcpy(t->url, relay_url.ptr, relay_url.len);
    t->url_len = relay_url.len;
    off += relay_url.len;
    t->challenge = (char *)(base + off);
    t->max_challenge = opts->max_challenge != 0 ? opts->max_challenge : DEFAULT_MAX_CHALLENGE;
    t->max_subs = max_subs;
    t->max_pending = max_pending;
    t->backoff_min = opts->backoff_min_ms != 0 ? opts->backoff_min_ms : DEFAULT_BACKOFF_MIN;
    t->backoff_max = opts->backoff_max_ms != 0 ? opts->backoff_max_ms : DEFAULT_BACKOFF_MAX;
    if (t->backoff_min > t->backoff_max) {
        t->backoff_min = t->backoff_max;
    }
    t->resume_slack = opts->resume_slack;
    t->mem = mem;
    t->mem_len = mem_cap;
    h->s = t;
    h->magic = SESSION_MAGIC;
    return SC_OK;
}

void sc_relay_session_clear(sc_relay_session *s)
{
    sc_sess *t = sc_sess_of(s);

    if (t != NULL) {
        sc_mem_wipe(t->mem, t->mem_len);
    }
    if (s != NULL) {
        sc_mem_wipe(s, sizeof *s);
    }
}

/* Drops the AUTH state and queues everything that must go out on a fresh connection. */
static void reset_connection(sc_sess *t, int queue)
{
    sc_sess_auth_reset(t);
    sc_sess_subs_reset(t, queue);
    sc_sess_pends_reset(t, queue);
}

sc_status sc_relay_session_connected(sc_relay_session *s, int64_t now_ms)
{
    sc_sess *t;

    if (s == NULL) {
        return SC_ERR_ARG;
    }
    t = sc_sess_of(s);
    if (t == NULL || t->connected) {
        return SC_ERR_STATE;
    }
    t->connected = 1;
    t->connected_at = now_ms;
    /* the clock's seconds cap every resume point (none before 1970) */
    sc_sess_subs_cap(t, now_ms > 0 ? now_ms / 1000 : 0);
    reset_connection(t, 1);
    return SC_OK;
}

sc_status sc_relay_session_disconnected(sc_relay_session *s, int64_t now_ms, int64_t *retry_at_ms)
{
    sc_sess *t;

    if (retry_at_ms != NULL) {
        *retry_at_ms = 0;
    }
    if (s == NULL || retry_at_ms == NULL) {
        return SC_ERR_ARG;
    }
    t = sc_sess_of(s);
    if (t == NULL) {
        return SC_ERR_STATE;
    }
    *retry_at_ms = sc_sess_retry_at(t, now_ms);
    t->connected = 0;
    reset_connection(t, 0);
    return SC_OK;
}

sc_status sc_relay_session_handle(sc_relay_session *s, sc_relay_update *u, const sc_relay_msg *m)
{
    sc_sess *t;

    if (u != NULL) {
        memset(u, 0, sizeof *u);
    }
    if (s == NULL || u == NULL || m == NULL) {
        return SC_ERR_ARG;
    }
    t = sc_sess_of(s);
    if (t == NULL || !t->connected) {
        return SC_ERR_STATE;
    }
    switch (m->type) {
    case SC_RELAY_EVENT:
    case SC_RELAY_EOSE:
    case SC_RELAY_CLOSED:
        return sc_sess_sub_handle(t, u, m);
    case SC_RELAY_OK:
        return sc_sess_auth_ok(t, u, m) ? SC_OK : sc_sess_pend_ok(t, u, m);
    case SC_RELAY_AUTH:
        return sc_sess_auth_challenge(t, u, m);
    case SC_RELAY_NOTICE:
        u->kind = SC_RELAY_U_NOTICE;
        return SC_OK;
    default:
        u->kind = SC_RELAY_U_OTHER;
        return SC_OK;
    }
}
