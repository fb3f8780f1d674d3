/* The SSSE3 base64 kernels: 12 bytes <-> 16 characters per step, using byte shuffles as
 * 16-entry register tables, so neither direction indexes memory by data. Decoding validates
 * each character by its two nibbles: a character is in the alphabet exactly when the class
 * bits of its high nibble and the "not valid with this high nibble" bits of its low nibble
 * have nothing in common.
 *
 * This file has one architecture condition (as core/util/base64_neon.c has for aarch64): it
 * compiles to the x86-64 kernels with GCC or Clang (function-level target attributes, so the
 * library still runs on any x86-64 CPU) and to "no kernel" elsewhere. */
#include "util/base64_internal.h"

#include <string.h>

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))

#include <tmmintrin.h>

#define SC_SSSE3 __attribute__((target("ssse3")))

int sc_b64_ssse3_available(void)
{
    return __builtin_cpu_supports("ssse3") ? 1 : 0;
}

/* 12 bytes (in the low 12 lanes) -> 16 characters. */
SC_SSSE3 static __m128i encode_block(__m128i in)
{
    /* each 32-bit lane gets the bytes b, a, c, b of its group a b c, so that the low 16-bit
     * word reads a:b and the high word b:c */
    const __m128i spread = _mm_set_epi8(10, 11, 9, 10, 7, 8, 6, 7, 4, 5, 3, 4, 1, 2, 0, 1);
    const __m128i lut =
        _mm_setr_epi8(71, -4, -4, -4, -4, -4, -4, -4, -4, -4, -4, -19, -16, 65, 0, 0);
    __m128i x = _mm_shuffle_epi8(in, spread);
    /* sextets 0 and 2 sit at bits 15..10 and 11..6 of their words: shift them to bit 0 */
    __m128i s02 =
        _mm_mulhi_epu16(_mm_and_si128(x, _mm_set1_epi32(0x0fc0fc00)), _mm_set1_epi32(0x04000040));
    /* sextets 1 and 3 sit at bits 9..4 and 5..0: shift them to bit 8 */
    __m128i s13 =
        _mm_mullo_epi16(_mm_and_si128(x, _mm_set1_epi32(0x003f03f0)), _mm_set1_epi32(0x01000010));
    __m128i v = _mm_or_si128(s02, s13);
    /* offset index: 0 for 26..51, 1..12 for 52..63, 13 for 0..25 */
    __m128i idx = _mm_subs_epu8(v, _mm_set1_epi8(51));
    idx = _mm_or_si128(idx, _mm_and_si128(_mm_cmpgt_epi8(_mm_set1_epi8(26), v), _mm_set1_epi8(13)));
    return _mm_add_epi8(v, _mm_shuffle_epi8(lut, idx));
}

SC_SSSE3 size_t sc_b64_ssse3_encode(char *out, const uint8_t *in, size_t in_len)
{
    size_t i = 0, o = 0;

    for (; i + 16 <= in_len; i += 12, o += 16) {
        __m128i c = encode_block(_mm_loadu_si128((const __m128i *)(const void *)(in + i)));
        _mm_storeu_si128((__m128i *)(void *)(out + o), c);
    }
    return i;
}

SC_SSSE3 size_t sc_b64_ssse3_decode(uint8_t *out, const char *in, size_t in_len, unsigned *bad)
{
    /* class bit of each high nibble: 2 -> 0x01, 3 -> 0x02, 4 and 6 -> 0x04, 5 and 7 -> 0x08,
     * the rest -> 0x10 (no character valid) */
    const __m128i hi_class = _mm_setr_epi8(0x10, 0x10, 0x01, 0x02, 0x04, 0x08, 0x04, 0x08, 0x10,
                                           0x10, 0x10, 0x10, 0x10, 0x10, 0x10, 0x10);
    /* for each low nibble, the classes in which it is not part of the alphabet */
    const __m128i lo_invalid = _mm_setr_epi8(0x15, 0x11, 0x11, 0x11, 0x11, 0x11, 0x11, 0x11, 0x11,
                                             0x11, 0x13, 0x1a, 0x1b, 0x1b, 0x1b, 0x1a);
    /* added to a character to get its sextet, by high nibble ('/' uses index 1) */
    const __m128i roll = _mm_setr_epi8(0, 16, 19, 4, -65, -65, -71, -71, 0, 0, 0, 0, 0, 0, 0, 0);
    const __m128i nib = _mm_set1_epi8(0x0f);
    const __m128i pack = _mm_setr_epi8(2, 1, 0, 6, 5, 4, 10, 9, 8, 14, 13, 12, -1, -1, -1, -1);
    __m128i err = _mm_setzero_si128();
    size_t i = 0, o = 0;

    for (; i + 16 <= in_len; i += 16, o += 12) {
        __m128i c = _mm_loadu_si128((const __m128i *)(const void *)(in + i));
        __m128i hi = _mm_and_si128(_mm_srli_epi32(c, 4), nib);
        __m128i lo = _mm_and_si128(c, nib);
        __m128i slash = _mm_cmpeq_epi8(c, _mm_set1_epi8('/'));
        __m128i v, w;
        uint32_t last;

        err = _mm_or_si128(
            err, _mm_and_si128(_mm_shuffle_epi8(lo_invalid, lo), _mm_shuffle_epi8(hi_class, hi)));
        v = _mm_add_epi8(c, _mm_shuffle_epi8(roll, _mm_add_epi8(hi, slash)));
        /* lanes s0 s1 s2 s3 -> 16-bit s0:s1, s2:s3 -> 24-bit s0:s1:s2:s3 per 32-bit lane */
        w = _mm_maddubs_epi16(v, _mm_set1_epi32(0x01400140));
        w = _mm_madd_epi16(w, _mm_set1_epi32(0x00011000));
        w = _mm_shuffle_epi8(w, pack);
        _mm_storel_epi64((__m128i *)(void *)(out + o), w);
        last = (uint32_t)_mm_cvtsi128_si32(_mm_srli_si128(w, 8));
        memcpy(out + o + 8, &last, 4);
    }
    *bad |= (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(err, _mm_setzero_si128())) ^ 0xffffu;
    return i;
}

#else /* no SSSE3 kernel in this build */

SC_B64_NO_KERNEL(ssse3)

#endif
