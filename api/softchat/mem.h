/* libsoftchat: wiping secrets and comparing them in constant time.
 *
 * Pure functions: no context, no allocation, no backend. Every other header's secrets are
 * wiped with sc_mem_wipe and every MAC or tag is compared with sc_mem_ct_compare.
 */
#ifndef SOFTCHAT_MEM_H
#define SOFTCHAT_MEM_H

#include "common.h"

SC_BEGIN_DECLS

/** Overwrites p[0..len) with zeros in a way the compiler may not elide (SecureZeroMemory,
 *  memset_s, explicit_bzero, or a volatile loop).
 *  In/Out: p: len bytes; NULL is accepted when len is 0.
 *  Constant time: in the contents of p (the time depends on len only). RNG: no. */
SC_API void sc_mem_wipe(void *p, size_t len);

/** Compares a[0..len) and b[0..len).
 *  Returns: 0 if the two are equal, non-zero otherwise (an int, never an sc_status).
 *  In: a, b: len bytes each; NULL is accepted when len is 0.
 *  Constant time: in the contents of a and b (the time depends on len only). RNG: no. */
SC_API int sc_mem_ct_compare(const void *a, const void *b, size_t len);

SC_END_DECLS

#endif
