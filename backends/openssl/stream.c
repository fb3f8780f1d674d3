/* ChaCha20 (RFC 8439) of the openssl backend: the stream group.
 *
 * The cipher is fetched through EVP once per context, and its context is driven through the
 * implementation's own OSSL_DISPATCH table, which OSSL_PROVIDER_query_operation returns for
 * the provider the fetch chose (provider-base(7), provider-cipher(7): the provider interface
 * is OpenSSL 3's stable public ABI). EVP adds nothing a one-block call needs, and costs: in
 * OpenSSL 3.0 every EVP_CipherInit_ex2 with a key asks the provider for the key and IV
 * lengths through OSSL_PARAM lookups, 86 ns per re-key against 29 ns for the implementation's
 * own init (measured here), and a call re-keys twice (its key, then the all-zero key). The
 * EVP_CIPHER stays fetched for the context's lifetime: it holds the provider loaded, so the
 * function pointers stay valid.
 *
 * No key material stays in the context after a call: it is re-keyed with the all-zero key
 * before returning (stream_forget), and the last partial block is run as a whole block of our
 * own, so the provider keeps no keystream. */
#include <softchat/backend.h>
#include <softchat/mem.h>

#include <openssl/core.h>
#include <openssl/core_dispatch.h>
#include <openssl/evp.h>
#include <openssl/provider.h>

#include <stdlib.h>
#include <string.h>

#include "groups.h"

#define STREAM_CIPHER "ChaCha20" /* fetched by this name, then found by it in the provider */
#define STREAM_KEY_BYTES 32u
#define STREAM_IV_BYTES 16u /* OpenSSL's ChaCha20 IV: 32-bit little-endian counter, then nonce */
#define STREAM_CHUNK ((size_t)1 << 30) /* per update call, well inside any length type */

typedef struct stream_state {
    EVP_CIPHER *cipher; /* keeps the provider, and so the functions below, loaded */
    void *pctx;         /* the implementation's own context */
    OSSL_FUNC_cipher_freectx_fn *freectx;
    OSSL_FUNC_cipher_encrypt_init_fn *init;
    OSSL_FUNC_cipher_update_fn *update;
} stream_state;

/* Whether the colon-separated name list `names` has `want` as one of its names. */
static int names_have(const char *names, const char *want)
{
    size_t n = strlen(want);

    while (names != NULL && *names != '\0') {
        const char *end = strchr(names, ':');
        size_t len = end != NULL ? (size_t)(end - names) : strlen(names);

        if (len == n && strncmp(names, want, n) == 0) {
            return 1;
        }
        names = end != NULL ? end + 1 : NULL;
    }
    return 0;
}

static void stream_teardown(sc_bstate *st)
{
    stream_state *s = (stream_state *)(void *)st;

    if (s == NULL) {
        return;
    }
    if (s->pctx != NULL && s->freectx != NULL) {
        s->freectx(s->pctx); /* the provider clears the context as it frees it */
    }
    EVP_CIPHER_free(s->cipher);
    sc_mem_wipe(s, sizeof *s);
    free(s);
}

/* Takes newctx, freectx, encrypt_init and update from the implementation of `name` in the
 * provider that `cipher` came from, and makes the context. Returns 1 when all are there. */
static int stream_bind(stream_state *s, const char *name)
{
    const OSSL_PROVIDER *prov = EVP_CIPHER_get0_provider(s->cipher);
    OSSL_FUNC_cipher_newctx_fn *newctx = NULL;
    const OSSL_ALGORITHM *algs, *a;
    const OSSL_DISPATCH *d;
    int no_cache = 0;

    if (prov == NULL) {
        return 0;
    }
    algs = OSSL_PROVIDER_query_operation(prov, OSSL_OP_CIPHER, &no_cache);
    for (a = algs; a != NULL && a->algorithm_names != NULL; a++) {
        if (names_have(a->algorithm_names, name)) {
            break;
        }
    }
    for (d = (a != NULL && a->algorithm_names != NULL) ? a->implementation : NULL;
         d != NULL && d->function_id != 0; d++) {
        switch (d->function_id) {
        case OSSL_FUNC_CIPHER_NEWCTX:
            newctx = OSSL_FUNC_cipher_newctx(d);
            break;
        case OSSL_FUNC_CIPHER_FREECTX:
            s->freectx = OSSL_FUNC_cipher_freectx(d);
            break;
        case OSSL_FUNC_CIPHER_ENCRYPT_INIT:
            s->init = OSSL_FUNC_cipher_encrypt_init(d);
            break;
        case OSSL_FUNC_CIPHER_UPDATE:
            s->update = OSSL_FUNC_cipher_update(d);
            break;
        default:
            break;
        }
    }
    if (algs != NULL) {
        OSSL_PROVIDER_unquery_operation(prov, OSSL_OP_CIPHER, algs);
    }
    if (newctx == NULL || s->freectx == NULL || s->init == NULL || s->update == NULL) {
        return 0;
    }
    s->pctx = newctx(OSSL_PROVIDER_get0_provider_ctx(prov));
    return s->pctx != NULL;
}

static sc_status stream_setup(sc_bstate **out)
{
    stream_state *s = calloc(1, sizeof *s);

    *out = NULL;
    if (s == NULL) {
        return SC_ERR_NOMEM;
    }
    s->cipher = EVP_CIPHER_fetch(NULL, STREAM_CIPHER, NULL);
    if (s->cipher == NULL || !stream_bind(s, STREAM_CIPHER)) {
        stream_teardown((sc_bstate *)(void *)s);
        return SC_ERR_INTERNAL;
    }
    *out = (sc_bstate *)(void *)s;
    return SC_OK;
}

/* Runs the implementation's update over len bytes; 1 when every byte was written. */
static int stream_run(const stream_state *s, uint8_t *out, const uint8_t *in, size_t len)
{
    while (len > 0) {
        size_t n = len < STREAM_CHUNK ? len : STREAM_CHUNK, got = 0;

        if (!s->update(s->pctx, out, &got, n, in, n) || got != n) {
            return 0;
        }
        out += n;
        in += n;
        len -= n;
    }
    return 1;
}

/* Overwrites the key the context holds with the all-zero key. A key-only init (no IV) is
 * enough: the counter and nonce it leaves are public (they travel with the message), the
 * implementation resets its partial-block count with the key, and no partial keystream is
 * ever left (stream_chacha20_xor). It costs about half an init with an IV. */
static void stream_forget(const stream_state *s)
{
    static const uint8_t zero_key[STREAM_KEY_BYTES] = {0};

    (void)s->init(s->pctx, zero_key, sizeof zero_key, NULL, 0, NULL);
}

static sc_status stream_chacha20_xor(sc_bstate *st, uint8_t *out, const uint8_t *in, size_t len,
                                     const uint8_t key[32], const uint8_t nonce[12],
                                     uint32_t counter)
{
    const stream_state *s = (const stream_state *)(void *)st;
    uint8_t iv[STREAM_IV_BYTES];
    uint8_t block[64];
    size_t whole = len & ~(size_t)63, tail = len - whole;
    int ok;

    iv[0] = (uint8_t)counter;
    iv[1] = (uint8_t)(counter >> 8);
    iv[2] = (uint8_t)(counter >> 16);
    iv[3] = (uint8_t)(counter >> 24);
    memcpy(iv + 4, nonce, 12);
    ok = s->init(s->pctx, key, STREAM_KEY_BYTES, iv, sizeof iv, NULL) &&
         stream_run(s, out, in, whole);
    if (ok && tail != 0) {
        /* The last partial block goes through a whole block of our own: the implementation
         * would keep the keystream of a partial block in its context for the next call. */
        memcpy(block, in + whole, tail);
        memset(block + tail, 0, sizeof block - tail);
        ok = stream_run(s, block, block, sizeof block);
        memcpy(out + whole, block, tail);
        sc_mem_wipe(block, sizeof block);
    }
    stream_forget(s);
    return ok ? SC_OK : SC_ERR_INTERNAL;
}

const sc_backend_stream sc_openssl_stream = {
    .size = sizeof(sc_backend_stream),
    .lib = "openssl",
    .setup = stream_setup,
    .teardown = stream_teardown,
    .chacha20_xor = stream_chacha20_xor,
};
