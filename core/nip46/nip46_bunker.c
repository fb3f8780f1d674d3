/* The bunker side of NIP-46: an opened request checked against the permission policy and run
 * with the user's identity. Every refusal comes with the static text the response carries. */
#include <softchat/hex.h>
#include <softchat/mem.h>
#include <softchat/nip44.h>

#include <string.h>

#include "nip46/nip46_internal.h"
#include "util/utf8.h"

#define SIGNED_EXTRA 512u /* id, pubkey, sig and their keys added to an unsigned event */

static const char e_denied[] = "permission denied", e_secret[] = "invalid secret",
                  e_nip04[] = "nip04 is not supported: it is deprecated and unauthenticated; "
                              "use nip44_encrypt / nip44_decrypt",
                  e_method[] = "unsupported method", e_params[] = "invalid params",
                  e_connect[] = "not connected: send connect with the secret first",
                  e_failed[] = "the request could not be carried out";

static int is(sc_str s, const char *lit)
{
    return s.len == strlen(lit) && memcmp(s.ptr, lit, s.len) == 0;
}

/* Whether the policy grants method (for sign_event: of this kind). */
static int granted(const sc_nip46_policy *p, sc_str method, int has_kind, uint32_t kind)
{
    size_t i;

    for (i = 0; i < p->n_grants; i++) {
        sc_str g = p->grants[i];
        uint64_t k = 0;
        size_t j;

        if (g.ptr == NULL || g.len < method.len || memcmp(g.ptr, method.ptr, method.len) != 0) {
            continue;
        }
        if (g.len == method.len) {
            return 1;
        }
        if (!has_kind || g.ptr[method.len] != ':' || g.len == method.len + 1 ||
            g.len > method.len + 6) {
            continue;
        }
        for (j = method.len + 1; j < g.len && g.ptr[j] >= '0' && g.ptr[j] <= '9'; j++) {
            k = k * 10 + (uint64_t)(g.ptr[j] - '0');
        }
        if (j == g.len && k == kind) {
            return 1;
        }
    }
    return 0;
}

size_t sc_nip46_bunker_result_max(const sc_nip46_request *r)
{
    size_t n = 2 * SC_PUBKEY_BYTES, p = r->call.n_params > 0 ? r->call.params[0].len : 0;

    if (is(r->call.method, "sign_event")) {
        size_t arena = sc_event_parse_arena_max(p);

        if (arena == 0 || p > SIZE_MAX - arena - SIGNED_EXTRA) {
            return 0;
        }
        return arena + p + SIGNED_EXTRA;
    }
    if (r->call.n_params >= 2 && is(r->call.method, "nip44_encrypt")) {
        size_t e = sc_nip44_encrypt_len(r->call.params[1].len);

        return e > n ? e : n;
    }
    if (r->call.n_params >= 2 && is(r->call.method, "nip44_decrypt")) {
        size_t d = sc_nip44_decrypt_max(r->call.params[1].len);

        return d > n ? d : n;
    }
    return n;
}

static sc_status put_text(char *out, size_t *out_len, const char *s)
{
    *out_len = strlen(s);
    memcpy(out, s, *out_len);
    return SC_OK;
}

static sc_status do_sign(sc_ctx *ctx, char *out, size_t out_cap, size_t *out_len,
                         const sc_identity *user, const sc_nip46_policy *p, const sc_nip46_call *c,
                         const char **error)
{
    static const sc_event_parse_opts opts = {
        0, SC_EVENT_HAS_ID | SC_EVENT_HAS_PUBKEY | SC_EVENT_HAS_SIG, 0, NULL};
    size_t arena = sc_event_parse_arena_max(c->params[0].len), used = 0;
    char *at = out + out_cap - arena;
    sc_event ev;
    sc_status st;

    if (c->n_params != 1) {
        *error = e_params;
        return SC_ERR_NIP46;
    }
    st = sc_event_parse(&ev, at, arena, &used, c->params[0].ptr, c->params[0].len, &opts);
    if (st != SC_OK) {
        *error = e_params;
        return st;
    }
    if (!granted(p, c->method, 1, ev.kind)) {
        *error = e_denied;
        st = SC_ERR_SIGNER_REFUSED;
    } else {
        ev.flags &= ~(SC_EVENT_HAS_ID | SC_EVENT_HAS_SIG);
        st = sc_event_sign(ctx, &ev, user);
        if (st == SC_OK) {
            st = sc_event_to_json(out, out_cap - arena, out_len, &ev, SC_EVENT_JSON_OBJECT);
        }
        *error = st == SC_OK ? NULL : e_failed;
    }
    sc_mem_wipe(at, arena);
    return st;
}

static sc_status do_nip44(sc_ctx *ctx, char *out, size_t out_cap, size_t *out_len,
                          const sc_identity *user, const sc_nip46_call *c, int enc,
                          const char **error)
{
    uint8_t peer[SC_PUBKEY_BYTES];
    sc_status st;

    if (c->n_params != 2 || sc_hex_decode_fixed(peer, sizeof peer, c->params[0].ptr,
                                                c->params[0].len, SC_HEX_ANY_CASE) != SC_OK) {
        *error = e_params;
        return SC_ERR_NIP46;
    }
    if (enc) {
        st = sc_nip44_encrypt_to(ctx, out, out_cap, out_len, user, peer,
                                 (const uint8_t *)c->params[1].ptr, c->params[1].len, 0);
    } else {
        st = sc_nip44_decrypt_from(ctx, (uint8_t *)out, out_cap, out_len, user, peer,
                                   c->params[1].ptr, c->params[1].len, 0);
        if (st == SC_OK && sc_utf8_check(out, *out_len) != SC_OK) {
            st = SC_ERR_UTF8; /* a JSON string cannot carry it */
        }
    }
    *error = st == SC_OK ? NULL : e_failed;
    return st;
}

static sc_status do_connect(char *out, size_t *out_len, const sc_nip46_policy *p,
                            const sc_nip46_call *c, const char **error)
{
    if (p->secret.len > 0) {
        sc_str s = c->n_params >= 2 ? c->params[1] : (sc_str){"", 0};
        int bad = s.len != p->secret.len;

        /* compared over the expected length whatever was sent: no early exit on content */
        bad |= sc_mem_ct_compare(bad ? p->secret.ptr : s.ptr, p->secret.ptr, p->secret.len) != 0;
        if (bad) {
            *error = e_secret;
            return SC_ERR_NIP46_SECRET;
        }
    }
    return put_text(out, out_len, "ack");
}

/* Whether client may call methods other than connect: no secret is set, or it is one of the
 * policy's connected clients. */
static int connected(const sc_nip46_policy *p, const uint8_t client[SC_PUBKEY_BYTES])
{
    size_t i;

    if (p->secret.len == 0) {
        return 1;
    }
    for (i = 0; i < p->n_clients; i++) {
        if (memcmp(p->clients[i], client, SC_PUBKEY_BYTES) == 0) {
            return 1;
        }
    }
    return 0;
}

/* Runs r: SC_OK with the result in out, or a refusal with *error set. */
static sc_status dispatch(sc_ctx *ctx, char *out, size_t out_cap, size_t *out_len,
                          const char **error, const sc_identity *user, const sc_nip46_policy *p,
                          const sc_nip46_request *r)
{
    const sc_nip46_call *c = &r->call;
    uint8_t pub[SC_PUBKEY_BYTES];
    sc_status st;

    if (is(c->method, "nip04_encrypt") || is(c->method, "nip04_decrypt")) {
        *error = e_nip04;
        return SC_ERR_UNSUPPORTED;
    }
    if (!is(c->method, "connect") && !is(c->method, "ping") && !is(c->method, "get_public_key") &&
        !is(c->method, "sign_event") && !is(c->method, "nip44_encrypt") &&
        !is(c->method, "nip44_decrypt") && !is(c->method, "switch_relays")) {
        *error = e_method;
        return SC_ERR_UNSUPPORTED;
    }
    if (!is(c->method, "connect") && !connected(p, r->client)) {
        *error = e_connect;
        return SC_ERR_SIGNER_REFUSED;
    }
    if (is(c->method, "switch_relays")) {
        return put_text(out, out_len, "null"); /* no other relays: they are the caller's */
    }
    if (is(c->method, "sign_event")) {
        return do_sign(ctx, out, out_cap, out_len, user, p, c, error);
    }
    if (!granted(p, c->method, 0, 0)) {
        *error = e_denied;
        return SC_ERR_SIGNER_REFUSED;
    }
    if (is(c->method, "connect")) {
        return do_connect(out, out_len, p, c, error);
    }
    if (is(c->method, "ping")) {
        return put_text(out, out_len, "pong");
    }
    if (is(c->method, "get_public_key")) {
        st = sc_identity_pubkey(pub, user);
        if (st == SC_OK) {
            nip46_hex(out, pub, SC_PUBKEY_BYTES);
            *out_len = 2 * SC_PUBKEY_BYTES;
        }
        return st;
    }
    return do_nip44(ctx, out, out_cap, out_len, user, c, is(c->method, "nip44_encrypt"), error);
}

sc_status sc_nip46_bunker_handle(sc_ctx *ctx, char *out, size_t out_cap, size_t *out_len,
                                 const char **error, const sc_identity *user,
                                 const sc_nip46_policy *policy, const sc_nip46_request *r)
{
    size_t need;
    sc_status st;

    if (out_len != NULL) {
        *out_len = 0;
    }
    if (error != NULL) {
        *error = NULL;
    }
    if (ctx == NULL || out_len == NULL || error == NULL || user == NULL || policy == NULL ||
        r == NULL || (out == NULL && out_cap > 0) ||
        (policy->grants == NULL && policy->n_grants > 0) ||
        (policy->secret.ptr == NULL && policy->secret.len > 0) ||
        (policy->clients == NULL && policy->n_clients > 0)) {
        return SC_ERR_ARG;
    }
    need = sc_nip46_bunker_result_max(r);
    if (need == 0 || out_cap < need) {
        *out_len = need;
        return need == 0 ? SC_ERR_TOO_LARGE : SC_ERR_BUFFER_TOO_SMALL;
    }
    st = dispatch(ctx, out, out_cap, out_len, error, user, policy, r);
    if (st != SC_OK) {
        if (*error == NULL) {
            *error = e_failed;
        }
        sc_mem_wipe(out, out_cap);
        *out_len = 0;
    }
    return st;
}
