/* NIP-98: the kind 27235 auth event of a request, signed, and the Authorization header value
 * that carries it ("Nostr " and the base64 of its JSON object). The event's JSON streams from
 * the one event writer straight into the base64 encoder, so the header needs no buffer but
 * the caller's. Verification is in nip98_verify.c. */
#include <softchat/base64.h>
#include <softchat/crypto.h>
#include <softchat/hex.h>
#include <softchat/mem.h>
#include <softchat/nip98.h>

#include <string.h>

#include "event/event_json.h"
#include "util/json_write.h"

#define SCHEME "Nostr "
#define SCHEME_LEN 6u

static const char k_u[] = "u", k_method[] = "method", k_payload[] = "payload";

/* The auth event of a request, with the tags and strings it points to. */
typedef struct nip98_event {
    sc_event ev;
    sc_tag tags[3];
    sc_str items[6];
    char payload_hex[2 * SC_SHA256_BYTES];
} nip98_event;

/* Builds e for req (unsigned): SC_OK; SC_ERR_ARG (req NULL, a NULL string with a length);
 * SC_ERR_EMPTY (an empty url or method). The rest (UTF-8, created_at) is sc_event_check's. */
static sc_status build_event(nip98_event *e, const sc_nip98_request *req, int64_t created_at)
{
    size_t n = 2, t;

    memset(e, 0, sizeof *e);
    if (req == NULL || (req->url.ptr == NULL && req->url.len != 0) ||
        (req->method.ptr == NULL && req->method.len != 0)) {
        return SC_ERR_ARG;
    }
    if (req->url.len == 0 || req->method.len == 0) {
        return SC_ERR_EMPTY;
    }
    e->items[0].ptr = k_u;
    e->items[0].len = sizeof k_u - 1;
    e->items[1] = req->url;
    e->items[2].ptr = k_method;
    e->items[2].len = sizeof k_method - 1;
    e->items[3] = req->method;
    if (req->payload_sha256 != NULL) {
        size_t hex_len = 0;

        if (sc_hex_encode(e->payload_hex, sizeof e->payload_hex, &hex_len, req->payload_sha256,
                          SC_SHA256_BYTES) != SC_OK) {
            return SC_ERR_INTERNAL; /* the buffer is exactly the size: cannot happen */
        }
        e->items[4].ptr = k_payload;
        e->items[4].len = sizeof k_payload - 1;
        e->items[5].ptr = e->payload_hex;
        e->items[5].len = sizeof e->payload_hex;
        n = 3;
    }
    for (t = 0; t < n; t++) {
        e->tags[t].items = &e->items[2 * t];
        e->tags[t].n_items = 2;
    }
    e->ev.kind = SC_NIP98_KIND;
    e->ev.created_at = created_at;
    e->ev.tags = e->tags;
    e->ev.n_tags = n;
    e->ev.content.ptr = "";
    e->ev.content.len = 0;
    e->ev.flags =
        SC_EVENT_HAS_KIND | SC_EVENT_HAS_CREATED_AT | SC_EVENT_HAS_TAGS | SC_EVENT_HAS_CONTENT;
    return SC_OK;
}

/* The header length of e's event once signed (its id, pubkey and sig have fixed lengths, so
 * zeroes measure it), or 0 with *st set. */
static size_t header_len(nip98_event *e, sc_status *st)
{
    unsigned flags = e->ev.flags;
    size_t json, b64;

    e->ev.flags = SC_EVENT_SIGNED;
    *st = sc_event_check(&e->ev);
    json = *st == SC_OK ? sc_event_to_json_len(&e->ev, SC_EVENT_JSON_OBJECT) : 0;
    e->ev.flags = flags;
    if (*st != SC_OK) {
        return 0;
    }
    b64 = sc_base64_encode_len(json);
    if (json == 0 || b64 == 0 || b64 > (size_t)-1 - SCHEME_LEN) {
        *st = SC_ERR_TOO_LARGE;
        return 0;
    }
    return SCHEME_LEN + b64;
}

size_t sc_nip98_sign_len(const sc_nip98_request *req, int64_t created_at)
{
    nip98_event e;
    sc_status st = build_event(&e, req, created_at);

    return st == SC_OK ? header_len(&e, &st) : 0;
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

sc_status sc_nip98_sign_with_rand(sc_ctx *ctx, char *out, size_t out_cap, size_t *out_len,
                                  const sc_identity *id, const sc_nip98_request *req,
                                  int64_t created_at, const uint8_t aux[SC_AUX_RAND_BYTES])
{
    nip98_event e;
    size_t need;
    sc_status st;

    if (out_len != NULL) {
        *out_len = 0;
    }
    if (out_len == NULL || id == NULL || aux == NULL || (out == NULL && out_cap != 0)) {
        return SC_ERR_ARG;
    }
    st = build_event(&e, req, created_at);
    if (st == SC_ERR_ARG) {
        return st;
    }
    need = st == SC_OK ? header_len(&e, &st) : 0;
    if (st == SC_OK && out_cap < need) {
        *out_len = need;
        return SC_ERR_BUFFER_TOO_SMALL;
    }
    if (st == SC_OK) {
        st = sc_event_sign_with_rand(ctx, &e.ev, id, aux);
    }
    if (st == SC_OK) {
        st = write_header(out, need, &e.ev);
    }
    if (st != SC_OK) {
        sc_mem_wipe(out, out_cap);
        return st;
    }
    *out_len = need;
    return SC_OK;
}

sc_status sc_nip98_sign(sc_ctx *ctx, char *out, size_t out_cap, size_t *out_len,
                        const sc_identity *id, const sc_nip98_request *req, int64_t created_at)
{
    uint8_t aux[SC_AUX_RAND_BYTES];
    nip98_event e;
    sc_status st;

    if (out_len != NULL) {
        *out_len = 0;
    }
    if (out_len == NULL || id == NULL || (out == NULL && out_cap != 0)) {
        return SC_ERR_ARG;
    }
    /* the checks and the size first, so a call that must fail draws nothing */
    st = build_event(&e, req, created_at);
    if (st == SC_OK) {
        size_t need = header_len(&e, &st);

        if (st == SC_OK && out_cap < need) {
            *out_len = need;
            return SC_ERR_BUFFER_TOO_SMALL;
        }
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
