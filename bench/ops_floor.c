/* Floors: what the crypto alone costs. libsecp256k1 called directly (keypair, BIP-340 sign
 * and verify, x-only parse + ECDH), and each backend's SHA-256, HMAC-SHA256 and ChaCha20 at
 * the sizes the operations use. scripts/audit/floors.py composes an operation's floor from these rows, taking
 * the fastest backend's primitive at each size. */
#include <softchat/softchat.h>

#include <secp256k1.h>
#include <secp256k1_ecdh.h>
#include <secp256k1_extrakeys.h>
#include <secp256k1_schnorrsig.h>

#include <stdlib.h>
#include <string.h>

#include "ops.h"
#include "ops_internal.h"

typedef struct floor_state {
    secp256k1_context *secp;
    secp256k1_keypair kp;
    secp256k1_xonly_pubkey xpk;
    uint8_t sec[32], pub[32], msg[32], sig[64], aux[32];
    sc_ctx *ctx;
    uint8_t *buf;
    size_t len;
} floor_state;

static void floor_teardown(void *p)
{
    floor_state *s = p;

    if (s == NULL) {
        return;
    }
    if (s->secp != NULL) {
        secp256k1_context_destroy(s->secp);
    }
    sc_ctx_free(s->ctx);
    free(s->buf);
    free(s);
}

static int secp_setup(void **out, const char *backend, size_t bytes)
{
    floor_state *s = calloc(1, sizeof *s);

    (void)backend;
    (void)bytes;
    *out = s;
    if (s == NULL) {
        return -1;
    }
    s->secp = secp256k1_context_create(SECP256K1_CONTEXT_NONE);
    memset(s->sec, 0x11, 32);
    memset(s->msg, 0x42, 32);
    if (s->secp == NULL || !secp256k1_keypair_create(s->secp, &s->kp, s->sec) ||
        !secp256k1_keypair_xonly_pub(s->secp, &s->xpk, NULL, &s->kp) ||
        !secp256k1_xonly_pubkey_serialize(s->secp, s->pub, &s->xpk) ||
        !secp256k1_schnorrsig_sign32(s->secp, s->sig, s->msg, &s->kp, s->aux)) {
        return -1;
    }
    return 0;
}

static int run_keypair(void *p, uint64_t n)
{
    floor_state *s = p;
    secp256k1_keypair kp;
    secp256k1_xonly_pubkey x;
    uint8_t pub[32];

    while (n--) {
        if (!secp256k1_keypair_create(s->secp, &kp, s->sec) ||
            !secp256k1_keypair_xonly_pub(s->secp, &x, NULL, &kp) ||
            !secp256k1_xonly_pubkey_serialize(s->secp, pub, &x)) {
            return -1;
        }
    }
    return 0;
}

static int run_sign(void *p, uint64_t n)
{
    floor_state *s = p;
    uint8_t sig[64];

    while (n--) {
        if (!secp256k1_schnorrsig_sign32(s->secp, sig, s->msg, &s->kp, s->aux)) {
            return -1;
        }
    }
    return 0;
}

static int run_verify(void *p, uint64_t n)
{
    floor_state *s = p;
    secp256k1_xonly_pubkey x;

    while (n--) {
        if (!secp256k1_xonly_pubkey_parse(s->secp, &x, s->pub) ||
            !secp256k1_schnorrsig_verify(s->secp, s->sig, s->msg, 32, &x)) {
            return -1;
        }
    }
    return 0;
}

static int copy_x(unsigned char *out, const unsigned char *x, const unsigned char *y, void *d)
{
    (void)y;
    (void)d;
    memcpy(out, x, 32);
    return 1;
}

static int run_ecdh(void *p, uint64_t n)
{
    floor_state *s = p;
    secp256k1_pubkey pk;
    uint8_t ser[33], x[32];

    ser[0] = 0x02;
    memcpy(ser + 1, s->pub, 32);
    while (n--) {
        if (!secp256k1_ec_pubkey_parse(s->secp, &pk, ser, sizeof ser) ||
            !secp256k1_ecdh(s->secp, x, &pk, s->sec, copy_x, NULL)) {
            return -1;
        }
    }
    return 0;
}

static int prim_setup(void **out, const char *backend, size_t bytes)
{
    floor_state *s = calloc(1, sizeof *s);

    *out = s;
    if (s == NULL || bench_ctx_new(&s->ctx, backend) != 0) {
        return -1;
    }
    s->len = bytes;
    s->buf = malloc(bytes + 1);
    if (s->buf == NULL) {
        return -1;
    }
    bench_fill(s->buf, bytes, 5);
    return 0;
}

static int run_sha256(void *p, uint64_t n)
{
    floor_state *s = p;
    uint8_t d[32];

    while (n--) {
        if (sc_crypto_sha256(s->ctx, d, s->buf, s->len) != SC_OK) {
            return -1;
        }
    }
    return 0;
}

static int run_hmac(void *p, uint64_t n)
{
    floor_state *s = p;
    uint8_t d[32];
    sc_iov part;

    part.data = s->buf;
    part.len = s->len;
    while (n--) {
        if (sc_crypto_hmac_sha256(s->ctx, d, s->sec, 32, &part, 1) != SC_OK) {
            return -1;
        }
    }
    return 0;
}

static int run_chacha20(void *p, uint64_t n)
{
    floor_state *s = p;

    while (n--) {
        if (sc_crypto_chacha20_xor(s->ctx, s->buf, s->buf, s->len, s->sec, s->msg, 0) != SC_OK) {
            return -1;
        }
    }
    return 0;
}

static int run_gcm(void *p, uint64_t n)
{
    floor_state *s = p;
    uint8_t tag[16];

    while (n--) {
        if (sc_crypto_aes256gcm_seal(s->ctx, s->buf, tag, s->sec, s->msg, 12, NULL, 0, s->buf,
                                     s->len) != SC_OK) {
            return -1;
        }
    }
    return 0;
}

#define FLOOR(name, size, fn)                                                                      \
    {                                                                                              \
        name, size, prim_setup, fn, floor_teardown, 0, 1                                           \
    }

/* Backend-independent rows: libsecp256k1 alone, measured once per run. */
const bench_op bench_floor_secp[] = {
    {"floor_keypair", 32, secp_setup, run_keypair, floor_teardown, 0, 1},
    {"floor_sign", 32, secp_setup, run_sign, floor_teardown, 0, 1},
    {"floor_verify", 32, secp_setup, run_verify, floor_teardown, 0, 1},
    {"floor_ecdh", 32, secp_setup, run_ecdh, floor_teardown, 0, 1},
};
const size_t bench_floor_secp_count = sizeof bench_floor_secp / sizeof bench_floor_secp[0];

/* Each backend's primitives at the sizes the operations feed them (scripts/audit/floors.py composes the
 * floors; docs/benchmarks.md lists the composition): SHA-256 of a 121-byte canonical event
 * and of attachment sizes; the NIP-44 HMACs (HKDF-Extract 32, Expand 33 and 65, the MAC over
 * nonce || ciphertext); ChaCha20 over the padded plaintext; one-shot AES-256-GCM. */
const bench_op bench_floor_prims[] = {
    FLOOR("floor_sha256", 121, run_sha256),      FLOOR("floor_sha256", 64000, run_sha256),
    FLOOR("floor_sha256", 1048576, run_sha256),  FLOOR("floor_hmac_sha256", 32, run_hmac),
    FLOOR("floor_hmac_sha256", 33, run_hmac),    FLOOR("floor_hmac_sha256", 65, run_hmac),
    FLOOR("floor_hmac_sha256", 66, run_hmac),    FLOOR("floor_hmac_sha256", 1058, run_hmac),
    FLOOR("floor_hmac_sha256", 65570, run_hmac), FLOOR("floor_chacha20", 34, run_chacha20),
    FLOOR("floor_chacha20", 1026, run_chacha20), FLOOR("floor_chacha20", 65538, run_chacha20),
    FLOOR("floor_aes256gcm", 64000, run_gcm),    FLOOR("floor_aes256gcm", 1048576, run_gcm),
};
const size_t bench_floor_prims_count = sizeof bench_floor_prims / sizeof bench_floor_prims[0];
