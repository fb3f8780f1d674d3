/* Kind 15 attachments, encryption: plaintext in bounded pieces, ciphertext || tag out, with
 * x = sha256(blob) and ox = sha256(plaintext) computed in the same pass. */
#include <softchat/crypto.h>
#include <softchat/mem.h>
#include <softchat/file.h>

#include <string.h>

#include "file/file_internal.h"
#include "util/range.h"

/* The live state behind e, or NULL. */
static sc_file_enc_impl *enc_of(sc_file_enc *e)
{
    sc_file_enc_impl *s = (sc_file_enc_impl *)(void *)e;

    return (s != NULL && s->magic == SC_FILE_ENC_MAGIC) ? s : NULL;
}

void sc_file_encrypt_abort(sc_file_enc *e)
{
    sc_file_enc_impl *s = enc_of(e);

    if (s != NULL) {
        sc_aead_stream_abort(&s->aead);
    }
    if (e != NULL) {
        sc_mem_wipe(e, sizeof *e);
    }
}

sc_status sc_file_encrypt_init(sc_ctx *ctx, sc_file_enc *e, const uint8_t key[SC_FILE_KEY_BYTES],
                               const uint8_t *iv, size_t iv_len)
{
    sc_file_enc_impl *s = (sc_file_enc_impl *)(void *)e;
    sc_status st;

    if (e == NULL) {
        return SC_ERR_ARG;
    }
    sc_mem_wipe(e, sizeof *e);
    if (ctx == NULL || key == NULL || iv == NULL || (iv_len != 12 && iv_len != 16)) {
        return SC_ERR_ARG;
    }
    st = sc_aead_stream_start(&s->aead, ctx, 0, key, iv, iv_len);
    if (st != SC_OK) {
        goto fail;
    }
    st = sc_crypto_sha256_init(ctx, &s->x);
    if (st == SC_OK) {
        st = sc_crypto_sha256_init(ctx, &s->ox);
    }
    if (st != SC_OK) {
        goto fail;
    }
    s->magic = SC_FILE_ENC_MAGIC;
    return SC_OK;

fail:
    sc_aead_stream_abort(&s->aead);
    sc_mem_wipe(e, sizeof *e);
    return st;
}

size_t sc_file_blob_len(uint64_t plaintext_len)
{
    uint64_t n = plaintext_len + SC_FILE_TAG_BYTES;

    return plaintext_len > SC_FILE_MAX_PLAINTEXT || n > (uint64_t)SC_SIZE_SAT ? 0 : (size_t)n;
}

size_t sc_file_encrypt_update_max(size_t len)
{
    return len == 0 ? 0 : sc_size_public(sc_size_add(len, SC_AEAD_BLOCK - 1));
}

sc_status sc_file_encrypt_update(sc_file_enc *e, uint8_t *out, size_t out_cap, size_t *out_len,
                                 const uint8_t *in, size_t len)
{
    sc_file_enc_impl *s = enc_of(e);
    size_t need = 0, n = 0;
    sc_status st;

    if (out_len != NULL) {
        *out_len = 0;
    }
    if (s == NULL) {
        return e == NULL ? SC_ERR_ARG : SC_ERR_STATE;
    }
    /* the caller's mistakes consume nothing and leave the operation live: ask, then retry */
    if (out_len == NULL || (in == NULL && len != 0)) {
        return SC_ERR_ARG;
    }
    if (len > SIZE_MAX - (SC_AEAD_BLOCK - 1)) {
        return SC_ERR_TOO_LARGE;
    }
    need = sc_file_encrypt_update_max(len);
    if (out_cap < need) {
        *out_len = need;
        return SC_ERR_BUFFER_TOO_SMALL;
    }
    if (out == NULL && need != 0) {
        return SC_ERR_ARG;
    }
    if (sc_range_overlap(out, need, in, len)) {
        return SC_ERR_OVERLAP;
    }
    if (len == 0) {
        return SC_OK;
    }
    st = sc_crypto_sha256_update(s->aead.ctx, &s->ox, in, len);
    if (st == SC_OK) {
        st = sc_aead_stream_update(&s->aead, out, &n, in, len);
    }
    if (st == SC_OK) {
        st = sc_crypto_sha256_update(s->aead.ctx, &s->x, out, n);
    }
    if (st != SC_OK) {
        sc_mem_wipe(out, need);
        sc_file_encrypt_abort(e);
        return st;
    }
    *out_len = n;
    return SC_OK;
}

sc_status sc_file_encrypt_final(sc_file_enc *e, uint8_t *out, size_t out_cap, size_t *out_len,
                                uint8_t x[SC_SHA256_BYTES], uint8_t ox[SC_SHA256_BYTES],
                                uint64_t *blob_size)
{
    sc_file_enc_impl *s = enc_of(e);
    uint8_t tag[SC_FILE_TAG_BYTES];
    sc_ctx *ctx;
    uint64_t size = 0;
    size_t n = 0, zero = 0;
    sc_status st;

    if (out_len != NULL) {
        *out_len = 0;
    }
    if (x != NULL) {
        sc_mem_wipe(x, 32);
    }
    if (ox != NULL) {
        sc_mem_wipe(ox, 32);
    }
    if (blob_size != NULL) {
        *blob_size = 0;
    }
    if (s == NULL) {
        return (e == NULL) ? SC_ERR_ARG : SC_ERR_STATE;
    }
    /* the caller's mistakes leave the operation live */
    if (out_len == NULL || x == NULL || ox == NULL || blob_size == NULL) {
        return SC_ERR_ARG;
    }
    if (out_cap < SC_FILE_FINAL_BYTES) {
        *out_len = SC_FILE_FINAL_BYTES;
        return SC_ERR_BUFFER_TOO_SMALL;
    }
    if (out == NULL) {
        return SC_ERR_ARG;
    }
    zero = SC_FILE_FINAL_BYTES;
    ctx = s->aead.ctx;
    size = s->aead.total + SC_FILE_TAG_BYTES;
    st = sc_aead_stream_final(&s->aead, out, &n, tag);
    if (st != SC_OK) {
        goto out;
    }
    memcpy(out + n, tag, SC_FILE_TAG_BYTES);
    n += SC_FILE_TAG_BYTES;
    st = sc_crypto_sha256_update(ctx, &s->x, out, n);
    if (st == SC_OK) {
        st = sc_crypto_sha256_final(ctx, &s->x, x);
    }
    if (st == SC_OK) {
        st = sc_crypto_sha256_final(ctx, &s->ox, ox);
    }
    if (st == SC_OK) {
        *out_len = n;
        *blob_size = size;
        zero = 0;
    }

out:
    if (st != SC_OK) {
        if (out != NULL) {
            sc_mem_wipe(out, zero);
        }
        if (x != NULL) {
            sc_mem_wipe(x, 32);
        }
        if (ox != NULL) {
            sc_mem_wipe(ox, 32);
        }
    }
    sc_mem_wipe(tag, sizeof tag);
    sc_file_encrypt_abort(e);
    return st;
}
