/* The NEON base64 kernels for aarch64: 48 bytes <-> 64 characters per step. vld3/vld4
 * de-interleave the bytes or characters into lanes, shifts and masks split or join the
 * sextets, and TBL/TBX look the alphabet up in 64 bytes held in four registers, so neither
 * direction indexes memory by data (TBL's timing does not depend on the index values).
 * Decoding maps each character through two 64-entry register tables (characters 0..63 and
 * 64..127), in which a character outside the alphabet maps to 0xff; the OR of every mapped
 * value and every character has its top bit set exactly when some character was outside
 * the alphabet (a character >= 128 maps to 0 and carries its own top bit).
 *
 * Like core/util/base64_simd.c (SSSE3) this file has one architecture condition: it compiles
 * to the kernels on aarch64 with GCC or Clang and to "no kernel" elsewhere. The kernel is
 * picked at each call: on Linux and Android from the ASIMD bit of the kernel's hardware
 * capabilities (getauxval), elsewhere (Apple) Advanced SIMD is part of every arm64 CPU. */
#include "util/base64_internal.h"

#if defined(__aarch64__) && defined(__ARM_NEON) && (defined(__GNUC__) || defined(__clang__))

#include <arm_neon.h>

#if defined(__linux__)
#include <sys/auxv.h>
#define SC_HWCAP_ASIMD (1ul << 1) /* asm/hwcap.h's HWCAP_ASIMD on arm64 */

int sc_b64_neon_available(void)
{
    return (getauxval(AT_HWCAP) & SC_HWCAP_ASIMD) != 0;
}
#else
int sc_b64_neon_available(void)
{
    return 1;
}
#endif

static const uint8_t enc_alphabet[64] = {
    'A', 'B', 'C', 'D', 'E', 'F', 'G', 'H', 'I', 'J', 'K', 'L', 'M', 'N', 'O', 'P',
    'Q', 'R', 'S', 'T', 'U', 'V', 'W', 'X', 'Y', 'Z', 'a', 'b', 'c', 'd', 'e', 'f',
    'g', 'h', 'i', 'j', 'k', 'l', 'm', 'n', 'o', 'p', 'q', 'r', 's', 't', 'u', 'v',
    'w', 'x', 'y', 'z', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9', '+', '/'};

/* sextet of characters 0..63 and 64..127; 255: not in the alphabet */
static const uint8_t dec_low[64] = {255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255,
                                    255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255,
                                    255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255,
                                    255, 255, 255, 255, 62,  255, 255, 255, 63,  52,  53,  54,  55,
                                    56,  57,  58,  59,  60,  61,  255, 255, 255, 255, 255, 255};
static const uint8_t dec_high[64] = {255, 0,   1,   2,   3,   4,   5,   6,   7,   8,   9,   10, 11,
                                     12,  13,  14,  15,  16,  17,  18,  19,  20,  21,  22,  23, 24,
                                     25,  255, 255, 255, 255, 255, 255, 26,  27,  28,  29,  30, 31,
                                     32,  33,  34,  35,  36,  37,  38,  39,  40,  41,  42,  43, 44,
                                     45,  46,  47,  48,  49,  50,  51,  255, 255, 255, 255, 255};

static uint8x16x4_t table64(const uint8_t t[64])
{
    uint8x16x4_t r;
    r.val[0] = vld1q_u8(t);
    r.val[1] = vld1q_u8(t + 16);
    r.val[2] = vld1q_u8(t + 32);
    r.val[3] = vld1q_u8(t + 48);
    return r;
}

size_t sc_b64_neon_encode(char *out, const uint8_t *in, size_t in_len)
{
    const uint8x16x4_t alphabet = table64(enc_alphabet);
    const uint8x16_t m63 = vdupq_n_u8(63);
    size_t i = 0, o = 0;

    for (; i + 48 <= in_len; i += 48, o += 64) {
        uint8x16x3_t x = vld3q_u8(in + i); /* lane j: bytes 3j, 3j+1, 3j+2 */
        uint8x16x4_t s;

        s.val[0] = vshrq_n_u8(x.val[0], 2);
        s.val[1] = vandq_u8(vorrq_u8(vshlq_n_u8(x.val[0], 4), vshrq_n_u8(x.val[1], 4)), m63);
        s.val[2] = vandq_u8(vorrq_u8(vshlq_n_u8(x.val[1], 2), vshrq_n_u8(x.val[2], 6)), m63);
        s.val[3] = vandq_u8(x.val[2], m63);
        s.val[0] = vqtbl4q_u8(alphabet, s.val[0]);
        s.val[1] = vqtbl4q_u8(alphabet, s.val[1]);
        s.val[2] = vqtbl4q_u8(alphabet, s.val[2]);
        s.val[3] = vqtbl4q_u8(alphabet, s.val[3]);
        vst4q_u8((uint8_t *)out + o, s); /* characters 4j .. 4j+3 */
    }
    return i;
}

size_t sc_b64_neon_decode(uint8_t *out, const char *in, size_t in_len, unsigned *bad)
{
    const uint8x16x4_t low = table64(dec_low), high = table64(dec_high);
    const uint8x16_t k64 = vdupq_n_u8(64);
    uint8x16_t err = vdupq_n_u8(0);
    size_t i = 0, o = 0;

    for (; i + 64 <= in_len; i += 64, o += 48) {
        uint8x16x4_t c = vld4q_u8((const uint8_t *)in + i); /* lane j: characters 4j..4j+3 */
        uint8x16x4_t v;
        uint8x16x3_t b;
        int k;

        for (k = 0; k < 4; k++) {
            /* TBL gives 0 for an index >= 64, TBX keeps the lane: characters below 64 come
             * from `low`, 64..127 from `high`, the rest stay 0 */
            v.val[k] = vqtbx4q_u8(vqtbl4q_u8(low, c.val[k]), high, vsubq_u8(c.val[k], k64));
            err = vorrq_u8(err, vorrq_u8(v.val[k], c.val[k]));
        }
        b.val[0] = vorrq_u8(vshlq_n_u8(v.val[0], 2), vshrq_n_u8(v.val[1], 4));
        b.val[1] = vorrq_u8(vshlq_n_u8(v.val[1], 4), vshrq_n_u8(v.val[2], 2));
        b.val[2] = vorrq_u8(vshlq_n_u8(v.val[2], 6), v.val[3]);
        vst3q_u8(out + o, b);
    }
    *bad |= (unsigned)(vmaxvq_u8(err) >> 7);
    return i;
}

#else /* no NEON kernel in this build */

SC_B64_NO_KERNEL(neon)

#endif
