/* Sizes and buffers: the size functions against the real needs, SC_ERR_BUFFER_TOO_SMALL
 * semantics of wrap and unwrap, the u16 policy boundary, and sc_nip59_unwrap_arena_max
 * against the densest layers that can be built (rumor, seal or wrap made of empty tags). Every
 * buffer is an exact-size heap block, so ASan and valgrind catch a write past a need. */
#include "test_nip59.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NOW 1750000000

/* A kind 14 rumor with `clen` bytes of ASCII content into a malloc'd *buf. */
static void ascii_rumor(gw_env *env, sc_event *ev, uint8_t **buf, const uint8_t author[32],
                        size_t clen)
{
    char *content = (char *)vt_alloc(clen);

    memset(content, 'q', clen);
    *buf = vt_alloc(clen + 64);
    gw_rumor(env, ev, *buf, clen + 64, author, 14, 1700000000, content, clen, NULL);
    free(content);
}

/* Fixed randomness: the timestamps keep the width of NOW, so the size functions are exact. */
static void fixed_rand(sc_nip59_rand *rnd)
{
    memset(rnd, 0, sizeof *rnd);
    memset(rnd->wrap_seckey, 0x27, 32);
    memset(rnd->seal_nonce, 0x01, 32);
    memset(rnd->wrap_nonce, 0x02, 32);
    rnd->seal_backdate = 12345;
    rnd->wrap_backdate = SC_NIP59_MAX_BACKDATE;
}

/* Whether p[0..n) all equal c. */
static int all_are(const uint8_t *p, size_t n, uint8_t c)
{
    size_t i;

    for (i = 0; i < n; i++) {
        if (p[i] != c) {
            return 0;
        }
    }
    return 1;
}

/* wrap_with at exact capacities, and one byte short of each. */
static int exact_case(gw_env *env, const sc_event *rumor, const sc_identity *author,
                      const uint8_t *rpub, const sc_nip59_opts *opts, char *err, size_t cap)
{
    size_t need = sc_nip59_wrap_max(rumor, opts), scap = sc_nip59_wrap_scratch_max(rumor, opts);
    char *out = (char *)vt_alloc(need);
    uint8_t *scratch = vt_alloc(scap);
    size_t len = 0;
    sc_nip59_rand rnd;
    sc_status st;
    int ok = 0;

    fixed_rand(&rnd);
    memset(out, 0xee, need);
    memset(scratch, 0xee, scap);
    if ((st = sc_nip59_wrap_with_rand(&env->ctx, out, need, &len, scratch, scap - 1, rumor, author,
                                      rpub, opts, &rnd)) != SC_ERR_BUFFER_TOO_SMALL ||
        len != need) {
        snprintf(err, cap, "scratch one short: %s, out_len %zu (need %zu)", sc_status_name(st), len,
                 need);
    } else if ((st = sc_nip59_wrap_with_rand(&env->ctx, out, need - 1, &len, scratch, scap, rumor,
                                             author, rpub, opts, &rnd)) !=
                   SC_ERR_BUFFER_TOO_SMALL ||
               len != need) {
        snprintf(err, cap, "out one short: %s, out_len %zu (need %zu)", sc_status_name(st), len,
                 need);
    } else if (!all_are((uint8_t *)out, need, 0xee) || !all_are(scratch, scap, 0xee)) {
        snprintf(err, cap, "a refused call wrote to out or scratch");
    } else if ((st = sc_nip59_wrap_with_rand(&env->ctx, out, need, &len, scratch, scap, rumor,
                                             author, rpub, opts, &rnd)) != SC_OK ||
               len != need) {
        snprintf(err, cap, "exact capacities: %s, %zu bytes of %zu", sc_status_name(st), len, need);
    } else if (!vt_all_zero(scratch, scap)) {
        snprintf(err, cap, "the scratch was not wiped");
    } else {
        ok = 1;
    }
    free(out);
    free(scratch);
    return ok;
}

void test_sizes_exact(void **state)
{
    static const size_t lens[] = {0,    1,    31,    32,    33,    200,   1000, 4000,
                                  8000, 9000, 16000, 20000, 32000, 33000, 40000};
    gw_env *env = gw_env_of(state);
    uint8_t apub[32], rpub[32], *buf;
    sc_identity author, recipient;
    sc_nip59_opts opts;
    sc_event rumor;
    size_t i, k;
    char err[300];
    vt_report r;

    gw_key(env, &author, apub, 0x61);
    gw_key(env, &recipient, rpub, 0x62);
    vt_report_init(&r, env->backend, "own: exact wrap capacities");
    for (i = 0; i < sizeof lens / sizeof lens[0]; i++) {
        ascii_rumor(env, &rumor, &buf, apub, lens[i]);
        for (k = 0; k < 3; k++) {
            memset(&opts, 0, sizeof opts);
            opts.now = NOW;
            if (k >= 1) {
                opts.relay.ptr = "wss://relay.example";
                opts.relay.len = 19;
                opts.flags = (opts.flags & ~SC_NIP59_EPHEMERAL) | ((1) ? SC_NIP59_EPHEMERAL : 0u);
            }
            if (k == 2) {
                opts.expiration = 99999999999;
            }
            if (!exact_case(env, &rumor, &author, rpub, &opts, err, sizeof err)) {
                vt_case_fail(&r, "content %zu, options %zu: %s", lens[i], k, err);
            } else {
                vt_case_pass(&r);
            }
        }
        free(buf);
    }
    /* with the clock (now = 0) the size functions bound every timestamp by INT64_MAX */
    ascii_rumor(env, &rumor, &buf, apub, 100);
    memset(&opts, 0, sizeof opts);
    assert_true(sc_nip59_wrap_max(&rumor, &opts) >= sc_nip59_wrap_max(&rumor, NULL));
    opts.now = NOW;
    assert_int_equal(sc_nip59_wrap_max(&rumor, NULL) - sc_nip59_wrap_max(&rumor, &opts), 9);
    assert_true(sc_nip59_wrap_scratch_max(&rumor, NULL) >=
                sc_nip59_wrap_scratch_max(&rumor, &opts) + 9);
    /* invalid rumors or options have no size */
    opts.flags = 2u;
    assert_int_equal(sc_nip59_wrap_max(&rumor, &opts), 0);
    assert_int_equal(sc_nip59_wrap_scratch_max(&rumor, &opts), 0);
    opts.flags = 0;
    opts.relay.ptr = "\xff";
    opts.relay.len = 1;
    assert_int_equal(sc_nip59_wrap_max(&rumor, &opts), 0);
    rumor.flags |= SC_EVENT_HAS_SIG;
    assert_int_equal(sc_nip59_wrap_max(&rumor, NULL), 0);
    assert_int_equal(sc_nip59_wrap_scratch_max(&rumor, NULL), 0);
    free(buf);
    sc_identity_clear(&author);
    sc_identity_clear(&recipient);
    vt_report_finish(&r, 3 * sizeof lens / sizeof lens[0]);
}

void test_policy_boundary(void **state)
{
    gw_env *env = gw_env_of(state);
    uint8_t apub[32], rpub[32], *buf, *arena = NULL;
    size_t base, len = 0, used, need, scap;
    sc_identity author, recipient;
    sc_nip59_opts opts;
    sc_nip59_info info;
    sc_event rumor, got;
    char *w, *out;
    uint8_t *scratch;

    gw_key(env, &author, apub, 0x71);
    gw_key(env, &recipient, rpub, 0x72);
    ascii_rumor(env, &rumor, &buf, apub, 0);
    base = sc_event_to_json_len(&rumor, SC_EVENT_JSON_OBJECT);
    free(buf);
    memset(&opts, 0, sizeof opts);
    opts.now = NOW;
    opts.expiration = 9999999999; /* the largest seal the default path can meet */

    /* a 40960-byte rumor JSON is the largest whose seal JSON stays below 65536 bytes */
    ascii_rumor(env, &rumor, &buf, apub, 40960 - base);
    assert_int_equal(sc_event_to_json_len(&rumor, SC_EVENT_JSON_OBJECT), 40960);
    w = gw_wrap(env, &rumor, &author, rpub, &opts, &len);
    VT_ASSERT_STATUS(gw_unwrap(env, w, len, &recipient, &got, &info, &arena, &used), SC_OK);
    gw_assert_same(&got, &rumor);
    free(arena);
    free(w);
    free(buf);

    /* one byte more: refused, whatever the buffers */
    ascii_rumor(env, &rumor, &buf, apub, 40961 - base);
    need = sc_nip59_wrap_max(&rumor, &opts);
    scap = sc_nip59_wrap_scratch_max(&rumor, &opts);
    out = (char *)vt_alloc(need);
    scratch = vt_alloc(scap);
    VT_ASSERT_STATUS(
        sc_nip59_wrap(&env->ctx, out, need, &len, scratch, scap, &rumor, &author, rpub, &opts),
        SC_ERR_POLICY);
    VT_ASSERT_STATUS(
        sc_nip59_wrap(&env->ctx, out, 10, &len, scratch, 10, &rumor, &author, rpub, &opts),
        SC_ERR_POLICY);
    assert_true(vt_all_zero(scratch, scap));
    opts.flags = (opts.flags & ~SC_NIP44_EXTENDED) | ((1) ? SC_NIP44_EXTENDED : 0u);
    free(out);
    free(scratch);
    w = gw_wrap(env, &rumor, &author, rpub, &opts, &len);
    VT_ASSERT_STATUS(gw_unwrap(env, w, len, &recipient, &got, &info, &arena, &used), SC_OK);
    gw_assert_same(&got, &rumor);
    free(arena);
    free(w);
    free(buf);
    sc_identity_clear(&author);
    sc_identity_clear(&recipient);
}

/* Unwraps json into an exact-size arena of `cap` bytes at offset `off` of a heap block. */
static sc_status unwrap_cap(gw_env *env, const char *json, size_t len, const sc_identity *me,
                            size_t cap, size_t off, size_t *used, sc_event *got)
{
    uint8_t *block = vt_alloc(cap + off);
    char *copy = (char *)vt_alloc(len);
    sc_status st;

    memcpy(copy, json, len);
    st = sc_nip59_unwrap(&env->ctx, got, NULL, cap != 0 ? block + off : NULL, cap, used, copy, len,
                         me);
    free(copy);
    free(block);
    return st;
}

/* The smallest arena that unwraps json at a 16-aligned address (a binary search: every
 * step's regions only grow with the capacity's shortfall). */
static size_t min_arena(gw_env *env, const char *json, size_t len, const sc_identity *me)
{
    size_t lo = 0, hi = sc_nip59_unwrap_arena_max(len), used = 0;
    sc_event got;

    VT_ASSERT_STATUS(unwrap_cap(env, json, len, me, hi, 0, &used, &got), SC_OK);
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;

        if (unwrap_cap(env, json, len, me, mid, 0, &used, &got) == SC_OK) {
            hi = mid;
        } else {
            lo = mid + 1;
        }
    }
    return hi;
}

/* A rumor of n empty one-item tags: 5 bytes of JSON per tag, 32 bytes of arena per tag. */
static void dense_rumor(gw_env *env, sc_event *ev, uint8_t **buf, const uint8_t author[32],
                        size_t n)
{
    size_t cap = 64 + n * (sizeof(sc_tag) + sizeof(sc_str) + 8), i;
    sc_event_builder b;
    sc_str empty = {"", 0};

    *buf = vt_alloc(cap);
    VT_ASSERT_STATUS(sc_event_builder_init(&b, *buf, cap), SC_OK);
    sc_event_builder_kind(&b, 14);
    for (i = 0; i < n; i++) {
        sc_event_builder_tag(&b, &empty, 1);
    }
    VT_ASSERT_STATUS(sc_event_builder_final(&b, ev, NULL), SC_OK);
    VT_ASSERT_STATUS(sc_nip59_rumor(&env->ctx, ev, author), SC_OK);
}

/* n empty one-item tags for a forged layer (malloc'd). */
static sc_tag *empty_tags(size_t n)
{
    static const sc_str empty = {"", 0};
    sc_tag *t = (sc_tag *)vt_alloc(n * sizeof *t);
    size_t i;

    for (i = 0; i < n; i++) {
        t[i].items = &empty;
        t[i].n_items = 1;
    }
    return t;
}

void test_arena_bound_dense(void **state)
{
    gw_env *env = gw_env_of(state);
    uint8_t apub[32], rpub[32], opub[32], *buf, *arena = NULL;
    sc_identity author, recipient, one;
    size_t len, slen, used, off, rlen, n_min;
    sc_nip59_opts opts;
    sc_nip59_info info;
    sc_event rumor, got;
    char *w, *seal, *rjson, why[200];
    sc_tag *many;
    vt_report r;

    gw_key(env, &author, apub, 0x13);
    gw_key(env, &recipient, rpub, 0x14);
    gw_key(env, &one, opub, 0x15);
    vt_report_init(&r, env->backend, "own: arena bound against dense layers");
    memset(&opts, 0, sizeof opts);
    opts.now = NOW;

    /* a rumor of 8000 empty tags (40 KB of JSON) via the library's wrap, at every alignment */
    dense_rumor(env, &rumor, &buf, apub, 8000);
    w = gw_wrap(env, &rumor, &author, rpub, &opts, &len);
    for (off = 0; off < 8; off++) {
        size_t cap = sc_nip59_unwrap_arena_max(len);

        if (unwrap_cap(env, w, len, &recipient, cap, off, &used, &got) != SC_OK) {
            vt_case_fail(&r, "dense rumor, arena offset %zu: the bound is too small", off);
        } else {
            vt_case_pass(&r);
        }
    }
    n_min = min_arena(env, w, len, &recipient);
    printf("[%s] dense rumor: wrap %zu bytes, bound %zu, least arena %zu\n", env->backend, len,
           sc_nip59_unwrap_arena_max(len), n_min);
    free(w);

    /* the same rumor sealed and wrapped by hand, with 30000 empty tags on the seal and 60000
     * on the wrap: the outer layers dominate the arena */
    rlen = sc_event_to_json_len(&rumor, SC_EVENT_JSON_OBJECT);
    rjson = (char *)vt_alloc(rlen);
    VT_ASSERT_STATUS(sc_event_to_json(rjson, rlen, &used, &rumor, SC_EVENT_JSON_OBJECT), SC_OK);
    many = empty_tags(60000);
    seal = gw_layer(env, rjson, rlen, &author, rpub, 13, NOW, many, 30000, 0, &slen);
    w = gw_layer(env, seal, slen, &one, rpub, 1059, NOW, many, 60000, 0, &len);
    if (gw_unwrap(env, w, len, &recipient, &got, &info, &arena, &used) != SC_OK ||
        !gw_same(&got, &rumor, why, sizeof why)) {
        vt_case_fail(&r, "dense seal and wrap: not opened with the bound");
    } else {
        vt_case_pass(&r);
    }
    free(arena);
    free(w);
    /* a wrap made only of tags around a small seal whose "rumor" is {}: every layer fits and
     * the check reached is the rumor's */
    free(seal);
    seal = gw_layer(env, "{}", 2, &author, rpub, 13, NOW, NULL, 0, 0, &slen);
    w = gw_layer(env, seal, slen, &one, rpub, 1059, NOW, many, 60000, 0, &len);
    if (gw_unwrap(env, w, len, &recipient, &got, &info, &arena, &used) != SC_ERR_RUMOR_JSON) {
        vt_case_fail(&r, "tags-only wrap: not opened with the bound");
    } else {
        vt_case_pass(&r);
    }
    free(arena);
    free(w);
    free(seal);
    free(many);
    free(rjson);
    free(buf);

    /* an extended-prefix rumor of 60000 empty tags */
    dense_rumor(env, &rumor, &buf, apub, 60000);
    opts.flags = (opts.flags & ~SC_NIP44_EXTENDED) | ((1) ? SC_NIP44_EXTENDED : 0u);
    w = gw_wrap(env, &rumor, &author, rpub, &opts, &len);
    if (gw_unwrap(env, w, len, &recipient, &got, &info, &arena, &used) != SC_OK ||
        got.n_tags != 60000) {
        vt_case_fail(&r, "dense extended rumor: not opened with the bound");
    } else {
        vt_case_pass(&r);
    }
    free(arena);
    free(w);
    free(buf);
    sc_identity_clear(&author);
    sc_identity_clear(&recipient);
    sc_identity_clear(&one);
    vt_report_finish(&r, 11);
}

void test_arena_need(void **state)
{
    gw_env *env = gw_env_of(state);
    uint8_t apub[32], rpub[32], *buf, *block;
    sc_identity author, recipient;
    size_t len, used = 1, n_min, bound;
    sc_nip59_opts opts;
    sc_event rumor, got;
    char *w;

    gw_key(env, &author, apub, 0x23);
    gw_key(env, &recipient, rpub, 0x24);
    memset(&opts, 0, sizeof opts);
    opts.now = NOW;

    /* an ordinary message: asking with no arena gives the bound, and the bound works */
    ascii_rumor(env, &rumor, &buf, apub, 300);
    w = gw_wrap(env, &rumor, &author, rpub, &opts, &len);
    bound = sc_nip59_unwrap_arena_max(len);
    VT_ASSERT_STATUS(sc_nip59_unwrap(&env->ctx, &got, NULL, NULL, 0, &used, w, len, &recipient),
                     SC_ERR_BUFFER_TOO_SMALL);
    assert_int_equal(used, bound);
    VT_ASSERT_STATUS(unwrap_cap(env, w, len, &recipient, 16, 0, &used, &got),
                     SC_ERR_BUFFER_TOO_SMALL);
    assert_int_equal(used, bound);
    /* the least arena works and one byte less does not; what is reported then suffices */
    n_min = min_arena(env, w, len, &recipient);
    assert_true(n_min <= bound);
    VT_ASSERT_STATUS(unwrap_cap(env, w, len, &recipient, n_min - 1, 0, &used, &got),
                     SC_ERR_BUFFER_TOO_SMALL);
    assert_true(used >= n_min);
    VT_ASSERT_STATUS(unwrap_cap(env, w, len, &recipient, used, 0, &used, &got), SC_OK);
    free(w);
    free(buf);

    /* a rumor whose own parse dominates: the need reported is exact */
    dense_rumor(env, &rumor, &buf, apub, 6000);
    w = gw_wrap(env, &rumor, &author, rpub, &opts, &len);
    n_min = min_arena(env, w, len, &recipient);
    VT_ASSERT_STATUS(unwrap_cap(env, w, len, &recipient, n_min - 1, 0, &used, &got),
                     SC_ERR_BUFFER_TOO_SMALL);
    assert_int_equal(used, n_min);
    /* and on success the rumor is all that is used */
    VT_ASSERT_STATUS(unwrap_cap(env, w, len, &recipient, n_min, 0, &used, &got), SC_OK);
    assert_true(used < n_min);
    assert_true(used >= 6000 * (sizeof(sc_tag) + sizeof(sc_str)));

    /* the arena may not overlap the wrap text; right after it (any alignment) is fine */
    bound = sc_nip59_unwrap_arena_max(len);
    block = vt_alloc(len + bound);
    memcpy(block, w, len);
    VT_ASSERT_STATUS(sc_nip59_unwrap(&env->ctx, &got, NULL, block + len / 2, bound, &used,
                                     (const char *)block, len, &recipient),
                     SC_ERR_ARG);
    VT_ASSERT_STATUS(sc_nip59_unwrap(&env->ctx, &got, NULL, block + len, bound, &used,
                                     (const char *)block, len, &recipient),
                     SC_OK);
    free(block);
    free(w);
    free(buf);
    sc_identity_clear(&author);
    sc_identity_clear(&recipient);
}
