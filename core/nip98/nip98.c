/* NIP-98: the kind 27235 auth event of a request, signed, and the Authorization header value
 * that carries it ("Nostr " and the base64 of its JSON object). One template serves a local
 * key (sc_nip98_sign) and a signer elsewhere (sc_nip98_template, then sc_nip98_header); one
 * writer makes the header of either. The event's JSON streams from the one event writer
 * straight into the base64 encoder, so the header needs no buffer but the caller's.
 * Verification is in nip98_verify.c. */
#include <softchat/base64.h>
#include <softchat/crypto.h>
#include <softchat/hex.h>
#include <softchat/mem.h>
#include <softchat/nip98.h>

#include <string.h>

#include "event/event_json.h"
#include "nip98/nip98_internal.h"
#include "util/json_write.h"

#define SCHEME "Nostr "
#define SCHEME_LEN 6u

static const char k_u[] = SC_NIP98_TAG_U, k_method[] = SC_NIP98_TAG_METHOD,
                  k_payload[] = SC_NIP98_TAG_PAYLOAD;

/* Fills a with the unsigned auth event of req (no pubkey): SC_OK; SC_ERR_ARG (req NULL, a NULL
 * string with a length); SC_ERR_EMPTY (an empty url or method). The rest (UTF-8,
 * created_at) is sc_event_check's. */
static sc_status fill(sc_nip98_auth *a, const sc_nip98_request *req, int64_t created_at)
{
    size_t n = 2, t;

    memset(a, 0, sizeof *a);
    if (req == NULL || (req->url.ptr == NULL && req->url.len != 0) ||
        (req->method.ptr == NULL && req->method.len != 0)) {
        return SC_ERR_ARG;
    }
    if (req->url.len == 0 || req->method.len == 0) {
        return SC_ERR_EMPTY;
    }
    a->items[0] = (sc_str){k_u, sizeof k_u - 1};
    a->items[1] = req->url;
    a->items[2] = (sc_str){k_method, sizeof k_method - 1};
    a->items[3] = req->method;
    if (req->payload_sha256 != NULL) {
        size_t hex_len = 0;

        if (sc_hex_encode(a->payload_hex, sizeof a->payload_hex, &hex_len, req->payload_sha256,
                          SC_SHA256_BYTES) != SC_OK) {
            return SC_ERR_INTERNAL; /* the buffer is exactly the size: cannot happen */
        }
        a->items[4] = (sc_str){k_payload, sizeof k_payload - 1};
        a->items[5] = (sc_str){a->payload_hex, sizeof a->payload_hex};
        n = 3;
    }
    for (t = 0; t < n; t++) {
        a->tags[t].items = &a->items[2 * t];
        a->tags[t].n_items = 2;
    }
    a->event.kind = SC_NIP98_KIND;
    a->event.created_at = created_at;
    a->event.tags = a->tags;
    a->event.n_tags = n;
    a->event.content = (sc_str){"", 0};
    a->event.flags =
        SC_EVENT_HAS_KIND | SC_EVENT_HAS_CREATED_AT | SC_EVENT_HAS_TAGS | SC_EVENT_HAS_CONTENT;
    return SC_OK;
}

/* The header length of ev once signed (its id, pubkey and sig have fixed lengths, so whatever
 * they hold measures it), or 0 with *st set. */
static size_t need_of(const sc_event *ev, sc_status *st)
{
    sc_event e = *ev;
    size_t json, b64;

    e.flags = SC_EVENT_SIGNED;
    *st = sc_event_check(&e);
    if (*st != SC_OK) {
        return 0;
    }
    json = sc_event_to_json_len(&e, SC_EVENT_JSON_OBJECT);
    b64 = sc_base64_encode_len(json);
    if (json == 0 || b64 == 0 || b64 > (size_t)-1 - SCHEME_LEN) {
        *st = SC_ERR_TOO_LARGE;
        return 0;
    }
    return SCHEME_LEN + b64;
}

/* The template's checks without the pubkey: fill, then the event's (UTF-8, created_at, the
 * size). */
static sc_status build(sc_nip98_auth *a, const sc_nip98_request *req, int64_t created_at,
                       size_t *need)
{
    sc_status st = fill(a, req, created_at);

    *need = st == SC_OK ? need_of(&a->event, &st) : 0;
    if (st != SC_OK) {
        memset(a, 0, sizeof *a);
    }
    return st;
}

sc_status sc_nip98_template(sc_nip98_auth *a, const sc_nip98_request *req, int64_t created_at,
                            const uint8_t pubkey[SC_PUBKEY_BYTES])
{
    size_t need;
    sc_status st;

    if (a == NULL) {
        return SC_ERR_ARG;
    }
    if (pubkey == NULL) {
        memset(a, 0, sizeof *a);
        return SC_ERR_ARG;
    }
    st = build(a, req, created_at, &need);
    if (st == SC_OK) {
        memcpy(a->event.pubkey, pubkey, SC_PUBKEY_BYTES);
        a->event.flags |= SC_EVENT_HAS_PUBKEY;
    }
    return st;
}

size_t sc_nip98_sign_len(const sc_nip98_request *req, int64_t created_at)
{
    sc_nip98_auth a;
    size_t need = 0;

    return build(&a, req, created_at, &need) == SC_OK ? need : 0;
}

size_t sc_nip98_header_len(const sc_event *ev)
{
    sc_status st;

    return ev != NULL ? need_of(ev, &st) : 0;
}

/* Base64 of a byte stream into out: whole groups of three bytes as they come, the last one or
 * two bytes with padding at the end. */
typedef struct b64_stream {
    char *out;
    size_t cap, pos;
    uint8_t carry[3];
    size_t n_carry;
} b64_stream;

static sc_status b64_put(b64_stream *b, const uint8_t *p, size_t n)
{
    size_t whole, written = 0;
    sc_status st = SC_OK;

    /* n_carry is 0, 1 or 2 between calls; the bound also tells the compiler so */
    while (b->n_carry != 0 && b->n_carry < sizeof b->carry && n != 0) {
        b->carry[b->n_carry++] = *p++;
        n--;
        if (b->n_carry == 3) {
            st = sc_base64_encode(b->out + b->pos, b->cap - b->pos, &written, b->carry, 3);
            b->pos += written;
            b->n_carry = 0;
        }
    }
    whole = n - n % 3;
    if (st == SC_OK && whole != 0) {
        st = sc_base64_encode(b->out + b->pos, b->cap - b->pos, &written, p, whole);
        b->pos += written;
    }
    memcpy(b->carry + b->n_carry, p + whole, n - whole);
    b->n_carry += n - whole;
    return st;
}

static sc_status b64_sink(void *arg, const uint8_t *p, size_t n)
{
    return b64_put((b64_stream *)arg, p, n);
}

static sc_status b64_finish(b64_stream *b)
{
    size_t written = 0;
    sc_status st = SC_OK;

    if (b->n_carry != 0) {
        st = sc_base64_encode(b->out + b->pos, b->cap - b->pos, &written, b->carry, b->n_carry);
        b->pos += written;
    }
    return st;
}

/* Writes the header value of the signed event ev into out[0..need). */
static sc_status write_header(char *out, size_t need, const sc_event *ev)
{
    b64_stream b;
    sc_jw w;
    sc_status st;

    memcpy(out, SCHEME, SCHEME_LEN);
    memset(&b, 0, sizeof b);
    b.out = out + SCHEME_LEN;
    b.cap = need - SCHEME_LEN;
    sc_jw_init_sink(&w, b64_sink, &b);
    sc_event_write(&w, ev, SC_EVENT_JSON_OBJECT);
    st = sc_jw_flush(&w);
    if (st == SC_OK) {
        st = b64_finish(&b);
    }
    return st == SC_OK && SCHEME_LEN + b.pos == need ? SC_OK : SC_ERR_INTERNAL;
}

#define SIGNED_FLAGS (SC_EVENT_HAS_ID | SC_EVENT_HAS_PUBKEY | SC_EVENT_HAS_SIG)

/* NIP-98's claims of a signed event that passed sc_event_check, as sc_nip98_header lists
 * them. */
static sc_status check_claims(const sc_event *ev)
{
    const sc_str *u, *m, *p;
    uint8_t hash[SC_SHA256_BYTES];

    if (ev->kind != SC_NIP98_KIND) {
        return SC_ERR_NIP98_KIND;
    }
    u = SC_NIP98_UNIQUE_TAG(ev, SC_NIP98_TAG_U);
    if (u == NULL || u->len == 0) {
        return SC_ERR_NIP98_URL;
    }
    m = SC_NIP98_UNIQUE_TAG(ev, SC_NIP98_TAG_METHOD);
    if (m == NULL || m->len == 0) {
        return SC_ERR_NIP98_METHOD;
    }
    if (!sc_nip98_no_tag(ev, k_payload, sizeof k_payload - 1)) {
        p = SC_NIP98_UNIQUE_TAG(ev, SC_NIP98_TAG_PAYLOAD);
        if (p == NULL ||
            sc_hex_decode_fixed(hash, sizeof hash, p->ptr, p->len, SC_HEX_ANY_CASE) != SC_OK) {
            return SC_ERR_NIP98_PAYLOAD;
        }
    }
    return SC_OK;
}

sc_status sc_nip98_header(sc_ctx *ctx, char *out, size_t out_cap, size_t *out_len,
                          const sc_event *ev)
{
    size_t need = 0;
    sc_status st;

    if (out_len != NULL) {
        *out_len = 0;
    }
    if (ctx == NULL || out_len == NULL || ev == NULL || (out == NULL && out_cap != 0)) {
        return SC_ERR_ARG;
    }
    /* sc_event_check (inside need_of) before the claims: they read the tags' items */
    st = (ev->flags & SIGNED_FLAGS) == SIGNED_FLAGS ? SC_OK : SC_ERR_EVENT_FIELD;
    if (st == SC_OK) {
        need = need_of(ev, &st);
    }
    if (st == SC_OK) {
        st = check_claims(ev);
    }
    if (st == SC_OK) {
        st = sc_event_verify(ctx, ev);
    }
    if (st == SC_OK && out_cap < need) {
        *out_len = need;
        return SC_ERR_BUFFER_TOO_SMALL;
    }
    if (st == SC_OK) {
        st = write_header(out, need, ev);
    }
    if (st != SC_OK) {
        if (out != NULL) {
            sc_mem_wipe(out, out_cap);
        }
        return st;
    }
    *out_len = need;
    return SC_OK;
}

sc_status sc_nip98_sign_with_rand(sc_ctx *ctx, char *out, size_t out_cap, size_t *out_len,
                                  const sc_identity *id, const sc_nip98_request *req,
                                  int64_t created_at, const uint8_t aux[SC_AUX_RAND_BYTES])
{
    sc_nip98_auth a;
    size_t need = 0;
    sc_status st;

    if (out_len != NULL) {
        *out_len = 0;
    }
    if (out_len == NULL || id == NULL || aux == NULL || (out == NULL && out_cap != 0)) {
        return SC_ERR_ARG;
    }
    /* the request's checks and the size first, so a call that must fail signs nothing */
    st = build(&a, req, created_at, &need);
    if (st == SC_ERR_ARG) {
        return st;
    }
    if (st == SC_OK && out_cap < need) {
        *out_len = need;
        return SC_ERR_BUFFER_TOO_SMALL;
    }
    if (st == SC_OK) {
        st = sc_event_sign_with_rand(ctx, &a.event, id, aux);
    }
    if (st == SC_OK) {
        /* the one header writer, which verifies what it writes */
        return sc_nip98_header(ctx, out, out_cap, out_len, &a.event);
    }
    sc_mem_wipe(out, out_cap);
    return st;
}

sc_status sc_nip98_sign(sc_ctx *ctx, char *out, size_t out_cap, size_t *out_len,
                        const sc_identity *id, const sc_nip98_request *req, int64_t created_at)
{
    uint8_t aux[SC_AUX_RAND_BYTES];
    sc_nip98_auth a;
    size_t need = 0;
    sc_status st;

    if (out_len != NULL) {
        *out_len = 0;
    }
    if (out_len == NULL || id == NULL || (out == NULL && out_cap != 0)) {
        return SC_ERR_ARG;
    }
    /* the checks and the size first, so a call that must fail draws nothing */
    st = build(&a, req, created_at, &need);
    if (st == SC_OK && out_cap < need) {
        *out_len = need;
        return SC_ERR_BUFFER_TOO_SMALL;
    }
    if (st == SC_OK) {
        st = sc_crypto_rng_fill(ctx, aux, sizeof aux);
    }
    if (st == SC_OK) {
        st = sc_nip98_sign_with_rand(ctx, out, out_cap, out_len, id, req, created_at, aux);
    } else if (st != SC_ERR_ARG) {
        sc_mem_wipe(out, out_cap);
    }
    sc_mem_wipe(aux, sizeof aux);
    return st;
}
