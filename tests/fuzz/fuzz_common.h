/* Shared pieces of the libFuzzer targets (tests/<area>/fuzz_*.c): contexts on every compiled
 * backend, fixed identities, a reader over the fuzzer's bytes, exact-size heap buffers, the
 * invariant check, and builders that put fuzzer bytes behind valid authentication (a NIP-44
 * payload with a correct MAC, a signed event layer) so that the code after the MAC or the
 * signature is reached.
 *
 * A broken invariant prints what failed and calls abort(): libFuzzer reports that as a crash
 * and keeps the input. The library itself must never crash, abort or leak on any input; ASan
 * and UBSan (-fno-sanitize-recover) catch what the invariants do not.
 *
 * The same targets build without libFuzzer (any compiler) against fuzz_replay.c, which runs
 * LLVMFuzzerInitialize and then each input file or directory named on the command line: the
 * regression reproducers and the seed corpora are replayed that way by ctest. */
#ifndef SOFTCHAT_TESTS_FUZZ_COMMON_H
#define SOFTCHAT_TESTS_FUZZ_COMMON_H

#include <stddef.h>
#include <stdint.h>

#include <softchat/softchat.h>

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* ---- invariants ---------------------------------------------------------------------------- */

#if defined(__GNUC__) || defined(__clang__)
#define FZ_NORETURN __attribute__((noreturn))
#else
#define FZ_NORETURN
#endif

FZ_NORETURN void fz_fail(const char *file, int line, const char *what);

/* Aborts (a crash for libFuzzer) when cond is false. */
#define FZ_REQUIRE(cond)                                                                           \
    do {                                                                                           \
        if (!(cond)) {                                                                             \
            fz_fail(__FILE__, __LINE__, #cond);                                                    \
        }                                                                                          \
    } while (0)

/* Aborts unless st is one of the statuses listed (terminated by 1, which no status is). */
void fz_require_status_in(const char *file, int line, sc_status st, ...);
#define FZ_STATUS_IN(st, ...) fz_require_status_in(__FILE__, __LINE__, (st), __VA_ARGS__, 1)

/* 1 when every byte of p[0..n) is 0 (or equal to `fill`). */
int fz_all_zero(const void *p, size_t n);
int fz_all_zero_or(const void *p, size_t n, uint8_t fill);
int fz_all_equal(const void *p, size_t n, uint8_t v);

/* 1 when a and b hold the same bytes (both may be empty). */
int fz_same_str(sc_str a, sc_str b);
/* 1 when s is empty or lies inside base[0..n): a view into an arena or a scratch buffer. */
int fz_inside(sc_str s, const void *base, size_t n);

/* The canary heap buffers are filled with: bytes a call must not touch keep it. */
#define FZ_CANARY 0xa5u

/* malloc(n ? n : 1) filled with FZ_CANARY; aborts when out of memory. */
uint8_t *fz_alloc(size_t n);
/* An exact-size heap copy of p[0..n) (n == 0: a 1-byte buffer), so ASan sees any overread. */
uint8_t *fz_dup(const void *p, size_t n);

/* ---- the fuzzer's bytes -------------------------------------------------------------------- */

typedef struct fz_in {
    const uint8_t *p;
    size_t n;
} fz_in;

/* One byte, 0 when exhausted. */
uint8_t fz_u8(fz_in *in);
/* Big-endian 16 / 32 bits, zero-filled when exhausted. */
uint16_t fz_u16(fz_in *in);
uint32_t fz_u32(fz_in *in);
/* Copies n bytes to out, zero-filling what the input lacks. */
void fz_bytes(fz_in *in, void *out, size_t n);
/* Takes up to n bytes (fewer when the input is shorter): *len receives how many. */
const uint8_t *fz_take(fz_in *in, size_t n, size_t *len);

/* ---- contexts and keys --------------------------------------------------------------------- */

/* Creates a context on every compiled backend (once; later calls do nothing) and the fixed
 * identities. Aborts when a context cannot be made. */
void fz_setup(void);
size_t fz_backends(void);
sc_ctx *fz_ctx(size_t i);
/* The index of a backend with capability cap, chosen by sel among those that have it;
 * SIZE_MAX when none has it. */
size_t fz_backend_with(sc_cap cap, unsigned sel);

/* Fixed identities: 0 the recipient, 1 the author (seal signer), 2 the wrap's one-time key,
 * 3 a third party. The secret key of identity k is 32 bytes of (k + 1) * 17. */
#define FZ_N_IDS 4
const sc_identity *fz_id(unsigned k);
const uint8_t *fz_pub(unsigned k);
const uint8_t *fz_sec(unsigned k);
/* conv(fz_id(a), fz_pub(b)), computed once. */
const uint8_t *fz_conv(unsigned a, unsigned b);

/* ---- builders over the primitives ---------------------------------------------------------- */

/* The NIP-44 payload of an arbitrary decrypted buffer: raw = version || nonce ||
 * chacha20(padded) || hmac(nonce || ciphertext), all from the library's primitives on ctx, so
 * the MAC verifies whatever padded[0..padded_len) holds (prefix, plaintext and padding).
 * Returns a malloc'd base64 string (*len its length), or NULL when a primitive fails (the
 * caller skips the input). */
char *fz_nip44_forge(sc_ctx *ctx, const uint8_t ck[32], const uint8_t nonce[32], uint8_t version,
                     const uint8_t *padded, size_t padded_len, size_t *len);

/* The prefix || plaintext || zero padding that NIP-44 encryption puts behind the MAC, for
 * pt[0..len) (1 <= len); malloc'd, *padded_len its length. NULL when len is out of range. */
uint8_t *fz_nip44_pad(const uint8_t *pt, size_t len, size_t *padded_len);

/* One signed layer: an event of `kind` by identity signer at created_at with the given tags,
 * whose content is the NIP-44 payload (a valid MAC) of inner[0..inner_len) under
 * conv(signer, to), serialized as a JSON object. Returns malloc'd JSON (*len its length), or
 * NULL when inner cannot be a NIP-44 plaintext (empty, or 65536 bytes or more) or a call
 * fails. */
char *fz_layer(sc_ctx *ctx, const uint8_t *inner, size_t inner_len, unsigned signer, unsigned to,
               uint32_t kind, int64_t created_at, const sc_tag *tags, size_t n_tags,
               const uint8_t nonce[32], size_t *len);

/* An event (any fields) signed by identity `signer`, as a JSON object: malloc'd, or NULL when
 * the event is invalid. */
char *fz_signed_json(sc_ctx *ctx, sc_event *ev, unsigned signer, size_t *len);

/* 1 when a and b have the same kind, created_at, tags and content, byte for byte, and the
 * same id and pubkey where both carry them. */
int fz_same_event(const sc_event *a, const sc_event *b);

#endif
