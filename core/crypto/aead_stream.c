/* Streaming AES-256-GCM: the per-context lease and the rechunking into whole blocks. */
#include <softchat/mem.h>

#include <string.h>

#include "crypto/aead_stream.h"
#include "crypto/dispatch.h"
#include "ctx/ctx_internal.h"

/* The context of a live stream that still holds the lease, or NULL. */
static sc_ctx_impl *leased(const sc_aead_stream *s)
{
    sc_ctx_impl *c = (s->ctx != NULL) ? sc_ctx_impl_get(s->ctx) : NULL;

    if (c == NULL || c->aead == NULL || (c->flags & SC_CTXF_AEAD_BUSY) == 0 ||
        c->aead_owner != (const void *)s) {
        return NULL; /* cleared, re-initialised, or another operation holds the lease */
    }
    return c;
}

static void release(sc_ctx_impl *c)
{
    c->flags &= ~SC_CTXF_AEAD_BUSY;
    c->aead_owner = NULL;
}

sc_status sc_aead_stream_start(sc_aead_stream *s, sc_ctx *ctx, int decrypt,
                               const uint8_t key[SC_AES256GCM_KEY_BYTES], const uint8_t *iv,
                               size_t iv_len)
{
    sc_ctx_impl *c = sc_ctx_impl_get(ctx);
    const char *why = NULL;
    sc_status st;

    sc_mem_wipe(s, sizeof *s);
    if (c == NULL) {
        return sc_ctx_error(ctx);
    }
    st = sc_dispatch_aead_probe(c, SC_AEAD_STREAM, iv_len, &why);
    if (st != SC_OK) {
        return SC_ERR_UNSUPPORTED;
    }
    if ((c->flags & SC_CTXF_AEAD_BUSY) != 0) {
        return SC_ERR_STATE;
    }
    c->flags |= SC_CTXF_AEAD_BUSY;
    c->aead_owner = s;
    st = sc_dispatch_aead_start(c, decrypt != 0, key, iv, iv_len);
    if (st != SC_OK) {
        sc_dispatch_aead_abort(c);
        release(c);
        return st;
    }
    s->ctx = ctx;
    s->decrypt = decrypt != 0;
    return SC_OK;
}

/* Ends the stream after a failure and passes the status through. */
static sc_status fail(sc_aead_stream *s, sc_status st)
{
    sc_aead_stream_abort(s);
    return st;
}

sc_status sc_aead_stream_update(sc_aead_stream *s, uint8_t *out, size_t *out_len, const uint8_t *in,
                                size_t len)
{
    sc_ctx_impl *c = leased(s);
    size_t n = 0, take, bulk;
    sc_status st;

    *out_len = 0;
    if (c == NULL) {
        return fail(s, SC_ERR_STATE);
    }
    if ((uint64_t)len > SC_AEAD_STREAM_MAX_BYTES - s->total) {
        return fail(s, SC_ERR_TOO_LARGE);
    }
    if (len == 0) {
        return SC_OK;
    }
    s->total += len;
    if (s->part_len != 0) {
        take = SC_AEAD_BLOCK - s->part_len;
        take = take < len ? take : len;
        memcpy(s->part + s->part_len, in, take);
        s->part_len += take;
        in += take;
        len -= take;
        if (s->part_len < SC_AEAD_BLOCK) {
            return SC_OK;
        }
        st = sc_dispatch_aead_update(c, out, s->part, SC_AEAD_BLOCK);
        sc_mem_wipe(s->part, sizeof s->part);
        s->part_len = 0;
        if (st != SC_OK) {
            return fail(s, st);
        }
        n = SC_AEAD_BLOCK;
    }
    bulk = len & ~(size_t)(SC_AEAD_BLOCK - 1);
    if (bulk != 0) {
        st = sc_dispatch_aead_update(c, out + n, in, bulk);
        if (st != SC_OK) {
            return fail(s, st);
        }
        n += bulk;
    }
    memcpy(s->part, in + bulk, len - bulk);
    s->part_len = len - bulk;
    *out_len = n;
    return SC_OK;
}

sc_status sc_aead_stream_final(sc_aead_stream *s, uint8_t out[SC_AEAD_BLOCK - 1], size_t *out_len,
                               uint8_t tag[SC_AES256GCM_TAG_BYTES])
{
    sc_ctx_impl *c = leased(s);
    size_t n = s->part_len;
    sc_status st;

    *out_len = 0;
    if (c == NULL) {
        return fail(s, SC_ERR_STATE);
    }
    st = (n != 0) ? sc_dispatch_aead_update(c, out, s->part, n) : SC_OK;
    if (st != SC_OK) {
        return fail(s, st);
    }
    st = sc_dispatch_aead_final(c, s->decrypt, tag);
    release(c);
    sc_mem_wipe(s, sizeof *s);
    if (st != SC_OK) {
        sc_mem_wipe(out, n); /* a decryption's last bytes are not authentic */
        return st;
    }
    *out_len = n;
    return SC_OK;
}

void sc_aead_stream_abort(sc_aead_stream *s)
{
    sc_ctx_impl *c = leased(s);

    if (c != NULL) {
        sc_dispatch_aead_abort(c);
        release(c);
    }
    sc_mem_wipe(s, sizeof *s);
}
