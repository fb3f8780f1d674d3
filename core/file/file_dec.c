/* Kind 15 attachments, decryption: the blob (ciphertext || tag) arrives in any pieces; the
 * last 16 bytes seen are held back as the tag candidate, the rest is decrypted through a
 * bounded staging buffer into the caller's sink. The sink is committed only after the tag
 * verifies and discarded on every other ending, exactly once. */
#include <softchat/crypto.h>
#include <softchat/mem.h>
#include <softchat/file.h>

#include <string.h>

#include "file/file_internal.h"

/* The live state behind d, or NULL. */
static sc_file_dec_impl *dec_of(sc_file_dec *d)
{
    sc_file_dec_impl *s = (sc_file_dec_impl *)(void *)d;

    return (s != NULL && s->magic == SC_FILE_DEC_MAGIC) ? s : NULL;
}

/* Ends the operation after a failure: aborts the backend, discards the sink, wipes d. */
static sc_status fail(sc_file_dec *d, sc_file_dec_impl *s, sc_status st)
{
    sc_aead_stream_abort(&s->aead);
    sc_mem_wipe(s->stage, sizeof s->stage);
    s->in_sink = 1; /* the discard callback cannot re-enter this operation */
    s->sink.discard(s->sink.user);
    sc_mem_wipe(d, sizeof *d);
    return st;
}

sc_status sc_file_sink_status(sc_status st)
{
    if (st == SC_OK) {
        return SC_OK;
    }
    return (st < 0 && strcmp(sc_status_name(st), "SC_UNKNOWN") != 0) ? st : SC_ERR_IO;
}

/* Hands n staged plaintext bytes to the sink and wipes them. */
static sc_status sink_write(sc_file_dec_impl *s, size_t n)
{
    sc_status st;

    s->in_sink = 1;
    st = s->sink.write(s->sink.user, s->stage, n);
    s->in_sink = 0;
    sc_mem_wipe(s->stage, n);
    if (s->abandon) {
        return SC_ERR_STATE;
    }
    return sc_file_sink_status(st);
}

/* Decrypts ciphertext ct[0..len) (tag excluded) to the sink, one staging buffer at a time. */
static sc_status feed(sc_file_dec_impl *s, const uint8_t *ct, size_t len)
{
    while (len > 0) {
        size_t take = len < SC_FILE_STAGE_BYTES ? len : SC_FILE_STAGE_BYTES, n = 0;
        /* at most 15 waiting bytes + take, rounded down to 16: never more than the stage */
        sc_status st = sc_aead_stream_update(&s->aead, s->stage, &n, ct, take);

        if (st == SC_OK && n != 0) {
            st = sc_crypto_sha256_update(s->aead.ctx, &s->ox, s->stage, n);
            if (st == SC_OK) {
                st = sink_write(s, n);
            }
        }
        if (st != SC_OK) {
            return st;
        }
        ct += take;
        len -= take;
    }
    return SC_OK;
}

sc_status sc_file_decrypt_init(sc_ctx *ctx, sc_file_dec *d, const uint8_t key[SC_FILE_KEY_BYTES],
                               const uint8_t *iv, size_t iv_len, const sc_file_sink *sink)
{
    sc_file_dec_impl *s = (sc_file_dec_impl *)(void *)d;
    sc_status st;

    if (d == NULL) {
        return SC_ERR_ARG;
    }
    sc_mem_wipe(d, sizeof *d);
    if (ctx == NULL || key == NULL || iv == NULL || sink == NULL || sink->write == NULL ||
        sink->commit == NULL || sink->discard == NULL ||
        (iv_len != 12 && iv_len != 16 && iv_len != 32)) {
        return SC_ERR_ARG;
    }
    st = sc_aead_stream_start(&s->aead, ctx, 1, key, iv, iv_len);
    if (st == SC_OK) {
        st = sc_crypto_sha256_init(ctx, &s->x);
    }
    if (st == SC_OK) {
        st = sc_crypto_sha256_init(ctx, &s->ox);
    }
    if (st != SC_OK) {
        sc_aead_stream_abort(&s->aead);
        sc_mem_wipe(d, sizeof *d);
        return st;
    }
    s->sink = *sink;
    s->magic = SC_FILE_DEC_MAGIC;
    return SC_OK;
}

sc_status sc_file_decrypt_update(sc_file_dec *d, const uint8_t *in, size_t len)
{
    sc_file_dec_impl *s = dec_of(d);
    size_t over;
    sc_status st;

    if (s == NULL) {
        return d == NULL ? SC_ERR_ARG : SC_ERR_STATE;
    }
    if (s->in_sink) {
        return SC_ERR_STATE; /* called from this operation's own sink */
    }
    if (in == NULL && len != 0) {
        return SC_ERR_ARG; /* refused: the operation stays live */
    }
    if (len == 0) {
        return SC_OK;
    }
    st = sc_crypto_sha256_update(s->aead.ctx, &s->x, in, len);
    if (st != SC_OK) {
        return fail(d, s, st);
    }
    if (len >= SC_FILE_TAG_BYTES) {
        /* everything held back and all but the last 16 new bytes are ciphertext */
        st = feed(s, s->hold, s->hold_len);
        if (st == SC_OK) {
            st = feed(s, in, len - SC_FILE_TAG_BYTES);
        }
        if (st != SC_OK) {
            return fail(d, s, st);
        }
        memcpy(s->hold, in + len - SC_FILE_TAG_BYTES, SC_FILE_TAG_BYTES);
        s->hold_len = SC_FILE_TAG_BYTES;
        return SC_OK;
    }
    over = (s->hold_len + len > SC_FILE_TAG_BYTES) ? s->hold_len + len - SC_FILE_TAG_BYTES : 0;
    if (over != 0) {
        st = feed(s, s->hold, over);
        if (st != SC_OK) {
            return fail(d, s, st);
        }
        memmove(s->hold, s->hold + over, s->hold_len - over);
        s->hold_len -= over;
    }
    memcpy(s->hold + s->hold_len, in, len);
    s->hold_len += len;
    return SC_OK;
}

sc_status sc_file_decrypt_final(sc_file_dec *d, uint8_t x[32], uint8_t ox[32])
{
    sc_file_dec_impl *s = dec_of(d);
    uint8_t hx[32], hox[32];
    sc_ctx *ctx;
    size_t n = 0;
    sc_status st;

    if (x != NULL) {
        sc_mem_wipe(x, 32);
    }
    if (ox != NULL) {
        sc_mem_wipe(ox, 32);
    }
    if (s == NULL) {
        return d == NULL ? SC_ERR_ARG : SC_ERR_STATE;
    }
    if (s->in_sink) {
        return SC_ERR_STATE;
    }
    if (s->hold_len < SC_FILE_TAG_BYTES) {
        return fail(d, s, SC_ERR_AUTH); /* no room for a tag: nothing can be authentic */
    }
    ctx = s->aead.ctx; /* the stream forgets it when it ends */
    st = sc_aead_stream_final(&s->aead, s->stage, &n, s->hold);
    if (st == SC_OK && n != 0) {
        st = sc_crypto_sha256_update(ctx, &s->ox, s->stage, n);
        if (st == SC_OK) {
            st = sink_write(s, n);
        }
    }
    if (st == SC_OK) {
        st = sc_crypto_sha256_final(ctx, &s->x, hx);
    }
    if (st == SC_OK) {
        st = sc_crypto_sha256_final(ctx, &s->ox, hox);
    }
    if (st != SC_OK) {
        sc_mem_wipe(hx, sizeof hx);
        sc_mem_wipe(hox, sizeof hox);
        return fail(d, s, st);
    }
    /* authentic and complete: the one commit; discard must not follow, even if it fails */
    s->in_sink = 1;
    st = s->sink.commit(s->sink.user);
    sc_mem_wipe(d, sizeof *d);
    if (st != SC_OK) {
        st = sc_file_sink_status(st);
    } else {
        if (x != NULL) {
            memcpy(x, hx, 32);
        }
        if (ox != NULL) {
            memcpy(ox, hox, 32);
        }
    }
    sc_mem_wipe(hx, sizeof hx);
    sc_mem_wipe(hox, sizeof hox);
    return st;
}

void sc_file_decrypt_abort(sc_file_dec *d)
{
    sc_file_dec_impl *s = dec_of(d);

    if (s == NULL) {
        return;
    }
    if (s->in_sink) {
        s->abandon = 1; /* the running call discards and returns SC_ERR_STATE */
        return;
    }
    (void)fail(d, s, SC_OK);
}
