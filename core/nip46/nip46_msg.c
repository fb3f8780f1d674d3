/* NIP-46 messages at the public surface: a request built by the client and opened by the
 * bunker, a response built by the bunker and opened by the client, and the call that carries
 * a signer.h request. */
#include <softchat/hex.h>
#include <softchat/mem.h>

#include <string.h>

#include "nip46/nip46_internal.h"

static int str_bad(sc_str s)
{
    return s.ptr == NULL && s.len > 0;
}

sc_status sc_nip46_request_build(sc_ctx *ctx, char *out, size_t out_cap, size_t *out_len,
                                 const sc_identity *client, const uint8_t bunker[SC_PUBKEY_BYTES],
                                 const uint8_t rnd[SC_NIP46_ID_RAND_BYTES],
                                 const sc_nip46_call *call, int64_t created_at,
                                 char id_out[SC_NIP46_ID_CHARS])
{
    nip46_rpc rpc;
    char id[SC_NIP46_ID_CHARS];
    size_t i;
    sc_status st;

    if (out_len != NULL) {
        *out_len = 0;
    }
    if (ctx == NULL || out_len == NULL || client == NULL || bunker == NULL || rnd == NULL ||
        call == NULL || id_out == NULL || str_bad(call->method)) {
        return SC_ERR_ARG;
    }
    if (call->n_params > SC_NIP46_MAX_PARAMS) {
        return SC_ERR_TOO_LARGE;
    }
    memset(&rpc, 0, sizeof rpc);
    for (i = 0; i < call->n_params; i++) {
        if (str_bad(call->params[i])) {
            return SC_ERR_ARG;
        }
        rpc.params[i] = call->params[i];
    }
    if (call->method.len == 0) {
        return SC_ERR_EMPTY;
    }
    nip46_hex(id, rnd, SC_NIP46_ID_RAND_BYTES);
    rpc.id = (sc_str){id, sizeof id};
    rpc.method = call->method;
    rpc.n_params = call->n_params;
    rpc.has = NIP46_HAS_ID | NIP46_HAS_METHOD | NIP46_HAS_PARAMS;
    st = nip46_seal(ctx, out, out_cap, out_len, client, bunker, &rpc, created_at);
    if (st == SC_OK) {
        memcpy(id_out, id, sizeof id);
    }
    return st;
}

sc_status sc_nip46_response_build(sc_ctx *ctx, char *out, size_t out_cap, size_t *out_len,
                                  const sc_identity *bunker, const uint8_t client[SC_PUBKEY_BYTES],
                                  sc_str id, sc_str result, sc_str error, int64_t created_at)
{
    nip46_rpc rpc;

    if (out_len != NULL) {
        *out_len = 0;
    }
    if (ctx == NULL || out_len == NULL || bunker == NULL || client == NULL || str_bad(id) ||
        str_bad(result) || str_bad(error)) {
        return SC_ERR_ARG;
    }
    if (id.len == 0) {
        return SC_ERR_EMPTY;
    }
    memset(&rpc, 0, sizeof rpc);
    rpc.id = id;
    rpc.result = result;
    rpc.error = error;
    if (result.len == 0 && error.len > 0) {
        rpc.result = SC_STR("error"); /* a refusal: see the header */
    }
    rpc.has = NIP46_HAS_ID | NIP46_HAS_RESULT | (error.len > 0 ? NIP46_HAS_ERROR : 0u);
    return nip46_seal(ctx, out, out_cap, out_len, bunker, client, &rpc, created_at);
}

sc_status sc_nip46_request_open(sc_ctx *ctx, sc_nip46_request *r, void *scratch, size_t scratch_cap,
                                size_t *scratch_used, const sc_identity *bunker, const char *json,
                                size_t json_len)
{
    nip46_rpc rpc;
    sc_status st;

    if (r != NULL) {
        memset(r, 0, sizeof *r);
    }
    if (scratch_used != NULL) {
        *scratch_used = 0;
    }
    if (ctx == NULL || r == NULL || scratch_used == NULL || bunker == NULL) {
        return SC_ERR_ARG;
    }
    st = nip46_open(ctx, &rpc, r->client, scratch, scratch_cap, scratch_used, bunker, NULL, json,
                    json_len);
    if (st == SC_OK && ((rpc.has & (NIP46_HAS_ID | NIP46_HAS_METHOD | NIP46_HAS_PARAMS)) !=
                            (NIP46_HAS_ID | NIP46_HAS_METHOD | NIP46_HAS_PARAMS) ||
                        rpc.method.len == 0)) {
        st = SC_ERR_NIP46;
    }
    if (st != SC_OK) {
        if (st != SC_ERR_BUFFER_TOO_SMALL && st != SC_ERR_ARG && *scratch_used > 0) {
            sc_mem_wipe(scratch, *scratch_used);
            *scratch_used = 0;
        }
        memset(r, 0, sizeof *r);
        return st;
    }
    r->id = rpc.id;
    r->call.method = rpc.method;
    memcpy(r->call.params, rpc.params, sizeof rpc.params);
    r->call.n_params = rpc.n_params;
    return SC_OK;
}

sc_status sc_nip46_response_open(sc_ctx *ctx, sc_nip46_response *r, void *scratch,
                                 size_t scratch_cap, size_t *scratch_used,
                                 const sc_identity *client, const uint8_t bunker[SC_PUBKEY_BYTES],
                                 sc_str expect_id, const char *json, size_t json_len)
{
    nip46_rpc rpc;
    uint8_t from[SC_PUBKEY_BYTES];
    sc_status st;

    if (r != NULL) {
        memset(r, 0, sizeof *r);
    }
    if (scratch_used != NULL) {
        *scratch_used = 0;
    }
    if (ctx == NULL || r == NULL || scratch_used == NULL || client == NULL || bunker == NULL ||
        str_bad(expect_id)) {
        return SC_ERR_ARG;
    }
    st = nip46_open(ctx, &rpc, from, scratch, scratch_cap, scratch_used, client, bunker, json,
                    json_len);
    /* an id, no method, and a result, or else (null or absent) a non-empty error */
    if (st == SC_OK && ((rpc.has & (NIP46_HAS_ID | NIP46_HAS_METHOD)) != NIP46_HAS_ID ||
                        ((rpc.has & NIP46_HAS_RESULT) == 0 && rpc.error.len == 0))) {
        st = SC_ERR_NIP46;
    }
    if (st == SC_OK && expect_id.len > 0 &&
        (rpc.id.len != expect_id.len || memcmp(rpc.id.ptr, expect_id.ptr, expect_id.len) != 0)) {
        st = SC_ERR_NIP46_ID;
    }
    if (st != SC_OK) {
        if (st != SC_ERR_BUFFER_TOO_SMALL && *scratch_used > 0) {
            sc_mem_wipe(scratch, *scratch_used);
            *scratch_used = 0;
        }
        return st;
    }
    r->id = rpc.id;
    r->result = rpc.result;
    r->error = rpc.error;
    if (rpc.result.len == 8 && memcmp(rpc.result.ptr, "auth_url", 8) == 0) {
        return SC_ERR_NIP46_AUTH_URL;
    }
    return rpc.error.len > 0 ? SC_ERR_SIGNER_REFUSED : SC_OK;
}

sc_status sc_nip46_call_from_req(sc_nip46_call *call, char *buf, size_t buf_cap, size_t *buf_used,
                                 const sc_signer_req *req)
{
    sc_event ev;
    size_t need, n = 0;
    sc_status st;

    if (call != NULL) {
        memset(call, 0, sizeof *call);
    }
    if (buf_used != NULL) {
        *buf_used = 0;
    }
    if (call == NULL || buf_used == NULL || req == NULL || (buf == NULL && buf_cap > 0)) {
        return SC_ERR_ARG;
    }
    if (req->kind == SC_SIGNER_REQ_SIGN_EVENT) {
        if (req->event == NULL) {
            return SC_ERR_STATE;
        }
        ev = *req->event;
        ev.flags &= ~(SC_EVENT_HAS_ID | SC_EVENT_HAS_SIG);
        need = sc_event_to_json_len(&ev, SC_EVENT_JSON_OBJECT);
        if (buf_cap < need || need == 0) {
            st = sc_event_to_json(buf, buf_cap, &n, &ev, SC_EVENT_JSON_OBJECT);
            *buf_used = st == SC_ERR_BUFFER_TOO_SMALL ? n : 0;
            return st;
        }
        st = sc_event_to_json(buf, buf_cap, &n, &ev, SC_EVENT_JSON_OBJECT);
        if (st != SC_OK) {
            return st;
        }
        call->method = SC_STR("sign_event");
        call->params[0] = (sc_str){buf, n};
        call->n_params = 1;
        *buf_used = n;
        return SC_OK;
    }
    if (req->kind != SC_SIGNER_REQ_NIP44_ENCRYPT && req->kind != SC_SIGNER_REQ_NIP44_DECRYPT) {
        return SC_ERR_STATE;
    }
    if (buf_cap < 2 * SC_PUBKEY_BYTES) {
        *buf_used = 2 * SC_PUBKEY_BYTES;
        return SC_ERR_BUFFER_TOO_SMALL;
    }
    nip46_hex(buf, req->peer, SC_PUBKEY_BYTES);
    n = 2 * SC_PUBKEY_BYTES;
    call->method = req->kind == SC_SIGNER_REQ_NIP44_ENCRYPT ? SC_STR("nip44_encrypt")
                                                            : SC_STR("nip44_decrypt");
    call->params[0] = (sc_str){buf, n};
    call->params[1] = req->text;
    call->n_params = 2;
    *buf_used = n;
    return SC_OK;
}
