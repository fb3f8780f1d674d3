/* Workload: a gift wrap arriving through the relay pool (pool.h), against the least any
 * client does with it. pool_receive takes an ["EVENT","inbox",<wrap>] text through
 * sc_pool_receive and sc_pool_poll (parse, verification, filter, deduplication, the
 * cursor's resume point, the update); relay_parse_verify takes the same text through
 * sc_relay_parse alone (parse and verification). Their difference is the pool's own cost
 * per delivered message, which the report sets against unwrap's (the audit's pool target).
 * WRAPS distinct wraps (each with its own one-time key) cycle; the subscription remembers
 * fewer ids than that, so every call delivers a message the pool has not seen. */
#include <softchat/softchat.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ops.h"
#include "ops_internal.h"

#define WRAPS 64

typedef struct pool_state {
    sc_ctx *ctx;
    sc_pool p;
    void *mem;
    uint32_t relay, sub;
    sc_relay_filter f;
    sc_relay_tag_filter tf;
    sc_str pval;
    uint32_t kind;
    char bob_hex[65];
    char *texts[WRAPS];
    size_t lens[WRAPS];
    unsigned next;
    void *arena;
    size_t arena_cap;
    int64_t now;
} pool_state;

static void pool_teardown(void *p)
{
    pool_state *s = p;
    unsigned i;

    if (s == NULL) {
        return;
    }
    sc_pool_clear(&s->p);
    free(s->mem);
    for (i = 0; i < WRAPS; i++) {
        free(s->texts[i]);
    }
    free(s->arena);
    sc_ctx_free(s->ctx);
    free(s);
}

/* WRAPS texts ["EVENT","inbox",<wrap>], each wrap from alice to bob with fresh randomness. */
static int make_texts(pool_state *s, const sc_identity *alice, const uint8_t alice_pub[32],
                      const uint8_t bob_pub[32])
{
    sc_nip17_peer to;
    sc_nip17_chat m;
    sc_event rumor;
    uint8_t buf[1024];
    char *wrap = NULL;
    void *scratch = NULL;
    size_t cap, scap, len, n, i;
    sc_nip17_wrap w[2];
    int rc = 0;

    memset(&to, 0, sizeof to);
    memcpy(to.pubkey, bob_pub, 32);
    memset(&m, 0, sizeof m);
    m.content = SC_STR("see you at noon");
    m.to = &to;
    m.n_to = 1;
    m.created_at = 1700000000;
    if (sc_nip17_chat_rumor(s->ctx, &rumor, buf, sizeof buf, &m, alice_pub) != SC_OK) {
        return -1;
    }
    cap = sc_nip17_send_max(&rumor, alice_pub, NULL);
    scap = sc_nip17_send_scratch_max(&rumor, alice_pub, NULL);
    wrap = malloc(cap);
    scratch = malloc(scap);
    for (i = 0; rc == 0 && i < WRAPS; i++) {
        rc = wrap != NULL && scratch != NULL &&
                     sc_nip17_send(s->ctx, wrap, cap, &len, w, 2, &n, scratch, scap, &rumor, alice,
                                   NULL) == SC_OK
                 ? 0
                 : -1;
        if (rc == 0) {
            const sc_nip17_wrap *mine = memcmp(w[0].recipient, bob_pub, 32) == 0 ? &w[0] : &w[1];

            s->texts[i] = malloc(mine->len + 32);
            rc = s->texts[i] != NULL ? 0 : -1;
            if (rc == 0) {
                s->lens[i] =
                    (size_t)snprintf(s->texts[i], mine->len + 32, "[\"EVENT\",\"inbox\",%.*s]",
                                     (int)mine->len, wrap + mine->offset);
                if (sc_pool_receive_arena_max(s->lens[i]) > s->arena_cap) {
                    s->arena_cap = sc_pool_receive_arena_max(s->lens[i]);
                }
            }
        }
    }
    free(wrap);
    free(scratch);
    s->arena = rc == 0 ? malloc(s->arena_cap) : NULL;
    return s->arena != NULL ? 0 : -1;
}

/* A pool with one relay and bob's inbox subscription on it, connected, past its EOSE. */
static int open_inbox(pool_state *s)
{
    sc_pool_opts o;
    sc_pool_update u;
    char out[512];
    size_t len = 0, n;

    memset(&o, 0, sizeof o);
    o.max_relays = 1;
    o.max_subs = 1;
    o.seen_per_sub = WRAPS / 2; /* forgets each id before it comes round again */
    n = sc_pool_mem_max(&o);
    s->mem = malloc(n);
    s->kind = 1059;
    s->pval = (sc_str){s->bob_hex, 64};
    s->tf = (sc_relay_tag_filter){.letter = 'p', .values = &s->pval, .n_values = 1};
    s->f.kinds = &s->kind;
    s->f.n_kinds = 1;
    s->f.tags = &s->tf;
    s->f.n_tags = 1;
    s->now = INT64_C(1700000100000);
    if (s->mem == NULL || sc_pool_init(&s->p, s->mem, n, &o) != SC_OK ||
        sc_pool_relay_add(&s->p, &s->relay, SC_STR("wss://inbox.example")) != SC_OK ||
        sc_pool_subscribe(&s->p, &s->sub, SC_STR("inbox"), &s->f, 1, &s->relay, 1, NULL) != SC_OK ||
        sc_pool_poll(&s->p, s->ctx, s->now, &u) != SC_OK || u.kind != SC_POOL_U_CONNECT ||
        sc_pool_connected(&s->p, s->relay, s->now) != SC_OK ||
        sc_pool_next(&s->p, s->relay, out, sizeof out, &len) != SC_OK || len == 0 ||
        sc_pool_receive(&s->p, s->ctx, s->relay, "[\"EOSE\",\"inbox\"]", 16, s->now, s->arena,
                        s->arena_cap) != SC_OK) {
        return -1;
    }
    do {
        if (sc_pool_poll(&s->p, s->ctx, s->now, &u) != SC_OK) {
            return -1;
        }
    } while (u.kind != SC_POOL_U_NONE);
    return 0;
}

static int pool_setup(void **out, const char *backend, size_t bytes)
{
    pool_state *s = calloc(1, sizeof *s);
    sc_identity alice, bob;
    uint8_t a[32], b[32], alice_pub[32], bob_pub[32];
    size_t n;
    int rc;

    (void)bytes;
    *out = s;
    if (s == NULL || bench_ctx_new(&s->ctx, backend) != 0) {
        return -1;
    }
    memset(a, 0x51, sizeof a);
    memset(b, 0x52, sizeof b);
    rc = sc_identity_import(s->ctx, &alice, a) == SC_OK &&
                 sc_identity_import(s->ctx, &bob, b) == SC_OK &&
                 sc_identity_pubkey(alice_pub, &alice) == SC_OK &&
                 sc_identity_pubkey(bob_pub, &bob) == SC_OK &&
                 sc_hex_encode(s->bob_hex, sizeof s->bob_hex, &n, bob_pub, 32) == SC_OK
             ? 0
             : -1;
    s->bob_hex[64] = '\0';
    if (rc == 0) {
        rc = make_texts(s, &alice, alice_pub, bob_pub);
    }
    sc_identity_clear(&alice);
    sc_identity_clear(&bob);
    return rc == 0 ? open_inbox(s) : rc;
}

static int run_pool_receive(void *p, uint64_t n)
{
    pool_state *s = p;
    sc_pool_update u;

    while (n--) {
        unsigned k = s->next;

        s->next = (k + 1) % WRAPS;
        if (sc_pool_receive(&s->p, s->ctx, s->relay, s->texts[k], s->lens[k], s->now, s->arena,
                            s->arena_cap) != SC_OK ||
            sc_pool_poll(&s->p, s->ctx, s->now, &u) != SC_OK || u.kind != SC_POOL_U_EVENT) {
            return -1;
        }
        do {
            if (sc_pool_poll(&s->p, s->ctx, s->now, &u) != SC_OK) {
                return -1;
            }
        } while (u.kind != SC_POOL_U_NONE);
    }
    return 0;
}

static int run_relay_parse(void *p, uint64_t n)
{
    pool_state *s = p;
    sc_relay_msg m;
    size_t used;

    while (n--) {
        unsigned k = s->next;

        s->next = (k + 1) % WRAPS;
        if (sc_relay_parse(s->ctx, &m, s->arena, s->arena_cap, &used, s->texts[k], s->lens[k],
                           NULL) != SC_OK) {
            return -1;
        }
    }
    return 0;
}

const bench_op bench_ops_pool[] = {
    {"pool_receive", 15, pool_setup, run_pool_receive, pool_teardown, 0, 1},
    {"relay_parse_verify", 15, pool_setup, run_relay_parse, pool_teardown, 0, 1},
};
const size_t bench_ops_pool_count = sizeof bench_ops_pool / sizeof bench_ops_pool[0];
