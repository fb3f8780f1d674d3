/* docs/api.md "A key under a password (NIP-49)": a secret key sealed into an ncryptsec, its
 * cost read back before paying it, and the key opened again. Run: nip49 [BACKEND]. Exit 0 when
 * every step works; 77 when the backend has no scrypt (mbedtls, psa). */
#include <softchat/softchat.h>

#include <stdio.h>
#include <string.h>

#define CHECK(call)                                                                                \
    do {                                                                                           \
        sc_status st_ = (call);                                                                    \
        if (st_ != SC_OK) {                                                                        \
            fprintf(stderr, "%s: %s\n", #call, sc_status_name(st_));                               \
            return 1;                                                                              \
        }                                                                                          \
    } while (0)

int main(int argc, char **argv)
{
    static const char password[] = "correct horse battery staple"; /* already NFKC */
    uint8_t sec[SC_SECKEY_BYTES], back[SC_SECKEY_BYTES];
    char ncryptsec[SC_NIP49_LEN];
    sc_nip49_security security;
    size_t len;
    unsigned log_n;
    sc_identity id;
    sc_ctx ctx;

    CHECK(sc_ctx_init(&ctx, argc > 1 ? argv[1] : NULL));
    if (sc_backend_has(sc_ctx_backend(&ctx), SC_CAP_SCRYPT, NULL) != SC_OK) {
        sc_ctx_clear(&ctx);
        return 77; /* mbed TLS has no scrypt: sodium and sodium+mbedtls do */
    }
    CHECK(sc_identity_generate(&ctx, &id));
    CHECK(sc_identity_seckey(sec, &id)); /* the key to back up */

    /* api.md: begin nip49 */
    /* seal: 64 MiB of scrypt memory at the default cost, a fresh salt and nonce */
    CHECK(sc_nip49_encrypt(&ctx, ncryptsec, sizeof ncryptsec, &len, sec, password, strlen(password),
                           SC_NIP49_LOG_N_DEFAULT, SC_NIP49_KEY_SECURE));
    sc_mem_wipe(sec, sizeof sec);

    /* open: first learn what it costs, and refuse what this app will not pay */
    CHECK(sc_nip49_inspect(&log_n, &security, ncryptsec, len));
    if (log_n > 18) { /* 256 MiB */
        fprintf(stderr, "this ncryptsec needs %llu bytes of memory\n",
                (unsigned long long)sc_crypto_scrypt_memory(log_n, 8, 1));
        return 1;
    }
    CHECK(sc_nip49_decrypt(&ctx, back, &security, ncryptsec, len, password, strlen(password)));
    /* SC_ERR_AUTH here means a wrong password */
    /* api.md: end nip49 */

    CHECK(sc_identity_seckey(sec, &id));
    if (memcmp(back, sec, sizeof sec) != 0 || security != SC_NIP49_KEY_SECURE) {
        fprintf(stderr, "the key did not come back\n");
        return 1;
    }
    printf("%.*s\n", (int)len, ncryptsec);
    sc_mem_wipe(sec, sizeof sec);
    sc_mem_wipe(back, sizeof back);
    sc_identity_clear(&id);
    sc_ctx_clear(&ctx);
    return 0;
}
