/* NIP-19 units, accepting side: prefixes, the 19.md and BIP-173 examples, the internal
 * encoder, random round trips against the reference encoder, kinds, the 5000-character cap
 * and the case rules. */
#include "test_nip19.h"

#include <stdlib.h>
#include <string.h>

#include "util/bech32.h"
#include "vt_rand.h"

/* ---- prefixes and spec examples -------------------------------------------------------- */

void test_prefixes(void **state)
{
    (void)state;
    assert_string_equal(sc_nip19_prefix(SC_NIP19_NPUB), "npub");
    assert_string_equal(sc_nip19_prefix(SC_NIP19_NSEC), "nsec");
    assert_string_equal(sc_nip19_prefix(SC_NIP19_NOTE), "note");
    assert_string_equal(sc_nip19_prefix(SC_NIP19_NPROFILE), "nprofile");
    assert_string_equal(sc_nip19_prefix(SC_NIP19_NEVENT), "nevent");
    assert_string_equal(sc_nip19_prefix(SC_NIP19_NADDR), "naddr");
    assert_null(sc_nip19_prefix((sc_nip19_type)0));
    assert_null(sc_nip19_prefix((sc_nip19_type)7));
    assert_null(sc_nip19_prefix((sc_nip19_type)-1));
}

static void check_bare(const char *s, sc_nip19_type type, const char *hex)
{
    sc_nip19_entity e, want = nt_entity(type);
    char out[128];
    size_t n = 0;

    nt_hex32(want.key, hex);
    /* bare entities need no scratch */
    VT_ASSERT_STATUS(sc_nip19_decode(&e, NULL, 0, &(size_t){0}, s, strlen(s)), SC_OK);
    nt_assert_entity_equal(&e, &want);
    VT_ASSERT_STATUS(sc_nip19_encode(out, sizeof out, &n, &want), SC_OK);
    assert_int_equal(n, strlen(s));
    assert_memory_equal(out, s, n);
    nt_round_trip(&want);
}

void test_spec_examples(void **state)
{
    sc_nip19_entity want = nt_entity(SC_NIP19_NPROFILE), e;
    uint8_t *scratch = NULL;
    char out[256];
    size_t n = 0;

    (void)state;
    check_bare(nt_spec_npub1, SC_NIP19_NPUB, nt_spec_npub1_hex);
    check_bare(nt_spec_npub2, SC_NIP19_NPUB, nt_spec_npub2_hex);
    check_bare(nt_spec_nsec, SC_NIP19_NSEC, nt_spec_nsec_hex);
    /* the 131-character nprofile: longer than the BIP-173 90 */
    assert_int_equal(strlen(nt_spec_nprofile), 131);
    nt_hex32(want.key, nt_spec_npub1_hex);
    nt_add_relay(&want, "wss://r.x.com");
    nt_add_relay(&want, "wss://djbas.sadkb.com");
    VT_ASSERT_STATUS(nt_decode(&e, &scratch, nt_spec_nprofile), SC_OK);
    nt_assert_entity_equal(&e, &want);
    /* the views point into scratch */
    assert_true((const uint8_t *)e.relays[0].ptr >= scratch &&
                (const uint8_t *)e.relays[1].ptr + e.relays[1].len <=
                    scratch + SC_NIP19_DECODE_SCRATCH_MAX);
    VT_ASSERT_STATUS(sc_nip19_encode(out, sizeof out, &n, &want), SC_OK);
    assert_int_equal(n, 131);
    assert_memory_equal(out, nt_spec_nprofile, 131);
    free(scratch);
}

/* 19.md: the example nsec's public key is the second example npub. */
void test_nsec_matches_npub(void **state)
{
    sc_nip19_entity sec, pub;
    sc_identity id;
    sc_ctx ctx;
    uint8_t derived[32];
    sc_status st;

    (void)state;
    VT_ASSERT_STATUS(
        sc_nip19_decode(&sec, NULL, 0, &(size_t){0}, nt_spec_nsec, strlen(nt_spec_nsec)), SC_OK);
    VT_ASSERT_STATUS(
        sc_nip19_decode(&pub, NULL, 0, &(size_t){0}, nt_spec_npub2, strlen(nt_spec_npub2)), SC_OK);
    assert_int_equal(sec.type, SC_NIP19_NSEC);
    VT_ASSERT_STATUS(sc_ctx_init(&ctx, sc_backend_default()->name), SC_OK);
    st = sc_identity_import(&ctx, &id, sec.key);
    sc_mem_wipe(&sec, sizeof sec);
    if (st == SC_ERR_UNSUPPORTED) {
        sc_ctx_clear(&ctx);
        print_message("default backend has no curve group: nsec/npub pairing not checked\n");
        skip();
    }
    VT_ASSERT_STATUS(st, SC_OK);
    VT_ASSERT_STATUS(sc_identity_pubkey(derived, &id), SC_OK);
    assert_memory_equal(derived, pub.key, 32);
    sc_identity_clear(&id);
    sc_ctx_clear(&ctx);
}

/* ---- the bech32 layer against the BIP-173 examples ------------------------------------- */

void test_bip173_vectors(void **state)
{
    /* BIP-173 "Test vectors": valid checksums (all encode whole bytes) */
    static const char *const valid[] = {
        "A12UEL5L",
        "a12uel5l",
        "an83characterlonghumanreadablepartthatcontainsthenumber1andtheexcludedcharactersbio1t"
        "t5tgs",
        "abcdef1qpzry9x8gf2tvdw0s3jn54khce6mua7lmqqqxw",
        "11qqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqq"
        "qc8247j",
        "split1checkupstagehandshakeupstreamerranterredcaperred2y9e3w",
        "?1ezyfcl",
    };
    /* BIP-173 invalid strings, each for its listed reason */
    static const char *const invalid[] = {
        "\x20"
        "1nwldj5", /* HRP character out of range */
        "\x7f"
        "1axkwrx", /* HRP character out of range */
        "\x80"
        "1eym55h", /* HRP character out of range */
        "an84characterslonghumanreadablepartthatcontainsthenumber1andtheexcludedcharactersbio1"
        "569pvx",        /* HRP over 83 characters */
        "pzry9x0s0muk",  /* no separator */
        "1pzry9x0s0muk", /* empty HRP */
        "x1b4n0q5v",     /* invalid data character */
        "li1dgmt3",      /* checksum too short */
        "de1lg7wt\xff",  /* invalid character in checksum */
        "A1G7SGD8",      /* checksum computed with the uppercase HRP */
        "10a06t8",       /* empty HRP */
        "1qzzfhee",      /* empty HRP */
    };
    size_t i;

    (void)state;
    for (i = 0; i < sizeof valid / sizeof valid[0]; i++) {
        const char *s = valid[i];
        sc_bech32_str p;
        uint8_t bytes[64];
        char hrp[100], lower[100], out[100], *ref;
        size_t n, k, got = 0;

        /* BIP-173: the prefix ends at the last '1' */
        if (sc_bech32_parse(&p, s, strlen(s), (size_t)(strrchr(s, '1') - s), 100) != SC_OK) {
            fail_msg("BIP-173 valid string %s rejected", s);
        }
        n = sc_bech32_bytes_len(&p);
        assert_true(n <= sizeof bytes);
        VT_ASSERT_STATUS(sc_bech32_to_bytes(bytes, n, &p), SC_OK);
        for (k = 0; k <= strlen(s); k++) {
            lower[k] = (char)((s[k] >= 'A' && s[k] <= 'Z') ? s[k] + 32 : s[k]);
        }
        memcpy(hrp, lower, p.hrp_len);
        hrp[p.hrp_len] = '\0';
        assert_ptr_equal(p.hrp, s);
        assert_ptr_equal(p.data, s + p.hrp_len + 1);
        assert_int_equal(p.data_len, strlen(s) - p.hrp_len - 7);
        /* re-encoding gives the lowercase string, as the reference does */
        VT_ASSERT_STATUS(sc_bech32_encode(out, sizeof out, &got, hrp, p.hrp_len, bytes, n), SC_OK);
        assert_int_equal(got, strlen(s));
        assert_memory_equal(out, lower, got);
        ref = nt_bech32_bytes(hrp, bytes, n);
        assert_string_equal(ref, lower);
        free(ref);
    }
    for (i = 0; i < sizeof invalid / sizeof invalid[0]; i++) {
        sc_bech32_str p;
        const char *sep = strrchr(invalid[i], '1');
        size_t hl = sep != NULL ? (size_t)(sep - invalid[i]) : 0;
        VT_ASSERT_STATUS(sc_bech32_parse(&p, invalid[i], strlen(invalid[i]), hl, 100),
                         SC_ERR_BECH32);
        assert_null(p.hrp);
        assert_int_equal(p.data_len, 0);
    }
    {
        /* the prefix must end at the last '1': an earlier '1' leaves a '1' in the data */
        const char *s = valid[2];
        sc_bech32_str p;
        size_t first = (size_t)(strchr(s, '1') - s), last = (size_t)(strrchr(s, '1') - s);
        assert_true(first < last);
        VT_ASSERT_STATUS(sc_bech32_parse(&p, s, strlen(s), first, 100), SC_ERR_BECH32);
        VT_ASSERT_STATUS(sc_bech32_parse(&p, s, strlen(s), last, 100), SC_OK);
        /* a prefix length that does not end at a '1', or that leaves no checksum */
        VT_ASSERT_STATUS(sc_bech32_parse(&p, nt_spec_npub1, strlen(nt_spec_npub1), 3, 100),
                         SC_ERR_BECH32);
        VT_ASSERT_STATUS(sc_bech32_parse(&p, nt_spec_npub1, strlen(nt_spec_npub1), 5, 100),
                         SC_ERR_BECH32);
        VT_ASSERT_STATUS(sc_bech32_parse(&p, nt_spec_npub1, strlen(nt_spec_npub1), 0, 100),
                         SC_ERR_BECH32);
        VT_ASSERT_STATUS(sc_bech32_parse(&p, "a1qqqqq", 7, 1, 100), SC_ERR_BECH32);
        /* the length cap is the caller's */
        VT_ASSERT_STATUS(sc_bech32_parse(&p, nt_spec_npub1, strlen(nt_spec_npub1), 4, 63), SC_OK);
        VT_ASSERT_STATUS(sc_bech32_parse(&p, nt_spec_npub1, strlen(nt_spec_npub1), 4, 62),
                         SC_ERR_BECH32);
    }
}

/* The internal encoder's own contract: sizing, prefix checks, and a writer given too little
 * room reporting failure instead of writing past it. */
void test_bech32_encoder(void **state)
{
    static const uint8_t data[5] = {1, 2, 3, 4, 5};
    char out[32];
    size_t n = 0, need = sc_bech32_encoded_len(3, sizeof data);
    sc_bech32_writer w;

    (void)state;
    assert_int_equal(need, 3 + 1 + 8 + 6);
    assert_int_equal(sc_bech32_encoded_len(0, 0), 7);
    assert_int_equal(sc_bech32_encoded_len(1, (size_t)-1), 0);
    memset(out, NT_SENTINEL, sizeof out);
    VT_ASSERT_STATUS(sc_bech32_encode(out, need - 1, &n, "abc", 3, data, sizeof data),
                     SC_ERR_BUFFER_TOO_SMALL);
    assert_int_equal(n, need);
    assert_true(nt_all(out, sizeof out, NT_SENTINEL));
    VT_ASSERT_STATUS(sc_bech32_encode(out, sizeof out, &n, "aBc", 3, data, sizeof data),
                     SC_ERR_ARG);
    VT_ASSERT_STATUS(sc_bech32_encode(out, sizeof out, &n, "a c", 3, data, sizeof data),
                     SC_ERR_ARG);
    VT_ASSERT_STATUS(sc_bech32_encode(out, sizeof out, &n, "", 0, data, sizeof data), SC_ERR_ARG);
    VT_ASSERT_STATUS(sc_bech32_encode(out, sizeof out, &n, "abc", 3, NULL, 1), SC_ERR_ARG);
    assert_int_equal(n, 0);
    VT_ASSERT_STATUS(sc_bech32_encode(out, sizeof out, &n, "abc", 3, data, sizeof data), SC_OK);
    assert_int_equal(n, need);
    assert_true(nt_all(out + need, sizeof out - need, NT_SENTINEL));
    {
        char *ref = nt_bech32_bytes("abc", data, sizeof data);
        assert_memory_equal(out, ref, need);
        free(ref);
    }
    /* a writer one character short: failure, the cap respected, the state wiped */
    memset(out, NT_SENTINEL, sizeof out);
    sc_bech32_begin(&w, out, need - 1, "abc", 3);
    sc_bech32_put(&w, data, sizeof data);
    n = 9;
    VT_ASSERT_STATUS(sc_bech32_finish(&w, &n), SC_ERR_INTERNAL);
    assert_int_equal(n, 0);
    assert_true(nt_all(out + need - 1, sizeof out - need + 1, NT_SENTINEL));
    assert_true(nt_all(&w, sizeof w, 0));
    /* an uppercase prefix given to the writer */
    sc_bech32_begin(&w, out, sizeof out, "ABC", 3);
    VT_ASSERT_STATUS(sc_bech32_finish(&w, &n), SC_ERR_INTERNAL);
    /* the writer wipes its pending bits on success too */
    sc_bech32_begin(&w, out, sizeof out, "abc", 3);
    sc_bech32_put(&w, data, 3);
    sc_bech32_put(&w, data + 3, 2); /* split input gives the same string */
    VT_ASSERT_STATUS(sc_bech32_finish(&w, &n), SC_OK);
    assert_int_equal(n, need);
    assert_true(nt_all(&w, sizeof w, 0));
}

/* ---- random round trips ---------------------------------------------------------------- */

/* Printable ASCII without space, as relays must be. */
static void random_relay(char *buf, size_t len)
{
    size_t i;

    for (i = 0; i < len; i++) {
        buf[i] = (char)(0x21 + vt_rand_below(0x7e - 0x21 + 1));
    }
}

/* Well-formed UTF-8 of exactly len bytes, mixing 1- to 4-byte sequences. */
static void random_utf8(char *buf, size_t len)
{
    size_t i = 0;

    while (i < len) {
        size_t room = len - i, want = 1 + vt_rand_below(4);
        uint32_t cp;
        uint8_t enc[4];

        if (want > room) {
            want = room;
        }
        if (want == 1) {
            cp = (uint32_t)vt_rand_below(0x80);
        } else if (want == 2) {
            cp = 0x80 + (uint32_t)vt_rand_below(0x800 - 0x80);
        } else if (want == 3) {
            do {
                cp = 0x800 + (uint32_t)vt_rand_below(0x10000 - 0x800);
            } while (cp >= 0xd800 && cp <= 0xdfff);
        } else {
            cp = 0x10000 + (uint32_t)vt_rand_below(0x110000 - 0x10000);
        }
        if (cp < 0x80) {
            enc[0] = (uint8_t)cp;
        } else if (cp < 0x800) {
            enc[0] = (uint8_t)(0xc0 | (cp >> 6));
            enc[1] = (uint8_t)(0x80 | (cp & 0x3f));
        } else if (cp < 0x10000) {
            enc[0] = (uint8_t)(0xe0 | (cp >> 12));
            enc[1] = (uint8_t)(0x80 | ((cp >> 6) & 0x3f));
            enc[2] = (uint8_t)(0x80 | (cp & 0x3f));
        } else {
            enc[0] = (uint8_t)(0xf0 | (cp >> 18));
            enc[1] = (uint8_t)(0x80 | ((cp >> 12) & 0x3f));
            enc[2] = (uint8_t)(0x80 | ((cp >> 6) & 0x3f));
            enc[3] = (uint8_t)(0x80 | (cp & 0x3f));
        }
        memcpy(buf + i, enc, want);
        i += want;
    }
}

typedef struct rnd_bufs {
    char relays[SC_NIP19_MAX_RELAYS][255];
    char identifier[255];
} rnd_bufs;

static uint32_t random_kind(void)
{
    switch (vt_rand_below(4)) {
    case 0:
        return 0;
    case 1:
        return 0xffffffffu;
    default:
        return (uint32_t)vt_rand_u64();
    }
}

/* A random entity; `heavy` ones have 14..16 relays of 150..255 bytes and often pass the cap. */
static void random_entity(sc_nip19_entity *e, sc_nip19_type type, int heavy, rnd_bufs *b)
{
    size_t i;

    memset(e, 0, sizeof *e);
    e->type = type;
    if (type != SC_NIP19_NADDR) {
        vt_rand_bytes(e->key, 32);
    }
    if (type == SC_NIP19_NPUB || type == SC_NIP19_NSEC || type == SC_NIP19_NOTE) {
        return;
    }
    e->n_relays = heavy ? 14 + vt_rand_below(3) : vt_rand_below(SC_NIP19_MAX_RELAYS + 1);
    for (i = 0; i < e->n_relays; i++) {
        size_t len = heavy                   ? 150 + vt_rand_below(106)
                     : vt_rand_below(4) == 0 ? vt_rand_below(256)
                                             : vt_rand_below(64);
        random_relay(b->relays[i], len);
        e->relays[i].ptr = b->relays[i];
        e->relays[i].len = len;
    }
    if (type == SC_NIP19_NEVENT || type == SC_NIP19_NADDR) {
        e->has_author = type == SC_NIP19_NADDR || vt_rand_below(2);
        e->has_kind = type == SC_NIP19_NADDR || vt_rand_below(2);
        if (e->has_author) {
            vt_rand_bytes(e->author, 32);
        }
        if (e->has_kind) {
            e->kind = random_kind();
        }
    }
    if (type == SC_NIP19_NADDR) {
        e->identifier.len = vt_rand_below(256);
        random_utf8(b->identifier, e->identifier.len);
        e->identifier.ptr = b->identifier;
    }
}

void test_round_trip_random(void **state)
{
    static rnd_bufs b;
    size_t fits[7] = {0}, too_large = 0, t, i, k;

    (void)state;
    for (t = SC_NIP19_NPUB; t <= SC_NIP19_NADDR; t++) {
        for (i = 0; i < 250; i++) {
            sc_nip19_entity e;
            char *ref;

            random_entity(&e, (sc_nip19_type)t, i % 8 == 7, &b);
            ref = nt_encode(&e);
            if (strlen(ref) > SC_NIP19_MAX_CHARS) {
                size_t n = 1;
                char out[8];
                assert_int_equal(sc_nip19_encode_len(&e), 0);
                VT_ASSERT_STATUS(sc_nip19_encode(out, sizeof out, &n, &e), SC_ERR_TOO_LARGE);
                assert_int_equal(n, 0);
                too_large++;
            } else {
                nt_round_trip(&e);
                fits[t]++;
            }
            free(ref);
        }
        assert_true(fits[t] >= 150);
    }
    assert_true(too_large > 0); /* the cap path ran */
    /* every relay count, and every identifier length with multibyte characters */
    for (k = 0; k <= SC_NIP19_MAX_RELAYS; k++) {
        sc_nip19_entity e = nt_entity(SC_NIP19_NPROFILE);
        for (i = 0; i < k; i++) {
            random_relay(b.relays[i], 20 + i);
            e.relays[i].ptr = b.relays[i];
            e.relays[i].len = 20 + i;
        }
        e.n_relays = k;
        nt_round_trip(&e);
    }
    for (k = 0; k <= 255; k++) {
        sc_nip19_entity e = nt_entity(SC_NIP19_NADDR);
        e.has_author = e.has_kind = 1;
        nt_fill32(e.author, 0x77);
        e.kind = 30023;
        random_utf8(b.identifier, k);
        e.identifier.ptr = b.identifier;
        e.identifier.len = k;
        nt_round_trip(&e);
    }
    {
        /* a relay of 255 bytes and one of 0 bytes */
        sc_nip19_entity e = nt_entity(SC_NIP19_NEVENT);
        random_relay(b.relays[0], 255);
        e.relays[0].ptr = b.relays[0];
        e.relays[0].len = 255;
        e.relays[1].ptr = "";
        e.relays[1].len = 0;
        e.n_relays = 2;
        nt_round_trip(&e);
    }
}

void test_kind_extremes(void **state)
{
    static const uint32_t kinds[] = {0, 1, 0x7fffffffu, 0x80000000u, 0xffffffffu};
    size_t i;

    (void)state;
    for (i = 0; i < sizeof kinds / sizeof kinds[0]; i++) {
        sc_nip19_entity ev = nt_entity(SC_NIP19_NEVENT), ad = nt_entity(SC_NIP19_NADDR);
        nt_tlv t = {NULL, 0, 0};
        char *s;
        uint8_t *scratch = NULL;
        sc_nip19_entity back;

        ev.has_kind = 1;
        ev.kind = kinds[i];
        nt_round_trip(&ev);
        ad.has_author = ad.has_kind = 1;
        ad.kind = kinds[i];
        ad.identifier.ptr = "";
        nt_round_trip(&ad);
        /* the kind is big-endian on the wire: build it by hand */
        nt_tlv_add(&t, 0, ev.key, 32);
        nt_tlv_add(&t, 3,
                   (const uint8_t[4]){(uint8_t)(kinds[i] >> 24), (uint8_t)(kinds[i] >> 16),
                                      (uint8_t)(kinds[i] >> 8), (uint8_t)kinds[i]},
                   4);
        s = nt_bech32_bytes("nevent", t.p, t.n);
        VT_ASSERT_STATUS(nt_decode(&back, &scratch, s), SC_OK);
        assert_true(back.has_kind);
        assert_int_equal(back.kind, kinds[i]);
        assert_false(back.has_author);
        free(scratch);
        free(s);
        nt_tlv_free(&t);
    }
}

/* ---- the 5000-character cap ------------------------------------------------------------ */

/* Pads t with unknown type-9 records to exactly `total` bytes (total - t->n >= 2). */
static void pad_unknown(nt_tlv *t, size_t total)
{
    static const uint8_t junk[255] = {1, 2, 3};

    assert_true(total >= t->n + 2);
    while (t->n < total) {
        size_t room = total - t->n, take = room > 257 ? 257 : room;
        if (room - take == 1) {
            take--; /* leave a 2-byte record for the end */
        }
        nt_tlv_add(t, 9, junk, take - 2);
    }
    assert_int_equal(t->n, total);
}

/* A valid naddr of `payload` bytes, padded with unknown records. */
static char *naddr_of_size(size_t payload)
{
    uint8_t author[32];
    nt_tlv t = {NULL, 0, 0};
    char *s;

    nt_fill32(author, 0x40);
    nt_tlv_add(&t, 0, "d", 1);
    nt_tlv_add(&t, 2, author, 32);
    nt_tlv_add(&t, 3, (const uint8_t[4]){0, 0, 0x75, 0x47}, 4);
    pad_unknown(&t, payload);
    s = nt_bech32_bytes("naddr", t.p, t.n);
    nt_tlv_free(&t);
    return s;
}

void test_length_cap(void **state)
{
    static char relays[SC_NIP19_MAX_RELAYS][255];
    char *s;
    uint8_t *scratch = vt_alloc(SC_NIP19_DECODE_SCRATCH_MAX);
    sc_nip19_entity e;
    size_t i, n, len;

    (void)state;
    /* decoding: 5000 characters (3117-byte payload) pass, 5001 fail */
    s = naddr_of_size(SC_NIP19_DECODE_SCRATCH_MAX);
    assert_int_equal(strlen(s), SC_NIP19_MAX_CHARS);
    VT_ASSERT_STATUS(
        sc_nip19_decode(&e, scratch, SC_NIP19_DECODE_SCRATCH_MAX, &(size_t){0}, s, strlen(s)),
        SC_OK);
    assert_int_equal(e.type, SC_NIP19_NADDR);
    assert_int_equal(e.kind, 30023);
    assert_int_equal(e.identifier.len, 1);
    assert_memory_equal(e.identifier.ptr, "d", 1);
    /* it needs all of the worst-case scratch */
    VT_ASSERT_STATUS(
        sc_nip19_decode(&e, scratch, SC_NIP19_DECODE_SCRATCH_MAX - 1, &(size_t){0}, s, strlen(s)),
        SC_ERR_BUFFER_TOO_SMALL);
    free(s);
    s = naddr_of_size(SC_NIP19_DECODE_SCRATCH_MAX + 1);
    assert_int_equal(strlen(s), SC_NIP19_MAX_CHARS + 1);
    nt_expect_decode_str(s, SC_ERR_BECH32);
    free(s);
    /* a mid-size one: far above the BIP-173 90 */
    s = naddr_of_size(700);
    assert_true(strlen(s) > 1000);
    nt_expect_decode_str(s, SC_OK);
    free(s);

    /* encoding: relays sized so the string is exactly 5000 characters, then one more byte */
    e = nt_entity(SC_NIP19_NADDR);
    e.has_author = e.has_kind = 1;
    e.identifier.ptr = "";
    n = 2 + 34 + 6; /* identifier, author, kind records */
    for (i = 0; i < SC_NIP19_MAX_RELAYS; i++) {
        size_t rl = (SC_NIP19_DECODE_SCRATCH_MAX - n) / (SC_NIP19_MAX_RELAYS - i) - 2;
        memset(relays[i], 'a' + (int)i, rl);
        e.relays[i].ptr = relays[i];
        e.relays[i].len = rl;
        e.n_relays++;
        n += 2 + rl;
    }
    assert_int_equal(n, SC_NIP19_DECODE_SCRATCH_MAX);
    assert_int_equal(sc_nip19_encode_len(&e), SC_NIP19_MAX_CHARS);
    nt_round_trip(&e);
    e.relays[0].len++;
    relays[0][e.relays[0].len - 1] = 'z';
    assert_int_equal(sc_nip19_encode_len(&e), 0);
    {
        char out[16];
        memset(out, NT_SENTINEL, sizeof out);
        len = 7;
        VT_ASSERT_STATUS(sc_nip19_encode(out, sizeof out, &len, &e), SC_ERR_TOO_LARGE);
        assert_int_equal(len, 0);
        assert_true(nt_all(out, sizeof out, NT_SENTINEL));
    }

    /* any string over the cap, valid or not, is refused before anything else */
    s = (char *)vt_alloc(SC_NIP19_MAX_CHARS + 2);
    memset(s, 'q', SC_NIP19_MAX_CHARS + 1);
    memcpy(s, "npub1", 5);
    nt_expect_decode(s, SC_NIP19_MAX_CHARS + 1, SC_ERR_BECH32);
    free(s);

    /* the scratch bound */
    assert_int_equal(sc_nip19_decode_scratch_max(SC_NIP19_MAX_CHARS), SC_NIP19_DECODE_SCRATCH_MAX);
    assert_int_equal(sc_nip19_decode_scratch_max((size_t)-1), SC_NIP19_DECODE_SCRATCH_MAX);
    assert_int_equal(sc_nip19_decode_scratch_max(0), 0);
    for (len = 0; len <= SC_NIP19_MAX_CHARS; len++) {
        static const char *const tlv_prefixes[] = {"nprofile", "nevent", "naddr"};
        assert_true(sc_nip19_decode_scratch_max(len) <= SC_NIP19_DECODE_SCRATCH_MAX);
        for (i = 0; i < 3; i++) {
            size_t overhead = strlen(tlv_prefixes[i]) + 7;
            if (len >= overhead) {
                assert_true((len - overhead) * 5 / 8 <= sc_nip19_decode_scratch_max(len));
            }
        }
    }
    free(scratch);
}

/* ---- case ------------------------------------------------------------------------------ */

static char *upper_copy(const char *s)
{
    size_t i, n = strlen(s);
    char *u = (char *)vt_alloc(n + 1);

    for (i = 0; i < n; i++) {
        u[i] = (char)((s[i] >= 'a' && s[i] <= 'z') ? s[i] - 32 : s[i]);
    }
    return u;
}

void test_case_rules(void **state)
{
    static const char *const strings[] = {nt_spec_npub1, nt_spec_nsec, nt_spec_nprofile};
    size_t i, j;

    (void)state;
    for (i = 0; i < sizeof strings / sizeof strings[0]; i++) {
        const char *s = strings[i];
        size_t n = strlen(s), sep = strchr(s, '1') - s;
        char *u = upper_copy(s), *m = (char *)vt_alloc(n + 1);
        uint8_t *sa = NULL, *sb = NULL;
        sc_nip19_entity lo, up;
        char out[256];
        size_t got = 0;

        /* all-uppercase (BIP-173, QR codes) decodes to the same entity, encodes lowercase */
        VT_ASSERT_STATUS(nt_decode(&lo, &sa, s), SC_OK);
        VT_ASSERT_STATUS(nt_decode(&up, &sb, u), SC_OK);
        nt_assert_entity_equal(&up, &lo);
        VT_ASSERT_STATUS(sc_nip19_encode(out, sizeof out, &got, &up), SC_OK);
        assert_int_equal(got, n);
        assert_memory_equal(out, s, n);
        /* uppercase prefix with lowercase data, and the reverse */
        memcpy(m, u, sep + 1);
        memcpy(m + sep + 1, s + sep + 1, n - sep);
        nt_expect_decode_str(m, SC_ERR_BECH32);
        memcpy(m, s, sep + 1);
        memcpy(m + sep + 1, u + sep + 1, n - sep);
        nt_expect_decode_str(m, SC_ERR_BECH32);
        /* one letter of the other case anywhere */
        for (j = 0; j < n; j++) {
            if (s[j] >= 'a' && s[j] <= 'z') {
                memcpy(m, s, n + 1);
                m[j] = u[j];
                nt_expect_decode_str(m, SC_ERR_BECH32);
                memcpy(m, u, n + 1);
                m[j] = s[j];
                nt_expect_decode_str(m, SC_ERR_BECH32);
            }
        }
        free(sa);
        free(sb);
        free(m);
        free(u);
    }
}
