/* Shared pieces of the fuzz targets (see fuzz_common.h). */
#include "fuzz_common.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FZ_MAX_BACKENDS 8

static struct {
    int ready;
    size_t n;
    sc_ctx ctx[FZ_MAX_BACKENDS];
    sc_identity id[FZ_N_IDS];
    uint8_t pub[FZ_N_IDS][32];
    uint8_t sec[FZ_N_IDS][32];
    uint8_t conv[FZ_N_IDS][FZ_N_IDS][32];
} fz;

/* ---- invariants ---------------------------------------------------------------------------- */

void fz_fail(const char *file, int line, const char *what)
{
    fprintf(stderr, "\nFUZZ INVARIANT FAILED at %s:%d: %s\n", file, line, what);
    fflush(stderr);
    abort();
}

void fz_require_status_in(const char *file, int line, sc_status st, ...)
{
    va_list ap;
    int v;
    char what[160];

    va_start(ap, st);
    while ((v = va_arg(ap, int)) != 1) {
        if (v == (int)st) {
            va_end(ap);
            return;
        }
    }
    va_end(ap);
    snprintf(what, sizeof what, "unexpected status %s (%d)", sc_status_name(st), (int)st);
    fz_fail(file, line, what);
}

int fz_all_equal(const void *p, size_t n, uint8_t v)
{
    const uint8_t *b = (const uint8_t *)p;
    size_t i;

    for (i = 0; i < n; i++) {
        if (b[i] != v) {
            return 0;
        }
    }
    return 1;
}

int fz_all_zero(const void *p, size_t n)
{
    return fz_all_equal(p, n, 0);
}

int fz_all_zero_or(const void *p, size_t n, uint8_t fill)
{
    const uint8_t *b = (const uint8_t *)p;
    size_t i;

    for (i = 0; i < n; i++) {
        if (b[i] != 0 && b[i] != fill) {
            return 0;
        }
    }
    return 1;
}

uint8_t *fz_alloc(size_t n)
{
    uint8_t *p = (uint8_t *)malloc(n != 0 ? n : 1);

    if (p == NULL) {
        fz_fail(__FILE__, __LINE__, "out of memory");
    }
    memset(p, FZ_CANARY, n != 0 ? n : 1);
    return p;
}

uint8_t *fz_dup(const void *p, size_t n)
{
    uint8_t *c = fz_alloc(n);

    if (n != 0) {
        memcpy(c, p, n);
    }
    return c;
}

/* ---- the fuzzer's bytes -------------------------------------------------------------------- */

uint8_t fz_u8(fz_in *in)
{
    uint8_t v = 0;

    if (in->n > 0) {
        v = in->p[0];
        in->p++;
        in->n--;
    }
    return v;
}

uint16_t fz_u16(fz_in *in)
{
    uint16_t hi = fz_u8(in);

    return (uint16_t)((hi << 8) | fz_u8(in));
}

uint32_t fz_u32(fz_in *in)
{
    uint32_t hi = fz_u16(in);

    return (hi << 16) | fz_u16(in);
}

void fz_bytes(fz_in *in, void *out, size_t n)
{
    size_t have = in->n < n ? in->n : n;

    if (have != 0) {
        memcpy(out, in->p, have);
    }
    memset((uint8_t *)out + have, 0, n - have);
    in->p += have;
    in->n -= have;
}

const uint8_t *fz_take(fz_in *in, size_t n, size_t *len)
{
    const uint8_t *p = in->p;

    *len = in->n < n ? in->n : n;
    in->p += *len;
    in->n -= *len;
    return p;
}

/* ---- contexts and keys --------------------------------------------------------------------- */

void fz_setup(void)
{
    size_t i;
    unsigned k, j;

    if (fz.ready) {
        return;
    }
    fz.n = sc_backend_count();
    FZ_REQUIRE(fz.n >= 1 && fz.n <= FZ_MAX_BACKENDS);
    for (i = 0; i < fz.n; i++) {
        FZ_REQUIRE(sc_ctx_init_table(&fz.ctx[i], sc_backend_at(i)) == SC_OK);
    }
    for (k = 0; k < FZ_N_IDS; k++) {
        memset(fz.sec[k], (int)((k + 1) * 17), 32);
        FZ_REQUIRE(sc_identity_import(&fz.ctx[0], &fz.id[k], fz.sec[k]) == SC_OK);
        FZ_REQUIRE(sc_identity_pubkey(fz.pub[k], &fz.id[k]) == SC_OK);
    }
    for (k = 0; k < FZ_N_IDS; k++) {
        for (j = 0; j < FZ_N_IDS; j++) {
            FZ_REQUIRE(sc_nip44_conversation_key(&fz.ctx[0], fz.conv[k][j], fz.sec[k], fz.pub[j]) ==
                       SC_OK);
        }
    }
    fz.ready = 1;
}

size_t fz_backends(void)
{
    return fz.n;
}

sc_ctx *fz_ctx(size_t i)
{
    return &fz.ctx[i < fz.n ? i : 0];
}

size_t fz_backend_with(sc_cap cap, unsigned sel)
{
    size_t with[FZ_MAX_BACKENDS], n = 0, i;

    for (i = 0; i < fz.n; i++) {
        if (sc_backend_has(sc_backend_at(i), cap, NULL) == SC_OK) {
            with[n++] = i;
        }
    }
    return n == 0 ? (size_t)-1 : with[sel % n];
}

const sc_identity *fz_id(unsigned k)
{
    return &fz.id[k % FZ_N_IDS];
}

const uint8_t *fz_pub(unsigned k)
{
    return fz.pub[k % FZ_N_IDS];
}

const uint8_t *fz_sec(unsigned k)
{
    return fz.sec[k % FZ_N_IDS];
}

const uint8_t *fz_conv(unsigned a, unsigned b)
{
    return fz.conv[a % FZ_N_IDS][b % FZ_N_IDS];
}

/* ---- builders ------------------------------------------------------------------------------ */

char *fz_nip44_forge(sc_ctx *ctx, const uint8_t ck[32], const uint8_t nonce[32], uint8_t version,
                     const uint8_t *padded, size_t padded_len, size_t *len)
{
    uint8_t ckey[32], cnonce[12], hkey[32];
    size_t raw_len = 1 + 32 + padded_len + 32, b64_len = sc_base64_encode_len(raw_len), got = 0;
    uint8_t *raw = fz_alloc(raw_len);
    char *b64 = NULL;
    sc_iov parts[2];
    int ok;

    *len = 0;
    raw[0] = version;
    memcpy(raw + 1, nonce, 32);
    ok = sc_nip44_message_keys(ctx, ckey, cnonce, hkey, ck, nonce) == SC_OK &&
         sc_crypto_chacha20_xor(ctx, raw + 33, padded, padded_len, ckey, cnonce, 0) == SC_OK;
    if (ok) {
        parts[0].data = raw + 1;
        parts[0].len = 32;
        parts[1].data = raw + 33;
        parts[1].len = padded_len;
        ok = sc_crypto_hmac_sha256(ctx, raw + 33 + padded_len, hkey, 32, parts, 2) == SC_OK;
    }
    if (ok) {
        b64 = (char *)fz_alloc(b64_len);
        ok = sc_base64_encode(b64, b64_len, &got, raw, raw_len) == SC_OK && got == b64_len;
    }
    sc_mem_wipe(ckey, sizeof ckey);
    sc_mem_wipe(hkey, sizeof hkey);
    free(raw);
    if (!ok) {
        free(b64);
        return NULL;
    }
    *len = got;
    return b64;
}

uint8_t *fz_nip44_pad(const uint8_t *pt, size_t len, size_t *padded_len)
{
    uint64_t padded = sc_nip44_padded_len(len);
    size_t pre = len >= 65536 ? 6 : 2;
    uint8_t *p;

    *padded_len = 0;
    if (padded == 0 || padded > (1u << 24)) {
        return NULL;
    }
    p = fz_alloc(pre + (size_t)padded);
    memset(p, 0, pre + (size_t)padded);
    if (pre == 2) {
        p[0] = (uint8_t)(len >> 8);
        p[1] = (uint8_t)len;
    } else {
        p[2] = (uint8_t)(len >> 24);
        p[3] = (uint8_t)(len >> 16);
        p[4] = (uint8_t)(len >> 8);
        p[5] = (uint8_t)len;
    }
    memcpy(p + pre, pt, len);
    *padded_len = pre + (size_t)padded;
    return p;
}

char *fz_signed_json(sc_ctx *ctx, sc_event *ev, unsigned signer, size_t *len)
{
    uint8_t aux[32];
    size_t need, got = 0;
    char *json;

    *len = 0;
    memset(aux, 0x5a, sizeof aux);
    if (sc_event_sign_with_rand(ctx, ev, fz_id(signer), aux) != SC_OK) {
        return NULL;
    }
    need = sc_event_to_json_len(ev, SC_EVENT_JSON_OBJECT);
    FZ_REQUIRE(need != 0);
    json = (char *)fz_alloc(need);
    FZ_REQUIRE(sc_event_to_json(json, need, &got, ev, SC_EVENT_JSON_OBJECT) == SC_OK);
    FZ_REQUIRE(got == need);
    *len = got;
    return json;
}

char *fz_layer(sc_ctx *ctx, const uint8_t *inner, size_t inner_len, unsigned signer, unsigned to,
               uint32_t kind, int64_t created_at, const sc_tag *tags, size_t n_tags,
               const uint8_t nonce[32], size_t *len)
{
    size_t plen = sc_nip44_encrypt_len(inner_len), got = 0;
    char *payload, *json;
    sc_event ev;

    *len = 0;
    if (inner_len == 0 || inner_len >= 65536 || plen == 0) {
        return NULL;
    }
    payload = (char *)fz_alloc(plen);
    if (sc_nip44_encrypt_with_rand(ctx, payload, plen, &got, fz_conv(signer, to), nonce, inner,
                                   inner_len, 0) != SC_OK) {
        free(payload);
        return NULL;
    }
    memset(&ev, 0, sizeof ev);
    ev.kind = kind;
    ev.created_at = created_at;
    ev.tags = tags;
    ev.n_tags = n_tags;
    ev.content.ptr = payload;
    ev.content.len = got;
    ev.flags =
        SC_EVENT_HAS_KIND | SC_EVENT_HAS_CREATED_AT | SC_EVENT_HAS_TAGS | SC_EVENT_HAS_CONTENT;
    json = fz_signed_json(ctx, &ev, signer, len);
    free(payload);
    return json;
}

int fz_same_str(sc_str a, sc_str b)
{
    return a.len == b.len && (a.len == 0 || memcmp(a.ptr, b.ptr, a.len) == 0);
}

int fz_inside(sc_str s, const void *base, size_t n)
{
    const uint8_t *b = (const uint8_t *)base;

    return s.len == 0 || ((const uint8_t *)s.ptr >= b && (const uint8_t *)s.ptr + s.len <= b + n);
}

int fz_same_event(const sc_event *a, const sc_event *b)
{
    size_t t, i;

    if (a->kind != b->kind || a->created_at != b->created_at || a->n_tags != b->n_tags ||
        !fz_same_str(a->content, b->content)) {
        return 0;
    }
    if ((a->flags & b->flags & SC_EVENT_HAS_ID) && memcmp(a->id, b->id, 32) != 0) {
        return 0;
    }
    if ((a->flags & b->flags & SC_EVENT_HAS_PUBKEY) && memcmp(a->pubkey, b->pubkey, 32) != 0) {
        return 0;
    }
    for (t = 0; t < a->n_tags; t++) {
        if (a->tags[t].n_items != b->tags[t].n_items) {
            return 0;
        }
        for (i = 0; i < a->tags[t].n_items; i++) {
            if (!fz_same_str(a->tags[t].items[i], b->tags[t].items[i])) {
                return 0;
            }
        }
    }
    return 1;
}
