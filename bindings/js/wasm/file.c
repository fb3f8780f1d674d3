/* Attachments (AES-256-GCM, NIP-17 kind 15) for the TypeScript streams. Each stream owns a
 * context of its own (a context runs one streaming operation at a time). Decryption keeps
 * the plaintext in wasm memory (grown by copy-and-wipe, never realloc, up to the caller's
 * cap) and hands it over only after the tag verified; a failure wipes it. */
#include "exports.h"

#include <stdlib.h>
#include <string.h>

struct scw_fenc {
    sc_ctx *ctx;
    sc_file_enc e;
};

struct scw_fdec {
    sc_ctx *ctx;
    sc_file_dec d;
    uint8_t *buf;
    size_t len, cap, max;
};

static void put_handle(scw *w, const void *h)
{
    uint32_t v = (uint32_t)(uintptr_t)h;

    memcpy(w->res, &v, 4);
}

/* A new encryption under a fresh key and IV (sc_file_keygen): handle to res[0..4), key to
 * res[4..36), IV to res[36..52) (the caller copies them, scw_done wipes res). */
SCW_EXPORT int scw_fenc_new(scw *w)
{
    scw_fenc *f = calloc(1, sizeof *f);
    sc_status st = f == NULL ? SC_ERR_NOMEM : sc_ctx_new(&f->ctx, NULL);

    if (st == SC_OK) {
        st = sc_file_keygen(f->ctx, w->res + 4, w->res + 36);
    }
    if (st == SC_OK) {
        st = sc_file_encrypt_init(f->ctx, &f->e, w->res + 4, w->res + 36, SC_FILE_IV_BYTES);
    }
    if (st != SC_OK) {
        if (f != NULL) {
            sc_ctx_free(f->ctx);
            free(f);
        }
        return st;
    }
    put_handle(w, f);
    return SC_OK;
}

/* Encrypts in[0..len): the result is the ciphertext so far. */
SCW_EXPORT int scw_fenc_update(scw *w, scw_fenc *f, const uint8_t *in, uint32_t len)
{
    size_t n = sc_file_encrypt_update_max(len), got = 0;
    uint8_t *out;
    sc_status st;

    if (len == 0) {
        return scw_result(w, 0);
    }
    if (n == 0 || (out = scw_output(w, n)) == NULL) {
        return n == 0 ? SC_ERR_TOO_LARGE : SC_ERR_NOMEM;
    }
    st = sc_file_encrypt_update(&f->e, out, n, &got, in, len);
    return st == SC_OK ? scw_result(w, got) : st;
}

/* Finishes: the result is the last ciphertext and the tag; res: x[32], ox[32], the blob
 * size (a double at 64). */
SCW_EXPORT int scw_fenc_final(scw *w, scw_fenc *f)
{
    uint8_t *out = scw_output(w, SC_FILE_FINAL_BYTES);
    uint64_t size = 0;
    size_t got = 0;
    double d;
    sc_status st;

    if (out == NULL) {
        return SC_ERR_NOMEM;
    }
    st = sc_file_encrypt_final(&f->e, out, SC_FILE_FINAL_BYTES, &got, w->res, w->res + 32, &size);
    d = (double)size;
    memcpy(w->res + 64, &d, 8);
    return st == SC_OK ? scw_result(w, got) : st;
}

SCW_EXPORT void scw_fenc_free(scw_fenc *f)
{
    if (f != NULL) {
        sc_file_encrypt_abort(&f->e);
        sc_ctx_free(f->ctx);
        free(f);
    }
}

static sc_status sink_write(void *user, const uint8_t *data, size_t len)
{
    scw_fdec *f = user;

    if (len > f->max - f->len) {
        return SC_ERR_TOO_LARGE;
    }
    if (f->len + len > f->cap) { /* grow by copy-and-wipe: no stale plaintext left behind */
        size_t cap = f->cap < 65536 ? 65536 : f->cap;
        uint8_t *p;
        while (cap < f->len + len) {
            cap = cap > f->max / 2 ? f->max : cap * 2;
        }
        if ((p = malloc(cap)) == NULL) {
            return SC_ERR_NOMEM;
        }
        if (f->buf != NULL) {
            memcpy(p, f->buf, f->len);
            sc_mem_wipe(f->buf, f->len);
            free(f->buf);
        }
        f->buf = p;
        f->cap = cap;
    }
    memcpy(f->buf + f->len, data, len);
    f->len += len;
    return SC_OK;
}

static sc_status sink_commit(void *user)
{
    (void)user;
    return SC_OK;
}

static void sink_discard(void *user)
{
    scw_fdec *f = user;

    if (f->buf != NULL) {
        sc_mem_wipe(f->buf, f->len);
    }
    f->len = 0;
}

/* A new decryption under key (32 bytes, wiped here) and iv[0..iv_len), keeping at most max
 * bytes of plaintext: handle to res[0..4). */
SCW_EXPORT int scw_fdec_new(scw *w, uint8_t *key, const uint8_t *iv, uint32_t iv_len, double max)
{
    static const sc_file_sink sink_fns = {NULL, sink_write, sink_commit, sink_discard};
    scw_fdec *f = calloc(1, sizeof *f);
    sc_file_sink sink = sink_fns;
    sc_status st = f == NULL ? SC_ERR_NOMEM : sc_ctx_new(&f->ctx, NULL);

    if (st == SC_OK) {
        f->max = max >= 1 && max < 4294967295.0 ? (size_t)max : (size_t)64 << 20;
        sink.user = f;
        st = sc_file_decrypt_init(f->ctx, &f->d, key, iv, iv_len, &sink);
    }
    sc_mem_wipe(key, SC_FILE_KEY_BYTES);
    if (st != SC_OK) {
        if (f != NULL) {
            sc_ctx_free(f->ctx);
            free(f);
        }
        return st;
    }
    put_handle(w, f);
    return SC_OK;
}

SCW_EXPORT int scw_fdec_update(scw_fdec *f, const uint8_t *in, uint32_t len)
{
    return sc_file_decrypt_update(&f->d, in, len);
}

/* Verifies the tag. On SC_OK res = u32 plaintext address, u32 length, x[32] at 8, ox[32]
 * at 40: the caller copies the plaintext out, then scw_fdec_free wipes it. */
SCW_EXPORT int scw_fdec_final(scw *w, scw_fdec *f)
{
    sc_status st = sc_file_decrypt_final(&f->d, w->res + 8, w->res + 40);
    uint32_t v;

    if (st != SC_OK) {
        return st;
    }
    v = (uint32_t)(uintptr_t)f->buf;
    memcpy(w->res, &v, 4);
    v = (uint32_t)f->len;
    memcpy(w->res + 4, &v, 4);
    return SC_OK;
}

SCW_EXPORT void scw_fdec_free(scw_fdec *f)
{
    if (f != NULL) {
        sc_file_decrypt_abort(&f->d);
        sink_discard(f);
        free(f->buf);
        sc_ctx_free(f->ctx);
        free(f);
    }
}
