/* NIP-49 ncryptsec strings from anyone (a pasted backup). Input: a mode byte (data[0] % 2),
 * then the mode's bytes.
 *   0 text:  the rest is an ncryptsec and, after its first newline, a password: inspected,
 *            and decrypted when its cost is at most log_n 3 (scrypt's cost is the input's
 *            to choose; a fuzzer must not pay 4 GiB).
 *   1 made:  the rest gives a secret key, a password, a salt, a nonce, a cost (1..3) and a
 *            key-security byte; the key is sealed, must open again to itself with the same
 *            security byte and inspect to that cost, and must not open once one character
 *            of the text is changed (bech32's checksum catches every single change).
 * Runs on the backends with scrypt and XChaCha20-Poly1305 (none: nothing to do).
 * Checks: only documented statuses; a refused decryption leaves the key zeroed and the
 * security byte untouched; an accepted one gives a valid secret key. */
#include "fuzz_common.h"

#include <stdlib.h>
#include <string.h>

#define MAX_COST 3 /* 8 KiB of scrypt memory at r = 8 */

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    fz_setup();
    return 0;
}

static void text_mode(sc_ctx *ctx, fz_in *in)
{
    size_t rest = 0, i = 0;
    const uint8_t *t = fz_take(in, in->n, &rest);
    uint8_t *text, *pw, sec[32];
    sc_nip49_security security = (sc_nip49_security)7;
    unsigned log_n = 99;
    sc_identity id;
    sc_status st;

    while (i < rest && t[i] != '\n') {
        i++;
    }
    text = fz_dup(t, i);
    pw = fz_dup(i < rest ? t + i + 1 : t, i < rest ? rest - i - 1 : 0);
    st = sc_nip49_inspect(&log_n, &security, (const char *)text, i);
    FZ_STATUS_IN(st, SC_OK, SC_ERR_BECH32, SC_ERR_PAYLOAD_SIZE, SC_ERR_VERSION, SC_ERR_SCRYPT_COST,
                 SC_ERR_ENCODING);
    FZ_REQUIRE(st == SC_OK ? (log_n >= 1 && log_n <= SC_NIP49_LOG_N_MAX && security <= 2)
                           : (int)security == 7);
    if (st == SC_OK && log_n <= MAX_COST) {
        memset(sec, FZ_CANARY, sizeof sec);
        security = (sc_nip49_security)7;
        st = sc_nip49_decrypt(ctx, sec, &security, (const char *)text, i, (const char *)pw,
                              i < rest ? rest - i - 1 : 0);
        FZ_STATUS_IN(st, SC_OK, SC_ERR_UTF8, SC_ERR_AUTH, SC_ERR_INVALID_KEY);
        if (st == SC_OK) {
            FZ_REQUIRE(security <= 2);
            FZ_REQUIRE(sc_identity_import(ctx, &id, sec) == SC_OK);
            sc_identity_clear(&id);
        } else {
            FZ_REQUIRE(fz_all_zero(sec, sizeof sec) && (int)security == 7);
        }
    }
    free(text);
    free(pw);
}

static void made_mode(sc_ctx *ctx, fz_in *in)
{
    uint8_t sec[32], back[32], salt[16], nonce[24], pwlen;
    char pw[64], text[SC_NIP49_LEN];
    unsigned cost, log_n = 0;
    sc_nip49_security security, got = SC_NIP49_KEY_UNKNOWN;
    size_t n = 0, at;
    sc_status st;

    fz_bytes(in, sec, sizeof sec);
    pwlen = (uint8_t)(fz_u8(in) % sizeof pw);
    fz_bytes(in, pw, pwlen);
    fz_bytes(in, salt, sizeof salt);
    fz_bytes(in, nonce, sizeof nonce);
    cost = 1 + fz_u8(in) % MAX_COST;
    security = (sc_nip49_security)(fz_u8(in) % 3);
    at = fz_u8(in);
    st = sc_nip49_encrypt_with_rand(ctx, text, sizeof text, &n, sec, pw, pwlen, cost, security,
                                    salt, nonce);
    FZ_STATUS_IN(st, SC_OK, SC_ERR_EMPTY, SC_ERR_UTF8, SC_ERR_INVALID_KEY);
    if (st != SC_OK) {
        FZ_REQUIRE(n == 0 && fz_all_zero(text, sizeof text));
        return;
    }
    FZ_REQUIRE(n == SC_NIP49_LEN);
    FZ_REQUIRE(sc_nip49_inspect(&log_n, &got, text, n) == SC_OK && log_n == cost &&
               got == security);
    FZ_REQUIRE(sc_nip49_decrypt(ctx, back, &got, text, n, pw, pwlen) == SC_OK);
    FZ_REQUIRE(memcmp(back, sec, sizeof sec) == 0 && got == security);
    /* one character changed: the checksum refuses it (never a key) */
    at = 10 + at % (n - 10);
    text[at] = text[at] == 'q' ? 'p' : 'q';
    st = sc_nip49_decrypt(ctx, back, NULL, text, n, pw, pwlen);
    FZ_REQUIRE(st == SC_ERR_BECH32 && fz_all_zero(back, sizeof back));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fz_in in = {data, size};
    uint8_t mode = fz_u8(&in);
    size_t b = fz_backend_with(SC_CAP_SCRYPT, fz_u8(&in));

    if (b == SIZE_MAX) {
        return 0; /* no compiled backend has NIP-49's primitives */
    }
    if (mode % 2 == 0) {
        text_mode(fz_ctx(b), &in);
    } else {
        made_mode(fz_ctx(b), &in);
    }
    return 0;
}
