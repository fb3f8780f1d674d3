/* Internal view of sc_identity, for core/ modules that need the keypair or secret key. */
#ifndef SOFTCHAT_CORE_IDENTITY_INTERNAL_H
#define SOFTCHAT_CORE_IDENTITY_INTERNAL_H

#include <softchat/identity.h>

#define SC_IDENTITY_MAGIC 0x53436964u /* "SCid" */

typedef struct sc_identity_impl {
    uint32_t magic;
    uint32_t reserved;
    uint8_t sec[SC_SECKEY_BYTES];
    uint8_t pub[SC_PUBKEY_BYTES];
    sc_curve_keypair kp;
} sc_identity_impl;

/* The live identity behind id, or NULL if id is NULL, never imported, or erased. */
const sc_identity_impl *sc_identity_impl_get(const sc_identity *id);

#endif
