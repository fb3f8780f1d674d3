/* The blob layouts of blob.h. */
#include "blob.h"

#include "scj.h"

#include <string.h>

int scj_rd_u32(scj_rd *r, uint32_t *v)
{
    if (r->left < 4) {
        return 0;
    }
    *v = (uint32_t)r->p[0] | (uint32_t)r->p[1] << 8 | (uint32_t)r->p[2] << 16 |
         (uint32_t)r->p[3] << 24;
    r->p += 4;
    r->left -= 4;
    return 1;
}

int scj_rd_bytes(scj_rd *r, const uint8_t **p, size_t n)
{
    if (r->left < n) {
        return 0;
    }
    *p = r->p;
    r->p += n;
    r->left -= n;
    return 1;
}

void scj_wr_u32(scj_wr *w, uint32_t v)
{
    w->p[w->off] = (uint8_t)v;
    w->p[w->off + 1] = (uint8_t)(v >> 8);
    w->p[w->off + 2] = (uint8_t)(v >> 16);
    w->p[w->off + 3] = (uint8_t)(v >> 24);
    w->off += 4;
}

void scj_wr_i64(scj_wr *w, int64_t v)
{
    scj_wr_u32(w, (uint32_t)((uint64_t)v & 0xffffffffu));
    scj_wr_u32(w, (uint32_t)((uint64_t)v >> 32));
}

jbyteArray scj_wr_begin(JNIEnv *env, scj_wr *w, size_t n)
{
    jbyteArray out = scj_new_bytes(env, n);

    if (out == NULL) {
        return NULL;
    }
    w->p = (*env)->GetPrimitiveArrayCritical(env, out, NULL);
    if (w->p == NULL) {
        scj_throw(env, SC_ERR_NOMEM);
        return NULL;
    }
    w->off = 0;
    return out;
}

jbyteArray scj_wr_end(JNIEnv *env, jbyteArray out, scj_wr *w)
{
    (*env)->ReleasePrimitiveArrayCritical(env, out, w->p, 0);
    return out;
}

void scj_wr_bytes(scj_wr *w, const void *p, size_t n)
{
    if (n > 0) {
        memcpy(w->p + w->off, p, n);
    }
    w->off += n;
}

sc_status scj_tags_count(scj_tags *t, const uint8_t *blob, size_t len)
{
    scj_rd r = {blob, len};
    uint32_t n, m, l, i, j;
    const uint8_t *p;

    t->n_tags = 0;
    t->n_items = 0;
    if (len == 0) {
        return SC_OK; /* no tags */
    }
    if (!scj_rd_u32(&r, &n)) {
        return SC_ERR_ARG;
    }
    for (i = 0; i < n; i++) {
        if (!scj_rd_u32(&r, &m)) {
            return SC_ERR_ARG;
        }
        for (j = 0; j < m; j++) {
            if (!scj_rd_u32(&r, &l) || !scj_rd_bytes(&r, &p, l)) {
                return SC_ERR_ARG;
            }
        }
        t->n_items += m; /* each item took >= 4 bytes of the blob: no overflow */
    }
    t->n_tags = n;
    return r.left == 0 ? SC_OK : SC_ERR_ARG;
}

size_t scj_tags_bytes(const scj_tags *t)
{
    size_t a, b, r;

    /* n * sizeof can wrap on 32-bit ABIs: every product and sum is checked */
    if (!scj_mul(&a, t->n_tags, sizeof(sc_tag)) || !scj_align(&a, a) ||
        !scj_mul(&b, t->n_items, sizeof(sc_str)) || !scj_add(&r, a, b) || !scj_add(&r, r, 16)) {
        return 0;
    }
    return r;
}

void scj_tags_build(const scj_tags *t, void *mem, const uint8_t *blob, const sc_tag **tags)
{
    uintptr_t base = ((uintptr_t)mem + 15) & ~(uintptr_t)15;
    sc_tag *tg = (sc_tag *)base;
    size_t off = 0;
    sc_str *items;
    scj_rd r = {blob + 4, 0};
    uint32_t m = 0, l = 0, i, j;
    const uint8_t *p = NULL;

    scj_align(&off, t->n_tags * sizeof(sc_tag));
    items = (sc_str *)(base + off);
    *tags = t->n_tags > 0 ? tg : NULL;
    r.left = SIZE_MAX; /* the layout was checked by scj_tags_count */
    for (i = 0; i < t->n_tags; i++) {
        scj_rd_u32(&r, &m);
        tg[i].items = items;
        tg[i].n_items = m;
        for (j = 0; j < m; j++) {
            scj_rd_u32(&r, &l);
            scj_rd_bytes(&r, &p, l);
            items->ptr = (const char *)p;
            items->len = l;
            items++;
        }
    }
}

size_t scj_event_blob_len(const sc_event *ev)
{
    size_t n = 4 + 32 + 32 + 64 + 8 + 4 + 4 + 4, i, j;

    for (i = 0; i < ev->n_tags; i++) {
        if (!scj_add(&n, n, 4)) {
            return 0;
        }
        for (j = 0; j < ev->tags[i].n_items; j++) {
            if (!scj_add(&n, n, 4) || !scj_add(&n, n, ev->tags[i].items[j].len)) {
                return 0;
            }
        }
    }
    return scj_add(&n, n, ev->content.len) ? n : 0;
}

void scj_event_blob(scj_wr *w, const sc_event *ev)
{
    size_t i, j;

    scj_wr_u32(w, ev->flags);
    scj_wr_bytes(w, ev->id, 32);
    scj_wr_bytes(w, ev->pubkey, 32);
    scj_wr_bytes(w, ev->sig, 64);
    scj_wr_i64(w, ev->created_at);
    scj_wr_u32(w, ev->kind);
    scj_wr_u32(w, (uint32_t)ev->n_tags);
    for (i = 0; i < ev->n_tags; i++) {
        scj_wr_u32(w, (uint32_t)ev->tags[i].n_items);
        for (j = 0; j < ev->tags[i].n_items; j++) {
            scj_wr_u32(w, (uint32_t)ev->tags[i].items[j].len);
            scj_wr_bytes(w, ev->tags[i].items[j].ptr, ev->tags[i].items[j].len);
        }
    }
    scj_wr_u32(w, (uint32_t)ev->content.len);
    scj_wr_bytes(w, ev->content.ptr, ev->content.len);
}
