/* NIP-49: a secret key sealed under a password (ncryptsec). scrypt and XChaCha20-Poly1305
 * come from the bound backend (crypto.h); the payload layout, the bech32 text and the order of
 * the checks are here. Every secret (the password-derived key, the decrypted key, the curve
 * keypair that checks it) is on the stack and wiped at the one exit of each function. */
#include <softchat/crypto.h>
#include <softchat/mem.h>
#include <softchat/nip49.h>

#include <string.h>

#include "crypto/dispatch.h"
#include "util/bech32.h"
#include "util/utf8.h"

#define HRP "ncryptsec"
#define HRP_LEN 9u
#define SCRYPT_R 8u
#define SCRYPT_P 1u
#define KEY_BYTES 32u
#define TAG_BYTES 16u

/* Offsets in the 91-byte payload. */
#define OFF_VERSION 0u
#define OFF_LOG_N 1u
#define OFF_SALT 2u
#define OFF_NONCE (OFF_SALT + SC_NIP49_SALT_BYTES)
#define OFF_SECURITY (OFF_NONCE + SC_NIP49_NONCE_BYTES)
#define OFF_CT (OFF_SECURITY + 1u)
#define OFF_TAG (OFF_CT + SC_SECKEY_BYTES)

typedef char nip49_layout[(OFF_TAG + TAG_BYTES == SC_NIP49_RAW_BYTES) ? 1 : -1];

size_t sc_nip49_encrypt_len(void)
{
    return SC_NIP49_LEN;
}

static int log_n_ok(unsigned log_n)
{
    return log_n >= 1 && log_n <= SC_NIP49_LOG_N_MAX;
}

/* SC_OK when sec is a valid secret key (1 <= sec < n), through the curve group; constant time
 * in sec. */
static sc_status check_key(sc_ctx *ctx, const uint8_t sec[SC_SECKEY_BYTES])
{
    sc_curve_keypair kp;
    uint8_t pub[SC_PUBKEY_BYTES];
    sc_status st = sc_dispatch_curve_keypair(ctx, &kp, pub, sec);

    sc_mem_wipe(&kp, sizeof kp);
    return st;
}

/* SC_OK when ctx's backend has both primitives NIP-49 needs; checked before any work. A NULL
 * or dead context is left to the calls that follow, which say which. */
static sc_status backend_ready(const sc_ctx *ctx)
{
    const sc_backend *b = sc_ctx_backend(ctx);

    if (b != NULL && (sc_backend_has(b, SC_CAP_SCRYPT, NULL) != SC_OK ||
                      sc_backend_has(b, SC_CAP_XCHACHA20POLY1305, NULL) != SC_OK)) {
        return SC_ERR_UNSUPPORTED;
    }
    return SC_OK;
}

/* The password-derived key of NIP-49: scrypt(password, salt, 2^log_n, 8, 1), 32 bytes. */
static sc_status derive_key(sc_ctx *ctx, uint8_t key[KEY_BYTES], const char *password,
                            size_t password_len, const uint8_t salt[SC_NIP49_SALT_BYTES],
                            unsigned log_n)
{
    return sc_crypto_scrypt(ctx, key, KEY_BYTES, (const uint8_t *)password, password_len, salt,
                            SC_NIP49_SALT_BYTES, log_n, SCRYPT_R, SCRYPT_P);
}

/* The checks of encryption that need no secret work, in the documented order. */
static sc_status encrypt_args(const char *password, size_t password_len, unsigned log_n,
                              sc_nip49_security security)
{
    if ((unsigned)security > (unsigned)SC_NIP49_KEY_UNKNOWN) {
        return SC_ERR_ARG;
    }
    if (!log_n_ok(log_n)) {
        return SC_ERR_SCRYPT_COST;
    }
    if (password_len == 0) {
        return SC_ERR_EMPTY;
    }
    return sc_utf8_check(password, password_len);
}

sc_status sc_nip49_encrypt_with_rand(sc_ctx *ctx, char *out, size_t out_cap, size_t *out_len,
                                     const uint8_t sec[SC_SECKEY_BYTES], const char *password,
                                     size_t password_len, unsigned log_n,
                                     sc_nip49_security security,
                                     const uint8_t salt[SC_NIP49_SALT_BYTES],
                                     const uint8_t nonce[SC_NIP49_NONCE_BYTES])
{
    uint8_t key[KEY_BYTES], raw[SC_NIP49_RAW_BYTES];
    size_t written = 0;
    sc_status st;

    if (out_len != NULL) {
        *out_len = 0;
    }
    if (out_len == NULL || sec == NULL || (password == NULL && password_len != 0) || salt == NULL ||
        nonce == NULL || (out == NULL && out_cap != 0)) {
        return SC_ERR_ARG;
    }
    st = encrypt_args(password, password_len, log_n, security);
    if (st == SC_OK) {
        st = backend_ready(ctx);
    }
    if (st == SC_OK) {
        st = check_key(ctx, sec);
    }
    if (st == SC_OK && out_cap < SC_NIP49_LEN) {
        *out_len = SC_NIP49_LEN;
        return SC_ERR_BUFFER_TOO_SMALL;
    }
    if (st != SC_OK) {
        sc_mem_wipe(out, out_cap);
        return st;
    }
    raw[OFF_VERSION] = (uint8_t)SC_NIP49_VERSION;
    raw[OFF_LOG_N] = (uint8_t)log_n;
    memcpy(raw + OFF_SALT, salt, SC_NIP49_SALT_BYTES);
    memcpy(raw + OFF_NONCE, nonce, SC_NIP49_NONCE_BYTES);
    raw[OFF_SECURITY] = (uint8_t)security;
    st = derive_key(ctx, key, password, password_len, salt, log_n);
    if (st == SC_OK) {
        st = sc_crypto_xchacha20poly1305_seal(ctx, raw + OFF_CT, raw + OFF_TAG, key, nonce,
                                              raw + OFF_SECURITY, 1, sec, SC_SECKEY_BYTES);
    }
    if (st == SC_OK) {
        st = sc_bech32_encode(out, out_cap, &written, HRP, HRP_LEN, raw, sizeof raw);
    }
    sc_mem_wipe(key, sizeof key);
    sc_mem_wipe(raw, sizeof raw);
    if (st != SC_OK || written != SC_NIP49_LEN) {
        sc_mem_wipe(out, out_cap);
        return st != SC_OK ? st : SC_ERR_INTERNAL;
    }
    *out_len = written;
    return SC_OK;
}

sc_status sc_nip49_encrypt(sc_ctx *ctx, char *out, size_t out_cap, size_t *out_len,
                           const uint8_t sec[SC_SECKEY_BYTES], const char *password,
                           size_t password_len, unsigned log_n, sc_nip49_security security)
{
    uint8_t rnd[SC_NIP49_SALT_BYTES + SC_NIP49_NONCE_BYTES];
    sc_status st;

    if (out_len != NULL) {
        *out_len = 0;
    }
    if (out_len == NULL || sec == NULL || (password == NULL && password_len != 0) ||
        (out == NULL && out_cap != 0)) {
        return SC_ERR_ARG;
    }
    /* the checks first, so a call that must fail draws nothing */
    st = encrypt_args(password, password_len, log_n, security);
    if (st == SC_OK) {
        st = backend_ready(ctx);
    }
    if (st == SC_OK && out_cap < SC_NIP49_LEN) {
        *out_len = SC_NIP49_LEN;
        return SC_ERR_BUFFER_TOO_SMALL;
    }
    if (st == SC_OK) {
        st = sc_crypto_rng_fill(ctx, rnd, sizeof rnd);
    }
    if (st == SC_OK) {
        st = sc_nip49_encrypt_with_rand(ctx, out, out_cap, out_len, sec, password, password_len,
                                        log_n, security, rnd, rnd + SC_NIP49_SALT_BYTES);
    } else {
        sc_mem_wipe(out, out_cap);
    }
    sc_mem_wipe(rnd, sizeof rnd);
    return st;
}

/* Parses an ncryptsec into raw and checks everything that needs no password: the prefix,
 * the bech32 text, the size, the version, the cost and the key-security byte. *log_n is set
 * as soon as it is read. */
static sc_status parse(uint8_t raw[SC_NIP49_RAW_BYTES], unsigned *log_n, const char *s, size_t len)
{
    sc_bech32_str p;
    size_t i;
    sc_status st;

    *log_n = 0;
    if (len <= HRP_LEN || s[HRP_LEN] != '1') {
        return SC_ERR_BECH32;
    }
    for (i = 0; i < HRP_LEN; i++) {
        char c = s[i] >= 'A' && s[i] <= 'Z' ? (char)(s[i] - 'A' + 'a') : s[i];

        if (c != HRP[i]) {
            return SC_ERR_BECH32; /* another prefix (an nsec, an npub) */
        }
    }
    /* a longer string is bech32 that is not ours: its payload size says so */
    st = sc_bech32_parse(&p, s, len, HRP_LEN, len);
    if (st != SC_OK) {
        return st;
    }
    if (sc_bech32_bytes_len(&p) != SC_NIP49_RAW_BYTES) {
        return SC_ERR_PAYLOAD_SIZE;
    }
    st = sc_bech32_to_bytes(raw, SC_NIP49_RAW_BYTES, &p);
    if (st != SC_OK) {
        return st;
    }
    if (raw[OFF_VERSION] != SC_NIP49_VERSION) {
        return SC_ERR_VERSION;
    }
    *log_n = raw[OFF_LOG_N];
    if (!log_n_ok(*log_n)) {
        return SC_ERR_SCRYPT_COST;
    }
    return raw[OFF_SECURITY] <= (uint8_t)SC_NIP49_KEY_UNKNOWN ? SC_OK : SC_ERR_ENCODING;
}

sc_status sc_nip49_inspect(unsigned *log_n, sc_nip49_security *security, const char *ncryptsec,
                           size_t len)
{
    uint8_t raw[SC_NIP49_RAW_BYTES];
    unsigned n = 0;
    sc_status st;

    if (log_n != NULL) {
        *log_n = 0;
    }
    if (log_n == NULL || security == NULL || (ncryptsec == NULL && len != 0)) {
        return SC_ERR_ARG;
    }
    st = parse(raw, &n, ncryptsec, len);
    *log_n = n;
    if (st == SC_OK) {
        *security = (sc_nip49_security)raw[OFF_SECURITY];
    }
    return st;
}

sc_status sc_nip49_decrypt(sc_ctx *ctx, uint8_t sec[SC_SECKEY_BYTES], sc_nip49_security *security,
                           const char *ncryptsec, size_t len, const char *password,
                           size_t password_len)
{
    uint8_t raw[SC_NIP49_RAW_BYTES], key[KEY_BYTES];
    unsigned log_n = 0;
    sc_status st;

    if (sec == NULL) {
        return SC_ERR_ARG;
    }
    if ((ncryptsec == NULL && len != 0) || (password == NULL && password_len != 0)) {
        st = SC_ERR_ARG;
        goto out;
    }
    st = parse(raw, &log_n, ncryptsec, len);
    if (st == SC_OK) {
        st = sc_utf8_check(password, password_len);
    }
    if (st == SC_OK) {
        st = backend_ready(ctx);
    }
    if (st == SC_OK) {
        st = derive_key(ctx, key, password, password_len, raw + OFF_SALT, log_n);
    }
    if (st == SC_OK) {
        /* the tag is checked before anything is released; on a mismatch sec is zeroed */
        st = sc_crypto_xchacha20poly1305_open(ctx, sec, key, raw + OFF_NONCE, raw + OFF_SECURITY, 1,
                                              raw + OFF_CT, SC_SECKEY_BYTES, raw + OFF_TAG);
    }
    if (st == SC_OK) {
        st = check_key(ctx, sec);
    }
    if (st == SC_OK && security != NULL) {
        *security = (sc_nip49_security)raw[OFF_SECURITY];
    }
    sc_mem_wipe(key, sizeof key);
out:
    if (st != SC_OK) {
        sc_mem_wipe(sec, SC_SECKEY_BYTES);
    }
    return st;
}
