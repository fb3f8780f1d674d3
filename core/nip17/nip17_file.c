/* NIP-17 kind 15 file messages: the attachment parameters written as tags, and read back.
 * The reader is tolerant where clients differ (hex case, IV length, optional ox) and strict
 * where a second value could mislead (each parameter tag at most once). */
#include <softchat/mem.h>
#include <softchat/hex.h>
#include <softchat/nip17.h>

#include <string.h>

#include "ctx/ctx_internal.h"
#include "event/event_builder.h"
#include "nip17/nip17_internal.h"
#include "nip59/nip59_internal.h"

static const char k_algorithm[] = "aes-gcm";

/* The single-valued tags, in the order they are written. */
enum {
    T_FILE_TYPE,
    T_ALGORITHM,
    T_KEY,
    T_NONCE,
    T_X,
    T_OX,
    T_SIZE,
    T_DIM,
    T_BLURHASH,
    T_THUMB,
    T_COUNT
};

static const char *const k_names[T_COUNT] = {
    "file-type",
    "encryption-algorithm",
    "decryption-key",
    "decryption-nonce",
    "x",
    "ox",
    "size",
    "dim",
    "blurhash",
    "thumb",
};

static const char k_fallback[] = "fallback";

/* ---- building ----------------------------------------------------------------------------- */

/* The value of tag k for f in out (strings point into f or into text[]); 0 when absent. */
static int tag_value(const sc_nip17_file *f, int k, char text[64], sc_str *out)
{
    out->ptr = text;
    switch (k) {
    case T_FILE_TYPE:
        *out = f->file_type;
        return 1;
    case T_ALGORITHM:
        out->ptr = k_algorithm;
        out->len = sizeof k_algorithm - 1;
        return 1;
    case T_KEY:
        sc_nip17_hex32(text, f->key);
        out->len = 64;
        return 1;
    case T_NONCE:
        return sc_hex_encode(text, 64, &out->len, f->nonce, f->nonce_len) == SC_OK;
    case T_X:
        sc_nip17_hex32(text, f->x);
        out->len = 64;
        return 1;
    case T_OX:
        sc_nip17_hex32(text, f->ox);
        out->len = 64;
        return f->has_ox;
    case T_SIZE:
        out->len = sc_nip59_dec(text, f->size);
        return f->size != 0;
    case T_DIM:
        *out = f->dim;
        return f->dim.len != 0;
    case T_BLURHASH:
        *out = f->blurhash;
        return f->blurhash.len != 0;
    default:
        *out = f->thumb;
        return f->thumb.len != 0;
    }
}

size_t sc_nip17_file_rumor_buf_max(const sc_nip17_chat *m, const sc_nip17_file *f)
{
    size_t total, i;
    char text[64];
    sc_str v;
    int k;

    if (m == NULL || f == NULL || (f->fallbacks == NULL && f->n_fallbacks != 0) ||
        f->nonce_len > SC_NIP17_NONCE_MAX) {
        return 0;
    }
    total = sc_nip17_head_cost(m, f->url.len);
    if (total == 0) {
        return 0;
    }
    for (k = 0; k < T_COUNT; k++) {
        if (tag_value(f, k, text, &v)) {
            total =
                sc_size_add(total, sc_event_tag_cost(2, sc_size_add(strlen(k_names[k]), v.len)));
        }
    }
    for (i = 0; i < f->n_fallbacks; i++) {
        total = sc_size_add(
            total, sc_event_tag_cost(2, sc_size_add(sizeof k_fallback - 1, f->fallbacks[i].len)));
    }
    return sc_size_public(total);
}

static sc_status check_file(const sc_nip17_file *f)
{
    size_t i;

    if ((f->fallbacks == NULL && f->n_fallbacks != 0) || (f->has_ox != 0 && f->has_ox != 1) ||
        f->nonce_len < SC_NIP17_NONCE_MIN || f->nonce_len > SC_NIP17_NONCE_MAX) {
        return SC_ERR_ARG;
    }
    if (f->url.len == 0 || f->file_type.len == 0) {
        return SC_ERR_MESSAGE;
    }
    for (i = 0; i < f->n_fallbacks; i++) {
        if (f->fallbacks[i].len == 0) {
            return SC_ERR_MESSAGE;
        }
    }
    return SC_OK;
}

sc_status sc_nip17_file_rumor(sc_ctx *ctx, sc_event *rumor, void *buf, size_t cap,
                              const sc_nip17_chat *m, const sc_nip17_file *f,
                              const uint8_t sender[SC_PUBKEY_BYTES])
{
    sc_event_builder b;
    char text[64];
    sc_str items[2];
    sc_status st;
    size_t i;
    int k;

    if (rumor == NULL) {
        return SC_ERR_ARG;
    }
    memset(rumor, 0, sizeof *rumor);
    if (ctx == NULL || m == NULL || f == NULL || sender == NULL || (buf == NULL && cap != 0)) {
        return SC_ERR_ARG;
    }
    if (sc_ctx_impl_get(ctx) == NULL) {
        return SC_ERR_STATE;
    }
    st = sc_nip17_check_head(m);
    if (st == SC_OK) {
        st = check_file(f);
    }
    if (st != SC_OK) {
        return st;
    }
    sc_nip17_start(&b, buf, cap, m, SC_NIP17_KIND_FILE, f->url);
    for (k = 0; k < T_COUNT; k++) {
        if (tag_value(f, k, text, &items[1])) {
            items[0].ptr = k_names[k];
            items[0].len = strlen(k_names[k]);
            sc_event_builder_tag(&b, items, 2);
        }
    }
    sc_mem_wipe(text, sizeof text); /* the key's hex passed through it */
    for (i = 0; i < f->n_fallbacks; i++) {
        items[0].ptr = k_fallback;
        items[0].len = sizeof k_fallback - 1;
        items[1] = f->fallbacks[i];
        sc_event_builder_tag(&b, items, 2);
    }
    return sc_nip17_finish(ctx, &b, rumor, buf, cap, sender);
}

/* ---- parsing ------------------------------------------------------------------------------ */

/* A decimal size: 1 to 20 digits, no sign, no overflow. */
static int parse_size(const sc_str *v, uint64_t *out)
{
    uint64_t n = 0;
    size_t i;

    if (v->len == 0 || v->len > SC_NIP59_DEC_MAX) {
        return 0;
    }
    for (i = 0; i < v->len; i++) {
        unsigned d = (unsigned char)v->ptr[i] - (unsigned)'0';

        if (d > 9 || n > (UINT64_MAX - d) / 10) {
            return 0;
        }
        n = n * 10 + d;
    }
    *out = n;
    return 1;
}

/* Reads value v of tag k into f. */
static int read_value(sc_nip17_file *f, int k, const sc_str *v)
{
    switch (k) {
    case T_FILE_TYPE:
        f->file_type = *v;
        return v->len != 0;
    case T_ALGORITHM:
        return sc_nip17_is(v, k_algorithm);
    case T_KEY:
        return sc_hex_decode_fixed(f->key, 32, v->ptr, v->len, SC_HEX_ANY_CASE) == SC_OK;
    case T_NONCE:
        f->nonce_text = *v;
        f->nonce_len = v->len / 2;
        return v->len % 2 == 0 && f->nonce_len >= SC_NIP17_NONCE_MIN &&
               f->nonce_len <= SC_NIP17_NONCE_MAX &&
               sc_hex_decode_fixed(f->nonce, f->nonce_len, v->ptr, v->len, SC_HEX_ANY_CASE) ==
                   SC_OK;
    case T_X:
        return sc_hex_decode_fixed(f->x, 32, v->ptr, v->len, SC_HEX_ANY_CASE) == SC_OK;
    case T_OX:
        f->has_ox = 1;
        return sc_hex_decode_fixed(f->ox, 32, v->ptr, v->len, SC_HEX_ANY_CASE) == SC_OK;
    case T_SIZE:
        return parse_size(v, &f->size);
    case T_DIM:
        f->dim = *v;
        return 1;
    case T_BLURHASH:
        f->blurhash = *v;
        return 1;
    default:
        f->thumb = *v;
        return 1;
    }
}

/* The single-valued tag a name stands for, or T_COUNT. */
static int tag_of(const sc_str *name)
{
    int k;

    for (k = 0; k < T_COUNT; k++) {
        if (sc_nip17_is(name, k_names[k])) {
            return k;
        }
    }
    return T_COUNT;
}

/* Reads every tag of ev into f; fallbacks go to fb while they fit, *n_fb counts them all. */
static sc_status read_tags(sc_nip17_file *f, sc_str *fb, size_t fb_cap, size_t *n_fb,
                           const sc_event *ev)
{
    const unsigned required =
        (1u << T_FILE_TYPE) | (1u << T_ALGORITHM) | (1u << T_KEY) | (1u << T_NONCE) | (1u << T_X);
    unsigned seen = 0;
    size_t t;
    int k;

    for (t = 0; t < ev->n_tags; t++) {
        const sc_tag *tag = &ev->tags[t];

        if (tag->n_items == 0 || tag->items == NULL) {
            return SC_ERR_ARG; /* not an event sc_event_check accepts */
        }
        if (sc_nip17_is(&tag->items[0], k_fallback)) {
            if (tag->n_items < 2 || tag->items[1].len == 0) {
                return SC_ERR_MESSAGE;
            }
            if (*n_fb < fb_cap) {
                fb[*n_fb] = tag->items[1];
            }
            (*n_fb)++;
            continue;
        }
        k = tag_of(&tag->items[0]);
        if (k == T_COUNT) {
            continue; /* p, e, subject and anything newer */
        }
        if ((seen & (1u << k)) != 0 || tag->n_items < 2 || !read_value(f, k, &tag->items[1])) {
            return SC_ERR_MESSAGE;
        }
        seen |= 1u << k;
    }
    return (seen & required) == required ? SC_OK : SC_ERR_MESSAGE;
}

sc_status sc_nip17_file_parse(sc_nip17_file *f, sc_str *fb, size_t fb_cap, size_t *fb_len,
                              const sc_event *rumor)
{
    size_t n_fb = 0;
    sc_status st;

    if (fb_len != NULL) {
        *fb_len = 0;
    }
    if (f == NULL || fb_len == NULL) {
        return SC_ERR_ARG;
    }
    memset(f, 0, sizeof *f);
    if (rumor == NULL || (fb == NULL && fb_cap != 0) ||
        (rumor->tags == NULL && rumor->n_tags != 0)) {
        return SC_ERR_ARG;
    }
    if (rumor->kind != SC_NIP17_KIND_FILE || rumor->content.len == 0) {
        return SC_ERR_MESSAGE;
    }
    st = read_tags(f, fb, fb_cap, &n_fb, rumor);
    if (st == SC_OK && n_fb > fb_cap) {
        st = SC_ERR_BUFFER_TOO_SMALL;
    }
    if (st != SC_OK) {
        sc_mem_wipe(f, sizeof *f); /* the key */
        if (fb != NULL) {
            memset(fb, 0, (n_fb < fb_cap ? n_fb : fb_cap) * sizeof *fb);
        }
        if (st == SC_ERR_BUFFER_TOO_SMALL) {
            *fb_len = n_fb;
        }
        return st;
    }
    f->url = rumor->content;
    f->fallbacks = n_fb != 0 ? fb : NULL;
    f->n_fallbacks = n_fb;
    *fb_len = n_fb;
    return SC_OK;
}
