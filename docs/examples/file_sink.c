/* docs/api.md "Attachments": a 100 KB attachment encrypted in 4 KiB pieces, then decrypted
 * into a sink that holds the plaintext back until the tag verifies; a tampered blob is never
 * committed. Run: file_sink [BACKEND]; exit 0, or 77 when the backend cannot stream AES-GCM. */
#include <softchat/softchat.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CHECK(call)                                                                                \
    do {                                                                                           \
        sc_status st_ = (call);                                                                    \
        if (st_ != SC_OK) {                                                                        \
            fprintf(stderr, "%s: %s\n", #call, sc_status_name(st_));                               \
            return 1;                                                                              \
        }                                                                                          \
    } while (0)

/* api.md: begin sink */
/* A sink that keeps the unauthenticated plaintext in memory until commit (a real app writes a
 * temporary file and renames it on commit). */
typedef struct mem_sink {
    uint8_t *pending, *committed;
    size_t len, cap;
} mem_sink;

static sc_status sink_write(void *user, const uint8_t *data, size_t len)
{
    mem_sink *k = user;

    if (len > k->cap - k->len) {
        return SC_ERR_TOO_LARGE; /* returned by sc_file_decrypt_update unchanged */
    }
    memcpy(k->pending + k->len, data, len);
    k->len += len;
    return SC_OK;
}

static sc_status sink_commit(void *user) /* only after the tag verified */
{
    mem_sink *k = user;

    k->committed = k->pending;
    return SC_OK;
}

static void sink_discard(void *user) /* a forged or truncated blob: destroy what came */
{
    mem_sink *k = user;

    sc_mem_wipe(k->pending, k->len);
    k->len = 0;
}

static sc_status decrypt_blob(sc_ctx *ctx, mem_sink *k, const uint8_t key[SC_FILE_KEY_BYTES],
                              const uint8_t iv[SC_FILE_IV_BYTES], const uint8_t *blob,
                              size_t blob_len)
{
    sc_file_sink sink = {k, sink_write, sink_commit, sink_discard};
    sc_file_dec d;
    sc_status st = sc_file_decrypt_init(ctx, &d, key, iv, SC_FILE_IV_BYTES, &sink);

    if (st == SC_OK) {
        st = sc_file_decrypt_update(&d, blob, blob_len); /* any pieces, as they download */
    }
    if (st == SC_OK) {
        st = sc_file_decrypt_final(&d, NULL, NULL); /* SC_ERR_AUTH: discarded */
    }
    return st;
}
/* api.md: end sink */

int main(int argc, char **argv)
{
    enum {
        SIZE = 100 * 1024,
        PIECE = 4096
    };
    uint8_t key[SC_FILE_KEY_BYTES], iv[SC_FILE_IV_BYTES], x[32], ox[32];
    uint8_t *pt, *blob, *back;
    size_t at = 0, n, done = 0;
    uint64_t blob_size = 0;
    mem_sink k;
    sc_file_enc e;
    sc_status st;
    sc_ctx ctx;

    CHECK(sc_ctx_init(&ctx, argc > 1 ? argv[1] : NULL));
    if (sc_backend_has(sc_ctx_backend(&ctx), SC_CAP_AES256GCM_STREAM, NULL) != SC_OK) {
        printf("file_sink: skipped: the backend has no streaming AES-256-GCM\n");
        sc_ctx_clear(&ctx);
        return 77;
    }
    pt = malloc(SIZE);
    blob = malloc(SIZE + SC_FILE_FINAL_BYTES); /* final needs 31 bytes, even when 16 come out */
    back = malloc(SIZE);
    if (pt == NULL || blob == NULL || back == NULL) {
        return 1;
    }
    k.pending = back;
    k.committed = NULL;
    k.len = 0;
    k.cap = SIZE;
    for (n = 0; n < SIZE; n++) {
        pt[n] = (uint8_t)(n * 7);
    }
    CHECK(sc_file_keygen(&ctx, key, iv)); /* a fresh key and IV for every file */
    CHECK(sc_file_encrypt_init(&ctx, &e, key, iv, sizeof iv));
    for (done = 0; done < SIZE; done += PIECE) {
        /* out_cap: sc_file_encrypt_update_max(PIECE); here the blob buffer has room */
        CHECK(sc_file_encrypt_update(&e, blob + at, SIZE + SC_FILE_FINAL_BYTES - at, &n, pt + done,
                                     SIZE - done < PIECE ? SIZE - done : PIECE));
        at += n;
    }
    CHECK(sc_file_encrypt_final(&e, blob + at, SIZE + SC_FILE_FINAL_BYTES - at, &n, x, ox,
                                &blob_size));
    at += n;
    if (at != sc_file_blob_len(SIZE) || blob_size != at) {
        return 1;
    }
    CHECK(decrypt_blob(&ctx, &k, key, iv, blob, at));
    if (k.committed == NULL || k.len != SIZE || memcmp(back, pt, SIZE) != 0) {
        return 1;
    }
    blob[10] ^= 1; /* a tampered blob: SC_ERR_AUTH and nothing committed */
    k.committed = NULL;
    k.len = 0;
    st = decrypt_blob(&ctx, &k, key, iv, blob, at);
    if (st != SC_ERR_AUTH || k.committed != NULL || k.len != 0) {
        fprintf(stderr, "file_sink: a tampered blob gave %s\n", sc_status_name(st));
        return 1;
    }
    sc_mem_wipe(key, sizeof key);
    sc_ctx_clear(&ctx);
    printf("file_sink: %zu-byte blob opened; the tampered copy was refused\n", at);
    free(pt);
    free(blob);
    free(back);
    return 0;
}
