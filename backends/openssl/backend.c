/* The OpenSSL 3 backend.
 *
 * Algorithms are fetched and EVP contexts allocated once, in each group's setup, when a
 * sc_ctx is created; calls re-key the preallocated contexts (a fetch or context allocation
 * per call costs 0.3-1.2 us, more than the work itself on short inputs).
 *
 * SHA-256 uses OpenSSL's SHA256_CTX functions (deprecated in 3.0, still exported). They are
 * the only OpenSSL SHA-256 whose incremental state is pointer-free caller memory, and the only
 * one that does not allocate per call: EVP_DigestInit_ex2 on a reused EVP_MD_CTX allocates a
 * provider context on every init in OpenSSL 3.0. They run the same assembly (SHA-NI, AVX2).
 *
 * HMAC-SHA256 is the project's construction over those SHA256_CTX functions (mac section),
 * not EVP_MAC: in OpenSSL 3.0 each EVP_MAC_init with a key allocates provider digest
 * contexts, and the MAC context keeps a copy of the last key between calls.
 *
 * ChaCha20 is the stream group of stream.c: the fetched implementation driven through its
 * provider dispatch table, which re-keys in a third of EVP_CipherInit_ex2's time.
 *
 * XChaCha20-Poly1305 (xchacha.c: HChaCha20 derived from one ChaCha20 block, then OpenSSL's
 * ChaCha20-Poly1305) and scrypt (scrypt.c: EVP_KDF "SCRYPT", the one group that allocates per
 * call: its working memory) are the groups NIP-49 uses.
 *
 * The rng group reads the kernel's getrandom(2) on Linux, through the vDSO where the kernel
 * has it (rng section: faster per draw than RAND_priv_bytes, fork-safe); its `lib` says so.
 *
 * No call allocates but scrypt's, and no key material stays in a context after a call
 * returns: the reusable cipher contexts are re-keyed with the all-zero key when an operation
 * ends (cipher_forget here, stream_forget in stream.c), and ChaCha20's last partial block is run
 * as a whole block of our own so OpenSSL keeps no keystream. A streaming AES-GCM operation
 * holds its key schedule until final or abort, as file.h states.
 */
#define OPENSSL_SUPPRESS_DEPRECATED 1 /* SHA256_Init & co., see above */
#define OPENSSL_API_COMPAT 30000

#include <softchat/backend.h>
#include <softchat/mem.h>

#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/params.h>
#include <openssl/rand.h>
#include <openssl/sha.h>

#include <stdlib.h>
#include <string.h>

#include "../os/random.h"
#include "../secp256k1/curve.h"
#include "groups.h"

#if defined(OPENSSL_NO_DEPRECATED_3_0)
#error "the openssl backend needs OpenSSL's SHA256_CTX API (built without no-deprecated)"
#endif

typedef char sha_state_fits[(sizeof(SHA256_CTX) <= SC_SHA256_STATE_BYTES) ? 1 : -1];

/* EVP lengths are int: feed larger inputs in pieces of at most this many bytes. */
#define EVP_CHUNK ((size_t)1 << 30)

/* What the rng group draws from (see the rng section). */
#if defined(__linux__)
#define RNG_LIB                                                                                    \
    "getrandom (Linux kernel, through its vDSO from 6.11; OpenSSL DRBG where the kernel lacks it)"
#else
#define RNG_LIB "openssl"
#endif

/* OpenSSL's GCM provider keeps the IV in a 128-byte buffer (GCM_IV_MAX_SIZE). */
#define GCM_IV_MAX 128u
#define GCM_IV_OK(n) ((n) >= 1 && (n) <= GCM_IV_MAX)

/* ---- hash ------------------------------------------------------------------------------ */

static sc_status hash_sha256(sc_bstate *st, uint8_t out[32], const uint8_t *in, size_t len)
{
    SHA256_CTX c;
    int ok;

    (void)st;
    ok = SHA256_Init(&c) && SHA256_Update(&c, in, len) && SHA256_Final(out, &c);
    sc_mem_wipe(&c, sizeof c);
    return ok ? SC_OK : SC_ERR_INTERNAL;
}

static sc_status hash_init(sc_bstate *st, sc_sha256_state *s)
{
    (void)st;
    return SHA256_Init((SHA256_CTX *)(void *)s) ? SC_OK : SC_ERR_INTERNAL;
}

static sc_status hash_update(sc_bstate *st, sc_sha256_state *s, const uint8_t *in, size_t len)
{
    (void)st;
    return SHA256_Update((SHA256_CTX *)(void *)s, in, len) ? SC_OK : SC_ERR_INTERNAL;
}

static sc_status hash_final(sc_bstate *st, sc_sha256_state *s, uint8_t out[32])
{
    (void)st;
    return SHA256_Final(out, (SHA256_CTX *)(void *)s) ? SC_OK : SC_ERR_INTERNAL;
}

/* ---- mac ------------------------------------------------------------------------------- */

/* HMAC-SHA256 (RFC 2104) written here over OpenSSL's SHA256_CTX functions, not EVP_MAC: in
 * OpenSSL 3.0 every EVP_MAC_init with a key allocates provider digest contexts (5 allocations
 * per call, 14 per held NIP-44 message) and the MAC context keeps a copy of the last key. The
 * construction: K0 = key (or SHA-256(key) when longer than the 64-byte block), zero-padded;
 * inner = SHA-256((K0 ^ ipad) || message); tag = SHA-256((K0 ^ opad) || inner). It runs the
 * same code for every key and message of a given length (the only branch is on the public
 * key length) and wipes every intermediate before returning. The working state lives in the
 * group's state, set up once per context, so it is never a per-call allocation. */
typedef struct mac_state {
    SHA256_CTX inner, outer;
    uint8_t block[64];  /* K0 ^ ipad, then K0 ^ opad */
    uint8_t digest[32]; /* the inner digest */
} mac_state;

static void mac_teardown(sc_bstate *st)
{
    mac_state *m = (mac_state *)(void *)st;

    sc_mem_wipe(m, sizeof *m);
    free(m);
}

static sc_status mac_setup(sc_bstate **out)
{
    mac_state *m = calloc(1, sizeof *m);

    *out = (sc_bstate *)(void *)m;
    return m != NULL ? SC_OK : SC_ERR_NOMEM;
}

static sc_status mac_hmac_sha256(sc_bstate *st, uint8_t out[32], const uint8_t *key, size_t key_len,
                                 const sc_iov *parts, size_t n_parts)
{
    mac_state *m = (mac_state *)(void *)st;
    size_t i;
    int ok = 1;

    memset(m->block, 0, sizeof m->block);
    if (key_len > sizeof m->block) {
        ok = SHA256_Init(&m->inner) && SHA256_Update(&m->inner, key, key_len) &&
             SHA256_Final(m->block, &m->inner);
    } else if (key_len != 0) {
        memcpy(m->block, key, key_len);
    }
    for (i = 0; i < sizeof m->block; i++) {
        m->block[i] ^= 0x36;
    }
    ok = ok && SHA256_Init(&m->inner) && SHA256_Update(&m->inner, m->block, sizeof m->block);
    for (i = 0; i < sizeof m->block; i++) {
        m->block[i] ^= 0x36 ^ 0x5c;
    }
    ok = ok && SHA256_Init(&m->outer) && SHA256_Update(&m->outer, m->block, sizeof m->block);
    for (i = 0; ok && i < n_parts; i++) {
        if (parts[i].len != 0) {
            ok = SHA256_Update(&m->inner, parts[i].data, parts[i].len);
        }
    }
    ok = ok && SHA256_Final(m->digest, &m->inner) &&
         SHA256_Update(&m->outer, m->digest, sizeof m->digest) && SHA256_Final(out, &m->outer);
    sc_mem_wipe(m, sizeof *m); /* pads, chaining values, the inner digest, the buffered tail */
    return ok ? SC_OK : SC_ERR_INTERNAL;
}

/* ---- aead ------------------------------------------------------------------------------ */

typedef struct cipher_state {
    EVP_CIPHER *cipher;
    EVP_CIPHER_CTX *ctx;  /* the streaming operation */
    EVP_CIPHER_CTX *ctx2; /* one-shot seal and open, apart from a streaming operation */
} cipher_state;

static void cipher_teardown(sc_bstate *st)
{
    cipher_state *c = (cipher_state *)(void *)st;

    EVP_CIPHER_CTX_free(c->ctx);
    EVP_CIPHER_CTX_free(c->ctx2);
    EVP_CIPHER_free(c->cipher);
    free(c);
}

static sc_status aead_setup(sc_bstate **out)
{
    cipher_state *c = calloc(1, sizeof *c);

    *out = NULL;
    if (c == NULL) {
        return SC_ERR_NOMEM;
    }
    c->cipher = EVP_CIPHER_fetch(NULL, "AES-256-GCM", NULL);
    c->ctx = EVP_CIPHER_CTX_new();
    c->ctx2 = EVP_CIPHER_CTX_new();
    if (c->cipher == NULL || c->ctx == NULL || c->ctx2 == NULL ||
        !EVP_CipherInit_ex2(c->ctx, c->cipher, NULL, NULL, 1, NULL) ||
        !EVP_CipherInit_ex2(c->ctx2, c->cipher, NULL, NULL, 1, NULL)) {
        cipher_teardown((sc_bstate *)(void *)c);
        return SC_ERR_INTERNAL;
    }
    *out = (sc_bstate *)(void *)c;
    return SC_OK;
}

/* Runs EVP_CipherUpdate over any size_t length, in int-sized pieces. */
static int cipher_update(EVP_CIPHER_CTX *ctx, uint8_t *out, const uint8_t *in, size_t len)
{
    while (len > 0) {
        size_t n = len < EVP_CHUNK ? len : EVP_CHUNK;
        int got = 0;

        if (!EVP_CipherUpdate(ctx, out, &got, in, (int)n) || (size_t)got != n) {
            return 0;
        }
        out += n;
        in += n;
        len -= n;
    }
    return 1;
}

/* Overwrites the key material a reusable cipher context holds with that of the all-zero key.
 * EVP_CipherInit_ex2 without a key keeps the last key schedule; re-keying in place is the one
 * way to drop it without freeing the provider context (which the next call would allocate
 * again). Setting a key also zeroes the whole GCM state (GHASH key table, E_K(J0), the last
 * counter block) before deriving the new one. */
static void cipher_forget(EVP_CIPHER_CTX *ctx)
{
    static const uint8_t zero[32] = {0};

    (void)EVP_CipherInit_ex2(ctx, NULL, zero, NULL, 1, NULL);
}

static sc_status aead_probe(sc_aead_mode mode, size_t iv_len, const char **why)
{
    if (mode != SC_AEAD_ONESHOT && mode != SC_AEAD_STREAM) {
        *why = "unknown AEAD mode";
        return SC_ERR_UNSUPPORTED;
    }
    if (!GCM_IV_OK(iv_len)) {
        *why = "OpenSSL AES-GCM takes IVs of 1 to 128 bytes";
        return SC_ERR_UNSUPPORTED;
    }
    return SC_OK;
}

static int gcm_begin(EVP_CIPHER_CTX *ctx, int enc, const uint8_t key[32], const uint8_t *iv,
                     size_t iv_len, const uint8_t *aad, size_t aad_len)
{
    size_t ivl = iv_len;
    OSSL_PARAM params[2];

    params[0] = OSSL_PARAM_construct_size_t(OSSL_CIPHER_PARAM_AEAD_IVLEN, &ivl);
    params[1] = OSSL_PARAM_construct_end();
    if (!EVP_CipherInit_ex2(ctx, NULL, NULL, NULL, enc, params) ||
        !EVP_CipherInit_ex2(ctx, NULL, key, iv, enc, NULL)) {
        return 0;
    }
    while (aad_len > 0) {
        size_t n = aad_len < EVP_CHUNK ? aad_len : EVP_CHUNK;
        int got = 0;

        if (!EVP_CipherUpdate(ctx, NULL, &got, aad, (int)n)) {
            return 0;
        }
        aad += n;
        aad_len -= n;
    }
    return 1;
}

/* Completes the operation: writes the tag (encrypt) or checks it in constant time
 * (OpenSSL compares with CRYPTO_memcmp). Returns SC_OK, SC_ERR_AUTH or SC_ERR_INTERNAL. */
static sc_status gcm_end(EVP_CIPHER_CTX *ctx, int decrypt, uint8_t tag[16])
{
    uint8_t scratch[16];
    int got = 0;
    sc_status rc = SC_OK;

    if (decrypt) {
        if (!EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_SET_TAG, 16, tag)) {
            rc = SC_ERR_INTERNAL;
        } else if (EVP_CipherFinal_ex(ctx, scratch, &got) <= 0) {
            rc = SC_ERR_AUTH;
        }
    } else if (EVP_CipherFinal_ex(ctx, scratch, &got) <= 0 ||
               !EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_GET_TAG, 16, tag)) {
        rc = SC_ERR_INTERNAL;
    }
    cipher_forget(ctx); /* no key schedule, GHASH key or counter block stays behind */
    return rc;
}

static sc_status aead_seal(sc_bstate *st, uint8_t *ct, uint8_t tag[16], const uint8_t key[32],
                           const uint8_t *iv, size_t iv_len, const uint8_t *aad, size_t aad_len,
                           const uint8_t *pt, size_t len)
{
    cipher_state *c = (cipher_state *)(void *)st;

    if (!GCM_IV_OK(iv_len)) {
        return SC_ERR_UNSUPPORTED;
    }
    if (!gcm_begin(c->ctx2, 1, key, iv, iv_len, aad, aad_len) ||
        !cipher_update(c->ctx2, ct, pt, len)) {
        cipher_forget(c->ctx2);
        return SC_ERR_INTERNAL;
    }
    return gcm_end(c->ctx2, 0, tag);
}

static sc_status aead_open(sc_bstate *st, uint8_t *pt, const uint8_t key[32], const uint8_t *iv,
                           size_t iv_len, const uint8_t *aad, size_t aad_len, const uint8_t *ct,
                           size_t len, const uint8_t tag[16])
{
    cipher_state *c = (cipher_state *)(void *)st;
    uint8_t t[16];
    sc_status rc;

    if (!GCM_IV_OK(iv_len)) {
        sc_mem_wipe(pt, len);
        return SC_ERR_UNSUPPORTED;
    }
    memcpy(t, tag, 16);
    if (!gcm_begin(c->ctx2, 0, key, iv, iv_len, aad, aad_len) ||
        !cipher_update(c->ctx2, pt, ct, len)) {
        cipher_forget(c->ctx2);
        sc_mem_wipe(pt, len);
        return SC_ERR_INTERNAL;
    }
    rc = gcm_end(c->ctx2, 1, t);
    if (rc != SC_OK) {
        sc_mem_wipe(pt, len); /* never release unauthenticated plaintext */
    }
    return rc;
}

static sc_status aead_start(sc_bstate *st, int decrypt, const uint8_t key[32], const uint8_t *iv,
                            size_t iv_len, const uint8_t *aad, size_t aad_len)
{
    cipher_state *c = (cipher_state *)(void *)st;

    if (!GCM_IV_OK(iv_len)) {
        return SC_ERR_UNSUPPORTED;
    }
    if (!gcm_begin(c->ctx, !decrypt, key, iv, iv_len, aad, aad_len)) {
        cipher_forget(c->ctx);
        return SC_ERR_INTERNAL;
    }
    return SC_OK;
}

static sc_status aead_update(sc_bstate *st, uint8_t *out, const uint8_t *in, size_t len)
{
    cipher_state *c = (cipher_state *)(void *)st;

    return cipher_update(c->ctx, out, in, len) ? SC_OK : SC_ERR_INTERNAL;
}

static sc_status aead_final(sc_bstate *st, int decrypt, uint8_t tag[16])
{
    cipher_state *c = (cipher_state *)(void *)st;

    return gcm_end(c->ctx, decrypt, tag);
}

static void aead_abort(sc_bstate *st)
{
    cipher_state *c = (cipher_state *)(void *)st;

    cipher_forget(c->ctx);
}

/* ---- rng ------------------------------------------------------------------------------- */

/* The group draws from the kernel's generator (backends/os/random.h): on Linux getrandom(2),
 * through the vDSO where the kernel exports it (Linux 6.11+), else the system call. That is
 * the source OpenSSL's own DRBG seeds from; 32 bytes cost about 0.1 us through the vDSO and
 * 0.35-0.4 us through the system call, against 0.7-1.4 us for RAND_priv_bytes (a thread-local
 * lookup, a fork check and a CTR-DRBG generate with its AES-256 re-key). The group's state is
 * the vDSO's per-context state (one page mapped at setup, wiped and unmapped at teardown), so
 * a draw never allocates, and a forked child reseeds (the kernel zeroes that page in it).
 * Where there is no kernel generator (not Linux, a kernel without getrandom: ENOSYS, or a
 * seccomp policy denying it: EPERM), OpenSSL's private DRBG (per thread, reseeded after
 * fork). */
static void rng_teardown(sc_bstate *st)
{
    sc_os_random_free((sc_os_random *)(void *)st);
}

static sc_status rng_setup(sc_bstate **out)
{
    sc_os_random *r;
    sc_status s = sc_os_random_new(&r);

    *out = (sc_bstate *)(void *)r;
    return s;
}

static sc_status rng_fill(sc_bstate *st, uint8_t *out, size_t len)
{
    sc_status s = sc_os_random_fill((sc_os_random *)(void *)st, out, len);

    if (s != SC_ERR_UNSUPPORTED) {
        return s;
    }
    while (len > 0) {
        size_t n = len < EVP_CHUNK ? len : EVP_CHUNK;

        if (RAND_priv_bytes(out, (int)n) != 1) {
            return SC_ERR_RNG;
        }
        out += n;
        len -= n;
    }
    return SC_OK;
}

/* ---- table ----------------------------------------------------------------------------- */

static const char *openssl_lib_version(void)
{
    return OpenSSL_version(OPENSSL_VERSION);
}

static const sc_backend_hash openssl_hash = {
    .size = sizeof(sc_backend_hash),
    .lib = "openssl",
    .state_size = sizeof(SHA256_CTX),
    .setup = NULL,
    .teardown = NULL,
    .sha256 = hash_sha256,
    .init = hash_init,
    .update = hash_update,
    .final = hash_final,
};

static const sc_backend_mac openssl_mac = {
    .size = sizeof(sc_backend_mac),
    .lib = "openssl",
    .setup = mac_setup,
    .teardown = mac_teardown,
    .hmac_sha256 = mac_hmac_sha256,
};

static const sc_backend_aead openssl_aead = {
    .size = sizeof(sc_backend_aead),
    .lib = "openssl",
    .setup = aead_setup,
    .teardown = cipher_teardown,
    .probe = aead_probe,
    .seal = aead_seal,
    .open = aead_open,
    .start = aead_start,
    .update = aead_update,
    .final = aead_final,
    .abort = aead_abort,
};

static const sc_backend_rng openssl_rng = {
    .size = sizeof(sc_backend_rng),
    .lib = RNG_LIB,
    .setup = rng_setup,
    .teardown = rng_teardown,
    .fill = rng_fill,
};

const sc_backend sc_backend_openssl = {
    .abi_version = SC_BACKEND_ABI_VERSION,
    .struct_size = sizeof(sc_backend),
    .name = "openssl",
    .lib_version = openssl_lib_version,
    .hash = &openssl_hash,
    .mac = &openssl_mac,
    .stream = &sc_openssl_stream,
    .aead = &openssl_aead,
    .rng = &openssl_rng,
    .curve = &sc_curve_secp256k1,
    .xaead = &sc_openssl_xaead,
    .scrypt = &sc_openssl_scrypt,
    .why_absent = NULL,
};
