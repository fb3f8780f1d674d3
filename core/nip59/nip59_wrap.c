/* NIP-59 sealing and gift wrapping over caller buffers, in stages: the rumor encrypted to the
 * recipient as the author's signer, the seal signed as the author's signer, then the gift
 * wrap made with the one-time key. Over a local identity the stages run through in one go;
 * over an external signer the first two each stop at a request and go on from its answer.
 *
 * The scratch is two regions: X (the first seal_json bytes) holds the rumor JSON and then the
 * seal JSON, Y (the next wrap_payload bytes) the seal content and then the wrap content. Each
 * NIP-44 step reads one region and writes the other, so plaintext and payload never share
 * bytes; X is wiped as soon as its plaintext has been encrypted, and the whole scratch, the
 * conversation key and the one-time identity are wiped on every path. */
#include <softchat/mem.h>
#include <softchat/nip44.h>
#include <softchat/nip59.h>

#include <string.h>

#include "event/event_signer.h"
#include "nip44/nip44_internal.h"
#include "nip59/nip59_internal.h"
#include "signer/signer_internal.h"

/* Where a wrap stands. */
enum {
    W_ENCRYPT = 0, /* the rumor JSON to encrypt to the recipient */
    W_ENCRYPTING,  /* asked the signer to encrypt it */
    W_SIGN,        /* the seal content is in Y: sign the seal */
    W_SIGNING,     /* asked the signer to sign it */
    W_WRAP,        /* the seal is signed: wrap it */
    W_DONE
};

sc_status sc_nip59_wrap_begin(sc_nip59_wrap_op *w, const sc_nip59_rand *rnd, char *out,
                              size_t *out_len, void *scratch)
{
    sc_status st = sc_nip59_plan_sizes(&w->p, w->rumor, &w->o,
                                       sc_nip59_backdated(w->o.now, rnd->seal_backdate),
                                       sc_nip59_backdated(w->o.now, rnd->wrap_backdate));

    if (st != SC_OK) {
        return st;
    }
    if (rnd != &w->rnd) {
        w->rnd = *rnd;
    }
    w->out = out;
    w->out_len = out_len;
    w->x = (char *)scratch;
    w->y = w->x + w->p.seal_json;
    w->stage = W_ENCRYPT;
    return SC_OK;
}

/* The rumor as JSON into X, then its encryption to the recipient into Y. */
static sc_status seal_encrypt(sc_nip59_wrap_op *w, sc_ctx *ctx, sc_signer_op *op)
{
    size_t n = 0;
    sc_status st;

    st = sc_event_to_json(w->x, w->p.rumor_json, &n, w->rumor, SC_EVENT_JSON_OBJECT);
    if (st == SC_OK && n != w->p.rumor_json) {
        st = SC_ERR_INTERNAL; /* the plan and the writer disagree: cannot happen */
    }
    if (st == SC_OK) {
        st =
            sc_nip44_encrypt_as(ctx, op, w->y, &n, w->recipient, (const uint8_t *)w->x,
                                w->p.rumor_json, w->o.flags & SC_NIP44_EXTENDED, w->rnd.seal_nonce);
    }
    if (st == SC_OK && n != w->p.seal_payload) {
        st = SC_ERR_INTERNAL;
    }
    return st;
}

/* The seal over the content in Y, signed as the author (or its request posted). */
static sc_status seal_sign(sc_nip59_wrap_op *w, sc_ctx *ctx, sc_signer_op *op)
{
    sc_event *ev = &w->seal;

    sc_nip59_tags_init(&w->tags, NULL, &w->o);
    memset(ev, 0, sizeof *ev);
    ev->kind = SC_NIP59_KIND_SEAL;
    ev->created_at = sc_nip59_backdated(w->o.now, w->rnd.seal_backdate);
    ev->tags = w->tags.n != 0 ? w->tags.tags : NULL;
    ev->n_tags = w->tags.n;
    ev->content.ptr = w->y;
    ev->content.len = w->p.seal_payload;
    ev->flags =
        SC_EVENT_HAS_KIND | SC_EVENT_HAS_CREATED_AT | SC_EVENT_HAS_TAGS | SC_EVENT_HAS_CONTENT;
    return sc_event_sign_as(ctx, op, ev, w->rnd.seal_aux);
}

/* The gift wrap of the signed seal: its JSON into X, encrypted under conv(one, recipient)
 * into Y, signed by `one`, written to out. */
static sc_status wrap_seal(sc_nip59_wrap_op *w, sc_ctx *ctx, const sc_identity *one)
{
    unsigned flags = w->o.flags & SC_NIP44_EXTENDED;
    uint8_t ck[SC_NIP44_KEY_BYTES];
    sc_nip59_tags tags;
    sc_event ev;
    size_t n = 0;
    sc_status st;

    st = sc_event_to_json(w->x, w->p.seal_json, &n, &w->seal, SC_EVENT_JSON_OBJECT);
    if (st == SC_OK && n != w->p.seal_json) {
        st = SC_ERR_INTERNAL; /* the plan and the writer disagree: cannot happen */
    }
    if (st == SC_OK) {
        st = sc_nip44_identity_key(ctx, ck, one, w->recipient);
    }
    if (st == SC_OK) {
        st = sc_nip44_encrypt_with_rand(ctx, w->y, w->p.wrap_payload, &n, ck, w->rnd.wrap_nonce,
                                        (const uint8_t *)w->x, w->p.seal_json, flags);
    }
    sc_mem_wipe(ck, sizeof ck);
    sc_mem_wipe(w->x, w->p.seal_json); /* the seal names the sender */
    if (st == SC_OK && n != w->p.wrap_payload) {
        st = SC_ERR_INTERNAL;
    }
    if (st != SC_OK) {
        return st;
    }
    sc_nip59_tags_init(&tags, w->recipient, &w->o);
    memset(&ev, 0, sizeof ev);
    ev.kind =
        (w->o.flags & SC_NIP59_EPHEMERAL) != 0 ? SC_NIP59_KIND_WRAP_EPHEMERAL : SC_NIP59_KIND_WRAP;
    ev.created_at = sc_nip59_backdated(w->o.now, w->rnd.wrap_backdate);
    ev.tags = tags.tags;
    ev.n_tags = tags.n;
    ev.content.ptr = w->y;
    ev.content.len = w->p.wrap_payload;
    st = sc_event_sign_with_rand(ctx, &ev, one, w->rnd.wrap_aux);
    if (st == SC_OK) {
        st = sc_event_to_json(w->out, w->p.wrap_json, w->out_len, &ev, SC_EVENT_JSON_OBJECT);
    }
    if (st == SC_OK && *w->out_len != w->p.wrap_json) {
        sc_mem_wipe(w->out, *w->out_len); /* the plan and the writer disagree: cannot happen */
        st = SC_ERR_INTERNAL;
    }
    return st;
}

/* The last stage: the one-time key (imported now unless it was drawn) wraps the seal and is
 * wiped. */
static sc_status wrap_stage(sc_nip59_wrap_op *w, sc_ctx *ctx)
{
    sc_status st = w->has_one ? SC_OK : sc_identity_import(ctx, &w->one, w->rnd.wrap_seckey);

    if (st == SC_OK) {
        st = wrap_seal(w, ctx, &w->one);
    }
    sc_identity_clear(&w->one);
    w->has_one = 0;
    return st;
}

sc_status sc_nip59_wrap_run(sc_nip59_wrap_op *w, sc_ctx *ctx, sc_signer_op *op)
{
    sc_status st = SC_OK;

    while (st == SC_OK && w->stage != W_DONE) {
        switch (w->stage) {
        case W_ENCRYPT:
            st = seal_encrypt(w, ctx, op);
            w->stage = st == SC_OP_YIELD ? W_ENCRYPTING : W_SIGN;
            break;
        case W_SIGN:
            sc_mem_wipe(w->x, w->p.rumor_json); /* the rumor in clear */
            st = seal_sign(w, ctx, op);
            w->stage = st == SC_OP_YIELD ? W_SIGNING : W_WRAP;
            break;
        case W_WRAP:
            st = wrap_stage(w, ctx);
            w->stage = W_DONE;
            break;
        default:
            st = SC_ERR_STATE; /* a request without its answer: the frame prevents it */
            break;
        }
    }
    if (st == SC_OK) {
        sc_mem_wipe(w->x, w->p.scratch);
        sc_mem_wipe(&w->rnd, sizeof w->rnd);
    }
    return st;
}

sc_status sc_nip59_wrap_answer(sc_nip59_wrap_op *w, sc_ctx *ctx, const char *text, size_t len)
{
    sc_status st = SC_ERR_STATE;

    if (w->stage == W_ENCRYPTING) {
        st = sc_nip44_encrypt_answer(w->y, w->p.rumor_json, text, len);
        w->stage = W_SIGN;
    } else if (w->stage == W_SIGNING) {
        st = sc_event_signer_answer(ctx, &w->seal, text, len);
        w->stage = W_WRAP;
    }
    return st;
}

void sc_nip59_wrap_abort(sc_nip59_wrap_op *w)
{
    if (w->x != NULL) {
        sc_mem_wipe(w->x, w->p.scratch);
    }
    sc_mem_wipe(&w->rnd, sizeof w->rnd);
    sc_identity_clear(&w->one);
    w->has_one = 0;
    if (w->out_len != NULL) {
        *w->out_len = 0; /* out is written by the last stage only, and never when it fails */
    }
}
