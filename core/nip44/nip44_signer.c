/* NIP-44 as a signer (signer.h): encryption and decryption with the user's key, at once over
 * a local identity or as a request to an external signer whose answer is checked here (a
 * payload's exact length, strict base64 and version; a plaintext's UTF-8 and the one length
 * its padded size holds), and the NIP-44 operations of nip44.h (sc_nip44_encrypt_start,
 * sc_nip44_decrypt_start). */
#include <softchat/base64.h>
#include <softchat/mem.h>
#include <softchat/nip44.h>

#include <string.h>

#include "ctx/ctx_internal.h"
#include "nip44/nip44_internal.h"
#include "signer/signer_internal.h"
#include "util/utf8.h"

/* base64 characters checked per piece: a multiple of 4 */
#define B64_PIECE 1024u

sc_status sc_nip44_encrypt_as(sc_ctx *ctx, sc_signer_op *op, char *out, size_t *out_len,
                              const uint8_t *peer, const uint8_t *pt, size_t len, unsigned flags,
                              const uint8_t *nonce)
{
    const sc_identity *id = sc_signer_identity(sc_op_signer(op));
    size_t need = sc_nip44_encrypt_len(len);
    uint8_t ck[SC_NIP44_KEY_BYTES];
    sc_status st;

    *out_len = 0;
    if (id == NULL) {
        sc_op_post(op, SC_SIGNER_REQ_NIP44_ENCRYPT, peer, (sc_str){(const char *)pt, len}, NULL);
        return SC_OP_YIELD;
    }
    st = sc_nip44_identity_key(ctx, ck, id, peer);
    if (st == SC_OK) {
        st = nonce != NULL
                 ? sc_nip44_encrypt_with_rand(ctx, out, need, out_len, ck, nonce, pt, len, flags)
                 : sc_nip44_encrypt(ctx, out, need, out_len, ck, pt, len, flags);
    }
    sc_mem_wipe(ck, sizeof ck);
    return st;
}

sc_status sc_nip44_encrypt_answer(char *out, size_t pt_len, const char *text, size_t len)
{
    uint8_t raw[B64_PIECE / 4 * 3];
    size_t off = 0, n = 0;
    sc_status st = SC_OK;

    if (len == 0 || len != sc_nip44_encrypt_len(pt_len)) {
        return SC_ERR_SIGNER_ANSWER; /* NIP-44 gives each plaintext length one payload length */
    }
    /* strict base64 piece by piece: a piece before the last decodes whole, without padding */
    while (st == SC_OK && off < len) {
        size_t piece = len - off > B64_PIECE ? B64_PIECE : len - off;

        st = sc_base64_decode(raw, sizeof raw, &n, text + off, piece);
        if (st == SC_OK &&
            ((off == 0 && raw[0] != SC_NIP44_VERSION) || (off + piece < len && n != sizeof raw))) {
            st = SC_ERR_SIGNER_ANSWER;
        }
        off += piece;
    }
    sc_mem_wipe(raw, sizeof raw);
    if (st != SC_OK) {
        return SC_ERR_SIGNER_ANSWER;
    }
    memcpy(out, text, len);
    return SC_OK;
}

sc_status sc_nip44_payload_check(sc_ctx *ctx, const char *payload, size_t len, size_t max_payload,
                                 uint8_t *work, size_t cap, size_t *padded)
{
    size_t need = 0, n = 0;
    sc_status st;

    *padded = 0;
    st = sc_nip44_decrypt_check(ctx, &need, payload, len, max_payload);
    if (st == SC_OK && cap < need) {
        st = SC_ERR_BUFFER_TOO_SMALL;
    }
    if (st == SC_OK) {
        st = sc_base64_decode(work, cap, &n, payload, len);
    }
    if (st == SC_OK) {
        st = n < SC_NIP44_MIN_RAW               ? SC_ERR_PAYLOAD_SIZE
             : work[0] != SC_NIP44_VERSION      ? SC_ERR_VERSION
             : n - SC_NIP44_OVERHEAD < 2u + 32u ? SC_ERR_PAYLOAD_SIZE
                                                : SC_OK;
        *padded = n - SC_NIP44_OVERHEAD;
        sc_mem_wipe(work, n);
    }
    if (st != SC_OK) {
        *padded = 0;
    }
    return st;
}

sc_status sc_nip44_decrypt_as(sc_ctx *ctx, sc_signer_op *op, uint8_t *out, size_t cap,
                              size_t *out_len, const uint8_t *peer, const char *payload, size_t len,
                              size_t max_payload, size_t *padded)
{
    const sc_identity *id = sc_signer_identity(sc_op_signer(op));
    uint8_t ck[SC_NIP44_KEY_BYTES];
    sc_status st;

    *out_len = 0;
    if (id == NULL) {
        st = sc_nip44_payload_check(ctx, payload, len, max_payload, out, cap, padded);
        if (st == SC_OK) {
            sc_op_post(op, SC_SIGNER_REQ_NIP44_DECRYPT, peer, (sc_str){payload, len}, NULL);
            st = SC_OP_YIELD;
        }
        return st;
    }
    st = sc_nip44_identity_key(ctx, ck, id, peer);
    if (st == SC_OK) {
        st = sc_nip44_decrypt(ctx, out, cap, out_len, ck, payload, len, max_payload);
    }
    sc_mem_wipe(ck, sizeof ck);
    return st;
}

sc_status sc_nip44_decrypt_answer(uint8_t *out, size_t cap, size_t *out_len, size_t padded,
                                  const char *text, size_t len)
{
    *out_len = 0;
    /* the one plaintext length whose prefix and padding fill the payload's padded part */
    if (len == 0 || len > cap || (uint64_t)len > SC_NIP44_MAX_PLAINTEXT ||
        (uint64_t)sc_nip44_prefix_len(len) + sc_nip44_padded_len(len) != (uint64_t)padded ||
        sc_utf8_check(text, len) != SC_OK) {
        return SC_ERR_SIGNER_ANSWER;
    }
    memcpy(out, text, len);
    *out_len = len;
    return SC_OK;
}

/* ---- the operations (nip44.h) ------------------------------------------------------------ */

typedef struct crypt_op {
    int decrypt;
    int answered;
    uint8_t peer[SC_PUBKEY_BYTES];
    uint8_t nonce[SC_NIP44_NONCE_BYTES];
    int has_nonce;
    unsigned flags;
    const void *in; /* the plaintext, or the payload */
    size_t in_len;
    size_t max_payload;
    void *out; /* encrypt: char[need]; decrypt: uint8_t[cap] */
    size_t cap;
    size_t *out_len;
    size_t padded; /* decrypt, external: the payload's padded part */
    size_t len;    /* an answer's length */
} crypt_op;

typedef char crypt_op_fits[(sizeof(crypt_op) <= SC_OP_BODY_BYTES) ? 1 : -1];

static sc_status crypt_step(sc_signer_op *op, sc_ctx *ctx)
{
    crypt_op *b = (crypt_op *)sc_op_body(op);

    if (b->answered) {
        *b->out_len = b->len;
        return SC_OK;
    }
    if (b->decrypt) {
        return sc_nip44_decrypt_as(ctx, op, (uint8_t *)b->out, b->cap, b->out_len, b->peer,
                                   (const char *)b->in, b->in_len, b->max_payload, &b->padded);
    }
    return sc_nip44_encrypt_as(ctx, op, (char *)b->out, b->out_len, b->peer, (const uint8_t *)b->in,
                               b->in_len, b->flags, b->has_nonce ? b->nonce : NULL);
}

static sc_status crypt_answer(sc_signer_op *op, sc_ctx *ctx, const char *text, size_t len)
{
    crypt_op *b = (crypt_op *)sc_op_body(op);
    sc_status st;

    (void)ctx;
    if (b->decrypt) {
        st = sc_nip44_decrypt_answer((uint8_t *)b->out, b->cap, &b->len, b->padded, text, len);
    } else {
        st = sc_nip44_encrypt_answer((char *)b->out, b->in_len, text, len);
        b->len = len;
    }
    b->answered = st == SC_OK;
    return st;
}

static void crypt_fail(sc_signer_op *op, sc_status st)
{
    crypt_op *b = (crypt_op *)sc_op_body(op);

    (void)st;
    sc_mem_wipe(b->out, b->cap); /* it may hold plaintext */
    *b->out_len = 0;
}

static const sc_op_vt crypt_vt = {crypt_step, crypt_answer, crypt_fail};

/* The checks of sc_nip44_encrypt_to (or, with `decrypt`, sc_nip44_decrypt_from) before the
 * key is used, in their order: *cap is the buffer size the operation writes. */
static sc_status crypt_checks(sc_ctx *ctx, const void *out, size_t out_cap, size_t *out_len,
                              const sc_signer *me, const uint8_t *peer, const void *in, size_t len,
                              unsigned flags, size_t max_payload, int decrypt, size_t *cap)
{
    sc_status st;

    if (me == NULL || peer == NULL) {
        return SC_ERR_ARG;
    }
    st = decrypt ? sc_nip44_decrypt_check(ctx, cap, (const char *)in, len, max_payload)
                 : sc_nip44_encrypt_check(ctx, cap, (const uint8_t *)in, len, flags);
    if (st != SC_OK) {
        return st;
    }
    if (out_cap < *cap) {
        *out_len = *cap;
        return SC_ERR_BUFFER_TOO_SMALL;
    }
    if (out == NULL) {
        return SC_ERR_ARG;
    }
    if (sc_range_overlap(out, *cap, in, len)) {
        return SC_ERR_OVERLAP;
    }
    if (sc_signer_check(me) != SC_OK) {
        return SC_ERR_STATE;
    }
    /* a signer reached through JSON (NIP-46, NIP-07) takes text only */
    return !decrypt && sc_signer_is_external(me) ? sc_utf8_check((const char *)in, len) : SC_OK;
}

static sc_status crypt_start(sc_ctx *ctx, sc_signer_op *op, void *out, size_t out_cap,
                             size_t *out_len, const sc_signer *me, const uint8_t *peer,
                             const uint8_t *nonce, const void *in, size_t len, unsigned flags,
                             size_t max_payload, int decrypt)
{
    size_t cap = 0;
    crypt_op *b;
    sc_status st;

    if (out_len == NULL) {
        return SC_ERR_ARG;
    }
    *out_len = 0;
    st = op == NULL ? SC_ERR_ARG
                    : crypt_checks(ctx, out, out_cap, out_len, me, peer, in, len, flags,
                                   max_payload, decrypt, &cap);
    if (st == SC_OK && nonce != NULL && sc_range_overlap(out, cap, nonce, SC_NIP44_NONCE_BYTES)) {
        st = SC_ERR_OVERLAP;
    }
    if (st != SC_OK) {
        sc_op_drop(op);
        return st;
    }
    b = (crypt_op *)sc_op_start(op, me, &crypt_vt);
    b->decrypt = decrypt;
    memcpy(b->peer, peer, SC_PUBKEY_BYTES);
    if (nonce != NULL) {
        memcpy(b->nonce, nonce, SC_NIP44_NONCE_BYTES);
        b->has_nonce = 1;
    }
    b->flags = flags;
    b->in = in;
    b->in_len = len;
    b->max_payload = max_payload;
    b->out = out;
    b->cap = cap;
    b->out_len = out_len;
    return SC_OK;
}

sc_status sc_nip44_encrypt_start(sc_ctx *ctx, sc_signer_op *op, char *out, size_t out_cap,
                                 size_t *out_len, const sc_signer *me,
                                 const uint8_t peer[SC_PUBKEY_BYTES], const uint8_t *pt, size_t len,
                                 unsigned flags)
{
    return crypt_start(ctx, op, out, out_cap, out_len, me, peer, NULL, pt, len, flags, 0, 0);
}

sc_status sc_nip44_encrypt_start_with_rand(sc_ctx *ctx, sc_signer_op *op, char *out, size_t out_cap,
                                           size_t *out_len, const sc_signer *me,
                                           const uint8_t peer[SC_PUBKEY_BYTES],
                                           const uint8_t nonce[SC_NIP44_NONCE_BYTES],
                                           const uint8_t *pt, size_t len, unsigned flags)
{
    if (nonce == NULL) {
        if (out_len != NULL) {
            *out_len = 0;
        }
        sc_op_drop(op);
        return SC_ERR_ARG;
    }
    return crypt_start(ctx, op, out, out_cap, out_len, me, peer, nonce, pt, len, flags, 0, 0);
}

sc_status sc_nip44_decrypt_start(sc_ctx *ctx, sc_signer_op *op, uint8_t *out, size_t out_cap,
                                 size_t *out_len, const sc_signer *me,
                                 const uint8_t peer[SC_PUBKEY_BYTES], const char *payload,
                                 size_t payload_len, size_t max_payload)
{
    return crypt_start(ctx, op, out, out_cap, out_len, me, peer, NULL, payload, payload_len, 0,
                       max_payload, 1);
}
