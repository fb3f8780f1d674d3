/* secp256k1 checks for classifying ECDH test cases (does an x lift, is (x, y) on the curve,
 * is a scalar in range), answered by libsecp256k1's parsers through its static context: a
 * different code path from the ECDH under test, and no curve arithmetic written here. */
#ifndef SOFTCHAT_TESTS_VT_SECP_H
#define SOFTCHAT_TESTS_VT_SECP_H

#include <stdint.h>

/* 1 if x < p and x^3 + 7 is a square mod p (big-endian x). */
int vt_secp_x_lifts(const uint8_t x[32]);

/* 1 if x, y < p and y^2 == x^3 + 7 mod p (big-endian). */
int vt_secp_on_curve(const uint8_t x[32], const uint8_t y[32]);

/* 1 if 0 < k < n, the group order (big-endian k). */
int vt_secp_scalar_ok(const uint8_t k[32]);

/* The unhashed x coordinate of sec * lift_x(pub) (what NIP-44 hashes), by libsecp256k1's
 * ECDH on its static context, apart from the library's curve adapter. Returns 1, or 0 (x
 * zeroed) for a key out of range or a pub that does not lift. */
int vt_secp_ecdh_x(uint8_t x[32], const uint8_t sec[32], const uint8_t pub[32]);

#endif
