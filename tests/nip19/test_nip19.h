/* The NIP-19 suite (backend-independent): the shared vector file (test_nip19.c), and units
 * (test_nip19_units.c accepting, test_nip19_reject.c rejecting) checked against an
 * independent reference encoder written from BIP-173 and NIP-19 (test_nip19_ref.c). */
#ifndef SOFTCHAT_TESTS_TEST_NIP19_H
#define SOFTCHAT_TESTS_TEST_NIP19_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>
#include <softchat/softchat.h>

#include "vectors_util.h"

typedef struct nt_env {
    const char *vectors_dir; /* upstream conformance data */
    int vectors_present;
} nt_env;

/* ---- reference implementation (test_nip19_ref.c) --------------------------------------- */

#define NT_BECH32_CONST 1u
#define NT_BECH32M_CONST 0x2bc830a3u

/* 8-bit to 5-bit groups with zero padding; returns the number of groups. */
size_t nt_to_five(uint8_t *five, const uint8_t *bytes, size_t n);
/* hrp + '1' + groups + checksum (with the given constant), NUL-terminated, malloc'd. */
char *nt_bech32_five(const char *hrp, const uint8_t *five, size_t n5, uint32_t constant);
/* The bech32 string of a byte payload, malloc'd. */
char *nt_bech32_bytes(const char *hrp, const uint8_t *data, size_t n);

/* A growable TLV payload. */
typedef struct nt_tlv {
    uint8_t *p;
    size_t n, cap;
} nt_tlv;

void nt_tlv_add(nt_tlv *t, unsigned type, const void *v, size_t len);
/* Appends raw bytes (for malformed records). */
void nt_tlv_raw(nt_tlv *t, const void *v, size_t len);
void nt_tlv_free(nt_tlv *t);

/* The payload the reference writes for e (records 0, relays, 2, 3; bare: the key). */
void nt_payload_of(nt_tlv *t, const sc_nip19_entity *e);
/* The reference string for e, malloc'd. */
char *nt_encode(const sc_nip19_entity *e);

/* Fails the test unless a and b hold the same entity (views compared by content). */
void nt_assert_entity_equal(const sc_nip19_entity *got, const sc_nip19_entity *want);
/* 1 when every byte of the entity is zero. */
int nt_entity_zero(const sc_nip19_entity *e);

/* Decodes with a fresh scratch buffer of SC_NIP19_DECODE_SCRATCH_MAX bytes (kept in *scratch_out,
 * malloc'd, when non-NULL; freed otherwise). */
sc_status nt_decode(sc_nip19_entity *e, uint8_t **scratch_out, const char *s);

/* ---- shared unit helpers (test_nip19_util.c) ------------------------------------------- */

#define NT_SENTINEL 0xa5

/* nostr-protocol/nips 19.md examples. */
extern const char nt_spec_npub1[], nt_spec_npub1_hex[];
extern const char nt_spec_npub2[], nt_spec_npub2_hex[];
extern const char nt_spec_nsec[], nt_spec_nsec_hex[];
extern const char nt_spec_nprofile[]; /* 131 characters: pubkey npub1 and two relays */

void nt_hex32(uint8_t out[32], const char *hex);
/* 1 when all n bytes at p equal v. */
int nt_all(const void *p, size_t n, uint8_t v);
/* p[i] = v + i for 32 bytes. */
void nt_fill32(uint8_t *p, uint8_t v);
/* An entity of the type with a patterned key (none for naddr) and nothing else set. */
sc_nip19_entity nt_entity(sc_nip19_type type);
void nt_add_relay(sc_nip19_entity *e, const char *url);
/* Decodes s[0..len) and requires `want`; on failure the entity and all SC_NIP19_DECODE_SCRATCH_MAX
 * scratch bytes (filled with NT_SENTINEL first) must be zero. */
void nt_expect_decode(const char *s, size_t len, sc_status want);
void nt_expect_decode_str(const char *s, sc_status want);
/* The same for the bech32 string of payload t under hrp. */
void nt_expect_payload(const char *hrp, const nt_tlv *t, sc_status want);
/* Encodes e: the reference string, the announced length, nothing written past it, and a
 * decode (with scratch of exactly sc_nip19_decode_scratch_max) that gives e back. */
void nt_round_trip(const sc_nip19_entity *e);

/* ---- tests ----------------------------------------------------------------------------- */

void test_nip19_vectors(void **state);

void test_prefixes(void **state);
void test_spec_examples(void **state);
void test_nsec_matches_npub(void **state);
void test_bip173_vectors(void **state);
void test_bech32_encoder(void **state);
void test_round_trip_random(void **state);
void test_kind_extremes(void **state);
void test_length_cap(void **state);
void test_case_rules(void **state);
void test_single_substitutions(void **state);
void test_bech32_malformed(void **state);
void test_bare_wrong_length(void **state);
void test_tlv_malformed(void **state);
void test_tlv_unknown_skipped(void **state);
void test_relay_limit(void **state);
void test_encode_rejects(void **state);
void test_buffer_too_small(void **state);
void test_scratch_zeroed_on_failure(void **state);
void test_null_args(void **state);

#endif
