/* The seam through which core/ uses an identity's secret key. core/identity/identity.c is the
 * only file that reads it; everything else asks it for one of the two things a secret key
 * does: a BIP-340 signature over an event id (sc_identity_sign and sc_identity_sign_with_rand
 * of identity.h) and the ECDH shared x with a peer (below, from which
 * sc_nip44_identity_key in core/nip44/nip44.c derives every NIP-44 conversation key of an
 * identity). The public key comes from sc_identity_pubkey.
 *
 * An external signer (signer.h) offers what the user's key does at the level above: event
 * signatures and NIP-44 encryption and decryption to a peer. Every step that needs the user's
 * key asks for one of those (core/event/event_signer.c, core/nip44/nip44_signer.c), which over
 * a local identity end here. Nothing here allocates or keeps a copy of the secret. */
#ifndef SOFTCHAT_CORE_IDENTITY_INTERNAL_H
#define SOFTCHAT_CORE_IDENTITY_INTERNAL_H

#include <softchat/identity.h>

/* 1 when id holds a key (imported and not cleared), else 0 (NULL included). */
int sc_identity_live(const sc_identity *id);

/* The x coordinate of the ECDH point of id's secret key and peer (unhashed, as
 * sc_backend_curve's ecdh_x gives it): a secret, which the caller wipes.
 * Returns: SC_OK; SC_ERR_ARG (id or peer NULL, a NULL ctx); SC_ERR_STATE (id not imported or
 *          cleared, ctx not initialised); SC_ERR_INVALID_KEY (peer not on the curve);
 *          SC_ERR_UNSUPPORTED (no curve group).
 * Constant time: in the secret key. RNG: no. */
sc_status sc_identity_ecdh_x(sc_ctx *ctx, uint8_t x[SC_ECDH_X_BYTES], const sc_identity *id,
                             const uint8_t peer[SC_PUBKEY_BYTES]);

#endif
