/* Workload: NIP-49. One call opens an ncryptsec with its password (sc_nip49_decrypt: the
 * bech32 and header checks, scrypt, XChaCha20-Poly1305, the key checked on the curve). The
 * rows' "bytes" is the size of scrypt's table, 128 * r * 2^log_n with r = 8: 1 MiB at log_n
 * 10, 8 MiB at 13 and 64 MiB at 16, NIP-49's usual cost (the working memory,
 * sc_crypto_scrypt_memory, is three blocks of 1 KiB more), so a row's peak RSS reads against
 * it. Backends without scrypt or XChaCha20-Poly1305 report the row unsupported. */
#include <softchat/softchat.h>

#include <stdlib.h>
#include <string.h>

#include "ops.h"
#include "ops_internal.h"

#define PASSWORD "correct horse battery staple"

typedef struct nip49_state {
    sc_ctx *ctx;
    char ncryptsec[SC_NIP49_LEN];
} nip49_state;

static void nip49_teardown(void *p)
{
    nip49_state *s = p;

    if (s != NULL) {
        sc_ctx_free(s->ctx);
        free(s);
    }
}

/* The log_n whose table is bytes, or 0 when no log_n up to the NIP's largest has it. */
static unsigned log_n_of(size_t bytes)
{
    unsigned n;

    for (n = 1; n <= SC_NIP49_LOG_N_MAX; n++) {
        if (((uint64_t)1024 << n) == (uint64_t)bytes) {
            return n;
        }
    }
    return 0;
}

static int nip49_setup(void **out, const char *backend, size_t bytes)
{
    nip49_state *s = calloc(1, sizeof *s);
    const sc_backend *b = sc_backend_find(backend);
    uint8_t sec[SC_SECKEY_BYTES], salt[SC_NIP49_SALT_BYTES], nonce[SC_NIP49_NONCE_BYTES];
    unsigned log_n = log_n_of(bytes);
    size_t len = 0;

    *out = s;
    if (b != NULL && (sc_backend_has(b, SC_CAP_SCRYPT, NULL) == SC_ERR_UNSUPPORTED ||
                      sc_backend_has(b, SC_CAP_XCHACHA20POLY1305, NULL) == SC_ERR_UNSUPPORTED)) {
        return 1; /* mbedtls and psa: no scrypt */
    }
    if (s == NULL || log_n == 0 || bench_ctx_new(&s->ctx, backend) != 0) {
        return -1;
    }
    memset(sec, 0x49, sizeof sec);
    bench_fill(salt, sizeof salt, 49);
    bench_fill(nonce, sizeof nonce, 50);
    return sc_nip49_encrypt_with_rand(s->ctx, s->ncryptsec, sizeof s->ncryptsec, &len, sec,
                                      PASSWORD, strlen(PASSWORD), log_n, SC_NIP49_KEY_SECURE, salt,
                                      nonce) == SC_OK
               ? 0
               : -1;
}

static int run_decrypt(void *p, uint64_t n)
{
    nip49_state *s = p;
    uint8_t sec[SC_SECKEY_BYTES];

    while (n--) {
        if (sc_nip49_decrypt(s->ctx, sec, NULL, s->ncryptsec, sizeof s->ncryptsec, PASSWORD,
                             strlen(PASSWORD)) != SC_OK ||
            sec[0] != 0x49) {
            return -1;
        }
    }
    return 0;
}

const bench_op bench_ops_nip49[] = {
    {"nip49_decrypt", (size_t)1 << 20, nip49_setup, run_decrypt, nip49_teardown, 0, 1},
    {"nip49_decrypt", (size_t)8 << 20, nip49_setup, run_decrypt, nip49_teardown, 0, 1},
    {"nip49_decrypt", (size_t)64 << 20, nip49_setup, run_decrypt, nip49_teardown, 0, 1},
};
const size_t bench_ops_nip49_count = sizeof bench_ops_nip49 / sizeof bench_ops_nip49[0];
