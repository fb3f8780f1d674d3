/* No pool call allocates: the library's own code (linked statically here) calls malloc and
 * friends through --wrap, and a counter sees every call made while a whole exchange runs:
 * init, relays, a subscription with a cursor, a publish, connections, sends, receives (an
 * EVENT verified, an OK, an EOSE, an AUTH signed), polls, the cursor saved and loaded. The
 * crypto libraries behind the backends are shared libraries and not counted here (the
 * benchmark counts them). */
#include "test_pool.h"

#include <stdlib.h>
#include <string.h>

#if defined(SC_TEST_WRAP_MALLOC)
static int counting;
static long allocs;

void *__real_malloc(size_t n);
void *__real_calloc(size_t n, size_t size);
void *__real_realloc(void *p, size_t n);
void *__wrap_malloc(size_t n);
void *__wrap_calloc(size_t n, size_t size);
void *__wrap_realloc(void *p, size_t n);

void *__wrap_malloc(size_t n)
{
    allocs += counting;
    return __real_malloc(n);
}

void *__wrap_calloc(size_t n, size_t size)
{
    allocs += counting;
    return __real_calloc(n, size);
}

void *__wrap_realloc(void *p, size_t n)
{
    allocs += counting;
    return __real_realloc(p, n);
}

void alloc_count_start(void)
{
    allocs = 0;
    counting = 1;
}

long alloc_count_stop(void)
{
    counting = 0;
    return allocs;
}

void test_alloc(void **state)
{
    pool_env *e = *state;
    static rig r;
    static uint8_t cmem[8192], saved[2048];
    static const uint32_t k1 = 1;
    sc_pool_opts o;
    sc_pool_cursor c;
    sc_relay_filter f;
    sc_pool_sub_opts so;
    pool_ev ev, note;
    uint32_t a, sub = 0, pub = 0;
    char json[1024];
    size_t len = 0;
    sc_ctx *ctx = NULL;

    memset(&o, 0, sizeof o);
    o.max_relays = 2;
    o.max_subs = 2;
    o.max_publishes = 2;
    o.seen_per_sub = 8;
    pool_make(e, &ev, 1, 1700000000, "mine", NULL);
    pool_make(e, &note, 1, 1700000001, "theirs", NULL);
    msg_event(json, sizeof json, "s", &note.ev);
    r.mem_len = sc_pool_mem_max(&o);
    r.mem = malloc(r.mem_len);
    assert_non_null(r.mem);
    r.e = e;
    r.now = T0;
    memset(&f, 0, sizeof f);
    f.kinds = &k1;
    f.n_kinds = 1;
    counting = 1;
    VT_ASSERT_STATUS(sc_pool_init(&r.p, r.mem, r.mem_len, &o), SC_OK);
    VT_ASSERT_STATUS(sc_pool_cursor_init(&c, cmem, sizeof cmem, 8, 2, 64), SC_OK);
    VT_ASSERT_STATUS(sc_pool_auth_identity(&r.p, &e->alice), SC_OK);
    VT_ASSERT_STATUS(sc_pool_relay_add(&r.p, &a, SC_STR("wss://a.example")), SC_OK);
    memset(&so, 0, sizeof so);
    so.cursor = &c;
    VT_ASSERT_STATUS(sc_pool_subscribe(&r.p, &sub, SC_STR("s"), &f, 1, &a, 1, &so), SC_OK);
    VT_ASSERT_STATUS(sc_pool_publish(&r.p, &pub, &ev.ev, &a, 1, NULL), SC_OK);
    VT_ASSERT_STATUS(sc_pool_poll(&r.p, &e->ctx, r.now, &r.u), SC_OK);
    VT_ASSERT_STATUS(sc_pool_connected(&r.p, a, r.now), SC_OK);
    while (sc_pool_next(&r.p, a, r.out, sizeof r.out, &r.len) == SC_OK && r.len > 0) {
    }
    VT_ASSERT_STATUS(rig_recv(&r, a, json), SC_OK);
    VT_ASSERT_STATUS(sc_pool_poll(&r.p, &e->ctx, r.now, &r.u), SC_OK);
    VT_ASSERT_STATUS(rig_recv(&r, a, "[\"EOSE\",\"s\"]"), SC_OK);
    VT_ASSERT_STATUS(sc_pool_poll(&r.p, &e->ctx, r.now, &r.u), SC_OK);
    VT_ASSERT_STATUS(rig_recv(&r, a, "[\"AUTH\",\"c\"]"), SC_OK);
    VT_ASSERT_STATUS(sc_pool_poll(&r.p, &e->ctx, r.now, &r.u), SC_OK);
    VT_ASSERT_STATUS(rig_recv(&r, a, msg_ok(json, sizeof json, ev.ev.id, 0, "auth-required: x")),
                     SC_OK);
    while (sc_pool_poll(&r.p, &e->ctx, r.now, &r.u) == SC_OK && r.u.kind != SC_POOL_U_NONE) {
    }
    VT_ASSERT_STATUS(sc_pool_next(&r.p, a, r.out, sizeof r.out, &r.len), SC_OK); /* the AUTH */
    VT_ASSERT_STATUS(rig_recv(&r, a, "[\"OK\",\"\",true,\"\"]"), SC_OK);
    r.now += 20000;
    while (sc_pool_poll(&r.p, &e->ctx, r.now, &r.u) == SC_OK && r.u.kind != SC_POOL_U_NONE) {
    }
    (void)sc_pool_wakeup(&r.p);
    VT_ASSERT_STATUS(sc_pool_cursor_save(&c, saved, sizeof saved, &len), SC_OK);
    VT_ASSERT_STATUS(sc_pool_unsubscribe(&r.p, sub), SC_OK);
    VT_ASSERT_STATUS(sc_pool_cursor_load(&c, saved, len), SC_OK);
    VT_ASSERT_STATUS(sc_pool_disconnected(&r.p, a, r.now), SC_OK);
    VT_ASSERT_STATUS(sc_pool_relay_remove(&r.p, a), SC_OK);
    sc_pool_cursor_clear(&c);
    sc_pool_clear(&r.p);
    counting = 0;
    free(r.mem);
    assert_int_equal(allocs, 0);
    /* the control: the library's one allocating call is seen */
    counting = 1;
    VT_ASSERT_STATUS(sc_ctx_new(&ctx, e->backend), SC_OK);
    counting = 0;
    sc_ctx_free(ctx);
    assert_true(allocs > 0);
}
#else
void alloc_count_start(void)
{
}

long alloc_count_stop(void)
{
    return -1;
}

void test_alloc(void **state)
{
    (void)state;
    print_message("[ SKIP     ] no allocation counter: this toolchain's linker has no --wrap\n");
    skip();
}
#endif
