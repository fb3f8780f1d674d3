/* ctest platform.base64-kernels: every base64 kernel this CPU runs against the portable one
 * on NIP-44-sized strings, and a timing of each (under qemu the ratio says how the emulator
 * runs the instructions, not how a CPU would: it is printed, never asserted).
 *   base64_kernels [--reps N]                        agree + time (default 200 reps)
 *   base64_kernels --once KERNEL encode|decode|prepare BYTES
 *       one call, for instruction counts (scripts/count-insns.sh): encode BYTES random bytes,
 *       or encode them with the portable kernel and then decode them (prepare: only encode)
 * KERNEL: portable, ssse3, neon. Exit 0 when every kernel agrees, 77 when KERNEL is not
 * available on this CPU, 1 on a disagreement. */
#define _POSIX_C_SOURCE 199309L
#include "util/base64_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define RAW 65535               /* the NIP-44 plaintext limit, padded: the largest payload */
#define B64 ((RAW + 2) / 3 * 4) /* 87,380 characters */

static const char *const names[SC_B64_KERNELS] = {"portable", "ssse3", "neon"};
static uint8_t raw[RAW], back[RAW];
static char enc[B64 + 4], ref[B64 + 4];

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static void fill(uint64_t seed)
{
    size_t i;
    for (i = 0; i < RAW; i++) {
        seed = seed * 6364136223846793005ull + 1442695040888963407ull;
        raw[i] = (uint8_t)(seed >> 56);
    }
}

static int kernel_named(const char *s)
{
    int k;
    for (k = 0; k < SC_B64_KERNELS; k++) {
        if (strcmp(s, names[k]) == 0) {
            return k;
        }
    }
    return -1;
}

static int once(int argc, char **argv)
{
    int k;
    size_t n, len = 0;
    sc_status st;

    if (argc != 5 || (k = kernel_named(argv[2])) < 0) {
        fprintf(stderr, "usage: base64_kernels --once portable|ssse3|neon "
                        "encode|decode|prepare BYTES\n");
        return 2;
    }
    if (!sc_b64_kernel_available((sc_b64_kernel)k)) {
        printf("kernel %s: not available on this CPU\n", names[k]);
        return 77;
    }
    n = (size_t)strtoul(argv[4], NULL, 10);
    if (n > RAW) {
        n = RAW;
    }
    fill(1);
    if (strcmp(argv[3], "encode") == 0) {
        st = sc_b64_encode_with((sc_b64_kernel)k, ref, sizeof ref, &len, raw, n);
        return st == SC_OK ? 0 : 1;
    }
    /* decode: the input is prepared first by the portable kernel; "prepare" stops there
     * (the baseline that scripts/count-insns.sh subtracts) */
    st = sc_b64_encode_with(SC_B64_PORTABLE, enc, sizeof enc, &len, raw, n);
    if (st != SC_OK || strcmp(argv[3], "prepare") == 0) {
        return st == SC_OK ? 0 : 1;
    }
    st = sc_b64_decode_with((sc_b64_kernel)k, back, sizeof back, &len, enc, len);
    return st == SC_OK ? 0 : 1;
}

int main(int argc, char **argv)
{
    unsigned reps = 200, r;
    double t_enc[SC_B64_KERNELS] = {0}, t_dec[SC_B64_KERNELS] = {0};
    size_t len = 0, rlen = 0, dlen = 0;
    int k, ran = 0, fails = 0;

    if (argc > 1 && strcmp(argv[1], "--once") == 0) {
        return once(argc, argv);
    }
    if (argc == 3 && strcmp(argv[1], "--reps") == 0) {
        reps = (unsigned)strtoul(argv[2], NULL, 10);
    }
    fill(0x6b65726e656c7321ull);
    if (sc_b64_encode_with(SC_B64_PORTABLE, ref, sizeof ref, &rlen, raw, RAW) != SC_OK) {
        return 1;
    }
    printf("base64 kernels on %d bytes / %zu characters, %u reps; best kernel here: %s\n", RAW,
           rlen, reps, names[sc_b64_best_kernel()]);
    for (k = 0; k < SC_B64_KERNELS; k++) {
        if (!sc_b64_kernel_available((sc_b64_kernel)k)) {
            printf("  %-8s  not available on this CPU\n", names[k]);
            continue;
        }
        ran++;
        memset(enc, 0, sizeof enc);
        if (sc_b64_encode_with((sc_b64_kernel)k, enc, sizeof enc, &len, raw, RAW) != SC_OK ||
            len != rlen || memcmp(enc, ref, rlen) != 0) {
            printf("  %-8s  FAIL: encoding differs from the portable kernel's\n", names[k]);
            fails++;
            continue;
        }
        memset(back, 0, sizeof back);
        if (sc_b64_decode_with((sc_b64_kernel)k, back, sizeof back, &dlen, ref, rlen) != SC_OK ||
            dlen != RAW || memcmp(back, raw, RAW) != 0) {
            printf("  %-8s  FAIL: decoding differs from the input\n", names[k]);
            fails++;
            continue;
        }
        t_enc[k] = t_dec[k] = 1e9;
    }
    /* the kernels alternate call by call, and each keeps its fastest call: a busy machine
     * slows some calls down, never speeds one up */
    for (r = 0; r < reps; r++) {
        for (k = 0; k < SC_B64_KERNELS; k++) {
            double t0, t1, t2;
            if (t_enc[k] == 0) {
                continue; /* not available, or failed */
            }
            t0 = now();
            (void)sc_b64_encode_with((sc_b64_kernel)k, enc, sizeof enc, &len, raw, RAW);
            t1 = now();
            (void)sc_b64_decode_with((sc_b64_kernel)k, back, sizeof back, &dlen, ref, rlen);
            t2 = now();
            t_enc[k] = t1 - t0 < t_enc[k] ? t1 - t0 : t_enc[k];
            t_dec[k] = t2 - t1 < t_dec[k] ? t2 - t1 : t_dec[k];
        }
    }
    for (k = 0; k < SC_B64_KERNELS; k++) {
        if (t_enc[k] == 0) {
            continue;
        }
        printf("  %-8s  encode %8.1f us  decode %8.1f us (fastest of %u)", names[k], t_enc[k] * 1e6,
               t_dec[k] * 1e6, reps);
        if (k > 0 && t_enc[0] > 0) {
            printf("   portable/this: encode %.2fx, decode %.2fx", t_enc[0] / t_enc[k],
                   t_dec[0] / t_dec[k]);
        }
        printf("\n");
    }
    printf("%d kernel(s) agreed with the portable one%s\n", ran - fails,
           fails ? "; some did NOT" : "");
    return fails ? 1 : 0;
}
