/* NIP-19 units, rejecting side: every single-character substitution, malformed bech32 and
 * TLV, unknown records, the relay limit, encoder argument checks, buffer sizing, wiping on
 * failure and NULL arguments. */
#include "test_nip19.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vt_rand.h"

/* ---- every single-character substitution ----------------------------------------------- */

void test_single_substitutions(void **state)
{
    static const char extra[] = "1bio BIO:\x7f\x80\xff";
    const char *strings[4];
    char *generated;
    sc_nip19_entity ev = nt_entity(SC_NIP19_NEVENT);
    size_t i, pos, k, tried = 0;

    (void)state;
    ev.has_author = ev.has_kind = 1;
    nt_fill32(ev.author, 0x99);
    ev.kind = 1;
    nt_add_relay(&ev, "wss://relay.example.com");
    generated = nt_encode(&ev);
    strings[0] = nt_spec_npub1;
    strings[1] = nt_spec_nsec;
    strings[2] = nt_spec_nprofile;
    strings[3] = generated;
    for (i = 0; i < 4; i++) {
        const char *s = strings[i];
        size_t n = strlen(s);
        char *m = (char *)vt_alloc(n + 1);
        uint8_t *scratch = vt_alloc(SC_NIP19_DECODE_SCRATCH_MAX);

        for (pos = 0; pos < n; pos++) {
            char subs[64];
            size_t ns = 0;

            for (k = 0; k < 32; k++) {
                subs[ns++] = "qpzry9x8gf2tvdw0s3jn54khce6mua7l"[k];
            }
            for (k = 0; extra[k] != '\0'; k++) {
                subs[ns++] = extra[k];
            }
            if (s[pos] >= 'a' && s[pos] <= 'z') {
                subs[ns++] = (char)(s[pos] - 32);
            }
            for (k = 0; k < ns; k++) {
                sc_nip19_entity e;
                sc_status st;

                if (subs[k] == s[pos]) {
                    continue;
                }
                memcpy(m, s, n + 1);
                m[pos] = subs[k];
                st = sc_nip19_decode(&e, scratch, SC_NIP19_DECODE_SCRATCH_MAX, &(size_t){0}, m, n);
                if (st != SC_ERR_BECH32) {
                    fail_msg("%s with position %zu set to 0x%02x: %s, want SC_ERR_BECH32", s, pos,
                             (unsigned)(unsigned char)subs[k], sc_status_name(st));
                }
                tried++;
            }
        }
        free(scratch);
        free(m);
    }
    free(generated);
    assert_true(tried > 10000);
}

/* ---- malformed bech32 ------------------------------------------------------------------ */

void test_bech32_malformed(void **state)
{
    uint8_t key[32], five[64];
    size_t n5;
    char *s;
    sc_nip19_entity e;

    (void)state;
    nt_fill32(key, 0x33);
    nt_expect_decode("", 0, SC_ERR_BECH32);
    VT_ASSERT_STATUS(sc_nip19_decode(&e, NULL, 0, &(size_t){0}, (const char *)vt_null(), 0),
                     SC_ERR_BECH32);
    nt_expect_decode_str("npub", SC_ERR_BECH32);
    nt_expect_decode_str("npub1", SC_ERR_BECH32);
    nt_expect_decode_str("1qqqqqqqq", SC_ERR_BECH32);
    nt_expect_decode_str("npub1qqqqq", SC_ERR_BECH32); /* shorter than a checksum */
    /* a NUL counted in the length */
    nt_expect_decode(nt_spec_npub1, strlen(nt_spec_npub1) + 1, SC_ERR_BECH32);
    /* a bech32m checksum over a valid payload */
    n5 = nt_to_five(five, key, 32);
    s = nt_bech32_five("npub", five, n5, NT_BECH32M_CONST);
    nt_expect_decode_str(s, SC_ERR_BECH32);
    free(s);
    /* the same payload with the bech32 constant is fine */
    s = nt_bech32_five("npub", five, n5, NT_BECH32_CONST);
    nt_expect_decode_str(s, SC_OK);
    free(s);
    /* non-zero padding: 32 bytes leave 4 bits in the 52nd group */
    {
        unsigned bit;
        for (bit = 0; bit < 4; bit++) {
            five[n5 - 1] ^= (uint8_t)(1u << bit);
            s = nt_bech32_five("nsec", five, n5, NT_BECH32_CONST);
            nt_expect_decode_str(s, SC_ERR_BECH32);
            free(s);
            five[n5 - 1] ^= (uint8_t)(1u << bit);
        }
        /* the high bit of the last group is data, not padding */
        five[n5 - 1] ^= 0x10;
        s = nt_bech32_five("nsec", five, n5, NT_BECH32_CONST);
        nt_expect_decode_str(s, SC_OK);
        free(s);
        five[n5 - 1] ^= 0x10;
    }
    /* incomplete groups: 49 or 51 groups leave 5 or 7 bits (a whole unused group) */
    s = nt_bech32_five("npub", five, 51, NT_BECH32_CONST);
    nt_expect_decode_str(s, SC_ERR_BECH32);
    free(s);
    s = nt_bech32_five("npub", five, 49, NT_BECH32_CONST);
    nt_expect_decode_str(s, SC_ERR_BECH32);
    free(s);
    {
        /* the same for a TLV payload */
        nt_tlv t = {NULL, 0, 0};
        uint8_t f[128] = {0};
        size_t nf;
        nt_tlv_add(&t, 0, key, 32);
        nf = nt_to_five(f, t.p, t.n); /* 34 bytes: 55 groups, 3 bits over */
        s = nt_bech32_five("nprofile", f, nf + 1, NT_BECH32_CONST); /* 56: whole bytes */
        nt_expect_decode_str(s, SC_ERR_TLV); /* a trailing 0x00: a type without a length */
        free(s);
        s = nt_bech32_five("nprofile", f, nf + 2, NT_BECH32_CONST); /* 57: 5 bits over */
        nt_expect_decode_str(s, SC_ERR_BECH32);
        free(s);
        nt_tlv_free(&t);
    }
    /* unknown or deprecated prefixes with valid checksums */
    {
        static const char *const hrps[] = {"nrelay",     "nostr", "npubx", "npu", "note1",
                                           "nostr:npub", "bc",    "lnbc",  "n",   "nprofile1"};
        size_t i;
        for (i = 0; i < sizeof hrps / sizeof hrps[0]; i++) {
            s = nt_bech32_bytes(hrps[i], key, 32);
            nt_expect_decode_str(s, SC_ERR_BECH32);
            free(s);
        }
    }
    /* a prefix/payload mix-up: an npub payload under nprofile is TLV-invalid, not bech32 */
    s = nt_bech32_bytes("nprofile", key, 32);
    nt_expect_decode_str(s, SC_ERR_TLV);
    free(s);
}

void test_bare_wrong_length(void **state)
{
    static const size_t sizes[] = {0, 1, 20, 31, 33, 64};
    static const char *const hrps[] = {"npub", "nsec", "note"};
    uint8_t data[64];
    size_t i, j;

    (void)state;
    vt_rand_bytes(data, sizeof data);
    for (i = 0; i < 3; i++) {
        for (j = 0; j < sizeof sizes / sizeof sizes[0]; j++) {
            char *s = nt_bech32_bytes(hrps[i], data, sizes[j]);
            nt_expect_decode_str(s, SC_ERR_TLV);
            free(s);
        }
        {
            char *s = nt_bech32_bytes(hrps[i], data, 32);
            nt_expect_decode_str(s, SC_OK);
            free(s);
        }
    }
}

/* ---- malformed TLV --------------------------------------------------------------------- */

static const uint8_t kind_1[4] = {0, 0, 0, 1};

static void base_nprofile(nt_tlv *t, const uint8_t *pk)
{
    nt_tlv_add(t, 0, pk, 32);
    nt_tlv_add(t, 1, "wss://a.example", 15);
}

void test_tlv_malformed(void **state)
{
    uint8_t pk[32], big[64];
    nt_tlv t = {NULL, 0, 0};
    const char *hrps[2] = {"nprofile", "nevent"};
    size_t i;

    (void)state;
    nt_fill32(pk, 0x21);
    memset(big, '8', sizeof big); /* hex text stored as bytes */

    /* empty payload: no type 0 */
    nt_expect_payload("nprofile", &t, SC_ERR_TLV);
    nt_expect_payload("nevent", &t, SC_ERR_TLV);
    nt_expect_payload("naddr", &t, SC_ERR_TLV);
    for (i = 0; i < 2; i++) {
        /* a lone type byte after valid records */
        base_nprofile(&t, pk);
        nt_tlv_raw(&t, "\x01", 1);
        nt_expect_payload(hrps[i], &t, SC_ERR_TLV);
        nt_tlv_free(&t);
        /* a value cut short */
        base_nprofile(&t, pk);
        nt_tlv_raw(&t, "\x01\x0awss://", 8);
        nt_expect_payload(hrps[i], &t, SC_ERR_TLV);
        nt_tlv_free(&t);
        nt_tlv_raw(&t, "\x00\x20", 2);
        nt_tlv_raw(&t, pk, 31);
        nt_expect_payload(hrps[i], &t, SC_ERR_TLV);
        nt_tlv_free(&t);
        /* type 0 of 31, 33 or 0 bytes */
        nt_tlv_add(&t, 0, pk, 31);
        nt_expect_payload(hrps[i], &t, SC_ERR_TLV);
        nt_tlv_free(&t);
        nt_tlv_add(&t, 0, big, 33);
        nt_expect_payload(hrps[i], &t, SC_ERR_TLV);
        nt_tlv_free(&t);
        nt_tlv_add(&t, 0, pk, 0);
        nt_expect_payload(hrps[i], &t, SC_ERR_TLV);
        nt_tlv_free(&t);
        /* type 0 twice (ambiguous: implementations disagree on which wins) */
        nt_tlv_add(&t, 0, pk, 32);
        nt_tlv_add(&t, 0, big, 32);
        nt_expect_payload(hrps[i], &t, SC_ERR_TLV);
        nt_tlv_free(&t);
        /* only relays */
        nt_tlv_add(&t, 1, "wss://a.example", 15);
        nt_expect_payload(hrps[i], &t, SC_ERR_TLV);
        nt_tlv_free(&t);
        /* relays that are not printable ASCII */
        {
            static const char *const bad_relays[] = {"wss://a b",      "wss://\x7f", "wss://\x80",
                                                     "wss://\xc3\xa9", "wss://\t",   "\x01"};
            size_t k;
            for (k = 0; k < sizeof bad_relays / sizeof bad_relays[0]; k++) {
                nt_tlv_add(&t, 0, pk, 32);
                nt_tlv_add(&t, 1, bad_relays[k], strlen(bad_relays[k]));
                nt_expect_payload(hrps[i], &t, SC_ERR_TLV);
                nt_tlv_free(&t);
            }
            nt_tlv_add(&t, 0, pk, 32);
            nt_tlv_add(&t, 1, "wss://\0x", 8);
            nt_expect_payload(hrps[i], &t, SC_ERR_TLV);
            nt_tlv_free(&t);
        }
    }
    /* nevent: author of 64 bytes (go-nostr's hex-as-text case), 31 or 33; kind of 0, 3, 5 */
    {
        static const size_t author_lens[] = {0, 31, 33, 64};
        static const size_t kind_lens[] = {0, 3, 5, 8};
        const char *hrp2[2] = {"nevent", "naddr"};
        size_t h, k;
        for (h = 0; h < 2; h++) {
            for (k = 0; k < 4; k++) {
                if (h == 0) {
                    nt_tlv_add(&t, 0, pk, 32);
                } else {
                    nt_tlv_add(&t, 0, "id", 2);
                }
                nt_tlv_add(&t, 1, "wss://yabu.me", 13);
                nt_tlv_add(&t, 2, big, author_lens[k]);
                nt_tlv_add(&t, 3, kind_1, 4);
                nt_expect_payload(hrp2[h], &t, SC_ERR_TLV);
                nt_tlv_free(&t);
                if (h == 0) {
                    nt_tlv_add(&t, 0, pk, 32);
                } else {
                    nt_tlv_add(&t, 0, "id", 2);
                }
                nt_tlv_add(&t, 2, pk, 32);
                nt_tlv_add(&t, 3, big, kind_lens[k]);
                nt_expect_payload(hrp2[h], &t, SC_ERR_TLV);
                nt_tlv_free(&t);
            }
            /* author or kind twice */
            nt_tlv_add(&t, 0, h == 0 ? pk : (const uint8_t *)"id", h == 0 ? 32 : 2);
            nt_tlv_add(&t, 2, pk, 32);
            nt_tlv_add(&t, 2, pk, 32);
            nt_tlv_add(&t, 3, kind_1, 4);
            nt_expect_payload(hrp2[h], &t, SC_ERR_TLV);
            nt_tlv_free(&t);
            nt_tlv_add(&t, 0, h == 0 ? pk : (const uint8_t *)"id", h == 0 ? 32 : 2);
            nt_tlv_add(&t, 2, pk, 32);
            nt_tlv_add(&t, 3, kind_1, 4);
            nt_tlv_add(&t, 3, kind_1, 4);
            nt_expect_payload(hrp2[h], &t, SC_ERR_TLV);
            nt_tlv_free(&t);
        }
    }
    /* naddr: author and kind are required; the identifier twice is ambiguous */
    nt_tlv_add(&t, 0, "id", 2);
    nt_tlv_add(&t, 3, kind_1, 4);
    nt_expect_payload("naddr", &t, SC_ERR_TLV);
    nt_tlv_free(&t);
    nt_tlv_add(&t, 0, "id", 2);
    nt_tlv_add(&t, 2, pk, 32);
    nt_expect_payload("naddr", &t, SC_ERR_TLV);
    nt_tlv_free(&t);
    nt_tlv_add(&t, 2, pk, 32);
    nt_tlv_add(&t, 3, kind_1, 4);
    nt_expect_payload("naddr", &t, SC_ERR_TLV);
    nt_tlv_free(&t);
    nt_tlv_add(&t, 0, "id", 2);
    nt_tlv_add(&t, 0, "other", 5);
    nt_tlv_add(&t, 2, pk, 32);
    nt_tlv_add(&t, 3, kind_1, 4);
    nt_expect_payload("naddr", &t, SC_ERR_TLV);
    nt_tlv_free(&t);
    /* naddr identifiers that are not UTF-8 */
    {
        static const char *const bad_ids[] = {
            "\xc0\x80",         /* overlong NUL */
            "\xe0\x80\xaf",     /* overlong '/' */
            "\xed\xa0\x80",     /* surrogate U+D800 */
            "\xf4\x90\x80\x80", /* above U+10FFFF */
            "ok\xe2\x82",       /* truncated */
            "\x80",             /* lone continuation */
            "\xff",
        };
        size_t k;
        for (k = 0; k < sizeof bad_ids / sizeof bad_ids[0]; k++) {
            nt_tlv_add(&t, 0, bad_ids[k], strlen(bad_ids[k]));
            nt_tlv_add(&t, 2, pk, 32);
            nt_tlv_add(&t, 3, kind_1, 4);
            nt_expect_payload("naddr", &t, SC_ERR_UTF8);
            nt_tlv_free(&t);
        }
    }
}

/* ---- unknown records ------------------------------------------------------------------- */

void test_tlv_unknown_skipped(void **state)
{
    uint8_t pk[32], filler[255];
    nt_tlv t = {NULL, 0, 0};
    sc_nip19_entity e, want;
    uint8_t *scratch = NULL;
    char *s;

    (void)state;
    nt_fill32(pk, 0x51);
    memset(filler, 0xee, sizeof filler);
    /* nprofile: unknown types around the known ones; 2 and 3 (any length) are unknown here */
    nt_tlv_add(&t, 7, "abc", 3);
    nt_tlv_add(&t, 0, pk, 32);
    nt_tlv_add(&t, 0xff, filler, 255);
    nt_tlv_add(&t, 1, "wss://one", 9);
    nt_tlv_add(&t, 2, pk, 5);
    nt_tlv_add(&t, 3, filler, 1);
    nt_tlv_add(&t, 4, NULL, 0);
    nt_tlv_add(&t, 1, "", 0);
    nt_tlv_add(&t, 2, pk, 32);
    s = nt_bech32_bytes("nprofile", t.p, t.n);
    nt_tlv_free(&t);
    want = nt_entity(SC_NIP19_NPROFILE);
    memcpy(want.key, pk, 32);
    nt_add_relay(&want, "wss://one");
    nt_add_relay(&want, "");
    VT_ASSERT_STATUS(nt_decode(&e, &scratch, s), SC_OK);
    nt_assert_entity_equal(&e, &want);
    free(scratch);
    free(s);

    /* nevent with records in reverse order: accepted; re-encoding is canonical */
    want = nt_entity(SC_NIP19_NEVENT);
    want.has_author = want.has_kind = 1;
    nt_fill32(want.author, 0x61);
    want.kind = 7;
    nt_add_relay(&want, "wss://x");
    nt_tlv_add(&t, 3, (const uint8_t[4]){0, 0, 0, 7}, 4);
    nt_tlv_add(&t, 2, want.author, 32);
    nt_tlv_add(&t, 5, filler, 10);
    nt_tlv_add(&t, 1, "wss://x", 7);
    nt_tlv_add(&t, 0, want.key, 32);
    s = nt_bech32_bytes("nevent", t.p, t.n);
    nt_tlv_free(&t);
    VT_ASSERT_STATUS(nt_decode(&e, &scratch, s), SC_OK);
    nt_assert_entity_equal(&e, &want);
    free(scratch);
    free(s);
    nt_round_trip(&want);

    /* naddr with an empty identifier (a normal replaceable event) */
    want = nt_entity(SC_NIP19_NADDR);
    memset(want.key, 0, 32);
    want.has_author = want.has_kind = 1;
    nt_fill32(want.author, 0x71);
    want.kind = 10002;
    want.identifier.ptr = "";
    nt_tlv_add(&t, 0, NULL, 0);
    nt_tlv_add(&t, 9, filler, 3);
    nt_tlv_add(&t, 2, want.author, 32);
    nt_tlv_add(&t, 3, (const uint8_t[4]){0, 0, 0x27, 0x12}, 4);
    s = nt_bech32_bytes("naddr", t.p, t.n);
    nt_tlv_free(&t);
    VT_ASSERT_STATUS(nt_decode(&e, &scratch, s), SC_OK);
    nt_assert_entity_equal(&e, &want);
    assert_non_null(e.identifier.ptr);
    free(scratch);
    free(s);
}

/* ---- relay limit ----------------------------------------------------------------------- */

void test_relay_limit(void **state)
{
    static const char *const hrps[] = {"nprofile", "nevent", "naddr"};
    uint8_t pk[32];
    size_t h, k;

    (void)state;
    nt_fill32(pk, 0x31);
    for (h = 0; h < 3; h++) {
        for (k = 15; k <= 18; k++) {
            nt_tlv t = {NULL, 0, 0};
            size_t r;

            nt_tlv_add(&t, 0, pk, h == 2 ? 4 : 32);
            for (r = 0; r < k; r++) {
                char url[16];
                snprintf(url, sizeof url, "wss://r%zu", r);
                nt_tlv_add(&t, 1, url, strlen(url));
                if (r == 3) {
                    nt_tlv_add(&t, 8, "x", 1); /* unknown records do not count */
                }
            }
            if (h == 2) {
                nt_tlv_add(&t, 2, pk, 32);
                nt_tlv_add(&t, 3, kind_1, 4);
            }
            nt_expect_payload(hrps[h], &t, k <= SC_NIP19_MAX_RELAYS ? SC_OK : SC_ERR_TOO_LARGE);
            nt_tlv_free(&t);
        }
    }
    {
        sc_nip19_entity e = nt_entity(SC_NIP19_NPROFILE);
        char out[64];
        size_t n = 5;
        memset(out, NT_SENTINEL, sizeof out);
        e.n_relays = SC_NIP19_MAX_RELAYS + 1;
        assert_int_equal(sc_nip19_encode_len(&e), 0);
        VT_ASSERT_STATUS(sc_nip19_encode(out, sizeof out, &n, &e), SC_ERR_ARG);
        assert_int_equal(n, 0);
        assert_true(nt_all(out, sizeof out, NT_SENTINEL));
    }
}

/* ---- encoder argument checks ----------------------------------------------------------- */

static void expect_encode_arg(const sc_nip19_entity *e)
{
    char out[512];
    size_t n = 99;

    memset(out, NT_SENTINEL, sizeof out);
    assert_int_equal(sc_nip19_encode_len(e), 0);
    VT_ASSERT_STATUS(sc_nip19_encode(out, sizeof out, &n, e), SC_ERR_ARG);
    assert_int_equal(n, 0);
    assert_true(nt_all(out, sizeof out, NT_SENTINEL));
}

void test_encode_rejects(void **state)
{
    static char long_text[256];
    sc_nip19_entity e;
    int t;

    (void)state;
    memset(long_text, 'a', sizeof long_text);
    /* bad types */
    e = nt_entity((sc_nip19_type)0);
    expect_encode_arg(&e);
    e = nt_entity((sc_nip19_type)7);
    expect_encode_arg(&e);
    e = nt_entity((sc_nip19_type)-3);
    expect_encode_arg(&e);
    /* fields a type does not carry */
    for (t = SC_NIP19_NPUB; t <= SC_NIP19_NOTE; t++) {
        e = nt_entity((sc_nip19_type)t);
        nt_add_relay(&e, "wss://x");
        expect_encode_arg(&e);
        e = nt_entity((sc_nip19_type)t);
        e.has_author = 1;
        expect_encode_arg(&e);
        e = nt_entity((sc_nip19_type)t);
        e.has_kind = 1;
        expect_encode_arg(&e);
        e = nt_entity((sc_nip19_type)t);
        e.identifier.ptr = "d";
        e.identifier.len = 1;
        expect_encode_arg(&e);
    }
    e = nt_entity(SC_NIP19_NPROFILE);
    e.has_author = 1;
    expect_encode_arg(&e);
    e = nt_entity(SC_NIP19_NPROFILE);
    e.has_kind = 1;
    expect_encode_arg(&e);
    e = nt_entity(SC_NIP19_NEVENT);
    e.identifier.ptr = "d";
    e.identifier.len = 1;
    expect_encode_arg(&e);
    e = nt_entity(SC_NIP19_NADDR);
    e.has_author = e.has_kind = 1;
    e.key[31] = 1; /* the pubkey of an naddr goes in author */
    expect_encode_arg(&e);
    /* naddr needs author and kind */
    e = nt_entity(SC_NIP19_NADDR);
    e.has_kind = 1;
    expect_encode_arg(&e);
    e = nt_entity(SC_NIP19_NADDR);
    e.has_author = 1;
    expect_encode_arg(&e);
    /* relays: over 255 bytes, NULL with a length, not printable ASCII */
    e = nt_entity(SC_NIP19_NPROFILE);
    e.relays[0].ptr = long_text;
    e.relays[0].len = 256;
    e.n_relays = 1;
    expect_encode_arg(&e);
    e.relays[0].len = 255;
    assert_int_equal(sc_nip19_encode_len(&e) > 0, 1);
    e.relays[0].ptr = NULL;
    expect_encode_arg(&e);
    e.relays[0].len = 0; /* an empty relay may be NULL */
    assert_int_equal(sc_nip19_encode_len(&e) > 0, 1);
    e.relays[0].ptr = "wss://a b";
    e.relays[0].len = 9;
    expect_encode_arg(&e);
    e.relays[0].ptr = "wss://\xc3\xa9";
    e.relays[0].len = 8;
    expect_encode_arg(&e);
    /* identifiers: over 255 bytes, NULL with a length, not UTF-8 */
    e = nt_entity(SC_NIP19_NADDR);
    e.has_author = e.has_kind = 1;
    e.identifier.ptr = long_text;
    e.identifier.len = 256;
    expect_encode_arg(&e);
    e.identifier.len = 255;
    assert_int_equal(sc_nip19_encode_len(&e) > 0, 1);
    e.identifier.ptr = NULL;
    expect_encode_arg(&e);
    e.identifier.len = 0; /* an empty identifier may be NULL */
    assert_int_equal(sc_nip19_encode_len(&e) > 0, 1);
    e.identifier.ptr = "\xed\xa0\x80";
    e.identifier.len = 3;
    expect_encode_arg(&e);
}

/* ---- sizing ---------------------------------------------------------------------------- */

void test_buffer_too_small(void **state)
{
    sc_nip19_entity e = nt_entity(SC_NIP19_NPROFILE), d;
    char out[200];
    uint8_t scratch[200];
    size_t need, n, payload, used;
    char npub[SC_NIP19_NPUB_LEN + 8];

    (void)state;
    nt_add_relay(&e, "wss://r.x.com");
    need = sc_nip19_encode_len(&e);
    assert_true(need > 90);
    /* size query */
    n = 0;
    VT_ASSERT_STATUS(sc_nip19_encode((char *)vt_null(), 0, &n, &e), SC_ERR_BUFFER_TOO_SMALL);
    assert_int_equal(n, need);
    /* one short: the need, and nothing written */
    memset(out, NT_SENTINEL, sizeof out);
    n = 0;
    VT_ASSERT_STATUS(sc_nip19_encode(out, need - 1, &n, &e), SC_ERR_BUFFER_TOO_SMALL);
    assert_int_equal(n, need);
    assert_true(nt_all(out, sizeof out, NT_SENTINEL));
    /* NULL out with room claimed */
    VT_ASSERT_STATUS(sc_nip19_encode((char *)vt_null(), need, &n, &e), SC_ERR_ARG);
    assert_int_equal(n, 0);
    /* exact */
    VT_ASSERT_STATUS(sc_nip19_encode(out, need, &n, &e), SC_OK);
    assert_int_equal(n, need);
    assert_true(nt_all(out + need, sizeof out - need, NT_SENTINEL));

    /* decoding: scratch of the payload size exactly, one short, none */
    payload = 2 + 32 + 2 + 13;
    assert_true(payload <= sc_nip19_decode_scratch_max(need));
    memset(scratch, NT_SENTINEL, sizeof scratch);
    used = 0;
    VT_ASSERT_STATUS(sc_nip19_decode(&d, scratch, payload - 1, &used, out, need),
                     SC_ERR_BUFFER_TOO_SMALL);
    assert_int_equal(used, payload); /* the exact need */
    assert_true(nt_entity_zero(&d));
    assert_true(nt_all(scratch, sizeof scratch, NT_SENTINEL)); /* untouched (rule 4) */
    used = 0;
    VT_ASSERT_STATUS(sc_nip19_decode(&d, NULL, 0, &used, out, need), SC_ERR_BUFFER_TOO_SMALL);
    assert_int_equal(used, payload);
    VT_ASSERT_STATUS(sc_nip19_decode(&d, scratch, payload, &used, out, need), SC_OK);
    assert_int_equal(used, payload);
    nt_assert_entity_equal(&d, &e);
    assert_true(nt_all(scratch + payload, sizeof scratch - payload, NT_SENTINEL));
    VT_ASSERT_STATUS(sc_nip19_decode(&d, scratch, payload, (size_t *)vt_null(), out, need),
                     SC_ERR_ARG);
    /* a bare entity needs no scratch: 0 used */
    VT_ASSERT_STATUS(sc_nip19_encode_npub(npub, sizeof npub, &n, e.key), SC_OK);
    assert_int_equal(n, SC_NIP19_NPUB_LEN);
    used = 7;
    VT_ASSERT_STATUS(sc_nip19_decode(&d, NULL, 0, &used, npub, n), SC_OK);
    assert_int_equal(used, 0);
    assert_int_equal(d.type, SC_NIP19_NPUB);
    assert_memory_equal(d.key, e.key, 32);
    VT_ASSERT_STATUS(sc_nip19_encode_npub(npub, SC_NIP19_NPUB_LEN - 1, &n, e.key),
                     SC_ERR_BUFFER_TOO_SMALL);
    assert_int_equal(n, SC_NIP19_NPUB_LEN);
    VT_ASSERT_STATUS(sc_nip19_encode_npub(npub, sizeof npub, &n, (const uint8_t *)vt_null()),
                     SC_ERR_ARG);
    /* with exactly sc_nip19_decode_scratch_max(len) */
    VT_ASSERT_STATUS(
        sc_nip19_decode(&d, scratch, sc_nip19_decode_scratch_max(need), &(size_t){0}, out, need),
        SC_OK);
    nt_assert_entity_equal(&d, &e);
}

void test_scratch_zeroed_on_failure(void **state)
{
    uint8_t pk[32], five[64];
    nt_tlv t = {NULL, 0, 0};
    size_t r, n5;
    char *s;

    (void)state;
    nt_fill32(pk, 0x81);
    /* each fails after the payload was written to scratch; expect_decode checks both the
     * entity and all SC_NIP19_DECODE_SCRATCH_MAX bytes of scratch (filled with a sentinel first) */
    base_nprofile(&t, pk);
    nt_tlv_raw(&t, "\x01\x20wss://", 8);
    nt_expect_payload("nprofile", &t, SC_ERR_TLV);
    nt_tlv_free(&t);
    for (r = 0; r <= SC_NIP19_MAX_RELAYS; r++) {
        nt_tlv_add(&t, 1, "wss://relay.example.com", 23);
    }
    nt_tlv_add(&t, 0, pk, 32);
    nt_expect_payload("nevent", &t, SC_ERR_TOO_LARGE);
    nt_tlv_free(&t);
    nt_tlv_add(&t, 0, "caf\xc3", 4);
    nt_tlv_add(&t, 2, pk, 32);
    nt_tlv_add(&t, 3, kind_1, 4);
    nt_expect_payload("naddr", &t, SC_ERR_UTF8);
    nt_tlv_free(&t);
    /* nsec failures leave no key bits in the entity */
    n5 = nt_to_five(five, pk, 32);
    five[n5 - 1] |= 1;
    s = nt_bech32_five("nsec", five, n5, NT_BECH32_CONST);
    nt_expect_decode_str(s, SC_ERR_BECH32);
    free(s);
    s = nt_bech32_bytes("nsec", pk, 31);
    nt_expect_decode_str(s, SC_ERR_TLV);
    free(s);
    {
        /* a valid nsec with scratch too small is irrelevant: bare types use no scratch */
        sc_nip19_entity e;
        uint8_t small[4];
        memset(small, NT_SENTINEL, sizeof small);
        VT_ASSERT_STATUS(sc_nip19_decode(&e, small, sizeof small, &(size_t){0}, nt_spec_nsec,
                                         strlen(nt_spec_nsec)),
                         SC_OK);
        assert_true(nt_all(small, sizeof small, NT_SENTINEL));
        sc_mem_wipe(&e, sizeof e);
    }
}

void test_null_args(void **state)
{
    sc_nip19_entity e = nt_entity(SC_NIP19_NPUB);
    uint8_t scratch[8];
    char out[100];
    size_t n = 3;

    (void)state;
    VT_ASSERT_STATUS(sc_nip19_decode((sc_nip19_entity *)vt_null(), scratch, sizeof scratch,
                                     &(size_t){0}, nt_spec_npub1, strlen(nt_spec_npub1)),
                     SC_ERR_ARG);
    memset(&e, NT_SENTINEL, sizeof e);
    VT_ASSERT_STATUS(
        sc_nip19_decode(&e, scratch, sizeof scratch, &(size_t){0}, (const char *)vt_null(), 5),
        SC_ERR_ARG);
    assert_true(nt_entity_zero(&e));
    memset(&e, NT_SENTINEL, sizeof e);
    VT_ASSERT_STATUS(sc_nip19_decode(&e, (uint8_t *)vt_null(), 8, &(size_t){0}, nt_spec_npub1,
                                     strlen(nt_spec_npub1)),
                     SC_ERR_ARG);
    assert_true(nt_entity_zero(&e));
    e = nt_entity(SC_NIP19_NPUB);
    VT_ASSERT_STATUS(sc_nip19_encode(out, sizeof out, (size_t *)vt_null(), &e), SC_ERR_ARG);
    VT_ASSERT_STATUS(sc_nip19_encode(out, sizeof out, &n, (const sc_nip19_entity *)vt_null()),
                     SC_ERR_ARG);
    assert_int_equal(n, 0);
    assert_int_equal(sc_nip19_encode_len((const sc_nip19_entity *)vt_null()), 0);
}
