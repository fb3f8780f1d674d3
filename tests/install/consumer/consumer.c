/* Installed-package consumer: binds every compiled backend and hashes "abc". */
#include <softchat/softchat.h>

#include <stdio.h>
#include <string.h>

int main(void)
{
    static const char want[] = "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad";
    size_t i;

    for (i = 0; i < sc_backend_count(); i++) {
        const char *name = sc_backend_at(i)->name;
        sc_ctx ctx;
        uint8_t d[32];
        char hex[64];
        size_t n;

        if (sc_ctx_init(&ctx, name) != SC_OK ||
            sc_crypto_sha256(&ctx, d, (const uint8_t *)"abc", 3) != SC_OK ||
            sc_hex_encode(hex, sizeof hex, &n, d, sizeof d) != SC_OK ||
            memcmp(hex, want, 64) != 0) {
            fprintf(stderr, "consumer: backend %s failed\n", name);
            return 1;
        }
        sc_ctx_clear(&ctx);
        printf("consumer: %s ok\n", name);
    }
    return 0;
}
