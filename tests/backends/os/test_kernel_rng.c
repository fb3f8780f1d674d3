/* backend.os.kernel_rng: the kernel generator the openssl and sodium rng groups draw from
 * (backends/os/random.h), on both of its paths.
 *  - On x86_64 Linux 6.11 or later, in a process that has a vDSO (not one under valgrind,
 *    which hides it), the vDSO path is the one taken; elsewhere the test says which path it
 *    has and tests that one.
 *  - Each path (the vDSO's where there is one, and the system call's, forced) fills every
 *    length exactly: 0, short, around a ChaCha block, over the 16 MiB chunk of a call, never
 *    a byte past the end; two draws differ.
 *  - The vDSO erases what it hands out: no 8 bytes of a draw are left in its state.
 *  - Closing zeroes the handle and leaves it a working system-call handle. */
#define _POSIX_C_SOURCE 200809L /* uname */

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "random.h"

#if defined(__linux__)
#include <sys/auxv.h>
#include <sys/utsname.h>
#define KERNEL_RNG 1 /* os/random.c asks the kernel here */
#else
#define KERNEL_RNG 0 /* os/random.c refuses every draw here */
#endif

/* Whether this process should find the vDSO's getrandom, with the reason when not. */
static int vdso_expected(const char **why)
{
#if defined(__linux__) && defined(__x86_64__) && !defined(__ILP32__)
    struct utsname u;
    int major = 0, minor = 0;

    if (getauxval(AT_SYSINFO_EHDR) == 0) {
        *why = "this process has no vDSO (valgrind hides it)";
        return 0;
    }
    if (uname(&u) != 0 || sscanf(u.release, "%d.%d", &major, &minor) != 2) {
        *why = "the kernel release is unreadable";
        return 0;
    }
    if (major < 6 || (major == 6 && minor < 11)) {
        *why = "the kernel is older than 6.11";
        return 0;
    }
    return 1;
#else
    *why = "the check is made on x86_64 Linux only (other targets report their path)";
    return 0;
#endif
}

static void test_path(void **state)
{
    sc_os_random r;
    const char *why = NULL;
    int expected;

    (void)state;
    sc_os_random_open(&r);
    expected = vdso_expected(&why);
    printf("[kernel_rng] path: %s%s%s\n", r.vdso != NULL ? "vDSO" : "system call",
           expected ? "" : "; not checked: ", expected ? "" : why);
    if (expected) {
        assert_non_null(r.vdso);
        assert_non_null(r.state);
        assert_true(r.state_len > 0 && r.state_len <= r.map_len);
    }
    sc_os_random_close(&r);
}

#define CANARY 0xa5
#define TAIL 16

/* Fills len bytes (in a buffer with a canary tail) and checks that every byte asked for was
 * written and none after: a buffer pre-set to the canary must change somewhere in each
 * stretch of 64 bytes (the last may be shorter; one under 16 bytes is not judged, and one of
 * 16 or more left wholly at 0xa5 by chance is at most a 2^-128 event). */
static void fill_exact(sc_os_random *r, size_t len)
{
    uint8_t *buf = malloc(len + TAIL);
    size_t i;

    assert_non_null(buf);
    memset(buf, CANARY, len + TAIL);
    assert_int_equal(sc_os_random_fill(r, buf, len), SC_OK);
    for (i = 0; i < len; i += 64) {
        size_t end = len - i < 64 ? len : i + 64, j;
        int changed = 0;

        for (j = i; j < end; j++) {
            changed |= buf[j] != CANARY;
        }
        if (end - i >= 16 && !changed) {
            fail_msg("bytes %zu..%zu of a %zu-byte draw were not written", i, end, len);
        }
    }
    for (i = len; i < len + TAIL; i++) {
        if (buf[i] != CANARY) {
            fail_msg("a %zu-byte draw wrote byte %zu", len, i);
        }
    }
    free(buf);
}

static void exercise(sc_os_random *r, const char *path)
{
    static const size_t lens[] = {0,  1,  16, 31,   32,    33,
                                  63, 64, 65, 4096, 65537, ((size_t)1 << 24) + 3};
    uint8_t a[32], b[32];
    size_t i;

    printf("[kernel_rng] %s path: %zu lengths\n", path, sizeof lens / sizeof lens[0]);
    for (i = 0; i < sizeof lens / sizeof lens[0]; i++) {
        fill_exact(r, lens[i]);
    }
    assert_int_equal(sc_os_random_fill(r, a, sizeof a), SC_OK);
    assert_int_equal(sc_os_random_fill(r, b, sizeof b), SC_OK);
    assert_memory_not_equal(a, b, sizeof a);
}

static void test_fills(void **state)
{
    sc_os_random r;

    (void)state;
    sc_os_random_open(&r);
    if (KERNEL_RNG) {
        if (r.vdso != NULL) {
            exercise(&r, "vDSO");
        }
        r.vdso = NULL; /* the system call, on the same handle */
        exercise(&r, "system call");
    } else {
        uint8_t x[1] = {CANARY};

        assert_int_equal(sc_os_random_fill(&r, x, sizeof x), SC_ERR_UNSUPPORTED);
        assert_int_equal(x[0], CANARY); /* untouched: the caller's library draws instead */
        printf("[kernel_rng] no kernel generator on this platform: SC_ERR_UNSUPPORTED\n");
    }
    sc_os_random_close(&r);
}

/* Whether any 8 consecutive bytes of drawn[0..len) occur in mem[0..mem_len). */
static int holds_part(const uint8_t *mem, size_t mem_len, const uint8_t *drawn, size_t len)
{
    size_t i, j;

    for (i = 0; i + 8 <= len; i++) {
        for (j = 0; j + 8 <= mem_len; j++) {
            if (memcmp(mem + j, drawn + i, 8) == 0) {
                return 1;
            }
        }
    }
    return 0;
}

static void test_erased(void **state)
{
    static const size_t lens[] = {1, 16, 32, 100, 256};
    sc_os_random r;
    uint8_t drawn[256];
    size_t i, k;

    (void)state;
    sc_os_random_open(&r);
    if (r.vdso == NULL) {
        printf("[kernel_rng] erasure: no vDSO state here (the system call keeps none)\n");
        sc_os_random_close(&r);
        return;
    }
    for (k = 0; k < 4; k++) { /* several draws from one batch, and across batches */
        for (i = 0; i < sizeof lens / sizeof lens[0]; i++) {
            assert_int_equal(sc_os_random_fill(&r, drawn, lens[i]), SC_OK);
            if (holds_part((const uint8_t *)r.state, r.state_len, drawn, lens[i])) {
                fail_msg("a %zu-byte draw is still in the vDSO state", lens[i]);
            }
        }
    }
    sc_os_random_close(&r);
}

static void test_close(void **state)
{
    static const uint8_t zero[sizeof(sc_os_random)] = {0};
    sc_os_random r;

    (void)state;
    sc_os_random_open(&r);
    sc_os_random_close(&r);
    assert_memory_equal(&r, zero, sizeof r);
    if (KERNEL_RNG) {
        fill_exact(&r, 32);
    }
    sc_os_random_close(&r); /* closing twice is harmless */
    assert_memory_equal(&r, zero, sizeof r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_path),
        cmocka_unit_test(test_fills),
        cmocka_unit_test(test_erased),
        cmocka_unit_test(test_close),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
