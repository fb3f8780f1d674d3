/* Negentropy (NIP-77) for the TypeScript side: a reconciliation over a copy of the caller's
 * records (sorted here), its messages as raw bytes (the TypeScript side hex-encodes them for
 * NEG-OPEN / NEG-MSG). */
#include "exports.h"

#include <stdlib.h>
#include <string.h>

struct scw_neg {
    sc_negentropy neg;
    sc_negentropy_item *items;
    size_t n;
};

/* A reconciliation over n records given as 40 bytes each (u64 timestamp LE as two u32
 * halves written by the TypeScript side, id[32]), with a frame limit (0: none): handle to
 * res[0..4). */
SCW_EXPORT int scw_neg_new(scw *w, const uint8_t *recs, uint32_t n, uint32_t frame_limit)
{
    scw_neg *g = calloc(1, sizeof *g);
    sc_negentropy_opts o;
    size_t i;
    sc_status st = SC_OK;
    uint32_t h;

    if (g == NULL || (n > 0 && (g->items = calloc(n, sizeof(sc_negentropy_item))) == NULL)) {
        free(g);
        return SC_ERR_NOMEM;
    }
    for (i = 0; i < n; i++) {
        uint32_t lo, hi;
        memcpy(&lo, recs + 40 * i, 4);
        memcpy(&hi, recs + 40 * i + 4, 4);
        g->items[i].timestamp = (uint64_t)hi << 32 | lo;
        memcpy(g->items[i].id, recs + 40 * i + 8, 32);
    }
    g->n = n;
    memset(&o, 0, sizeof o);
    o.frame_limit = frame_limit;
    if (n > 0) {
        st = sc_negentropy_sort(g->items, n);
    }
    if (st == SC_OK) {
        st = sc_negentropy_init(&g->neg, g->items, n, &o);
    }
    if (st != SC_OK) {
        free(g->items);
        free(g);
        return st;
    }
    h = (uint32_t)(uintptr_t)g;
    memcpy(w->res, &h, 4);
    return SC_OK;
}

SCW_EXPORT void scw_neg_free(scw_neg *g)
{
    if (g != NULL) {
        free(g->items);
        free(g);
    }
}

/* The first message (NEG-OPEN): the result. */
SCW_EXPORT int scw_neg_initiate(scw *w, scw_neg *g)
{
    size_t n = sc_negentropy_initiate_max(&g->neg), got = 0;
    uint8_t *out = n != 0 ? scw_output(w, n) : NULL;
    sc_status st;

    if (out == NULL) {
        return n == 0 ? SC_ERR_STATE : SC_ERR_NOMEM;
    }
    st = sc_negentropy_initiate(w->ctx, &g->neg, out, n, &got);
    return st == SC_OK ? scw_result(w, got) : st;
}

/* One message of the peer: the result is u32 reply length + the reply, u32 n_have + the ids
 * only we have, u32 n_need + the ids only the peer has. */
SCW_EXPORT int scw_neg_reconcile(scw *w, scw_neg *g, const uint8_t *msg, uint32_t len)
{
    size_t rn = sc_negentropy_reconcile_max(&g->neg, len), hn = sc_negentropy_have_max(&g->neg);
    size_t nn = sc_negentropy_need_max(len), got = 0, nh = 0, nd = 0, total, i;
    size_t *have = NULL;
    uint8_t(*need)[32] = NULL;
    uint8_t *reply, *out;
    uint32_t v;
    sc_status st;

    if (rn == 0) {
        return SC_ERR_STATE;
    }
    if ((reply = scw_scratch(w, rn)) == NULL ||
        (hn > 0 && (have = (size_t *)(void *)scw_scratch(w, hn * sizeof(size_t))) == NULL) ||
        (nn > 0 && (need = (uint8_t(*)[32])(void *)scw_scratch(w, nn * 32)) == NULL)) {
        return SC_ERR_NOMEM;
    }
    st = sc_negentropy_reconcile(w->ctx, &g->neg, reply, rn, &got, have, hn, &nh, need, nn, &nd,
                                 msg, len);
    if (st != SC_OK) {
        return st;
    }
    total = 12 + got + 32 * (nh + nd);
    if ((out = scw_output(w, total)) == NULL) {
        return SC_ERR_NOMEM;
    }
    v = (uint32_t)got;
    memcpy(out, &v, 4);
    memcpy(out + 4, reply, got);
    out += 4 + got;
    v = (uint32_t)nh;
    memcpy(out, &v, 4);
    for (i = 0; i < nh; i++) {
        memcpy(out + 4 + 32 * i, g->items[have[i]].id, 32);
    }
    out += 4 + 32 * nh;
    v = (uint32_t)nd;
    memcpy(out, &v, 4);
    if (nd > 0) {
        memcpy(out + 4, need, 32 * nd);
    }
    return scw_result(w, total);
}
