/* Signing an event as a signer: the local signature, the SIGN_EVENT request and the check of
 * its answer (the signature over the id computed here, by the user's key), and the event
 * signing operation of event.h (sc_event_sign_start). */
#include <softchat/hex.h>
#include <softchat/mem.h>
#include <softchat/signer.h>

#include <string.h>

#include "ctx/ctx_internal.h"
#include "event/event_signer.h"
#include "signer/signer_internal.h"
#include "util/json_object.h"

sc_status sc_event_sign_as(sc_ctx *ctx, sc_signer_op *op, sc_event *ev, const uint8_t *aux)
{
    const sc_signer *s = sc_op_signer(op);
    const sc_identity *id = sc_signer_identity(s);
    sc_event tmp;
    sc_status st;

    if (id != NULL) {
        return aux != NULL ? sc_event_sign_with_rand(ctx, ev, id, aux) : sc_event_sign(ctx, ev, id);
    }
    tmp = *ev;
    st = sc_signer_pubkey(tmp.pubkey, s);
    if (st == SC_OK) {
        tmp.flags |= SC_EVENT_HAS_PUBKEY;
        st = sc_event_compute_id(ctx, tmp.id, &tmp);
    }
    sc_mem_wipe(ev->sig, SC_SIG_BYTES);
    if (st != SC_OK) {
        sc_mem_wipe(ev->id, SC_EVENT_ID_BYTES);
        ev->flags &= ~(unsigned)(SC_EVENT_HAS_ID | SC_EVENT_HAS_SIG);
        return st;
    }
    memcpy(ev->pubkey, tmp.pubkey, SC_PUBKEY_BYTES);
    memcpy(ev->id, tmp.id, SC_EVENT_ID_BYTES);
    ev->flags = (ev->flags | SC_EVENT_HAS_PUBKEY | SC_EVENT_HAS_ID) & ~(unsigned)SC_EVENT_HAS_SIG;
    sc_op_post(op, SC_SIGNER_REQ_SIGN_EVENT, NULL, (sc_str){NULL, 0}, ev);
    return SC_OP_YIELD;
}

/* What a signed event's JSON says of itself: the fields an answer is checked by. */
typedef struct sig_fields {
    uint8_t sig[SC_SIG_BYTES], pub[SC_PUBKEY_BYTES], id[SC_EVENT_ID_BYTES];
    int has_sig, has_pub, has_id;
} sig_fields;

/* A hex string value of exactly n bytes into out; *seen must be 0 (a key given twice is
 * refused). */
static sc_status hex_member(sc_jscan *s, uint8_t *out, size_t n, int *seen)
{
    char hex[2 * SC_SIG_BYTES];
    size_t len = 0;
    sc_status st = sc_jobj_string(s, (uint8_t *)hex, sizeof hex, &len);

    if (st != SC_OK || *seen || len != 2 * n ||
        sc_hex_decode_fixed(out, n, hex, len, SC_HEX_ANY_CASE) != SC_OK) {
        return SC_ERR_SIGNER_ANSWER;
    }
    *seen = 1;
    return SC_OK;
}

/* The sig, pubkey and id members of a signed event's JSON object; every other member is
 * skipped (nested at most 32 deep). */
static sc_status read_event(const char *text, size_t len, sig_fields *f)
{
    sc_jscan s;
    char key[8];
    size_t key_len = 0;
    int more = 1, first = 1;
    sc_status st;

    sc_jscan_init(&s, text, len);
    st = sc_jobj_open(&s, '{');
    while (st == SC_OK) {
        st = sc_jobj_key(&s, first, key, sizeof key, &key_len, &more);
        first = 0;
        if (st != SC_OK || !more) {
            break;
        }
        if (key_len == 3 && memcmp(key, "sig", 3) == 0) {
            st = hex_member(&s, f->sig, SC_SIG_BYTES, &f->has_sig);
        } else if (key_len == 6 && memcmp(key, "pubkey", 6) == 0) {
            st = hex_member(&s, f->pub, SC_PUBKEY_BYTES, &f->has_pub);
        } else if (key_len == 2 && memcmp(key, "id", 2) == 0) {
            st = hex_member(&s, f->id, SC_EVENT_ID_BYTES, &f->has_id);
        } else {
            st = sc_jscan_skip(&s, 32);
        }
    }
    if (st == SC_OK) {
        st = sc_jobj_end(&s);
    }
    return st == SC_OK && f->has_sig ? SC_OK : SC_ERR_SIGNER_ANSWER;
}

sc_status sc_event_signer_answer(sc_ctx *ctx, sc_event *ev, const char *text, size_t len)
{
    sig_fields f;
    sc_status st;

    memset(&f, 0, sizeof f);
    if (len == 2 * SC_SIG_BYTES &&
        sc_hex_decode_fixed(f.sig, SC_SIG_BYTES, text, len, SC_HEX_ANY_CASE) == SC_OK) {
        f.has_sig = 1;
    } else if (read_event(text, len, &f) != SC_OK) {
        return SC_ERR_SIGNER_ANSWER;
    }
    /* an event of another key, or another event: not what was asked */
    if ((f.has_pub && memcmp(f.pub, ev->pubkey, SC_PUBKEY_BYTES) != 0) ||
        (f.has_id && memcmp(f.id, ev->id, SC_EVENT_ID_BYTES) != 0)) {
        return SC_ERR_SIGNER_ANSWER;
    }
    st = sc_identity_verify(ctx, f.sig, ev->id, ev->pubkey);
    if (st == SC_ERR_INVALID_SIG) {
        return SC_ERR_SIGNER_ANSWER;
    }
    if (st != SC_OK) {
        return st;
    }
    memcpy(ev->sig, f.sig, SC_SIG_BYTES);
    ev->flags |= SC_EVENT_HAS_SIG;
    return SC_OK;
}

/* ---- the operation (event.h: sc_event_sign_start) -------------------------------------- */

typedef struct sign_op {
    sc_event *ev;  /* the caller's */
    sc_event work; /* the event being signed: the caller's views, pubkey and id set here */
    uint8_t aux[SC_AUX_RAND_BYTES];
    int has_aux;
    int asked; /* the request was posted and answered */
} sign_op;

typedef char sign_op_fits[(sizeof(sign_op) <= SC_OP_BODY_BYTES) ? 1 : -1];

static void sign_done(sign_op *b)
{
    memcpy(b->ev->pubkey, b->work.pubkey, SC_PUBKEY_BYTES);
    memcpy(b->ev->id, b->work.id, SC_EVENT_ID_BYTES);
    memcpy(b->ev->sig, b->work.sig, SC_SIG_BYTES);
    b->ev->flags |= SC_EVENT_HAS_PUBKEY | SC_EVENT_HAS_ID | SC_EVENT_HAS_SIG;
}

static sc_status sign_step(sc_signer_op *op, sc_ctx *ctx)
{
    sign_op *b = (sign_op *)sc_op_body(op);
    sc_status st = SC_OK;

    if (!b->asked) {
        st = sc_event_sign_as(ctx, op, &b->work, b->has_aux ? b->aux : NULL);
    }
    if (st == SC_OK) {
        sign_done(b);
    }
    return st;
}

static sc_status sign_answer(sc_signer_op *op, sc_ctx *ctx, const char *text, size_t len)
{
    sign_op *b = (sign_op *)sc_op_body(op);
    sc_status st = sc_event_signer_answer(ctx, &b->work, text, len);

    b->asked = st == SC_OK;
    return st;
}

static void sign_fail(sc_signer_op *op, sc_status st)
{
    sign_op *b = (sign_op *)sc_op_body(op);

    (void)st;
    sc_mem_wipe(b->ev->id, SC_EVENT_ID_BYTES);
    sc_mem_wipe(b->ev->sig, SC_SIG_BYTES);
    b->ev->flags &= ~(unsigned)(SC_EVENT_HAS_ID | SC_EVENT_HAS_SIG);
}

static const sc_op_vt sign_vt = {sign_step, sign_answer, sign_fail};

/* The checks sc_event_sign makes before it signs, in its order. */
static sc_status sign_start(sc_ctx *ctx, sc_signer_op *op, sc_event *ev, const sc_signer *who,
                            const uint8_t *aux, int has_aux)
{
    uint8_t id[SC_EVENT_ID_BYTES];
    sign_op *b;
    sc_event tmp;
    sc_status st;

    if (ev == NULL) {
        return SC_ERR_ARG;
    }
    if (ctx == NULL || op == NULL || who == NULL || (has_aux && aux == NULL)) {
        st = SC_ERR_ARG;
    } else if (sc_ctx_impl_get(ctx) == NULL) {
        st = SC_ERR_STATE;
    } else {
        tmp = *ev;
        st = sc_signer_pubkey(tmp.pubkey, who);
        tmp.flags |= SC_EVENT_HAS_PUBKEY;
        if (st == SC_OK) {
            st = sc_event_compute_id(ctx, id, &tmp); /* the event's own checks */
        }
    }
    if (st != SC_OK) {
        sc_mem_wipe(ev->id, SC_EVENT_ID_BYTES);
        sc_mem_wipe(ev->sig, SC_SIG_BYTES);
        ev->flags &= ~(unsigned)(SC_EVENT_HAS_ID | SC_EVENT_HAS_SIG);
        sc_op_drop(op);
        return st;
    }
    b = (sign_op *)sc_op_start(op, who, &sign_vt);
    b->ev = ev;
    b->work = *ev;
    if (has_aux) {
        memcpy(b->aux, aux, SC_AUX_RAND_BYTES);
        b->has_aux = 1;
    }
    return SC_OK;
}

sc_status sc_event_sign_start(sc_ctx *ctx, sc_signer_op *op, sc_event *ev, const sc_signer *who)
{
    return sign_start(ctx, op, ev, who, NULL, 0);
}

sc_status sc_event_sign_start_with_rand(sc_ctx *ctx, sc_signer_op *op, sc_event *ev,
                                        const sc_signer *who, const uint8_t aux[SC_AUX_RAND_BYTES])
{
    return sign_start(ctx, op, ev, who, aux, 1);
}
