/* The mbed TLS backend, for mbed TLS 2.28 LTS and 3.6 LTS.
 *
 * Library contexts that need heap memory (the HMAC md context, the GCM contexts, the DRBG and
 * its entropy pool) are set up once per sc_ctx, in each group's setup. The few calls whose
 * names or signatures differ between 2.28 and 3.x go through the shims below.
 *
 * Known per-call allocation inside mbed TLS (unavoidable through its public API):
 *  - AES-GCM: every mbedtls_gcm_setkey frees and re-creates the AES context inside the GCM
 *    context (one calloc per key; in 2.28 and in 3.6 builds with MBEDTLS_CIPHER_C). The
 *    generic cipher layer re-keys through the same function, so it does not avoid it, and it
 *    cannot wipe a key without a second allocation; the GCM API is used directly instead,
 *    with one allocation per operation.
 *  - RNG on 3.x: mbedtls_entropy_func re-creates its hash accumulator on every call (one
 *    calloc per reseed: at setup, after a fork, and every reseed interval). 2.28 does not
 *    allocate there.
 */
#define _POSIX_C_SOURCE 200809L /* getpid */

#include <softchat/backend.h>
#include <softchat/mem.h>

#include <mbedtls/version.h>

#include <mbedtls/chacha20.h>
#include <mbedtls/cipher.h>
#include <mbedtls/constant_time.h>
#include <mbedtls/ctr_drbg.h>
#include <mbedtls/entropy.h>
#include <mbedtls/gcm.h>
#include <mbedtls/md.h>
#include <mbedtls/sha256.h>

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <unistd.h>

#include "../secp256k1/curve.h"
#include "groups.h"

#if !defined(MBEDTLS_VERSION_NUMBER) || MBEDTLS_VERSION_NUMBER < 0x021C0000
#error "the mbedtls backend needs mbed TLS 2.28 or later"
#endif
#if defined(MBEDTLS_SHA256_ALT)
#error                                                                                             \
    "the mbedtls backend keeps mbedtls_sha256_context in caller memory: needs the built-in SHA-256"
#endif

/* mbedtls_sha256_context (2.28 and 3.6: counters, state words, a block buffer, a flag) holds
 * no pointers, so it can live in the caller's copyable sc_sha256_state. */
typedef char sha_state_fits[(sizeof(mbedtls_sha256_context) <= SC_SHA256_STATE_BYTES) ? 1 : -1];

/* ---- 2.28 / 3.x shims ------------------------------------------------------------------ */

#if MBEDTLS_VERSION_NUMBER >= 0x03000000
#define sha256_starts(c) mbedtls_sha256_starts((c), 0)
#define sha256_update(c, in, len) mbedtls_sha256_update((c), (in), (len))
#define sha256_finish(c, out) mbedtls_sha256_finish((c), (out))
#define sha256_oneshot(in, len, out) mbedtls_sha256((in), (len), (out), 0)
#else
#define sha256_starts(c) mbedtls_sha256_starts_ret((c), 0)
#define sha256_update(c, in, len) mbedtls_sha256_update_ret((c), (in), (len))
#define sha256_finish(c, out) mbedtls_sha256_finish_ret((c), (out))
#define sha256_oneshot(in, len, out) mbedtls_sha256_ret((in), (len), (out), 0)
#endif

/* GCM streaming: 3.x split the AAD out of starts and gave update/finish output sizes. */
static int gcm_starts(mbedtls_gcm_context *g, int mode, const uint8_t *iv, size_t iv_len,
                      const uint8_t *aad, size_t aad_len)
{
#if MBEDTLS_VERSION_NUMBER >= 0x03000000
    int ret = mbedtls_gcm_starts(g, mode, iv, iv_len);

    return ret != 0 ? ret : mbedtls_gcm_update_ad(g, aad, aad_len);
#else
    return mbedtls_gcm_starts(g, mode, iv, iv_len, aad, aad_len);
#endif
}

/* Writes exactly len bytes. 2.28 needs every call but the last to be a multiple of 16 bytes
 * (the caller enforces it); 3.x buffers partial blocks itself and also writes len bytes. */
static int gcm_update(mbedtls_gcm_context *g, uint8_t *out, const uint8_t *in, size_t len)
{
#if MBEDTLS_VERSION_NUMBER >= 0x03000000
    size_t got = 0;
    int ret = mbedtls_gcm_update(g, in, len, out, len, &got);

    /* an alternative GCM implementation may hold output back: not supported here */
    return (ret == 0 && got != len) ? MBEDTLS_ERR_GCM_BAD_INPUT : ret;
#else
    return mbedtls_gcm_update(g, len, in, out);
#endif
}

static int gcm_finish(mbedtls_gcm_context *g, uint8_t tag[16])
{
#if MBEDTLS_VERSION_NUMBER >= 0x03000000
    size_t got = 0;
    int ret = mbedtls_gcm_finish(g, NULL, 0, &got, tag, 16);

    return (ret == 0 && got != 0) ? MBEDTLS_ERR_GCM_BAD_INPUT : ret;
#else
    return mbedtls_gcm_finish(g, tag, 16);
#endif
}

/* ---- status translation ---------------------------------------------------------------- */

/* mbed TLS codes are negative; a high-level part (bits 7-14: cipher, md) may be added to a
 * low-level one (bits 0-6: gcm, aes). */
static sc_status from_mbedtls(int ret)
{
    int code = ret < 0 ? -ret : ret;
    int high = code & 0x7F80;
    int low = code & 0x007F;

    if (ret == 0) {
        return SC_OK;
    }
    if (low == -MBEDTLS_ERR_GCM_AUTH_FAILED || high == -MBEDTLS_ERR_CIPHER_AUTH_FAILED) {
        return SC_ERR_AUTH;
    }
    if (high == -MBEDTLS_ERR_CIPHER_ALLOC_FAILED || high == -MBEDTLS_ERR_MD_ALLOC_FAILED) {
        return SC_ERR_NOMEM;
    }
    if (high == -MBEDTLS_ERR_CIPHER_FEATURE_UNAVAILABLE ||
        high == -MBEDTLS_ERR_MD_FEATURE_UNAVAILABLE) {
        return SC_ERR_UNSUPPORTED;
    }
    return SC_ERR_INTERNAL;
}

/* ---- hash ------------------------------------------------------------------------------ */

static sc_status hash_sha256(sc_bstate *st, uint8_t out[32], const uint8_t *in, size_t len)
{
    (void)st;
    /* the one-shot form wipes its own stack context */
    return sha256_oneshot(in, len, out) == 0 ? SC_OK : SC_ERR_INTERNAL;
}

static sc_status hash_init(sc_bstate *st, sc_sha256_state *s)
{
    mbedtls_sha256_context *c = (mbedtls_sha256_context *)(void *)s;

    (void)st;
    mbedtls_sha256_init(c);
    return sha256_starts(c) == 0 ? SC_OK : SC_ERR_INTERNAL;
}

static sc_status hash_update(sc_bstate *st, sc_sha256_state *s, const uint8_t *in, size_t len)
{
    (void)st;
    return sha256_update((mbedtls_sha256_context *)(void *)s, in, len) == 0 ? SC_OK
                                                                            : SC_ERR_INTERNAL;
}

static sc_status hash_final(sc_bstate *st, sc_sha256_state *s, uint8_t out[32])
{
    (void)st;
    return sha256_finish((mbedtls_sha256_context *)(void *)s, out) == 0 ? SC_OK : SC_ERR_INTERNAL;
}

/* ---- mac ------------------------------------------------------------------------------- */

typedef struct mac_state {
    mbedtls_md_context_t md; /* SHA-256 with HMAC pads, allocated by mbedtls_md_setup */
} mac_state;

static const uint8_t no_key[1] = {0};
static const uint8_t zero_block[63] = {0};

static void mac_teardown(sc_bstate *st)
{
    mac_state *m = (mac_state *)(void *)st;

    mbedtls_md_free(&m->md); /* wipes the digest and pad buffers before freeing them */
    sc_mem_wipe(m, sizeof *m);
    free(m);
}

static sc_status mac_setup(sc_bstate **out)
{
    mac_state *m = calloc(1, sizeof *m);
    const mbedtls_md_info_t *info = mbedtls_md_info_from_type(MBEDTLS_MD_SHA256);
    int ret;

    *out = NULL;
    if (m == NULL) {
        return SC_ERR_NOMEM;
    }
    mbedtls_md_init(&m->md);
    ret = info != NULL ? mbedtls_md_setup(&m->md, info, 1) : MBEDTLS_ERR_MD_FEATURE_UNAVAILABLE;
    if (ret != 0) {
        mac_teardown((sc_bstate *)(void *)m);
        return ret == MBEDTLS_ERR_MD_ALLOC_FAILED ? SC_ERR_NOMEM : SC_ERR_INTERNAL;
    }
    *out = (sc_bstate *)(void *)m;
    return SC_OK;
}

static sc_status mac_hmac_sha256(sc_bstate *st, uint8_t out[32], const uint8_t *key, size_t key_len,
                                 const sc_iov *parts, size_t n_parts)
{
    mac_state *m = (mac_state *)(void *)st;
    size_t i;
    int ret;

    ret = mbedtls_md_hmac_starts(&m->md, key_len != 0 ? key : no_key, key_len);
    for (i = 0; ret == 0 && i < n_parts; i++) {
        if (parts[i].len != 0) {
            ret = mbedtls_md_hmac_update(&m->md, parts[i].data, parts[i].len);
        }
    }
    if (ret == 0) {
        ret = mbedtls_md_hmac_finish(&m->md, out);
    }
    /* The pads are the key XOR a constant and would stay in the reusable context until the
     * next call: re-key with the empty key so only public constants remain (one compression).
     * That does not reach the SHA-256 block buffer, which still holds the last block hashed:
     * the inner digest, from which the tag of a public-key HMAC follows (HKDF-Extract with the
     * salt "nip44-v2" gives the conversation key). 63 zero bytes overwrite it (a copy, no
     * compression). */
    (void)mbedtls_md_hmac_starts(&m->md, no_key, 0);
    (void)mbedtls_md_hmac_update(&m->md, zero_block, sizeof zero_block);
    return ret == 0 ? SC_OK : SC_ERR_INTERNAL;
}

/* ---- stream ---------------------------------------------------------------------------- */

static sc_status stream_chacha20_xor(sc_bstate *st, uint8_t *out, const uint8_t *in, size_t len,
                                     const uint8_t key[32], const uint8_t nonce[12],
                                     uint32_t counter)
{
    (void)st;
    /* one-shot: keys a stack context, XORs byte-wise (exact in-place is fine), wipes it */
    return mbedtls_chacha20_crypt(key, nonce, counter, len, in, out) == 0 ? SC_OK : SC_ERR_INTERNAL;
}

/* ---- aead ------------------------------------------------------------------------------ */

typedef struct aead_state {
    mbedtls_gcm_context oneshot; /* seal/open, so they never disturb a streaming operation */
    mbedtls_gcm_context stream;
    int active;  /* a streaming operation is started */
    int decrypt; /* its direction */
    int tail;    /* it has had an update whose length is not a multiple of 16 */
} aead_state;

/* Drops the key schedule and the GHASH key table: mbedtls_gcm_free wipes the whole context
 * and frees the inner AES context; it never allocates. */
static void gcm_wipe(mbedtls_gcm_context *g)
{
    mbedtls_gcm_free(g);
    mbedtls_gcm_init(g);
}

static void aead_teardown(sc_bstate *st)
{
    aead_state *a = (aead_state *)(void *)st;

    mbedtls_gcm_free(&a->oneshot);
    mbedtls_gcm_free(&a->stream);
    sc_mem_wipe(a, sizeof *a);
    free(a);
}

static sc_status aead_setup(sc_bstate **out)
{
    aead_state *a = calloc(1, sizeof *a);

    *out = NULL;
    if (a == NULL) {
        return SC_ERR_NOMEM;
    }
    mbedtls_gcm_init(&a->oneshot);
    mbedtls_gcm_init(&a->stream);
    *out = (sc_bstate *)(void *)a;
    return SC_OK;
}

/* mbedtls_gcm_starts (2.28.3 and 3.6.6) takes IVs of 1 to 2^61 - 1 bytes; other lengths get
 * J0 from GHASH, as SP 800-38D specifies. */
static int iv_ok(size_t iv_len)
{
    return iv_len != 0 && ((uint64_t)iv_len >> 61) == 0;
}

static sc_status aead_probe(sc_aead_mode mode, size_t iv_len, const char **why)
{
    if (mode != SC_AEAD_ONESHOT && mode != SC_AEAD_STREAM) {
        *why = "unknown AEAD mode";
        return SC_ERR_UNSUPPORTED;
    }
    if (!iv_ok(iv_len)) {
        *why = "mbed TLS GCM takes IVs of 1 to 2^61-1 bytes";
        return SC_ERR_UNSUPPORTED;
    }
    return SC_OK;
}

static sc_status aead_seal(sc_bstate *st, uint8_t *ct, uint8_t tag[16], const uint8_t key[32],
                           const uint8_t *iv, size_t iv_len, const uint8_t *aad, size_t aad_len,
                           const uint8_t *pt, size_t len)
{
    aead_state *a = (aead_state *)(void *)st;
    int ret;

    if (!iv_ok(iv_len)) {
        return SC_ERR_UNSUPPORTED;
    }
    ret = mbedtls_gcm_setkey(&a->oneshot, MBEDTLS_CIPHER_ID_AES, key, 256);
    if (ret == 0) {
        ret = mbedtls_gcm_crypt_and_tag(&a->oneshot, MBEDTLS_GCM_ENCRYPT, len, iv, iv_len, aad,
                                        aad_len, pt, ct, 16, tag);
    }
    gcm_wipe(&a->oneshot);
    if (ret != 0) {
        sc_mem_wipe(tag, 16);
        return from_mbedtls(ret);
    }
    return SC_OK;
}

static sc_status aead_open(sc_bstate *st, uint8_t *pt, const uint8_t key[32], const uint8_t *iv,
                           size_t iv_len, const uint8_t *aad, size_t aad_len, const uint8_t *ct,
                           size_t len, const uint8_t tag[16])
{
    aead_state *a = (aead_state *)(void *)st;
    uint8_t t[16];
    int ret;

    if (!iv_ok(iv_len)) {
        sc_mem_wipe(pt, len);
        return SC_ERR_UNSUPPORTED;
    }
    memcpy(t, tag, 16); /* the tag is read after pt is written */
    ret = mbedtls_gcm_setkey(&a->oneshot, MBEDTLS_CIPHER_ID_AES, key, 256);
    if (ret == 0) {
        /* compares the tag in constant time */
        ret = mbedtls_gcm_auth_decrypt(&a->oneshot, len, iv, iv_len, aad, aad_len, t, 16, ct, pt);
    }
    gcm_wipe(&a->oneshot);
    if (ret != 0) {
        sc_mem_wipe(pt, len); /* never release unauthenticated plaintext */
        return from_mbedtls(ret);
    }
    return SC_OK;
}

static void stream_reset(aead_state *a)
{
    gcm_wipe(&a->stream);
    a->active = 0;
    a->decrypt = 0;
    a->tail = 0;
}

static sc_status aead_start(sc_bstate *st, int decrypt, const uint8_t key[32], const uint8_t *iv,
                            size_t iv_len, const uint8_t *aad, size_t aad_len)
{
    aead_state *a = (aead_state *)(void *)st;
    int ret;

    stream_reset(a);
    if (!iv_ok(iv_len)) {
        return SC_ERR_UNSUPPORTED;
    }
    ret = mbedtls_gcm_setkey(&a->stream, MBEDTLS_CIPHER_ID_AES, key, 256);
    if (ret == 0) {
        ret = gcm_starts(&a->stream, decrypt ? MBEDTLS_GCM_DECRYPT : MBEDTLS_GCM_ENCRYPT, iv,
                         iv_len, aad, aad_len);
    }
    if (ret != 0) {
        stream_reset(a);
        return from_mbedtls(ret);
    }
    a->active = 1;
    a->decrypt = decrypt != 0;
    return SC_OK;
}

static sc_status aead_update(sc_bstate *st, uint8_t *out, const uint8_t *in, size_t len)
{
    aead_state *a = (aead_state *)(void *)st;
    int ret;

    if (!a->active) {
        return SC_ERR_STATE;
    }
    if (len == 0) {
        return SC_OK;
    }
    if (a->tail) {
        /* 2.28 would silently mis-encrypt data after a partial block: fail closed */
        stream_reset(a);
        return SC_ERR_STATE;
    }
    ret = gcm_update(&a->stream, out, in, len);
    if (ret != 0) {
        sc_mem_wipe(out, len);
        stream_reset(a);
        return from_mbedtls(ret);
    }
    a->tail = (len % 16) != 0;
    return SC_OK;
}

static sc_status aead_final(sc_bstate *st, int decrypt, uint8_t tag[16])
{
    aead_state *a = (aead_state *)(void *)st;
    uint8_t want[16];
    sc_status rc;
    int ret;

    if (!a->active) {
        return SC_ERR_STATE;
    }
    if ((decrypt != 0) != a->decrypt) {
        /* writing the tag of a decryption would hand out a forgery */
        stream_reset(a);
        return SC_ERR_STATE;
    }
    if (decrypt) {
        ret = gcm_finish(&a->stream, want);
        if (ret != 0) {
            rc = from_mbedtls(ret);
        } else {
            rc = mbedtls_ct_memcmp(want, tag, 16) == 0 ? SC_OK : SC_ERR_AUTH;
        }
        sc_mem_wipe(want, sizeof want);
    } else {
        ret = gcm_finish(&a->stream, tag);
        rc = from_mbedtls(ret);
        if (rc != SC_OK) {
            sc_mem_wipe(tag, 16);
        }
    }
    stream_reset(a);
    return rc;
}

static void aead_abort(sc_bstate *st)
{
    stream_reset((aead_state *)(void *)st);
}

/* ---- rng ------------------------------------------------------------------------------- */

/* CTR_DRBG (AES-256) seeded from mbed TLS's entropy pool (OS entropy), reseeded by mbed TLS
 * every MBEDTLS_CTR_DRBG_RESEED_INTERVAL requests. Fork safety: the process id is recorded at
 * every (re)seed and a request from a different process reseeds first, so a child never
 * repeats its parent's output. (Prediction resistance would reseed on every request instead:
 * about 12 us per call, more than the NIP-44 encryption that needs the nonce.) */
typedef struct rng_state {
    mbedtls_entropy_context entropy;
    mbedtls_ctr_drbg_context drbg; /* holds a pointer to entropy: keep them together */
    pid_t pid;                     /* the process that last (re)seeded drbg */
} rng_state;

static void rng_teardown(sc_bstate *st)
{
    rng_state *r = (rng_state *)(void *)st;

    mbedtls_ctr_drbg_free(&r->drbg); /* wipes */
    mbedtls_entropy_free(&r->entropy);
    sc_mem_wipe(r, sizeof *r);
    free(r);
}

static sc_status rng_setup(sc_bstate **out)
{
    static const char pers[] = "libsoftchat mbedtls ctr_drbg";
    rng_state *r = calloc(1, sizeof *r);
    int ret;

    *out = NULL;
    if (r == NULL) {
        return SC_ERR_NOMEM;
    }
    mbedtls_entropy_init(&r->entropy);
    mbedtls_ctr_drbg_init(&r->drbg);
    ret = mbedtls_ctr_drbg_seed(&r->drbg, mbedtls_entropy_func, &r->entropy,
                                (const unsigned char *)pers, sizeof pers - 1);
    if (ret != 0) {
        rng_teardown((sc_bstate *)(void *)r);
        return SC_ERR_RNG;
    }
    r->pid = getpid();
    *out = (sc_bstate *)(void *)r;
    return SC_OK;
}

static sc_status rng_fill(sc_bstate *st, uint8_t *out, size_t len)
{
    rng_state *r = (rng_state *)(void *)st;
    pid_t pid = getpid();

    if (pid != r->pid) { /* forked: never share the parent's stream */
        if (mbedtls_ctr_drbg_reseed(&r->drbg, NULL, 0) != 0) {
            return SC_ERR_RNG;
        }
        r->pid = pid;
    }
    while (len > 0) {
        size_t n = len < MBEDTLS_CTR_DRBG_MAX_REQUEST ? len : MBEDTLS_CTR_DRBG_MAX_REQUEST;

        if (mbedtls_ctr_drbg_random(&r->drbg, out, n) != 0) {
            return SC_ERR_RNG;
        }
        out += n;
        len -= n;
    }
    return SC_OK;
}

/* ---- table ----------------------------------------------------------------------------- */

static const char *mbedtls_lib_version(void)
{
    return MBEDTLS_VERSION_STRING_FULL; /* e.g. "mbed TLS 2.28.3", "Mbed TLS 3.6.6" */
}

const sc_backend_hash sc_mbedtls_hash = {
    .size = sizeof(sc_backend_hash),
    .lib = "mbedtls",
    .state_size = sizeof(mbedtls_sha256_context),
    .setup = NULL,
    .teardown = NULL,
    .sha256 = hash_sha256,
    .init = hash_init,
    .update = hash_update,
    .final = hash_final,
};

const sc_backend_mac sc_mbedtls_mac = {
    .size = sizeof(sc_backend_mac),
    .lib = "mbedtls",
    .setup = mac_setup,
    .teardown = mac_teardown,
    .hmac_sha256 = mac_hmac_sha256,
};

const sc_backend_stream sc_mbedtls_stream = {
    .size = sizeof(sc_backend_stream),
    .lib = "mbedtls",
    .setup = NULL,
    .teardown = NULL,
    .chacha20_xor = stream_chacha20_xor,
};

const sc_backend_aead sc_mbedtls_aead = {
    .size = sizeof(sc_backend_aead),
    .lib = "mbedtls",
    .setup = aead_setup,
    .teardown = aead_teardown,
    .probe = aead_probe,
    .seal = aead_seal,
    .open = aead_open,
    .start = aead_start,
    .update = aead_update,
    .final = aead_final,
    .abort = aead_abort,
};

const sc_backend_rng sc_mbedtls_rng = {
    .size = sizeof(sc_backend_rng),
    .lib = "mbedtls",
    .setup = rng_setup,
    .teardown = rng_teardown,
    .fill = rng_fill,
};

/* What mbed TLS lacks for NIP-49 (sc_backend_has gives these reasons). It has ChaCha20 and the
 * RFC 8439 AEAD, from which XChaCha20-Poly1305 could be derived (an HChaCha20 from one ChaCha20
 * block, as the openssl backend does), but without scrypt that would serve no protocol: a
 * table that needs NIP-49 on mbed TLS's platforms is sodium+mbedtls, which takes both from
 * libsodium. */
static const char *mbedtls_why_absent(sc_group g)
{
    switch (g) {
    case SC_GROUP_SCRYPT:
        return "mbed TLS has no scrypt (PBKDF2 only); NIP-49 needs it: use sodium or "
               "sodium+mbedtls";
    case SC_GROUP_XAEAD:
        return "mbed TLS has no XChaCha20-Poly1305 (its ChaCha20-Poly1305 takes 12-byte nonces), "
               "and without scrypt NIP-49 cannot use one: use sodium or sodium+mbedtls";
    default:
        return NULL;
    }
}

const sc_backend sc_backend_mbedtls = {
    .abi_version = SC_BACKEND_ABI_VERSION,
    .struct_size = sizeof(sc_backend),
    .name = "mbedtls",
    .lib_version = mbedtls_lib_version,
    .hash = &sc_mbedtls_hash,
    .mac = &sc_mbedtls_mac,
    .stream = &sc_mbedtls_stream,
    .aead = &sc_mbedtls_aead,
    .rng = &sc_mbedtls_rng,
    .curve = &sc_curve_secp256k1,
    .xaead = NULL,
    .scrypt = NULL,
    .why_absent = mbedtls_why_absent,
};
