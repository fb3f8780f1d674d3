/* The pieces the NIP-46 files share: the JSON-RPC object read and written, and the sealed
 * kind 24133 event around it. */
#ifndef SOFTCHAT_CORE_NIP46_INTERNAL_H
#define SOFTCHAT_CORE_NIP46_INTERNAL_H

#include <softchat/nip46.h>

#include "util/json_write.h"

/* Lowercase hex of in[0..n) into out[0..2n) (public data). */
static inline void nip46_hex(char *out, const uint8_t *in, size_t n)
{
    static const char digits[] = "0123456789abcdef";
    size_t i;

    for (i = 0; i < n; i++) {
        out[2 * i] = digits[in[i] >> 4];
        out[2 * i + 1] = digits[in[i] & 15];
    }
}

/* What a JSON-RPC object held (request or response). */
#define NIP46_HAS_ID 1u
#define NIP46_HAS_METHOD 2u
#define NIP46_HAS_PARAMS 4u
#define NIP46_HAS_RESULT 8u
#define NIP46_HAS_ERROR 16u

typedef struct nip46_rpc {
    sc_str id, method, result, error;
    sc_str params[SC_NIP46_MAX_PARAMS];
    size_t n_params;
    unsigned has;  /* the members present (a null "result" or "error" is absent) */
    unsigned seen; /* the members read, null or not (each at most once) */
} nip46_rpc;

/* Reads a JSON-RPC object from text[0..len), strings unescaped into dst (cap >= len always
 * suffices). Unknown members are skipped; "error" may be null (absent). Returns: SC_OK;
 * SC_ERR_NIP46 (not an object, a known member repeated or of the wrong type);
 * SC_ERR_TOO_LARGE (more than SC_NIP46_MAX_PARAMS params). */
sc_status nip46_rpc_parse(nip46_rpc *r, char *dst, size_t cap, const char *text, size_t len);

/* Writes the JSON-RPC object of r's set members (id, method, params, result, error) to w. */
void nip46_rpc_write(sc_jw *w, const nip46_rpc *r);

/* Seals rpc into a signed kind 24133 event from `me` to `peer` (NIP-44 content, p tag peer),
 * written to out as sc_nip46_request_build describes (out is its own work area). */
sc_status nip46_seal(sc_ctx *ctx, char *out, size_t out_cap, size_t *out_len, const sc_identity *me,
                     const uint8_t peer[SC_PUBKEY_BYTES], const nip46_rpc *rpc, int64_t created_at);

/* Opens a kind 24133 event to `me` (a p tag names it), from `author` when not NULL:
 * the checks sc_nip46_request_open lists, then the JSON-RPC object. *from = the author. */
sc_status nip46_open(sc_ctx *ctx, nip46_rpc *rpc, uint8_t from[SC_PUBKEY_BYTES], void *scratch,
                     size_t scratch_cap, size_t *scratch_used, const sc_identity *me,
                     const uint8_t *author, const char *json, size_t json_len);

#endif
