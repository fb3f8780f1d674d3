/* NIP-19: encoding an entity given as fields, decoding one into fields. The relays cross as
 * a blob: u32 count, then per relay u32 length + bytes (little-endian). An nsec is secret
 * both ways: it crosses as bytes the caller wipes, never as a string. */
#include "exports.h"

#include <string.h>

/* Encodes: type; key (32 bytes); author (32 bytes or NULL); kind (< 0: none); the
 * identifier (naddr); the relays blob. The result is the bech32 text. */
SCW_EXPORT int scw_nip19_encode(scw *w, uint32_t type, const uint8_t *key, const uint8_t *author,
                                double kind, const char *ident, uint32_t ilen,
                                const uint8_t *relays, uint32_t rlen)
{
    sc_nip19_entity e;
    uint32_t n = 0, i, l;
    size_t off = 4, need, got = 0;
    uint8_t *out;

    memset(&e, 0, sizeof e);
    e.type = (sc_nip19_type)type;
    if (key != NULL) {
        memcpy(e.key, key, 32);
    }
    if (author != NULL) {
        memcpy(e.author, author, 32);
        e.has_author = 1;
    }
    if (kind >= 0) {
        if (kind > 4294967295.0 || (double)(uint32_t)kind != kind) {
            return SC_ERR_ARG;
        }
        e.kind = (uint32_t)kind;
        e.has_kind = 1;
    }
    e.identifier.ptr = ilen > 0 ? ident : NULL;
    e.identifier.len = ilen;
    if (rlen >= 4) {
        memcpy(&n, relays, 4);
    }
    if (n > SC_NIP19_MAX_RELAYS) {
        return SC_ERR_ARG;
    }
    for (i = 0; i < n; i++) { /* the layout was written by the TypeScript side: checked */
        if (off + 4 > rlen || (memcpy(&l, relays + off, 4), l > rlen - off - 4)) {
            return SC_ERR_ARG;
        }
        e.relays[i].ptr = (const char *)relays + off + 4;
        e.relays[i].len = l;
        off += 4 + l;
    }
    e.n_relays = n;
    need = sc_nip19_encode_len(&e);
    if (need == 0) { /* the call says why */
        sc_status st = sc_nip19_encode(NULL, 0, &got, &e);
        sc_mem_wipe(&e, sizeof e);
        return st == SC_OK || st == SC_ERR_BUFFER_TOO_SMALL ? SC_ERR_ARG : st;
    }
    if ((out = scw_output(w, need)) == NULL) {
        sc_mem_wipe(&e, sizeof e);
        return SC_ERR_NOMEM;
    }
    {
        sc_status st = sc_nip19_encode((char *)out, need, &got, &e);
        sc_mem_wipe(&e, sizeof e);
        return st == SC_OK ? scw_result(w, got) : st;
    }
}

/* Decodes s[0..len): res = u32 type, key[32] at 4, author[32] at 36, u32 has_author at 68,
 * u32 kind at 72, u32 has_kind at 76; the result = u32 identifier length + bytes, then the
 * relays blob. */
SCW_EXPORT int scw_nip19_decode(scw *w, const char *s, uint32_t len)
{
    sc_nip19_entity e;
    size_t sn = sc_nip19_decode_scratch_max(len), used = 0, total, i, off;
    uint8_t *scratch = NULL, *out;
    uint32_t v;
    sc_status st;

    if (len > SC_NIP19_MAX_CHARS) {
        return SC_ERR_BECH32;
    }
    if (sn > 0 && (scratch = scw_scratch(w, sn)) == NULL) {
        return SC_ERR_NOMEM;
    }
    st = sc_nip19_decode(&e, scratch, sn, &used, s, len);
    if (st != SC_OK) {
        return st;
    }
    total = 8 + e.identifier.len;
    for (i = 0; i < e.n_relays; i++) {
        total += 4 + e.relays[i].len;
    }
    if ((out = scw_output(w, total)) == NULL) {
        sc_mem_wipe(&e, sizeof e);
        return SC_ERR_NOMEM;
    }
    v = (uint32_t)e.type;
    memcpy(w->res, &v, 4);
    memcpy(w->res + 4, e.key, 32);
    memcpy(w->res + 36, e.author, 32);
    v = (uint32_t)e.has_author;
    memcpy(w->res + 68, &v, 4);
    memcpy(w->res + 72, &e.kind, 4);
    v = (uint32_t)e.has_kind;
    memcpy(w->res + 76, &v, 4);
    v = (uint32_t)e.identifier.len;
    memcpy(out, &v, 4);
    if (v > 0) {
        memcpy(out + 4, e.identifier.ptr, v);
    }
    off = 4 + v;
    v = (uint32_t)e.n_relays;
    memcpy(out + off, &v, 4);
    off += 4;
    for (i = 0; i < e.n_relays; i++) {
        v = (uint32_t)e.relays[i].len;
        memcpy(out + off, &v, 4);
        memcpy(out + off + 4, e.relays[i].ptr, v);
        off += 4 + v;
    }
    sc_mem_wipe(&e, sizeof e);
    return scw_result(w, off);
}
