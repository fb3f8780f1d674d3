/* libsoftchat: the crypto backend table and the runtime registry.
 *
 * Protocol code in core/ never calls a crypto library. It calls the primitives of the backend
 * bound to its sc_ctx, through one versioned `sc_backend` table per backend. A table has a
 * header (ABI version, struct size, name, library version) and one pointer per primitive
 * group. Each group is a const sub-table whose functions are implemented as a whole ("a
 * family"): a group is present (non-NULL) or absent (NULL), never half-wired.
 *
 * Group state. A group may need per-context state (a preallocated OpenSSL EVP context, an
 * mbedTLS DRBG, the libsecp256k1 context). Its `setup` allocates that state once, when a
 * context is created; `teardown` wipes and frees it. A NULL setup means the group is
 * stateless and receives st == NULL. Every other function receives the group's state first.
 * No group function may allocate; state is set up once per context, never per call.
 *
 * Status. Group functions return SC_OK or a negative sc_status. Library error codes never
 * cross this boundary: a backend translates them (typically to SC_ERR_INTERNAL,
 * SC_ERR_INVALID_KEY, SC_ERR_RNG or SC_ERR_UNSUPPORTED).
 *
 * Versioning. SC_BACKEND_ABI_MAJOR changes when a signature changes or a field moves;
 * SC_BACKEND_ABI_MINOR when a group, or a function at the end of a group, is appended. A
 * context accepts a table whose major matches. The table ABI is versioned apart from the
 * library API. Sizes say how much of each struct the backend was compiled with:
 *  - a group pointer beyond the table's struct_size counts as NULL (the group is absent);
 *  - every group starts with `size`, sizeof the group as the backend was compiled, and a
 *    field beyond it counts as absent (NULL). A group must reach `lib` and every function
 *    marked required below; a required function that is absent (by size or NULL) makes the
 *    table invalid: sc_backend_validate and sc_ctx_init return SC_ERR_BACKEND. A function
 *    appended by a minor is optional, and its absence has a documented meaning;
 *  - a table or group larger than this header's struct (compiled against a newer minor) is
 *    accepted: core reads only the fields it knows.
 *
 * Absent groups. A backend whose library lacks a primitive leaves its group NULL and may say
 * why through the table's optional why_absent (ABI 2.2): sc_backend_has then gives that
 * reason, e.g. "mbed TLS has no scrypt", rather than a generic one.
 *
 * Thread safety. Group state belongs to one context; a context is used by one thread at a
 * time. Stateless groups and the tables themselves are immutable and shareable.
 */
#ifndef SOFTCHAT_BACKEND_H
#define SOFTCHAT_BACKEND_H

#include "common.h"
#include "status.h"

SC_BEGIN_DECLS

#define SC_BACKEND_ABI_MAJOR 2 /* 2: every group starts with its size */
#define SC_BACKEND_ABI_MINOR 2 /* 2.1: stream.probe_counter; 2.2: xaead, scrypt, why_absent */
#define SC_BACKEND_ABI_VERSION ((SC_BACKEND_ABI_MAJOR << 16) | SC_BACKEND_ABI_MINOR)

#define SC_SHA256_BYTES 32
#define SC_HMAC_SHA256_BYTES 32
#define SC_CHACHA20_KEY_BYTES 32
#define SC_CHACHA20_NONCE_BYTES 12
#define SC_AES256GCM_KEY_BYTES 32
#define SC_AES256GCM_TAG_BYTES 16
#define SC_SECKEY_BYTES 32
#define SC_PUBKEY_BYTES 32
#define SC_SIG_BYTES 64
#define SC_SIGN_MSG_BYTES 32   /* the message a BIP-340 signature covers here: a NIP-01 event id */
#define SC_AUX_RAND_BYTES 32   /* BIP-340 auxiliary randomness */
#define SC_CURVE_SEED_BYTES 32 /* randomisation (blinding) seed of a curve context */
#define SC_ECDH_X_BYTES 32     /* the shared x coordinate NIP-44 hashes */
#define SC_XCHACHA20_KEY_BYTES 32
#define SC_XCHACHA20_NONCE_BYTES 24
#define SC_POLY1305_TAG_BYTES 16

/** Opaque per-context state of one group. Each backend converts it to its own type. */
typedef struct sc_bstate sc_bstate;

/** Incremental SHA-256 state in caller memory: fixed size, aligned, pointer-free and
 *  copyable. A backend declares how many bytes it uses (hash.state_size); a table whose
 *  state does not fit is refused at context creation. Wipe it after use (sc_mem_wipe). */
#define SC_SHA256_STATE_BYTES 256
typedef union sc_sha256_state {
    uint8_t bytes[SC_SHA256_STATE_BYTES];
    uint64_t align_u64;
    double align_double;
    void *align_ptr;
} sc_sha256_state;

/** A libsecp256k1-style keypair (secret and public key) in caller memory. Opaque; holds the
 *  secret key, so wipe it (sc_mem_wipe) when done. */
#define SC_CURVE_KEYPAIR_BYTES 96
typedef union sc_curve_keypair {
    uint8_t bytes[SC_CURVE_KEYPAIR_BYTES];
    uint64_t align_u64;
} sc_curve_keypair;

/** One part of a multi-part message (scatter list): `len` bytes at `data`. */
typedef struct sc_iov {
    const uint8_t *data;
    size_t len;
} sc_iov;

/** Primitive groups, in table order. */
typedef enum sc_group {
    SC_GROUP_HASH = 0,
    SC_GROUP_MAC = 1,
    SC_GROUP_STREAM = 2,
    SC_GROUP_AEAD = 3,
    SC_GROUP_RNG = 4,
    SC_GROUP_CURVE = 5,
    SC_GROUP_XAEAD = 6, /* ABI 2.2 */
    SC_GROUP_SCRYPT = 7 /* ABI 2.2 */
} sc_group;
#define SC_GROUP_COUNT 8

/* Every group sub-table starts with these two fields:
 *   uint32_t size;    sizeof the group's struct as the backend was compiled
 *   const char *lib;  the library that implements the group, e.g. "openssl"
 * then optional setup/teardown (both or neither; NULL = stateless; the scrypt group must be
 * stateless), then its functions, all required unless marked optional. */

/** SHA-256 (FIPS 180-4). Stateless groups leave setup/teardown NULL. */
typedef struct sc_backend_hash {
    uint32_t size;     /* sizeof(sc_backend_hash) as the backend was compiled */
    const char *lib;   /* the library that implements this group, e.g. "openssl" */
    size_t state_size; /* bytes of sc_sha256_state used; <= SC_SHA256_STATE_BYTES */
    sc_status (*setup)(sc_bstate **out);
    void (*teardown)(sc_bstate *st);
    /* One-shot digest of in[0..len). */
    sc_status (*sha256)(sc_bstate *st, uint8_t out[SC_SHA256_BYTES], const uint8_t *in, size_t len);
    sc_status (*init)(sc_bstate *st, sc_sha256_state *s);
    sc_status (*update)(sc_bstate *st, sc_sha256_state *s, const uint8_t *in, size_t len);
    /* Writes the digest. The caller wipes s afterwards. */
    sc_status (*final)(sc_bstate *st, sc_sha256_state *s, uint8_t out[SC_SHA256_BYTES]);
} sc_backend_hash;

/** HMAC-SHA256 (RFC 2104) over a scatter list, so nonce||ciphertext is MACed without a copy.
 *  Any key length, including 0. */
typedef struct sc_backend_mac {
    uint32_t size; /* sizeof(sc_backend_mac) as the backend was compiled */
    const char *lib;
    sc_status (*setup)(sc_bstate **out);
    void (*teardown)(sc_bstate *st);
    sc_status (*hmac_sha256)(sc_bstate *st, uint8_t out[SC_HMAC_SHA256_BYTES], const uint8_t *key,
                             size_t key_len, const sc_iov *parts, size_t n_parts);
} sc_backend_mac;

/** ChaCha20 (RFC 8439, IETF: 32-byte key, 12-byte nonce, 32-bit block counter). XORs the
 *  keystream starting at block `counter` into in[0..len) and writes out. out == in (exact
 *  in-place) is allowed. The caller guarantees the counter does not wrap
 *  (counter + ceil(len / 64) <= 2^32).
 *
 *  probe_counter (optional, ABI 2.1): SC_OK if chacha20_xor starts at any block counter;
 *  otherwise SC_ERR_UNSUPPORTED with *why set to a static, precise reason, and chacha20_xor
 *  then returns SC_ERR_UNSUPPORTED for every counter but 0 (NIP-44 needs counter 0 only).
 *  Absent (NULL, or beyond `size`): any counter. */
typedef struct sc_backend_stream {
    uint32_t size; /* sizeof(sc_backend_stream) as the backend was compiled */
    const char *lib;
    sc_status (*setup)(sc_bstate **out);
    void (*teardown)(sc_bstate *st);
    sc_status (*chacha20_xor)(sc_bstate *st, uint8_t *out, const uint8_t *in, size_t len,
                              const uint8_t key[SC_CHACHA20_KEY_BYTES],
                              const uint8_t nonce[SC_CHACHA20_NONCE_BYTES], uint32_t counter);
    sc_status (*probe_counter)(const char **why);
} sc_backend_stream;

/** AES-256-GCM modes, for sc_backend_aead.probe. */
typedef enum sc_aead_mode {
    SC_AEAD_ONESHOT = 1, /* seal/open of a whole message */
    SC_AEAD_STREAM = 2   /* start/update/final over a message of any size */
} sc_aead_mode;

/** AES-256-GCM (NIST SP 800-38D) with a 16-byte tag. IVs of 12 bytes, and of 16 bytes (J0
 *  derived by GHASH) where the probe says so. The tag is always checked in constant time.
 *
 *  probe(mode, iv_len, &why): SC_OK if this group performs `mode` with `iv_len`-byte IVs on
 *  this machine; otherwise SC_ERR_UNSUPPORTED with *why set to a static, precise reason.
 *  Functions called for an unsupported mode or IV length return SC_ERR_UNSUPPORTED.
 *
 *  Streaming: start, any number of update calls, then final. Every update but the last has
 *  a length that is a multiple of 16; update writes exactly len bytes to out (out == in
 *  allowed). final with decrypt = 0 writes the tag; with decrypt = 1 it compares `tag` in
 *  constant time and returns SC_ERR_AUTH on mismatch. The plaintext produced by decrypting
 *  updates is unauthenticated until final returns SC_OK: core never releases it earlier.
 *  abort wipes the key schedule of a started operation; final does the same.
 *  One streaming operation per context at a time.
 *
 *  One-shot: seal writes ct (len bytes) and the tag. open writes pt (len bytes) and checks
 *  the tag; on SC_ERR_AUTH or any other failure it zeroes pt before returning. out/in may be
 *  the same buffer (exact in-place) for both. */
typedef struct sc_backend_aead {
    uint32_t size; /* sizeof(sc_backend_aead) as the backend was compiled */
    const char *lib;
    sc_status (*setup)(sc_bstate **out);
    void (*teardown)(sc_bstate *st);
    sc_status (*probe)(sc_aead_mode mode, size_t iv_len, const char **why);
    sc_status (*seal)(sc_bstate *st, uint8_t *ct, uint8_t tag[SC_AES256GCM_TAG_BYTES],
                      const uint8_t key[SC_AES256GCM_KEY_BYTES], const uint8_t *iv, size_t iv_len,
                      const uint8_t *aad, size_t aad_len, const uint8_t *pt, size_t len);
    sc_status (*open)(sc_bstate *st, uint8_t *pt, const uint8_t key[SC_AES256GCM_KEY_BYTES],
                      const uint8_t *iv, size_t iv_len, const uint8_t *aad, size_t aad_len,
                      const uint8_t *ct, size_t len, const uint8_t tag[SC_AES256GCM_TAG_BYTES]);
    sc_status (*start)(sc_bstate *st, int decrypt, const uint8_t key[SC_AES256GCM_KEY_BYTES],
                       const uint8_t *iv, size_t iv_len, const uint8_t *aad, size_t aad_len);
    sc_status (*update)(sc_bstate *st, uint8_t *out, const uint8_t *in, size_t len);
    sc_status (*final)(sc_bstate *st, int decrypt, uint8_t tag[SC_AES256GCM_TAG_BYTES]);
    void (*abort)(sc_bstate *st);
} sc_backend_aead;

/** A cryptographically secure random generator. fill writes len random bytes or fails with
 *  SC_ERR_RNG (and then the output must not be used). Safe across fork(). */
typedef struct sc_backend_rng {
    uint32_t size; /* sizeof(sc_backend_rng) as the backend was compiled */
    const char *lib;
    sc_status (*setup)(sc_bstate **out);
    void (*teardown)(sc_bstate *st);
    sc_status (*fill)(sc_bstate *st, uint8_t *out, size_t len);
} sc_backend_rng;

/** The secp256k1 curve: BIP-340 x-only keys and Schnorr signatures, and NIP-44 ECDH.
 *  setup receives 32 bytes from the context's RNG to randomise (blind) the curve context.
 *  All secret-dependent operations are constant-time with respect to the secret.
 *  keypair: SC_ERR_INVALID_KEY if sec is 0 or >= n; writes kp and the x-only pub.
 *  sign: BIP-340 with the given 32 bytes of aux randomness; any message length.
 *  verify: SC_OK or SC_ERR_INVALID_SIG (also for a public key that is not on the curve).
 *  ecdh_x: the unhashed 32-byte x coordinate of sec * lift_x(pub); SC_ERR_INVALID_KEY if sec
 *  is out of range or pub does not lift to a curve point. */
typedef struct sc_backend_curve {
    uint32_t size; /* sizeof(sc_backend_curve) as the backend was compiled */
    const char *lib;
    sc_status (*setup)(sc_bstate **out, const uint8_t seed[32]);
    void (*teardown)(sc_bstate *st);
    sc_status (*keypair)(sc_bstate *st, sc_curve_keypair *kp, uint8_t pub[SC_PUBKEY_BYTES],
                         const uint8_t sec[SC_SECKEY_BYTES]);
    sc_status (*sign)(sc_bstate *st, uint8_t sig[SC_SIG_BYTES], const sc_curve_keypair *kp,
                      const uint8_t *msg, size_t msg_len, const uint8_t aux[32]);
    sc_status (*verify)(sc_bstate *st, const uint8_t sig[SC_SIG_BYTES], const uint8_t *msg,
                        size_t msg_len, const uint8_t pub[SC_PUBKEY_BYTES]);
    sc_status (*ecdh_x)(sc_bstate *st, uint8_t x[32], const uint8_t sec[SC_SECKEY_BYTES],
                        const uint8_t pub[SC_PUBKEY_BYTES]);
} sc_backend_curve;

/** XChaCha20-Poly1305 (draft-irtf-cfrg-xchacha-03 section 2: the HChaCha20 subkey of key and
 *  nonce[0..16), then the RFC 8439 AEAD under it with the 12-byte nonce 0^4 || nonce[16..24)),
 *  with a detached 16-byte tag. Core checks every argument first (lengths within
 *  64 * (2^32 - 1) bytes, no partial overlap), so the functions get well-formed calls only.
 *  seal writes ct (len bytes) and the tag. open checks the tag in constant time before it
 *  releases pt (len bytes); on SC_ERR_AUTH or any other failure it zeroes pt. out and in may
 *  be the same buffer (exact in-place) for both. No key material (the key, the subkey, the
 *  Poly1305 key) stays in the group's state when a call returns. */
typedef struct sc_backend_xaead {
    uint32_t size; /* sizeof(sc_backend_xaead) as the backend was compiled */
    const char *lib;
    sc_status (*setup)(sc_bstate **out);
    void (*teardown)(sc_bstate *st);
    sc_status (*seal)(sc_bstate *st, uint8_t *ct, uint8_t tag[SC_POLY1305_TAG_BYTES],
                      const uint8_t key[SC_XCHACHA20_KEY_BYTES],
                      const uint8_t nonce[SC_XCHACHA20_NONCE_BYTES], const uint8_t *aad,
                      size_t aad_len, const uint8_t *pt, size_t len);
    sc_status (*open)(sc_bstate *st, uint8_t *pt, const uint8_t key[SC_XCHACHA20_KEY_BYTES],
                      const uint8_t nonce[SC_XCHACHA20_NONCE_BYTES], const uint8_t *aad,
                      size_t aad_len, const uint8_t *ct, size_t len,
                      const uint8_t tag[SC_POLY1305_TAG_BYTES]);
} sc_backend_xaead;

/** scrypt (RFC 7914) with N = 2^log_n: out_len bytes of PBKDF2-HMAC-SHA256 output over
 *  password and salt, after ROMix with block size r and parallelism p. Core checks the
 *  parameters first (1 <= log_n, r and p >= 1, r * p < 2^30, 1 <= out_len <=
 *  (2^32 - 1) * 32, working memory within SC_SCRYPT_MEMORY_MAX and size_t: see
 *  sc_crypto_scrypt_memory in crypto.h).
 *  The group is stateless (setup and teardown NULL; a table with either is invalid): its
 *  working memory, about 128 * r * (N + p + 2) bytes, is allocated and freed by the library
 *  inside each call. That is the one per-call allocation this table allows. scrypt returns
 *  SC_ERR_NOMEM when the library cannot allocate it, and wipes nothing but what it owns: the
 *  caller wipes out on failure. */
typedef struct sc_backend_scrypt {
    uint32_t size; /* sizeof(sc_backend_scrypt) as the backend was compiled */
    const char *lib;
    sc_status (*setup)(sc_bstate **out); /* must be NULL */
    void (*teardown)(sc_bstate *st);     /* must be NULL */
    sc_status (*scrypt)(sc_bstate *st, uint8_t *out, size_t out_len, const uint8_t *password,
                        size_t password_len, const uint8_t *salt, size_t salt_len, unsigned log_n,
                        uint32_t r, uint32_t p);
} sc_backend_scrypt;

/** A backend: the header, then one pointer per group (NULL = the group is not provided). */
typedef struct sc_backend {
    uint32_t abi_version;             /* SC_BACKEND_ABI_VERSION as the backend was compiled */
    uint32_t struct_size;             /* sizeof(sc_backend) as the backend was compiled */
    const char *name;                 /* registry key: "openssl", "mbedtls", "sodium", ... */
    const char *(*lib_version)(void); /* e.g. "OpenSSL 3.0.19 27 Jan 2026" */
    const sc_backend_hash *hash;
    const sc_backend_mac *mac;
    const sc_backend_stream *stream;
    const sc_backend_aead *aead;
    const sc_backend_rng *rng;
    const sc_backend_curve *curve;
    /* ABI 2.2: */
    const sc_backend_xaead *xaead;
    const sc_backend_scrypt *scrypt;
    /* Optional: why group g is absent from this table (a static string), or NULL for the
     * generic reason. Called only for a group whose pointer is NULL. */
    const char *(*why_absent)(sc_group g);
} sc_backend;

/** Capabilities, as computed from the table and its probes (never a separate bitmask). */
typedef enum sc_cap {
    SC_CAP_SHA256 = 0,
    SC_CAP_HMAC_SHA256 = 1,
    SC_CAP_CHACHA20 = 2,
    SC_CAP_AES256GCM = 3,        /* one-shot AES-256-GCM with 12-byte IVs */
    SC_CAP_AES256GCM_IV16 = 4,   /* one-shot AES-256-GCM with 16-byte IVs */
    SC_CAP_AES256GCM_STREAM = 5, /* streaming AES-256-GCM with 12- and 16-byte IVs */
    SC_CAP_RNG = 6,
    SC_CAP_SECP256K1 = 7,
    SC_CAP_CHACHA20_COUNTER = 8,  /* ChaCha20 from any block counter (without it: counter 0) */
    SC_CAP_XCHACHA20POLY1305 = 9, /* XChaCha20-Poly1305 (NIP-49) */
    SC_CAP_SCRYPT = 10            /* scrypt (NIP-49) */
} sc_cap;
#define SC_CAP_COUNT 11

/** Number of backends compiled into this build.
 *  Returns: the count (>= 1). */
SC_API size_t sc_backend_count(void);

/** The i-th compiled backend, in configured order (index 0 is the default).
 *  Returns: the table, or NULL if i >= sc_backend_count(). */
SC_API const sc_backend *sc_backend_at(size_t i);

/** The compile-time default backend (the first of SOFTCHAT_BACKENDS).
 *  Returns: the table; never NULL. */
SC_API const sc_backend *sc_backend_default(void);

/** The compiled backend named `name` (NUL-terminated, exact match, e.g. "sodium+mbedtls").
 *  Returns: the table, or NULL if no such backend was compiled in (or name is NULL). */
SC_API const sc_backend *sc_backend_find(const char *name);

/** Whether backend `b` provides capability `cap` on this machine.
 *  Returns: SC_OK; SC_ERR_UNSUPPORTED (*why, when why is non-NULL, is set to a static,
 *           precise reason); SC_ERR_ARG (b NULL, cap out of range).
 *  Out: *why (why may be NULL). In: b; cap.
 *  Calls probe functions only; no state, no allocation. Constant time: n/a. RNG: no. */
SC_API SC_WARN_UNUSED sc_status sc_backend_has(const sc_backend *b, sc_cap cap, const char **why);

/** Static name of a group ("hash", "mac", "stream", "aead", "rng", "curve", "xaead",
 *  "scrypt").
 *  Returns: the name, or NULL for a value out of range. */
SC_API const char *sc_backend_group_name(sc_group g);

/** Static name of a capability ("sha256", ..., "secp256k1", "chacha20-counter",
 *  "xchacha20-poly1305", "scrypt").
 *  Returns: the name, or NULL for a value out of range. */
SC_API const char *sc_backend_cap_name(sc_cap cap);

/** The library implementing group g of backend b (e.g. "libsodium").
 *  Returns: a static string, or NULL if b is NULL, g out of range or the group absent. */
SC_API const char *sc_backend_group_lib(const sc_backend *b, sc_group g);

/** Checks a table's shape: ABI major, struct size, name, lib_version and that every present
 *  group's size reaches `lib` and each required function, that each of them is non-NULL,
 *  that setup/teardown are paired and that the hash state fits.
 *  Returns: SC_OK; SC_ERR_BACKEND (the first problem found); SC_ERR_ARG (b NULL).
 *  In: b. Constant time: n/a. RNG: no. */
SC_API SC_WARN_UNUSED sc_status sc_backend_validate(const sc_backend *b);

SC_END_DECLS

#endif
