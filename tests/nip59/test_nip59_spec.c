/* nip59.spec-example.json: the worked example of 59.md (rumor kind 1 -> seal -> gift wrap),
 * with the recovered seal and rumor plaintexts and both conversation keys.
 *
 * The example gives the one-time key and the timestamps, and the NIP-44 nonces can be read out
 * of its payloads, but not the BIP-340 aux values, and its rumor and seal JSON use another key
 * order than sc_event_to_json: a byte-identical rebuild is impossible. So the rebuild compares
 * layer by layer: NIP-44 reproduces both published payloads exactly from the published
 * plaintexts, and sc_nip59_wrap_with_rand given the example's key, nonces and times produces a wrap
 * whose every comparable field (one-time pubkey, timestamps, kinds, tags, nonces, rumor)
 * equals the example's. */
#include "test_nip59.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define LBL(x) N59_FILE " " x

/* The example's parts as JSON text (cJSON keeps the file's key order), malloc'd. */
static char *part_text(const cJSON *root, const char *key, size_t *len)
{
    char *s = cJSON_PrintUnformatted(cJSON_GetObjectItemCaseSensitive(root, key));

    if (s == NULL) {
        fail_msg("%s has no %s", N59_FILE, key);
    }
    *len = strlen(s);
    return s;
}

static const cJSON *keys_of(const cJSON *root)
{
    const cJSON *k = cJSON_GetObjectItemCaseSensitive(root, "keys");

    if (k == NULL) {
        fail_msg("%s has no keys", N59_FILE);
    }
    return k;
}

static long field_long(const cJSON *obj, const char *key)
{
    long v = 0;

    if (!vt_json_long(obj, key, &v)) {
        fail_msg("field %s missing", key);
    }
    return v;
}

void test_spec_unwrap(void **state)
{
    gw_env *env = gw_env_of(state);
    cJSON *root = gw_need_upstream(env, N59_FILE);
    const cJSON *keys = keys_of(root);
    const cJSON *wrap = cJSON_GetObjectItemCaseSensitive(root, "wrap");
    const cJSON *seal = cJSON_GetObjectItemCaseSensitive(root, "seal");
    uint8_t sec[32], pub[32], want[32], *arena = NULL, *spec_arena, *plain_arena;
    size_t wlen, rlen, used = 0;
    char *wtext = part_text(root, "wrap", &wlen), *rtext = part_text(root, "rumor", &rlen);
    const char *plain = vt_json_str(root, "rumor_plaintext");
    sc_event rumor, spec, spec_plain;
    sc_nip59_info info;
    sc_identity me;
    vt_report r;

    vt_report_init(&r, env->backend, LBL("unwrap"));
    assert_non_null(plain);
    spec_arena = gw_parse(&spec, rtext, rlen);
    plain_arena = gw_parse(&spec_plain, plain, strlen(plain));

    /* with the recipient's key: every layer verifies and the rumor is the example's */
    gw_json32(keys, "recipient_sec", sec);
    VT_ASSERT_STATUS(sc_identity_import(&env->ctx, &me, sec), SC_OK);
    VT_ASSERT_STATUS(gw_unwrap(env, wtext, wlen, &me, &rumor, &info, &arena, &used), SC_OK);
    gw_assert_same(&rumor, &spec);
    gw_assert_same(&rumor, &spec_plain);
    assert_int_equal(rumor.flags, SC_EVENT_RUMOR);
    gw_json32(keys, "author_pub", want);
    assert_memory_equal(info.sender, want, 32);
    assert_memory_equal(rumor.pubkey, want, 32);
    gw_json32(keys, "ephemeral_pub", want);
    assert_memory_equal(info.wrap_pubkey, want, 32);
    gw_json32(wrap, "id", want);
    assert_memory_equal(info.wrap_id, want, 32);
    gw_json32(seal, "id", want);
    assert_memory_equal(info.seal_id, want, 32);
    assert_int_equal(info.wrap_kind, 1059);
    assert_int_equal(info.wrap_created_at, field_long(wrap, "created_at"));
    assert_int_equal(info.seal_created_at, field_long(seal, "created_at"));
    sc_mem_wipe(arena, used);
    free(arena);
    vt_case_pass(&r);

    /* with the author's key (not the recipient): refused at the first decryption */
    gw_json32(keys, "author_sec", sec);
    VT_ASSERT_STATUS(sc_identity_import(&env->ctx, &me, sec), SC_OK);
    VT_ASSERT_STATUS(gw_unwrap(env, wtext, wlen, &me, &rumor, &info, &arena, &used),
                     SC_ERR_WRAP_DECRYPT);
    free(arena);
    vt_case_pass(&r);

    /* the recipient named by the p tag is the recipient key's public key */
    gw_json32(keys, "recipient_sec", sec);
    VT_ASSERT_STATUS(sc_identity_import(&env->ctx, &me, sec), SC_OK);
    VT_ASSERT_STATUS(sc_identity_pubkey(pub, &me), SC_OK);
    gw_json32(keys, "recipient_pub", want);
    assert_memory_equal(pub, want, 32);
    vt_case_pass(&r);

    sc_identity_clear(&me);
    free(spec_arena);
    free(plain_arena);
    free(wtext);
    free(rtext);
    cJSON_Delete(root);
    snprintf(r.detail, sizeof r.detail, "recipient opens all layers, author refused, p key");
    vt_report_finish(&r, 3);
}

void test_spec_conversation_keys(void **state)
{
    static const char *const pairs[][3] = {
        {"author_sec", "recipient_pub", "seal_author_recipient"},
        {"recipient_sec", "author_pub", "seal_author_recipient"},
        {"ephemeral_sec", "recipient_pub", "wrap_ephemeral_recipient"},
        {"recipient_sec", "ephemeral_pub", "wrap_ephemeral_recipient"},
    };
    static const char *const own[][2] = {
        {"author_sec", "author_pub"},
        {"recipient_sec", "recipient_pub"},
        {"ephemeral_sec", "ephemeral_pub"},
    };
    gw_env *env = gw_env_of(state);
    cJSON *root = gw_need_upstream(env, N59_FILE);
    const cJSON *keys = keys_of(root);
    const cJSON *convs = cJSON_GetObjectItemCaseSensitive(root, "conversation_keys");
    uint8_t sec[32], pub[32], want[32], got[32];
    sc_identity id;
    vt_report r;
    size_t i;

    vt_report_init(&r, env->backend, LBL("keys and conversation keys"));
    for (i = 0; i < sizeof own / sizeof own[0]; i++) {
        gw_json32(keys, own[i][0], sec);
        gw_json32(keys, own[i][1], want);
        if (sc_identity_import(&env->ctx, &id, sec) != SC_OK ||
            sc_identity_pubkey(pub, &id) != SC_OK || memcmp(pub, want, 32) != 0) {
            vt_case_fail(&r, "%s does not give %s", own[i][0], own[i][1]);
        } else {
            vt_case_pass(&r);
        }
        sc_identity_clear(&id);
    }
    for (i = 0; i < sizeof pairs / sizeof pairs[0]; i++) {
        gw_json32(keys, pairs[i][0], sec);
        gw_json32(keys, pairs[i][1], pub);
        gw_json32(convs, pairs[i][2], want);
        if (sc_nip44_conversation_key(&env->ctx, got, sec, pub) != SC_OK ||
            memcmp(got, want, 32) != 0) {
            vt_case_fail(&r, "conv(%s, %s) is not %s", pairs[i][0], pairs[i][1], pairs[i][2]);
        } else {
            vt_case_pass(&r);
        }
    }
    cJSON_Delete(root);
    vt_report_finish(&r, 7);
}

/* NIP-44 of the published plaintext under the published conversation key, with the nonce
 * read out of the published payload, must be that payload; and it must decrypt back. */
static int layer_case(gw_env *env, const cJSON *root, const char *layer, const char *plain_key,
                      const char *ck_key, char *err, size_t cap)
{
    const cJSON *obj = cJSON_GetObjectItemCaseSensitive(root, layer);
    const char *payload = vt_json_str(obj, "content"), *plain = vt_json_str(root, plain_key);
    uint8_t ck[32], nonce[32], *dec;
    size_t plen, len, n = 0, dlen = 0;
    char *out;
    int ok;

    if (payload == NULL || plain == NULL) {
        snprintf(err, cap, "%s: content or %s missing", layer, plain_key);
        return 0;
    }
    plen = strlen(payload);
    len = strlen(plain);
    gw_json32(cJSON_GetObjectItemCaseSensitive(root, "conversation_keys"), ck_key, ck);
    gw_payload_nonce(payload, plen, nonce);
    out = (char *)vt_alloc(plen);
    dec = vt_alloc(sc_nip44_decrypt_max(plen));
    ok = sc_nip44_encrypt_with_rand(&env->ctx, out, plen, &n, ck, nonce, (const uint8_t *)plain,
                                    len, 0) == SC_OK &&
         n == plen && memcmp(out, payload, plen) == 0;
    if (!ok) {
        snprintf(err, cap, "%s: NIP-44 of %s differs from the published content", layer, plain_key);
    } else if (sc_nip44_decrypt(&env->ctx, dec, sc_nip44_decrypt_max(plen), &dlen, ck, payload,
                                plen, 0) != SC_OK ||
               dlen != len || memcmp(dec, plain, len) != 0) {
        snprintf(err, cap, "%s: the published content does not decrypt to %s", layer, plain_key);
        ok = 0;
    }
    free(out);
    free(dec);
    return ok;
}

void test_spec_layers(void **state)
{
    gw_env *env = gw_env_of(state);
    cJSON *root = gw_need_upstream(env, N59_FILE);
    char err[300];
    vt_report r;

    vt_report_init(&r, env->backend, LBL("NIP-44 layers reproduced"));
    if (!layer_case(env, root, "seal", "rumor_plaintext", "seal_author_recipient", err,
                    sizeof err)) {
        vt_case_fail(&r, "%s", err);
    } else {
        vt_case_pass(&r);
    }
    if (!layer_case(env, root, "wrap", "seal_plaintext", "wrap_ephemeral_recipient", err,
                    sizeof err)) {
        vt_case_fail(&r, "%s", err);
    } else {
        vt_case_pass(&r);
    }
    cJSON_Delete(root);
    snprintf(r.detail, sizeof r.detail, "seal and wrap content, byte for byte");
    vt_report_finish(&r, 2);
}

/* The example's rumor as an sc_event (views into *arena). */
static void spec_rumor(const cJSON *root, sc_event *ev, uint8_t **arena)
{
    size_t len;
    char *text = part_text(root, "rumor", &len);

    *arena = gw_parse(ev, text, len);
    free(text);
}

/* Whether a and b have the same tags. */
static int same_tags(const sc_event *a, const sc_event *b)
{
    sc_event x, y;
    char why[100];

    memset(&x, 0, sizeof x);
    memset(&y, 0, sizeof y);
    x.tags = a->tags;
    x.n_tags = a->n_tags;
    y.tags = b->tags;
    y.n_tags = b->n_tags;
    return gw_same(&x, &y, why, sizeof why);
}

void test_spec_rebuild(void **state)
{
    gw_env *env = gw_env_of(state);
    cJSON *root = gw_need_upstream(env, N59_FILE);
    const cJSON *keys = keys_of(root);
    const cJSON *wrap = cJSON_GetObjectItemCaseSensitive(root, "wrap");
    const cJSON *seal = cJSON_GetObjectItemCaseSensitive(root, "seal");
    const char *wc = vt_json_str(wrap, "content"), *sc = vt_json_str(seal, "content");
    uint8_t sec[32], recipient[32], want[32], nonce[32], *rumor_arena, *arena = NULL;
    size_t out_len = 0, again_len = 0, used = 0, cap, scap, spec_len;
    char *out, *again, *spec_text;
    sc_identity author, me;
    sc_event rumor, got, spec_wrap;
    sc_nip59_opts opts;
    sc_nip59_rand rnd;
    sc_nip59_info info;
    uint8_t *scratch, *spec_arena;
    gw_opened o;
    vt_report r;
    char why[200];

    vt_report_init(&r, env->backend, LBL("rebuild with wrap_with"));
    assert_non_null(wc);
    assert_non_null(sc);
    spec_rumor(root, &rumor, &rumor_arena);
    spec_text = part_text(root, "wrap", &spec_len);
    spec_arena = gw_parse(&spec_wrap, spec_text, spec_len);
    gw_json32(keys, "author_sec", sec);
    VT_ASSERT_STATUS(sc_identity_import(&env->ctx, &author, sec), SC_OK);
    gw_json32(keys, "recipient_sec", sec);
    VT_ASSERT_STATUS(sc_identity_import(&env->ctx, &me, sec), SC_OK);
    gw_json32(keys, "recipient_pub", recipient);

    memset(&opts, 0, sizeof opts);
    memset(&rnd, 0, sizeof rnd);
    opts.now = field_long(wrap, "created_at");
    gw_json32(keys, "ephemeral_sec", rnd.wrap_seckey);
    gw_payload_nonce(sc, strlen(sc), rnd.seal_nonce);
    gw_payload_nonce(wc, strlen(wc), rnd.wrap_nonce);
    rnd.seal_backdate = (uint32_t)(opts.now - field_long(seal, "created_at"));
    rnd.wrap_backdate = 0;

    cap = sc_nip59_wrap_max(&rumor, &opts);
    scap = sc_nip59_wrap_scratch_max(&rumor, &opts);
    out = (char *)vt_alloc(cap);
    again = (char *)vt_alloc(cap);
    scratch = vt_alloc(scap);
    VT_ASSERT_STATUS(sc_nip59_wrap_with_rand(&env->ctx, out, cap, &out_len, scratch, scap, &rumor,
                                             &author, recipient, &opts, &rnd),
                     SC_OK);
    assert_true(vt_all_zero(scratch, scap));

    /* the wrap: one-time key, time, kind and tags as published; the content carries the
     * example's nonce */
    gw_open(env, out, out_len, &me, &o);
    gw_json32(keys, "ephemeral_pub", want);
    if (memcmp(o.wrap.pubkey, want, 32) != 0 || o.wrap.created_at != spec_wrap.created_at ||
        o.wrap.kind != spec_wrap.kind || !same_tags(&o.wrap, &spec_wrap)) {
        vt_case_fail(&r, "wrap pubkey, created_at, kind or tags differ from the example");
    } else {
        vt_case_pass(&r);
    }
    gw_payload_nonce(o.wrap.content.ptr, o.wrap.content.len, nonce);
    if (memcmp(nonce, rnd.wrap_nonce, 32) != 0) {
        vt_case_fail(&r, "the wrap content does not use the example's nonce");
    } else {
        vt_case_pass(&r);
    }

    /* the seal: author, time, kind 13, tags [] as published, the example's nonce */
    gw_json32(keys, "author_pub", want);
    gw_payload_nonce(o.seal.content.ptr, o.seal.content.len, nonce);
    if (memcmp(o.seal.pubkey, want, 32) != 0 ||
        o.seal.created_at != field_long(seal, "created_at") || o.seal.kind != 13 ||
        o.seal.n_tags != 0 || memcmp(nonce, rnd.seal_nonce, 32) != 0) {
        vt_case_fail(&r, "seal pubkey, created_at, kind, tags or nonce differ from the example");
    } else {
        vt_case_pass(&r);
    }

    /* the rumor inside: the example's event (its JSON differs only in key order) */
    {
        uint8_t *a = gw_parse(&got, o.rumor_json, o.rumor_len);

        if (!gw_same(&got, &rumor, why, sizeof why) || got.flags != SC_EVENT_RUMOR) {
            vt_case_fail(&r, "the sealed rumor differs: %s", why);
        } else {
            vt_case_pass(&r);
        }
        free(a);
    }
    gw_opened_free(&o);

    /* sc_nip59_unwrap opens it; wrap_with is deterministic */
    VT_ASSERT_STATUS(gw_unwrap(env, out, out_len, &me, &got, &info, &arena, &used), SC_OK);
    VT_ASSERT_STATUS(sc_nip59_wrap_with_rand(&env->ctx, again, cap, &again_len, scratch, scap,
                                             &rumor, &author, recipient, &opts, &rnd),
                     SC_OK);
    if (!gw_same(&got, &rumor, why, sizeof why) || again_len != out_len ||
        memcmp(again, out, out_len) != 0 ||
        info.seal_created_at != field_long(seal, "created_at")) {
        vt_case_fail(&r, "unwrap of the rebuild, or a second identical rebuild, failed");
    } else {
        vt_case_pass(&r);
    }
    free(arena);
    sc_identity_clear(&author);
    sc_identity_clear(&me);
    free(out);
    free(again);
    free(scratch);
    free(rumor_arena);
    free(spec_arena);
    free(spec_text);
    cJSON_Delete(root);
    snprintf(r.detail, sizeof r.detail,
             "layer by layer: the example has no BIP-340 aux and another key order");
    vt_report_finish(&r, 5);
}
