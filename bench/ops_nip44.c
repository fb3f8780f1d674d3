/* Workload: identity import and NIP-44 (full calls with the conversation key derived each
 * time, and held conversations).
 *
 * The full calls cycle through PEERS peers (more than the curve adapter keeps lifted), so
 * every call lifts its peer's public key, as a peer without a cache does; the _warm rows talk
 * to one peer, whose lifted key the adapter keeps (reported apart, labelled). */
#include <softchat/softchat.h>

#include <stdlib.h>
#include <string.h>

#include "ops.h"
#include "ops_internal.h"

#define PEERS 16

typedef struct nip44_state {
    sc_ctx *ctx;
    sc_identity me;
    uint8_t sec[32], peer_pub[PEERS][32]; /* peer k: family 0x22, key k */
    unsigned n_peers, next;
    sc_nip44_conversation conv; /* with peer 0 */
    uint8_t *plain;
    size_t len;
    char *payload[PEERS]; /* payload[k]: len bytes between me and peer k (for decrypt) */
    size_t payload_len[PEERS];
    char *out;    /* encrypt output */
    uint8_t *dec; /* decrypt output */
    size_t out_cap, dec_cap;
} nip44_state;

static void nip44_teardown(void *p)
{
    nip44_state *s = p;
    unsigned k;

    if (s == NULL) {
        return;
    }
    sc_identity_clear(&s->me);
    sc_nip44_conversation_clear(&s->conv);
    sc_ctx_free(s->ctx);
    free(s->plain);
    for (k = 0; k < PEERS; k++) {
        free(s->payload[k]);
    }
    free(s->out);
    free(s->dec);
    free(s);
}

/* Imports peer k (family 0x22: 31 bytes 0x22, then k) and keeps its public key. */
static int import_peer(nip44_state *s, unsigned k)
{
    sc_identity peer;
    uint8_t peer_sec[32];
    int rc;

    memset(peer_sec, 0x22, 32);
    peer_sec[31] = (uint8_t)k;
    rc = sc_identity_import(s->ctx, &peer, peer_sec) == SC_OK &&
                 sc_identity_pubkey(s->peer_pub[k], &peer) == SC_OK
             ? 0
             : -1;
    sc_identity_clear(&peer);
    return rc;
}

static int nip44_setup_peers(void **out, const char *backend, size_t bytes, unsigned peers)
{
    nip44_state *s = calloc(1, sizeof *s);
    uint8_t ck[32];
    unsigned k;
    size_t n;

    *out = s;
    if (s == NULL || bench_ctx_new(&s->ctx, backend) != 0) {
        return -1;
    }
    memset(s->sec, 0x11, 32);
    s->n_peers = peers;
    if (sc_identity_import(s->ctx, &s->me, s->sec) != SC_OK) {
        return -1;
    }
    for (k = 0; k < peers; k++) {
        if (import_peer(s, k) != 0) {
            return -1;
        }
    }
    if (sc_nip44_conversation_init(s->ctx, &s->conv, &s->me, s->peer_pub[0]) != SC_OK) {
        return -1;
    }
    s->len = bytes;
    s->out_cap = sc_nip44_encrypt_len(bytes);
    s->dec_cap = sc_nip44_decrypt_max(s->out_cap);
    s->plain = malloc(bytes);
    s->out = malloc(s->out_cap);
    s->dec = malloc(s->dec_cap);
    if (s->plain == NULL || s->out == NULL || s->dec == NULL) {
        return -1;
    }
    bench_fill(s->plain, bytes, 44);
    for (k = 0; k < peers; k++) {
        s->payload[k] = malloc(s->out_cap);
        if (s->payload[k] == NULL ||
            sc_nip44_conversation_key(s->ctx, ck, s->sec, s->peer_pub[k]) != SC_OK ||
            sc_nip44_encrypt(s->ctx, s->payload[k], s->out_cap, &n, ck, s->plain, bytes, 0) !=
                SC_OK) {
            return -1;
        }
        s->payload_len[k] = n;
    }
    return 0;
}

static int nip44_setup(void **out, const char *backend, size_t bytes)
{
    return nip44_setup_peers(out, backend, bytes, PEERS);
}

static int nip44_setup_one(void **out, const char *backend, size_t bytes)
{
    return nip44_setup_peers(out, backend, bytes, 1);
}

/* The peer of this call; advances the rotation. */
static unsigned next_peer(nip44_state *s)
{
    unsigned k = s->next;

    s->next = (k + 1) % s->n_peers;
    return k;
}

static int run_encrypt(void *p, uint64_t n)
{
    nip44_state *s = p;
    uint8_t ck[32];
    size_t len;

    while (n--) {
        unsigned k = next_peer(s);
        if (sc_nip44_conversation_key(s->ctx, ck, s->sec, s->peer_pub[k]) != SC_OK ||
            sc_nip44_encrypt(s->ctx, s->out, s->out_cap, &len, ck, s->plain, s->len, 0) != SC_OK) {
            return -1;
        }
    }
    return 0;
}

static int run_decrypt(void *p, uint64_t n)
{
    nip44_state *s = p;
    uint8_t ck[32];
    size_t len;

    while (n--) {
        unsigned k = next_peer(s);
        if (sc_nip44_conversation_key(s->ctx, ck, s->sec, s->peer_pub[k]) != SC_OK ||
            sc_nip44_decrypt(s->ctx, s->dec, s->dec_cap, &len, ck, s->payload[k], s->payload_len[k],
                             0) != SC_OK) {
            return -1;
        }
    }
    return 0;
}

static int run_encrypt_held(void *p, uint64_t n)
{
    nip44_state *s = p;
    size_t len;

    while (n--) {
        if (sc_nip44_conversation_encrypt(s->ctx, s->out, s->out_cap, &len, &s->conv, s->plain,
                                          s->len, 0) != SC_OK) {
            return -1;
        }
    }
    return 0;
}

static int run_decrypt_held(void *p, uint64_t n)
{
    nip44_state *s = p;
    size_t len;

    while (n--) {
        if (sc_nip44_conversation_decrypt(s->ctx, s->dec, s->dec_cap, &len, &s->conv, s->payload[0],
                                          s->payload_len[0], 0) != SC_OK) {
            return -1;
        }
    }
    return 0;
}

static int run_import(void *p, uint64_t n)
{
    nip44_state *s = p;
    sc_identity id;

    while (n--) {
        if (sc_identity_import(s->ctx, &id, s->sec) != SC_OK) {
            return -1;
        }
    }
    sc_identity_clear(&id);
    return 0;
}

#define NIP44_OPS(size)                                                                            \
    {"nip44_encrypt", size, nip44_setup, run_encrypt, nip44_teardown, 0, 1},                       \
        {"nip44_decrypt", size, nip44_setup, run_decrypt, nip44_teardown, 0, 1},                   \
        {"nip44_encrypt_held", size, nip44_setup_one, run_encrypt_held, nip44_teardown, 0, 1},     \
    {                                                                                              \
        "nip44_decrypt_held", size, nip44_setup_one, run_decrypt_held, nip44_teardown, 0, 1        \
    }

#define NIP44_WARM_OPS(size)                                                                       \
    {"nip44_encrypt_warm", size, nip44_setup_one, run_encrypt, nip44_teardown, 0, 1},              \
    {                                                                                              \
        "nip44_decrypt_warm", size, nip44_setup_one, run_decrypt, nip44_teardown, 0, 1             \
    }

const bench_op bench_ops_nip44[] = {
    {"import_identity", 32, nip44_setup_one, run_import, nip44_teardown, 0, 1},
    NIP44_OPS(32),
    NIP44_OPS(1024),
    NIP44_OPS(64000),
};
const size_t bench_ops_nip44_count = sizeof bench_ops_nip44 / sizeof bench_ops_nip44[0];

/* Reported apart, after every other operation: one peer, lifted once. */
const bench_op bench_ops_nip44_warm[] = {
    NIP44_WARM_OPS(32),
    NIP44_WARM_OPS(1024),
    NIP44_WARM_OPS(64000),
};
const size_t bench_ops_nip44_warm_count =
    sizeof bench_ops_nip44_warm / sizeof bench_ops_nip44_warm[0];
