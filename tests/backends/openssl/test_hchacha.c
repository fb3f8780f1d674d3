/* backend.openssl.hchacha: the openssl backend's HChaCha20, derived from one OpenSSL ChaCha20
 * block (backends/openssl/xchacha.c), against draft-irtf-cfrg-xchacha-03 section 2.2.1, and
 * against the construction written out again here over another library's ChaCha20 block
 * (libsodium's or mbed TLS's, through the public API, when compiled in): the block minus the
 * initial state, for inputs whose counter word spans its whole range. The XChaCha20-Poly1305
 * vectors built on it run in vectors.openssl. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>
#include <softchat/softchat.h>

#include "../../backends/openssl/groups.h"
#include "vectors_util.h"

/* draft-irtf-cfrg-xchacha-03 2.2.1 */
static void test_draft_vector(void **state)
{
    uint8_t key[32], in[16], out[32];
    sc_bstate *st = NULL;
    size_t i;

    (void)state;
    for (i = 0; i < 32; i++) {
        key[i] = (uint8_t)i;
    }
    memcpy(in, "\x00\x00\x00\x09\x00\x00\x00\x4a\x00\x00\x00\x00\x31\x41\x59\x27", 16);
    VT_ASSERT_STATUS(sc_openssl_xaead.setup(&st), SC_OK);
    VT_ASSERT_STATUS(sc_openssl_hchacha20(st, out, key, in), SC_OK);
    sc_openssl_xaead.teardown(st);
    assert_true(
        vt_hex_is(out, 32, "82413b4227b27bfed30e42508a877d73a0f9e4d58a74a853c12ec41326d3ecdc"));
}

static uint32_t le32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* A compiled backend other than openssl whose ChaCha20 takes any block counter, or openssl. */
static const char *other_chacha20(void)
{
    size_t i;

    for (i = 0; i < sc_backend_count(); i++) {
        const sc_backend *b = sc_backend_at(i);

        if (strcmp(b->name, "openssl") != 0 &&
            sc_backend_has(b, SC_CAP_CHACHA20_COUNTER, NULL) == SC_OK) {
            return b->name;
        }
    }
    return "openssl";
}

/* The construction again, over another backend's ChaCha20 block, for counters 0, 1, 2^31
 * and 2^32 - 1 and random keys. */
static void test_against_block_minus_state(void **state)
{
    static const uint32_t counters[4] = {0u, 1u, 0x80000000u, 0xffffffffu};
    static const uint32_t sigma[4] = {0x61707865u, 0x3320646eu, 0x79622d32u, 0x6b206574u};
    uint8_t key[32], in[16], got[32], block[64];
    sc_bstate *st = NULL;
    sc_ctx ctx;
    size_t c, i;

    (void)state;
    printf("reference ChaCha20 block: backend %s\n", other_chacha20());
    VT_ASSERT_STATUS(sc_ctx_init(&ctx, other_chacha20()), SC_OK);
    VT_ASSERT_STATUS(sc_openssl_xaead.setup(&st), SC_OK);
    for (c = 0; c < 4; c++) {
        VT_ASSERT_STATUS(sc_crypto_rng_fill(&ctx, key, sizeof key), SC_OK);
        VT_ASSERT_STATUS(sc_crypto_rng_fill(&ctx, in, sizeof in), SC_OK);
        in[0] = (uint8_t)counters[c];
        in[1] = (uint8_t)(counters[c] >> 8);
        in[2] = (uint8_t)(counters[c] >> 16);
        in[3] = (uint8_t)(counters[c] >> 24);
        memset(block, 0, sizeof block);
        VT_ASSERT_STATUS(
            sc_crypto_chacha20_xor(&ctx, block, block, sizeof block, key, in + 4, counters[c]),
            SC_OK);
        VT_ASSERT_STATUS(sc_openssl_hchacha20(st, got, key, in), SC_OK);
        for (i = 0; i < 4; i++) {
            assert_int_equal(le32(got + 4 * i), (uint32_t)(le32(block + 4 * i) - sigma[i]));
            assert_int_equal(le32(got + 16 + 4 * i),
                             (uint32_t)(le32(block + 48 + 4 * i) - le32(in + 4 * i)));
        }
    }
    sc_openssl_xaead.teardown(st);
    sc_ctx_clear(&ctx);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_draft_vector),
        cmocka_unit_test(test_against_block_minus_state),
    };

    return cmocka_run_group_tests_name("backend.openssl.hchacha", tests, NULL, NULL);
}
