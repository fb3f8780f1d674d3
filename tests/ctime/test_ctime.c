/* Constant-time checks under valgrind memcheck (the libsecp256k1 ctime_tests idea): secret
 * inputs are marked undefined, so memcheck reports any branch or memory address that depends
 * on them, inside core/ or inside the backend's library. Results are marked defined again
 * (declassified) only after the call returns.
 *
 * Run by ctest as ctime.<backend> under valgrind --error-exitcode; run outside valgrind it only
 * checks that every call succeeds. Covered: sc_mem_ct_compare, hex and base64 encoding (every
 * base64 kernel), SHA-256, HMAC-SHA256 (keys of one block and longer), HKDF, ChaCha20, AES-256-GCM
 * sealing, XChaCha20-Poly1305 sealing (where the backend has it), NIP-44 message
 * keys and encryption under a secret conversation key and plaintext.
 *
 * Not covered, by design: calls whose status is a verdict on secret data (a MAC or tag check,
 * the validity of a secret key, base64 validity) branch on that verdict once, after the
 * constant-time work; memcheck cannot tell a verdict from a leak without declassification
 * points inside the library. */
#include <softchat/softchat.h>
#include <valgrind/memcheck.h>

#include <stdio.h>
#include <string.h>

#include "util/base64_internal.h"

#define SECRET(p, n) VALGRIND_MAKE_MEM_UNDEFINED((p), (n))
#define PUBLIC(p, n) VALGRIND_MAKE_MEM_DEFINED((p), (n))

static int failures;

static void report(const char *what, sc_status st)
{
    PUBLIC(&st, sizeof st);
    if (st == SC_OK) {
        printf("ok   %s\n", what);
    } else if (st == SC_ERR_UNSUPPORTED) {
        printf("skip %s: not provided by this backend\n", what);
    } else {
        printf("FAIL %s: %s\n", what, sc_status_name(st));
        failures++;
    }
}

static void fill(uint8_t *p, size_t n, unsigned seed)
{
    size_t i;

    for (i = 0; i < n; i++) {
        p[i] = (uint8_t)(i * 131u + seed * 29u + (i >> 3));
    }
}

static void encodings(void)
{
    static uint8_t a[1000], b[1000];
    static char out[1400];
    size_t len = 0;
    int diff;
    sc_b64_kernel k;

    fill(a, sizeof a, 1);
    memcpy(b, a, sizeof b);
    b[sizeof b - 1] ^= 1;
    SECRET(a, sizeof a);
    SECRET(b, sizeof b);
    diff = sc_mem_ct_compare(a, b, sizeof a);
    PUBLIC(&diff, sizeof diff);
    report("sc_mem_ct_compare", diff != 0 ? SC_OK : SC_ERR_INTERNAL);
    report("sc_hex_encode", sc_hex_encode(out, sizeof out, &len, a, 500));
    for (k = SC_B64_PORTABLE; k < SC_B64_KERNELS; k++) {
        static const char *const names[SC_B64_KERNELS] = {"portable", "SSSE3", "NEON"};
        char what[64];
        size_t n;
        if (!sc_b64_kernel_available(k)) {
            continue;
        }
        for (n = 995; n <= 1000; n++) { /* every tail length */
            sc_status st = sc_b64_encode_with(k, out, sizeof out, &len, a, n);
            if (st != SC_OK) {
                report("base64", st);
            }
        }
        snprintf(what, sizeof what, "base64 encode (%s kernel)", names[k]);
        report(what, SC_OK);
    }
}

static void primitives(sc_ctx *ctx)
{
    static uint8_t key[32], long_key[100], data[1000], out[1000], prk[32], okm[76], nonce[12],
        tag[16];
    sc_iov part;

    fill(key, sizeof key, 2);
    fill(long_key, sizeof long_key, 8);
    SECRET(long_key, sizeof long_key);
    fill(data, sizeof data, 3);
    fill(nonce, sizeof nonce, 4);
    SECRET(key, sizeof key);
    SECRET(data, sizeof data);
    part.data = data;
    part.len = sizeof data;
    report("sha256", sc_crypto_sha256(ctx, out, data, sizeof data));
    report("hmac_sha256", sc_crypto_hmac_sha256(ctx, out, key, sizeof key, &part, 1));
    report("hmac_sha256 (100-byte key: hashed first)",
           sc_crypto_hmac_sha256(ctx, out, long_key, sizeof long_key, &part, 1));
    report("hkdf_extract", sc_crypto_hkdf_extract(ctx, prk, (const uint8_t *)"salt", 4, key, 32));
    report("hkdf_expand", sc_crypto_hkdf_expand(ctx, okm, sizeof okm, prk, sizeof prk,
                                                (const uint8_t *)"info", 4));
    report("chacha20_xor", sc_crypto_chacha20_xor(ctx, out, data, sizeof data, key, nonce, 0));
    report("aes256gcm_seal (12-byte IV)",
           sc_crypto_aes256gcm_seal(ctx, out, tag, key, nonce, 12, NULL, 0, data, sizeof data));
}

/* XChaCha20-Poly1305, where the backend has it: the openssl backend's HChaCha20 (one ChaCha20
 * block minus the initial state) is the project's own arithmetic over the key's block. scrypt
 * is left out: ROMix indexes memory by password-derived data by design (crypto.h). */
static void xchacha(sc_ctx *ctx)
{
    static uint8_t key[32], nonce[24], data[1000], out[1000], tag[16];

    if (sc_backend_has(sc_ctx_backend(ctx), SC_CAP_XCHACHA20POLY1305, NULL) != SC_OK) {
        printf("skip xchacha20poly1305_seal: the backend has no XChaCha20-Poly1305\n");
        return;
    }
    fill(key, sizeof key, 9);
    fill(nonce, sizeof nonce, 10);
    fill(data, sizeof data, 11);
    SECRET(key, sizeof key);
    SECRET(data, sizeof data);
    report("xchacha20poly1305_seal",
           sc_crypto_xchacha20poly1305_seal(ctx, out, tag, key, nonce, NULL, 0, data, sizeof data));
}

static void nip44(sc_ctx *ctx)
{
    static uint8_t ck[32], nonce[32], pt[3000], ckey[32], cnonce[12], hkey[32];
    static char out[5000];
    size_t len = 0, n;

    fill(ck, sizeof ck, 5);
    fill(nonce, sizeof nonce, 6);
    fill(pt, sizeof pt, 7);
    SECRET(ck, sizeof ck);
    SECRET(pt, sizeof pt);
    report("nip44 message keys", sc_nip44_message_keys(ctx, ckey, cnonce, hkey, ck, nonce));
    for (n = 1; n <= sizeof pt; n += 997) {
        sc_status st = sc_nip44_encrypt_with_rand(ctx, out, sizeof out, &len, ck, nonce, pt, n, 0);
        if (st != SC_OK) {
            report("nip44 encrypt", st);
            return;
        }
    }
    report("nip44 encrypt (1, 998, 1995, 2992 bytes)", SC_OK);
}

int main(int argc, char **argv)
{
    const char *backend = NULL;
    int i, need_valgrind = 0;
    sc_ctx ctx;
    sc_status st;

    for (i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--backend") == 0 && i + 1 < argc) {
            backend = argv[++i];
        } else if (strcmp(argv[i], "--require-valgrind") == 0) {
            need_valgrind = 1;
        } else {
            fprintf(stderr, "usage: test_ctime [--backend NAME] [--require-valgrind]\n");
            return 2;
        }
    }
    if (need_valgrind && !RUNNING_ON_VALGRIND) {
        fprintf(stderr, "test_ctime: --require-valgrind: not running under valgrind\n");
        return 2;
    }
    st = sc_ctx_init(&ctx, backend);
    if (st != SC_OK) {
        fprintf(stderr, "test_ctime: no context on %s: %s\n", backend ? backend : "(default)",
                sc_status_name(st));
        return 2;
    }
    printf("ctime %s (%s)\n", sc_ctx_backend(&ctx)->name,
           RUNNING_ON_VALGRIND ? "under valgrind" : "not under valgrind: calls only");
    encodings();
    primitives(&ctx);
    xchacha(&ctx);
    nip44(&ctx);
    sc_ctx_clear(&ctx);
    return failures == 0 ? 0 : 1;
}
