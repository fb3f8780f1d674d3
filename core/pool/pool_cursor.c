/* The cursor: a subscription's memory across restarts, in caller memory. It holds the ids the
 * subscription delivered (with their created_at, the oldest forgotten first) and, per relay
 * URL, the point that relay may resume from; it is saved to bytes and restored ("SCC1",
 * version 1, then the counts, the ids oldest first, each relay's URL and point, and a
 * CRC-32), strictly: a truncated, extended or altered form is refused. */
#include <softchat/mem.h>
#include <softchat/pool.h>

#include <string.h>

#include "pool/pool_internal.h"
#include "util/range.h"

#define CURSOR_MAGIC 0x43555231u /* "CUR1" */
#define MAX_COUNT ((size_t)1 << 24)
#define ALIGN 8u

static const char k_magic[4] = {'S', 'C', 'C', '1'};

typedef struct handle {
    uint64_t magic;
    sc_pl_cursor *c;
} handle;

typedef char sc_pool_cursor_handle_fits[(sizeof(handle) <= sizeof(sc_pool_cursor)) ? 1 : -1];

sc_pl_cursor *sc_pl_cursor_of(const sc_pool_cursor *c)
{
    const handle *h = (const handle *)(const void *)c;

    return (h != NULL && h->magic == CURSOR_MAGIC) ? h->c : NULL;
}

static size_t round8(size_t n)
{
    return n > SC_SIZE_SAT - 7 ? SC_SIZE_SAT : (n + 7) & ~(size_t)7;
}

static int counts_ok(size_t max_ids, size_t max_relays, size_t max_url)
{
    return max_ids > 0 && max_relays > 0 && max_url > 0 && max_ids <= MAX_COUNT &&
           max_relays <= MAX_COUNT && max_url <= MAX_COUNT;
}

size_t sc_pool_cursor_mem_max(size_t max_ids, size_t max_relays, size_t max_url)
{
    size_t n;

    if (!counts_ok(max_ids, max_relays, max_url)) {
        return 0;
    }
    n = sc_size_add(round8(sizeof(sc_pl_cursor)), sc_pl_seen_mem(max_ids, 1));
    n = sc_size_add(n, round8(sc_size_mul(max_relays, sizeof(uint32_t))));
    n = sc_size_add(n, sc_size_mul(max_relays, sizeof(int64_t)));
    n = sc_size_add(n, round8(sc_size_mul(max_relays, max_url)));
    n = sc_size_add(n, round8(max_url));
    return sc_size_public(sc_size_add(n, ALIGN - 1));
}

sc_status sc_pool_cursor_init(sc_pool_cursor *c, void *mem, size_t mem_cap, size_t max_ids,
                              size_t max_relays, size_t max_url)
{
    handle *h = (handle *)(void *)c;
    uint8_t *base;
    sc_pl_cursor *t;
    size_t off, need;

    if (c == NULL) {
        return SC_ERR_ARG;
    }
    memset(c, 0, sizeof *c);
    if (mem == NULL) {
        return SC_ERR_ARG;
    }
    if (max_ids == 0 || max_relays == 0 || max_url == 0) {
        return SC_ERR_EMPTY;
    }
    if (!counts_ok(max_ids, max_relays, max_url)) {
        return SC_ERR_TOO_LARGE;
    }
    need = sc_pool_cursor_mem_max(max_ids, max_relays, max_url);
    if (need == 0 || mem_cap < need) {
        return SC_ERR_BUFFER_TOO_SMALL;
    }
    memset(mem, 0, mem_cap);
    base = (uint8_t *)mem + (ALIGN - (uintptr_t)mem % ALIGN) % ALIGN;
    t = (sc_pl_cursor *)(void *)base;
    off = round8(sizeof(sc_pl_cursor));
    sc_pl_seen_init(&t->seen, base + off, max_ids, 1);
    off += sc_pl_seen_mem(max_ids, 1);
    t->url_len = (uint32_t *)(void *)(base + off);
    off += round8(max_relays * sizeof(uint32_t));
    t->point = (int64_t *)(void *)(base + off);
    off += max_relays * sizeof(int64_t);
    t->urls = (char *)(base + off);
    off += round8(max_relays * max_url);
    t->scratch = (char *)(base + off);
    t->max_relays = max_relays;
    t->max_url = max_url;
    t->mem = mem;
    t->mem_len = mem_cap;
    h->c = t;
    h->magic = CURSOR_MAGIC;
    return SC_OK;
}

void sc_pool_cursor_clear(sc_pool_cursor *c)
{
    sc_pl_cursor *t = sc_pl_cursor_of(c);

    if (t != NULL) {
        sc_mem_wipe(t->mem, t->mem_len);
    }
    if (c != NULL) {
        sc_mem_wipe(c, sizeof *c);
    }
}

/* ---- relays and their points ------------------------------------------------------------ */

static size_t find_relay(const sc_pl_cursor *c, sc_str url)
{
    size_t i;

    for (i = 0; i < c->n_relays; i++) {
        if (c->url_len[i] == url.len && memcmp(c->urls + i * c->max_url, url.ptr, url.len) == 0) {
            return i;
        }
    }
    return c->n_relays;
}

int64_t sc_pl_cursor_point(const sc_pl_cursor *c, sc_str url)
{
    size_t i = find_relay(c, url);

    return i < c->n_relays ? c->point[i] : -1;
}

void sc_pl_cursor_note(sc_pl_cursor *c, sc_str url, int64_t point)
{
    size_t i = find_relay(c, url);

    if (i == c->n_relays) {
        if (i == c->max_relays || url.len > c->max_url || url.len == 0) {
            return; /* no room: that relay resumes from the subscription's filters */
        }
        memcpy(c->urls + i * c->max_url, url.ptr, url.len);
        c->url_len[i] = (uint32_t)url.len;
        c->point[i] = point;
        c->n_relays++;
        return;
    }
    if (point > c->point[i]) {
        c->point[i] = point;
    }
}

sc_status sc_pool_cursor_seen(const sc_pool_cursor *c, const uint8_t id[SC_EVENT_ID_BYTES])
{
    const sc_pl_cursor *t;

    if (c == NULL || id == NULL) {
        return SC_ERR_ARG;
    }
    if ((t = sc_pl_cursor_of(c)) == NULL) {
        return SC_ERR_STATE;
    }
    return sc_pl_seen_has(&t->seen, id) ? SC_OK : SC_ERR_NOT_FOUND;
}

sc_status sc_pool_cursor_resume_point(const sc_pool_cursor *c, int64_t *newest, sc_str url)
{
    const sc_pl_cursor *t;
    sc_str norm;
    size_t len = 0, i;
    sc_status st;

    if (newest != NULL) {
        *newest = -1;
    }
    if (c == NULL || newest == NULL) {
        return SC_ERR_ARG;
    }
    if ((t = sc_pl_cursor_of(c)) == NULL) {
        return SC_ERR_STATE;
    }
    st = sc_relay_url_normalize(t->scratch, t->max_url, &len, url);
    if (st == SC_ERR_BUFFER_TOO_SMALL) {
        return SC_ERR_NOT_FOUND; /* longer than any URL it can hold */
    }
    if (st != SC_OK) {
        return st;
    }
    norm.ptr = t->scratch;
    norm.len = len;
    i = find_relay(t, norm);
    if (i == t->n_relays) {
        return SC_ERR_NOT_FOUND;
    }
    *newest = t->point[i];
    return SC_OK;
}

/* ---- bytes ------------------------------------------------------------------------------ */

static void write_all(const sc_pl_cursor *t, sc_pl_wr *w)
{
    size_t k;

    sc_pl_wr_head(w, k_magic, 1);
    sc_pl_wr_u32(w, (uint32_t)t->seen.n);
    sc_pl_wr_u32(w, (uint32_t)t->n_relays);
    for (k = 0; k < t->seen.n; k++) {
        int64_t at = 0;
        const uint8_t *id = sc_pl_seen_at(&t->seen, k, &at);

        sc_pl_wr_bytes(w, id, SC_EVENT_ID_BYTES);
        sc_pl_wr_i64(w, at);
    }
    for (k = 0; k < t->n_relays; k++) {
        sc_pl_wr_u32(w, t->url_len[k]);
        sc_pl_wr_bytes(w, t->urls + k * t->max_url, t->url_len[k]);
        sc_pl_wr_i64(w, t->point[k]);
    }
    sc_pl_wr_seal(w);
}

size_t sc_pool_cursor_save_len(const sc_pool_cursor *c)
{
    const sc_pl_cursor *t = sc_pl_cursor_of(c);
    sc_pl_wr w = {NULL, 0, 0};

    if (t == NULL) {
        return 0;
    }
    write_all(t, &w);
    return w.len;
}

sc_status sc_pool_cursor_save(const sc_pool_cursor *c, uint8_t *out, size_t out_cap,
                              size_t *out_len)
{
    const sc_pl_cursor *t;
    sc_pl_wr w = {NULL, 0, 0};

    if (out_len == NULL) {
        return SC_ERR_ARG;
    }
    *out_len = 0;
    if (c == NULL || (out == NULL && out_cap > 0)) {
        return SC_ERR_ARG;
    }
    if ((t = sc_pl_cursor_of(c)) == NULL) {
        return SC_ERR_STATE;
    }
    write_all(t, &w);
    if (w.len > out_cap) {
        *out_len = w.len;
        return SC_ERR_BUFFER_TOO_SMALL;
    }
    w.p = out;
    w.cap = out_cap;
    w.len = 0;
    write_all(t, &w);
    *out_len = w.len;
    return SC_OK;
}

static void empty(sc_pl_cursor *t)
{
    sc_pl_seen_reset(&t->seen);
    memset(t->url_len, 0, t->max_relays * sizeof(uint32_t));
    memset(t->point, 0, t->max_relays * sizeof(int64_t));
    memset(t->urls, 0, t->max_relays * t->max_url);
    t->n_relays = 0;
}

/* Reads the body into t (fill) or only checks it; SC_ERR_ENCODING for anything wrong. */
static sc_status read_all(sc_pl_cursor *t, sc_pl_rd *r, int fill)
{
    size_t n_ids = sc_pl_rd_u32(r), n_relays = sc_pl_rd_u32(r), k, skip;

    /* the counts must fit the body before anything is read by them */
    if (r->bad || n_ids > (r->len - r->pos) / (SC_EVENT_ID_BYTES + 8) ||
        n_relays > (r->len - r->pos) / 13) {
        return SC_ERR_ENCODING;
    }
    skip = n_ids > t->seen.cap ? n_ids - t->seen.cap : 0; /* the oldest beyond capacity */
    for (k = 0; k < n_ids; k++) {
        const uint8_t *id = sc_pl_rd_view(r, SC_EVENT_ID_BYTES);
        int64_t at = sc_pl_rd_i64(r);

        if (r->bad || at < 0) {
            return SC_ERR_ENCODING;
        }
        if (fill && k >= skip) {
            if (sc_pl_seen_has(&t->seen, id)) {
                return SC_ERR_ENCODING; /* an id twice */
            }
            sc_pl_seen_add(&t->seen, id, at);
        }
    }
    for (k = 0; k < n_relays; k++) {
        size_t len = sc_pl_rd_u32(r), norm_len = 0;
        const uint8_t *url = sc_pl_rd_view(r, len);
        int64_t point = sc_pl_rd_i64(r);
        sc_str u, norm;

        if (r->bad || point < 0 || len == 0) {
            return SC_ERR_ENCODING;
        }
        u.ptr = (const char *)url;
        u.len = len;
        if (sc_relay_url_normalize(NULL, 0, &norm_len, u) != SC_ERR_BUFFER_TOO_SMALL) {
            return SC_ERR_ENCODING; /* not a relay URL */
        }
        if (!fill || norm_len > t->max_url) {
            continue; /* longer than this cursor holds: left out */
        }
        if (sc_relay_url_normalize(t->scratch, t->max_url, &norm_len, u) != SC_OK) {
            return SC_ERR_ENCODING; /* cannot happen: measured above */
        }
        norm.ptr = t->scratch;
        norm.len = norm_len;
        if (find_relay(t, norm) < t->n_relays) {
            return SC_ERR_ENCODING; /* a relay twice */
        }
        sc_pl_cursor_note(t, norm, point);
    }
    return sc_pl_rd_done(r) ? SC_OK : SC_ERR_ENCODING;
}

sc_status sc_pool_cursor_load(sc_pool_cursor *c, const uint8_t *in, size_t in_len)
{
    sc_pl_cursor *t;
    sc_pl_rd r;
    sc_status st;

    if (c == NULL || (in == NULL && in_len > 0)) {
        return SC_ERR_ARG;
    }
    if ((t = sc_pl_cursor_of(c)) == NULL || t->owner != NULL) {
        return SC_ERR_STATE; /* not set up, or a subscription's now */
    }
    empty(t);
    st = sc_pl_rd_open(&r, in, in_len, k_magic, 1);
    if (st == SC_OK) {
        sc_pl_rd check = r;

        st = read_all(t, &check, 0);
    }
    if (st == SC_OK) {
        st = read_all(t, &r, 1);
    }
    if (st != SC_OK) {
        empty(t);
    }
    return st;
}
