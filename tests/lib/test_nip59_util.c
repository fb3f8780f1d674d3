/* Helpers shared by the NIP-59 and NIP-17 suites (see test_nip59_util.h). */
#include "test_nip59_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- main --------------------------------------------------------------------------------- */

int gw_main(int argc, char **argv, const char *suite, const struct CMUnitTest *tests,
            size_t n_tests, gw_env *env)
{
    vt_suite s;
    char skipped[160];
    int failed;

    snprintf(skipped, sizeof skipped, "the %s vector files are", suite);
    failed = vt_suite_start(&s, &env->ctx, argc, argv, suite, suite, skipped, NULL, 0);
    if (failed != 0) {
        return failed;
    }
    env->backend = s.backend;
    env->vectors_dir = s.vectors_dir;
    env->vectors_present = s.vectors_present;
    failed = _cmocka_run_group_tests(s.backend, tests, n_tests, NULL, NULL);
    sc_ctx_clear(&env->ctx);
    return failed != 0 ? 1 : 0;
}

/* ---- data --------------------------------------------------------------------------------- */

cJSON *gw_need_upstream(const gw_env *env, const char *rel)
{
    return vt_upstream_json(env->backend, env->vectors_dir, env->vectors_present, rel);
}

void gw_hex32(const char *hex, uint8_t out[32])
{
    vt_bytes b;

    if (hex == NULL || !vt_hex_to_bytes(hex, &b) || b.n != 32) {
        fail_msg("not 64 hex characters: %s", hex != NULL ? hex : "(null)");
    }
    memcpy(out, b.p, 32);
    vt_bytes_free(&b);
}

void gw_json32(const cJSON *obj, const char *key, uint8_t out[32])
{
    const char *s = vt_json_str(obj, key);

    if (s == NULL) {
        fail_msg("field %s missing", key);
    }
    gw_hex32(s, out);
}

void gw_key(gw_env *env, sc_identity *id, uint8_t pub[32], uint8_t seed)
{
    uint8_t sec[32];

    memset(sec, seed, sizeof sec);
    VT_ASSERT_STATUS(sc_identity_import(&env->ctx, id, sec), SC_OK);
    VT_ASSERT_STATUS(sc_identity_pubkey(pub, id), SC_OK);
}

void gw_rumor(gw_env *env, sc_event *ev, void *buf, size_t cap, const uint8_t author[32],
              uint32_t kind, int64_t created_at, const char *content, size_t len,
              const char *const *tags)
{
    sc_event_builder b;
    sc_str items[16];
    size_t n = 0;

    VT_ASSERT_STATUS(sc_event_builder_init(&b, buf, cap), SC_OK);
    sc_event_builder_kind(&b, kind);
    sc_event_builder_created_at(&b, created_at);
    sc_event_builder_content(&b, content, len);
    while (tags != NULL && *tags != NULL) {
        for (n = 0; *tags != NULL; tags++, n++) {
            assert_true(n < 16);
            items[n].ptr = *tags;
            items[n].len = strlen(*tags);
        }
        sc_event_builder_tag(&b, items, n);
        tags++;
    }
    VT_ASSERT_STATUS(sc_event_builder_final(&b, ev, NULL), SC_OK);
    VT_ASSERT_STATUS(sc_nip59_rumor(&env->ctx, ev, author), SC_OK);
}

char *gw_wrap(gw_env *env, const sc_event *rumor, const sc_identity *author,
              const uint8_t recipient[32], const sc_nip59_opts *opts, size_t *len)
{
    size_t need = sc_nip59_wrap_max(rumor, opts), scap = sc_nip59_wrap_scratch_max(rumor, opts);
    char *out = (char *)vt_alloc(need);
    uint8_t *scratch = vt_alloc(scap);

    assert_true(need != 0 && scap != 0);
    *len = 0;
    VT_ASSERT_STATUS(
        sc_nip59_wrap(&env->ctx, out, need, len, scratch, scap, rumor, author, recipient, opts),
        SC_OK);
    assert_true(*len != 0 && *len <= need);
    if (!vt_all_zero(scratch, scap)) {
        fail_msg("the scratch was not wiped");
    }
    free(scratch);
    return out;
}

sc_status gw_unwrap(gw_env *env, const char *json, size_t len, const sc_identity *me,
                    sc_event *rumor, sc_nip59_info *info, uint8_t **arena, size_t *used)
{
    size_t cap = sc_nip59_unwrap_arena_max(len);
    char *copy = (char *)vt_alloc(len);
    uint8_t *a = vt_alloc(cap);
    sc_status st;

    memcpy(copy, json, len);
    memset(a, 0xa5, cap);
    memset(rumor, 0x5a, sizeof *rumor);
    memset(info, 0x5a, sizeof *info);
    *used = 12345;
    st = sc_nip59_unwrap(&env->ctx, rumor, info, a, cap, used, copy, len, me);
    free(copy);
    if (st != SC_OK) {
        if (!vt_all_zero((const uint8_t *)rumor, sizeof *rumor) ||
            !vt_all_zero((const uint8_t *)info, sizeof *info)) {
            fail_msg("%s: rumor or info not zeroed", sc_status_name(st));
        }
        if (st != SC_ERR_BUFFER_TOO_SMALL && *used != 0) {
            fail_msg("%s: arena_used %zu, not 0", sc_status_name(st), *used);
        }
        if (!vt_only_zero_or(a, cap, 0xa5)) {
            fail_msg("%s: the arena still holds bytes the call wrote", sc_status_name(st));
        }
    } else if (*used > cap || !vt_only_zero_or(a + *used, cap - *used, 0xa5)) {
        fail_msg("the arena after the rumor still holds bytes the call wrote");
    }
    *arena = a;
    return st;
}

/* ---- forged layers ------------------------------------------------------------------------ */

char *gw_layer(gw_env *env, const char *inner, size_t inner_len, const sc_identity *signer,
               const uint8_t to[32], uint32_t kind, int64_t created_at, const sc_tag *tags,
               size_t n_tags, unsigned tamper, size_t *len)
{
    size_t plen = sc_nip44_encrypt_len(inner_len), n = 0;
    char *payload = (char *)vt_alloc(plen), *json;
    uint8_t sec[32], ck[32];
    sc_event ev;

    VT_ASSERT_STATUS(sc_identity_seckey(sec, signer), SC_OK);
    VT_ASSERT_STATUS(sc_nip44_conversation_key(&env->ctx, ck, sec, to), SC_OK);
    VT_ASSERT_STATUS(sc_nip44_encrypt(&env->ctx, payload, plen, &n, ck, (const uint8_t *)inner,
                                      inner_len, SC_NIP44_EXTENDED),
                     SC_OK);
    if (tamper & GW_BAD_PAYLOAD) {
        payload[plen / 2] = payload[plen / 2] == 'A' ? 'B' : 'A';
    }
    memset(&ev, 0, sizeof ev);
    ev.kind = kind;
    ev.created_at = created_at;
    ev.tags = tags;
    ev.n_tags = n_tags;
    ev.content.ptr = payload;
    ev.content.len = plen;
    VT_ASSERT_STATUS(sc_event_sign(&env->ctx, &ev, signer), SC_OK);
    if (tamper & GW_BAD_ID) {
        ev.id[5] ^= 0x10;
    }
    if (tamper & GW_BAD_SIG) {
        ev.sig[40] ^= 0x01;
    }
    if (tamper & GW_NO_SIG) {
        ev.flags &= ~(unsigned)SC_EVENT_HAS_SIG;
    }
    *len = sc_event_to_json_len(&ev, SC_EVENT_JSON_OBJECT);
    json = (char *)vt_alloc(*len);
    VT_ASSERT_STATUS(sc_event_to_json(json, *len, &n, &ev, SC_EVENT_JSON_OBJECT), SC_OK);
    free(payload);
    return json;
}

/* ---- the independent opener --------------------------------------------------------------- */

/* Decrypts payload from peer for me into a malloc'd buffer. */
static char *open_payload(gw_env *env, const sc_identity *me, const uint8_t peer[32],
                          const sc_str *payload, size_t *len)
{
    size_t cap = sc_nip44_decrypt_max(payload->len);
    uint8_t sec[32], ck[32], *out = vt_alloc(cap);

    VT_ASSERT_STATUS(sc_identity_seckey(sec, me), SC_OK);
    VT_ASSERT_STATUS(sc_nip44_conversation_key(&env->ctx, ck, sec, peer), SC_OK);
    VT_ASSERT_STATUS(
        sc_nip44_decrypt(&env->ctx, out, cap, len, ck, payload->ptr, payload->len, payload->len),
        SC_OK);
    return (char *)out;
}

/* Parses json into a malloc'd arena of exactly the need. */
static uint8_t *parse_new(sc_event *ev, const char *json, size_t len, unsigned require)
{
    sc_event_parse_opts po;
    size_t need = 0, used = 0;
    uint8_t *arena;
    sc_status st;

    memset(&po, 0, sizeof po);
    po.optional = SC_EVENT_HAS_ALL & ~(unsigned)(require);
    po.max_input = len + 1;
    st = sc_event_parse(ev, NULL, 0, &need, json, len, &po);
    if (st != SC_OK) {
        VT_ASSERT_STATUS(st, SC_ERR_BUFFER_TOO_SMALL); /* OK when nothing needs an arena */
    }
    arena = vt_alloc(need);
    VT_ASSERT_STATUS(sc_event_parse(ev, arena, need, &used, json, len, &po), SC_OK);
    return arena;
}

void gw_open(gw_env *env, const char *json, size_t len, const sc_identity *me, gw_opened *o)
{
    memset(o, 0, sizeof *o);
    o->arena_wrap = parse_new(&o->wrap, json, len, SC_EVENT_SIGNED);
    VT_ASSERT_STATUS(sc_event_verify(&env->ctx, &o->wrap), SC_OK);
    o->seal_json = open_payload(env, me, o->wrap.pubkey, &o->wrap.content, &o->seal_len);
    o->arena_seal = parse_new(&o->seal, o->seal_json, o->seal_len, SC_EVENT_SIGNED);
    VT_ASSERT_STATUS(sc_event_verify(&env->ctx, &o->seal), SC_OK);
    o->rumor_json = open_payload(env, me, o->seal.pubkey, &o->seal.content, &o->rumor_len);
}

void gw_opened_free(gw_opened *o)
{
    free(o->seal_json);
    free(o->rumor_json);
    free(o->arena_wrap);
    free(o->arena_seal);
    memset(o, 0, sizeof *o);
}

int gw_same(const sc_event *a, const sc_event *b, char *why, size_t cap)
{
    if ((a->flags & b->flags & SC_EVENT_HAS_ID) && memcmp(a->id, b->id, 32) != 0) {
        snprintf(why, cap, "ids differ");
        return 0;
    }
    if ((a->flags & b->flags & SC_EVENT_HAS_PUBKEY) && memcmp(a->pubkey, b->pubkey, 32) != 0) {
        snprintf(why, cap, "pubkeys differ");
        return 0;
    }
    return vt_event_same_body(a, b, why, cap);
}

void gw_assert_same(const sc_event *a, const sc_event *b)
{
    char why[200];

    if (!gw_same(a, b, why, sizeof why)) {
        fail_msg("events differ: %s", why);
    }
}

uint8_t *gw_parse(sc_event *ev, const char *json, size_t len)
{
    return parse_new(ev, json, len, SC_EVENT_RUMOR);
}

void gw_payload_nonce(const char *payload, size_t len, uint8_t nonce[32])
{
    size_t cap = sc_base64_decode_max(len), n = 0;
    uint8_t *raw = vt_alloc(cap);

    VT_ASSERT_STATUS(sc_base64_decode(raw, cap, &n, payload, len), SC_OK);
    assert_true(n > 33 && raw[0] == 2);
    memcpy(nonce, raw + 1, 32);
    free(raw);
}

int gw_tag_is(const sc_tag *t, const char *const *items)
{
    size_t n = 0;

    for (; items[n] != NULL; n++) {
        if (n >= t->n_items || t->items[n].len != strlen(items[n]) ||
            memcmp(t->items[n].ptr, items[n], t->items[n].len) != 0) {
            return 0;
        }
    }
    return n == t->n_items;
}

/* ---- the scripted RNG --------------------------------------------------------------------- */

static const sc_backend *rng_real;
static sc_backend rng_table;
static sc_backend_rng rng_group;
static const uint8_t *rng_bytes;
static size_t rng_left, rng_count;
static int rng_failing;

static sc_status rng_fill(sc_bstate *st, uint8_t *out, size_t len)
{
    rng_count++;
    if (rng_failing) {
        return SC_ERR_RNG;
    }
    if (rng_left >= len) {
        memcpy(out, rng_bytes, len);
        rng_bytes += len;
        rng_left -= len;
        return SC_OK;
    }
    return rng_real->rng->fill(st, out, len);
}

void gw_ctx_scripted(gw_env *env, sc_ctx *ctx)
{
    rng_real = sc_ctx_backend(&env->ctx);
    assert_non_null(rng_real);
    rng_table = *rng_real;
    rng_group = *rng_real->rng;
    rng_group.fill = rng_fill;
    rng_table.rng = &rng_group;
    rng_bytes = NULL;
    rng_left = 0;
    rng_failing = 0;
    VT_ASSERT_STATUS(sc_ctx_init_table(ctx, &rng_table), SC_OK);
    rng_count = 0;
}

void gw_rng_script(const uint8_t *bytes, size_t n)
{
    rng_bytes = bytes;
    rng_left = n;
}

void gw_rng_fail(int on)
{
    rng_failing = on;
}

size_t gw_rng_calls(void)
{
    return rng_count;
}
