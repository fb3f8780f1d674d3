/* NIP-19. An input whose first byte is a printable character is a string to decode; one that
 * starts with a control byte (never the start of a bech32 string) describes an entity to
 * encode.
 * Decoding: only the documented statuses; the scratch bound always suffices; a failure zeroes
 * the entity and the scratch; one byte less than the need is SC_ERR_BUFFER_TOO_SMALL with the
 * exact need and the scratch untouched; a decoded entity re-encodes, and that string decodes
 * to the same entity (for npub, nsec and note it is the input, lowercased).
 * Encoding: sc_nip19_encode_len is 0 exactly when the call fails; a success decodes back to the
 * entity and is lowercase. */
#include "fuzz_common.h"

#include <stdlib.h>
#include <string.h>

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    return 0;
}

static int same_entity(const sc_nip19_entity *a, const sc_nip19_entity *b)
{
    size_t i;

    if (a->type != b->type || memcmp(a->key, b->key, 32) != 0 || a->has_author != b->has_author ||
        a->has_kind != b->has_kind || (a->has_author && memcmp(a->author, b->author, 32) != 0) ||
        (a->has_kind && a->kind != b->kind) || !fz_same_str(a->identifier, b->identifier) ||
        a->n_relays != b->n_relays) {
        return 0;
    }
    for (i = 0; i < a->n_relays; i++) {
        if (!fz_same_str(a->relays[i], b->relays[i])) {
            return 0;
        }
    }
    return 1;
}

/* Encodes e (valid), decodes the result and requires the same entity. Returns the string. */
static char *round_trip(const sc_nip19_entity *e, size_t *len)
{
    size_t need = sc_nip19_encode_len(e), got = 0, used = 0, i;
    uint8_t *scratch = fz_alloc(SC_NIP19_DECODE_SCRATCH_MAX);
    sc_nip19_entity back;
    char *s;

    FZ_REQUIRE(need != 0 && need <= SC_NIP19_MAX_CHARS);
    s = (char *)fz_alloc(need);
    FZ_REQUIRE(sc_nip19_encode(s, need, &got, e) == SC_OK && got == need);
    for (i = 0; i < got; i++) {
        FZ_REQUIRE(!(s[i] >= 'A' && s[i] <= 'Z'));
    }
    FZ_REQUIRE(sc_nip19_decode(&back, scratch, SC_NIP19_DECODE_SCRATCH_MAX, &used, s, got) ==
               SC_OK);
    FZ_REQUIRE(same_entity(e, &back));
    sc_mem_wipe(&back, sizeof back);
    free(scratch);
    *len = got;
    return s;
}

static void decode_case(const uint8_t *data, size_t size)
{
    const char *s = (const char *)data;
    size_t bound = sc_nip19_decode_scratch_max(size), used = 7, used2 = 7, i;
    uint8_t *scratch = fz_alloc(SC_NIP19_DECODE_SCRATCH_MAX);
    uint8_t *exact = fz_alloc(bound);
    sc_nip19_entity e, e2;
    sc_status st, st2;

    FZ_REQUIRE(bound <= SC_NIP19_DECODE_SCRATCH_MAX);
    st = sc_nip19_decode(&e, scratch, SC_NIP19_DECODE_SCRATCH_MAX, &used, s, size);
    FZ_STATUS_IN(st, SC_OK, SC_ERR_BECH32, SC_ERR_TLV, SC_ERR_UTF8, SC_ERR_TOO_LARGE);
    /* the bound always suffices, and gives the same verdict */
    st2 = sc_nip19_decode(&e2, bound != 0 ? exact : NULL, bound, &used2, s, size);
    FZ_REQUIRE(st2 == st && used2 == used);
    if (st != SC_OK) {
        FZ_REQUIRE(used == 0 && fz_all_zero(&e, sizeof e));
        FZ_REQUIRE(fz_all_zero(scratch, SC_NIP19_DECODE_SCRATCH_MAX));
        FZ_REQUIRE(fz_all_zero(exact, bound != 0 ? bound : 1) || bound == 0);
    } else {
        FZ_REQUIRE(e.type >= SC_NIP19_NPUB && e.type <= SC_NIP19_NADDR);
        FZ_REQUIRE(used <= bound);
        FZ_REQUIRE(e.n_relays <= SC_NIP19_MAX_RELAYS);
        FZ_REQUIRE(fz_inside(e.identifier, scratch, used));
        for (i = 0; i < e.n_relays; i++) {
            FZ_REQUIRE(fz_inside(e.relays[i], scratch, used));
        }
        FZ_REQUIRE(fz_all_equal(scratch + used, SC_NIP19_DECODE_SCRATCH_MAX - used, FZ_CANARY));
        if (e.type == SC_NIP19_NPUB || e.type == SC_NIP19_NSEC || e.type == SC_NIP19_NOTE) {
            FZ_REQUIRE(used == 0);
        }
        if (used > 0) {
            uint8_t *small = fz_alloc(used - 1);
            size_t need = 0;

            FZ_REQUIRE(sc_nip19_decode(&e2, used - 1 != 0 ? small : NULL, used - 1, &need, s,
                                       size) == SC_ERR_BUFFER_TOO_SMALL);
            FZ_REQUIRE(need == used && fz_all_zero(&e2, sizeof e2));
            FZ_REQUIRE(fz_all_equal(small, used - 1 != 0 ? used - 1 : 1, FZ_CANARY));
            free(small);
        }
        {
            size_t len = 0;
            char *enc = round_trip(&e, &len);

            if (e.type == SC_NIP19_NPUB || e.type == SC_NIP19_NSEC || e.type == SC_NIP19_NOTE) {
                FZ_REQUIRE(len == size);
                for (i = 0; i < len; i++) {
                    char c = s[i] >= 'A' && s[i] <= 'Z' ? (char)(s[i] - 'A' + 'a') : s[i];
                    FZ_REQUIRE(enc[i] == c);
                }
            } else {
                FZ_REQUIRE(len <= size); /* unknown records are dropped, nothing is added */
            }
            sc_mem_wipe(enc, len);
            free(enc);
        }
    }
    sc_mem_wipe(&e, sizeof e);
    sc_mem_wipe(scratch, SC_NIP19_DECODE_SCRATCH_MAX);
    free(scratch);
    free(exact);
}

static void encode_case(const uint8_t *data, size_t size)
{
    fz_in in = {data + 1, size - 1};
    uint8_t text[SC_NIP19_MAX_RELAYS + 1][300];
    sc_nip19_entity e;
    size_t i, len, need, got = 0;
    char *out;
    sc_status st;

    memset(&e, 0, sizeof e);
    e.type = (sc_nip19_type)(fz_u8(&in) % 8);
    fz_bytes(&in, e.key, 32);
    e.has_author = fz_u8(&in) % 3;
    if (e.has_author) {
        fz_bytes(&in, e.author, 32);
    }
    e.has_kind = fz_u8(&in) % 3;
    if (e.has_kind) {
        e.kind = fz_u32(&in);
    }
    len = fz_u16(&in) % 300;
    fz_bytes(&in, text[0], len);
    e.identifier.ptr = (const char *)text[0];
    e.identifier.len = len;
    e.n_relays = fz_u8(&in) % (SC_NIP19_MAX_RELAYS + 2);
    for (i = 0; i < e.n_relays && i < SC_NIP19_MAX_RELAYS; i++) {
        len = fz_u16(&in) % 300;
        fz_bytes(&in, text[i + 1], len);
        e.relays[i].ptr = (const char *)text[i + 1];
        e.relays[i].len = len;
    }
    need = sc_nip19_encode_len(&e);
    out = (char *)fz_alloc(need);
    st = sc_nip19_encode(need != 0 ? out : NULL, need, &got, &e);
    FZ_STATUS_IN(st, SC_OK, SC_ERR_ARG, SC_ERR_TOO_LARGE);
    FZ_REQUIRE((st == SC_OK) == (need != 0));
    if (st == SC_OK) {
        char *again;

        FZ_REQUIRE(got == need);
        again = round_trip(&e, &len);
        FZ_REQUIRE(len == need && memcmp(again, out, len) == 0);
        free(again);
        if (need > 1) {
            FZ_REQUIRE(sc_nip19_encode(out, need - 1, &got, &e) == SC_ERR_BUFFER_TOO_SMALL);
            FZ_REQUIRE(got == need);
        }
    } else {
        FZ_REQUIRE(got == 0);
    }
    free(out);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > 0 && data[0] < 0x20) {
        encode_case(data, size);
    } else {
        decode_case(data, size);
    }
    return 0;
}
