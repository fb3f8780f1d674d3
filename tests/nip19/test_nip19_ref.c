/* A plain reference for the NIP-19 tests, written from the BIP-173 text (polymod, hrp
 * expansion, convertbits) and NIP-19 (TLV layout), sharing no code with core/: encoding
 * only, with ordinary table lookups and branches. */
#include "test_nip19.h"

#include <stdlib.h>
#include <string.h>

static const char ref_charset[] = "qpzry9x8gf2tvdw0s3jn54khce6mua7l";

static uint32_t ref_polymod(const uint8_t *v, size_t n)
{
    static const uint32_t gen[5] = {0x3b6a57b2, 0x26508e6d, 0x1ea119fa, 0x3d4233dd, 0x2a1462b3};
    uint32_t chk = 1;
    size_t i;
    int j;

    for (i = 0; i < n; i++) {
        uint32_t b = chk >> 25;
        chk = ((chk & 0x1ffffff) << 5) ^ v[i];
        for (j = 0; j < 5; j++) {
            if ((b >> j) & 1) {
                chk ^= gen[j];
            }
        }
    }
    return chk;
}

size_t nt_to_five(uint8_t *five, const uint8_t *bytes, size_t n)
{
    uint32_t acc = 0;
    int bits = 0;
    size_t i, o = 0;

    for (i = 0; i < n; i++) {
        acc = (acc << 8) | bytes[i];
        bits += 8;
        while (bits >= 5) {
            bits -= 5;
            five[o++] = (uint8_t)((acc >> bits) & 31);
        }
    }
    if (bits > 0) {
        five[o++] = (uint8_t)((acc << (5 - bits)) & 31);
    }
    return o;
}

char *nt_bech32_five(const char *hrp, const uint8_t *five, size_t n5, uint32_t constant)
{
    size_t hl = strlen(hrp), i, k = 0;
    uint8_t *values = vt_alloc(2 * hl + 1 + n5 + 6);
    char *s = (char *)vt_alloc(hl + 1 + n5 + 6 + 1);
    uint32_t mod;

    for (i = 0; i < hl; i++) {
        values[k++] = (uint8_t)((unsigned char)hrp[i] >> 5);
    }
    values[k++] = 0;
    for (i = 0; i < hl; i++) {
        values[k++] = (uint8_t)((unsigned char)hrp[i] & 31);
    }
    memcpy(values + k, five, n5);
    k += n5;
    memset(values + k, 0, 6);
    mod = ref_polymod(values, k + 6) ^ constant;
    memcpy(s, hrp, hl);
    s[hl] = '1';
    for (i = 0; i < n5; i++) {
        s[hl + 1 + i] = ref_charset[five[i]];
    }
    for (i = 0; i < 6; i++) {
        s[hl + 1 + n5 + i] = ref_charset[(mod >> (5 * (5 - i))) & 31];
    }
    s[hl + 1 + n5 + 6] = '\0';
    free(values);
    return s;
}

char *nt_bech32_bytes(const char *hrp, const uint8_t *data, size_t n)
{
    uint8_t *five = vt_alloc((n * 8 + 4) / 5);
    size_t n5 = nt_to_five(five, data, n);
    char *s = nt_bech32_five(hrp, five, n5, NT_BECH32_CONST);

    free(five);
    return s;
}

void nt_tlv_raw(nt_tlv *t, const void *v, size_t len)
{
    if (t->n + len > t->cap) {
        size_t cap = (t->n + len) * 2 + 64;
        uint8_t *p = realloc(t->p, cap);
        if (p == NULL) {
            fail_msg("out of memory");
        }
        t->p = p;
        t->cap = cap;
    }
    if (len != 0) {
        memcpy(t->p + t->n, v, len);
    }
    t->n += len;
}

void nt_tlv_add(nt_tlv *t, unsigned type, const void *v, size_t len)
{
    uint8_t tl[2];

    tl[0] = (uint8_t)type;
    tl[1] = (uint8_t)len;
    nt_tlv_raw(t, tl, 2);
    nt_tlv_raw(t, v, len);
}

void nt_tlv_free(nt_tlv *t)
{
    free(t->p);
    memset(t, 0, sizeof *t);
}

void nt_payload_of(nt_tlv *t, const sc_nip19_entity *e)
{
    size_t i;

    if (e->type == SC_NIP19_NPUB || e->type == SC_NIP19_NSEC || e->type == SC_NIP19_NOTE) {
        nt_tlv_raw(t, e->key, 32);
        return;
    }
    if (e->type == SC_NIP19_NADDR) {
        nt_tlv_add(t, 0, e->identifier.ptr, e->identifier.len);
    } else {
        nt_tlv_add(t, 0, e->key, 32);
    }
    for (i = 0; i < e->n_relays; i++) {
        nt_tlv_add(t, 1, e->relays[i].ptr, e->relays[i].len);
    }
    if (e->has_author) {
        nt_tlv_add(t, 2, e->author, 32);
    }
    if (e->has_kind) {
        uint8_t k[4] = {(uint8_t)(e->kind >> 24), (uint8_t)(e->kind >> 16), (uint8_t)(e->kind >> 8),
                        (uint8_t)e->kind};
        nt_tlv_add(t, 3, k, 4);
    }
}

char *nt_encode(const sc_nip19_entity *e)
{
    nt_tlv t = {NULL, 0, 0};
    char *s;

    nt_payload_of(&t, e);
    s = nt_bech32_bytes(sc_nip19_prefix(e->type), t.p, t.n);
    nt_tlv_free(&t);
    return s;
}

static void assert_view_equal(const char *got, size_t got_len, const char *want, size_t want_len,
                              const char *what)
{
    if (got_len != want_len || (want_len != 0 && memcmp(got, want, want_len) != 0)) {
        fail_msg("%s differs: got \"%.*s\" (%zu bytes), want \"%.*s\" (%zu bytes)", what,
                 (int)got_len, got != NULL ? got : "", got_len, (int)want_len,
                 want != NULL ? want : "", want_len);
    }
}

void nt_assert_entity_equal(const sc_nip19_entity *got, const sc_nip19_entity *want)
{
    static const uint8_t zero[32];
    size_t i;

    assert_int_equal(got->type, want->type);
    assert_memory_equal(got->key, want->key, 32);
    assert_int_equal(!!got->has_author, !!want->has_author);
    assert_memory_equal(got->author, want->has_author ? want->author : zero, 32);
    assert_int_equal(!!got->has_kind, !!want->has_kind);
    assert_int_equal(got->kind, want->has_kind ? want->kind : 0);
    assert_view_equal(got->identifier.ptr, got->identifier.len, want->identifier.ptr,
                      want->identifier.len, "identifier");
    if (want->type != SC_NIP19_NADDR) {
        assert_null(got->identifier.ptr);
    } else {
        assert_non_null(got->identifier.ptr);
    }
    assert_int_equal(got->n_relays, want->n_relays);
    for (i = 0; i < want->n_relays; i++) {
        assert_view_equal(got->relays[i].ptr, got->relays[i].len, want->relays[i].ptr,
                          want->relays[i].len, "relay");
    }
    for (; i < SC_NIP19_MAX_RELAYS; i++) {
        assert_null(got->relays[i].ptr);
        assert_int_equal(got->relays[i].len, 0);
    }
}

int nt_entity_zero(const sc_nip19_entity *e)
{
    sc_nip19_entity z;

    memset(&z, 0, sizeof z);
    return memcmp(&z, e, sizeof z) == 0;
}

sc_status nt_decode(sc_nip19_entity *e, uint8_t **scratch_out, const char *s)
{
    uint8_t *scratch = vt_alloc(SC_NIP19_DECODE_SCRATCH_MAX);
    sc_status st =
        sc_nip19_decode(e, scratch, SC_NIP19_DECODE_SCRATCH_MAX, &(size_t){0}, s, strlen(s));

    if (scratch_out != NULL) {
        *scratch_out = scratch;
    } else {
        free(scratch);
    }
    return st;
}
