/* See floors.h. The compositions follow what the operations compute (docs/benchmarks.md):
 * NIP-44 at L bytes = ECDH + HMAC(32) [HKDF-Extract] + HMAC(33) + 2 HMAC(65) [HKDF-Expand,
 * 76 bytes] + ChaCha20(P) + HMAC(32 + P) [the MAC], P = calc_padded_len(L) + 2. */
#include "floors.h"

#include "ops_internal.h"

#include <math.h>
#include <string.h>

typedef struct part {
    const char *op; /* a floor row name */
    size_t bytes;
    double count;
} part;

typedef struct composition {
    const char *op;
    size_t bytes; /* 0: any size */
    int curve_only;
    const char *formula;
    part parts[8];
} composition;

#define NIP44_PRIMS(chacha, mac)                                                                   \
    {"floor_hmac_sha256", 33, 1}, {"floor_hmac_sha256", 65, 2}, {"floor_chacha20", chacha, 1},     \
    {                                                                                              \
        "floor_hmac_sha256", mac, 1                                                                \
    }

static const composition table[] = {
    {"import_identity", 0, 0, "keypair", {{"floor_keypair", 32, 1}}},
    {"sign_event",
     0,
     0,
     "SHA-256(121 B) + sign",
     {{"floor_sha256", 121, 1}, {"floor_sign", 32, 1}}},
    {"parse_verify_event",
     0,
     0,
     "SHA-256(121 B) + verify",
     {{"floor_sha256", 121, 1}, {"floor_verify", 32, 1}}},
    {"verify_batch",
     0,
     0,
     "SHA-256(121 B) + verify, per event",
     {{"floor_sha256", 121, 1}, {"floor_verify", 32, 1}}},
    {"nip44_encrypt",
     32,
     0,
     "ECDH + 5 HMAC + ChaCha20(34 B)",
     {{"floor_ecdh", 32, 1}, {"floor_hmac_sha256", 32, 1}, NIP44_PRIMS(34, 66)}},
    {"nip44_decrypt",
     32,
     0,
     "ECDH + 5 HMAC + ChaCha20(34 B)",
     {{"floor_ecdh", 32, 1}, {"floor_hmac_sha256", 32, 1}, NIP44_PRIMS(34, 66)}},
    {"nip44_encrypt",
     1024,
     0,
     "ECDH + 5 HMAC + ChaCha20(1026 B)",
     {{"floor_ecdh", 32, 1}, {"floor_hmac_sha256", 32, 1}, NIP44_PRIMS(1026, 1058)}},
    {"nip44_decrypt",
     1024,
     0,
     "ECDH + 5 HMAC + ChaCha20(1026 B)",
     {{"floor_ecdh", 32, 1}, {"floor_hmac_sha256", 32, 1}, NIP44_PRIMS(1026, 1058)}},
    {"nip44_encrypt",
     64000,
     0,
     "ECDH + 5 HMAC + ChaCha20(65538 B)",
     {{"floor_ecdh", 32, 1}, {"floor_hmac_sha256", 32, 1}, NIP44_PRIMS(65538, 65570)}},
    {"nip44_decrypt",
     64000,
     0,
     "ECDH + 5 HMAC + ChaCha20(65538 B)",
     {{"floor_ecdh", 32, 1}, {"floor_hmac_sha256", 32, 1}, NIP44_PRIMS(65538, 65570)}},
    {"nip44_encrypt_held", 32, 0, "4 HMAC + ChaCha20(34 B)", {NIP44_PRIMS(34, 66)}},
    {"nip44_decrypt_held", 32, 0, "4 HMAC + ChaCha20(34 B)", {NIP44_PRIMS(34, 66)}},
    {"nip44_encrypt_held", 1024, 0, "4 HMAC + ChaCha20(1026 B)", {NIP44_PRIMS(1026, 1058)}},
    {"nip44_decrypt_held", 1024, 0, "4 HMAC + ChaCha20(1026 B)", {NIP44_PRIMS(1026, 1058)}},
    {"nip44_encrypt_held", 64000, 0, "4 HMAC + ChaCha20(65538 B)", {NIP44_PRIMS(65538, 65570)}},
    {"nip44_decrypt_held", 64000, 0, "4 HMAC + ChaCha20(65538 B)", {NIP44_PRIMS(65538, 65570)}},
    {"gift_wrap",
     0,
     1,
     "curve only: keypair + 2 ECDH + 2 sign",
     {{"floor_keypair", 32, 1}, {"floor_ecdh", 32, 2}, {"floor_sign", 32, 2}}},
    {"nip17_message",
     0,
     1,
     "curve only: keypair + 2 ECDH + 2 sign",
     {{"floor_keypair", 32, 1}, {"floor_ecdh", 32, 2}, {"floor_sign", 32, 2}}},
    {"unwrap",
     0,
     1,
     "curve only: 2 verify + 2 ECDH",
     {{"floor_verify", 32, 2}, {"floor_ecdh", 32, 2}}},
    {"attachment_encrypt",
     64000,
     0,
     "AES-256-GCM + 2 SHA-256 (64000 B)",
     {{"floor_aes256gcm", 64000, 1}, {"floor_sha256", 64000, 2}}},
    {"attachment_decrypt",
     64000,
     0,
     "AES-256-GCM + 2 SHA-256 (64000 B)",
     {{"floor_aes256gcm", 64000, 1}, {"floor_sha256", 64000, 2}}},
    {"attachment_encrypt",
     1048576,
     0,
     "AES-256-GCM + 2 SHA-256 (1 MiB)",
     {{"floor_aes256gcm", 1048576, 1}, {"floor_sha256", 1048576, 2}}},
    {"attachment_decrypt",
     1048576,
     0,
     "AES-256-GCM + 2 SHA-256 (1 MiB)",
     {{"floor_aes256gcm", 1048576, 1}, {"floor_sha256", 1048576, 2}}},
};

static const composition *find(const char *op, size_t bytes)
{
    size_t i;

    for (i = 0; i < sizeof table / sizeof table[0]; i++) {
        if (strcmp(table[i].op, op) == 0 && (table[i].bytes == 0 || table[i].bytes == bytes)) {
            return &table[i];
        }
    }
    return NULL;
}

/* The fastest measured median of floor row (name, bytes) across backends; -1 if none. */
static double fastest(const bench_row *rows, size_t n, const char *name, size_t bytes)
{
    double best = INFINITY;
    size_t i;

    for (i = 0; i < n; i++) {
        if (rows[i].is_floor && !rows[i].failed && !rows[i].unsupported && rows[i].bytes == bytes &&
            strcmp(rows[i].operation, name) == 0) {
            best = fmin(best, rows[i].median_ns);
        }
    }
    return isfinite(best) ? best : -1;
}

double bench_floor_ns(const bench_row *rows, size_t n, const char *op, size_t bytes,
                      int *curve_only)
{
    const composition *c = find(op, bytes);
    double sum = 0;
    size_t i;

    *curve_only = 0;
    if (c == NULL) {
        return -1;
    }
    for (i = 0; i < sizeof c->parts / sizeof c->parts[0] && c->parts[i].op != NULL; i++) {
        double v = fastest(rows, n, c->parts[i].op, c->parts[i].bytes);
        if (v < 0) {
            return -1;
        }
        sum += v * c->parts[i].count;
    }
    *curve_only = c->curve_only;
    return sum;
}

int bench_floor_uses_curve(const char *op, size_t bytes)
{
    const composition *c = find(op, bytes);
    size_t i, j;

    if (c == NULL) {
        return strcmp(op, "nip59_rumor") != 0; /* the rumor's id is SHA-256 alone */
    }
    for (i = 0; i < sizeof c->parts / sizeof c->parts[0] && c->parts[i].op != NULL; i++) {
        for (j = 0; j < bench_floor_secp_count; j++) { /* the libsecp256k1 floor rows */
            if (strcmp(c->parts[i].op, bench_floor_secp[j].name) == 0) {
                return 1;
            }
        }
    }
    return 0;
}

const char *bench_floor_formula(const char *op, size_t bytes)
{
    const composition *c = find(op, bytes);
    return c != NULL ? c->formula : "-";
}
