/* The delivery record of one NIP-17 message, in caller memory: its gift wraps (copied and
 * parsed), each receiver's relays (normalised) and, per receiver and relay, how the publish
 * stands (result, attempts, the relay's prefix and last words); published through the pool,
 * brought up to date from its updates, and saved to bytes and restored ("SCD1", version 1,
 * each wrap with its recipient and relays and their states, then a CRC-32), so a delivery
 * survives the process. */
#include <softchat/delivery.h>
#include <softchat/hex.h>
#include <softchat/mem.h>

#include <string.h>

#include "pool/pool_internal.h"
#include "util/range.h"

#define DELIVERY_MAGIC 0x444c5631u /* "DLV1" */
#define MAX_COUNT 65535u
#define ALIGN 8u
#define KIND_WRAP 1059u
/* A wrap's parse arena beyond its text's length: room for the tags of a wrap sc_nip17_send
 * makes (a p tag, an expiration) and more; a wrap needing more is not one of them. */
#define WRAP_TAGS 16u
#define WRAP_ITEMS 48u
#define ARENA_EXTRA (WRAP_TAGS * sizeof(sc_tag) + WRAP_ITEMS * sizeof(sc_str) + 64u)

static const char k_magic[4] = {'S', 'C', 'D', '1'};

typedef struct dl_relay {
    char *url;
    size_t url_len;
    uint8_t result; /* sc_pool_result */
    uint8_t prefix; /* sc_relay_prefix */
    uint32_t attempts;
    char *text;
    size_t text_len;
} dl_relay;

typedef struct dl_recv {
    uint8_t pubkey[SC_PUBKEY_BYTES];
    char *json;
    size_t json_len;
    sc_event ev;
    dl_relay *relays;
    size_t n_relays;
    uint32_t pub;
    uint8_t started;
} dl_recv;

typedef struct dl_rec {
    size_t n_recv;
    dl_recv *recv;
    dl_relay *relays;
    uint32_t *handles; /* sc_delivery_start's scratch: one per relay */
    uint8_t *next, *end;
    void *mem;
    size_t mem_len;
} dl_rec;

typedef struct handle {
    uint64_t magic;
    dl_rec *d;
} handle;

typedef char sc_delivery_handle_fits[(sizeof(handle) <= sizeof(sc_delivery)) ? 1 : -1];

static dl_rec *rec_of(const sc_delivery *d)
{
    const handle *h = (const handle *)(const void *)d;

    return (h != NULL && h->magic == DELIVERY_MAGIC) ? h->d : NULL;
}

static size_t round8(size_t n)
{
    return n > SC_SIZE_SAT - 7 ? SC_SIZE_SAT : (n + 7) & ~(size_t)7;
}

size_t sc_delivery_mem_max(size_t n_wraps, size_t wraps_len, size_t n_routes_relays,
                           size_t total_url)
{
    size_t n;

    if (n_wraps == 0 || n_routes_relays == 0 || n_wraps > MAX_COUNT ||
        n_routes_relays > MAX_COUNT) {
        return 0;
    }
    n = sc_size_add(ALIGN + round8(sizeof(dl_rec)), sc_size_mul(n_wraps, round8(sizeof(dl_recv))));
    n = sc_size_add(n, sc_size_mul(n_routes_relays, round8(sizeof(dl_relay))));
    n = sc_size_add(n, round8(sc_size_mul(n_routes_relays, sizeof(uint32_t))));
    /* each wrap's text and its parse arena */
    n = sc_size_add(n, sc_size_mul(2, wraps_len));
    n = sc_size_add(n, sc_size_mul(n_wraps, 2 * ALIGN + round8(ARENA_EXTRA)));
    /* each relay's URL and last words */
    n = sc_size_add(n, total_url);
    n = sc_size_add(n, sc_size_mul(n_routes_relays, ALIGN + SC_POOL_TEXT_MAX));
    return sc_size_public(n);
}

/* n bytes of the record's memory, 8-byte aligned (NULL past its end: a size function bug). */
static void *take(dl_rec *r, size_t n)
{
    uint8_t *at = r->next;

    if (n > (size_t)(r->end - at) || round8(n) > (size_t)(r->end - at)) {
        return NULL;
    }
    r->next = at + round8(n);
    return at;
}

/* The record's frame in mem: its arrays for n_recv receivers and n_relays relays. */
static dl_rec *frame(void *mem, size_t mem_cap, size_t n_recv, size_t n_relays)
{
    uint8_t *base = (uint8_t *)mem + (ALIGN - (uintptr_t)mem % ALIGN) % ALIGN;
    dl_rec *r;

    memset(mem, 0, mem_cap);
    r = (dl_rec *)(void *)base;
    r->next = base + round8(sizeof(dl_rec));
    r->end = (uint8_t *)mem + mem_cap;
    r->mem = mem;
    r->mem_len = mem_cap;
    r->n_recv = n_recv;
    r->recv = take(r, n_recv * sizeof(dl_recv));
    r->relays = take(r, n_relays * sizeof(dl_relay));
    r->handles = take(r, n_relays * sizeof(uint32_t));
    return r;
}

/* Whether ev has a p tag naming pubkey. */
static int names(const sc_event *ev, const uint8_t pubkey[SC_PUBKEY_BYTES])
{
    uint8_t pk[SC_PUBKEY_BYTES];
    size_t i;

    for (i = 0; i < ev->n_tags; i++) {
        const sc_tag *t = &ev->tags[i];

        if (t->n_items >= 2 && t->items[0].len == 1 && t->items[0].ptr[0] == 'p' &&
            sc_hex_decode_fixed(pk, sizeof pk, t->items[1].ptr, t->items[1].len,
                                SC_HEX_LOWER_ONLY) == SC_OK &&
            memcmp(pk, pubkey, SC_PUBKEY_BYTES) == 0) {
            return 1;
        }
    }
    return 0;
}

/* Receiver i's wrap: copied, parsed, a signed kind 1059 naming recipient. */
static sc_status add_wrap(dl_rec *r, size_t i, const char *json, size_t len,
                          const uint8_t recipient[SC_PUBKEY_BYTES], size_t first)
{
    dl_recv *v = &r->recv[i];
    size_t used = 0;
    void *arena;
    sc_status st;

    v->json = take(r, len);
    arena = take(r, len + ARENA_EXTRA);
    if (v->json == NULL || arena == NULL) {
        return SC_ERR_BUFFER_TOO_SMALL;
    }
    memcpy(v->json, json, len);
    v->json_len = len;
    memcpy(v->pubkey, recipient, SC_PUBKEY_BYTES);
    v->relays = &r->relays[first];
    v->n_relays = 0;
    st = sc_event_parse(&v->ev, arena, len + ARENA_EXTRA, &used, v->json, len, NULL);
    if (st == SC_ERR_BUFFER_TOO_SMALL) {
        return SC_ERR_MESSAGE; /* more tags than a gift wrap has */
    }
    if (st != SC_OK) {
        return st;
    }
    if (v->ev.kind != KIND_WRAP || !names(&v->ev, recipient)) {
        return SC_ERR_MESSAGE;
    }
    return SC_OK;
}

/* A relay of receiver i (normalised; once). */
static sc_status add_relay(dl_rec *r, size_t i, sc_str url, dl_relay **out)
{
    dl_recv *v = &r->recv[i];
    dl_relay *x = &v->relays[v->n_relays];
    size_t len = 0, k;
    char *dst;
    sc_status st;

    *out = NULL;
    if (url.ptr == NULL && url.len > 0) {
        return SC_ERR_ARG;
    }
    if (url.len == 0) {
        return SC_ERR_EMPTY;
    }
    if ((dst = take(r, url.len)) == NULL || (x->text = take(r, SC_POOL_TEXT_MAX)) == NULL) {
        return SC_ERR_BUFFER_TOO_SMALL;
    }
    st = sc_relay_url_normalize(dst, url.len, &len, url);
    if (st != SC_OK) {
        return st;
    }
    for (k = 0; k < v->n_relays; k++) {
        if (v->relays[k].url_len == len && memcmp(v->relays[k].url, dst, len) == 0) {
            *out = &v->relays[k];
            return SC_OK; /* named twice: once */
        }
    }
    x->url = dst;
    x->url_len = len;
    v->n_relays++;
    *out = x;
    return SC_OK;
}

/* The record is ready: d names it. */
static void seal(sc_delivery *d, dl_rec *r)
{
    handle *h = (handle *)(void *)d;

    h->d = r;
    h->magic = DELIVERY_MAGIC;
}

static sc_status fail(sc_delivery *d, void *mem, size_t mem_cap, sc_status st)
{
    sc_mem_wipe(mem, mem_cap);
    memset(d, 0, sizeof *d);
    return st;
}

sc_status sc_delivery_init(sc_delivery *d, void *mem, size_t mem_cap, const char *wraps_json,
                           size_t wraps_json_len, const sc_nip17_wrap *wraps, size_t n_wraps,
                           const sc_delivery_route *routes)
{
    size_t i, j, len = 0, n_relays = 0, url = 0, first = 0;
    dl_rec *r;
    dl_relay *x;
    sc_status st;

    if (d == NULL) {
        return SC_ERR_ARG;
    }
    memset(d, 0, sizeof *d);
    if (mem == NULL || (wraps_json == NULL && wraps_json_len > 0) ||
        ((wraps == NULL || routes == NULL) && n_wraps > 0)) {
        return SC_ERR_ARG;
    }
    if (n_wraps == 0) {
        return SC_ERR_EMPTY;
    }
    if (n_wraps > MAX_COUNT) {
        return SC_ERR_TOO_LARGE;
    }
    for (i = 0; i < n_wraps; i++) {
        if (wraps[i].offset > wraps_json_len || wraps[i].len > wraps_json_len - wraps[i].offset ||
            (routes[i].relays == NULL && routes[i].n_relays > 0)) {
            return SC_ERR_ARG;
        }
        if (routes[i].n_relays == 0) {
            return SC_ERR_EMPTY; /* a receiver without relays: see sc_inboxes_get */
        }
        len = sc_size_add(len, wraps[i].len);
        n_relays = sc_size_add(n_relays, routes[i].n_relays);
        for (j = 0; j < routes[i].n_relays; j++) {
            url = sc_size_add(url, routes[i].relays[j].len);
        }
    }
    if (n_relays > MAX_COUNT) {
        return SC_ERR_TOO_LARGE;
    }
    if (mem_cap < sc_delivery_mem_max(n_wraps, len, n_relays, url) ||
        sc_delivery_mem_max(n_wraps, len, n_relays, url) == 0) {
        return SC_ERR_BUFFER_TOO_SMALL;
    }
    r = frame(mem, mem_cap, n_wraps, n_relays);
    for (i = 0; i < n_wraps; i++) {
        st = add_wrap(r, i, wraps_json + wraps[i].offset, wraps[i].len, wraps[i].recipient, first);
        for (j = 0; st == SC_OK && j < routes[i].n_relays; j++) {
            st = add_relay(r, i, routes[i].relays[j], &x);
        }
        if (st != SC_OK) {
            return fail(d, mem, mem_cap, st);
        }
        first += routes[i].n_relays;
    }
    seal(d, r);
    return SC_OK;
}

void sc_delivery_clear(sc_delivery *d)
{
    dl_rec *r = rec_of(d);

    if (r != NULL) {
        sc_mem_wipe(r->mem, r->mem_len);
    }
    if (d != NULL) {
        sc_mem_wipe(d, sizeof *d);
    }
}

/* ---- outcomes --------------------------------------------------------------------------- */

static sc_delivery_outcome recv_outcome(const dl_recv *v)
{
    size_t k;
    int pending = 0;

    for (k = 0; k < v->n_relays; k++) {
        if (v->relays[k].result == SC_POOL_ACCEPTED) {
            return SC_DELIVERY_DELIVERED;
        }
        pending |= v->relays[k].result == SC_POOL_PENDING;
    }
    return pending ? SC_DELIVERY_PENDING : SC_DELIVERY_FAILED;
}

sc_delivery_outcome sc_delivery_outcome_get(const sc_delivery *d)
{
    const dl_rec *r = rec_of(d);
    int pending = 0, failed = 0;
    size_t i;

    if (r == NULL) {
        return SC_DELIVERY_PENDING;
    }
    for (i = 0; i < r->n_recv; i++) {
        sc_delivery_outcome o = recv_outcome(&r->recv[i]);

        pending |= o == SC_DELIVERY_PENDING;
        failed |= o == SC_DELIVERY_FAILED;
    }
    return pending ? SC_DELIVERY_PENDING : failed ? SC_DELIVERY_FAILED : SC_DELIVERY_DELIVERED;
}

size_t sc_delivery_receivers(const sc_delivery *d)
{
    const dl_rec *r = rec_of(d);

    return r != NULL ? r->n_recv : 0;
}

sc_status sc_delivery_receiver_get(const sc_delivery *d, sc_delivery_receiver *out, size_t i)
{
    const dl_rec *r;

    if (out != NULL) {
        memset(out, 0, sizeof *out);
    }
    if (d == NULL || out == NULL) {
        return SC_ERR_ARG;
    }
    if ((r = rec_of(d)) == NULL) {
        return SC_ERR_STATE;
    }
    if (i >= r->n_recv) {
        return SC_ERR_NOT_FOUND;
    }
    memcpy(out->pubkey, r->recv[i].pubkey, SC_PUBKEY_BYTES);
    memcpy(out->wrap_id, r->recv[i].ev.id, SC_EVENT_ID_BYTES);
    out->outcome = recv_outcome(&r->recv[i]);
    out->n_relays = r->recv[i].n_relays;
    return SC_OK;
}

sc_status sc_delivery_relay_get(const sc_delivery *d, sc_delivery_relay *out, size_t i, size_t j)
{
    const dl_rec *r;
    const dl_relay *x;

    if (out != NULL) {
        memset(out, 0, sizeof *out);
    }
    if (d == NULL || out == NULL) {
        return SC_ERR_ARG;
    }
    if ((r = rec_of(d)) == NULL) {
        return SC_ERR_STATE;
    }
    if (i >= r->n_recv || j >= r->recv[i].n_relays) {
        return SC_ERR_NOT_FOUND;
    }
    x = &r->recv[i].relays[j];
    out->url.ptr = x->url;
    out->url.len = x->url_len;
    out->result = (sc_pool_result)x->result;
    out->attempts = x->attempts;
    out->prefix = (sc_relay_prefix)x->prefix;
    out->text.ptr = x->text_len > 0 ? x->text : "";
    out->text.len = x->text_len;
    return SC_OK;
}

/* ---- through the pool ------------------------------------------------------------------- */

/* Publishes receiver v's wrap to its relays that have not settled. */
static sc_status start_one(dl_rec *r, sc_delivery *d, sc_pool *p, dl_recv *v)
{
    size_t k, n = 0;
    sc_status st;

    for (k = 0; k < v->n_relays; k++) {
        sc_str url;

        if (v->relays[k].result != SC_POOL_PENDING) {
            continue;
        }
        url.ptr = v->relays[k].url;
        url.len = v->relays[k].url_len;
        st = sc_pool_relay_add(p, &r->handles[n], url);
        if (st != SC_OK) {
            return st;
        }
        n++;
    }
    st = sc_pool_publish(p, &v->pub, &v->ev, r->handles, n, d);
    if (st == SC_OK) {
        v->started = 1;
    }
    return st;
}

sc_status sc_delivery_start(sc_delivery *d, sc_pool *p)
{
    dl_rec *r;
    size_t i;
    int started = 0, left = 0;
    sc_status st;

    if (d == NULL || p == NULL) {
        return SC_ERR_ARG;
    }
    if ((r = rec_of(d)) == NULL || sc_pl_of(p) == NULL) {
        return SC_ERR_STATE;
    }
    for (i = 0; i < r->n_recv; i++) {
        dl_recv *v = &r->recv[i];

        if (recv_outcome(v) != SC_DELIVERY_PENDING) {
            continue;
        }
        if (v->started) {
            started = 1;
            continue;
        }
        left = 1;
        if ((st = start_one(r, d, p, v)) != SC_OK) {
            return st;
        }
    }
    return started && !left ? SC_ERR_STATE : SC_OK;
}

sc_status sc_delivery_apply(sc_delivery *d, const sc_pool_update *u)
{
    dl_rec *r;
    size_t i, k;

    if (d == NULL || u == NULL) {
        return SC_ERR_ARG;
    }
    if ((r = rec_of(d)) == NULL) {
        return SC_ERR_STATE;
    }
    if ((u->kind != SC_POOL_U_PUBLISHED && u->kind != SC_POOL_U_PUBLISH_DONE) ||
        u->user != (void *)d) {
        return SC_ERR_NOT_FOUND;
    }
    for (i = 0; i < r->n_recv; i++) {
        dl_recv *v = &r->recv[i];

        if (!v->started || v->pub != u->pub) {
            continue;
        }
        if (u->kind == SC_POOL_U_PUBLISH_DONE) {
            v->started = 0;
            v->pub = 0;
            return SC_OK;
        }
        for (k = 0; k < v->n_relays; k++) {
            dl_relay *x = &v->relays[k];

            if (x->url_len == u->url.len && memcmp(x->url, u->url.ptr, u->url.len) == 0) {
                x->result = (uint8_t)u->result;
                x->attempts = u->attempts;
                x->prefix = (uint8_t)u->prefix;
                sc_pl_keep(x->text, &x->text_len, u->text);
                return SC_OK;
            }
        }
    }
    return SC_ERR_NOT_FOUND;
}

/* ---- bytes ------------------------------------------------------------------------------ */

static void write_all(const dl_rec *r, sc_pl_wr *w)
{
    size_t i, k;

    sc_pl_wr_head(w, k_magic, 1);
    sc_pl_wr_u32(w, (uint32_t)r->n_recv);
    for (i = 0; i < r->n_recv; i++) {
        const dl_recv *v = &r->recv[i];

        sc_pl_wr_bytes(w, v->pubkey, SC_PUBKEY_BYTES);
        sc_pl_wr_u32(w, (uint32_t)v->json_len);
        sc_pl_wr_bytes(w, v->json, v->json_len);
        sc_pl_wr_u32(w, (uint32_t)v->n_relays);
        for (k = 0; k < v->n_relays; k++) {
            const dl_relay *x = &v->relays[k];

            sc_pl_wr_u32(w, (uint32_t)x->url_len);
            sc_pl_wr_bytes(w, x->url, x->url_len);
            sc_pl_wr_u8(w, x->result);
            sc_pl_wr_u8(w, x->prefix);
            sc_pl_wr_u32(w, x->attempts);
            sc_pl_wr_u32(w, (uint32_t)x->text_len);
            sc_pl_wr_bytes(w, x->text, x->text_len);
        }
    }
    sc_pl_wr_seal(w);
}

size_t sc_delivery_save_len(const sc_delivery *d)
{
    const dl_rec *r = rec_of(d);
    sc_pl_wr w = {NULL, 0, 0};

    if (r == NULL) {
        return 0;
    }
    write_all(r, &w);
    return w.len;
}

sc_status sc_delivery_save(const sc_delivery *d, uint8_t *out, size_t out_cap, size_t *out_len)
{
    const dl_rec *r;
    sc_pl_wr w = {NULL, 0, 0};

    if (out_len == NULL) {
        return SC_ERR_ARG;
    }
    *out_len = 0;
    if (d == NULL || (out == NULL && out_cap > 0)) {
        return SC_ERR_ARG;
    }
    if ((r = rec_of(d)) == NULL) {
        return SC_ERR_STATE;
    }
    write_all(r, &w);
    if (w.len > out_cap) {
        *out_len = w.len;
        return SC_ERR_BUFFER_TOO_SMALL;
    }
    w.p = out;
    w.cap = out_cap;
    w.len = 0;
    write_all(r, &w);
    *out_len = w.len;
    return SC_OK;
}

/* What a saved record holds, read the first time to size it. */
typedef struct dl_sizes {
    size_t n_wraps, wraps_len, n_relays, url;
} dl_sizes;

/* Reads the body: with r NULL only checks it and counts (sz); else fills r. */
static sc_status read_all(sc_pl_rd *in, dl_sizes *sz, dl_rec *r)
{
    size_t i, k, n = sc_pl_rd_u32(in), first = 0;
    sc_status st;

    memset(sz, 0, sizeof *sz);
    if (in->bad || n == 0 || n > MAX_COUNT) {
        return SC_ERR_ENCODING;
    }
    sz->n_wraps = n;
    for (i = 0; i < n; i++) {
        const uint8_t *pk = sc_pl_rd_view(in, SC_PUBKEY_BYTES);
        size_t len = sc_pl_rd_u32(in), m;
        const uint8_t *json = sc_pl_rd_view(in, len);

        m = sc_pl_rd_u32(in);
        if (in->bad || m == 0 || m > MAX_COUNT) {
            return SC_ERR_ENCODING;
        }
        sz->wraps_len = sc_size_add(sz->wraps_len, len);
        sz->n_relays = sc_size_add(sz->n_relays, m);
        if (r != NULL && (st = add_wrap(r, i, (const char *)json, len, pk, first)) != SC_OK) {
            return st;
        }
        for (k = 0; k < m; k++) {
            size_t ul = sc_pl_rd_u32(in), tl;
            const uint8_t *url = sc_pl_rd_view(in, ul);
            uint8_t result = sc_pl_rd_u8(in), prefix = sc_pl_rd_u8(in);
            uint32_t attempts = sc_pl_rd_u32(in);
            const uint8_t *text;
            dl_relay *x;
            size_t had;
            sc_str u;

            tl = sc_pl_rd_u32(in);
            text = sc_pl_rd_view(in, tl);
            if (in->bad || ul == 0 || result > SC_POOL_FAILED || prefix > SC_RELAY_PREFIX_CLOSED ||
                tl > SC_POOL_TEXT_MAX) {
                return SC_ERR_ENCODING;
            }
            sz->url = sc_size_add(sz->url, ul);
            if (r == NULL) {
                continue;
            }
            u.ptr = (const char *)url;
            u.len = ul;
            had = r->recv[i].n_relays;
            if ((st = add_relay(r, i, u, &x)) != SC_OK) {
                return st;
            }
            if (r->recv[i].n_relays == had) {
                return SC_ERR_ENCODING; /* a relay twice */
            }
            x->result = result;
            x->prefix = prefix;
            x->attempts = attempts;
            memcpy(x->text, text, tl);
            x->text_len = tl;
        }
        first += m;
    }
    return sc_pl_rd_done(in) ? SC_OK : SC_ERR_ENCODING;
}

size_t sc_delivery_load_mem_max(const uint8_t *in, size_t in_len)
{
    dl_sizes sz;
    sc_pl_rd rd;

    if (sc_pl_rd_open(&rd, in, in_len, k_magic, 1) != SC_OK || read_all(&rd, &sz, NULL) != SC_OK) {
        return 0;
    }
    return sc_delivery_mem_max(sz.n_wraps, sz.wraps_len, sz.n_relays, sz.url);
}

sc_status sc_delivery_load(sc_delivery *d, void *mem, size_t mem_cap, const uint8_t *in,
                           size_t in_len)
{
    dl_sizes sz;
    sc_pl_rd rd, again;
    size_t need;
    dl_rec *r;
    sc_status st;

    if (d == NULL) {
        return SC_ERR_ARG;
    }
    memset(d, 0, sizeof *d);
    if (mem == NULL || (in == NULL && in_len > 0)) {
        return SC_ERR_ARG;
    }
    if (sc_pl_rd_open(&rd, in, in_len, k_magic, 1) != SC_OK) {
        return SC_ERR_ENCODING;
    }
    again = rd;
    if ((st = read_all(&rd, &sz, NULL)) != SC_OK) {
        return st;
    }
    need = sc_delivery_mem_max(sz.n_wraps, sz.wraps_len, sz.n_relays, sz.url);
    if (need == 0) {
        return SC_ERR_TOO_LARGE;
    }
    if (mem_cap < need) {
        return SC_ERR_BUFFER_TOO_SMALL;
    }
    r = frame(mem, mem_cap, sz.n_wraps, sz.n_relays);
    if ((st = read_all(&again, &sz, r)) != SC_OK) {
        return fail(d, mem, mem_cap, st);
    }
    seal(d, r);
    return SC_OK;
}
