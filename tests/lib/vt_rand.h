/* A small seeded generator (splitmix64) for reproducible random test inputs. Not for keys
 * outside tests. */
#ifndef SOFTCHAT_TESTS_VT_RAND_H
#define SOFTCHAT_TESTS_VT_RAND_H

#include <stddef.h>
#include <stdint.h>

void vt_rand_seed(uint64_t seed);
uint64_t vt_rand_u64(void);
/* Uniform in [0, n) for n >= 1. */
size_t vt_rand_below(size_t n);
void vt_rand_bytes(uint8_t *out, size_t n);
/* A seed from the clock and the process id, for runs that should vary. */
uint64_t vt_rand_fresh_seed(void);

#endif
