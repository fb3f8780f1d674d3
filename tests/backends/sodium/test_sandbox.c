/* backend.sodium.sandbox: in a process that a sandbox denies random sources, every backend
 * returns a status and none aborts. Each case runs in a forked child that installs a seccomp
 * filter first:
 *  - "none" denies getrandom(2) and every open. Control: sodium_init must kill the child with
 *    SIGABRT (libsodium's generator finds no source and calls sodium_misuse), so the filter
 *    reproduces what the sodium backend guards against. Then sc_ctx_init must return
 *    SC_ERR_RNG on every compiled backend (openssl, mbedtls and psa fail in their library's
 *    seeding; sodium and sodium+mbedtls refuse before sodium_init).
 *  - "urandom" denies getrandom only, as older container policies did (EPERM): sodium and
 *    sodium+mbedtls must still work (backends/os/random.c takes EPERM as "no kernel
 *    generator", and libsodium, which found getrandom denied at sodium_init, reads
 *    /dev/urandom): a context, and two different 32-byte draws. OpenSSL 3.0 and mbed TLS
 *    seed from getrandom only (they fall back to /dev/urandom on ENOSYS alone): openssl,
 *    mbedtls and psa must return SC_ERR_RNG.
 *  - without a filter, sc_ctx_init succeeds on every backend.
 * A child that has not called sodium_init before is used for each case (libsodium opens its
 * generator once per process). Where a seccomp filter cannot be installed (not Linux, or
 * qemu-user, which refuses them) the test is skipped, saying why. */
#define _DEFAULT_SOURCE 1 /* fork, waitpid, prctl */

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include <softchat/backend.h>
#include <softchat/crypto.h>
#include <softchat/ctx.h>

#include <sodium/core.h>

#if defined(__linux__)
#include <errno.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>
#define HAVE_SECCOMP 1
#else
#define HAVE_SECCOMP 0
#endif

typedef enum {
    DENY_ALL,
    DENY_GETRANDOM,
    DENY_NOTHING
} denial;

/* What sc_ctx_init must return for a backend under each denial. */
typedef struct expectation {
    const char *backend;
    sc_status none, urandom;
} expectation;

static const expectation expected[] = {
    {"openssl", SC_ERR_RNG, SC_ERR_RNG},   {"mbedtls", SC_ERR_RNG, SC_ERR_RNG},
    {"psa", SC_ERR_RNG, SC_ERR_RNG},       {"sodium", SC_ERR_RNG, SC_OK},
    {"sodium+mbedtls", SC_ERR_RNG, SC_OK},
};

enum {
    CHILD_PASS = 0,
    CHILD_NO_FILTER = 3,
    CHILD_RETURNED = 4,
    CHILD_WRONG = 5
};

#if HAVE_SECCOMP
#define DENY(nr, err)                                                                              \
    BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (nr), 0, 1),                                               \
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | ((err)&SECCOMP_RET_DATA))
#define LOAD_NR BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr))
#define ALLOW BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW)

/* Installs the filter for d in this process; 1 on success. */
static int deny(denial d)
{
    static struct sock_filter all[] = {
        LOAD_NR,
        DENY(__NR_getrandom, EPERM),
        DENY(__NR_openat, EACCES),
#if defined(__NR_open)
        DENY(__NR_open, EACCES),
#endif
        ALLOW,
    };
    static struct sock_filter getrandom_only[] = {LOAD_NR, DENY(__NR_getrandom, EPERM), ALLOW};
    struct sock_fprog prog;

    if (d == DENY_NOTHING) {
        return 1;
    }
    prog.filter = d == DENY_ALL ? all : getrandom_only;
    prog.len = (unsigned short)(d == DENY_ALL ? sizeof all / sizeof all[0]
                                              : sizeof getrandom_only / sizeof getrandom_only[0]);
    return prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) == 0 &&
           prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog, 0, 0) == 0;
}

/* The child's work: sc_ctx_init on backend, which must return want; on success, two 32-byte
 * draws that must differ. backend NULL: the control, sodium_init, which must not return. */
static int child(denial d, const char *backend, sc_status want)
{
    uint8_t a[32], b[32];
    sc_status st;
    sc_ctx ctx;

    if (!deny(d)) {
        return CHILD_NO_FILTER;
    }
    if (backend == NULL) {
        int r = sodium_init();

        (void)r;
        return CHILD_RETURNED;
    }
    st = sc_ctx_init(&ctx, backend);
    if (st != want) {
        return CHILD_WRONG;
    }
    if (st == SC_OK) {
        st = sc_crypto_rng_fill(&ctx, a, sizeof a);
        if (st == SC_OK) {
            st = sc_crypto_rng_fill(&ctx, b, sizeof b);
        }
        sc_ctx_clear(&ctx);
        if (st != SC_OK || memcmp(a, b, sizeof a) == 0) {
            return CHILD_WRONG;
        }
    }
    return CHILD_PASS;
}

/* Runs one case in a child; returns its wait status. */
static int run_child(denial d, const char *backend, sc_status want)
{
    int wstatus = 0;
    pid_t pid;

    (void)fflush(stdout); /* a child must not write what this process has buffered */
    pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        _exit(child(d, backend, want));
    }
    while (waitpid(pid, &wstatus, 0) < 0) {
        assert_int_equal(errno, EINTR);
    }
    return wstatus;
}

static void expect_pass(denial d, const char *backend, sc_status want, const char *what)
{
    int w = run_child(d, backend, want);

    if (!(WIFEXITED(w) && WEXITSTATUS(w) == CHILD_PASS)) {
        fail_msg("%s: sc_ctx_init %s should return %s (and draw if SC_OK); wait status %#x",
                 backend, what, sc_status_name(want), w);
    }
}
#endif

static void test_sandbox(void **state)
{
#if HAVE_SECCOMP
    size_t i;
    int w;

    (void)state;
    w = run_child(DENY_ALL, NULL, SC_OK);
    if (WIFEXITED(w) && WEXITSTATUS(w) == CHILD_NO_FILTER) {
        printf("[sandbox] skipped: this process cannot install a seccomp filter (qemu-user "
               "refuses them)\n");
        skip();
    }
    if (!(WIFSIGNALED(w) && WTERMSIG(w) == SIGABRT)) {
        fail_msg("control: sodium_init without a random source should abort (wait status %#x)", w);
    }
    printf("[sandbox] control: sodium_init aborts when it finds no random source\n");
    for (i = 0; i < sizeof expected / sizeof expected[0]; i++) {
        const expectation *e = &expected[i];

        if (sc_backend_find(e->backend) == NULL) {
            printf("[sandbox] %s: not compiled in this build\n", e->backend);
            continue;
        }
        expect_pass(DENY_ALL, e->backend, e->none, "with getrandom and every open denied");
        expect_pass(DENY_GETRANDOM, e->backend, e->urandom, "with getrandom denied");
        expect_pass(DENY_NOTHING, e->backend, SC_OK, "with nothing denied");
        printf("[sandbox] %s: no source %s, /dev/urandom only %s, unfiltered SC_OK\n", e->backend,
               sc_status_name(e->none), sc_status_name(e->urandom));
    }
#else
    (void)state;
    (void)expected;
    printf("[sandbox] skipped: seccomp filters are Linux's\n");
    skip();
#endif
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sandbox),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
