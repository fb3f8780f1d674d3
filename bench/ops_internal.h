/* The per-area workload tables, gathered by ops.c. */
#ifndef SOFTCHAT_BENCH_OPS_INTERNAL_H
#define SOFTCHAT_BENCH_OPS_INTERNAL_H

#include "harness.h"

extern const bench_op bench_ops_nip44[];
extern const size_t bench_ops_nip44_count;
extern const bench_op bench_ops_event[];
extern const size_t bench_ops_event_count;
extern const bench_op bench_ops_msg[]; /* NIP-59, NIP-17 and attachments */
extern const size_t bench_ops_msg_count;
extern const bench_op bench_ops_negentropy[]; /* NIP-77 (ops_negentropy.c) */
extern const size_t bench_ops_negentropy_count;
extern const bench_op bench_ops_pool[]; /* the relay pool (ops_pool.c) */
extern const size_t bench_ops_pool_count;
extern const bench_op bench_ops_nip49[]; /* NIP-49 ncryptsec per scrypt cost (ops_nip49.c) */
extern const size_t bench_ops_nip49_count;
/* The cache-warm rows (one peer, receiver or sender repeated), after every other. */
extern const bench_op bench_ops_nip44_warm[];
extern const size_t bench_ops_nip44_warm_count;
extern const bench_op bench_ops_msg_warm[];
extern const size_t bench_ops_msg_warm_count;
extern const bench_op bench_floor_secp[];
extern const size_t bench_floor_secp_count;
extern const bench_op bench_floor_prims[];
extern const size_t bench_floor_prims_count;

#endif
