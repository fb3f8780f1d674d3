/* The JSON-RPC object of NIP-46 messages: {"id","method","params"} and {"id","result",
 * "error"}, read with the strict scanner (unknown members skipped) and written with the event
 * writer's string escaping. */
#include <string.h>

#include "nip46/nip46_internal.h"
#include "util/json_object.h"

#define SKIP_DEPTH 32u

static sc_status read_string(sc_jscan *s, sc_str *v, char *dst, size_t cap, size_t *used)
{
    size_t n = 0;
    sc_status st = sc_jobj_string(s, (uint8_t *)dst + *used, cap - *used, &n);

    if (st == SC_ERR_EVENT_FIELD) {
        return SC_ERR_NIP46;
    }
    if (st != SC_OK) {
        return st;
    }
    if (n > cap - *used) {
        return SC_ERR_NIP46;
    }
    *v = (sc_str){dst + *used, n};
    *used += n;
    return SC_OK;
}

static sc_status read_params(sc_jscan *s, nip46_rpc *r, char *dst, size_t cap, size_t *used)
{
    int more = 1, first = 1;
    sc_status st;

    sc_jscan_ws(s);
    if (sc_jscan_peek(s) != '[') {
        return SC_ERR_NIP46;
    }
    st = sc_jobj_open(s, '[');
    while (st == SC_OK) {
        st = sc_jarr_next(s, first, &more);
        first = 0;
        if (st != SC_OK || !more) {
            break;
        }
        if (r->n_params == SC_NIP46_MAX_PARAMS) {
            return SC_ERR_TOO_LARGE;
        }
        st = read_string(s, &r->params[r->n_params++], dst, cap, used);
    }
    return st;
}

/* The member whose key is key[0..n): which flag it sets, 0 for an unknown one. */
static unsigned member_of(const char *key, size_t n)
{
    static const struct {
        const char *name;
        unsigned flag;
    } members[] = {{"id", NIP46_HAS_ID},
                   {"method", NIP46_HAS_METHOD},
                   {"params", NIP46_HAS_PARAMS},
                   {"result", NIP46_HAS_RESULT},
                   {"error", NIP46_HAS_ERROR}};
    size_t i;

    for (i = 0; i < sizeof members / sizeof members[0]; i++) {
        if (strlen(members[i].name) == n && memcmp(members[i].name, key, n) == 0) {
            return members[i].flag;
        }
    }
    return 0;
}

static sc_status read_member(sc_jscan *s, nip46_rpc *r, unsigned flag, char *dst, size_t cap,
                             size_t *used)
{
    sc_str *slot = flag == NIP46_HAS_ID       ? &r->id
                   : flag == NIP46_HAS_METHOD ? &r->method
                   : flag == NIP46_HAS_RESULT ? &r->result
                                              : &r->error;

    if (flag == 0) {
        return sc_jscan_skip(s, SKIP_DEPTH);
    }
    if (r->seen & flag) {
        return SC_ERR_NIP46;
    }
    r->seen |= flag;
    if (flag == NIP46_HAS_PARAMS) {
        r->has |= flag;
        return read_params(s, r, dst, cap, used);
    }
    sc_jscan_ws(s);
    if ((flag == NIP46_HAS_ERROR || flag == NIP46_HAS_RESULT) && sc_jscan_peek(s) == 'n') {
        /* "error": null is no error; "result": null no result (a refusal's, as rust-nostr's
         * signer writes it: sc_nip46_response_open then needs an error) */
        return sc_jscan_skip(s, SKIP_DEPTH);
    }
    r->has |= flag;
    return read_string(s, slot, dst, cap, used);
}

sc_status nip46_rpc_parse(nip46_rpc *r, char *dst, size_t cap, const char *text, size_t len)
{
    sc_jscan s;
    size_t used = 0;
    int more = 1, first = 1;
    sc_status st;

    memset(r, 0, sizeof *r);
    sc_jscan_init(&s, text, len);
    sc_jscan_ws(&s);
    if (sc_jscan_peek(&s) != '{') {
        return SC_ERR_NIP46;
    }
    st = sc_jobj_open(&s, '{');
    while (st == SC_OK) {
        char key[8];
        size_t key_len = 0;

        st = sc_jobj_key(&s, first, key, sizeof key, &key_len, &more);
        first = 0;
        if (st != SC_OK || !more) {
            break;
        }
        st = read_member(&s, r, key_len <= sizeof key ? member_of(key, key_len) : 0, dst, cap,
                         &used);
    }
    if (st == SC_OK) {
        st = sc_jobj_end(&s);
    }
    if (st == SC_ERR_JSON || st == SC_ERR_EVENT_FIELD) {
        st = SC_ERR_NIP46;
    }
    if (st != SC_OK) {
        memset(r, 0, sizeof *r);
    }
    return st;
}

void nip46_rpc_write(sc_jw *w, const nip46_rpc *r)
{
    size_t i;

    sc_jw_raw(w, "{\"id\":", 6);
    sc_jw_string(w, r->id.ptr, r->id.len);
    if (r->has & NIP46_HAS_METHOD) {
        sc_jw_raw(w, ",\"method\":", 10);
        sc_jw_string(w, r->method.ptr, r->method.len);
        sc_jw_raw(w, ",\"params\":[", 11);
        for (i = 0; i < r->n_params; i++) {
            if (i > 0) {
                sc_jw_char(w, ',');
            }
            sc_jw_string(w, r->params[i].ptr, r->params[i].len);
        }
        sc_jw_char(w, ']');
    }
    if (r->has & NIP46_HAS_RESULT) {
        sc_jw_raw(w, ",\"result\":", 10);
        sc_jw_string(w, r->result.ptr, r->result.len);
    }
    if (r->has & NIP46_HAS_ERROR) {
        sc_jw_raw(w, ",\"error\":", 9);
        sc_jw_string(w, r->error.ptr, r->error.len);
    }
    sc_jw_char(w, '}');
}
