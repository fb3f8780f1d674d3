/* The libsodium backend.
 *
 * libsodium needs no per-context state, so every group here but rng is stateless. The groups
 * whose libsodium code depends on sodium_init() call it from their setup (ChaCha20 picks its
 * SIMD implementation there, AES-GCM availability comes from the CPU features it detects, and
 * libsodium's random generator is opened there) and return no state; sodium_init is idempotent
 * and thread-safe. SHA-256 and HMAC-SHA256 are plain C in libsodium and need no setup. The rng
 * group keeps the kernel generator's per-context state (rng section).
 *
 * libsodium's AES-256-GCM exists only on CPUs with hardware AES, only with 12-byte IVs and only
 * one-shot. The probe reports each limit with its own reason; the "sodium+mbedtls" composite
 * takes AES-GCM from mbed TLS instead.
 *
 * Some libsodium functions abort the process (sodium_misuse) on out-of-range lengths. Every
 * such limit is checked here first, so the caller gets a status instead. randombytes_buf has
 * no error return (libsodium aborts if the kernel generator fails after sodium_init), so the
 * rng group reads the kernel itself and gets a status (rng section); randombytes_buf is left
 * for platforms without a kernel generator to call. sodium_init itself opens libsodium's
 * generator and aborts when it finds none (on Linux: getrandom denied and no /dev/urandom or
 * /dev/random to open, as in a sandbox that blocks both): each setup tries the same sources
 * first and returns SC_ERR_RNG instead (sodium_ready).
 *
 * XChaCha20-Poly1305 (the xaead group) is libsodium's crypto_aead_xchacha20poly1305_ietf, and
 * scrypt (the scrypt group) its crypto_pwhash_scryptsalsa208sha256_ll, the raw RFC 7914
 * function with N, r and p given as they are.
 *
 * Nothing here allocates per call but scrypt, whose working memory (128 * r * (N + p + 2)
 * bytes and 64 more) libsodium maps for the call and unmaps before returning (mmap, or
 * malloc where there is no anonymous mmap). The HMAC state, the AES-GCM key schedule and the
 * XChaCha20 subkey live on the stack and are wiped before returning. The rng group's state
 * (the vDSO generator's page) is set up once per context.
 */
#include <softchat/backend.h>
#include <softchat/mem.h>

#include <sodium/core.h>
#include <sodium/crypto_aead_aes256gcm.h>
#include <sodium/crypto_aead_xchacha20poly1305.h>
#include <sodium/crypto_auth_hmacsha256.h>
#include <sodium/crypto_hash_sha256.h>
#include <sodium/crypto_pwhash_scryptsalsa208sha256.h>
#include <sodium/crypto_stream_chacha20.h>
#include <sodium/randombytes.h>
#include <sodium/version.h>

#include <errno.h>
#include <limits.h>
#include <stddef.h>
#include <stdint.h>

#include "../os/random.h"
#include "../secp256k1/curve.h"
#include "groups.h"

/* libsodium lengths are unsigned long long; a size_t always converts without loss. */
#if SIZE_MAX > ULLONG_MAX
#error "the sodium backend assumes size_t fits in unsigned long long"
#endif

/* What the rng group draws from (see the rng section). */
#if defined(__linux__)
#define RNG_LIB                                                                                    \
    "getrandom (Linux kernel, through its vDSO from 6.11; libsodium randombytes where the kernel " \
    "lacks it)"
#else
#define RNG_LIB "libsodium"
#endif

typedef char
    sodium_sizes_match[(crypto_hash_sha256_BYTES == SC_SHA256_BYTES &&
                        crypto_auth_hmacsha256_BYTES == SC_HMAC_SHA256_BYTES &&
                        crypto_stream_chacha20_ietf_KEYBYTES == 32 &&
                        crypto_stream_chacha20_ietf_NONCEBYTES == 12 &&
                        crypto_aead_aes256gcm_KEYBYTES == SC_AES256GCM_KEY_BYTES &&
                        crypto_aead_aes256gcm_ABYTES == SC_AES256GCM_TAG_BYTES &&
                        crypto_aead_xchacha20poly1305_ietf_KEYBYTES == SC_XCHACHA20_KEY_BYTES &&
                        crypto_aead_xchacha20poly1305_ietf_NPUBBYTES == SC_XCHACHA20_NONCE_BYTES &&
                        crypto_aead_xchacha20poly1305_ietf_ABYTES == SC_POLY1305_TAG_BYTES)
                           ? 1
                           : -1];

/* The SHA-256 state lives in the caller's sc_sha256_state, which must be copyable: check that
 * libsodium's state fits, needs no stricter alignment, and is exactly its three integer arrays
 * (chaining value, bit count, block buffer) with no other member, so it holds no pointer. */
#define SHA_MEMBER_SIZE(m) sizeof(((crypto_hash_sha256_state *)0)->m)
struct sodium_sha_align {
    char c;
    crypto_hash_sha256_state s;
};
struct sc_sha_align {
    char c;
    sc_sha256_state s;
};
typedef char
    sodium_sha_state_fits[(sizeof(crypto_hash_sha256_state) <= SC_SHA256_STATE_BYTES) ? 1 : -1];
typedef char sodium_sha_state_aligned
    [(offsetof(struct sodium_sha_align, s) <= offsetof(struct sc_sha_align, s)) ? 1 : -1];
typedef char sodium_sha_state_plain[(SHA_MEMBER_SIZE(state) + SHA_MEMBER_SIZE(count) +
                                         SHA_MEMBER_SIZE(buf) ==
                                     sizeof(crypto_hash_sha256_state))
                                        ? 1
                                        : -1];

/* libsodium aborts (sodium_misuse) when counter + ceil(len / 64) exceeds 2^32, the IETF
 * counter range, whatever the width of size_t (crypto_stream_chacha20_ietf_xor_ic). Within
 * that range len is also within its MESSAGEBYTES_MAX, min(SIZE_MAX, 2^38). */
#define CHACHA20_COUNTER_LIMIT ((unsigned long long)1 << 32)

/* ---- initialisation -------------------------------------------------------------------- */

/* sodium_init, unless it would abort: it opens libsodium's generator (getrandom, else
 * /dev/urandom or /dev/random) and calls sodium_misuse, an abort, when it finds none. The same
 * sources are tried first (backends/os/random.h), so a process that has none gets SC_ERR_RNG
 * from the context's setup instead. */
static sc_status sodium_ready(void)
{
    if (!sc_os_random_source()) {
        return SC_ERR_RNG;
    }
    return sodium_init() < 0 ? SC_ERR_INTERNAL : SC_OK;
}

/* Setup of the groups that rely on sodium_init. They keep no state: *out stays NULL, so the
 * context never calls the (empty) teardown. */
static sc_status sodium_setup(sc_bstate **out)
{
    *out = NULL;
    return sodium_ready();
}

static void sodium_teardown(sc_bstate *st)
{
    (void)st;
}

/* ---- hash ------------------------------------------------------------------------------ */

static sc_status hash_sha256(sc_bstate *st, uint8_t out[32], const uint8_t *in, size_t len)
{
    (void)st;
    /* libsodium wipes its internal state in crypto_hash_sha256_final */
    return crypto_hash_sha256(out, in, (unsigned long long)len) == 0 ? SC_OK : SC_ERR_INTERNAL;
}

static sc_status hash_init(sc_bstate *st, sc_sha256_state *s)
{
    (void)st;
    return crypto_hash_sha256_init((crypto_hash_sha256_state *)(void *)s) == 0 ? SC_OK
                                                                               : SC_ERR_INTERNAL;
}

static sc_status hash_update(sc_bstate *st, sc_sha256_state *s, const uint8_t *in, size_t len)
{
    (void)st;
    return crypto_hash_sha256_update((crypto_hash_sha256_state *)(void *)s, in,
                                     (unsigned long long)len) == 0
               ? SC_OK
               : SC_ERR_INTERNAL;
}

static sc_status hash_final(sc_bstate *st, sc_sha256_state *s, uint8_t out[32])
{
    (void)st;
    return crypto_hash_sha256_final((crypto_hash_sha256_state *)(void *)s, out) == 0
               ? SC_OK
               : SC_ERR_INTERNAL;
}

/* ---- mac ------------------------------------------------------------------------------- */

static sc_status mac_hmac_sha256(sc_bstate *st, uint8_t out[32], const uint8_t *key, size_t key_len,
                                 const sc_iov *parts, size_t n_parts)
{
    /* libsodium declares the key non-NULL even when its length is 0 */
    static const uint8_t empty_key[1] = {0};
    crypto_auth_hmacsha256_state h;
    size_t i;
    int rc;

    (void)st;
    rc = crypto_auth_hmacsha256_init(&h, key_len != 0 ? key : empty_key, key_len);
    for (i = 0; rc == 0 && i < n_parts; i++) {
        if (parts[i].len != 0) {
            rc = crypto_auth_hmacsha256_update(&h, parts[i].data, (unsigned long long)parts[i].len);
        }
    }
    if (rc == 0) {
        rc = crypto_auth_hmacsha256_final(&h, out);
    }
    sc_mem_wipe(&h, sizeof h); /* the key-derived inner and outer states */
    return rc == 0 ? SC_OK : SC_ERR_INTERNAL;
}

/* ---- stream ---------------------------------------------------------------------------- */

static sc_status stream_chacha20_xor(sc_bstate *st, uint8_t *out, const uint8_t *in, size_t len,
                                     const uint8_t key[32], const uint8_t nonce[12],
                                     uint32_t counter)
{
    unsigned long long end;

    (void)st;
    if (len == 0) {
        return SC_OK; /* libsodium declares the buffers non-NULL even when empty */
    }
    end = (unsigned long long)counter + (unsigned long long)(len / 64) + (len % 64 != 0);
    if (end > CHACHA20_COUNTER_LIMIT) {
        return SC_ERR_ARG; /* past the 32-bit counter (the caller's contract): libsodium aborts */
    }
    /* exact in-place (out == in) is supported: each block is read before it is written */
    return crypto_stream_chacha20_ietf_xor_ic(out, in, (unsigned long long)len, nonce, counter,
                                              key) == 0
               ? SC_OK
               : SC_ERR_INTERNAL;
}

/* ---- aead ------------------------------------------------------------------------------ */

#if defined(__x86_64__) || defined(_M_X64) || defined(__i386__) || defined(_M_IX86)
#define WHY_NO_HW_AES                                                                              \
    "libsodium AES-256-GCM needs hardware AES (AES-NI and PCLMUL); this CPU lacks them"
#else
#define WHY_NO_HW_AES                                                                              \
    "libsodium AES-256-GCM needs hardware AES (ARMv8 Crypto Extensions, libsodium >= 1.0.19); "    \
    "this CPU or this libsodium lacks it"
#endif

static sc_status aead_probe(sc_aead_mode mode, size_t iv_len, const char **why)
{
    if (mode != SC_AEAD_ONESHOT && mode != SC_AEAD_STREAM) {
        *why = "unknown AEAD mode";
        return SC_ERR_UNSUPPORTED;
    }
    /* the API limits first: they hold on every machine */
    if (mode == SC_AEAD_STREAM) {
        *why = "libsodium has no streaming AES-256-GCM (one-shot only)";
        return SC_ERR_UNSUPPORTED;
    }
    if (iv_len != crypto_aead_aes256gcm_NPUBBYTES) {
        *why = "libsodium AES-256-GCM takes 12-byte IVs only";
        return SC_ERR_UNSUPPORTED;
    }
    /* probes run without a context, so initialise here too (cheap after the first call):
     * crypto_aead_aes256gcm_is_available reads the CPU features sodium_init detects */
    if (sodium_init() < 0) {
        *why = "libsodium failed to initialise (sodium_init)";
        return SC_ERR_UNSUPPORTED;
    }
    if (!crypto_aead_aes256gcm_is_available()) {
        *why = WHY_NO_HW_AES;
        return SC_ERR_UNSUPPORTED;
    }
    return SC_OK;
}

/* Checks shared by seal and open. Availability is checked on every call because calling the
 * AES-NI code on a CPU without it would fault. */
static sc_status gcm_usable(size_t iv_len, size_t len)
{
    if (iv_len != crypto_aead_aes256gcm_NPUBBYTES || !crypto_aead_aes256gcm_is_available()) {
        return SC_ERR_UNSUPPORTED;
    }
    if ((unsigned long long)len > crypto_aead_aes256gcm_MESSAGEBYTES_MAX) {
        return SC_ERR_TOO_LARGE; /* the GCM message limit; libsodium would abort */
    }
    return SC_OK;
}

/* The key schedule is expanded into this function's state (beforenm) rather than inside
 * libsodium's one-shot call, so it can be wiped here on every path. */
static sc_status aead_seal(sc_bstate *st, uint8_t *ct, uint8_t tag[16], const uint8_t key[32],
                           const uint8_t *iv, size_t iv_len, const uint8_t *aad, size_t aad_len,
                           const uint8_t *pt, size_t len)
{
    static const uint8_t no_input[1] = {0};
    crypto_aead_aes256gcm_state ks;
    uint8_t no_output[1];
    sc_status s;
    int rc;

    (void)st;
    s = gcm_usable(iv_len, len);
    if (s != SC_OK) {
        return s;
    }
    if (len == 0) {
        ct = no_output; /* libsodium declares the buffers non-NULL even when empty */
        pt = no_input;
    }
    rc = crypto_aead_aes256gcm_beforenm(&ks, key);
    if (rc == 0) {
        rc = crypto_aead_aes256gcm_encrypt_detached_afternm(
            ct, tag, NULL, pt, (unsigned long long)len, aad, (unsigned long long)aad_len, NULL, iv,
            &ks);
    }
    sc_mem_wipe(&ks, sizeof ks);
    return rc == 0 ? SC_OK : SC_ERR_INTERNAL;
}

static sc_status aead_open(sc_bstate *st, uint8_t *pt, const uint8_t key[32], const uint8_t *iv,
                           size_t iv_len, const uint8_t *aad, size_t aad_len, const uint8_t *ct,
                           size_t len, const uint8_t tag[16])
{
    static const uint8_t no_input[1] = {0};
    crypto_aead_aes256gcm_state ks;
    uint8_t no_output[1];
    sc_status s;

    (void)st;
    s = gcm_usable(iv_len, len);
    if (s != SC_OK) {
        sc_mem_wipe(pt, len);
        return s;
    }
    if (len == 0) {
        pt = no_output;
        ct = no_input;
    }
    if (crypto_aead_aes256gcm_beforenm(&ks, key) != 0) {
        s = SC_ERR_INTERNAL;
    } else if (crypto_aead_aes256gcm_decrypt_detached_afternm(pt, NULL, ct, (unsigned long long)len,
                                                              tag, aad, (unsigned long long)aad_len,
                                                              iv, &ks) != 0) {
        /* usability was checked above, so a failure here is the tag (compared in constant
         * time by libsodium) */
        s = SC_ERR_AUTH;
    }
    sc_mem_wipe(&ks, sizeof ks);
    if (s != SC_OK) {
        sc_mem_wipe(pt, len); /* never release unauthenticated plaintext */
    }
    return s;
}

/* libsodium has no incremental AES-GCM: the probe reports SC_AEAD_STREAM unsupported. */
static sc_status aead_start(sc_bstate *st, int decrypt, const uint8_t key[32], const uint8_t *iv,
                            size_t iv_len, const uint8_t *aad, size_t aad_len)
{
    (void)st;
    (void)decrypt;
    (void)key;
    (void)iv;
    (void)iv_len;
    (void)aad;
    (void)aad_len;
    return SC_ERR_UNSUPPORTED;
}

static sc_status aead_update(sc_bstate *st, uint8_t *out, const uint8_t *in, size_t len)
{
    (void)st;
    (void)out;
    (void)in;
    (void)len;
    return SC_ERR_UNSUPPORTED;
}

static sc_status aead_final(sc_bstate *st, int decrypt, uint8_t tag[16])
{
    (void)st;
    (void)decrypt;
    (void)tag;
    return SC_ERR_UNSUPPORTED;
}

static void aead_abort(sc_bstate *st)
{
    (void)st; /* no operation can have started, so there is no key schedule to wipe */
}

/* ---- xaead ---------------------------------------------------------------------------- */

/* libsodium aborts (sodium_misuse) on a message over its limit: refused here first (core
 * already caps len at the RFC 8439 limit, which is the same on 64-bit targets). */
static int xaead_too_large(size_t len)
{
    return (unsigned long long)len > crypto_aead_xchacha20poly1305_ietf_MESSAGEBYTES_MAX;
}

/* libsodium derives the HChaCha20 subkey on its stack and wipes it, as it does the Poly1305
 * state; exact in-place (ct == pt) is supported: each block is read before it is written. */
static sc_status xaead_seal(sc_bstate *st, uint8_t *ct, uint8_t tag[16], const uint8_t key[32],
                            const uint8_t nonce[24], const uint8_t *aad, size_t aad_len,
                            const uint8_t *pt, size_t len)
{
    static const uint8_t no_input[1] = {0};
    uint8_t no_output[1];

    (void)st;
    if (xaead_too_large(len)) {
        return SC_ERR_TOO_LARGE;
    }
    if (len == 0) {
        ct = no_output; /* libsodium declares the buffers non-NULL even when empty */
        pt = no_input;
    }
    return crypto_aead_xchacha20poly1305_ietf_encrypt_detached(
               ct, tag, NULL, pt, (unsigned long long)len, aad, (unsigned long long)aad_len, NULL,
               nonce, key) == 0
               ? SC_OK
               : SC_ERR_INTERNAL;
}

static sc_status xaead_open(sc_bstate *st, uint8_t *pt, const uint8_t key[32],
                            const uint8_t nonce[24], const uint8_t *aad, size_t aad_len,
                            const uint8_t *ct, size_t len, const uint8_t tag[16])
{
    static const uint8_t no_input[1] = {0};
    uint8_t no_output[1];
    uint8_t *out = pt;

    (void)st;
    if (xaead_too_large(len)) {
        sc_mem_wipe(pt, len);
        return SC_ERR_TOO_LARGE;
    }
    if (len == 0) {
        out = no_output;
        ct = no_input;
    }
    /* the tag is checked (crypto_verify_16, constant time) before anything is decrypted;
     * on a mismatch libsodium zeroes the output */
    if (crypto_aead_xchacha20poly1305_ietf_decrypt_detached(out, NULL, ct, (unsigned long long)len,
                                                            tag, aad, (unsigned long long)aad_len,
                                                            nonce, key) != 0) {
        sc_mem_wipe(pt, len);
        return SC_ERR_AUTH;
    }
    return SC_OK;
}

/* ---- scrypt ---------------------------------------------------------------------------- */

/* crypto_pwhash_scryptsalsa208sha256_ll is RFC 7914's scrypt over raw N, r, p (libsodium's
 * scryptsalsa208sha256 is scrypt: Salsa20/8 and SHA-256). Core has checked the parameters,
 * within libsodium's own limits (r * p < 2^30, buflen <= (2^32 - 1) * 32), so a failure is
 * the allocation (ENOMEM) or, from an implementation out of step, a refusal. */
static sc_status scrypt_derive(sc_bstate *st, uint8_t *out, size_t out_len, const uint8_t *password,
                               size_t password_len, const uint8_t *salt, size_t salt_len,
                               unsigned log_n, uint32_t r, uint32_t p)
{
    static const uint8_t empty[1] = {0};

    sc_status s = sodium_ready(); /* idempotent; picks the SIMD Salsa20/8 */

    (void)st;
    if (s != SC_OK) {
        return s;
    }
    errno = 0;
    if (crypto_pwhash_scryptsalsa208sha256_ll(password_len != 0 ? password : empty, password_len,
                                              salt_len != 0 ? salt : empty, salt_len,
                                              (uint64_t)1 << log_n, r, p, out, out_len) != 0) {
        return errno == ENOMEM ? SC_ERR_NOMEM : SC_ERR_INTERNAL;
    }
    return SC_OK;
}

/* ---- rng ------------------------------------------------------------------------------- */

/* The group draws from the kernel's generator (backends/os/random.h), as the openssl backend's
 * does: on Linux getrandom(2), through the vDSO where the kernel exports it (Linux 6.11+), else
 * the system call. That is the source randombytes_buf reads too (libsodium's default generator
 * keeps no user-space pool), but a failure comes back as SC_ERR_RNG here, where randombytes_buf
 * has no error return and aborts the process (sodium_misuse). The group's state is the vDSO's
 * per-context state (one page mapped at setup, wiped and unmapped at teardown), so a draw never
 * allocates, and a forked child reseeds (the kernel zeroes that page in it). Where there is no
 * kernel generator (not Linux: Apple platforms, WebAssembly; a kernel without getrandom:
 * ENOSYS; a seccomp policy denying it: EPERM), randombytes_buf, opened by sodium_init at setup
 * (on /dev/urandom when getrandom is denied). */
static void rng_teardown(sc_bstate *st)
{
    sc_os_random_free((sc_os_random *)(void *)st);
}

static sc_status rng_setup(sc_bstate **out)
{
    sc_os_random *r = NULL;
    sc_status st = sodium_ready();

    if (st == SC_OK) {
        st = sc_os_random_new(&r);
    }
    *out = (sc_bstate *)(void *)r;
    return st;
}

static sc_status rng_fill(sc_bstate *st, uint8_t *out, size_t len)
{
    sc_status s = sc_os_random_fill((sc_os_random *)(void *)st, out, len);

    if (s != SC_ERR_UNSUPPORTED) {
        return s;
    }
    if (len != 0) {
        randombytes_buf(out, len); /* no kernel generator: libsodium's (see above) */
    }
    return SC_OK;
}

/* ---- table ----------------------------------------------------------------------------- */

/* The libsodium headers this backend was compiled against; built at compile time because a
 * string assembled at run time would need a mutable buffer. */
static const char *sodium_lib_version(void)
{
    return "libsodium " SODIUM_VERSION_STRING;
}

const sc_backend_hash sc_sodium_hash = {
    .size = sizeof(sc_backend_hash),
    .lib = "libsodium",
    .state_size = sizeof(crypto_hash_sha256_state),
    .setup = NULL,
    .teardown = NULL,
    .sha256 = hash_sha256,
    .init = hash_init,
    .update = hash_update,
    .final = hash_final,
};

const sc_backend_mac sc_sodium_mac = {
    .size = sizeof(sc_backend_mac),
    .lib = "libsodium",
    .setup = NULL,
    .teardown = NULL,
    .hmac_sha256 = mac_hmac_sha256,
};

const sc_backend_stream sc_sodium_stream = {
    .size = sizeof(sc_backend_stream),
    .lib = "libsodium",
    .setup = sodium_setup,
    .teardown = sodium_teardown,
    .chacha20_xor = stream_chacha20_xor,
};

const sc_backend_aead sc_sodium_aead = {
    .size = sizeof(sc_backend_aead),
    .lib = "libsodium",
    .setup = sodium_setup,
    .teardown = sodium_teardown,
    .probe = aead_probe,
    .seal = aead_seal,
    .open = aead_open,
    .start = aead_start,
    .update = aead_update,
    .final = aead_final,
    .abort = aead_abort,
};

const sc_backend_xaead sc_sodium_xaead = {
    .size = sizeof(sc_backend_xaead),
    .lib = "libsodium",
    .setup = sodium_setup,
    .teardown = sodium_teardown,
    .seal = xaead_seal,
    .open = xaead_open,
};

const sc_backend_scrypt sc_sodium_scrypt = {
    .size = sizeof(sc_backend_scrypt),
    .lib = "libsodium",
    .setup = NULL,
    .teardown = NULL,
    .scrypt = scrypt_derive,
};

const sc_backend_rng sc_sodium_rng = {
    .size = sizeof(sc_backend_rng),
    .lib = RNG_LIB,
    .setup = rng_setup,
    .teardown = rng_teardown,
    .fill = rng_fill,
};

const sc_backend sc_backend_sodium = {
    .abi_version = SC_BACKEND_ABI_VERSION,
    .struct_size = sizeof(sc_backend),
    .name = "sodium",
    .lib_version = sodium_lib_version,
    .hash = &sc_sodium_hash,
    .mac = &sc_sodium_mac,
    .stream = &sc_sodium_stream,
    .aead = &sc_sodium_aead,
    .rng = &sc_sodium_rng,
    .curve = &sc_curve_secp256k1,
    .xaead = &sc_sodium_xaead,
    .scrypt = &sc_sodium_scrypt,
    .why_absent = NULL,
};
