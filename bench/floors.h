/* Floors: what an operation's cryptography alone costs, composed from the floor rows. */
#ifndef SOFTCHAT_BENCH_FLOORS_H
#define SOFTCHAT_BENCH_FLOORS_H

#include <stddef.h>

#include "result.h"

/* The floor of operation (op, bytes) in ns, from rows measured in the same run: the sum of
 * its primitives, each at the fastest backend's median for that size, and the libsecp256k1
 * costs. *curve_only is set when only the curve part is known (NIP-59/17 operations, whose
 * inner sizes vary). Returns -1 when the operation has no floor. */
double bench_floor_ns(const bench_row *rows, size_t n, const char *op, size_t bytes,
                      int *curve_only);

/* Whether operation (op, bytes) makes libsecp256k1 calls: 1 when its composition has a curve
 * part or the operation is not known here, 0 when it is known to make none (held NIP-44,
 * attachments, nip59_rumor). A build against another libsecp256k1 runs the same code for an
 * operation without curve calls, so a difference between the two builds there is noise. */
int bench_floor_uses_curve(const char *op, size_t bytes);

/* A short text describing the composition (for the report). */
const char *bench_floor_formula(const char *op, size_t bytes);

#endif
