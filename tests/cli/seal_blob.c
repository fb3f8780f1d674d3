/* Test data for the CLI's kind 15 tests: a blob (ciphertext || tag) under any IV, made with
 * the library's one-shot AES-256-GCM, so the drivers can make the legacy-IV blobs of early
 * clients (the 32 ASCII characters of the hex nonce as the IV), which `softchat file encrypt`
 * never writes. IV_TEXT is the IV's bytes as given, or "hex:" and the IV in hex. The first
 * backend given that takes the IV's length is used (plain sodium takes 12-byte IVs only).
 *   seal_blob KEY_HEX IV_TEXT BACKEND... < plaintext > blob */
#include <softchat/softchat.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_INPUT ((size_t)64 << 20)
#define MAX_IV 256u

int main(int argc, char **argv)
{
    uint8_t key[SC_AES256GCM_KEY_BYTES], tag[SC_AES256GCM_TAG_BYTES], iv[MAX_IV];
    uint8_t *buf = NULL;
    size_t len = 0, got, iv_len = 0;
    sc_status st = SC_ERR_UNSUPPORTED;
    int i, rc = 2;

    if (argc < 4 ||
        sc_hex_decode_fixed(key, sizeof key, argv[1], strlen(argv[1]), SC_HEX_ANY_CASE) != SC_OK) {
        fprintf(stderr, "usage: seal_blob KEY_HEX IV_TEXT|hex:IV_HEX BACKEND... < in > blob\n");
        return 2;
    }
    if (strncmp(argv[2], "hex:", 4) == 0) {
        if (sc_hex_decode(iv, sizeof iv, &iv_len, argv[2] + 4, strlen(argv[2] + 4),
                          SC_HEX_ANY_CASE) != SC_OK) {
            fprintf(stderr, "seal_blob: hex:IV_HEX: not hex, or over %u bytes\n", MAX_IV);
            return 2;
        }
    } else if ((iv_len = strlen(argv[2])) <= sizeof iv) {
        memcpy(iv, argv[2], iv_len);
    } else {
        fprintf(stderr, "seal_blob: IV_TEXT over %u bytes\n", MAX_IV);
        return 2;
    }
    buf = malloc(MAX_INPUT);
    if (buf == NULL) {
        fprintf(stderr, "seal_blob: out of memory\n");
        return 2;
    }
    while (len < MAX_INPUT && (got = fread(buf + len, 1, MAX_INPUT - len, stdin)) > 0) {
        len += got;
    }
    if (ferror(stdin) || !feof(stdin)) {
        fprintf(stderr, "seal_blob: cannot read stdin (at most %zu bytes)\n", MAX_INPUT);
        goto out;
    }
    for (i = 3; i < argc && st == SC_ERR_UNSUPPORTED; i++) {
        sc_ctx ctx;

        if (sc_ctx_init(&ctx, argv[i]) != SC_OK) {
            continue; /* not compiled in */
        }
        st = sc_crypto_aes256gcm_seal(&ctx, buf, tag, key, iv, iv_len, NULL, 0, buf, len);
        sc_ctx_clear(&ctx);
    }
    if (st != SC_OK) {
        fprintf(stderr, "seal_blob: no backend given seals with a %zu-byte IV: %s\n", iv_len,
                sc_status_name(st));
        goto out;
    }
    if (fwrite(buf, 1, len, stdout) != len || fwrite(tag, 1, sizeof tag, stdout) != sizeof tag ||
        fflush(stdout) != 0) {
        fprintf(stderr, "seal_blob: cannot write stdout\n");
        goto out;
    }
    rc = 0;
out:
    free(buf);
    return rc;
}
