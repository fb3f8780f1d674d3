/* The psa backend: every group but the curve through the PSA Crypto API (psa/crypto.h), as
 * mbed TLS 3.6 LTS implements it. Needs mbed TLS 3.6.6 or later (backends/psa/backend.cmake
 * checks at configure time, this file at compile time): 2.28 has an incomplete PSA API, and
 * before 3.6.6 a forked child inherited the PSA random generator's state (CVE-2026-25835).
 *
 * Process-wide state. PSA keeps one key store and one random generator per process, set up
 * by psa_crypto_init(). Every group's setup calls psa_crypto_init(), which is idempotent, so
 * any number of contexts share it; no context ever calls mbedtls_psa_crypto_free() (that
 * would pull the key store from under the other contexts and any other PSA user in the
 * process). Contexts on different threads are safe when mbed TLS is built with
 * MBEDTLS_THREADING_C (scripts/deps.sh builds it so); without it, PSA's global state has
 * no locks and psa contexts must be used from one thread at a time, process-wide.
 *
 * Keys. PSA works on keys imported into its key store. Each call imports its key as a
 * volatile key, sets up the operation (which expands the key into the operation object) and
 * destroys the key at once, before any data is processed: the key store holds no key
 * material when a call returns, on every path (psa_destroy_key wipes the slot). The
 * operation objects are wiped by their abort (mbed TLS zeroizes the expanded keys) and by us.
 *
 * Allocation. With MBEDTLS_PSA_STATIC_KEY_SLOTS (no MBEDTLS_PSA_KEY_STORE_DYNAMIC) key import
 * does not allocate, and with MBEDTLS_PSA_ASSUME_EXCLUSIVE_BUFFERS PSA calls take the
 * caller's buffers instead of heap copies; scripts/deps.sh sets both. What then
 * still allocates inside mbed TLS 3.6, unavoidably through the PSA API: ChaCha20 (the cipher
 * layer callocs its ChaCha20 context at every psa_cipher_*_setup) and AES-GCM (mbedtls_gcm_setkey
 * re-creates its AES context), one allocation each per call; the random generator's entropy
 * accumulator at each reseed. Against a default 3.6 configuration, every key import and
 * every PSA call with buffers allocates as well (docs/architecture.md has the counts).
 *
 * What PSA cannot do. PSA_ALG_STREAM_CIPHER with a ChaCha20 key takes a 12-byte nonce and
 * always starts at block counter 0 (psa_cipher_set_iv accepts exactly
 * PSA_CIPHER_IV_LENGTH = 12 bytes; mbed TLS 3.6 library/cipher.c starts ChaCha20 at counter
 * 0): the stream group reports the chacha20-counter capability unsupported and refuses any
 * other counter. NIP-44 needs counter 0 only.
 *
 * Hash state. psa_hash_operation_t (232 bytes in 3.6 with the default hashes) lives in the
 * caller's sc_sha256_state. With mbed TLS's built-in hash driver it is plain data (a driver
 * id and the hash contexts), so a copy is an independent state, as sc_sha256_state promises;
 * a build whose SHA-256 goes to an accelerator driver may keep handles there instead, which
 * this backend does not support.
 */
#include <softchat/backend.h>
#include <softchat/mem.h>

#include <psa/crypto.h>
#include <mbedtls/version.h>

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../secp256k1/curve.h"

#if !defined(MBEDTLS_VERSION_NUMBER) || MBEDTLS_VERSION_NUMBER < 0x03060600
#error "the psa backend needs mbed TLS 3.6.6 or later (scripts/deps.sh builds it)"
#endif
#if defined(MBEDTLS_PSA_ACCEL_ALG_SHA_256)
#error "the psa backend keeps psa_hash_operation_t in caller memory: needs the built-in SHA-256"
#endif

typedef char hash_state_fits[(sizeof(psa_hash_operation_t) <= SC_SHA256_STATE_BYTES) ? 1 : -1];

#define HMAC_ALG PSA_ALG_HMAC(PSA_ALG_SHA_256)
#define HMAC_BLOCK 64 /* SHA-256 block size: HMAC pads shorter keys with zeros to this length */

/* ---- status translation and keys ------------------------------------------------------- */

static sc_status from_psa(psa_status_t s)
{
    switch (s) {
    case PSA_SUCCESS:
        return SC_OK;
    case PSA_ERROR_INVALID_SIGNATURE:
        return SC_ERR_AUTH;
    case PSA_ERROR_INSUFFICIENT_MEMORY:
        return SC_ERR_NOMEM;
    case PSA_ERROR_NOT_SUPPORTED:
        return SC_ERR_UNSUPPORTED;
    case PSA_ERROR_INSUFFICIENT_ENTROPY:
        return SC_ERR_RNG;
    case PSA_ERROR_BAD_STATE:
        return SC_ERR_STATE; /* e.g. a hash state that a failure wiped */
    default:
        return SC_ERR_INTERNAL;
    }
}

/* Imports key[0..len) as a volatile key for one algorithm and usage. */
static psa_status_t key_import(psa_key_id_t *id, psa_key_type_t type, psa_algorithm_t alg,
                               psa_key_usage_t usage, const uint8_t *key, size_t len)
{
    psa_key_attributes_t attr = PSA_KEY_ATTRIBUTES_INIT;
    psa_status_t s;

    psa_set_key_type(&attr, type);
    psa_set_key_algorithm(&attr, alg);
    psa_set_key_usage_flags(&attr, usage);
    s = psa_import_key(&attr, key, len, id);
    psa_reset_key_attributes(&attr);
    return s;
}

/* Every group's setup: the process-wide PSA state, set up once, shared by all contexts. The
 * groups keep no state of their own except aead (the streaming operation). */
static sc_status psa_setup(sc_bstate **out)
{
    *out = NULL;
    return from_psa(psa_crypto_init());
}

static void psa_teardown(sc_bstate *st)
{
    (void)st; /* never called: setup returns no state */
}

/* ---- hash ------------------------------------------------------------------------------ */

static sc_status hash_sha256(sc_bstate *st, uint8_t out[32], const uint8_t *in, size_t len)
{
    size_t n = 0;
    psa_status_t s = psa_hash_compute(PSA_ALG_SHA_256, in, len, out, 32, &n);

    (void)st;
    return (s == PSA_SUCCESS && n != 32) ? SC_ERR_INTERNAL : from_psa(s);
}

static sc_status hash_init(sc_bstate *st, sc_sha256_state *hs)
{
    psa_hash_operation_t *op = (psa_hash_operation_t *)(void *)hs;

    (void)st;
    *op = psa_hash_operation_init();
    return from_psa(psa_hash_setup(op, PSA_ALG_SHA_256));
}

static sc_status hash_update(sc_bstate *st, sc_sha256_state *hs, const uint8_t *in, size_t len)
{
    (void)st;
    /* on failure PSA aborts the operation (and wipes it) itself */
    return from_psa(psa_hash_update((psa_hash_operation_t *)(void *)hs, in, len));
}

static sc_status hash_final(sc_bstate *st, sc_sha256_state *hs, uint8_t out[32])
{
    psa_hash_operation_t *op = (psa_hash_operation_t *)(void *)hs;
    size_t n = 0;
    psa_status_t s = psa_hash_finish(op, out, 32, &n);

    (void)st;
    (void)psa_hash_abort(op); /* no-op after a successful finish */
    return (s == PSA_SUCCESS && n != 32) ? SC_ERR_INTERNAL : from_psa(s);
}

/* ---- mac ------------------------------------------------------------------------------- */

/* PSA refuses an empty key, and a key larger than a static key slot. HMAC itself (RFC 2104)
 * hashes a key longer than the block and pads a shorter one with zeros, so the empty key
 * and one zero byte are the same key, and a long key is the same key as its SHA-256. */
static sc_status mac_hmac_sha256(sc_bstate *st, uint8_t out[32], const uint8_t *key, size_t key_len,
                                 const sc_iov *parts, size_t n_parts)
{
    static const uint8_t zero_byte[1] = {0};
    psa_mac_operation_t op = PSA_MAC_OPERATION_INIT;
    psa_key_id_t id = PSA_KEY_ID_NULL;
    uint8_t hashed[32];
    const uint8_t *k = key;
    size_t kl = key_len, i, n = 0;
    psa_status_t s = PSA_SUCCESS;

    (void)st;
    if (key_len == 0) {
        k = zero_byte;
        kl = 1;
    } else if (key_len > HMAC_BLOCK) {
        s = psa_hash_compute(PSA_ALG_SHA_256, key, key_len, hashed, sizeof hashed, &n);
        k = hashed;
        kl = sizeof hashed;
    }
    if (s == PSA_SUCCESS) {
        s = key_import(&id, PSA_KEY_TYPE_HMAC, HMAC_ALG, PSA_KEY_USAGE_SIGN_MESSAGE, k, kl);
    }
    sc_mem_wipe(hashed, sizeof hashed);
    if (s == PSA_SUCCESS) {
        s = psa_mac_sign_setup(&op, id, HMAC_ALG);
        (void)psa_destroy_key(id); /* the operation holds the padded key now */
    }
    for (i = 0; s == PSA_SUCCESS && i < n_parts; i++) {
        if (parts[i].len != 0) {
            s = psa_mac_update(&op, parts[i].data, parts[i].len);
        }
    }
    if (s == PSA_SUCCESS) {
        s = psa_mac_sign_finish(&op, out, 32, &n);
    }
    (void)psa_mac_abort(&op);
    sc_mem_wipe(&op, sizeof op);
    if (s == PSA_SUCCESS && n != 32) {
        s = PSA_ERROR_GENERIC_ERROR;
    }
    if (s != PSA_SUCCESS) {
        sc_mem_wipe(out, 32);
    }
    return from_psa(s);
}

/* ---- stream ---------------------------------------------------------------------------- */

static sc_status stream_probe_counter(const char **why)
{
    *why = "PSA's ChaCha20 (PSA_ALG_STREAM_CIPHER) takes a 12-byte nonce and always starts at "
           "block counter 0";
    return SC_ERR_UNSUPPORTED;
}

static sc_status stream_chacha20_xor(sc_bstate *st, uint8_t *out, const uint8_t *in, size_t len,
                                     const uint8_t key[32], const uint8_t nonce[12],
                                     uint32_t counter)
{
    psa_cipher_operation_t op = PSA_CIPHER_OPERATION_INIT;
    psa_key_id_t id = PSA_KEY_ID_NULL;
    uint8_t tail[16];
    size_t n = 0, m = 0;
    psa_status_t s;

    (void)st;
    if (counter != 0) {
        return SC_ERR_UNSUPPORTED; /* see stream_probe_counter */
    }
    s = key_import(&id, PSA_KEY_TYPE_CHACHA20, PSA_ALG_STREAM_CIPHER, PSA_KEY_USAGE_ENCRYPT, key,
                   32);
    if (s == PSA_SUCCESS) {
        s = psa_cipher_encrypt_setup(&op, id, PSA_ALG_STREAM_CIPHER);
        (void)psa_destroy_key(id); /* the operation holds the key now */
    }
    if (s == PSA_SUCCESS) {
        s = psa_cipher_set_iv(&op, nonce, 12);
    }
    if (s == PSA_SUCCESS) {
        /* a stream cipher writes exactly len bytes; exact in-place is fine */
        s = psa_cipher_update(&op, in, len, out, len, &n);
    }
    if (s == PSA_SUCCESS) {
        s = psa_cipher_finish(&op, tail, sizeof tail, &m);
    }
    (void)psa_cipher_abort(&op);
    sc_mem_wipe(&op, sizeof op);
    sc_mem_wipe(tail, sizeof tail);
    return (s == PSA_SUCCESS && (n != len || m != 0)) ? SC_ERR_INTERNAL : from_psa(s);
}

/* ---- aead ------------------------------------------------------------------------------ */

typedef struct aead_state {
    psa_aead_operation_t stream; /* the streaming operation; one-shot calls use their own */
    int active;                  /* a streaming operation is started */
    int decrypt;                 /* its direction */
} aead_state;

static void aead_stream_reset(aead_state *a)
{
    (void)psa_aead_abort(&a->stream); /* zeroizes the GCM context (key schedule, H table) */
    sc_mem_wipe(&a->stream, sizeof a->stream);
    a->stream = psa_aead_operation_init();
    a->active = 0;
    a->decrypt = 0;
}

static void aead_teardown(sc_bstate *st)
{
    aead_state *a = (aead_state *)(void *)st;

    aead_stream_reset(a);
    sc_mem_wipe(a, sizeof *a);
    free(a);
}

static sc_status aead_setup(sc_bstate **out)
{
    aead_state *a;
    sc_status st = psa_setup(out);

    if (st != SC_OK) {
        return st;
    }
    a = calloc(1, sizeof *a);
    if (a == NULL) {
        return SC_ERR_NOMEM;
    }
    a->stream = psa_aead_operation_init();
    *out = (sc_bstate *)(void *)a;
    return SC_OK;
}

/* mbed TLS 3.6 GCM (psa_aead_set_nonce, mbedtls_gcm_starts) takes nonces of 1 to 2^61 - 1
 * bytes; lengths other than 12 get J0 from GHASH, as SP 800-38D specifies. */
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
        *why = "PSA (mbed TLS 3.6) GCM takes nonces of 1 to 2^61-1 bytes";
        return SC_ERR_UNSUPPORTED;
    }
    return SC_OK;
}

/* Imports the key, sets up op in the given direction, destroys the key, sets the nonce and
 * feeds the additional data. On failure op is aborted. */
static psa_status_t gcm_begin(psa_aead_operation_t *op, int decrypt, const uint8_t key[32],
                              const uint8_t *iv, size_t iv_len, const uint8_t *aad, size_t aad_len)
{
    psa_key_id_t id = PSA_KEY_ID_NULL;
    psa_status_t s = key_import(&id, PSA_KEY_TYPE_AES, PSA_ALG_GCM,
                                decrypt ? PSA_KEY_USAGE_DECRYPT : PSA_KEY_USAGE_ENCRYPT, key, 32);

    if (s == PSA_SUCCESS) {
        s = decrypt ? psa_aead_decrypt_setup(op, id, PSA_ALG_GCM)
                    : psa_aead_encrypt_setup(op, id, PSA_ALG_GCM);
        (void)psa_destroy_key(id); /* the operation holds the key schedule now */
    }
    if (s == PSA_SUCCESS) {
        s = psa_aead_set_nonce(op, iv, iv_len);
    }
    if (s == PSA_SUCCESS && aad_len != 0) {
        s = psa_aead_update_ad(op, aad, aad_len);
    }
    if (s != PSA_SUCCESS) {
        (void)psa_aead_abort(op);
    }
    return s;
}

/* Writes exactly len bytes (GCM in mbed TLS 3.6 buffers nothing back); out == in allowed. */
static psa_status_t gcm_update(psa_aead_operation_t *op, uint8_t *out, const uint8_t *in,
                               size_t len)
{
    size_t n = 0;
    psa_status_t s = len != 0 ? psa_aead_update(op, in, len, out, len, &n) : PSA_SUCCESS;

    return (s == PSA_SUCCESS && n != len) ? PSA_ERROR_GENERIC_ERROR : s;
}

/* Encryption's end: the tag. */
static psa_status_t gcm_finish_tag(psa_aead_operation_t *op, uint8_t tag[16])
{
    uint8_t rest[16];
    size_t n = 0, t = 0;
    psa_status_t s = psa_aead_finish(op, rest, sizeof rest, &n, tag, 16, &t);

    sc_mem_wipe(rest, sizeof rest);
    return (s == PSA_SUCCESS && (n != 0 || t != 16)) ? PSA_ERROR_GENERIC_ERROR : s;
}

/* Decryption's end: PSA compares the tag in constant time (PSA_ERROR_INVALID_SIGNATURE). */
static psa_status_t gcm_verify_tag(psa_aead_operation_t *op, const uint8_t tag[16])
{
    uint8_t rest[16];
    size_t n = 0;
    psa_status_t s = psa_aead_verify(op, rest, sizeof rest, &n, tag, 16);

    sc_mem_wipe(rest, sizeof rest);
    return (s == PSA_SUCCESS && n != 0) ? PSA_ERROR_GENERIC_ERROR : s;
}

static sc_status aead_seal(sc_bstate *st, uint8_t *ct, uint8_t tag[16], const uint8_t key[32],
                           const uint8_t *iv, size_t iv_len, const uint8_t *aad, size_t aad_len,
                           const uint8_t *pt, size_t len)
{
    psa_aead_operation_t op = PSA_AEAD_OPERATION_INIT;
    psa_status_t s;

    (void)st;
    if (!iv_ok(iv_len)) {
        return SC_ERR_UNSUPPORTED;
    }
    s = gcm_begin(&op, 0, key, iv, iv_len, aad, aad_len);
    if (s == PSA_SUCCESS) {
        s = gcm_update(&op, ct, pt, len);
    }
    if (s == PSA_SUCCESS) {
        s = gcm_finish_tag(&op, tag);
    }
    (void)psa_aead_abort(&op);
    sc_mem_wipe(&op, sizeof op);
    if (s != PSA_SUCCESS) {
        sc_mem_wipe(tag, 16);
    }
    return from_psa(s);
}

static sc_status aead_open(sc_bstate *st, uint8_t *pt, const uint8_t key[32], const uint8_t *iv,
                           size_t iv_len, const uint8_t *aad, size_t aad_len, const uint8_t *ct,
                           size_t len, const uint8_t tag[16])
{
    psa_aead_operation_t op = PSA_AEAD_OPERATION_INIT;
    uint8_t t[16];
    psa_status_t s;

    (void)st;
    if (!iv_ok(iv_len)) {
        sc_mem_wipe(pt, len);
        return SC_ERR_UNSUPPORTED;
    }
    memcpy(t, tag, 16); /* the tag is read after pt is written */
    s = gcm_begin(&op, 1, key, iv, iv_len, aad, aad_len);
    if (s == PSA_SUCCESS) {
        s = gcm_update(&op, pt, ct, len);
    }
    if (s == PSA_SUCCESS) {
        s = gcm_verify_tag(&op, t);
    }
    (void)psa_aead_abort(&op);
    sc_mem_wipe(&op, sizeof op);
    if (s != PSA_SUCCESS) {
        sc_mem_wipe(pt, len); /* never release unauthenticated plaintext */
    }
    return from_psa(s);
}

static sc_status aead_start(sc_bstate *st, int decrypt, const uint8_t key[32], const uint8_t *iv,
                            size_t iv_len, const uint8_t *aad, size_t aad_len)
{
    aead_state *a = (aead_state *)(void *)st;
    psa_status_t s;

    aead_stream_reset(a);
    if (!iv_ok(iv_len)) {
        return SC_ERR_UNSUPPORTED;
    }
    s = gcm_begin(&a->stream, decrypt != 0, key, iv, iv_len, aad, aad_len);
    if (s != PSA_SUCCESS) {
        aead_stream_reset(a);
        return from_psa(s);
    }
    a->active = 1;
    a->decrypt = decrypt != 0;
    return SC_OK;
}

static sc_status aead_update(sc_bstate *st, uint8_t *out, const uint8_t *in, size_t len)
{
    aead_state *a = (aead_state *)(void *)st;
    psa_status_t s;

    if (!a->active) {
        return SC_ERR_STATE;
    }
    s = gcm_update(&a->stream, out, in, len);
    if (s != PSA_SUCCESS) {
        sc_mem_wipe(out, len);
        aead_stream_reset(a);
        return from_psa(s);
    }
    return SC_OK;
}

static sc_status aead_final(sc_bstate *st, int decrypt, uint8_t tag[16])
{
    aead_state *a = (aead_state *)(void *)st;
    psa_status_t s;

    if (!a->active) {
        return SC_ERR_STATE;
    }
    if ((decrypt != 0) != a->decrypt) {
        /* writing the tag of a decryption would hand out a forgery */
        aead_stream_reset(a);
        return SC_ERR_STATE;
    }
    if (decrypt) {
        s = gcm_verify_tag(&a->stream, tag);
    } else {
        s = gcm_finish_tag(&a->stream, tag);
        if (s != PSA_SUCCESS) {
            sc_mem_wipe(tag, 16);
        }
    }
    aead_stream_reset(a);
    return from_psa(s);
}

static void aead_abort(sc_bstate *st)
{
    aead_stream_reset((aead_state *)(void *)st);
}

/* ---- rng ------------------------------------------------------------------------------- */

/* PSA's process-wide generator (CTR_DRBG over mbed TLS's entropy sources). Since 3.6.6 it
 * reseeds by itself in a forked child (it records the process id at every seed). */
static sc_status rng_fill(sc_bstate *st, uint8_t *out, size_t len)
{
    (void)st;
    return psa_generate_random(out, len) == PSA_SUCCESS ? SC_OK : SC_ERR_RNG;
}

/* ---- table ----------------------------------------------------------------------------- */

static const char *psa_lib_version(void)
{
    return MBEDTLS_VERSION_STRING_FULL " (PSA Crypto API)"; /* "Mbed TLS 3.6.6 (PSA ...)" */
}

#define PSA_LIB "psa-crypto (mbed TLS)"

static const sc_backend_hash psa_hash = {
    .size = sizeof(sc_backend_hash),
    .lib = PSA_LIB,
    .state_size = sizeof(psa_hash_operation_t),
    .setup = psa_setup,
    .teardown = psa_teardown,
    .sha256 = hash_sha256,
    .init = hash_init,
    .update = hash_update,
    .final = hash_final,
};

static const sc_backend_mac psa_mac = {
    .size = sizeof(sc_backend_mac),
    .lib = PSA_LIB,
    .setup = psa_setup,
    .teardown = psa_teardown,
    .hmac_sha256 = mac_hmac_sha256,
};

static const sc_backend_stream psa_stream = {
    .size = sizeof(sc_backend_stream),
    .lib = PSA_LIB,
    .setup = psa_setup,
    .teardown = psa_teardown,
    .chacha20_xor = stream_chacha20_xor,
    .probe_counter = stream_probe_counter,
};

static const sc_backend_aead psa_aead = {
    .size = sizeof(sc_backend_aead),
    .lib = PSA_LIB,
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

static const sc_backend_rng psa_rng = {
    .size = sizeof(sc_backend_rng),
    .lib = PSA_LIB,
    .setup = psa_setup,
    .teardown = psa_teardown,
    .fill = rng_fill,
};

/* What the PSA Crypto API of mbed TLS 3.6 lacks for NIP-49 (sc_backend_has gives these
 * reasons). */
static const char *psa_why_absent(sc_group g)
{
    switch (g) {
    case SC_GROUP_SCRYPT:
        return "the PSA Crypto API of mbed TLS 3.6 has no scrypt (PBKDF2 only); NIP-49 needs it: "
               "use sodium or sodium+mbedtls";
    case SC_GROUP_XAEAD:
        return "the PSA Crypto API of mbed TLS 3.6 has no XChaCha20-Poly1305, and its ChaCha20 "
               "starts at block counter 0 only, so HChaCha20 cannot be derived from it";
    default:
        return NULL;
    }
}

const sc_backend sc_backend_psa = {
    .abi_version = SC_BACKEND_ABI_VERSION,
    .struct_size = sizeof(sc_backend),
    .name = "psa",
    .lib_version = psa_lib_version,
    .hash = &psa_hash,
    .mac = &psa_mac,
    .stream = &psa_stream,
    .aead = &psa_aead,
    .rng = &psa_rng,
    .curve = &sc_curve_secp256k1,
    .xaead = NULL,
    .scrypt = NULL,
    .why_absent = psa_why_absent,
};
