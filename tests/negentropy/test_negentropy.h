/* The NIP-77 Negentropy suite: shared state and helpers. */
#ifndef SOFTCHAT_TESTS_NEGENTROPY_H
#define SOFTCHAT_TESTS_NEGENTROPY_H

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <softchat/softchat.h>

#include "vectors_util.h"

typedef struct neg_env {
    sc_ctx ctx;
    const char *backend;
} neg_env;

/* Two record sets of n each, `unique` of them only on each side, timestamps in a window of
 * `window` seconds (narrow: many records share one), sorted. Caller frees both. */
void neg_make_sets(uint64_t seed, size_t n, size_t unique, uint64_t window, sc_negentropy_item **a,
                   sc_negentropy_item **b);

/* Runs a full reconciliation of a (initiator) against b (responder) with the frame limit,
 * checking every message's size and that the initiator learns exactly the difference.
 * Returns the number of rounds. */
size_t neg_reconcile_check(sc_ctx *ctx, const sc_negentropy_item *a, size_t na,
                           const sc_negentropy_item *b, size_t nb, size_t limit);

void test_varint(void **state);
void test_bounds(void **state);
void test_fingerprint(void **state);
void test_initiate_shape(void **state);
void test_round_sizes(void **state);
void test_round_limits(void **state);
void test_round_edges(void **state);
void test_version(void **state);
void test_malformed(void **state);
void test_frame_edges(void **state);
void test_hostile_idlist(void **state);
void test_buffers(void **state);
void test_init_checks(void **state);
void test_args(void **state);

#endif
