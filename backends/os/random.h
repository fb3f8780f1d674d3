/* The kernel's random generator, for a backend's rng group.
 *
 * On Linux this is getrandom(2): through the vDSO where the kernel exports it (Linux 6.11 and
 * later, on x86_64 and arm64: the kernel's own generator run in user space over a per-caller
 * state the kernel defines, about a quarter of the system call's cost for 32 bytes), else the
 * system call. Both give the same bytes' quality: the vDSO code is the kernel's, it reseeds
 * when the kernel's generator does, erases what it hands out from its state, and its state is
 * mapped as the kernel asks (never dumped or swapped, zeroed in a forked child, so a child
 * reseeds).
 *
 * One sc_os_random per context, as the rng group's state: a vDSO state must not be used by
 * two threads at once, which one context per thread gives. Nothing here allocates on a draw;
 * sc_os_random_open maps one page for the vDSO state.
 */
#ifndef SOFTCHAT_BACKENDS_OS_RANDOM_H
#define SOFTCHAT_BACKENDS_OS_RANDOM_H

#include <softchat/backend.h>

#include <stddef.h>
#include <stdint.h>

/* The vDSO's getrandom: (buffer, len, flags, state, state_len) -> bytes written or -errno. */
typedef long (*sc_os_vgetrandom_fn)(void *, size_t, unsigned int, void *, size_t);

typedef struct sc_os_random {
    sc_os_vgetrandom_fn vdso; /* NULL: the system call */
    void *state;              /* the vDSO's state: the start of its own mapping */
    size_t state_len;
    size_t map_len; /* the length of that mapping (a page) */
} sc_os_random;

/* Sets r up. Finds the vDSO's getrandom and maps a state for it; where either is missing (an
 * older kernel, another architecture, a process without a vDSO such as one under valgrind, a
 * failed mapping) r uses the system call. Never fails. */
void sc_os_random_open(sc_os_random *r);

/* Fills out[0..len) from the kernel, blocking only until the kernel's generator is first
 * seeded at boot. Returns SC_OK; SC_ERR_UNSUPPORTED when there is no kernel generator to ask
 * (not Linux, a kernel without getrandom, or a policy that denies it this process: out is
 * then untouched, and the caller draws from its library instead); SC_ERR_RNG when the kernel
 * fails otherwise (out is then partly written). */
sc_status sc_os_random_fill(sc_os_random *r, uint8_t *out, size_t len);

/* Wipes the vDSO state and unmaps it; r is left zeroed (a system-call r, safe to fill). */
void sc_os_random_close(sc_os_random *r);

/* An rng group's state: allocates an sc_os_random and opens it. The one allocation is made at
 * the group's setup, never on a draw. Returns SC_OK; SC_ERR_NOMEM (*out is then NULL). */
sc_status sc_os_random_new(sc_os_random **out);

/* The group's teardown: closes r and frees it. NULL is a no-op. */
void sc_os_random_free(sc_os_random *r);

/* Whether the operating system has a random source a library can open: 1 when a 16-byte
 * getrandom(2) call succeeds, or when /dev/urandom or /dev/random opens as a character device
 * (the sources, in that order, that libsodium's generator takes at sodium_init, which aborts
 * the process when it finds none); 0 when none does, as in a sandbox that denies getrandom and
 * every open. Always 1 where there is no Linux kernel: the library's generator is the
 * platform's (arc4random, the browser's). Blocks only until the kernel's generator is first
 * seeded at boot. */
int sc_os_random_source(void);

#endif
