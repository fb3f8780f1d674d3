/* Streaming AES-256-GCM over the context's aead group, for both directions.
 *
 * The lease: the backend keeps one streaming operation per context, so a stream takes the
 * context's SC_CTXF_AEAD_BUSY flag at start and gives it back at finish, at abort and on
 * every failure. Every call checks that the context is live and the lease is still held, so
 * a stream whose context was cleared under it (sc_ctx_clear aborts the backend operation) is
 * refused with SC_ERR_STATE, also after the context was initialised again (unless a new
 * stream has taken the lease there meanwhile: the flag names no owner).
 *
 * The rechunking: callers feed any number of bytes; the backend only ever sees updates whose
 * length is a multiple of 16, except the last one, made at finish. Up to 15 bytes wait in the
 * stream between calls.
 *
 * Caller memory only; the stream holds a pointer to the context, which must stay valid until
 * the stream ends (clearing the context ends it). */
#ifndef SOFTCHAT_CORE_AEAD_STREAM_H
#define SOFTCHAT_CORE_AEAD_STREAM_H

#include <softchat/backend.h>
#include <softchat/ctx.h>

#include <stddef.h>
#include <stdint.h>

#define SC_AEAD_BLOCK 16u
/* GCM encrypts at most 2^39 - 256 bits under one key and IV (SP 800-38D): 2^36 - 32 bytes */
#define SC_AEAD_STREAM_MAX_BYTES ((((uint64_t)1) << 36) - 32u)

typedef struct sc_aead_stream {
    sc_ctx *ctx;                 /* NULL when the stream is not live */
    uint64_t total;              /* bytes accepted so far (plaintext or ciphertext) */
    uint8_t part[SC_AEAD_BLOCK]; /* the incomplete block waiting for more input */
    size_t part_len;             /* 0..15 */
    int decrypt;
} sc_aead_stream;

/* Takes the context's lease and starts the backend operation; s is zeroed first.
 * Returns: SC_OK; SC_ERR_STATE (bad ctx, or another stream holds the lease);
 *          SC_ERR_UNSUPPORTED (no aead group, or no streaming with iv_len-byte IVs);
 *          a backend failure (the lease is given back). */
sc_status sc_aead_stream_start(sc_aead_stream *s, sc_ctx *ctx, int decrypt,
                               const uint8_t key[SC_AES256GCM_KEY_BYTES], const uint8_t *iv,
                               size_t iv_len);

/* Processes in[0..len) and writes to out, which must not overlap in, exactly the whole blocks
 * now available: (waiting bytes + len) rounded down to a multiple of 16, never more than
 * len + 15. *out_len says how many.
 * Returns: SC_OK; SC_ERR_STATE (not live, or the lease was lost); SC_ERR_TOO_LARGE (past
 *          GCM's limit); a backend failure. Every failure ends the stream (aborted, wiped). */
sc_status sc_aead_stream_update(sc_aead_stream *s, uint8_t *out, size_t *out_len, const uint8_t *in,
                                size_t len);

/* Processes the waiting bytes into out (at most 15; *out_len says how many) and finishes:
 * encryption writes tag, decryption checks it in constant time. The stream ends either way.
 * Returns: SC_OK; SC_ERR_AUTH (decryption: out is zeroed); SC_ERR_STATE; a backend failure. */
sc_status sc_aead_stream_final(sc_aead_stream *s, uint8_t out[SC_AEAD_BLOCK - 1], size_t *out_len,
                               uint8_t tag[SC_AES256GCM_TAG_BYTES]);

/* Ends a stream: if it is live and its context still holds the lease, aborts the backend
 * operation and gives the lease back. Wipes s in every case. */
void sc_aead_stream_abort(sc_aead_stream *s);

#endif
