/* test_table: every compiled table validates and binds; the registry is in configured order;
 * malformed tables are refused (wrong ABI major, missing functions, oversized hash state,
 * unpaired setup/teardown, a group size short of a required function); a longer group (a
 * newer ABI minor) is accepted; a short struct_size hides later groups; contexts on different
 * backends coexist. Miswired doubles are in test_table_doubles.c. */
#include "test_table.h"

#include <stdio.h>
#include <string.h>

#ifndef SC_TEST_BACKENDS
#define SC_TEST_BACKENDS ""
#endif

void tt_expect_init_fails(const sc_backend *t, sc_status want, const char *what)
{
    uint8_t zero[sizeof(sc_ctx)];
    sc_ctx ctx;
    sc_status st;

    memset(zero, 0, sizeof zero);
    memset(&ctx, 0xa5, sizeof ctx);
    st = sc_ctx_init_table(&ctx, t);
    if (st == SC_OK) {
        sc_ctx_clear(&ctx);
    }
    if (st != want) {
        fail_msg("%s: sc_ctx_init_table returned %s, expected %s", what, sc_status_name(st),
                 sc_status_name(want));
    }
    if (memcmp(&ctx, zero, sizeof ctx) != 0) {
        fail_msg("%s: the context is not zeroed after the failed init", what);
    }
}

static void test_registry(void **state)
{
    const char *configured = SC_TEST_BACKENDS;
    size_t i, j, n = sc_backend_count();

    (void)state;
    assert_true(n >= 1);
    assert_ptr_equal(sc_backend_at(0), sc_backend_default());
    printf("registry: %zu backend(s), configured \"%s\"\n", n, configured);
    for (i = 0; i < n; i++) {
        const sc_backend *b = sc_backend_at(i);
        size_t nl;

        assert_non_null(b);
        assert_non_null(b->name);
        nl = strlen(b->name);
        assert_ptr_equal(sc_backend_find(b->name), b);
        VT_ASSERT_STATUS(sc_backend_validate(b), SC_OK);
        assert_int_equal(b->abi_version >> 16, SC_BACKEND_ABI_MAJOR);
        assert_non_null(b->lib_version());
        for (j = 0; j < i; j++) {
            assert_string_not_equal(sc_backend_at(j)->name, b->name);
        }
        /* the registry follows SOFTCHAT_BACKENDS, in order */
        if (strncmp(configured, b->name, nl) != 0 ||
            (configured[nl] != ',' && configured[nl] != '\0')) {
            fail_msg("registry entry %zu is %s; the configured list continues \"%s\"", i, b->name,
                     configured);
        }
        configured += nl + (configured[nl] == ',');
        printf("  %zu: %s (%s)%s\n", i, b->name, b->lib_version(), i == 0 ? " default" : "");
    }
    assert_string_equal(configured, "");
}

static void test_every_backend_binds(void **state)
{
    size_t i;
    unsigned g;

    (void)state;
    for (i = 0; i < sc_backend_count(); i++) {
        const sc_backend *b = sc_backend_at(i);
        sc_ctx ctx;

        VT_ASSERT_STATUS(sc_ctx_init_table(&ctx, b), SC_OK);
        assert_ptr_equal(sc_ctx_backend(&ctx), b);
        for (g = 0; g < SC_GROUP_COUNT; g++) {
            sc_status st = sc_ctx_selftest(&ctx, (sc_group)g);

            if (sc_backend_group_lib(b, (sc_group)g) == NULL) {
                VT_ASSERT_STATUS(st, SC_ERR_UNSUPPORTED);
            } else if (!(g == SC_GROUP_AEAD && st == SC_ERR_UNSUPPORTED)) {
                VT_ASSERT_STATUS(st, SC_OK);
            }
        }
        sc_ctx_clear(&ctx);
    }
}

/* ---- malformed tables ------------------------------------------------------------------ */

static const char *no_version(void)
{
    return "test double";
}

static void expect_refused(const sc_backend *t, const char *what)
{
    if (sc_backend_validate(t) != SC_ERR_BACKEND) {
        fail_msg("%s: sc_backend_validate accepted it", what);
    }
    tt_expect_init_fails(t, SC_ERR_BACKEND, what);
}

static void test_malformed_header(void **state)
{
    const sc_backend *d = sc_backend_default();
    sc_backend t;
    sc_ctx ctx;

    (void)state;
    t = *d;
    t.abi_version = (uint32_t)(SC_BACKEND_ABI_MAJOR + 1) << 16;
    expect_refused(&t, "ABI major + 1");
    t.abi_version = SC_BACKEND_ABI_MINOR;
    expect_refused(&t, "ABI major 0");
    t.abi_version = (uint32_t)1 << 16; /* before groups had a size */
    expect_refused(&t, "ABI major 1");
    t = *d;
    t.name = NULL;
    expect_refused(&t, "NULL name");
    t.name = "";
    expect_refused(&t, "empty name");
    t = *d;
    t.lib_version = NULL;
    expect_refused(&t, "NULL lib_version");
    t = *d;
    t.struct_size = (uint32_t)offsetof(sc_backend, hash) - 1;
    expect_refused(&t, "struct_size shorter than the header");
    /* a newer minor version of the same major is accepted */
    t = *d;
    t.abi_version = SC_BACKEND_ABI_VERSION + 1;
    t.lib_version = no_version;
    VT_ASSERT_STATUS(sc_backend_validate(&t), SC_OK);
    VT_ASSERT_STATUS(sc_ctx_init_table(&ctx, &t), SC_OK);
    sc_ctx_clear(&ctx);
}

/* The default table with function `field` of group `grp` (a sub-table of type `type`)
 * removed must be refused. */
#define EXPECT_REFUSED_WITHOUT(type, grp, field)                                                   \
    do {                                                                                           \
        type g_ = *d->grp;                                                                         \
        sc_backend t_ = *d;                                                                        \
        g_.field = NULL;                                                                           \
        t_.grp = &g_;                                                                              \
        expect_refused(&t_, #grp "." #field " NULL");                                              \
        refused++;                                                                                 \
    } while (0)

static void test_malformed_groups(void **state)
{
    const sc_backend *d = sc_backend_default();
    size_t refused = 0;

    (void)state;
    if (d->hash != NULL) {
        EXPECT_REFUSED_WITHOUT(sc_backend_hash, hash, lib);
        EXPECT_REFUSED_WITHOUT(sc_backend_hash, hash, sha256);
        EXPECT_REFUSED_WITHOUT(sc_backend_hash, hash, init);
        EXPECT_REFUSED_WITHOUT(sc_backend_hash, hash, update);
        EXPECT_REFUSED_WITHOUT(sc_backend_hash, hash, final);
    }
    if (d->mac != NULL) {
        EXPECT_REFUSED_WITHOUT(sc_backend_mac, mac, lib);
        EXPECT_REFUSED_WITHOUT(sc_backend_mac, mac, hmac_sha256);
    }
    if (d->stream != NULL) {
        EXPECT_REFUSED_WITHOUT(sc_backend_stream, stream, lib);
        EXPECT_REFUSED_WITHOUT(sc_backend_stream, stream, chacha20_xor);
    }
    if (d->aead != NULL) {
        EXPECT_REFUSED_WITHOUT(sc_backend_aead, aead, lib);
        EXPECT_REFUSED_WITHOUT(sc_backend_aead, aead, probe);
        EXPECT_REFUSED_WITHOUT(sc_backend_aead, aead, seal);
        EXPECT_REFUSED_WITHOUT(sc_backend_aead, aead, open);
        EXPECT_REFUSED_WITHOUT(sc_backend_aead, aead, start);
        EXPECT_REFUSED_WITHOUT(sc_backend_aead, aead, update);
        EXPECT_REFUSED_WITHOUT(sc_backend_aead, aead, final);
        EXPECT_REFUSED_WITHOUT(sc_backend_aead, aead, abort);
    }
    if (d->rng != NULL) {
        EXPECT_REFUSED_WITHOUT(sc_backend_rng, rng, lib);
        EXPECT_REFUSED_WITHOUT(sc_backend_rng, rng, fill);
    }
    if (d->curve != NULL) {
        EXPECT_REFUSED_WITHOUT(sc_backend_curve, curve, lib);
        EXPECT_REFUSED_WITHOUT(sc_backend_curve, curve, keypair);
        EXPECT_REFUSED_WITHOUT(sc_backend_curve, curve, sign);
        EXPECT_REFUSED_WITHOUT(sc_backend_curve, curve, verify);
        EXPECT_REFUSED_WITHOUT(sc_backend_curve, curve, ecdh_x);
    }
    if (d->xaead != NULL) {
        EXPECT_REFUSED_WITHOUT(sc_backend_xaead, xaead, lib);
        EXPECT_REFUSED_WITHOUT(sc_backend_xaead, xaead, seal);
        EXPECT_REFUSED_WITHOUT(sc_backend_xaead, xaead, open);
    }
    if (d->scrypt != NULL) {
        EXPECT_REFUSED_WITHOUT(sc_backend_scrypt, scrypt, lib);
        EXPECT_REFUSED_WITHOUT(sc_backend_scrypt, scrypt, scrypt);
    }
    printf("%zu tables with one function missing were refused\n", refused);
    assert_true(refused >= 10);
}

/* The default table with group `grp` declaring a size that stops just short of the end of
 * required field `field`: the field counts as absent and the table must be refused. */
#define EXPECT_REFUSED_SHORT(type, grp, field)                                                     \
    do {                                                                                           \
        type g_ = *d->grp;                                                                         \
        sc_backend t_ = *d;                                                                        \
        g_.size = (uint32_t)(offsetof(type, field) + sizeof g_.field - 1);                         \
        t_.grp = &g_;                                                                              \
        expect_refused(&t_, #grp ".size short of " #field);                                        \
        g_.size = 0;                                                                               \
        expect_refused(&t_, #grp ".size 0");                                                       \
        refused++;                                                                                 \
    } while (0)

/* A group from a newer ABI minor: the known group followed by a function this build does not
 * know. Its size covers both; core reads the known part only. */
#define EXPECT_ACCEPTED_LONGER(type, grp)                                                          \
    do {                                                                                           \
        struct {                                                                                   \
            type g;                                                                                \
            sc_status (*appended)(sc_bstate * st);                                                 \
        } newer_;                                                                                  \
        sc_backend t_ = *d;                                                                        \
        sc_ctx ctx_;                                                                               \
        memset(&newer_, 0, sizeof newer_);                                                         \
        newer_.g = *d->grp;                                                                        \
        newer_.g.size = (uint32_t)sizeof newer_;                                                   \
        newer_.appended = never_called;                                                            \
        t_.grp = &newer_.g;                                                                        \
        VT_ASSERT_STATUS(sc_backend_validate(&t_), SC_OK);                                         \
        VT_ASSERT_STATUS(sc_ctx_init_table(&ctx_, &t_), SC_OK);                                    \
        assert_string_equal(sc_backend_group_lib(&t_, SC_GROUP_##grp##_ID), d->grp->lib);          \
        sc_ctx_clear(&ctx_);                                                                       \
        accepted++;                                                                                \
    } while (0)
#define SC_GROUP_hash_ID SC_GROUP_HASH
#define SC_GROUP_mac_ID SC_GROUP_MAC
#define SC_GROUP_stream_ID SC_GROUP_STREAM
#define SC_GROUP_aead_ID SC_GROUP_AEAD
#define SC_GROUP_rng_ID SC_GROUP_RNG
#define SC_GROUP_curve_ID SC_GROUP_CURVE
#define SC_GROUP_xaead_ID SC_GROUP_XAEAD
#define SC_GROUP_scrypt_ID SC_GROUP_SCRYPT

static sc_status never_called(sc_bstate *st)
{
    (void)st;
    fail_msg("a function beyond the known part of a group was called");
    return SC_ERR_INTERNAL;
}

/* Group sizes: a size that does not reach a required function is refused (for each group, its
 * last required function and its lib); a size larger than this build's struct is accepted. */
static void test_group_sizes(void **state)
{
    const sc_backend *d = sc_backend_default();
    size_t refused = 0, accepted = 0;

    (void)state;
    assert_non_null(d->hash);
    EXPECT_REFUSED_SHORT(sc_backend_hash, hash, lib);
    EXPECT_REFUSED_SHORT(sc_backend_hash, hash, final);
    EXPECT_ACCEPTED_LONGER(sc_backend_hash, hash);
    if (d->mac != NULL) {
        EXPECT_REFUSED_SHORT(sc_backend_mac, mac, lib);
        EXPECT_REFUSED_SHORT(sc_backend_mac, mac, hmac_sha256);
        EXPECT_ACCEPTED_LONGER(sc_backend_mac, mac);
    }
    if (d->stream != NULL) {
        EXPECT_REFUSED_SHORT(sc_backend_stream, stream, lib);
        EXPECT_REFUSED_SHORT(sc_backend_stream, stream, chacha20_xor);
        EXPECT_ACCEPTED_LONGER(sc_backend_stream, stream);
    }
    if (d->aead != NULL) {
        EXPECT_REFUSED_SHORT(sc_backend_aead, aead, lib);
        EXPECT_REFUSED_SHORT(sc_backend_aead, aead, abort);
        EXPECT_ACCEPTED_LONGER(sc_backend_aead, aead);
    }
    if (d->rng != NULL) {
        EXPECT_REFUSED_SHORT(sc_backend_rng, rng, lib);
        EXPECT_REFUSED_SHORT(sc_backend_rng, rng, fill);
        EXPECT_ACCEPTED_LONGER(sc_backend_rng, rng);
    }
    if (d->curve != NULL) {
        EXPECT_REFUSED_SHORT(sc_backend_curve, curve, lib);
        EXPECT_REFUSED_SHORT(sc_backend_curve, curve, ecdh_x);
        EXPECT_ACCEPTED_LONGER(sc_backend_curve, curve);
    }
    if (d->xaead != NULL) {
        EXPECT_REFUSED_SHORT(sc_backend_xaead, xaead, lib);
        EXPECT_REFUSED_SHORT(sc_backend_xaead, xaead, open);
        EXPECT_ACCEPTED_LONGER(sc_backend_xaead, xaead);
    }
    if (d->scrypt != NULL) {
        EXPECT_REFUSED_SHORT(sc_backend_scrypt, scrypt, lib);
        EXPECT_REFUSED_SHORT(sc_backend_scrypt, scrypt, scrypt);
        EXPECT_ACCEPTED_LONGER(sc_backend_scrypt, scrypt);
    }
    printf("%zu short groups refused, %zu longer (newer minor) groups accepted\n", refused,
           accepted);
    assert_true(refused >= 10 && accepted >= 5);
}

static sc_status counter_zero_only(const char **why)
{
    *why = "test double: counter 0 only";
    return SC_ERR_UNSUPPORTED;
}

/* stream.probe_counter, the function ABI 2.1 appended: read only within the group's size. */
static void test_appended_function(void **state)
{
    const sc_backend *d = NULL;
    const char *why = NULL;
    sc_backend_stream g;
    sc_backend t;
    sc_ctx ctx;
    size_t i;

    (void)state;
    for (i = 0; d == NULL && i < sc_backend_count(); i++) { /* one that takes any counter */
        if (sc_backend_has(sc_backend_at(i), SC_CAP_CHACHA20_COUNTER, NULL) == SC_OK) {
            d = sc_backend_at(i);
        }
    }
    if (d == NULL) {
        printf("skipped: no compiled backend takes a non-zero ChaCha20 counter\n");
        skip();
    }
    g = *d->stream;
    t = *d;
    t.stream = &g;
    g.probe_counter = counter_zero_only;
    /* a group compiled before 2.1 ends before probe_counter: absent, so any counter */
    g.size = (uint32_t)offsetof(sc_backend_stream, probe_counter);
    VT_ASSERT_STATUS(sc_backend_has(&t, SC_CAP_CHACHA20_COUNTER, &why), SC_OK);
    VT_ASSERT_STATUS(sc_ctx_init_table(&ctx, &t), SC_OK);
    sc_ctx_clear(&ctx);
    /* within the size it is read; the backend still takes counter 1, so the known-answer
     * check sees the probe and the function disagree and refuses the table */
    g.size = (uint32_t)sizeof g;
    VT_ASSERT_STATUS(sc_backend_has(&t, SC_CAP_CHACHA20_COUNTER, &why), SC_ERR_UNSUPPORTED);
    assert_string_equal(why, "test double: counter 0 only");
    VT_ASSERT_STATUS(sc_backend_validate(&t), SC_OK);
    tt_expect_init_fails(&t, SC_ERR_BACKEND, "probe_counter refuses, chacha20_xor accepts");
}

static sc_status dummy_setup(sc_bstate **out)
{
    *out = NULL;
    return SC_OK;
}

static void dummy_teardown(sc_bstate *st)
{
    (void)st;
}

static void test_malformed_state(void **state)
{
    const sc_backend *d = sc_backend_default();
    sc_backend_hash h;
    sc_backend_mac m;
    sc_backend t;

    (void)state;
    assert_non_null(d->hash);
    assert_non_null(d->mac);
    h = *d->hash;
    t = *d;
    t.hash = &h;
    h.state_size = SC_SHA256_STATE_BYTES + 1;
    expect_refused(&t, "hash.state_size > SC_SHA256_STATE_BYTES");
    h.state_size = 0;
    expect_refused(&t, "hash.state_size 0");
    h = *d->hash;
    h.setup = dummy_setup;
    h.teardown = NULL;
    expect_refused(&t, "hash setup without teardown");
    h.setup = NULL;
    h.teardown = dummy_teardown;
    expect_refused(&t, "hash teardown without setup");
    t = *d;
    m = *d->mac;
    t.mac = &m;
    m.setup = dummy_setup;
    m.teardown = NULL;
    expect_refused(&t, "mac setup without teardown");
    m.setup = NULL;
    m.teardown = dummy_teardown;
    expect_refused(&t, "mac teardown without setup");
    if (d->scrypt != NULL) {
        /* the scrypt group has no state slot in a context: a setup is refused, paired or not */
        sc_backend_scrypt k = *d->scrypt;

        t = *d;
        t.scrypt = &k;
        k.setup = dummy_setup;
        k.teardown = dummy_teardown;
        expect_refused(&t, "scrypt with setup and teardown");
        k.setup = NULL;
        expect_refused(&t, "scrypt with a teardown");
    }
}

/* Fields beyond struct_size count as absent: point them at garbage to prove they are unread. */
static void test_short_struct_size(void **state)
{
    static const sc_backend_aead broken_aead; /* all NULL: refused if it were read */
    static const sc_backend_rng broken_rng;
    static const sc_backend_curve broken_curve;
    const sc_backend *d = sc_backend_default();
    uint8_t key[32], nonce[12], buf[64], tag[16], digest[32];
    const char *why = NULL;
    sc_backend t = *d;
    sc_ctx ctx;

    (void)state;
    t.struct_size = (uint32_t)offsetof(sc_backend, aead);
    t.aead = &broken_aead;
    t.rng = &broken_rng;
    t.curve = &broken_curve;
    VT_ASSERT_STATUS(sc_backend_validate(&t), SC_OK);
    VT_ASSERT_STATUS(sc_backend_has(&t, SC_CAP_SHA256, &why), SC_OK);
    VT_ASSERT_STATUS(sc_backend_has(&t, SC_CAP_CHACHA20, &why), SC_OK);
    VT_ASSERT_STATUS(sc_backend_has(&t, SC_CAP_AES256GCM, &why), SC_ERR_UNSUPPORTED);
    assert_non_null(why);
    VT_ASSERT_STATUS(sc_backend_has(&t, SC_CAP_RNG, &why), SC_ERR_UNSUPPORTED);
    VT_ASSERT_STATUS(sc_backend_has(&t, SC_CAP_SECP256K1, &why), SC_ERR_UNSUPPORTED);
    assert_null(sc_backend_group_lib(&t, SC_GROUP_CURVE));
    assert_non_null(sc_backend_group_lib(&t, SC_GROUP_HASH));
    VT_ASSERT_STATUS(sc_ctx_init_table(&ctx, &t), SC_OK);
    memset(key, 3, sizeof key);
    memset(nonce, 4, sizeof nonce);
    memset(buf, 0, sizeof buf);
    VT_ASSERT_STATUS(sc_crypto_sha256(&ctx, digest, buf, 3), SC_OK);
    VT_ASSERT_STATUS(sc_crypto_chacha20_xor(&ctx, buf, buf, 64, key, nonce, 0), SC_OK);
    VT_ASSERT_STATUS(sc_crypto_aes256gcm_seal(&ctx, buf, tag, key, nonce, 12, NULL, 0, buf, 16),
                     SC_ERR_UNSUPPORTED);
    VT_ASSERT_STATUS(sc_crypto_rng_fill(&ctx, buf, 16), SC_ERR_UNSUPPORTED);
    VT_ASSERT_STATUS(sc_ctx_selftest(&ctx, SC_GROUP_CURVE), SC_ERR_UNSUPPORTED);
    VT_ASSERT_STATUS(sc_ctx_selftest(&ctx, SC_GROUP_HASH), SC_OK);
    sc_ctx_clear(&ctx);
}

/* A table compiled against ABI 2.1 ends before the xaead group: whatever lies beyond its
 * struct_size (here garbage) is never read, and the 2.2 capabilities are absent with the
 * generic reason. */
static void test_abi_2_1_table(void **state)
{
    static const sc_backend_xaead broken_xaead; /* all NULL: refused if it were read */
    static const sc_backend_scrypt broken_scrypt;
    const sc_backend *d = sc_backend_default();
    uint8_t key[32], nonce[24], buf[16], tag[16];
    const char *why = NULL;
    sc_backend t = *d;
    sc_ctx ctx;

    (void)state;
    t.struct_size = (uint32_t)offsetof(sc_backend, xaead);
    t.xaead = &broken_xaead;
    t.scrypt = &broken_scrypt;
    t.why_absent = (const char *(*)(sc_group))vt_null(); /* would crash if called */
    VT_ASSERT_STATUS(sc_backend_validate(&t), SC_OK);
    VT_ASSERT_STATUS(sc_backend_has(&t, SC_CAP_XCHACHA20POLY1305, &why), SC_ERR_UNSUPPORTED);
    assert_string_equal(why, "the backend has no xaead group");
    VT_ASSERT_STATUS(sc_backend_has(&t, SC_CAP_SCRYPT, &why), SC_ERR_UNSUPPORTED);
    assert_string_equal(why, "the backend has no scrypt group");
    assert_null(sc_backend_group_lib(&t, SC_GROUP_XAEAD));
    VT_ASSERT_STATUS(sc_ctx_init_table(&ctx, &t), SC_OK);
    memset(key, 1, sizeof key);
    memset(nonce, 2, sizeof nonce);
    memset(buf, 3, sizeof buf);
    VT_ASSERT_STATUS(
        sc_crypto_xchacha20poly1305_seal(&ctx, buf, tag, key, nonce, NULL, 0, buf, sizeof buf),
        SC_ERR_UNSUPPORTED);
    VT_ASSERT_STATUS(sc_crypto_scrypt(&ctx, buf, sizeof buf, key, 3, nonce, 4, 4, 1, 1),
                     SC_ERR_UNSUPPORTED);
    assert_true(vt_all_zero(buf, sizeof buf));
    VT_ASSERT_STATUS(sc_ctx_selftest(&ctx, SC_GROUP_SCRYPT), SC_ERR_UNSUPPORTED);
    sc_ctx_clear(&ctx);
}

static const char *says_why(sc_group g)
{
    return g == SC_GROUP_SCRYPT ? "test double: no scrypt here" : NULL;
}

/* why_absent gives the reason of an absent group; NULL from it means the generic reason. */
static void test_why_absent(void **state)
{
    const sc_backend *d = sc_backend_default();
    const char *why = NULL;
    sc_backend t = *d;

    (void)state;
    t.scrypt = NULL;
    t.xaead = NULL;
    t.why_absent = says_why;
    VT_ASSERT_STATUS(sc_backend_validate(&t), SC_OK);
    VT_ASSERT_STATUS(sc_backend_has(&t, SC_CAP_SCRYPT, &why), SC_ERR_UNSUPPORTED);
    assert_string_equal(why, "test double: no scrypt here");
    VT_ASSERT_STATUS(sc_backend_has(&t, SC_CAP_XCHACHA20POLY1305, &why), SC_ERR_UNSUPPORTED);
    assert_string_equal(why, "the backend has no xaead group");
    VT_ASSERT_STATUS(sc_backend_has(&t, SC_CAP_SHA256, &why), SC_OK);
    assert_null(why);
}

/* ---- coexistence ----------------------------------------------------------------------- */

static int stream_ok(const sc_ctx_impl *c)
{
    const char *why = NULL;

    return c->aead != NULL && c->aead->probe(SC_AEAD_STREAM, 12, &why) == SC_OK;
}

static void test_contexts_coexist(void **state)
{
    enum {
        MAX = 8
    };
    sc_ctx ctx[MAX];
    sc_sha256_state hs[MAX];
    uint8_t msg[1000], d[MAX][32], ref[32], key[32], iv[12], ct[MAX][48], tag[MAX][16];
    size_t n = sc_backend_count(), i, off;

    (void)state;
    n = n > MAX ? MAX : n;
    for (i = 0; i < sizeof msg; i++) {
        msg[i] = (uint8_t)(i * 7 + 1);
    }
    memset(key, 9, sizeof key);
    memset(iv, 8, sizeof iv);
    for (i = 0; i < n; i++) {
        VT_ASSERT_STATUS(sc_ctx_init(&ctx[i], sc_backend_at(i)->name), SC_OK);
        VT_ASSERT_STATUS(sc_crypto_sha256_init(&ctx[i], &hs[i]), SC_OK);
    }
    /* interleave incremental hashing and streaming AES-GCM across all contexts */
    for (i = 0; i < n; i++) {
        sc_ctx_impl *c = sc_ctx_impl_get(&ctx[i]);
        if (stream_ok(c)) {
            VT_ASSERT_STATUS(c->aead->start(c->st[SC_GROUP_AEAD], 0, key, iv, 12, msg, 13), SC_OK);
        }
    }
    for (off = 0; off < sizeof msg; off += 100) {
        for (i = 0; i < n; i++) {
            VT_ASSERT_STATUS(sc_crypto_sha256_update(&ctx[i], &hs[i], msg + off, 100), SC_OK);
            if (off < 48) {
                sc_ctx_impl *c = sc_ctx_impl_get(&ctx[i]);
                if (stream_ok(c)) {
                    VT_ASSERT_STATUS(c->aead->update(c->st[SC_GROUP_AEAD], ct[i], msg, 48), SC_OK);
                    VT_ASSERT_STATUS(c->aead->final(c->st[SC_GROUP_AEAD], 0, tag[i]), SC_OK);
                }
            }
        }
    }
    VT_ASSERT_STATUS(sc_crypto_sha256(&ctx[0], ref, msg, sizeof msg), SC_OK);
    for (i = 0; i < n; i++) {
        sc_ctx_impl *c = sc_ctx_impl_get(&ctx[i]);

        VT_ASSERT_STATUS(sc_crypto_sha256_final(&ctx[i], &hs[i], d[i]), SC_OK);
        assert_memory_equal(d[i], ref, 32);
        if (stream_ok(c)) {
            uint8_t pt[48];
            VT_ASSERT_STATUS(
                sc_crypto_aes256gcm_open(&ctx[i], pt, key, iv, 12, msg, 13, ct[i], 48, tag[i]),
                SC_OK);
            assert_memory_equal(pt, msg, 48);
        }
    }
    /* clearing one context leaves the others working */
    sc_ctx_clear(&ctx[0]);
    VT_ASSERT_STATUS(sc_crypto_sha256(&ctx[0], ref, msg, 3), SC_ERR_STATE);
    for (i = 1; i < n; i++) {
        VT_ASSERT_STATUS(sc_crypto_sha256(&ctx[i], d[i], msg, sizeof msg), SC_OK);
        VT_ASSERT_STATUS(sc_crypto_rng_fill(&ctx[i], ref, sizeof ref), SC_OK);
        sc_ctx_clear(&ctx[i]);
    }
    printf("%zu contexts on different backends used interleaved\n", n);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_registry),
        cmocka_unit_test(test_every_backend_binds),
        cmocka_unit_test(test_malformed_header),
        cmocka_unit_test(test_malformed_groups),
        cmocka_unit_test(test_malformed_state),
        cmocka_unit_test(test_group_sizes),
        cmocka_unit_test(test_appended_function),
        cmocka_unit_test(test_short_struct_size),
        cmocka_unit_test(test_abi_2_1_table),
        cmocka_unit_test(test_why_absent),
        cmocka_unit_test(test_miswired_stream),
        cmocka_unit_test_setup_teardown(test_miswired_curve, tt_hash_helper_setup,
                                        tt_hash_helper_teardown),
        cmocka_unit_test(test_miswired_mac),
        cmocka_unit_test(test_miswired_hash),
        cmocka_unit_test(test_miswired_aead),
        cmocka_unit_test(test_miswired_xaead),
        cmocka_unit_test(test_miswired_scrypt),
        cmocka_unit_test(test_rng_failures),
        cmocka_unit_test(test_teardown_on_failure),
        cmocka_unit_test(test_contexts_coexist),
    };

    return cmocka_run_group_tests_name("table", tests, NULL, NULL) != 0 ? 1 : 0;
}
