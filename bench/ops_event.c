/* Workload: NIP-01 signing, parsing + verification, and batch verification on 1 thread and
 * on every core (one context per thread, as the API requires). */
#define _POSIX_C_SOURCE 200809L
#include <softchat/softchat.h>

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "ops.h"
#include "ops_internal.h"

#define BATCH 1000
#define MAX_THREADS 64
/* Events are signed by AUTHORS keys in turn, and parse_verify_event cycles through ROTATE
 * of them: more keys than the curve adapter keeps lifted, so every verification lifts its
 * public key, as for a stream of events from many authors. */
#define AUTHORS 64
#define ROTATE 16

typedef struct event_state {
    sc_ctx *ctx[MAX_THREADS];
    unsigned threads;
    sc_identity authors[AUTHORS]; /* authors[0] also signs sign_event */
    char content[64];
    unsigned next;     /* parse_verify_event: the next event */
    char *json[BATCH]; /* signed events as JSON */
    size_t json_len[BATCH];
    sc_event ev[BATCH]; /* parsed views (verify_batch) */
    void *arena[BATCH];
    void *arena1;
    size_t arena1_cap;
} event_state;

static void event_teardown(void *p)
{
    event_state *s = p;
    unsigned i;

    if (s == NULL) {
        return;
    }
    for (i = 0; i < MAX_THREADS; i++) {
        sc_ctx_free(s->ctx[i]);
    }
    for (i = 0; i < BATCH; i++) {
        free(s->json[i]);
        free(s->arena[i]);
    }
    free(s->arena1);
    for (i = 0; i < AUTHORS; i++) {
        sc_identity_clear(&s->authors[i]);
    }
    free(s);
}

/* A signed kind-1 event with `content_len` bytes of content and no tags, as JSON. */
static int make_event(event_state *s, unsigned i, size_t content_len)
{
    sc_event ev;
    size_t n;

    memset(&ev, 0, sizeof ev);
    bench_fill((unsigned char *)s->content, content_len, 1000 + i);
    ev.kind = 1;
    ev.created_at = 1700000000 + (int64_t)i;
    ev.content.ptr = s->content;
    ev.content.len = content_len;
    if (sc_event_sign(s->ctx[0], &ev, &s->authors[i % AUTHORS]) != SC_OK) {
        return -1;
    }
    n = sc_event_to_json_len(&ev, SC_EVENT_JSON_OBJECT);
    s->json[i] = malloc(n);
    if (s->json[i] == NULL ||
        sc_event_to_json(s->json[i], n, &s->json_len[i], &ev, SC_EVENT_JSON_OBJECT) != SC_OK) {
        return -1;
    }
    return 0;
}

static int event_setup_common(event_state **out, const char *backend, unsigned threads,
                              unsigned events)
{
    event_state *s = calloc(1, sizeof *s);
    uint8_t sec[32];
    unsigned i;

    *out = s;
    if (s == NULL) {
        return -1;
    }
    s->threads = threads > MAX_THREADS ? MAX_THREADS : threads;
    for (i = 0; i < s->threads; i++) {
        if (bench_ctx_new(&s->ctx[i], backend) != 0) {
            return -1;
        }
    }
    for (i = 0; i < AUTHORS; i++) {
        memset(sec, 0x33, sizeof sec);
        sec[31] = (uint8_t)i;
        if (sc_identity_import(s->ctx[0], &s->authors[i], sec) != SC_OK) {
            return -1;
        }
    }
    for (i = 0; i < events; i++) {
        if (make_event(s, i, 32) != 0) {
            return -1;
        }
    }
    return 0;
}

static int sign_setup(void **out, const char *backend, size_t bytes)
{
    event_state *s;
    int rc = event_setup_common(&s, backend, 1, 0);

    *out = s;
    if (rc == 0) {
        bench_fill((unsigned char *)s->content, bytes, 7);
    }
    return rc;
}

static int run_sign(void *p, uint64_t n)
{
    event_state *s = p;
    sc_event ev;

    memset(&ev, 0, sizeof ev);
    ev.kind = 1;
    ev.created_at = 1700000000;
    ev.content.ptr = s->content;
    ev.content.len = 32;
    while (n--) {
        if (sc_event_sign(s->ctx[0], &ev, &s->authors[0]) != SC_OK) {
            return -1;
        }
    }
    return 0;
}

static int parse_setup(void **out, const char *backend, size_t bytes)
{
    event_state *s;
    int rc = event_setup_common(&s, backend, 1, ROTATE);
    unsigned i;

    *out = s;
    if (rc != 0) {
        return -1;
    }
    for (i = 0; i < ROTATE; i++) {
        if (s->json_len[i] != bytes) {
            return -1; /* the contract fixes the serialized size */
        }
    }
    s->arena1_cap = sc_event_parse_arena_max(bytes);
    s->arena1 = malloc(s->arena1_cap);
    return s->arena1 != NULL ? 0 : -1;
}

static int run_parse_verify(void *p, uint64_t n)
{
    event_state *s = p;
    sc_event ev;
    size_t used;

    while (n--) {
        unsigned i = s->next;
        s->next = (i + 1) % ROTATE;
        if (sc_event_parse(&ev, s->arena1, s->arena1_cap, &used, s->json[i], s->json_len[i],
                           NULL) != SC_OK ||
            sc_event_verify(s->ctx[0], &ev) != SC_OK) {
            return -1;
        }
    }
    return 0;
}

static int batch_setup(void **out, const char *backend, size_t bytes, unsigned threads)
{
    event_state *s;
    unsigned i;
    size_t used;

    (void)bytes;
    if (event_setup_common(&s, backend, threads, BATCH) != 0) {
        *out = s;
        return -1;
    }
    *out = s;
    for (i = 0; i < BATCH; i++) {
        size_t cap = sc_event_parse_arena_max(s->json_len[i]);
        s->arena[i] = malloc(cap);
        if (s->arena[i] == NULL || sc_event_parse(&s->ev[i], s->arena[i], cap, &used, s->json[i],
                                                  s->json_len[i], NULL) != SC_OK) {
            return -1;
        }
    }
    return 0;
}

static int batch1_setup(void **out, const char *backend, size_t bytes)
{
    return batch_setup(out, backend, bytes, 1);
}

static int batchn_setup(void **out, const char *backend, size_t bytes)
{
    return batch_setup(out, backend, bytes, bench_cores());
}

typedef struct slice {
    event_state *s;
    unsigned t;
    int rc;
} slice;

static void *verify_slice(void *p)
{
    slice *sl = p;
    event_state *s = sl->s;
    unsigned i, lo = BATCH * sl->t / s->threads, hi = BATCH * (sl->t + 1) / s->threads;

    sl->rc = 0;
    for (i = lo; i < hi; i++) {
        if (sc_event_verify(s->ctx[sl->t], &s->ev[i]) != SC_OK) {
            sl->rc = -1;
        }
    }
    return NULL;
}

static int run_batch(void *p, uint64_t n)
{
    event_state *s = p;
    pthread_t th[MAX_THREADS];
    slice sl[MAX_THREADS];
    unsigned t;
    int rc = 0;

    while (n--) {
        for (t = 0; t < s->threads; t++) {
            sl[t].s = s;
            sl[t].t = t;
            if (t > 0 && pthread_create(&th[t], NULL, verify_slice, &sl[t]) != 0) {
                return -1;
            }
        }
        verify_slice(&sl[0]);
        for (t = 1; t < s->threads; t++) {
            pthread_join(th[t], NULL);
        }
        for (t = 0; t < s->threads; t++) {
            rc |= sl[t].rc;
        }
    }
    return rc;
}

const bench_op bench_ops_event[] = {
    {"sign_event", 32, sign_setup, run_sign, event_teardown, 0, 1},
    {"parse_verify_event", 374, parse_setup, run_parse_verify, event_teardown, 0, 1},
    {"verify_batch", BATCH, batch1_setup, run_batch, event_teardown, BATCH, 1},
    {"verify_batch", BATCH, batchn_setup, run_batch, event_teardown, BATCH, 0},
};
const size_t bench_ops_event_count = sizeof bench_ops_event / sizeof bench_ops_event[0];
