/* The signer and the operation as core/ sees them: the layout of sc_signer, the identity of a
 * local signer, and the frame of an operation (its status, the request it waits on, and a body
 * that the area running it lays out: core/event, core/nip44, core/nip59, core/nip17), driven
 * through a table of three hooks. core/signer/signer.c defines everything declared here. */
#ifndef SOFTCHAT_CORE_SIGNER_INTERNAL_H
#define SOFTCHAT_CORE_SIGNER_INTERNAL_H

#include <softchat/event.h>
#include <softchat/signer.h>

/* A hook's "a request was posted (sc_op_post): return it to the caller", never a public
 * status (statuses are 0 or negative). */
#define SC_OP_YIELD 1

/* Bytes of an operation's body: the state of the area's operation. */
#define SC_OP_BODY_BYTES 1344u

/* The hooks of one kind of operation. */
typedef struct sc_op_vt {
    /* Runs the operation from where it stands: SC_OK (done, outputs written), SC_OP_YIELD (a
     * request was posted), or the failure. */
    sc_status (*step)(sc_signer_op *op, sc_ctx *ctx);
    /* Verifies and keeps the answer to the posted request: SC_OK, or the failure
     * (SC_ERR_SIGNER_ANSWER, or the context's). */
    sc_status (*answer)(sc_signer_op *op, sc_ctx *ctx, const char *text, size_t len);
    /* The operation failed with st (or was cleared while running: SC_ERR_STATE): wipes what
     * its contract says a failure leaves (outputs, the caller's working buffers). The body is
     * wiped by the caller afterwards. */
    void (*fail)(sc_signer_op *op, sc_status st);
} sc_op_vt;

/* Points s at a local identity without checking it (the synchronous calls, whose own checks
 * name a NULL or cleared identity in their order): sc_signer_check says what it is. */
void sc_signer_set_local(sc_signer *s, const sc_identity *id);

/* SC_OK for a usable signer; SC_ERR_ARG (s NULL, or a local one over a NULL identity);
 * SC_ERR_STATE (s not set up, or its identity not imported or cleared). */
sc_status sc_signer_check(const sc_signer *s);

/* The identity of a usable local signer; NULL for an external one (or an unusable s). */
const sc_identity *sc_signer_identity(const sc_signer *s);

/* Starts an operation on op over a copy of signer s with the hooks vt: op is wiped first.
 * Returns the body (SC_OP_BODY_BYTES, zeroed, aligned for any type), or NULL when op or s is
 * NULL. A failing _start calls sc_op_drop. */
void *sc_op_start(sc_signer_op *op, const sc_signer *s, const sc_op_vt *vt);

/* Wipes op (a _start that failed after sc_op_start: its later steps are SC_ERR_STATE). */
void sc_op_drop(sc_signer_op *op);

/* The body and the signer of a started operation. */
void *sc_op_body(sc_signer_op *op);
const sc_signer *sc_op_signer(const sc_signer_op *op);

/* Posts the request a step hook then returns SC_OP_YIELD for: its kind, peer (may be NULL),
 * text and event (views that must stay valid until the answer). */
void sc_op_post(sc_signer_op *op, sc_signer_req_kind kind, const uint8_t *peer, sc_str text,
                const sc_event *event);

/* The synchronous calls over an identity: runs op, started with status st over a local
 * signer, to its end (a local signer never asks), clears it, and returns its outcome. */
sc_status sc_op_run_local(sc_signer_op *op, sc_ctx *ctx, sc_status st);

#endif
