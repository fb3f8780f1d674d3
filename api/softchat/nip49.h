/* libsoftchat: NIP-49 private key encryption (ncryptsec).
 *
 * A secret key is sealed under a password: key = scrypt(password, salt, N = 2^log_n, r = 8,
 * p = 1, 32 bytes); ciphertext = XChaCha20-Poly1305(key, nonce, the secret key), with the
 * key-security byte as associated data. The 91 bytes 0x02 || log_n || salt (16) || nonce (24)
 * || key-security byte || ciphertext and tag (48) are written as bech32 under the prefix
 * "ncryptsec" (SC_NIP49_LEN characters).
 *
 * Passwords. NIP-49 runs the password through Unicode NFKC normalisation first, so that it is
 * the same bytes wherever it is typed. These functions take the password already normalised:
 * NFKC UTF-8 is the caller's layer's job (the CLI normalises with libunistring's u8_normalize,
 * Kotlin with java.text.Normalizer, JavaScript with String.prototype.normalize("NFKC")). The
 * library checks that the password is well-formed UTF-8 (SC_ERR_UTF8), which catches text in
 * another encoding, but it cannot check the normalisation: a password that is not NFKC seals
 * a key other clients will not open with what the user types.
 *
 * Cost. log_n sets scrypt's cost: 128 * 8 * 2^log_n bytes of working memory (64 MiB at 16,
 * 1 GiB at 20, 4 GiB at 22) and time in proportion. This library accepts 1 to
 * SC_NIP49_LOG_N_MAX (22, NIP-49's largest listed cost) and refuses more with
 * SC_ERR_SCRYPT_COST, whether asked to encrypt or given an ncryptsec to decrypt; before
 * decrypting one from elsewhere, sc_nip49_inspect tells its cost without paying it.
 * docs/api.md has the time each cost takes.
 *
 * Memory. The one allocation: scrypt's working memory, sc_crypto_scrypt_memory(log_n, 8, 1)
 * bytes, is allocated and freed by the bound backend's library inside the call (OpenSSL's
 * EVP_KDF, libsodium's crypto_pwhash_scryptsalsa208sha256_ll); a failed allocation is
 * SC_ERR_NOMEM. Everything else lives on the stack and every secret there (the password-derived
 * key, the decrypted secret key, the curve keypair that checks it) is wiped on every path.
 *
 * Backends: the context's backend needs the scrypt and xchacha20-poly1305 capabilities
 * (sc_backend_has): openssl, sodium and sodium+mbedtls have them; mbedtls and psa do not (mbed
 * TLS has no scrypt) and give SC_ERR_UNSUPPORTED. The secret key is checked against the curve
 * (the curve group, every table's).
 */
#ifndef SOFTCHAT_NIP49_H
#define SOFTCHAT_NIP49_H

#include "backend.h"
#include "ctx.h"

SC_BEGIN_DECLS

#define SC_NIP49_VERSION 2u
#define SC_NIP49_SALT_BYTES 16u
#define SC_NIP49_NONCE_BYTES 24u
#define SC_NIP49_RAW_BYTES 91u /* the payload under the bech32 encoding */
#define SC_NIP49_LEN 162u      /* characters of an ncryptsec: "ncryptsec1", 146 data, 6 check */
#define SC_NIP49_LOG_N_DEFAULT 16u
#define SC_NIP49_LOG_N_MAX 22u

/** The key-security byte: what the encrypting client knows of the key's past. It is the
 *  AEAD's associated data, so it cannot be changed without the password. */
typedef enum sc_nip49_security {
    SC_NIP49_KEY_INSECURE = 0, /* known to have been handled insecurely (stored or pasted
                                  unencrypted) */
    SC_NIP49_KEY_SECURE = 1,   /* not known to have been handled insecurely */
    SC_NIP49_KEY_UNKNOWN = 2   /* the client does not track this */
} sc_nip49_security;

/** Characters sc_nip49_encrypt writes (SC_NIP49_LEN, for bindings).
 *  Returns: 162. */
SC_API size_t sc_nip49_encrypt_len(void);

/** Encrypts a secret key under a password (NIP-49), with a fresh salt and nonce from the
 *  context's RNG.
 *  Returns: SC_OK; SC_ERR_SCRYPT_COST (log_n 0 or above SC_NIP49_LOG_N_MAX);
 *           SC_ERR_EMPTY (an empty password: it would protect nothing);
 *           SC_ERR_UTF8 (a password that is not well-formed UTF-8);
 *           SC_ERR_INVALID_KEY (sec is 0 or >= the curve order);
 *           SC_ERR_BUFFER_TOO_SMALL (*out_len = SC_NIP49_LEN; out may be NULL with out_cap 0 to
 *           ask); SC_ERR_NOMEM (scrypt's working memory could not be allocated);
 *           SC_ERR_RNG; SC_ERR_ARG (out_len, sec or password NULL (password may be NULL with
 *           length 0: then SC_ERR_EMPTY), out NULL with out_cap > 0, a security value other
 *           than the three, a NULL ctx); SC_ERR_STATE (ctx); SC_ERR_UNSUPPORTED (the backend
 *           lacks scrypt or XChaCha20-Poly1305); SC_ERR_INTERNAL.
 *  Out: out[0..SC_NIP49_LEN): the ncryptsec, lowercase, not NUL-terminated; zeroed on failure
 *       (but for SC_ERR_BUFFER_TOO_SMALL and SC_ERR_ARG, which leave it untouched);
 *       *out_len (0 on failure, or the need).
 *  In: sec: SC_SECKEY_BYTES; password[0..password_len): NFKC-normalised UTF-8 (see above);
 *      log_n: 1..SC_NIP49_LOG_N_MAX (SC_NIP49_LOG_N_DEFAULT is 16); security.
 *  Constant time: in sec and the derived key; the password goes through a UTF-8 check that
 *  branches on which bytes are ASCII, then through scrypt, whose memory accesses depend on it
 *  by design (crypto.h). RNG: yes (SC_NIP49_SALT_BYTES + SC_NIP49_NONCE_BYTES). Allocates
 *  scrypt's working memory (see above). */
SC_API SC_WARN_UNUSED sc_status sc_nip49_encrypt(sc_ctx *ctx, char *out, size_t out_cap,
                                                 size_t *out_len,
                                                 const uint8_t sec[SC_SECKEY_BYTES],
                                                 const char *password, size_t password_len,
                                                 unsigned log_n, sc_nip49_security security)
    SC_NONNULL(1, 4, 5);

/** As sc_nip49_encrypt with the salt and nonce given (test vectors; deterministic). Never
 *  reuse a nonce with the same password and salt.
 *  Returns: as sc_nip49_encrypt, without SC_ERR_RNG; SC_ERR_ARG also for a NULL salt or
 *           nonce.
 *  Out: as sc_nip49_encrypt.
 *  In: as sc_nip49_encrypt; salt: SC_NIP49_SALT_BYTES; nonce: SC_NIP49_NONCE_BYTES.
 *  Constant time: as sc_nip49_encrypt. RNG: no. Allocates scrypt's working memory. */
SC_API SC_WARN_UNUSED sc_status sc_nip49_encrypt_with_rand(
    sc_ctx *ctx, char *out, size_t out_cap, size_t *out_len, const uint8_t sec[SC_SECKEY_BYTES],
    const char *password, size_t password_len, unsigned log_n, sc_nip49_security security,
    const uint8_t salt[SC_NIP49_SALT_BYTES], const uint8_t nonce[SC_NIP49_NONCE_BYTES])
    SC_NONNULL(1, 4, 5, 10, 11);

/** Decrypts an ncryptsec with a password. The checks run in this order, the cheap ones before
 *  scrypt's cost is paid.
 *  Returns: SC_OK;
 *           SC_ERR_BECH32 (not bech32, a bad checksum, mixed case, or a prefix other than
 *           "ncryptsec"); SC_ERR_PAYLOAD_SIZE (a payload other than SC_NIP49_RAW_BYTES);
 *           SC_ERR_VERSION (a version byte other than 2); SC_ERR_SCRYPT_COST (log_n 0 or
 *           above SC_NIP49_LOG_N_MAX: refused before any memory is taken);
 *           SC_ERR_ENCODING (a key-security byte other than 0, 1 or 2);
 *           SC_ERR_UTF8 (a password that is not well-formed UTF-8);
 *           SC_ERR_AUTH (the tag does not verify: a wrong password, or an altered ncryptsec);
 *           SC_ERR_INVALID_KEY (it decrypts to 0 or a value >= the curve order);
 *           SC_ERR_NOMEM (scrypt's working memory); SC_ERR_ARG (sec NULL, ncryptsec or
 *           password NULL with a length, a NULL ctx); SC_ERR_STATE (ctx);
 *           SC_ERR_UNSUPPORTED (the backend lacks scrypt or XChaCha20-Poly1305);
 *           SC_ERR_INTERNAL.
 *  Out: sec: SC_SECKEY_BYTES, the secret key (the caller wipes it; sc_identity_import takes
 *       it); zeroed on failure. *security (security may be NULL): the key-security byte, set
 *       on success only.
 *  In: ncryptsec[0..len) (not NUL-terminated; all lowercase or all uppercase);
 *      password[0..password_len): NFKC-normalised UTF-8 (may be empty).
 *  Constant time: in the derived key, the decrypted key and the tag comparison; the password
 *  as for sc_nip49_encrypt. RNG: no. Allocates scrypt's working memory. */
SC_API SC_WARN_UNUSED sc_status sc_nip49_decrypt(sc_ctx *ctx, uint8_t sec[SC_SECKEY_BYTES],
                                                 sc_nip49_security *security, const char *ncryptsec,
                                                 size_t len, const char *password,
                                                 size_t password_len) SC_NONNULL(1, 2);

/** Reads an ncryptsec's public parameters without decrypting it: what decrypting will cost
 *  (log_n) and what the encrypting client said of the key. The same checks as
 *  sc_nip49_decrypt up to the password.
 *  Returns: SC_OK; SC_ERR_BECH32, SC_ERR_PAYLOAD_SIZE, SC_ERR_VERSION, SC_ERR_ENCODING (as
 *           sc_nip49_decrypt); SC_ERR_SCRYPT_COST (log_n 0 or above SC_NIP49_LOG_N_MAX:
 *           *log_n still tells it); SC_ERR_ARG (log_n or security NULL, ncryptsec NULL with
 *           a length).
 *  Out: *log_n (0 when unreadable); *security (set on SC_OK only).
 *  In: ncryptsec[0..len).
 *  Constant time: no (public data). RNG: no. No context, no allocation. */
SC_API SC_WARN_UNUSED sc_status sc_nip49_inspect(unsigned *log_n, sc_nip49_security *security,
                                                 const char *ncryptsec, size_t len)
    SC_NONNULL(1, 2);

SC_END_DECLS

#endif
