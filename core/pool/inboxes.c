/* The directory of users' relay lists for NIP-17 routing, in caller memory: per user its
 * newest kind 10050 (the DM inbox relays) and kind 10002 (NIP-65: read and write relays),
 * each list's URLs normalised, and the answer to "where do this user's gift wraps go": the
 * 10050 relays, or a documented refusal (SC_ERR_NO_INBOX) unless the caller chose a
 * fallback. */
#include <softchat/delivery.h>
#include <softchat/mem.h>

#include <string.h>

#include "util/range.h"

#define INBOXES_MAGIC 0x494e4231u /* "INB1" */
#define MAX_COUNT 65535u
#define ALIGN 8u
#define MARK_READ 1u
#define MARK_WRITE 2u

/* One list: its event's created_at and id (the newest wins), and its relays. */
typedef struct ib_list {
    uint8_t have;
    int64_t created_at;
    uint8_t id[SC_EVENT_ID_BYTES];
    size_t n;
    uint16_t *url_len;
    uint8_t *marks; /* kind 10002: MARK_READ | MARK_WRITE per relay */
    char *urls;     /* max_relays * max_url */
} ib_list;

typedef struct ib_user {
    uint8_t used;
    uint8_t pubkey[SC_PUBKEY_BYTES];
    ib_list dm, nip65;
} ib_user;

typedef struct ib_dir {
    size_t max_users, max_relays, max_url;
    ib_user *users;
    void *mem;
    size_t mem_len;
} ib_dir;

typedef struct handle {
    uint64_t magic;
    ib_dir *b;
} handle;

typedef char sc_inboxes_handle_fits[(sizeof(handle) <= sizeof(sc_inboxes)) ? 1 : -1];

static ib_dir *dir_of(const sc_inboxes *b)
{
    const handle *h = (const handle *)(const void *)b;

    return (h != NULL && h->magic == INBOXES_MAGIC) ? h->b : NULL;
}

static size_t round8(size_t n)
{
    return n > SC_SIZE_SAT - 7 ? SC_SIZE_SAT : (n + 7) & ~(size_t)7;
}

/* The bytes of one list's arrays. */
static size_t list_mem(size_t max_relays, size_t max_url)
{
    size_t n = round8(sc_size_mul(max_relays, sizeof(uint16_t)));

    n = sc_size_add(n, round8(max_relays));
    return sc_size_add(n, round8(sc_size_mul(max_relays, max_url)));
}

size_t sc_inboxes_mem_max(size_t max_users, size_t max_relays, size_t max_url)
{
    size_t per_user;

    if (max_users == 0 || max_relays == 0 || max_url == 0 || max_users > MAX_COUNT ||
        max_relays > MAX_COUNT || max_url > MAX_COUNT) {
        return 0;
    }
    per_user = sc_size_add(round8(sizeof(ib_user)), sc_size_mul(2, list_mem(max_relays, max_url)));
    return sc_size_public(
        sc_size_add(round8(sizeof(ib_dir)) + ALIGN - 1, sc_size_mul(max_users, per_user)));
}

static uint8_t *place_list(ib_list *l, uint8_t *at, size_t max_relays, size_t max_url)
{
    l->url_len = (uint16_t *)(void *)at;
    at += round8(max_relays * sizeof(uint16_t));
    l->marks = at;
    at += round8(max_relays);
    l->urls = (char *)at;
    return at + round8(max_relays * max_url);
}

sc_status sc_inboxes_init(sc_inboxes *b, void *mem, size_t mem_cap, size_t max_users,
                          size_t max_relays, size_t max_url)
{
    handle *h = (handle *)(void *)b;
    size_t need, i;
    uint8_t *at;
    ib_dir *d;

    if (b == NULL) {
        return SC_ERR_ARG;
    }
    memset(b, 0, sizeof *b);
    if (mem == NULL) {
        return SC_ERR_ARG;
    }
    if (max_users == 0 || max_relays == 0 || max_url == 0) {
        return SC_ERR_EMPTY;
    }
    if (max_users > MAX_COUNT || max_relays > MAX_COUNT || max_url > MAX_COUNT) {
        return SC_ERR_TOO_LARGE;
    }
    need = sc_inboxes_mem_max(max_users, max_relays, max_url);
    if (need == 0 || mem_cap < need) {
        return SC_ERR_BUFFER_TOO_SMALL;
    }
    memset(mem, 0, mem_cap);
    at = (uint8_t *)mem + (ALIGN - (uintptr_t)mem % ALIGN) % ALIGN;
    d = (ib_dir *)(void *)at;
    at += round8(sizeof(ib_dir));
    d->users = (ib_user *)(void *)at;
    at += max_users * round8(sizeof(ib_user));
    for (i = 0; i < max_users; i++) {
        at = place_list(&d->users[i].dm, at, max_relays, max_url);
        at = place_list(&d->users[i].nip65, at, max_relays, max_url);
    }
    d->max_users = max_users;
    d->max_relays = max_relays;
    d->max_url = max_url;
    d->mem = mem;
    d->mem_len = mem_cap;
    h->b = d;
    h->magic = INBOXES_MAGIC;
    return SC_OK;
}

void sc_inboxes_clear(sc_inboxes *b)
{
    ib_dir *d = dir_of(b);

    if (d != NULL) {
        sc_mem_wipe(d->mem, d->mem_len);
    }
    if (b != NULL) {
        sc_mem_wipe(b, sizeof *b);
    }
}

sc_status sc_inboxes_filter(sc_relay_filter *f, const uint8_t (*users)[SC_PUBKEY_BYTES],
                            size_t n_users)
{
    static const uint32_t kinds[2] = {SC_NIP17_KIND_INBOX_RELAYS, SC_NIP65_KIND_RELAY_LIST};

    if (f != NULL) {
        memset(f, 0, sizeof *f);
    }
    if (f == NULL || (users == NULL && n_users > 0)) {
        return SC_ERR_ARG;
    }
    if (n_users == 0) {
        return SC_ERR_EMPTY;
    }
    f->kinds = kinds;
    f->n_kinds = 2;
    f->authors = users;
    f->n_authors = n_users;
    return SC_OK;
}

/* ---- recording a list ------------------------------------------------------------------- */

static int item_is(const sc_str *s, const char *word)
{
    size_t n = strlen(word);

    return s->len == n && memcmp(s->ptr, word, n) == 0;
}

/* Adds url (normalised) with marks to l, unless it does not normalise, is too long or is
 * there already. */
static void add_url(const ib_dir *d, ib_list *l, sc_str url, uint8_t marks)
{
    char *dst = l->urls + l->n * d->max_url;
    size_t len = 0, k;

    if (l->n == d->max_relays || url.len == 0 ||
        sc_relay_url_normalize(dst, d->max_url, &len, url) != SC_OK) {
        return;
    }
    for (k = 0; k < l->n; k++) {
        if (l->url_len[k] == len && memcmp(l->urls + k * d->max_url, dst, len) == 0) {
            l->marks[k] |= marks;
            memset(dst, 0, len);
            return;
        }
    }
    l->url_len[l->n] = (uint16_t)len;
    l->marks[l->n] = marks;
    l->n++;
}

/* ev's relays into l (emptied first): ["relay", url] for 10050, ["r", url, marker?] for 10002
 * (no marker: read and write; another marker: left out). */
static void take_list(const ib_dir *d, ib_list *l, const sc_event *ev)
{
    int dm = ev->kind == SC_NIP17_KIND_INBOX_RELAYS;
    size_t i;

    memset(l->url_len, 0, d->max_relays * sizeof(uint16_t));
    memset(l->marks, 0, d->max_relays);
    memset(l->urls, 0, d->max_relays * d->max_url);
    l->n = 0;
    for (i = 0; i < ev->n_tags; i++) {
        const sc_tag *t = &ev->tags[i];
        uint8_t marks = MARK_READ | MARK_WRITE;

        if (t->n_items < 2 || !item_is(&t->items[0], dm ? "relay" : "r")) {
            continue;
        }
        if (!dm && t->n_items >= 3) {
            marks = item_is(&t->items[2], "read")    ? MARK_READ
                    : item_is(&t->items[2], "write") ? MARK_WRITE
                                                     : 0;
        }
        if (marks != 0) {
            add_url(d, l, t->items[1], marks);
        }
    }
    l->have = 1;
    l->created_at = ev->created_at;
    memcpy(l->id, ev->id, SC_EVENT_ID_BYTES);
}

sc_status sc_inboxes_add(sc_inboxes *b, const sc_event *ev)
{
    ib_dir *d;
    ib_user *u = NULL;
    ib_list *l;
    size_t i, n = 0;
    sc_status st;

    if (b == NULL || ev == NULL) {
        return SC_ERR_ARG;
    }
    if ((d = dir_of(b)) == NULL) {
        return SC_ERR_STATE;
    }
    if (ev->kind != SC_NIP17_KIND_INBOX_RELAYS && ev->kind != SC_NIP65_KIND_RELAY_LIST) {
        return SC_ERR_MESSAGE;
    }
    if ((ev->flags & (SC_EVENT_HAS_ID | SC_EVENT_HAS_PUBKEY)) !=
            (SC_EVENT_HAS_ID | SC_EVENT_HAS_PUBKEY) ||
        (ev->tags == NULL && ev->n_tags > 0)) {
        return SC_ERR_EVENT_FIELD;
    }
    if (ev->kind == SC_NIP17_KIND_INBOX_RELAYS) {
        st = sc_nip17_inbox_parse(NULL, 0, &n, ev); /* its own check of the list */
        if (st != SC_OK && st != SC_ERR_BUFFER_TOO_SMALL) {
            return st;
        }
    }
    for (i = 0; i < d->max_users && u == NULL; i++) {
        if (d->users[i].used && memcmp(d->users[i].pubkey, ev->pubkey, SC_PUBKEY_BYTES) == 0) {
            u = &d->users[i];
        }
    }
    for (i = 0; i < d->max_users && u == NULL; i++) {
        if (!d->users[i].used) {
            u = &d->users[i];
            u->used = 1;
            memcpy(u->pubkey, ev->pubkey, SC_PUBKEY_BYTES);
        }
    }
    if (u == NULL) {
        return SC_ERR_FULL;
    }
    l = ev->kind == SC_NIP17_KIND_INBOX_RELAYS ? &u->dm : &u->nip65;
    /* a replaceable event: the newest wins, a tie goes to the lowest id (NIP-01) */
    if (l->have &&
        (ev->created_at < l->created_at ||
         (ev->created_at == l->created_at && memcmp(ev->id, l->id, SC_EVENT_ID_BYTES) >= 0))) {
        return SC_OK;
    }
    take_list(d, l, ev);
    return SC_OK;
}

/* ---- answering -------------------------------------------------------------------------- */

/* The relays of l carrying any of marks into out (counted in *n). */
static void list_out(const ib_dir *d, const ib_list *l, uint8_t marks, sc_str *out, size_t out_cap,
                     size_t *n)
{
    size_t k;

    *n = 0;
    for (k = 0; l->have && k < l->n; k++) {
        if ((l->marks[k] & marks) == 0) {
            continue;
        }
        if (*n < out_cap) {
            out[*n].ptr = l->urls + k * d->max_url;
            out[*n].len = l->url_len[k];
        }
        (*n)++;
    }
}

sc_status sc_inboxes_get(const sc_inboxes *b, sc_str *out, size_t out_cap, size_t *out_len,
                         sc_inbox_source *source, const uint8_t user[SC_PUBKEY_BYTES],
                         unsigned flags)
{
    const ib_dir *d;
    const ib_user *u = NULL;
    const ib_list *l = NULL;
    uint8_t marks = MARK_READ | MARK_WRITE;
    sc_inbox_source src = SC_INBOX_NONE;
    size_t i, n = 0;

    if (source != NULL) {
        *source = SC_INBOX_NONE;
    }
    if (out_len == NULL) {
        return SC_ERR_ARG;
    }
    *out_len = 0;
    if (b == NULL || user == NULL || (out == NULL && out_cap > 0)) {
        return SC_ERR_ARG;
    }
    if ((d = dir_of(b)) == NULL) {
        return SC_ERR_STATE;
    }
    if ((flags & ~(unsigned)(SC_INBOXES_FALLBACK_READ | SC_INBOXES_WRITE)) != 0 ||
        flags == (SC_INBOXES_FALLBACK_READ | SC_INBOXES_WRITE)) {
        return SC_ERR_FLAGS;
    }
    for (i = 0; i < d->max_users && u == NULL; i++) {
        if (d->users[i].used && memcmp(d->users[i].pubkey, user, SC_PUBKEY_BYTES) == 0) {
            u = &d->users[i];
        }
    }
    if (u != NULL && (flags & SC_INBOXES_WRITE)) {
        l = &u->nip65;
        marks = MARK_WRITE;
        src = SC_INBOX_NIP65_WRITE;
    } else if (u != NULL) {
        l = &u->dm;
        src = SC_INBOX_DM_RELAYS;
        list_out(d, l, marks, NULL, 0, &n);
        if (n == 0 && (flags & SC_INBOXES_FALLBACK_READ)) {
            l = &u->nip65;
            marks = MARK_READ;
            src = SC_INBOX_NIP65_READ;
        }
    }
    if (l != NULL) {
        list_out(d, l, marks, NULL, 0, &n); /* count first: nothing written when too small */
    }
    if (n == 0) {
        return SC_ERR_NO_INBOX;
    }
    if (n > out_cap) {
        *out_len = n;
        return SC_ERR_BUFFER_TOO_SMALL;
    }
    list_out(d, l, marks, out, out_cap, out_len);
    if (source != NULL) {
        *source = src;
    }
    return SC_OK;
}
