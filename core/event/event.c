/* NIP-01 events: the id (the canonical text streamed into SHA-256), signing and verification
 * through the identity API. */
#include <softchat/crypto.h>
#include <softchat/mem.h>
#include <softchat/event.h>

#include <stdint.h>
#include <string.h>

#include "event/event_check.h"
#include "event/event_json.h"
#include "util/json_write.h"

/* The SHA-256 state the writer's sink feeds. */
typedef struct id_hash {
    sc_ctx *ctx;
    sc_sha256_state sha;
} id_hash;

static sc_status hash_sink(void *arg, const uint8_t *p, size_t n)
{
    id_hash *h = arg;

    return sc_crypto_sha256_update(h->ctx, &h->sha, p, n);
}

/* The id of an event that passed sc_event_check_written (the writer checks the UTF-8). */
static sc_status hash_event(sc_ctx *ctx, uint8_t id[SC_EVENT_ID_BYTES], const sc_event *ev)
{
    id_hash h;
    sc_jw w;
    sc_status st;

    h.ctx = ctx;
    st = sc_crypto_sha256_init(ctx, &h.sha);
    if (st != SC_OK) {
        return st;
    }
    sc_jw_init_sink(&w, hash_sink, &h);
    sc_event_write(&w, ev, SC_EVENT_JSON_CANONICAL);
    st = sc_jw_flush(&w);
    if (st == SC_OK) {
        st = sc_crypto_sha256_final(ctx, &h.sha, id);
    }
    sc_mem_wipe(&h.sha, sizeof h.sha);
    /* a rumor's content may be private: wipe every byte the stage held */
    sc_mem_wipe(w.stage, w.staged > w.stage_used ? w.staged : w.stage_used);
    return st;
}

sc_status sc_event_compute_id(sc_ctx *ctx, uint8_t id[SC_EVENT_ID_BYTES], const sc_event *ev)
{
    sc_status st;

    if (id == NULL) {
        return SC_ERR_ARG;
    }
    if (ctx == NULL || ev == NULL) {
        st = SC_ERR_ARG;
    } else if ((st = sc_event_check_written(ev, SC_EVENT_HAS_PUBKEY)) == SC_OK) {
        st = hash_event(ctx, id, ev);
    }
    if (st != SC_OK) {
        sc_mem_wipe(id, SC_EVENT_ID_BYTES);
    }
    return st;
}

/* Signs with the caller's aux, or with aux from the context's RNG when use_rng is set. The
 * pubkey changes only on success; id and sig are set on success and cleared on failure. */
static sc_status sign_event(sc_ctx *ctx, sc_event *ev, const sc_identity *who, const uint8_t *aux,
                            int use_rng)
{
    uint8_t id[SC_EVENT_ID_BYTES], sig[SC_SIG_BYTES];
    sc_event tmp;
    sc_status st;

    if (ctx == NULL || who == NULL || (aux == NULL && !use_rng)) {
        st = SC_ERR_ARG;
        goto out;
    }
    tmp = *ev;
    st = sc_identity_pubkey(tmp.pubkey, who);
    if (st != SC_OK) {
        goto out;
    }
    tmp.flags |= SC_EVENT_HAS_PUBKEY;
    st = sc_event_compute_id(ctx, id, &tmp);
    if (st != SC_OK) {
        goto out;
    }
    st = use_rng ? sc_identity_sign(ctx, sig, who, id)
                 : sc_identity_sign_with_rand(ctx, sig, who, id, aux);
    if (st != SC_OK) {
        goto out;
    }
    memcpy(ev->pubkey, tmp.pubkey, SC_PUBKEY_BYTES);
    memcpy(ev->id, id, SC_EVENT_ID_BYTES);
    memcpy(ev->sig, sig, SC_SIG_BYTES);
    ev->flags |= SC_EVENT_HAS_PUBKEY | SC_EVENT_HAS_ID | SC_EVENT_HAS_SIG;
out:
    if (st != SC_OK) {
        sc_mem_wipe(ev->id, SC_EVENT_ID_BYTES);
        sc_mem_wipe(ev->sig, SC_SIG_BYTES);
        ev->flags &= ~(unsigned)(SC_EVENT_HAS_ID | SC_EVENT_HAS_SIG);
    }
    return st;
}

sc_status sc_event_sign(sc_ctx *ctx, sc_event *ev, const sc_identity *who)
{
    if (ev == NULL) {
        return SC_ERR_ARG;
    }
    return sign_event(ctx, ev, who, NULL, 1);
}

sc_status sc_event_sign_with_rand(sc_ctx *ctx, sc_event *ev, const sc_identity *who,
                                  const uint8_t aux[32])
{
    if (ev == NULL) {
        return SC_ERR_ARG;
    }
    return sign_event(ctx, ev, who, aux, 0);
}

sc_status sc_event_verify(sc_ctx *ctx, const sc_event *ev)
{
    const unsigned need = SC_EVENT_HAS_ID | SC_EVENT_HAS_PUBKEY | SC_EVENT_HAS_SIG;
    uint8_t id[SC_EVENT_ID_BYTES];
    sc_status st;

    if (ctx == NULL || ev == NULL) {
        return SC_ERR_ARG;
    }
    if ((ev->flags & need) != need) {
        return SC_ERR_EVENT_FIELD;
    }
    st = sc_event_compute_id(ctx, id, ev);
    if (st != SC_OK) {
        return st;
    }
    /* the id is public, but comparing in constant time costs nothing */
    if (sc_mem_ct_compare(id, ev->id, SC_EVENT_ID_BYTES) != 0) {
        return SC_ERR_ID_MISMATCH;
    }
    return sc_identity_verify(ctx, ev->sig, id, ev->pubkey);
}
