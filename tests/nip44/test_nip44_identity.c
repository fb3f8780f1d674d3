/* NIP-44 between an identity and a peer: sc_nip44_encrypt_to / _with_rand and
 * sc_nip44_decrypt_from produce exactly what the conversation-key calls produce for the same
 * keys and nonce, in both directions; every check that needs no curve runs before the ECDH
 * (a size query or a bad argument succeeds or fails the same with a peer that is not on the
 * curve); an identity never imported or cleared is SC_ERR_STATE. */
#include "test_nip44.h"

#include <string.h>

void test_own_identity_calls(void **state)
{
    nt_env *env = nt_env_of(state);
    static const uint8_t pt[] = "a message between two identities";
    uint8_t sa[32], sb[32], pa[32], pb[32], ck[32], nonce[32], bad[32], dec[256];
    char p1[256], p2[256];
    size_t n1 = 0, n2 = 0, n = 0, need = sc_nip44_encrypt_len(sizeof pt - 1);
    sc_identity a, b, cleared;

    memset(sa, 0x11, sizeof sa);
    memset(sb, 0x22, sizeof sb);
    memset(nonce, 0x33, sizeof nonce);
    memset(bad, 0, sizeof bad);
    bad[31] = 5; /* x = 5 lifts to no point */
    VT_ASSERT_STATUS(sc_identity_import(&env->ctx, &a, sa), SC_OK);
    VT_ASSERT_STATUS(sc_identity_import(&env->ctx, &b, sb), SC_OK);
    VT_ASSERT_STATUS(sc_identity_pubkey(pa, &a), SC_OK);
    VT_ASSERT_STATUS(sc_identity_pubkey(pb, &b), SC_OK);
    VT_ASSERT_STATUS(sc_nip44_conversation_key(&env->ctx, ck, sa, pb), SC_OK);

    /* the same bytes as the keyed primitive */
    VT_ASSERT_STATUS(sc_nip44_encrypt_to_with_rand(&env->ctx, p1, sizeof p1, &n1, &a, pb, nonce, pt,
                                                   sizeof pt - 1, 0),
                     SC_OK);
    VT_ASSERT_STATUS(
        sc_nip44_encrypt_with_rand(&env->ctx, p2, sizeof p2, &n2, ck, nonce, pt, sizeof pt - 1, 0),
        SC_OK);
    assert_int_equal(n1, need);
    assert_int_equal(n1, n2);
    assert_memory_equal(p1, p2, n1);
    /* b opens it from a; a opens its own message to b too (the key is symmetric) */
    VT_ASSERT_STATUS(sc_nip44_decrypt_from(&env->ctx, dec, sizeof dec, &n, &b, pa, p1, n1, 0),
                     SC_OK);
    assert_int_equal(n, sizeof pt - 1);
    assert_memory_equal(dec, pt, n);
    VT_ASSERT_STATUS(sc_nip44_decrypt_from(&env->ctx, dec, sizeof dec, &n, &a, pb, p1, n1, 0),
                     SC_OK);
    /* with a fresh nonce: still opens */
    VT_ASSERT_STATUS(
        sc_nip44_encrypt_to(&env->ctx, p2, sizeof p2, &n2, &b, pa, pt, sizeof pt - 1, 0), SC_OK);
    assert_true(n2 == n1 && memcmp(p1, p2, n1) != 0);
    VT_ASSERT_STATUS(sc_nip44_decrypt_from(&env->ctx, dec, sizeof dec, &n, &a, pb, p2, n2, 0),
                     SC_OK);
    assert_memory_equal(dec, pt, sizeof pt - 1);

    /* the checks before the ECDH: a peer off the curve does not matter to them */
    n = 7;
    VT_ASSERT_STATUS(sc_nip44_encrypt_to(&env->ctx, NULL, 0, &n, &a, bad, pt, sizeof pt - 1, 0),
                     SC_ERR_BUFFER_TOO_SMALL);
    assert_int_equal(n, need);
    VT_ASSERT_STATUS(sc_nip44_encrypt_to(&env->ctx, p2, sizeof p2, &n, &a, bad, pt, 0, 0),
                     SC_ERR_EMPTY);
    VT_ASSERT_STATUS(sc_nip44_encrypt_to(&env->ctx, p2, sizeof p2, &n, &a, bad, pt, 3, 8u),
                     SC_ERR_FLAGS);
    VT_ASSERT_STATUS(sc_nip44_decrypt_from(&env->ctx, NULL, 0, &n, &a, bad, p1, n1, 0),
                     SC_ERR_BUFFER_TOO_SMALL);
    assert_int_equal(n, sc_nip44_decrypt_max(n1));
    VT_ASSERT_STATUS(sc_nip44_decrypt_from(&env->ctx, dec, sizeof dec, &n, &a, bad, "#x", 2, 0),
                     SC_ERR_VERSION);
    /* ...and then the ECDH refuses it, with nothing written */
    memset(p2, 0x5a, sizeof p2);
    VT_ASSERT_STATUS(
        sc_nip44_encrypt_to(&env->ctx, p2, sizeof p2, &n, &a, bad, pt, sizeof pt - 1, 0),
        SC_ERR_INVALID_KEY);
    assert_int_equal(n, 0);
    assert_true(p2[0] == 0x5a && p2[need - 1] == 0x5a);
    VT_ASSERT_STATUS(sc_nip44_decrypt_from(&env->ctx, dec, sizeof dec, &n, &a, bad, p1, n1, 0),
                     SC_ERR_INVALID_KEY);
    /* a tampered payload from the right peer: the MAC fails, nothing released */
    p1[60] = p1[60] == 'A' ? 'B' : 'A';
    VT_ASSERT_STATUS(sc_nip44_decrypt_from(&env->ctx, dec, sizeof dec, &n, &b, pa, p1, n1, 0),
                     SC_ERR_MAC);
    assert_int_equal(n, 0);

    /* identities: never imported, cleared, NULL */
    memset(&cleared, 0, sizeof cleared);
    VT_ASSERT_STATUS(sc_nip44_encrypt_to(&env->ctx, p2, sizeof p2, &n, &cleared, pb, pt, 3, 0),
                     SC_ERR_STATE);
    VT_ASSERT_STATUS(sc_nip44_decrypt_from(&env->ctx, dec, sizeof dec, &n, &cleared, pa, p2, n2, 0),
                     SC_ERR_STATE);
    VT_ASSERT_STATUS(sc_nip44_encrypt_to(&env->ctx, p2, sizeof p2, &n,
                                         (const sc_identity *)vt_null(), pb, pt, 3, 0),
                     SC_ERR_ARG);
    VT_ASSERT_STATUS(sc_nip44_encrypt_to_with_rand(&env->ctx, p2, sizeof p2, &n, &a, pb,
                                                   (const uint8_t *)vt_null(), pt, 3, 0),
                     SC_ERR_ARG);
    VT_ASSERT_STATUS(
        sc_nip44_decrypt_from(&env->ctx, dec, sizeof dec, (size_t *)vt_null(), &a, pb, p2, n2, 0),
        SC_ERR_ARG);
    sc_identity_clear(&a);
    VT_ASSERT_STATUS(sc_nip44_encrypt_to(&env->ctx, p2, sizeof p2, &n, &a, pb, pt, 3, 0),
                     SC_ERR_STATE);
    sc_identity_clear(&b);
    sc_mem_wipe(ck, sizeof ck);
}
