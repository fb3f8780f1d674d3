/* The base64 kernels: the portable one in core/util/base64.c, which picks a bulk kernel per
 * call, and the SIMD ones in core/util/base64_simd.c (SSSE3) and core/util/base64_neon.c
 * (NEON). Exercised directly by the tests so that every kernel the machine can run is checked
 * against the same cases. */
#ifndef SOFTCHAT_CORE_BASE64_INTERNAL_H
#define SOFTCHAT_CORE_BASE64_INTERNAL_H

#include <softchat/mem.h>
#include <softchat/base64.h>

#include <stddef.h>
#include <stdint.h>

/* Which bulk kernel encodes and decodes the body of a string. All compute the same function;
 * the tail (and the last quad, which may carry padding) is always done by the portable code. */
typedef enum {
    SC_B64_PORTABLE = 0, /* 64-bit words (SWAR), any CPU */
    SC_B64_SSSE3 = 1,    /* 16 characters per step with SSSE3 byte shuffles (x86-64) */
    SC_B64_NEON = 2      /* 64 characters per step with NEON table lookups (aarch64) */
} sc_b64_kernel;

#define SC_B64_KERNELS 3 /* kernels 0 .. SC_B64_KERNELS - 1 */

/* The fastest kernel this CPU runs: SC_B64_SSSE3 on x86-64 CPUs with SSSE3, SC_B64_NEON on
 * aarch64 CPUs with Advanced SIMD, otherwise SC_B64_PORTABLE. Reads the CPU's feature flags;
 * no state is kept. */
sc_b64_kernel sc_b64_best_kernel(void);

/* 1 when this build has kernel k and this CPU runs it (SC_B64_PORTABLE: always), else 0. */
int sc_b64_kernel_available(sc_b64_kernel k);

/* 1 when this build has the SSSE3 (NEON) kernel and the CPU runs it, else 0
 * (core/util/base64_simd.c, core/util/base64_neon.c). */
int sc_b64_ssse3_available(void);
int sc_b64_neon_available(void);

/* SSSE3 bulk encoding: encodes 12-byte blocks of in while 16 bytes are readable from the block
 * start, writing 16 characters per block to out. Returns the bytes consumed (a multiple of 12;
 * 0 when the build has no SSSE3 kernel). Callers ensure the CPU has SSSE3. */
size_t sc_b64_ssse3_encode(char *out, const uint8_t *in, size_t in_len);

/* SSSE3 bulk decoding: decodes 16-character blocks of in (no padding) into 12 bytes each.
 * Returns the characters consumed (a multiple of 16; 0 without an SSSE3 kernel). Characters
 * outside the alphabet set *bad to non-zero; the work does not depend on the characters. */
size_t sc_b64_ssse3_decode(uint8_t *out, const char *in, size_t in_len, unsigned *bad);

/* NEON bulk encoding: encodes 48-byte blocks of in into 64 characters each. Returns the bytes
 * consumed (a multiple of 48; 0 when the build has no NEON kernel). Callers ensure the CPU
 * has Advanced SIMD. */
size_t sc_b64_neon_encode(char *out, const uint8_t *in, size_t in_len);

/* NEON bulk decoding: decodes 64-character blocks of in (no padding) into 48 bytes each.
 * Returns the characters consumed (a multiple of 64; 0 without a NEON kernel). Characters
 * outside the alphabet set *bad to non-zero; the work does not depend on the characters. */
size_t sc_b64_neon_decode(uint8_t *out, const char *in, size_t in_len, unsigned *bad);

/* The definitions a SIMD kernel file gives in a build without its kernel (another
 * architecture or compiler): not available, and bulk calls that consume nothing. `name` is
 * ssse3 or neon. */
#define SC_B64_NO_KERNEL(name)                                                                     \
    int sc_b64_##name##_available(void)                                                            \
    {                                                                                              \
        return 0;                                                                                  \
    }                                                                                              \
    size_t sc_b64_##name##_encode(char *out, const uint8_t *in, size_t in_len)                     \
    {                                                                                              \
        (void)out;                                                                                 \
        (void)in;                                                                                  \
        (void)in_len;                                                                              \
        return 0;                                                                                  \
    }                                                                                              \
    size_t sc_b64_##name##_decode(uint8_t *out, const char *in, size_t in_len, unsigned *bad)      \
    {                                                                                              \
        (void)out;                                                                                 \
        (void)in;                                                                                  \
        (void)in_len;                                                                              \
        (void)bad;                                                                                 \
        return 0;                                                                                  \
    }

/* sc_base64_encode and sc_base64_decode with an explicit kernel (same contracts; a kernel
 * this build or CPU lacks must not be passed: see sc_b64_kernel_available). */
sc_status sc_b64_encode_with(sc_b64_kernel k, char *out, size_t out_cap, size_t *out_len,
                             const uint8_t *in, size_t in_len);
sc_status sc_b64_decode_with(sc_b64_kernel k, uint8_t *out, size_t out_cap, size_t *out_len,
                             const char *b64, size_t b64_len);

#endif
