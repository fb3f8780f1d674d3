/* The event builder: a bump allocator over the caller's buffer. String bytes and each tag's
 * sc_str array are placed from the front; the sc_tag array grows down from the back, so it
 * stays contiguous however many tags come, and final reverses it into order. The first
 * failure sticks; running out of room keeps counting what a buffer would need, so final can
 * report it (the two-pass form: build once over no buffer, then again over one that fits). */
#include <softchat/mem.h>
#include <softchat/event.h>

#include <string.h>

#include "event/event_builder.h"
#include "util/range.h"
#include "util/utf8.h"

#define SC_BUILDER_MAGIC 0x53436562u /* "SCeb" */

typedef struct sc_builder_impl {
    uint32_t magic;
    uint32_t kind;
    sc_status err; /* sticky */
    int finished;  /* the tag array has been put in order */
    int64_t created_at;
    uint8_t *base; /* aligned start of the usable buffer */
    size_t cap;    /* usable bytes from base */
    size_t front;  /* bytes used from the front */
    size_t n_tags; /* sc_tag entries at the back, the newest lowest */
    size_t content_at, content_len;
    size_t need;         /* bytes a buffer at any alignment needs for everything added so far,
                            but the slack of its two ends */
    size_t need_content; /* the share of need taken by the latest content, when it is the
                            last thing added (setting content again reuses it) */
} sc_builder_impl;

typedef char sc_builder_fits[(sizeof(sc_builder_impl) <= sizeof(sc_event_builder)) ? 1 : -1];

/* The live builder behind b, or NULL when b is NULL or not initialised. */
static sc_builder_impl *impl_of(sc_event_builder *b)
{
    sc_builder_impl *i = (sc_builder_impl *)(void *)b;

    return (i != NULL && i->magic == SC_BUILDER_MAGIC) ? i : NULL;
}

/* The builder if it can take another change; records SC_ERR_STATE after final. Out of
 * room, it still takes changes (to count the need) but writes nothing. */
static sc_builder_impl *open_impl(sc_event_builder *b)
{
    sc_builder_impl *i = impl_of(b);

    if (i == NULL || (i->err != SC_OK && i->err != SC_ERR_BUFFER_TOO_SMALL)) {
        return NULL;
    }
    if (i->finished) {
        i->err = SC_ERR_STATE;
        return NULL;
    }
    return i;
}

/* Records a failure: any error replaces running out of room, which is only a need. */
static void fail(sc_builder_impl *i, sc_status st)
{
    if (i->err == SC_OK || (i->err == SC_ERR_BUFFER_TOO_SMALL && st != SC_ERR_BUFFER_TOO_SMALL)) {
        i->err = st;
    }
}

/* Bytes free between the front and the tag array. */
static size_t room(const sc_builder_impl *i)
{
    return i->cap - i->front - i->n_tags * sizeof(sc_tag);
}

sc_status sc_event_builder_init(sc_event_builder *b, void *buf, size_t cap)
{
    sc_builder_impl *i = (sc_builder_impl *)(void *)b;
    size_t pad;

    if (b == NULL) {
        return SC_ERR_ARG;
    }
    memset(b, 0, sizeof *b);
    if (buf == NULL && cap != 0) {
        return SC_ERR_ARG;
    }
    pad = buf != NULL ? sc_event_align_pad(buf) : 0;
    i->magic = SC_BUILDER_MAGIC;
    i->kind = 1;
    if (cap > pad) {
        i->base = (uint8_t *)buf + pad;
        /* the back, where the tag array starts, stays aligned too */
        i->cap = (cap - pad) - (cap - pad) % SC_EVENT_ALIGN;
    }
    return SC_OK;
}

void sc_event_builder_kind(sc_event_builder *b, uint32_t kind)
{
    sc_builder_impl *i = open_impl(b);

    if (i == NULL) {
        return;
    }
    if (kind > SC_EVENT_KIND_MAX) {
        fail(i, SC_ERR_EVENT_RANGE);
        return;
    }
    i->kind = kind;
}

void sc_event_builder_created_at(sc_event_builder *b, int64_t created_at)
{
    sc_builder_impl *i = open_impl(b);

    if (i == NULL) {
        return;
    }
    if (created_at < 0) {
        fail(i, SC_ERR_EVENT_RANGE);
        return;
    }
    i->created_at = created_at;
}

void sc_event_builder_content(sc_event_builder *b, const char *s, size_t len)
{
    sc_builder_impl *i = open_impl(b);
    sc_status st;

    if (i == NULL) {
        return;
    }
    if (s == NULL && len != 0) {
        fail(i, SC_ERR_ARG);
        return;
    }
    st = sc_utf8_check(s, len);
    if (st != SC_OK) {
        fail(i, st);
        return;
    }
    i->need -= i->need_content; /* replacing the latest content reuses its bytes */
    i->need = sc_size_add(i->need, len);
    i->need_content = len;
    if (i->err != SC_OK) {
        return; /* out of room: counting only */
    }
    if (i->content_len != 0 && i->content_at + i->content_len == i->front) {
        i->front = i->content_at;
    }
    if (len > room(i)) {
        fail(i, SC_ERR_BUFFER_TOO_SMALL);
        return;
    }
    if (len != 0) {
        memcpy(i->base + i->front, s, len);
    }
    i->content_at = i->front;
    i->content_len = len;
    i->front += len;
}

/* Checks a tag's items and returns the bytes they need (0 with the status on failure). */
static sc_status tag_size(const sc_str *items, size_t n, size_t *bytes)
{
    size_t k;
    sc_status st;

    *bytes = 0;
    if (n == 0) {
        return SC_ERR_EVENT_FIELD;
    }
    if (items == NULL) {
        return SC_ERR_ARG;
    }
    for (k = 0; k < n; k++) {
        if (items[k].ptr == NULL && items[k].len != 0) {
            return SC_ERR_ARG;
        }
        st = sc_utf8_check(items[k].ptr, items[k].len);
        if (st != SC_OK) {
            return st;
        }
        *bytes = sc_size_add(*bytes, items[k].len);
    }
    return SC_OK;
}

void sc_event_builder_tag(sc_event_builder *b, const sc_str *items, size_t n)
{
    sc_builder_impl *i = open_impl(b);
    size_t bytes, pad, k;
    sc_str *views;
    uint8_t *p;
    sc_tag *tag;
    sc_status st;

    if (i == NULL) {
        return;
    }
    st = tag_size(items, n, &bytes);
    if (st != SC_OK) {
        fail(i, st);
        return;
    }
    i->need = sc_size_add(i->need, sc_event_tag_cost(n, bytes));
    i->need_content = 0;
    if (i->err != SC_OK) {
        return; /* out of room: counting only */
    }
    /* room for one more sc_tag at the back, then padding, the item views and the bytes */
    if (room(i) < sizeof(sc_tag)) {
        fail(i, SC_ERR_BUFFER_TOO_SMALL); /* also the case of an empty buffer */
        return;
    }
    pad = sc_event_align_pad(i->base + i->front);
    if (pad > room(i) - sizeof(sc_tag) || n > (room(i) - sizeof(sc_tag) - pad) / sizeof(sc_str) ||
        bytes > room(i) - sizeof(sc_tag) - pad - n * sizeof(sc_str)) {
        fail(i, SC_ERR_BUFFER_TOO_SMALL);
        return;
    }
    views = (sc_str *)(void *)(i->base + i->front + pad);
    p = (uint8_t *)(views + n);
    for (k = 0; k < n; k++) {
        if (items[k].len != 0) {
            memcpy(p, items[k].ptr, items[k].len);
        }
        views[k].ptr = items[k].len != 0 ? (const char *)p : "";
        views[k].len = items[k].len;
        p += items[k].len;
    }
    i->front = (size_t)(p - i->base);
    i->n_tags++;
    tag = (sc_tag *)(void *)(i->base + i->cap - i->n_tags * sizeof(sc_tag));
    tag->items = views;
    tag->n_items = n;
}

size_t sc_event_tag_cost(size_t n, size_t bytes)
{
    return sc_size_add(
        sc_size_add(sizeof(sc_tag) + SC_EVENT_ALIGN - 1, sc_size_mul(n, sizeof(sc_str))), bytes);
}

size_t sc_event_builder_buf_max(size_t content_len, const sc_tag *tags, size_t n_tags)
{
    size_t total = sc_size_add(SC_EVENT_BUILDER_SLACK, content_len), k, j, bytes;

    if (tags == NULL && n_tags != 0) {
        return 0;
    }
    for (k = 0; k < n_tags; k++) {
        if (tags[k].items == NULL && tags[k].n_items != 0) {
            return 0;
        }
        for (bytes = 0, j = 0; j < tags[k].n_items; j++) {
            bytes = sc_size_add(bytes, tags[k].items[j].len);
        }
        total = sc_size_add(total, sc_event_tag_cost(tags[k].n_items, bytes));
    }
    return sc_size_public(total);
}

sc_status sc_event_builder_final(sc_event_builder *b, sc_event *ev, size_t *buf_len)
{
    sc_builder_impl *i = impl_of(b);
    sc_tag *tags;
    size_t k;

    if (buf_len != NULL) {
        *buf_len = 0;
    }
    if (ev == NULL) {
        return SC_ERR_ARG;
    }
    memset(ev, 0, sizeof *ev);
    if (b == NULL) {
        return SC_ERR_ARG;
    }
    if (i == NULL) {
        return SC_ERR_STATE;
    }
    if (buf_len != NULL && (i->err == SC_OK || i->err == SC_ERR_BUFFER_TOO_SMALL)) {
        *buf_len = sc_size_public(sc_size_add(i->need, SC_EVENT_BUILDER_SLACK));
    }
    if (i->err != SC_OK) {
        return i->err;
    }
    tags =
        i->n_tags != 0 ? (sc_tag *)(void *)(i->base + i->cap - i->n_tags * sizeof(sc_tag)) : NULL;
    if (!i->finished) {
        for (k = 0; k < i->n_tags / 2; k++) { /* appended newest-lowest: reverse into order */
            sc_tag t = tags[k];

            tags[k] = tags[i->n_tags - 1 - k];
            tags[i->n_tags - 1 - k] = t;
        }
        i->finished = 1;
    }
    ev->kind = i->kind;
    ev->created_at = i->created_at;
    ev->tags = tags;
    ev->n_tags = i->n_tags;
    ev->content.ptr = i->content_len != 0 ? (const char *)(i->base + i->content_at) : "";
    ev->content.len = i->content_len;
    ev->flags =
        SC_EVENT_HAS_KIND | SC_EVENT_HAS_CREATED_AT | SC_EVENT_HAS_TAGS | SC_EVENT_HAS_CONTENT;
    return SC_OK;
}
