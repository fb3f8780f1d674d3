/* The curve adapter: libsecp256k1 behind sc_backend_curve. Every backend table points its
 * curve slot here. Works with libsecp256k1 0.2.0 (Debian 12) and newer releases: it uses only
 * calls present since 0.2.0 (preallocated context, extrakeys, schnorrsig sign32/sign_custom,
 * ecdh with a custom hash function).
 *
 * The context is created once per sc_ctx in preallocated memory, blinded with 32 bytes from
 * the sc_ctx's RNG, and its illegal-argument and error callbacks record instead of aborting
 * (libsecp256k1's default callbacks call abort(), which would kill a host app).
 *
 * Verification and ECDH keep the public keys they lifted most recently (x -> point): lifting an
 * x coordinate is a square root (4.5-5 us, an eighth of a verification), and a context meets
 * the same keys again (a gift wrap's key is verified, then used for ECDH; a conversation's peer
 * recurs). Public keys are public, so the lookup may compare and branch on them; secret keys
 * never take part. Only keys that lift are kept. */
#include <softchat/backend.h>
#include <softchat/mem.h>

#include <secp256k1.h>
#include <secp256k1_ecdh.h>
#include <secp256k1_extrakeys.h>
#include <secp256k1_preallocated.h>
#include <secp256k1_schnorrsig.h>

#include <stdlib.h>
#include <string.h>

#include "curve.h"

typedef char keypair_size_matches[(sizeof(secp256k1_keypair) == SC_CURVE_KEYPAIR_BYTES) ? 1 : -1];

#define PEER_CACHE 8 /* public keys kept lifted, most recently used first */

typedef struct peer_entry {
    uint8_t x[32];
    secp256k1_pubkey point; /* the even-y point with that x */
} peer_entry;

typedef struct curve_state {
    secp256k1_context *ctx;
    size_t mem_size;
    unsigned long illegal;        /* illegal-argument or error callbacks seen since the last call */
    peer_entry peers[PEER_CACHE]; /* peers[0] is the most recently used */
    unsigned n_peers;
} curve_state;

/* The context memory follows the header, aligned for any object. */
#define HEADER_BYTES ((sizeof(curve_state) + 63u) & ~(size_t)63u)

static void record_callback(const char *message, void *data)
{
    (void)message;
    ((curve_state *)data)->illegal++;
}

static curve_state *state_of(sc_bstate *st)
{
    return (curve_state *)(void *)st;
}

/* Maps a libsecp256k1 0 result: a recorded callback means a broken call (SC_ERR_ARG);
 * otherwise the library rejected the data, reported as `data_err`. */
static sc_status result(curve_state *cs, int ok, sc_status data_err)
{
    if (cs->illegal != 0) {
        cs->illegal = 0;
        return SC_ERR_ARG;
    }
    return ok ? SC_OK : data_err;
}

static sc_status curve_setup(sc_bstate **out, const uint8_t seed[32])
{
    size_t need = secp256k1_context_preallocated_size(SECP256K1_CONTEXT_NONE);
    curve_state *cs;
    unsigned char *mem;

    *out = NULL;
    mem = malloc(HEADER_BYTES + need);
    if (mem == NULL) {
        return SC_ERR_NOMEM;
    }
    cs = (curve_state *)(void *)mem;
    memset(cs, 0, sizeof *cs);
    cs->mem_size = HEADER_BYTES + need;
    cs->ctx = secp256k1_context_preallocated_create(mem + HEADER_BYTES, SECP256K1_CONTEXT_NONE);
    if (cs->ctx == NULL) {
        free(mem);
        return SC_ERR_INTERNAL;
    }
    secp256k1_context_set_illegal_callback(cs->ctx, record_callback, cs);
    secp256k1_context_set_error_callback(cs->ctx, record_callback, cs);
    if (seed != NULL && !secp256k1_context_randomize(cs->ctx, seed)) {
        secp256k1_context_preallocated_destroy(cs->ctx);
        sc_mem_wipe(mem, cs->mem_size);
        free(mem);
        return SC_ERR_INTERNAL;
    }
    *out = (sc_bstate *)(void *)cs;
    return SC_OK;
}

static void curve_teardown(sc_bstate *st)
{
    curve_state *cs = state_of(st);
    size_t size = cs->mem_size;

    secp256k1_context_preallocated_destroy(cs->ctx);
    sc_mem_wipe(cs, size); /* the context holds the blinding secret */
    free(cs);
}

/* Moves peers[i] to the front (most recently used). */
static void peer_to_front(curve_state *cs, unsigned i)
{
    peer_entry e = cs->peers[i];

    memmove(&cs->peers[1], &cs->peers[0], i * sizeof e);
    cs->peers[0] = e;
}

/* The even-y point with x coordinate pub: from the cache, or lifted and cached in place of the
 * least recently used key. Returns 1, or 0 when no point has that x (nothing cached then). */
static int peer_point(curve_state *cs, secp256k1_pubkey *point, const uint8_t pub[32])
{
    unsigned char compressed[33];
    unsigned i;

    for (i = 0; i < cs->n_peers; i++) {
        if (memcmp(cs->peers[i].x, pub, 32) == 0) {
            *point = cs->peers[i].point;
            peer_to_front(cs, i);
            return 1;
        }
    }
    compressed[0] = 0x02; /* lift_x: the even-y point (BIP-340; for ECDH x(d*P) = x(d*(-P))) */
    memcpy(compressed + 1, pub, 32);
    if (!secp256k1_ec_pubkey_parse(cs->ctx, point, compressed, sizeof compressed)) {
        return 0;
    }
    if (cs->n_peers < PEER_CACHE) {
        cs->n_peers++;
    }
    i = cs->n_peers - 1; /* a free slot, or the least recently used one */
    memcpy(cs->peers[i].x, pub, 32);
    cs->peers[i].point = *point;
    peer_to_front(cs, i);
    return 1;
}

static sc_status curve_keypair(sc_bstate *st, sc_curve_keypair *kp, uint8_t pub[32],
                               const uint8_t sec[32])
{
    curve_state *cs = state_of(st);
    secp256k1_keypair *k = (secp256k1_keypair *)(void *)kp;
    secp256k1_xonly_pubkey xpk;
    sc_status rc;
    int ok;

    ok = secp256k1_keypair_create(cs->ctx, k, sec);
    rc = result(cs, ok, SC_ERR_INVALID_KEY);
    if (rc == SC_OK) {
        ok = secp256k1_keypair_xonly_pub(cs->ctx, &xpk, NULL, k) &&
             secp256k1_xonly_pubkey_serialize(cs->ctx, pub, &xpk);
        rc = result(cs, ok, SC_ERR_INTERNAL);
    }
    if (rc != SC_OK) {
        sc_mem_wipe(kp, sizeof *kp);
        memset(pub, 0, 32);
    }
    return rc;
}

static sc_status curve_sign(sc_bstate *st, uint8_t sig[64], const sc_curve_keypair *kp,
                            const uint8_t *msg, size_t msg_len, const uint8_t aux[32])
{
    curve_state *cs = state_of(st);
    const secp256k1_keypair *k = (const secp256k1_keypair *)(const void *)kp;
    int ok;

    if (msg_len == 32) {
        ok = secp256k1_schnorrsig_sign32(cs->ctx, sig, msg, k, aux);
    } else {
        secp256k1_schnorrsig_extraparams extra = SECP256K1_SCHNORRSIG_EXTRAPARAMS_INIT;
        extra.ndata = (unsigned char *)(uintptr_t)aux; /* read-only in libsecp256k1 */
        ok = secp256k1_schnorrsig_sign_custom(cs->ctx, sig, msg, msg_len, k, &extra);
    }
    return result(cs, ok, SC_ERR_INVALID_KEY);
}

static sc_status curve_verify(sc_bstate *st, const uint8_t sig[64], const uint8_t *msg,
                              size_t msg_len, const uint8_t pub[32])
{
    curve_state *cs = state_of(st);
    secp256k1_pubkey point;
    secp256k1_xonly_pubkey xpk;
    int ok;

    ok = peer_point(cs, &point, pub) &&
         secp256k1_xonly_pubkey_from_pubkey(cs->ctx, &xpk, NULL, &point) &&
         secp256k1_schnorrsig_verify(cs->ctx, sig, msg, msg_len, &xpk);
    return result(cs, ok, SC_ERR_INVALID_SIG);
}

/* ECDH "hash" that returns the x coordinate unhashed, as NIP-44 needs. */
static int copy_x(unsigned char *output, const unsigned char *x32, const unsigned char *y32,
                  void *data)
{
    (void)y32;
    (void)data;
    memcpy(output, x32, 32);
    return 1;
}

static sc_status curve_ecdh_x(sc_bstate *st, uint8_t x[32], const uint8_t sec[32],
                              const uint8_t pub[32])
{
    curve_state *cs = state_of(st);
    secp256k1_pubkey point;
    sc_status rc;
    int ok;

    ok = secp256k1_ec_seckey_verify(cs->ctx, sec) && peer_point(cs, &point, pub) &&
         secp256k1_ecdh(cs->ctx, x, &point, sec, copy_x, NULL);
    rc = result(cs, ok, SC_ERR_INVALID_KEY);
    if (rc != SC_OK) {
        memset(x, 0, 32);
    }
    return rc;
}

const sc_backend_curve sc_curve_secp256k1 = {
    .size = sizeof(sc_backend_curve),
    .lib = "libsecp256k1",
    .setup = curve_setup,
    .teardown = curve_teardown,
    .keypair = curve_keypair,
    .sign = curve_sign,
    .verify = curve_verify,
    .ecdh_x = curve_ecdh_x,
};
