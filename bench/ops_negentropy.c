/* Workload: NIP-77 Negentropy. One call reconciles 100,000 records against 100,000 of which
 * 1,000 differ on each side (the initiator and the responder both this library, in one
 * process, no frame limit), from the first message to the initiator's "done"; every id of
 * the difference is learned. The records share timestamps in small groups, so bounds carry
 * id prefixes as in real event sets. */
#include <softchat/softchat.h>

#include <stdlib.h>
#include <string.h>

#include "ops.h"
#include "ops_internal.h"

#define RECORDS 100000u
#define UNIQUE 1000u

typedef struct neg_state {
    sc_ctx *ctx;
    sc_negentropy_item *a, *b;
    uint8_t *msg, *reply;
    size_t msg_cap, reply_cap;
    size_t *have;
    uint8_t (*need)[32];
    size_t need_cap;
} neg_state;

static void neg_teardown(void *p)
{
    neg_state *s = p;

    if (s == NULL) {
        return;
    }
    sc_ctx_free(s->ctx);
    free(s->a);
    free(s->b);
    free(s->msg);
    free(s->reply);
    free(s->have);
    free(s->need);
    free(s);
}

static void records(sc_negentropy_item *v, size_t n, unsigned seed)
{
    size_t i;

    for (i = 0; i < n; i++) {
        bench_fill(v[i].id, 32, (seed << 20) | (unsigned)i); /* distinct per (seed, i) */
        v[i].timestamp = 1700000000u + i / 4;                /* groups of four share a second */
    }
}

static int neg_setup(void **state, const char *backend, size_t bytes)
{
    neg_state *s = calloc(1, sizeof *s);

    (void)bytes;
    *state = s;
    if (s == NULL || bench_ctx_new(&s->ctx, backend) != 0) {
        return -1;
    }
    s->a = malloc(RECORDS * sizeof *s->a);
    s->b = malloc(RECORDS * sizeof *s->b);
    s->have = malloc(RECORDS * sizeof *s->have);
    if (s->a == NULL || s->b == NULL || s->have == NULL) {
        return -1;
    }
    records(s->a, RECORDS, 1);
    memcpy(s->b, s->a, RECORDS * sizeof *s->a);
    records(s->a + RECORDS - UNIQUE, UNIQUE, 2);
    records(s->b + RECORDS - UNIQUE, UNIQUE, 3);
    if (sc_negentropy_sort(s->a, RECORDS) != SC_OK || sc_negentropy_sort(s->b, RECORDS) != SC_OK) {
        return -1;
    }
    /* buffers for the largest message of this exchange, sized once */
    s->msg_cap = s->reply_cap = (size_t)8 << 20;
    s->need_cap = s->reply_cap / 32;
    s->msg = malloc(s->msg_cap);
    s->reply = malloc(s->reply_cap);
    s->need = malloc(s->need_cap * 32);
    return (s->msg == NULL || s->reply == NULL || s->need == NULL) ? -1 : 0;
}

static int run_sync(void *p, uint64_t n)
{
    neg_state *s = p;
    uint64_t k;

    for (k = 0; k < n; k++) {
        sc_negentropy ia, rb;
        size_t len = 0, rlen = 0, hl = 0, nl = 0, have = 0, need = 0;

        if (sc_negentropy_init(&ia, s->a, RECORDS, NULL) != SC_OK ||
            sc_negentropy_init(&rb, s->b, RECORDS, NULL) != SC_OK ||
            sc_negentropy_initiate(s->ctx, &ia, s->msg, s->msg_cap, &len) != SC_OK) {
            return -1;
        }
        while (len > 0) {
            if (sc_negentropy_reconcile(s->ctx, &rb, s->reply, s->reply_cap, &rlen, NULL, 0, &hl,
                                        NULL, 0, &nl, s->msg, len) != SC_OK ||
                sc_negentropy_reconcile(s->ctx, &ia, s->msg, s->msg_cap, &len, s->have, RECORDS,
                                        &hl, s->need, s->need_cap, &nl, s->reply, rlen) != SC_OK) {
                return -1;
            }
            have += hl;
            need += nl;
        }
        if (have != UNIQUE || need != UNIQUE) {
            return -1; /* the benchmark measures a correct reconciliation only */
        }
    }
    return 0;
}

const bench_op bench_ops_negentropy[] = {
    {"negentropy_sync", RECORDS, neg_setup, run_sync, neg_teardown, 0, 1},
};
const size_t bench_ops_negentropy_count =
    sizeof bench_ops_negentropy / sizeof bench_ops_negentropy[0];
