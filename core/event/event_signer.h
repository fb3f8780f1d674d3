/* Signing an event as an operation's signer (signer.h): at once over a local identity, or as
 * a SIGN_EVENT request whose answer is verified against the user's key over the id computed
 * here. Used by every operation that signs as the user (core/event/event_signer.c). */
#ifndef SOFTCHAT_CORE_EVENT_SIGNER_H
#define SOFTCHAT_CORE_EVENT_SIGNER_H

#include <softchat/event.h>

/* Signs ev (its kind, created_at, tags and content) as op's signer. A local signer signs at
 * once, with aux (NULL: from the context's RNG), and sets pubkey, id and sig: SC_OK. For an
 * external signer ev's pubkey is set to the user's and its id computed (flags set, sig
 * cleared), and a SIGN_EVENT request for ev is posted on op: SC_OP_YIELD; the answer goes
 * to sc_event_signer_answer. ev must stay in place until then.
 * Returns: SC_OK; SC_OP_YIELD; as sc_event_sign_with_rand (on failure ev's id and sig are
 * zeroed and their flags cleared). */
sc_status sc_event_sign_as(sc_ctx *ctx, sc_signer_op *op, sc_event *ev, const uint8_t *aux);

/* Verifies text as the answer to the SIGN_EVENT request for ev (pubkey and id set by
 * sc_event_sign_as): 128 hex characters of a signature, or a signed event's JSON object
 * whose "sig" is one and whose "pubkey" and "id", when present, are ev's. The signature
 * must verify over ev's id by the user's key (ev's pubkey). Sets ev's sig and its flag.
 * Returns: SC_OK; SC_ERR_SIGNER_ANSWER; the context's statuses. */
sc_status sc_event_signer_answer(sc_ctx *ctx, sc_event *ev, const char *text, size_t len);

#endif
