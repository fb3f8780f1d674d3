/* NIP-19 entities: bare 32-byte payloads (npub, nsec, note) and TLV payloads (nprofile,
 * nevent, naddr) over bech32. Encoding streams the TLV records through the bech32 writer, so
 * no payload buffer exists; decoding converts into the entity (bare types) or the caller's
 * scratch (TLV types) and leaves views into it. */
#include <softchat/mem.h>
#include <softchat/nip19.h>

#include <string.h>

#include "util/bech32.h"
#include "util/utf8.h"

#define KEY_BYTES 32u
#define KIND_BYTES 4u
#define TLV_VALUE_MAX 255u

enum {
    TLV_SPECIAL = 0,
    TLV_RELAY = 1,
    TLV_AUTHOR = 2,
    TLV_KIND = 3
};

/* Indexed by sc_nip19_type. */
static const char *const prefixes[] = {NULL, "npub", "nsec", "note", "nprofile", "nevent", "naddr"};
#define N_PREFIXES (sizeof prefixes / sizeof prefixes[0])

/* The shortest TLV prefix ("naddr"): with the separator and the checksum, the characters of
 * a TLV string that carry no payload. */
#define TLV_OVERHEAD_CHARS (5u + 1u + 6u)

typedef char sc_nip19_scratch_max_matches
    [((SC_NIP19_MAX_CHARS - TLV_OVERHEAD_CHARS) * 5u / 8u == SC_NIP19_DECODE_SCRATCH_MAX) ? 1 : -1];

const char *sc_nip19_prefix(sc_nip19_type type)
{
    return ((unsigned)type < N_PREFIXES) ? prefixes[type] : NULL;
}

static int is_bare(sc_nip19_type type)
{
    return type == SC_NIP19_NPUB || type == SC_NIP19_NSEC || type == SC_NIP19_NOTE;
}

/* A relay URL byte: printable ASCII without space (a URL has none; controls and non-ASCII
 * bytes would reach UIs and JNI string constructors). */
static int relay_ok(const uint8_t *p, size_t n)
{
    size_t i;

    for (i = 0; i < n; i++) {
        if (p[i] < 0x21 || p[i] > 0x7e) {
            return 0;
        }
    }
    return 1;
}

/* ---- encoding ------------------------------------------------------------------------- */

static int is_zero(const uint8_t *p, size_t n)
{
    uint8_t acc = 0;
    size_t i;

    for (i = 0; i < n; i++) {
        acc |= p[i];
    }
    return acc == 0;
}

/* Checks e and gives its payload size in bytes. */
static sc_status measure(const sc_nip19_entity *e, size_t *payload)
{
    size_t i, n = 0;
    int want_relays, want_author, want_kind, want_identifier;

    *payload = 0;
    if (sc_nip19_prefix(e->type) == NULL) {
        return SC_ERR_ARG;
    }
    /* 0 or 1: another value would be written as 1 and decode to an entity that differs */
    if ((e->has_author != 0 && e->has_author != 1) || (e->has_kind != 0 && e->has_kind != 1)) {
        return SC_ERR_ARG;
    }
    want_relays = !is_bare(e->type);
    want_author = e->type == SC_NIP19_NEVENT || e->type == SC_NIP19_NADDR;
    want_kind = want_author;
    want_identifier = e->type == SC_NIP19_NADDR;
    /* a field the type cannot carry would vanish from the string: refuse it (an naddr's
     * pubkey belongs in author, not key) */
    if ((!want_relays && e->n_relays != 0) || (!want_author && e->has_author) ||
        (!want_kind && e->has_kind) || (!want_identifier && e->identifier.len != 0) ||
        (e->type == SC_NIP19_NADDR && !is_zero(e->key, KEY_BYTES))) {
        return SC_ERR_ARG;
    }
    if (is_bare(e->type)) {
        *payload = KEY_BYTES;
        return SC_OK;
    }
    if (e->n_relays > SC_NIP19_MAX_RELAYS) {
        return SC_ERR_ARG;
    }
    for (i = 0; i < e->n_relays; i++) {
        size_t len = e->relays[i].len;
        if (len > TLV_VALUE_MAX || (e->relays[i].ptr == NULL && len != 0) ||
            !relay_ok((const uint8_t *)e->relays[i].ptr, len)) {
            return SC_ERR_ARG;
        }
        n += 2 + len;
    }
    if (e->type == SC_NIP19_NADDR) {
        if (!e->has_author || !e->has_kind || e->identifier.len > TLV_VALUE_MAX ||
            (e->identifier.ptr == NULL && e->identifier.len != 0) ||
            sc_utf8_check(e->identifier.ptr, e->identifier.len) != SC_OK) {
            return SC_ERR_ARG;
        }
        n += 2 + e->identifier.len;
    } else {
        n += 2 + KEY_BYTES;
    }
    if (e->has_author) {
        n += 2 + KEY_BYTES;
    }
    if (e->has_kind) {
        n += 2 + KIND_BYTES;
    }
    *payload = n;
    return SC_OK;
}

/* Checks e and gives the characters of its string. */
static sc_status measure_chars(const sc_nip19_entity *e, size_t *chars)
{
    size_t payload;
    sc_status st = measure(e, &payload);

    *chars = 0;
    if (st != SC_OK) {
        return st;
    }
    *chars = sc_bech32_encoded_len(strlen(sc_nip19_prefix(e->type)), payload);
    return *chars > SC_NIP19_MAX_CHARS ? SC_ERR_TOO_LARGE : SC_OK;
}

size_t sc_nip19_encode_len(const sc_nip19_entity *e)
{
    size_t chars;

    if (e == NULL || measure_chars(e, &chars) != SC_OK) {
        return 0;
    }
    return chars;
}

static void put_record(sc_bech32_writer *w, unsigned type, const void *v, size_t len)
{
    uint8_t tl[2];

    tl[0] = (uint8_t)type;
    tl[1] = (uint8_t)len;
    sc_bech32_put(w, tl, sizeof tl);
    sc_bech32_put(w, (const uint8_t *)v, len);
}

sc_status sc_nip19_encode(char *out, size_t out_cap, size_t *out_len, const sc_nip19_entity *e)
{
    const char *hrp;
    sc_bech32_writer w;
    sc_status st;
    size_t need, i;

    if (out_len == NULL) {
        return SC_ERR_ARG;
    }
    *out_len = 0;
    if (e == NULL) {
        return SC_ERR_ARG;
    }
    st = measure_chars(e, &need);
    if (st != SC_OK) {
        return st;
    }
    *out_len = need;
    if (out_cap < need) {
        return SC_ERR_BUFFER_TOO_SMALL;
    }
    if (out == NULL) {
        *out_len = 0;
        return SC_ERR_ARG;
    }
    hrp = sc_nip19_prefix(e->type);
    sc_bech32_begin(&w, out, need, hrp, strlen(hrp));
    if (is_bare(e->type)) {
        sc_bech32_put(&w, e->key, KEY_BYTES);
    } else {
        if (e->type == SC_NIP19_NADDR) {
            put_record(&w, TLV_SPECIAL, e->identifier.ptr, e->identifier.len);
        } else {
            put_record(&w, TLV_SPECIAL, e->key, KEY_BYTES);
        }
        for (i = 0; i < e->n_relays; i++) {
            put_record(&w, TLV_RELAY, e->relays[i].ptr, e->relays[i].len);
        }
        if (e->has_author) {
            put_record(&w, TLV_AUTHOR, e->author, KEY_BYTES);
        }
        if (e->has_kind) {
            uint8_t k[KIND_BYTES];
            k[0] = (uint8_t)(e->kind >> 24);
            k[1] = (uint8_t)(e->kind >> 16);
            k[2] = (uint8_t)(e->kind >> 8);
            k[3] = (uint8_t)e->kind;
            put_record(&w, TLV_KIND, k, sizeof k);
        }
    }
    st = sc_bech32_finish(&w, out_len); /* wipes the writer's pending key bits */
    if (st != SC_OK || *out_len != need) {
        sc_mem_wipe(out, need); /* unreachable unless the sizing above is wrong */
        *out_len = 0;
        return SC_ERR_INTERNAL;
    }
    return SC_OK;
}

/* ---- decoding ------------------------------------------------------------------------- */

size_t sc_nip19_decode_scratch_max(size_t len)
{
    if (len > SC_NIP19_MAX_CHARS) {
        len = SC_NIP19_MAX_CHARS;
    }
    return len <= TLV_OVERHEAD_CHARS ? 0 : (len - TLV_OVERHEAD_CHARS) * 5 / 8;
}

/* The type whose prefix and separator begin s, with the prefix length. The comparison stops
 * at the first differing character: no prefix is a prefix of another, so it never reads past
 * the separator of the string's own prefix (the data may be a secret key). Either case. */
static sc_nip19_type match_prefix(const char *s, size_t len, size_t *hrp_len)
{
    unsigned t;

    for (t = 1; t < N_PREFIXES; t++) {
        const char *hrp = prefixes[t];
        size_t i, n = strlen(hrp);

        for (i = 0; i < n && i < len; i++) {
            unsigned c = (unsigned char)s[i];
            if (c >= 'A' && c <= 'Z') {
                c += 'a' - 'A';
            }
            if (c != (unsigned char)hrp[i]) {
                break;
            }
        }
        if (i == n && len > n && s[n] == '1') {
            *hrp_len = n;
            return (sc_nip19_type)t;
        }
    }
    *hrp_len = 0;
    return (sc_nip19_type)0;
}

/* Reads the TLV records of b[0..n) into e (whose type is set). */
static sc_status parse_tlv(sc_nip19_entity *e, const uint8_t *b, size_t n)
{
    size_t i = 0;
    int have_special = 0;

    while (i < n) {
        unsigned t;
        size_t l;
        const uint8_t *v;

        if (n - i < 2) {
            return SC_ERR_TLV; /* a type without a length */
        }
        t = b[i];
        l = b[i + 1];
        v = b + i + 2;
        if (n - i - 2 < l) {
            return SC_ERR_TLV; /* value runs past the payload */
        }
        i += 2 + l;
        if (e->type == SC_NIP19_NPROFILE && (t == TLV_AUTHOR || t == TLV_KIND)) {
            continue; /* not defined for nprofile: unknown there */
        }
        switch (t) {
        case TLV_SPECIAL:
            if (have_special) {
                return SC_ERR_TLV;
            }
            have_special = 1;
            if (e->type == SC_NIP19_NADDR) {
                if (sc_utf8_check((const char *)v, l) != SC_OK) {
                    return SC_ERR_UTF8;
                }
                e->identifier.ptr = (const char *)v;
                e->identifier.len = l;
            } else {
                if (l != KEY_BYTES) {
                    return SC_ERR_TLV;
                }
                memcpy(e->key, v, KEY_BYTES);
            }
            break;
        case TLV_RELAY:
            if (e->n_relays == SC_NIP19_MAX_RELAYS) {
                return SC_ERR_TOO_LARGE;
            }
            if (!relay_ok(v, l)) {
                return SC_ERR_TLV;
            }
            e->relays[e->n_relays].ptr = (const char *)v;
            e->relays[e->n_relays].len = l;
            e->n_relays++;
            break;
        case TLV_AUTHOR:
            if (e->has_author || l != KEY_BYTES) {
                return SC_ERR_TLV;
            }
            memcpy(e->author, v, KEY_BYTES);
            e->has_author = 1;
            break;
        case TLV_KIND:
            if (e->has_kind || l != KIND_BYTES) {
                return SC_ERR_TLV;
            }
            e->kind = ((uint32_t)v[0] << 24) | ((uint32_t)v[1] << 16) | ((uint32_t)v[2] << 8) |
                      (uint32_t)v[3];
            e->has_kind = 1;
            break;
        default:
            break; /* unknown types are skipped */
        }
    }
    if (!have_special || (e->type == SC_NIP19_NADDR && (!e->has_author || !e->has_kind))) {
        return SC_ERR_TLV;
    }
    return SC_OK;
}

sc_status sc_nip19_encode_npub(char *out, size_t out_cap, size_t *out_len, const uint8_t pub[32])
{
    sc_nip19_entity e;

    if (out_len == NULL) {
        return SC_ERR_ARG;
    }
    *out_len = 0;
    if (pub == NULL) {
        return SC_ERR_ARG;
    }
    memset(&e, 0, sizeof e);
    e.type = SC_NIP19_NPUB;
    memcpy(e.key, pub, sizeof e.key);
    return sc_nip19_encode(out, out_cap, out_len, &e);
}

sc_status sc_nip19_decode(sc_nip19_entity *e, uint8_t *scratch, size_t scratch_cap,
                          size_t *scratch_len, const char *s, size_t len)
{
    sc_bech32_str p;
    sc_nip19_type type;
    sc_status st;
    size_t n, hrp_len;

    if (scratch_len != NULL) {
        *scratch_len = 0;
    }
    if (e == NULL || scratch_len == NULL) {
        return SC_ERR_ARG;
    }
    memset(e, 0, sizeof *e);
    if ((s == NULL && len != 0) || (scratch == NULL && scratch_cap != 0)) {
        st = SC_ERR_ARG;
        goto out;
    }
    type = match_prefix(s, len, &hrp_len);
    if (type == 0) {
        st = SC_ERR_BECH32; /* unknown prefix (nrelay, a "nostr:" URI) or no separator */
        goto out;
    }
    st = sc_bech32_parse(&p, s, len, hrp_len, SC_NIP19_MAX_CHARS);
    if (st != SC_OK) {
        goto out;
    }
    e->type = type;
    n = sc_bech32_bytes_len(&p);
    if (is_bare(type)) {
        st = n == KEY_BYTES ? sc_bech32_to_bytes(e->key, KEY_BYTES, &p) : SC_ERR_TLV;
        goto out;
    }
    if (scratch_cap < n) {
        sc_mem_wipe(e, sizeof *e);
        *scratch_len = n; /* scratch untouched */
        return SC_ERR_BUFFER_TOO_SMALL;
    }
    st = sc_bech32_to_bytes(scratch, n, &p);
    if (st != SC_OK) {
        goto out;
    }
    st = parse_tlv(e, scratch, n);
    if (st == SC_OK) {
        *scratch_len = n;
    }
out:
    if (st != SC_OK) {
        sc_mem_wipe(e, sizeof *e);
        sc_mem_wipe(scratch, scratch_cap);
    }
    return st;
}
