/* The glue's state: the context, the input buffer, scratch and output memory, and the
 * calls that need no protocol (version, status names, the backend). */
#include "exports.h"

#include <malloc.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

_Static_assert(offsetof(scw, out) == 0 && offsetof(scw, out_len) == 4 && offsetof(scw, in) == 8 &&
                   offsetof(scw, in_cap) == 12 && offsetof(scw, res) == 16 && sizeof(void *) == 4,
               "the layout the TypeScript side reads (src/native.ts)");

int scw_add(size_t *r, size_t a, size_t b)
{
    if (a > SIZE_MAX - b) {
        return 0;
    }
    *r = a + b;
    return 1;
}

int scw_mul(size_t *r, size_t a, size_t b)
{
    if (a != 0 && b > SIZE_MAX / a) {
        return 0;
    }
    *r = a * b;
    return 1;
}

int scw_align(size_t *r, size_t n)
{
    return scw_add(r, n, 15) ? (*r &= ~(size_t)15, 1) : 0;
}

/* n bytes of a region: a piece of the kept block (made once) or a temporary block. */
static uint8_t *region_get(scw_region *g, size_t n)
{
    size_t a, i;
    uint8_t *p;

    if (!scw_align(&a, n == 0 ? 1 : n)) {
        return NULL;
    }
    if (g->keep == NULL && (g->keep = malloc(SCW_KEEP_BYTES)) == NULL) {
        return NULL;
    }
    if (a <= SCW_KEEP_BYTES - g->off) {
        p = g->keep + g->off;
        g->off += a;
    } else {
        /* untouched pages of a large block cost address space only; only n is wiped */
        for (i = 0; i < SCW_TEMP_BLOCKS && g->temp[i] != NULL; i++) {
        }
        if (i == SCW_TEMP_BLOCKS || (p = malloc(n == 0 ? 1 : n)) == NULL) {
            return NULL;
        }
        g->temp[i] = p;
        g->temp_len[i] = n;
    }
    if (g->first == NULL) {
        g->first = p;
    }
    return p;
}

static void region_put(scw_region *g)
{
    size_t i;

    if (g->off > 0) {
        sc_mem_wipe(g->keep, g->off);
    }
    for (i = 0; i < SCW_TEMP_BLOCKS; i++) {
        if (g->temp[i] != NULL) {
            sc_mem_wipe(g->temp[i], g->temp_len[i]);
            free(g->temp[i]);
            g->temp[i] = NULL;
            g->temp_len[i] = 0;
        }
    }
    g->off = 0;
    g->first = NULL;
}

uint8_t *scw_scratch(scw *w, size_t n)
{
    return region_get(&w->scratch, n);
}

uint8_t *scw_output(scw *w, size_t n)
{
    return region_get(&w->output, n);
}

sc_status scw_result(scw *w, size_t n)
{
    w->out = w->output.first;
    w->out_len = (uint32_t)n;
    return SC_OK;
}

SCW_EXPORT void scw_done(scw *w)
{
    region_put(&w->scratch);
    region_put(&w->output);
    w->out = NULL;
    w->out_len = 0;
    sc_mem_wipe(w->res, sizeof w->res);
    if (w->in_cap > SCW_KEEP_BYTES) { /* a large input: wiped by the caller, given back */
        free(w->in);
        w->in = NULL;
        w->in_cap = 0;
    }
}

/* A new state with a context on the default backend, or NULL (no memory, or the context
 * failed: scw_init_status says why). */
SCW_EXPORT scw *scw_new(void)
{
    return calloc(1, sizeof(scw));
}

SCW_EXPORT int scw_init(scw *w)
{
    return sc_ctx_new(&w->ctx, NULL);
}

SCW_EXPORT void scw_free(scw *w)
{
    if (w == NULL) {
        return;
    }
    scw_done(w);
    sc_ctx_free(w->ctx);
    free(w->scratch.keep);
    free(w->output.keep);
    if (w->in != NULL) {
        sc_mem_wipe(w->in, w->in_cap);
        free(w->in);
    }
    sc_mem_wipe(w, sizeof *w);
    free(w);
}

/* Makes the input buffer at least n bytes (kept up to SCW_KEEP_BYTES; a larger one lasts
 * one call). Returns the buffer, or NULL (no memory: the old buffer stays). */
SCW_EXPORT uint8_t *scw_in(scw *w, uint32_t n)
{
    uint8_t *p;
    uint32_t cap = n <= SCW_KEEP_BYTES ? (uint32_t)SCW_KEEP_BYTES : n;

    if (n <= w->in_cap) {
        return w->in;
    }
    if ((p = malloc(cap)) == NULL) {
        return NULL;
    }
    if (w->in != NULL) {
        sc_mem_wipe(w->in, w->in_cap);
        free(w->in);
    }
    w->in = p;
    w->in_cap = cap;
    return p;
}

SCW_EXPORT const char *scw_version(void)
{
    return sc_version();
}

SCW_EXPORT const char *scw_status_name(int code)
{
    return sc_status_name((sc_status)code);
}

SCW_EXPORT const char *scw_backend(scw *w)
{
    const sc_backend *b = sc_ctx_backend(w->ctx);

    return b != NULL ? b->name : "";
}

SCW_EXPORT const char *scw_version_secp256k1(void)
{
    return sc_version_secp256k1();
}

sc_status scw_event_in(scw *w, sc_event *ev, const char *json, size_t len, unsigned optional)
{
    sc_event_parse_opts opts;
    size_t used = 0, need;
    uint8_t *arena;

    if (len > SCW_MAX_INPUT) {
        return SC_ERR_TOO_LARGE;
    }
    need = sc_event_parse_arena_max(len);
    if (need == 0 || (arena = scw_scratch(w, need)) == NULL) {
        return need == 0 ? SC_ERR_TOO_LARGE : SC_ERR_NOMEM;
    }
    memset(&opts, 0, sizeof opts);
    opts.max_input = SCW_MAX_INPUT;
    opts.optional = optional;
    return sc_event_parse(ev, arena, need, &used, json, len, &opts);
}

sc_status scw_event_out(scw *w, const sc_event *ev, size_t extra, uint8_t **tail)
{
    size_t jl = sc_event_to_json_len(ev, SC_EVENT_JSON_OBJECT), n, len = 0;
    uint8_t *out;
    sc_status st;

    if (jl == 0 || !scw_add(&n, jl, extra)) {
        return SC_ERR_TOO_LARGE;
    }
    if ((out = scw_output(w, n)) == NULL) {
        return SC_ERR_NOMEM;
    }
    st = sc_event_to_json((char *)out, jl, &len, ev, SC_EVENT_JSON_OBJECT);
    if (st != SC_OK) {
        return st;
    }
    if (tail != NULL) {
        *tail = out + len;
    }
    return scw_result(w, len + extra);
}

/* Bytes of the wasm heap in use (malloc'd and not freed): what the tests compare before and
 * after many failing calls. */
SCW_EXPORT uint32_t scw_heap_used(void)
{
    struct mallinfo mi = mallinfo();

    return (uint32_t)mi.uordblks;
}
