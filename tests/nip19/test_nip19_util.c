/* Helpers shared by the NIP-19 units: the 19.md examples, entity builders, and decode/encode
 * expectations that also check the wipe-on-failure and no-write-past-the-end contracts. */
#include "test_nip19.h"

#include <stdlib.h>
#include <string.h>

/* nostr-protocol/nips 19.md examples (public domain). */
const char nt_spec_npub1[] = "npub180cvv07tjdrrgpa0j7j7tmnyl2yr6yr7l8j4s3evf6u64th6gkwsyjh6w6";
const char nt_spec_npub1_hex[] = "3bf0c63fcb93463407af97a5e5ee64fa883d107ef9e558472c4eb9aaaefa459d";
const char nt_spec_npub2[] = "npub10elfcs4fr0l0r8af98jlmgdh9c8tcxjvz9qkw038js35mp4dma8qzvjptg";
const char nt_spec_npub2_hex[] = "7e7e9c42a91bfef19fa929e5fda1b72e0ebc1a4c1141673e2794234d86addf4e";
const char nt_spec_nsec[] = "nsec1vl029mgpspedva04g90vltkh6fvh240zqtv9k0t9af8935ke9laqsnlfe5";
const char nt_spec_nsec_hex[] = "67dea2ed018072d675f5415ecfaed7d2597555e202d85b3d65ea4e58d2d92ffa";
const char nt_spec_nprofile[] =
    "nprofile1qqsrhuxx8l9ex335q7he0f09aej04zpazpl0ne2cgukyawd24mayt8gpp4mhxue69uhhytnc9e3k7mgpz4m"
    "hxue69uhkg6nzv9ejuumpv34kytnrdaksjlyr9p";

void nt_hex32(uint8_t out[32], const char *hex)
{
    vt_bytes b;

    assert_true(vt_hex_to_bytes(hex, &b));
    assert_int_equal(b.n, 32);
    memcpy(out, b.p, 32);
    vt_bytes_free(&b);
}

int nt_all(const void *p, size_t n, uint8_t v)
{
    const uint8_t *q = (const uint8_t *)p;
    size_t i;

    for (i = 0; i < n; i++) {
        if (q[i] != v) {
            return 0;
        }
    }
    return 1;
}

void nt_fill32(uint8_t *p, uint8_t v)
{
    size_t i;

    for (i = 0; i < 32; i++) {
        p[i] = (uint8_t)(v + i);
    }
}

sc_nip19_entity nt_entity(sc_nip19_type type)
{
    sc_nip19_entity e;

    memset(&e, 0, sizeof e);
    e.type = type;
    if (type != SC_NIP19_NADDR) { /* an naddr carries no key */
        nt_fill32(e.key, 0x10);
    }
    return e;
}

void nt_add_relay(sc_nip19_entity *e, const char *url)
{
    e->relays[e->n_relays].ptr = url;
    e->relays[e->n_relays++].len = strlen(url);
}

/* Decodes s and requires `want`, with the entity and every scratch byte zero on failure. */
void nt_expect_decode(const char *s, size_t len, sc_status want)
{
    uint8_t *scratch = vt_alloc(SC_NIP19_DECODE_SCRATCH_MAX);
    sc_nip19_entity e;

    memset(scratch, NT_SENTINEL, SC_NIP19_DECODE_SCRATCH_MAX);
    memset(&e, NT_SENTINEL, sizeof e);
    VT_ASSERT_STATUS(
        sc_nip19_decode(&e, scratch, SC_NIP19_DECODE_SCRATCH_MAX, &(size_t){0}, s, len), want);
    if (want != SC_OK) {
        assert_true(nt_entity_zero(&e));
        assert_true(nt_all(scratch, SC_NIP19_DECODE_SCRATCH_MAX, 0));
    }
    free(scratch);
}

void nt_expect_decode_str(const char *s, sc_status want)
{
    nt_expect_decode(s, strlen(s), want);
}

/* The payload t under hrp must decode to `want`. */
void nt_expect_payload(const char *hrp, const nt_tlv *t, sc_status want)
{
    char *s = nt_bech32_bytes(hrp, t->p, t->n);

    nt_expect_decode_str(s, want);
    free(s);
}

/* Encodes e and requires the reference string, the announced length, and a decode that
 * gives e back. */
void nt_round_trip(const sc_nip19_entity *e)
{
    char *want = nt_encode(e);
    size_t want_len = strlen(want), n = 0;
    char *out = (char *)vt_alloc(want_len + 8);
    uint8_t *scratch = NULL;
    sc_nip19_entity back;

    memset(out, NT_SENTINEL, want_len + 8);
    assert_int_equal(sc_nip19_encode_len(e), want_len);
    VT_ASSERT_STATUS(sc_nip19_encode(out, want_len + 8, &n, e), SC_OK);
    assert_int_equal(n, want_len);
    assert_memory_equal(out, want, want_len);
    assert_true(nt_all(out + want_len, 8, NT_SENTINEL)); /* nothing past the string */
    scratch = vt_alloc(sc_nip19_decode_scratch_max(n));
    VT_ASSERT_STATUS(
        sc_nip19_decode(&back, scratch, sc_nip19_decode_scratch_max(n), &(size_t){0}, out, n),
        SC_OK);
    nt_assert_entity_equal(&back, e);
    free(scratch);
    free(out);
    free(want);
}
