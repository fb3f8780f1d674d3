/* The signer (a local identity or an external signer's public key) and the frame every
 * operation over it runs in: the request it waits on, its deadline, its outcome, and the
 * three hooks of the area whose operation it is (core/signer/signer_internal.h). */
#include <softchat/mem.h>
#include <softchat/signer.h>

#include <string.h>

#include "ctx/ctx_internal.h"
#include "identity/identity_internal.h"
#include "signer/signer_internal.h"

#define SC_SIGNER_MAGIC 0x53437367u /* "SCsg" */
#define SC_OP_MAGIC 0x53436f70u     /* "SCop" */

typedef struct sc_signer_impl {
    uint32_t magic;
    uint32_t external;
    const sc_identity *id; /* local: the identity (by reference) */
    uint8_t pub[SC_PUBKEY_BYTES];
    uint32_t timeout_ms;
} sc_signer_impl;

typedef char sc_signer_fits[(sizeof(sc_signer_impl) <= sizeof(sc_signer)) ? 1 : -1];

/* Where an operation stands. */
enum {
    OP_RUNNING = 1,
    OP_WAITING = 2,
    OP_ENDED = 3
};

typedef struct sc_op_impl {
    uint32_t magic;
    uint32_t phase;
    sc_status status; /* OP_ENDED: the outcome */
    uint32_t seq;
    int64_t deadline_ms;
    const sc_op_vt *vt;
    sc_signer signer;
    /* the request posted, or waiting for its answer */
    sc_signer_req_kind kind;
    uint8_t peer[SC_PUBKEY_BYTES];
    sc_str text;
    const sc_event *event;
    uint64_t body[SC_OP_BODY_BYTES / sizeof(uint64_t)];
} sc_op_impl;

typedef char sc_op_fits[(sizeof(sc_op_impl) <= sizeof(sc_signer_op)) ? 1 : -1];

size_t sc_signer_bytes(void)
{
    return sizeof(sc_signer);
}

size_t sc_signer_op_bytes(void)
{
    return sizeof(sc_signer_op);
}

static const sc_signer_impl *signer_get(const sc_signer *s)
{
    const sc_signer_impl *i = (const sc_signer_impl *)(const void *)s;

    return (i != NULL && i->magic == SC_SIGNER_MAGIC) ? i : NULL;
}

void sc_signer_set_local(sc_signer *s, const sc_identity *id)
{
    sc_signer_impl *i = (sc_signer_impl *)(void *)s;

    memset(s, 0, sizeof *s);
    i->magic = SC_SIGNER_MAGIC;
    i->id = id;
}

sc_status sc_signer_check(const sc_signer *s)
{
    const sc_signer_impl *i = signer_get(s);

    if (s == NULL || (i != NULL && !i->external && i->id == NULL)) {
        return SC_ERR_ARG;
    }
    if (i == NULL || (!i->external && !sc_identity_live(i->id))) {
        return SC_ERR_STATE;
    }
    return SC_OK;
}

const sc_identity *sc_signer_identity(const sc_signer *s)
{
    const sc_signer_impl *i = signer_get(s);

    return (i != NULL && !i->external) ? i->id : NULL;
}

sc_status sc_signer_init_local(sc_signer *s, const sc_identity *id)
{
    if (s == NULL) {
        return SC_ERR_ARG;
    }
    memset(s, 0, sizeof *s);
    if (id == NULL) {
        return SC_ERR_ARG;
    }
    if (!sc_identity_live(id)) {
        return SC_ERR_STATE;
    }
    sc_signer_set_local(s, id);
    return SC_OK;
}

sc_status sc_signer_init_external(sc_signer *s, const uint8_t user[SC_PUBKEY_BYTES],
                                  uint32_t timeout_ms)
{
    sc_signer_impl *i = (sc_signer_impl *)(void *)s;

    if (s == NULL) {
        return SC_ERR_ARG;
    }
    memset(s, 0, sizeof *s);
    if (user == NULL) {
        return SC_ERR_ARG;
    }
    i->magic = SC_SIGNER_MAGIC;
    i->external = 1;
    memcpy(i->pub, user, SC_PUBKEY_BYTES);
    i->timeout_ms = timeout_ms != 0 ? timeout_ms : SC_SIGNER_TIMEOUT_DEFAULT_MS;
    return SC_OK;
}

sc_status sc_signer_pubkey(uint8_t pub[SC_PUBKEY_BYTES], const sc_signer *s)
{
    const sc_signer_impl *i = signer_get(s);
    sc_status st;

    if (pub == NULL || s == NULL) {
        return SC_ERR_ARG;
    }
    st = sc_signer_check(s);
    if (st != SC_OK) {
        return st == SC_ERR_ARG ? SC_ERR_STATE : st; /* s itself is not NULL */
    }
    if (i->external) {
        memcpy(pub, i->pub, SC_PUBKEY_BYTES);
        return SC_OK;
    }
    return sc_identity_pubkey(pub, i->id);
}

int sc_signer_is_external(const sc_signer *s)
{
    const sc_signer_impl *i = signer_get(s);

    return i != NULL && i->external;
}

void sc_signer_clear(sc_signer *s)
{
    if (s != NULL) {
        sc_mem_wipe(s, sizeof *s);
    }
}

/* ---- the operation's frame --------------------------------------------------------------- */

static sc_op_impl *op_get(sc_signer_op *op)
{
    sc_op_impl *o = (sc_op_impl *)(void *)op;

    return (o != NULL && o->magic == SC_OP_MAGIC) ? o : NULL;
}

void *sc_op_start(sc_signer_op *op, const sc_signer *s, const sc_op_vt *vt)
{
    sc_op_impl *o = (sc_op_impl *)(void *)op;

    if (op == NULL || s == NULL || vt == NULL) {
        return NULL;
    }
    sc_mem_wipe(op, sizeof *op);
    o->magic = SC_OP_MAGIC;
    o->phase = OP_RUNNING;
    o->vt = vt;
    o->signer = *s;
    return o->body;
}

void sc_op_drop(sc_signer_op *op)
{
    if (op != NULL) {
        sc_mem_wipe(op, sizeof *op);
    }
}

void *sc_op_body(sc_signer_op *op)
{
    sc_op_impl *o = op_get(op);

    return o != NULL ? o->body : NULL;
}

const sc_signer *sc_op_signer(const sc_signer_op *op)
{
    return &((const sc_op_impl *)(const void *)op)->signer;
}

void sc_op_post(sc_signer_op *op, sc_signer_req_kind kind, const uint8_t *peer, sc_str text,
                const sc_event *event)
{
    sc_op_impl *o = (sc_op_impl *)(void *)op;

    o->kind = kind;
    if (peer != NULL) {
        memcpy(o->peer, peer, SC_PUBKEY_BYTES);
    } else {
        memset(o->peer, 0, SC_PUBKEY_BYTES);
    }
    o->text = text;
    o->event = event;
}

/* Ends the operation with st: a failure wipes what the area's contract says, then the body
 * (the secrets it held) goes either way, and the outcome stays for later steps. */
static sc_status op_end(sc_signer_op *op, sc_op_impl *o, sc_status st)
{
    if (st != SC_OK) {
        o->vt->fail(op, st);
    }
    sc_mem_wipe(o->body, sizeof o->body);
    o->kind = SC_SIGNER_REQ_NONE;
    o->text.ptr = NULL;
    o->text.len = 0;
    o->event = NULL;
    o->phase = OP_ENDED;
    o->status = st;
    return st;
}

static void describe(const sc_op_impl *o, sc_signer_req *req)
{
    req->kind = o->kind;
    req->seq = o->seq;
    req->deadline_ms = o->deadline_ms;
    memcpy(req->peer, o->peer, SC_PUBKEY_BYTES);
    req->text = o->text;
    req->event = o->event;
}

sc_status sc_signer_op_step(sc_signer_op *op, sc_ctx *ctx, int64_t now_ms, sc_signer_req *req)
{
    const sc_signer_impl *si;
    sc_op_impl *o = op_get(op);
    sc_status st;

    if (req == NULL || op == NULL) {
        return SC_ERR_ARG;
    }
    memset(req, 0, sizeof *req);
    if (o == NULL) {
        return SC_ERR_STATE;
    }
    if (o->phase == OP_ENDED) {
        return o->status;
    }
    if (sc_ctx_impl_get(ctx) == NULL) {
        return sc_ctx_error(ctx);
    }
    if (o->phase == OP_WAITING) {
        if (now_ms >= o->deadline_ms) {
            return op_end(op, o, SC_ERR_TIMEOUT);
        }
        describe(o, req);
        return SC_OK;
    }
    st = o->vt->step(op, ctx);
    if (st != SC_OP_YIELD) {
        return op_end(op, o, st);
    }
    si = (const sc_signer_impl *)(const void *)&o->signer;
    o->phase = OP_WAITING;
    o->seq++;
    o->deadline_ms =
        now_ms > INT64_MAX - (int64_t)si->timeout_ms ? INT64_MAX : now_ms + (int64_t)si->timeout_ms;
    describe(o, req);
    return SC_OK;
}

sc_status sc_signer_op_answer(sc_signer_op *op, sc_ctx *ctx, const char *text, size_t len)
{
    sc_op_impl *o = op_get(op);
    sc_status st;

    if (op == NULL || (text == NULL && len != 0)) {
        return SC_ERR_ARG;
    }
    if (o == NULL || o->phase != OP_WAITING) {
        return SC_ERR_STATE;
    }
    if (sc_ctx_impl_get(ctx) == NULL) {
        return sc_ctx_error(ctx);
    }
    st = o->vt->answer(op, ctx, text != NULL ? text : "", len);
    if (st != SC_OK) {
        return op_end(op, o, st);
    }
    o->phase = OP_RUNNING;
    o->kind = SC_SIGNER_REQ_NONE;
    return SC_OK;
}

sc_status sc_signer_op_refuse(sc_signer_op *op)
{
    sc_op_impl *o = op_get(op);

    if (op == NULL) {
        return SC_ERR_ARG;
    }
    if (o == NULL || o->phase != OP_WAITING) {
        return SC_ERR_STATE;
    }
    op_end(op, o, SC_ERR_SIGNER_REFUSED);
    return SC_OK;
}

void sc_signer_op_clear(sc_signer_op *op)
{
    sc_op_impl *o = op_get(op);

    if (o != NULL && o->phase != OP_ENDED) {
        op_end(op, o, SC_ERR_STATE);
    }
    if (op != NULL) {
        sc_mem_wipe(op, sizeof *op);
    }
}

sc_status sc_op_run_local(sc_signer_op *op, sc_ctx *ctx, sc_status st)
{
    sc_signer_req req;

    if (st == SC_OK) {
        st = sc_signer_op_step(op, ctx, 0, &req);
        if (st == SC_OK && req.kind != SC_SIGNER_REQ_NONE) {
            st = SC_ERR_INTERNAL; /* a local signer never asks: cannot happen */
        }
    }
    sc_signer_op_clear(op);
    return st;
}
