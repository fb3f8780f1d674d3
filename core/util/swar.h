/* Eight bytes at a time in a uint64_t ("SIMD within a register"): the byte-class tests the
 * JSON writer, the JSON scanner and the UTF-8 check skip plain text with. Loads assemble the
 * word from bytes, so the results do not depend on the host's byte order; every test says
 * only whether some byte of the word is in the class (callers locate it byte by byte). */
#ifndef SOFTCHAT_CORE_SWAR_H
#define SOFTCHAT_CORE_SWAR_H

#include <stddef.h>
#include <stdint.h>

#define SC_SWAR_ONES UINT64_C(0x0101010101010101)
#define SC_SWAR_HIGHS UINT64_C(0x8080808080808080)

/* The eight bytes at p, p[0] lowest. */
static inline uint64_t sc_swar_load(const uint8_t *p)
{
    return (uint64_t)p[0] | (uint64_t)p[1] << 8 | (uint64_t)p[2] << 16 | (uint64_t)p[3] << 24 |
           (uint64_t)p[4] << 32 | (uint64_t)p[5] << 40 | (uint64_t)p[6] << 48 |
           (uint64_t)p[7] << 56;
}

/* Nonzero when some byte of x is zero. A borrow can only flag a byte above one that is truly
 * zero, so zero ("none") is exact. */
static inline uint64_t sc_swar_has_zero(uint64_t x)
{
    return (x - SC_SWAR_ONES) & ~x & SC_SWAR_HIGHS;
}

/* Nonzero when some byte of x is c. */
static inline uint64_t sc_swar_has_byte(uint64_t x, uint8_t c)
{
    return sc_swar_has_zero(x ^ (SC_SWAR_ONES * c));
}

/* Nonzero when some byte of x is below 0x20 (a C0 control); bytes >= 0x80 never count. */
static inline uint64_t sc_swar_has_control(uint64_t x)
{
    return (x - SC_SWAR_ONES * 0x20) & ~x & SC_SWAR_HIGHS;
}

/* Nonzero when some byte of x needs a JSON escape: a C0 control, '"' or '\\'. */
static inline uint64_t sc_swar_json_special(uint64_t x)
{
    return sc_swar_has_control(x) | sc_swar_has_byte(x, '"') | sc_swar_has_byte(x, '\\');
}

/* Nonzero when some byte of x is not ASCII (>= 0x80). */
static inline uint64_t sc_swar_non_ascii(uint64_t x)
{
    return x & SC_SWAR_HIGHS;
}

#endif
