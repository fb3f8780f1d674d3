/* Argument and state checks of every NIP-44 function: NULL pointers (passed on purpose to
 * parameters the header declares non-NULL), lengths out of range, unknown flags, overlapping
 * buffers, and uninitialised contexts. Each failure must also leave its outputs as
 * documented. */
#include "test_nip44.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void test_own_args(void **state)
{
    nt_env *env = nt_env_of(state);
    uint8_t ck[32], nonce[32] = {0}, sec[32] = {0}, pub[32], k[32], n12[12], h[32];
    uint8_t *null = (uint8_t *)vt_null(), pt[8] = {1, 2, 3, 4, 5, 6, 7, 8}, dec[256];
    const char *cnull = (const char *)vt_null();
    sc_ctx *ctxnull = (sc_ctx *)vt_null(), dead;
    char out[256], payload[256];
    size_t len = 0, plen = 0, *lnull = (size_t *)vt_null();
    sc_nip44_conversation conv, *cvnull = (sc_nip44_conversation *)vt_null();
    sc_identity id;

    memset(&dead, 0, sizeof dead); /* a context never initialised */
    sec[31] = 7;
    memset(ck, 0x42, sizeof ck);
    VT_ASSERT_STATUS(sc_identity_import(&env->ctx, &id, sec), SC_OK);
    VT_ASSERT_STATUS(sc_identity_pubkey(pub, &id), SC_OK);

    /* conversation key: NULL anywhere is SC_ERR_ARG, a dead context SC_ERR_STATE; ck zeroed */
    VT_ASSERT_STATUS(sc_nip44_conversation_key(&env->ctx, null, sec, pub), SC_ERR_ARG);
    memset(k, 0x5a, 32);
    VT_ASSERT_STATUS(sc_nip44_conversation_key(&env->ctx, k, null, pub), SC_ERR_ARG);
    assert_true(vt_all_zero(k, 32));
    memset(k, 0x5a, 32);
    VT_ASSERT_STATUS(sc_nip44_conversation_key(&env->ctx, k, sec, null), SC_ERR_ARG);
    assert_true(vt_all_zero(k, 32));
    VT_ASSERT_STATUS(sc_nip44_conversation_key(ctxnull, k, sec, pub), SC_ERR_ARG);
    memset(k, 0x5a, 32);
    VT_ASSERT_STATUS(sc_nip44_conversation_key(&dead, k, sec, pub), SC_ERR_STATE);
    assert_true(vt_all_zero(k, 32));

    /* message keys: every output that exists is zeroed */
    memset(k, 0x5a, 32);
    memset(h, 0x5a, 32);
    VT_ASSERT_STATUS(sc_nip44_message_keys(&env->ctx, k, null, h, ck, nonce), SC_ERR_ARG);
    assert_true(vt_all_zero(k, 32) && vt_all_zero(h, 32));
    memset(n12, 0x5a, 12);
    VT_ASSERT_STATUS(sc_nip44_message_keys(&env->ctx, k, n12, h, null, nonce), SC_ERR_ARG);
    assert_true(vt_all_zero(n12, 12));
    VT_ASSERT_STATUS(sc_nip44_message_keys(&env->ctx, k, n12, h, ck, null), SC_ERR_ARG);
    VT_ASSERT_STATUS(sc_nip44_message_keys(&env->ctx, null, n12, h, ck, nonce), SC_ERR_ARG);
    VT_ASSERT_STATUS(sc_nip44_message_keys(&env->ctx, k, n12, null, ck, nonce), SC_ERR_ARG);
    VT_ASSERT_STATUS(sc_nip44_message_keys(ctxnull, k, n12, h, ck, nonce), SC_ERR_ARG);
    memset(k, 0x5a, 32);
    VT_ASSERT_STATUS(sc_nip44_message_keys(&dead, k, n12, h, ck, nonce), SC_ERR_STATE);
    assert_true(vt_all_zero(k, 32));

    /* encrypt */
    VT_ASSERT_STATUS(
        sc_nip44_encrypt_with_rand(&env->ctx, out, sizeof out, lnull, ck, nonce, pt, 8, 0),
        SC_ERR_ARG);
    len = 5;
    VT_ASSERT_STATUS(
        sc_nip44_encrypt_with_rand(&env->ctx, out, sizeof out, &len, null, nonce, pt, 8, 0),
        SC_ERR_ARG);
    assert_int_equal(len, 0);
    VT_ASSERT_STATUS(
        sc_nip44_encrypt_with_rand(&env->ctx, out, sizeof out, &len, ck, null, pt, 8, 0),
        SC_ERR_ARG);
    VT_ASSERT_STATUS(
        sc_nip44_encrypt_with_rand(&env->ctx, out, sizeof out, &len, ck, nonce, null, 8, 0),
        SC_ERR_ARG);
    VT_ASSERT_STATUS(
        sc_nip44_encrypt_with_rand(&env->ctx, out, sizeof out, &len, ck, nonce, null, 0, 0),
        SC_ERR_EMPTY); /* the spec has no empty plaintext */
    VT_ASSERT_STATUS(
        sc_nip44_encrypt_with_rand(&env->ctx, (char *)null, sizeof out, &len, ck, nonce, pt, 8, 0),
        SC_ERR_ARG);
    VT_ASSERT_STATUS(
        sc_nip44_encrypt_with_rand(ctxnull, out, sizeof out, &len, ck, nonce, pt, 8, 0),
        SC_ERR_ARG);
    VT_ASSERT_STATUS(sc_nip44_encrypt_with_rand(&dead, out, sizeof out, &len, ck, nonce, pt, 8, 0),
                     SC_ERR_STATE);
    VT_ASSERT_STATUS(
        sc_nip44_encrypt_with_rand(&env->ctx, out, sizeof out, &len, ck, nonce, pt, 8, 2u),
        SC_ERR_FLAGS); /* unknown flag */
    VT_ASSERT_STATUS(sc_nip44_encrypt(&env->ctx, out, sizeof out, &len, ck, pt, 8, 0x80000000u),
                     SC_ERR_FLAGS);
#if SIZE_MAX > 0xffffffffu
    /* beyond 2^32 - 1: refused from the length alone, before pt is read */
    VT_ASSERT_STATUS(sc_nip44_encrypt_with_rand(&env->ctx, out, sizeof out, &len, ck, nonce, pt,
                                                (size_t)4294967296u, SC_NIP44_EXTENDED),
                     SC_ERR_TOO_LARGE);
    VT_ASSERT_STATUS(
        sc_nip44_encrypt_with_rand(&env->ctx, out, sizeof out, &len, ck, nonce, pt, (size_t)-1, 0),
        SC_ERR_TOO_LARGE);
#endif
    /* pt or nonce inside the payload area: out is written before they are read */
    memcpy(out + 40, pt, 8);
    VT_ASSERT_STATUS(sc_nip44_encrypt_with_rand(&env->ctx, out, sizeof out, &len, ck, nonce,
                                                (uint8_t *)out + 40, 8, 0),
                     SC_ERR_OVERLAP);
    VT_ASSERT_STATUS(sc_nip44_encrypt_with_rand(&env->ctx, out, sizeof out, &len, ck,
                                                (uint8_t *)out + 100, pt, 8, 0),
                     SC_ERR_OVERLAP);
    /* ...but a plaintext right after the payload area is fine */
    memcpy(out + 132, pt, 8);
    VT_ASSERT_STATUS(sc_nip44_encrypt_with_rand(&env->ctx, out, 132, &len, ck, nonce,
                                                (uint8_t *)out + 132, 8, 0),
                     SC_OK);
    VT_ASSERT_STATUS(sc_nip44_encrypt(&env->ctx, out, sizeof out, &len, null, pt, 8, 0),
                     SC_ERR_ARG);
    VT_ASSERT_STATUS(sc_nip44_encrypt(&env->ctx, out, sizeof out, lnull, ck, pt, 8, 0), SC_ERR_ARG);
    VT_ASSERT_STATUS(sc_nip44_encrypt(&dead, out, sizeof out, &len, ck, pt, 8, 0), SC_ERR_STATE);

    /* decrypt */
    VT_ASSERT_STATUS(
        sc_nip44_encrypt_with_rand(&env->ctx, payload, sizeof payload, &plen, ck, nonce, pt, 8, 0),
        SC_OK);
    VT_ASSERT_STATUS(sc_nip44_decrypt(&env->ctx, dec, sizeof dec, lnull, ck, payload, plen, 0),
                     SC_ERR_ARG);
    len = 5;
    VT_ASSERT_STATUS(sc_nip44_decrypt(&env->ctx, dec, sizeof dec, &len, null, payload, plen, 0),
                     SC_ERR_ARG);
    assert_int_equal(len, 0);
    VT_ASSERT_STATUS(sc_nip44_decrypt(&env->ctx, dec, sizeof dec, &len, ck, cnull, plen, 0),
                     SC_ERR_ARG);
    VT_ASSERT_STATUS(sc_nip44_decrypt(&env->ctx, dec, sizeof dec, &len, ck, cnull, 0, 0),
                     SC_ERR_VERSION); /* an empty payload may be NULL */
    VT_ASSERT_STATUS(sc_nip44_decrypt(&env->ctx, null, sizeof dec, &len, ck, payload, plen, 0),
                     SC_ERR_ARG);
    VT_ASSERT_STATUS(sc_nip44_decrypt(ctxnull, dec, sizeof dec, &len, ck, payload, plen, 0),
                     SC_ERR_ARG);
    VT_ASSERT_STATUS(sc_nip44_decrypt(&dead, dec, sizeof dec, &len, ck, payload, plen, 0),
                     SC_ERR_STATE);
    /* decoding into the payload's own memory is refused */
    VT_ASSERT_STATUS(
        sc_nip44_decrypt(&env->ctx, (uint8_t *)payload, sizeof payload, &len, ck, payload, plen, 0),
        SC_ERR_OVERLAP);
    VT_ASSERT_STATUS(sc_nip44_decrypt(&env->ctx, dec, sizeof dec, &len, ck, payload, plen, 0),
                     SC_OK); /* control */
    assert_int_equal(len, 8);

    /* held conversations */
    VT_ASSERT_STATUS(sc_nip44_conversation_init(&env->ctx, cvnull, &id, pub), SC_ERR_ARG);
    VT_ASSERT_STATUS(sc_nip44_conversation_init_key(&conv, ck), SC_OK);
    VT_ASSERT_STATUS(
        sc_nip44_conversation_init(&env->ctx, &conv, (const sc_identity *)vt_null(), pub),
        SC_ERR_ARG);
    assert_true(vt_all_zero((const uint8_t *)&conv, sizeof conv));
    VT_ASSERT_STATUS(sc_nip44_conversation_init(&env->ctx, &conv, &id, null), SC_ERR_ARG);
    VT_ASSERT_STATUS(sc_nip44_conversation_init(ctxnull, &conv, &id, pub), SC_ERR_ARG);
    VT_ASSERT_STATUS(sc_nip44_conversation_init(&dead, &conv, &id, pub), SC_ERR_STATE);
    assert_true(vt_all_zero((const uint8_t *)&conv, sizeof conv));
    VT_ASSERT_STATUS(sc_nip44_conversation_init_key(cvnull, ck), SC_ERR_ARG);
    VT_ASSERT_STATUS(sc_nip44_conversation_init_key(&conv, ck), SC_OK);
    VT_ASSERT_STATUS(sc_nip44_conversation_init_key(&conv, null), SC_ERR_ARG);
    assert_true(vt_all_zero((const uint8_t *)&conv, sizeof conv));
    VT_ASSERT_STATUS(sc_nip44_conversation_init_key(&conv, ck), SC_OK);
    VT_ASSERT_STATUS(
        sc_nip44_conversation_encrypt(&env->ctx, out, sizeof out, &len, cvnull, pt, 8, 0),
        SC_ERR_ARG);
    VT_ASSERT_STATUS(
        sc_nip44_conversation_encrypt(&env->ctx, out, sizeof out, lnull, &conv, pt, 8, 0),
        SC_ERR_ARG);
    VT_ASSERT_STATUS(
        sc_nip44_conversation_decrypt(&env->ctx, dec, sizeof dec, &len, cvnull, payload, plen, 0),
        SC_ERR_ARG);
    VT_ASSERT_STATUS(
        sc_nip44_conversation_decrypt(&env->ctx, dec, sizeof dec, lnull, &conv, payload, plen, 0),
        SC_ERR_ARG);
    VT_ASSERT_STATUS(
        sc_nip44_conversation_decrypt(&dead, dec, sizeof dec, &len, &conv, payload, plen, 0),
        SC_ERR_STATE);
    VT_ASSERT_STATUS(
        sc_nip44_conversation_decrypt(&env->ctx, dec, sizeof dec, &len, &conv, payload, plen, 0),
        SC_OK);
    sc_nip44_conversation_clear(&conv);
    sc_identity_clear(&id);
    printf("[%s] own: argument and state checks passed\n", env->backend);
}
