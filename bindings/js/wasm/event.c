/* Events (NIP-01 sign, parse+verify), rumors and gift wraps (NIP-59), NIP-40. Events cross
 * as JSON both ways: the TypeScript side writes JSON.stringify of its object, the library
 * parses it strictly (so a lone surrogate or a wrong type is the library's error) and writes
 * the canonical object back, which JSON.parse reads in one native pass. */
#include "exports.h"

#include <math.h>
#include <string.h>

/* A time given by the TypeScript side (a double holding an integer of unix seconds). */
int scw_time(double t, int64_t *out)
{
    if (!(t >= 0.0 && t <= 9007199254740991.0) || floor(t) != t) {
        return 0;
    }
    *out = (int64_t)t;
    return 1;
}

static void put_f64(uint8_t *p, double v)
{
    memcpy(p, &v, sizeof v);
}

/* sign: JSON {kind, created_at, tags, content} -> the signed event's JSON. aux NULL: RNG. */
SCW_EXPORT int scw_event_sign(scw *w, const sc_identity *id, const char *json, uint32_t len,
                              const uint8_t *aux)
{
    sc_event ev;
    sc_status st =
        scw_event_in(w, &ev, json, len, SC_EVENT_HAS_ID | SC_EVENT_HAS_PUBKEY | SC_EVENT_HAS_SIG);

    if (st == SC_OK) {
        st = aux != NULL ? sc_event_sign_with_rand(w->ctx, &ev, id, aux)
                         : sc_event_sign(w->ctx, &ev, id);
    }
    return st == SC_OK ? scw_event_out(w, &ev, 0, NULL) : st;
}

/* parse + verify: a signed event's JSON -> its canonical JSON object. */
SCW_EXPORT int scw_event_verify(scw *w, const char *json, uint32_t len)
{
    sc_event ev;
    sc_status st = scw_event_in(w, &ev, json, len, 0);

    if (st == SC_OK) {
        st = sc_event_verify(w->ctx, &ev);
    }
    return st == SC_OK ? scw_event_out(w, &ev, 0, NULL) : st;
}

/* The rumor of JSON {kind, created_at, tags, content} by author (32 bytes): id set, no sig. */
SCW_EXPORT int scw_rumor(scw *w, const uint8_t *author, const char *json, uint32_t len)
{
    sc_event ev;
    sc_status st =
        scw_event_in(w, &ev, json, len, SC_EVENT_HAS_ID | SC_EVENT_HAS_PUBKEY | SC_EVENT_HAS_SIG);

    if (st == SC_OK) {
        st = sc_nip59_rumor(w->ctx, &ev, author);
    }
    return st == SC_OK ? scw_event_out(w, &ev, 0, NULL) : st;
}

/* NIP-40: res[0..8) = the expiration as a double (0: none) of an event's JSON (any fields
 * may be absent); the status of sc_nip40_check at now (now < 0: not checked). */
SCW_EXPORT int scw_nip40(scw *w, const char *json, uint32_t len, double now)
{
    sc_event ev;
    int64_t exp = 0, t = 0;
    sc_status st = scw_event_in(w, &ev, json, len, SC_EVENT_HAS_ALL);

    if (st == SC_OK) {
        st = sc_nip40_expiration(&ev, &exp);
    }
    if (st == SC_OK && now >= 0) {
        st = scw_time(now, &t) ? sc_nip40_check(&ev, t) : SC_ERR_ARG;
    }
    put_f64(w->res, (double)exp);
    return st;
}

/* Fills NIP-59 options: flags, the relay hint relay[0..rlen), expiration and now (doubles). */
sc_status scw_wrap_opts(sc_nip59_opts *o, uint32_t flags, const char *relay, uint32_t rlen,
                        double expiration, double now)
{
    memset(o, 0, sizeof *o);
    if (!scw_time(expiration, &o->expiration) || !scw_time(now, &o->now)) {
        return SC_ERR_ARG;
    }
    o->flags = flags;
    o->relay.ptr = rlen > 0 ? relay : NULL;
    o->relay.len = rlen;
    return SC_OK;
}

/* Gift-wraps a rumor (its JSON, with id and pubkey) from id to recipient: the wrap's JSON. */
SCW_EXPORT int scw_nip59_wrap(scw *w, const sc_identity *id, const uint8_t *recipient,
                              const char *json, uint32_t len, uint32_t flags, const char *relay,
                              uint32_t rlen, double expiration, double now)
{
    sc_event rumor;
    sc_nip59_opts o;
    size_t on, sn, got = 0;
    uint8_t *out, *scratch;
    sc_status st = scw_wrap_opts(&o, flags, relay, rlen, expiration, now);

    if (st == SC_OK) {
        st = scw_event_in(w, &rumor, json, len, SC_EVENT_HAS_SIG);
    }
    if (st != SC_OK) {
        return st;
    }
    on = sc_nip59_wrap_max(&rumor, &o);
    sn = sc_nip59_wrap_scratch_max(&rumor, &o);
    if (on == 0 || sn == 0) { /* the call names the failure */
        st = sc_nip59_wrap(w->ctx, NULL, 0, &got, NULL, 0, &rumor, id, recipient, &o);
        return st == SC_OK || st == SC_ERR_BUFFER_TOO_SMALL ? SC_ERR_TOO_LARGE : st;
    }
    if ((out = scw_output(w, on)) == NULL || (scratch = scw_scratch(w, sn)) == NULL) {
        return SC_ERR_NOMEM;
    }
    st = sc_nip59_wrap(w->ctx, (char *)out, on, &got, scratch, sn, &rumor, id, recipient, &o);
    return st == SC_OK ? scw_result(w, got) : st;
}

/* What unwrap learned, into res: sender, wrap pubkey, wrap id, seal id (32 bytes each),
 * wrap created_at and seal created_at (doubles at 128 and 136), wrap kind (u32 at 144). */
void scw_put_info(scw *w, const sc_nip59_info *i)
{
    memcpy(w->res, i->sender, 32);
    memcpy(w->res + 32, i->wrap_pubkey, 32);
    memcpy(w->res + 64, i->wrap_id, 32);
    memcpy(w->res + 96, i->seal_id, 32);
    put_f64(w->res + 128, (double)i->wrap_created_at);
    put_f64(w->res + 136, (double)i->seal_created_at);
    memcpy(w->res + 144, &i->wrap_kind, 4);
}

/* Unwraps a gift wrap for id (NIP-40 at now): the rumor's JSON, the facts in res. */
SCW_EXPORT int scw_nip59_unwrap(scw *w, const sc_identity *id, const char *json, uint32_t len,
                                double now)
{
    sc_event rumor;
    sc_nip59_info info;
    size_t need, used = 0;
    int64_t t;
    uint8_t *arena;
    sc_status st;

    if (len > SCW_MAX_INPUT) {
        return SC_ERR_TOO_LARGE;
    }
    if (!scw_time(now, &t)) {
        return SC_ERR_ARG;
    }
    need = sc_nip59_unwrap_arena_max(len);
    if (need == 0 || (arena = scw_scratch(w, need)) == NULL) {
        return need == 0 ? SC_ERR_TOO_LARGE : SC_ERR_NOMEM;
    }
    st = sc_nip59_unwrap_at(w->ctx, &rumor, &info, arena, need, &used, json, len, id, t);
    if (st != SC_OK) {
        return st;
    }
    scw_put_info(w, &info);
    return scw_event_out(w, &rumor, 0, NULL);
}
