/* scrypt of the openssl backend: the scrypt group, over OpenSSL 3's EVP_KDF "SCRYPT".
 *
 * OpenSSL refuses to use more working memory than its maxmem parameter, 32 MiB by default,
 * which is half of what NIP-49's usual cost needs (log_n 16 at r = 8: 64 MiB). Each call
 * sets maxmem to exactly what its parameters need, 128 * r * (N + p + 2) bytes (OpenSSL's own
 * formula, the one sc_crypto_scrypt_memory gives); core has capped that at
 * SC_SCRYPT_MEMORY_MAX before the call.
 *
 * Memory. The group is stateless: each call fetches the KDF and makes its context (two small
 * allocations), and OpenSSL allocates the working memory for the derivation and frees it
 * with OPENSSL_clear_free, which wipes it. The context holds copies of the password and the
 * salt, which EVP_KDF_CTX_free wipes (OPENSSL_clear_free) with the context. */
#include <softchat/backend.h>

#include <openssl/core_names.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/kdf.h>
#include <openssl/params.h>

#include "groups.h"

static sc_status scrypt_derive(sc_bstate *st, uint8_t *out, size_t out_len, const uint8_t *password,
                               size_t password_len, const uint8_t *salt, size_t salt_len,
                               unsigned log_n, uint32_t r, uint32_t p)
{
    static const uint8_t empty[1] = {0};
    uint64_t n = (uint64_t)1 << log_n;
    uint64_t maxmem = 128u * (uint64_t)r * (n + (uint64_t)p + 2u);
    OSSL_PARAM params[7];
    EVP_KDF *kdf;
    EVP_KDF_CTX *kctx = NULL;
    sc_status rc = SC_ERR_INTERNAL;

    (void)st;
    params[0] = OSSL_PARAM_construct_octet_string(
        OSSL_KDF_PARAM_PASSWORD, (void *)(password_len != 0 ? password : empty), password_len);
    params[1] = OSSL_PARAM_construct_octet_string(OSSL_KDF_PARAM_SALT,
                                                  (void *)(salt_len != 0 ? salt : empty), salt_len);
    params[2] = OSSL_PARAM_construct_uint64(OSSL_KDF_PARAM_SCRYPT_N, &n);
    params[3] = OSSL_PARAM_construct_uint32(OSSL_KDF_PARAM_SCRYPT_R, &r);
    params[4] = OSSL_PARAM_construct_uint32(OSSL_KDF_PARAM_SCRYPT_P, &p);
    params[5] = OSSL_PARAM_construct_uint64(OSSL_KDF_PARAM_SCRYPT_MAXMEM, &maxmem);
    params[6] = OSSL_PARAM_construct_end();
    kdf = EVP_KDF_fetch(NULL, "SCRYPT", NULL);
    if (kdf != NULL) {
        kctx = EVP_KDF_CTX_new(kdf);
    }
    if (kctx != NULL) {
        ERR_set_mark();
        if (EVP_KDF_derive(kctx, out, out_len, params) > 0) {
            rc = SC_OK;
        } else if (ERR_GET_REASON(ERR_peek_last_error()) == ERR_R_MALLOC_FAILURE) {
            rc = SC_ERR_NOMEM; /* the working memory could not be allocated */
        }
        ERR_pop_to_mark(); /* leave no error on the thread's queue for the application */
    }
    EVP_KDF_CTX_free(kctx); /* wipes its copies of the password and the salt */
    EVP_KDF_free(kdf);
    return rc;
}

const sc_backend_scrypt sc_openssl_scrypt = {
    .size = sizeof(sc_backend_scrypt),
    .lib = "openssl",
    .setup = NULL,
    .teardown = NULL,
    .scrypt = scrypt_derive,
};
