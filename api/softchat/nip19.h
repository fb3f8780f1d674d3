/* libsoftchat: NIP-19 bech32 entities (npub, nsec, note, nprofile, nevent, naddr).
 *
 * Encoding is bech32 (BIP-173), not bech32m. The BIP-173 90-character limit is not applied
 * (NIP-19 strings are longer); SC_NIP19_MAX_CHARS (5000, the NIP-19 cap) is. Decoding rejects
 * mixed case, characters outside the charset, bad checksums, non-zero padding bits, unknown
 * prefixes, and TLV records that are truncated, of the wrong length, duplicated or missing a
 * required type. Unknown TLV types are skipped. All-uppercase strings are accepted, as BIP-173
 * requires (QR codes use them); encoding always writes lowercase. The deprecated nrelay and a
 * "nostr:" URI scheme (NIP-21) are not accepted: strip the scheme first.
 *
 * TLV records: 0 special (nprofile: 32-byte pubkey; nevent: 32-byte id; naddr: the d tag,
 * UTF-8, may be empty), 1 relay (printable ASCII 0x21..0x7e, may be empty, repeats up to
 * SC_NIP19_MAX_RELAYS), 2 author (32 bytes; nevent optional, naddr required), 3 kind (u32
 * big-endian; nevent optional, naddr required). In an nprofile, types 2 and 3 are unknown
 * and skipped. Encoding writes 0, the relays in order, 2, 3 (the order of the NIP-19 examples).
 *
 * Display and input only: never put these strings in events. An nsec is not checked against
 * the curve order here; sc_identity_import does that. Pure functions: no context, no
 * allocation. The data part is processed in constant time (it may hold a secret key).
 */
#ifndef SOFTCHAT_NIP19_H
#define SOFTCHAT_NIP19_H

#include "common.h"
#include "status.h"

SC_BEGIN_DECLS

#define SC_NIP19_MAX_CHARS 5000u
#define SC_NIP19_MAX_RELAYS 16u
/* sc_nip19_decode_scratch_max(n) for every n: a scratch buffer this size decodes any string. */
#define SC_NIP19_DECODE_SCRATCH_MAX 3117u
/* Characters of an npub, nsec or note: prefix (4), '1', 52 data and 6 checksum characters. */
#define SC_NIP19_NPUB_LEN 63u
#define SC_NIP19_NSEC_LEN 63u
#define SC_NIP19_NOTE_LEN 63u

typedef enum sc_nip19_type {
    SC_NIP19_NPUB = 1,     /* 32-byte public key */
    SC_NIP19_NSEC = 2,     /* 32-byte secret key */
    SC_NIP19_NOTE = 3,     /* 32-byte event id */
    SC_NIP19_NPROFILE = 4, /* pubkey + relays */
    SC_NIP19_NEVENT = 5,   /* event id + relays + optional author and kind */
    SC_NIP19_NADDR = 6     /* identifier (d tag) + author + kind + relays */
} sc_nip19_type;

/** A decoded (or to-be-encoded) entity. Relay and identifier views point into the scratch
 *  buffer given to sc_nip19_decode (or into caller memory when encoding). Fields a type does
 *  not carry are zero after decoding and must be unset for encoding (n_relays, has_author,
 *  has_kind, identifier.len 0; an naddr's key all zero: its pubkey is author). author and
 *  kind are ignored while has_author / has_kind are 0. */
typedef struct sc_nip19_entity {
    sc_nip19_type type;
    uint8_t key[32];    /* npub/nprofile: pubkey; nsec: secret key; note/nevent: id */
    uint8_t author[32]; /* nevent (optional), naddr (required) */
    int has_author;     /* 0 or 1 */
    uint32_t kind;      /* nevent (optional), naddr (required) */
    int has_kind;       /* 0 or 1 */
    sc_str identifier;  /* naddr: the d tag (UTF-8, may be empty) */
    sc_str relays[SC_NIP19_MAX_RELAYS];
    size_t n_relays;
} sc_nip19_entity;

/** The lowercase bech32 prefix of a type ("npub", ...).
 *  Returns: a static NUL-terminated string, or NULL for an unknown type. */
SC_API const char *sc_nip19_prefix(sc_nip19_type type);

/** Exact number of characters sc_nip19_encode writes for e.
 *  Returns: the length; 0 if e is invalid or longer than SC_NIP19_MAX_CHARS (the call then
 *  says which). */
SC_API size_t sc_nip19_encode_len(const sc_nip19_entity *e) SC_NONNULL(1);

/** Encodes e as lowercase bech32 (no terminator).
 *  Returns: SC_OK; SC_ERR_ARG (NULL out_len or e, bad type, has_author or has_kind other
 *           than 0 or 1, a relay or identifier over 255 bytes, a relay outside printable
 *           ASCII, an identifier that is not UTF-8, a NULL view with a non-zero length, more
 *           than SC_NIP19_MAX_RELAYS relays, a missing naddr author or kind, a field the
 *           type does not carry (e.g. relays on an npub, an author on an nprofile, a
 *           non-zero naddr key): it would be dropped silently);
 *           SC_ERR_TOO_LARGE (over SC_NIP19_MAX_CHARS);
 *           SC_ERR_BUFFER_TOO_SMALL (*out_len = the size needed; out may be NULL with
 *           out_cap 0 to ask for it).
 *  Out: out[0..*out_len), untouched on failure (*out_len 0 except for
 *       SC_ERR_BUFFER_TOO_SMALL). An nsec string is secret: the caller wipes it.
 *  In: e.
 *  Constant time: in the data part (key, author, kind, TLV values), not in the type or the
 *  lengths. RNG: no. No context, no allocation. */
SC_API SC_WARN_UNUSED sc_status sc_nip19_encode(char *out, size_t out_cap, size_t *out_len,
                                                const sc_nip19_entity *e) SC_NONNULL(3, 4);

/** The npub of a 32-byte x-only public key: sc_nip19_encode of an SC_NIP19_NPUB entity.
 *  Returns: SC_OK; SC_ERR_BUFFER_TOO_SMALL (*out_len = SC_NIP19_NPUB_LEN); SC_ERR_ARG (pub
 *           or out_len NULL, out NULL with out_cap >= SC_NIP19_NPUB_LEN).
 *  Out: out[0..SC_NIP19_NPUB_LEN), untouched on failure.
 *  In: pub: SC_PUBKEY_BYTES (not checked against the curve).
 *  Constant time: not needed (public data). RNG: no. */
SC_API SC_WARN_UNUSED sc_status sc_nip19_encode_npub(char *out, size_t out_cap, size_t *out_len,
                                                     const uint8_t pub[32]) SC_NONNULL(3, 4);

/** Scratch bytes that always suffice to decode a string of len characters (at most
 *  SC_NIP19_DECODE_SCRATCH_MAX). The exact need is the payload size of a TLV entity, which
 *  sc_nip19_decode reports; npub, nsec and note decode straight into the entity and need no
 *  scratch (NULL, 0 is fine).
 *  Returns: the bound (0 for strings too short to hold a TLV payload). */
SC_API size_t sc_nip19_decode_scratch_max(size_t len);

/** Decodes s[0..len). The entity's relay and identifier views point into scratch.
 *  Returns: SC_OK; SC_ERR_BECH32 (empty, charset, mixed case, checksum, padding, unknown
 *           prefix, over SC_NIP19_MAX_CHARS); SC_ERR_TLV (truncated record, wrong length,
 *           duplicated type 0/2/3, missing required record, a relay outside printable
 *           ASCII, an npub/nsec/note payload that is not 32 bytes); SC_ERR_UTF8 (an naddr
 *           identifier that is not UTF-8); SC_ERR_TOO_LARGE (more than SC_NIP19_MAX_RELAYS
 *           relays); SC_ERR_BUFFER_TOO_SMALL (scratch_cap below the payload size:
 *           *scratch_len = the payload size, scratch untouched); SC_ERR_ARG (NULL e or
 *           scratch_len, NULL s with len > 0, NULL scratch with scratch_cap > 0).
 *  Out: e; scratch[0..*scratch_len) (0 for npub, nsec, note); *scratch_len. On failure e
 *       and scratch[0..scratch_cap) are zeroed (they may hold an nsec; not on
 *       SC_ERR_BUFFER_TOO_SMALL, where scratch is untouched) and *scratch_len is 0 (or the
 *       need).
 *  In: s[0..len) (not NUL-terminated; upper case accepted, mixed case refused).
 *  Constant time: in the data part (it may hold a secret key). RNG: no. No allocation. */
SC_API SC_WARN_UNUSED sc_status sc_nip19_decode(sc_nip19_entity *e, uint8_t *scratch,
                                                size_t scratch_cap, size_t *scratch_len,
                                                const char *s, size_t len) SC_NONNULL(1, 4);

SC_END_DECLS

#endif
