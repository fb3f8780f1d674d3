/* Operations on the caller's sorted record array: search by bound, the minimal separating
 * bound, fingerprints over the backend's SHA-256, and in-place heap sorts (no allocation). */
#include <softchat/crypto.h>
#include <softchat/mem.h>

#include <string.h>

#include "negentropy/negentropy_internal.h"

/* Whether record it lies below bound b. */
static int item_below(const sc_negentropy_item *it, const sc_neg_bound *b)
{
    if (it->timestamp != b->ts) {
        return it->timestamp < b->ts;
    }
    return memcmp(it->id, b->id, SC_NEGENTROPY_ID_BYTES) < 0;
}

size_t sc_neg_lower_bound(const sc_negentropy_item *items, size_t lo, size_t hi,
                          const sc_neg_bound *b)
{
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;

        if (item_below(&items[mid], b)) {
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    return lo;
}

void sc_neg_item_bound(sc_neg_bound *b, const sc_negentropy_item *it)
{
    b->ts = it->timestamp;
    b->len = SC_NEGENTROPY_ID_BYTES;
    memcpy(b->id, it->id, SC_NEGENTROPY_ID_BYTES);
}

void sc_neg_minimal_bound(sc_neg_bound *b, const sc_negentropy_item *prev,
                          const sc_negentropy_item *curr)
{
    size_t shared = 0;

    memset(b->id, 0, sizeof b->id);
    b->ts = curr->timestamp;
    if (curr->timestamp != prev->timestamp) {
        b->len = 0;
        return;
    }
    while (shared < SC_NEGENTROPY_ID_BYTES && curr->id[shared] == prev->id[shared]) {
        shared++;
    }
    /* distinct records: shared < 32 */
    b->len = shared + 1;
    memcpy(b->id, curr->id, b->len);
}

static uint64_t load_le64(const uint8_t *p)
{
    uint64_t v = 0;
    int i;

    for (i = 7; i >= 0; i--) {
        v = (v << 8) | p[i];
    }
    return v;
}

static void store_le64(uint8_t *p, uint64_t v)
{
    int i;

    for (i = 0; i < 8; i++) {
        p[i] = (uint8_t)(v >> (8 * i));
    }
}

sc_status sc_neg_fingerprint(sc_ctx *ctx, uint8_t fp[SC_NEGENTROPY_FINGERPRINT_BYTES],
                             const sc_negentropy_item *items, size_t lo, size_t hi)
{
    uint64_t acc[4] = {0, 0, 0, 0};
    uint8_t buf[SC_NEGENTROPY_ID_BYTES + 10], digest[SC_SHA256_BYTES];
    sc_neg_out o;
    size_t i;
    int k;
    sc_status st;

    for (i = lo; i < hi; i++) {
        uint64_t carry = 0;

        for (k = 0; k < 4; k++) {
            uint64_t x = load_le64(items[i].id + 8 * k);
            uint64_t s = acc[k] + x;
            uint64_t c1 = s < x;

            acc[k] = s + carry;
            carry = c1 | (acc[k] < s);
        }
    }
    for (k = 0; k < 4; k++) {
        store_le64(buf + 8 * k, acc[k]);
    }
    o.out = buf + SC_NEGENTROPY_ID_BYTES;
    o.cap = 10;
    o.len = 0;
    o.over = 0;
    o.last_ts = 0;
    sc_neg_put_varint(&o, (uint64_t)(hi - lo));
    st = sc_crypto_sha256(ctx, digest, buf, SC_NEGENTROPY_ID_BYTES + o.len);
    memcpy(fp, digest, SC_NEGENTROPY_FINGERPRINT_BYTES);
    if (st != SC_OK) {
        memset(fp, 0, SC_NEGENTROPY_FINGERPRINT_BYTES);
    }
    return st;
}

/* ---- heap sorts ---------------------------------------------------------------------- */

/* One heap sort over n elements, through a comparison and a swap on indices. */
typedef struct heap {
    void *base;
    const void *aux;
    int (*less)(const struct heap *h, size_t a, size_t b);
    void (*swap)(const struct heap *h, size_t a, size_t b);
} heap;

static void sift_down(const heap *h, size_t root, size_t n)
{
    for (;;) {
        size_t child = 2 * root + 1, top = root;

        if (child < n && h->less(h, top, child)) {
            top = child;
        }
        if (child + 1 < n && h->less(h, top, child + 1)) {
            top = child + 1;
        }
        if (top == root) {
            return;
        }
        h->swap(h, root, top);
        root = top;
    }
}

static void heap_sort(const heap *h, size_t n)
{
    size_t i;

    if (n < 2) {
        return;
    }
    for (i = n / 2; i-- > 0;) {
        sift_down(h, i, n);
    }
    for (i = n - 1; i > 0; i--) {
        h->swap(h, 0, i);
        sift_down(h, 0, i);
    }
}

static int item_less(const sc_negentropy_item *a, const sc_negentropy_item *b)
{
    if (a->timestamp != b->timestamp) {
        return a->timestamp < b->timestamp;
    }
    return memcmp(a->id, b->id, SC_NEGENTROPY_ID_BYTES) < 0;
}

static int items_less(const heap *h, size_t a, size_t b)
{
    const sc_negentropy_item *v = h->base;

    return item_less(&v[a], &v[b]);
}

static void items_swap(const heap *h, size_t a, size_t b)
{
    sc_negentropy_item *v = h->base, t = v[a];

    v[a] = v[b];
    v[b] = t;
}

static int idx_less(const heap *h, size_t a, size_t b)
{
    const size_t *v = h->base;
    const sc_negentropy_item *items = h->aux;

    return memcmp(items[v[a]].id, items[v[b]].id, SC_NEGENTROPY_ID_BYTES) < 0;
}

static void idx_swap(const heap *h, size_t a, size_t b)
{
    size_t *v = h->base, t = v[a];

    v[a] = v[b];
    v[b] = t;
}

static int ids_less(const heap *h, size_t a, size_t b)
{
    const uint8_t(*v)[SC_NEGENTROPY_ID_BYTES] = h->base;

    return memcmp(v[a], v[b], SC_NEGENTROPY_ID_BYTES) < 0;
}

static void ids_swap(const heap *h, size_t a, size_t b)
{
    uint8_t(*v)[SC_NEGENTROPY_ID_BYTES] = h->base;
    uint8_t t[SC_NEGENTROPY_ID_BYTES];

    memcpy(t, v[a], sizeof t);
    memcpy(v[a], v[b], sizeof t);
    memcpy(v[b], t, sizeof t);
}

void sc_neg_sort_indices(size_t *idx, size_t n, const sc_negentropy_item *items)
{
    heap h = {idx, items, idx_less, idx_swap};

    heap_sort(&h, n);
}

void sc_neg_sort_ids(uint8_t (*ids)[SC_NEGENTROPY_ID_BYTES], size_t n)
{
    heap h = {ids, NULL, ids_less, ids_swap};

    heap_sort(&h, n);
}

sc_status sc_negentropy_sort(sc_negentropy_item *items, size_t n_items)
{
    heap h = {items, NULL, items_less, items_swap};

    if (items == NULL && n_items > 0) {
        return SC_ERR_ARG;
    }
    heap_sort(&h, n_items);
    return SC_OK;
}
