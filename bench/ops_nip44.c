/* Workload: identity import and NIP-44 (full calls with the conversation key derived each
 * time, and held conversations). */
#include <softchat/softchat.h>

#include <stdlib.h>
#include <string.h>

#include "ops.h"
#include "ops_internal.h"

typedef struct nip44_state {
    sc_ctx *ctx;
    sc_identity me;
    uint8_t sec[32], peer_pub[32];
    sc_nip44_conversation conv;
    uint8_t *plain;
    size_t len;
    char *payload; /* a valid payload of len bytes (for decrypt) */
    size_t payload_len;
    char *out;     /* encrypt output */
    uint8_t *dec;  /* decrypt output */
    size_t out_cap, dec_cap;
} nip44_state;

static void nip44_teardown(void *p)
{
    nip44_state *s = p;

    if (s == NULL) {
        return;
    }
    sc_identity_clear(&s->me);
    sc_nip44_conversation_clear(&s->conv);
    sc_ctx_free(s->ctx);
    free(s->plain);
    free(s->payload);
    free(s->out);
    free(s->dec);
    free(s);
}

static int nip44_setup(void **out, const char *backend, size_t bytes)
{
    nip44_state *s = calloc(1, sizeof *s);
    sc_identity peer;
    uint8_t peer_sec[32];
    size_t n;

    *out = s;
    if (s == NULL || bench_ctx_new(&s->ctx, backend) != 0) {
        return -1;
    }
    memset(s->sec, 0x11, 32);
    memset(peer_sec, 0x22, 32);
    if (sc_identity_import(s->ctx, &s->me, s->sec) != SC_OK ||
        sc_identity_import(s->ctx, &peer, peer_sec) != SC_OK ||
        sc_identity_pubkey(s->peer_pub, &peer) != SC_OK ||
        sc_nip44_conversation_init(s->ctx, &s->conv, &s->me, s->peer_pub) != SC_OK) {
        return -1;
    }
    sc_identity_clear(&peer);
    s->len = bytes;
    s->out_cap = sc_nip44_encrypt_len(bytes);
    s->dec_cap = sc_nip44_decrypt_max(s->out_cap);
    s->plain = malloc(bytes);
    s->payload = malloc(s->out_cap);
    s->out = malloc(s->out_cap);
    s->dec = malloc(s->dec_cap);
    if (s->plain == NULL || s->payload == NULL || s->out == NULL || s->dec == NULL) {
        return -1;
    }
    bench_fill(s->plain, bytes, 44);
    if (sc_nip44_conversation_encrypt(s->ctx, s->payload, s->out_cap, &n, &s->conv, s->plain, bytes, 0) != SC_OK) {
        return -1;
    }
    s->payload_len = n;
    return 0;
}

static int run_encrypt(void *p, uint64_t n)
{
    nip44_state *s = p;
    uint8_t ck[32];
    size_t len;

    while (n--) {
        if (sc_nip44_conversation_key(s->ctx, ck, s->sec, s->peer_pub) != SC_OK ||
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
        if (sc_nip44_conversation_key(s->ctx, ck, s->sec, s->peer_pub) != SC_OK ||
            sc_nip44_decrypt(s->ctx, s->dec, s->dec_cap, &len, ck, s->payload, s->payload_len,
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
        if (sc_nip44_conversation_encrypt(s->ctx, s->out, s->out_cap, &len, &s->conv, s->plain, s->len, 0) != SC_OK) {
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
        if (sc_nip44_conversation_decrypt(s->ctx, s->dec, s->dec_cap, &len, &s->conv, s->payload, s->payload_len, 0) != SC_OK) {
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

#define NIP44_OPS(size)                                                                      \
    {"nip44_encrypt", size, nip44_setup, run_encrypt, nip44_teardown, 0, 1},                    \
        {"nip44_decrypt", size, nip44_setup, run_decrypt, nip44_teardown, 0, 1},                \
        {"nip44_encrypt_held", size, nip44_setup, run_encrypt_held, nip44_teardown, 0, 1},      \
        {"nip44_decrypt_held", size, nip44_setup, run_decrypt_held, nip44_teardown, 0, 1}

const bench_op bench_ops_nip44[] = {
    {"import_identity", 32, nip44_setup, run_import, nip44_teardown, 0, 1},
    NIP44_OPS(32),
    NIP44_OPS(1024),
    NIP44_OPS(64000),
};
const size_t bench_ops_nip44_count = sizeof bench_ops_nip44 / sizeof bench_ops_nip44[0];
