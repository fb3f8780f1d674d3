/* A held NIP-44 conversation: the conversation key in caller memory, behind a magic so that a
 * cleared or never-initialised struct is refused rather than used as an all-zero key. */
#include <softchat/mem.h>
#include <softchat/nip44.h>

#include <string.h>

#include "nip44/nip44_internal.h"

#define SC_CONVERSATION_MAGIC 0x53436376u /* "SCcv" */

typedef struct sc_nip44_conversation_impl {
    uint32_t magic;
    uint32_t reserved;
    uint8_t ck[SC_NIP44_KEY_BYTES];
} sc_nip44_conversation_impl;

typedef char sc_nip44_conversation_fits
    [(sizeof(sc_nip44_conversation_impl) <= sizeof(sc_nip44_conversation)) ? 1 : -1];

/* The live conversation behind conv, or NULL if it is NULL, cleared or never initialised. */
static const sc_nip44_conversation_impl *conv_get(const sc_nip44_conversation *conv)
{
    const sc_nip44_conversation_impl *i = (const sc_nip44_conversation_impl *)(const void *)conv;
    return (i != NULL && i->magic == SC_CONVERSATION_MAGIC) ? i : NULL;
}

void sc_nip44_conversation_clear(sc_nip44_conversation *conv)
{
    if (conv != NULL) {
        sc_mem_wipe(conv, sizeof *conv);
    }
}

sc_status sc_nip44_conversation_init(sc_ctx *ctx, sc_nip44_conversation *conv,
                                     const sc_identity *me, const uint8_t peer[SC_PUBKEY_BYTES])
{
    sc_nip44_conversation_impl *i = (sc_nip44_conversation_impl *)(void *)conv;
    sc_status st;

    if (conv == NULL) {
        return SC_ERR_ARG;
    }
    sc_nip44_conversation_clear(conv);
    if (ctx == NULL || me == NULL || peer == NULL) {
        return SC_ERR_ARG;
    }
    /* SC_ERR_STATE for an identity erased or never imported */
    st = sc_nip44_identity_key(ctx, i->ck, me, peer);
    if (st != SC_OK) {
        sc_nip44_conversation_clear(conv);
        return st;
    }
    i->magic = SC_CONVERSATION_MAGIC;
    return SC_OK;
}

sc_status sc_nip44_conversation_init_key(sc_nip44_conversation *conv,
                                         const uint8_t ck[SC_NIP44_KEY_BYTES])
{
    sc_nip44_conversation_impl *i = (sc_nip44_conversation_impl *)(void *)conv;

    if (conv == NULL) {
        return SC_ERR_ARG;
    }
    sc_nip44_conversation_clear(conv);
    if (ck == NULL) {
        return SC_ERR_ARG;
    }
    memcpy(i->ck, ck, SC_NIP44_KEY_BYTES);
    i->magic = SC_CONVERSATION_MAGIC;
    return SC_OK;
}

/* The common start of encrypt and decrypt: *out_len zeroed, then the held key in *ck.
 * Returns SC_OK; SC_ERR_ARG (out_len or conv NULL); SC_ERR_STATE (cleared or never set). */
static sc_status conv_key(const sc_nip44_conversation *conv, size_t *out_len, const uint8_t **ck)
{
    const sc_nip44_conversation_impl *i = conv_get(conv);

    if (out_len == NULL) {
        return SC_ERR_ARG;
    }
    *out_len = 0;
    if (conv == NULL) {
        return SC_ERR_ARG;
    }
    if (i == NULL) {
        return SC_ERR_STATE;
    }
    *ck = i->ck;
    return SC_OK;
}

sc_status sc_nip44_conversation_encrypt(sc_ctx *ctx, char *out, size_t out_cap, size_t *out_len,
                                        const sc_nip44_conversation *conv, const uint8_t *pt,
                                        size_t len, unsigned flags)
{
    const uint8_t *ck = NULL;
    sc_status st = conv_key(conv, out_len, &ck);

    return st != SC_OK ? st : sc_nip44_encrypt(ctx, out, out_cap, out_len, ck, pt, len, flags);
}

sc_status sc_nip44_conversation_decrypt(sc_ctx *ctx, uint8_t *out, size_t out_cap, size_t *out_len,
                                        const sc_nip44_conversation *conv, const char *payload,
                                        size_t payload_len, size_t max_payload)
{
    const uint8_t *ck = NULL;
    sc_status st = conv_key(conv, out_len, &ck);

    return st != SC_OK ? st
                       : sc_nip44_decrypt(ctx, out, out_cap, out_len, ck, payload, payload_len,
                                          max_payload);
}
