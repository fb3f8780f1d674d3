/* The relay pool's layout in the caller's memory: the options and their defaults, the size
 * of each part, init and clear; the handles that name its slots; the clock it is given; and
 * the texts it keeps. */
#include <softchat/mem.h>
#include <softchat/pool.h>

#include <string.h>

#include "pool/pool_internal.h"
#include "util/range.h"
#include "util/utf8.h"

#define POOL_MAGIC 0x504f4f31u /* "POO1" */
#define ALIGN 8u
#define MAX_COUNT 65535u
#define MIN_MSG 64u
#define DEFAULT_MAX_CHALLENGE 256u

typedef struct handle {
    uint64_t magic;
    sc_pl_pool *pl;
} handle;

typedef char sc_pool_handle_fits[(sizeof(handle) <= sizeof(sc_pool)) ? 1 : -1];

sc_pl_pool *sc_pl_of(const sc_pool *p)
{
    const handle *h = (const handle *)(const void *)p;

    return (h != NULL && h->magic == POOL_MAGIC) ? h->pl : NULL;
}

/* ---- options ---------------------------------------------------------------------------- */

static uint32_t or_default(uint32_t v, uint32_t d)
{
    return v != 0 ? v : d;
}

/* The options with their defaults into pl (the fields before `relays`): SC_OK, or the status
 * sc_pool_init returns for them. */
static sc_status resolve(sc_pl_pool *pl, const sc_pool_opts *o)
{
    static const sc_pool_opts zero;
    uint8_t probe[sizeof(sc_relay_session) * 4 + 512];
    sc_relay_session s;
    sc_status st;

    if (o == NULL) {
        o = &zero;
    }
    if (o->max_relays > MAX_COUNT || o->max_subs > MAX_COUNT || o->max_publishes > MAX_COUNT ||
        o->max_url > MAX_COUNT || o->seen_per_sub > MAX_COUNT || o->max_attempts > MAX_COUNT) {
        return SC_ERR_TOO_LARGE;
    }
    pl->max_relays = or_default(o->max_relays, 16);
    pl->max_subs = or_default(o->max_subs, 8);
    pl->max_pubs = or_default(o->max_publishes, 64);
    pl->max_url = or_default(o->max_url, 256);
    pl->seen_per_sub = or_default(o->seen_per_sub, 4096);
    pl->ok_timeout = or_default(o->ok_timeout_ms, 10000);
    pl->max_attempts = or_default(o->max_attempts, 5);
    pl->retry_min = or_default(o->retry_min_ms, 1000);
    pl->retry_max = or_default(o->retry_max_ms, 60000);
    pl->auth = o->auth;
    pl->max_event_msg = or_default(o->max_event_msg, 1u << 20);
    pl->max_other_msg = or_default(o->max_other_msg, 1u << 16);
    pl->sess_opts = o->session;
    pl->max_challenge =
        o->session.max_challenge != 0 ? o->session.max_challenge : DEFAULT_MAX_CHALLENGE;
    if (pl->auth > SC_POOL_AUTH_NEVER || pl->retry_min > pl->retry_max ||
        pl->max_event_msg < MIN_MSG || pl->max_other_msg < MIN_MSG ||
        pl->max_challenge > (SIZE_MAX >> 4)) {
        return SC_ERR_FLAGS;
    }
    /* the session options: whatever sc_relay_session_init refuses, refused here */
    st = sc_relay_session_init(&s, probe, sizeof probe, 0, 0, SC_STR("ws://a"), &o->session);
    sc_relay_session_clear(&s);
    if (st == SC_ERR_BUFFER_TOO_SMALL) {
        return SC_OK; /* a large max_challenge: the options themselves are fine */
    }
    return st == SC_OK ? SC_OK : SC_ERR_FLAGS;
}

/* ---- layout ----------------------------------------------------------------------------- */

/* The bytes of one relay's AUTH message: ["AUTH", event] with the URL and the challenge
 * escaped at worst (six bytes for one), around the fixed fields. */
static size_t auth_cap(const sc_pl_pool *pl)
{
    return sc_size_add(512, sc_size_mul(6, sc_size_add(pl->max_url, pl->max_challenge)));
}

static size_t sess_cap(const sc_pl_pool *pl)
{
    /* twice max_subs: a subscription closed and another opened before its CLOSE went out */
    return sc_relay_session_mem_max(sc_size_mul(2, pl->max_subs), pl->max_pubs, pl->max_url,
                                    &pl->sess_opts);
}

static size_t round8(size_t n)
{
    return n > SC_SIZE_SAT - (ALIGN - 1) ? SC_SIZE_SAT : (n + ALIGN - 1) & ~(size_t)(ALIGN - 1);
}

/* One part of the layout: its offset from the (aligned) base, moving *off past it. */
static size_t take(size_t *off, size_t n)
{
    size_t at = *off;

    *off = sc_size_add(*off, round8(n));
    return at;
}

/* Lays the pool out after pl's options, at base (NULL: measures). Returns the bytes from
 * the aligned base (SC_SIZE_SAT when it does not fit). */
static size_t layout(sc_pl_pool *pl, uint8_t *base)
{
    size_t off = 0, i, at;
    size_t nr = pl->max_relays, per_relay, text = SC_POOL_TEXT_MAX;
    size_t members = sc_size_mul(nr, sizeof(sc_pl_member));
    size_t prs = sc_size_mul(nr, sizeof(sc_pl_pr));
    size_t seen = sc_pl_seen_mem(pl->seen_per_sub, 0);
    sc_pl_pool *dst;

    at = take(&off, sizeof(sc_pl_pool));
    dst = base != NULL ? (sc_pl_pool *)(void *)(base + at) : NULL;
    if (dst != NULL) {
        memcpy(dst, pl, sizeof *pl);
    }
    at = take(&off, sc_size_mul(nr, sizeof(sc_pl_relay)));
    if (dst != NULL) {
        dst->relays = (sc_pl_relay *)(void *)(base + at);
    }
    at = take(&off, sc_size_mul(pl->max_subs, sizeof(sc_pl_sub)));
    if (dst != NULL) {
        dst->subs = (sc_pl_sub *)(void *)(base + at);
    }
    at = take(&off, sc_size_mul(pl->max_pubs, sizeof(sc_pl_pub)));
    if (dst != NULL) {
        dst->pubs = (sc_pl_pub *)(void *)(base + at);
    }
    at = take(&off, pl->max_url);
    if (dst != NULL) {
        dst->scratch = (char *)(base + at);
    }
    per_relay = round8(pl->max_url);
    per_relay = sc_size_add(per_relay, round8(auth_cap(pl)));
    per_relay = sc_size_add(per_relay, sc_size_mul(3, round8(text)));
    per_relay = sc_size_add(per_relay, round8(sess_cap(pl)));
    if (dst == NULL) {
        off = sc_size_add(off, sc_size_mul(nr, per_relay));
        off = sc_size_add(off, sc_size_mul(pl->max_subs, sc_size_add(round8(members), seen)));
        off = sc_size_add(off, sc_size_mul(pl->max_pubs, round8(prs)));
        return off;
    }
    for (i = 0; i < nr; i++) {
        sc_pl_relay *r = &dst->relays[i];

        r->url = (char *)(base + take(&off, pl->max_url));
        r->auth_cap = auth_cap(pl);
        r->auth = (char *)(base + take(&off, r->auth_cap));
        r->notice = (char *)(base + take(&off, text));
        r->kept_text = (char *)(base + take(&off, text));
        r->authreq = (char *)(base + take(&off, text));
        r->sess_cap = sess_cap(pl);
        r->sess_mem = base + take(&off, r->sess_cap);
    }
    for (i = 0; i < pl->max_subs; i++) {
        sc_pl_sub *s = &dst->subs[i];

        s->members = (sc_pl_member *)(void *)(base + take(&off, members));
        sc_pl_seen_init(&s->own, base + take(&off, seen), pl->seen_per_sub, 0);
    }
    for (i = 0; i < pl->max_pubs; i++) {
        dst->pubs[i].prs = (sc_pl_pr *)(void *)(base + take(&off, prs));
    }
    return off;
}

size_t sc_pool_mem_max(const sc_pool_opts *opts)
{
    sc_pl_pool pl;

    memset(&pl, 0, sizeof pl);
    if (resolve(&pl, opts) != SC_OK) {
        return 0;
    }
    return sc_size_public(sc_size_add(layout(&pl, NULL), ALIGN - 1));
}

sc_status sc_pool_init(sc_pool *p, void *mem, size_t mem_cap, const sc_pool_opts *opts)
{
    handle *h = (handle *)(void *)p;
    sc_pl_pool opt, *pl;
    size_t need, i;
    uint8_t *base;
    sc_status st;

    if (p == NULL) {
        return SC_ERR_ARG;
    }
    memset(p, 0, sizeof *p);
    if (mem == NULL) {
        return SC_ERR_ARG;
    }
    memset(&opt, 0, sizeof opt);
    st = resolve(&opt, opts);
    if (st != SC_OK) {
        return st;
    }
    need = sc_pool_mem_max(opts);
    if (need == 0 || mem_cap < need) {
        return SC_ERR_BUFFER_TOO_SMALL;
    }
    memset(mem, 0, mem_cap);
    base = (uint8_t *)mem + (ALIGN - (uintptr_t)mem % ALIGN) % ALIGN;
    (void)layout(&opt, base);
    pl = (sc_pl_pool *)(void *)base;
    for (i = 0; i < pl->max_relays; i++) {
        pl->relays[i].dropped_at = INT64_MIN;
    }
    pl->now = INT64_MIN;
    pl->next_due = INT64_MAX;
    pl->mem = mem;
    pl->mem_len = mem_cap;
    h->pl = pl;
    h->magic = POOL_MAGIC;
    return SC_OK;
}

void sc_pool_clear(sc_pool *p)
{
    sc_pl_pool *pl = sc_pl_of(p);

    if (pl != NULL) {
        size_t i;

        for (i = 0; i < pl->max_subs; i++) {
            sc_pl_cursor *c = sc_pl_cursor_of(pl->subs[i].cursor);

            if (pl->subs[i].used && c != NULL && c->owner == &pl->subs[i]) {
                c->owner = NULL; /* the cursor outlives the pool: free for the next one */
            }
        }
        for (i = 0; i < pl->max_relays; i++) {
            sc_relay_session_clear(&pl->relays[i].sess);
        }
        sc_mem_wipe(pl->mem, pl->mem_len);
    }
    if (p != NULL) {
        sc_mem_wipe(p, sizeof *p);
    }
}

/* ---- handles ---------------------------------------------------------------------------- */

uint32_t sc_pl_handle(uint16_t gen, size_t slot)
{
    return ((uint32_t)gen << 16) | (uint32_t)(slot + 1);
}

size_t sc_pl_handle_slot(uint32_t h, size_t n)
{
    size_t slot = (size_t)(h & 0xffffu);

    return slot == 0 || slot > n ? n : slot - 1;
}

sc_pl_relay *sc_pl_relay_get(const sc_pl_pool *pl, uint32_t h)
{
    size_t k = sc_pl_handle_slot(h, pl->max_relays);

    if (k == pl->max_relays || pl->relays[k].state != PL_RELAY_USED ||
        pl->relays[k].gen != (uint16_t)(h >> 16)) {
        return NULL;
    }
    return &pl->relays[k];
}

sc_pl_sub *sc_pl_sub_get(const sc_pl_pool *pl, uint32_t h)
{
    size_t k = sc_pl_handle_slot(h, pl->max_subs);

    if (k == pl->max_subs || !pl->subs[k].used || pl->subs[k].gen != (uint16_t)(h >> 16)) {
        return NULL;
    }
    return &pl->subs[k];
}

sc_pl_pub *sc_pl_pub_get(const sc_pl_pool *pl, uint32_t h)
{
    size_t k = sc_pl_handle_slot(h, pl->max_pubs);

    if (k == pl->max_pubs || !pl->pubs[k].used || pl->pubs[k].gen != (uint16_t)(h >> 16)) {
        return NULL;
    }
    return &pl->pubs[k];
}

/* ---- time ------------------------------------------------------------------------------- */

void sc_pl_time(sc_pl_pool *pl, int64_t now_ms)
{
    if (now_ms > pl->now) {
        pl->now = now_ms;
    }
}

int64_t sc_pl_after(int64_t now_ms, int64_t d)
{
    if (d > 0 && now_ms > INT64_MAX - d) {
        return INT64_MAX;
    }
    if (d < 0 && now_ms < INT64_MIN - d) {
        return INT64_MIN;
    }
    return now_ms + d;
}

int64_t sc_pl_seconds(int64_t now_ms)
{
    return now_ms > 0 ? now_ms / 1000 : 0;
}

void sc_pl_touch(sc_pl_pool *pl)
{
    pl->dirty = 1;
}

void sc_pl_due(sc_pl_pool *pl, int64_t t)
{
    if (t < pl->next_due) {
        pl->next_due = t;
    }
}

/* ---- texts and URLs --------------------------------------------------------------------- */

size_t sc_pl_cut(const char *text, size_t len, size_t max)
{
    if (len <= max) {
        return len;
    }
    /* back to the start of the sequence the cut falls in */
    while (max > 0 && ((uint8_t)text[max] & 0xc0u) == 0x80u) {
        max--;
    }
    return max;
}

void sc_pl_keep(char *dst, size_t *dst_len, sc_str text)
{
    size_t n = text.ptr != NULL ? sc_pl_cut(text.ptr, text.len, SC_POOL_TEXT_MAX) : 0;

    if (n > 0) {
        memcpy(dst, text.ptr, n);
    }
    *dst_len = n;
}

sc_status sc_pl_normalize(const sc_pl_pool *pl, sc_str url, sc_str *norm)
{
    size_t len = 0;
    sc_status st;

    if (url.ptr == NULL && url.len > 0) {
        return SC_ERR_ARG;
    }
    if (url.len == 0) {
        return SC_ERR_EMPTY;
    }
    if (sc_utf8_check(url.ptr, url.len) != SC_OK) {
        return SC_ERR_UTF8;
    }
    st = sc_relay_url_normalize(pl->scratch, pl->max_url, &len, url);
    if (st == SC_ERR_BUFFER_TOO_SMALL) {
        return SC_ERR_TOO_LARGE;
    }
    if (st != SC_OK) {
        return st;
    }
    norm->ptr = pl->scratch;
    norm->len = len;
    return SC_OK;
}
