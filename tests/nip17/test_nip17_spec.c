/* nip17.spec-example.json: the "Hola, que tal?" example of 17.md, published as a gift wrap to
 * the receiver and one to the sender; and nip17.kind15-aesgcm.json: kind 15 attachment tags
 * with the blobs they describe. */
#include "test_nip17.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define LBL(f, x) f " " x

/* JSON text of obj (cJSON keeps the file's key order), malloc'd. */
static char *text_of(const cJSON *obj, size_t *len)
{
    char *s = cJSON_PrintUnformatted(obj);

    if (s == NULL) {
        fail_msg("cannot print a part of the vector file");
    }
    *len = strlen(s);
    return s;
}

/* One published wrap: opened by its p-tagged party with sc_nip59_unwrap and sc_nip17_receive,
 * refused to the other party. */
static void spec_wrap(gw_env *env, const cJSON *keys, const cJSON *w, vt_report *r)
{
    const char *who = vt_json_str(w, "recipient");
    const cJSON *seal = cJSON_GetObjectItemCaseSensitive(w, "seal");
    const cJSON *wrap = cJSON_GetObjectItemCaseSensitive(w, "wrap");
    uint8_t sec[32], other[32], sender[32], receiver[32], want[32], *arena = NULL, *ra;
    size_t len, rlen, used = 0;
    char *text, *rtext, why[200];
    sc_identity me, not_me;
    sc_nip17_received msg;
    sc_nip59_info info;
    sc_event rumor, spec;
    int to_sender;

    assert_non_null(who);
    to_sender = strcmp(who, "sender") == 0;
    gw_json32(keys, to_sender ? "sender_sec" : "receiver_sec", sec);
    gw_json32(keys, to_sender ? "receiver_sec" : "sender_sec", other);
    gw_json32(keys, "sender_pub", sender);
    gw_json32(keys, "receiver_pub", receiver);
    VT_ASSERT_STATUS(sc_identity_import(&env->ctx, &me, sec), SC_OK);
    VT_ASSERT_STATUS(sc_identity_import(&env->ctx, &not_me, other), SC_OK);
    text = text_of(wrap, &len);
    rtext = text_of(cJSON_GetObjectItemCaseSensitive(w, "rumor"), &rlen);
    ra = gw_parse(&spec, rtext, rlen);

    /* sc_nip59_unwrap: every layer, and the facts about the outer ones */
    if (gw_unwrap(env, text, len, &me, &rumor, &info, &arena, &used) != SC_OK ||
        !gw_same(&rumor, &spec, why, sizeof why)) {
        vt_case_fail(r, "wrap to the %s: not opened to the published rumor", who);
    } else {
        gw_json32(seal, "id", want);
        if (memcmp(info.seal_id, want, 32) != 0 || memcmp(info.sender, sender, 32) != 0 ||
            info.wrap_kind != 1059) {
            vt_case_fail(r, "wrap to the %s: seal id, sender or kind differ", who);
        } else {
            vt_case_pass(r);
        }
    }
    free(arena);

    /* sc_nip17_receive: kind 14, the room is {sender, receiver} */
    if (n17_receive(env, text, len, &me, &msg, &arena, &used) != SC_OK) {
        vt_case_fail(r, "wrap to the %s: not received", who);
    } else if (msg.rumor.kind != 14 || msg.rumor.content.len != 14 ||
               memcmp(msg.rumor.content.ptr, "Hola, que tal?", 14) != 0 || msg.n_room != 2 ||
               memcmp(msg.room[0], sender, 32) != 0 || memcmp(msg.room[1], receiver, 32) != 0 ||
               memcmp(msg.wrap.sender, sender, 32) != 0) {
        vt_case_fail(r, "wrap to the %s: message, sender or room wrong", who);
    } else {
        vt_case_pass(r);
    }
    free(arena);

    /* the other party cannot open it */
    if (n17_receive(env, text, len, &not_me, &msg, &arena, &used) != SC_ERR_WRAP_DECRYPT) {
        vt_case_fail(r, "wrap to the %s: the other party was not refused", who);
    } else {
        vt_case_pass(r);
    }
    free(arena);
    sc_identity_clear(&me);
    sc_identity_clear(&not_me);
    cJSON_free(text);
    cJSON_free(rtext);
    free(ra);
}

void test_dm_spec_wraps(void **state)
{
    gw_env *env = gw_env_of(state);
    cJSON *root = gw_need_upstream(env, N17_FILE);
    const cJSON *keys = cJSON_GetObjectItemCaseSensitive(root, "keys"), *w;
    vt_report r;

    vt_report_init(&r, env->backend, LBL(N17_FILE, "wraps"));
    cJSON_ArrayForEach(w, cJSON_GetObjectItemCaseSensitive(root, "wraps"))
    {
        spec_wrap(env, keys, w, &r);
    }
    cJSON_Delete(root);
    snprintf(r.detail, sizeof r.detail, "receiver and sender copy: unwrap, receive, refusal");
    vt_report_finish(&r, 6);
}

void test_dm_spec_rebuild(void **state)
{
    gw_env *env = gw_env_of(state);
    cJSON *root = gw_need_upstream(env, N17_FILE);
    const cJSON *keys = cJSON_GetObjectItemCaseSensitive(root, "keys");
    const cJSON *w0 = cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(root, "wraps"), 0);
    const cJSON *rj = cJSON_GetObjectItemCaseSensitive(w0, "rumor");
    uint8_t sec[32], sender[32], want[32], buf[512], *arena = NULL;
    char hex[65], *wrap, why[200];
    const char *p_tag[] = {"p", hex, NULL};
    size_t len, rlen, used;
    sc_identity alice, bob;
    sc_nip17_received msg;
    sc_nip17_peer to;
    sc_nip17_chat m;
    sc_event rumor, spec;
    uint8_t *ra;
    char *rtext;
    gw_opened o;
    vt_report r;
    int k;

    vt_report_init(&r, env->backend, LBL(N17_FILE, "rebuild"));
    gw_json32(keys, "sender_sec", sec);
    VT_ASSERT_STATUS(sc_identity_import(&env->ctx, &alice, sec), SC_OK);
    gw_json32(keys, "receiver_sec", sec);
    VT_ASSERT_STATUS(sc_identity_import(&env->ctx, &bob, sec), SC_OK);
    gw_json32(keys, "sender_pub", sender);
    memset(&to, 0, sizeof to);
    gw_json32(keys, "receiver_pub", to.pubkey);
    memset(&m, 0, sizeof m);
    m.content.ptr = "Hola, que tal?";
    m.content.len = 14;
    m.to = &to;
    m.n_to = 1;
    m.created_at = 1703172058;

    /* sc_nip17_chat_rumor gives the published rumor, id included */
    rtext = text_of(rj, &rlen);
    ra = gw_parse(&spec, rtext, rlen);
    VT_ASSERT_STATUS(sc_nip17_chat_rumor(&env->ctx, &rumor, buf, sizeof buf, &m, sender), SC_OK);
    gw_json32(rj, "id", want);
    if (memcmp(rumor.id, want, 32) != 0 || !gw_same(&rumor, &spec, why, sizeof why)) {
        vt_case_fail(&r, "the built rumor is not the published one");
    } else {
        vt_case_pass(&r);
    }

    /* sent as NIP-17 says: one wrap to the receiver, one to the sender; each opens its own */
    for (k = 0; k < 2; k++) {
        const sc_identity *me = k == 0 ? &bob : &alice;
        int ok;

        wrap = gw_wrap(env, &rumor, &alice, k == 0 ? to.pubkey : sender, NULL, &len);
        gw_open(env, wrap, len, me, &o);
        n17_hex(hex, k == 0 ? to.pubkey : sender);
        ok = o.wrap.n_tags == 1 && gw_tag_is(&o.wrap.tags[0], p_tag);
        gw_opened_free(&o);
        if (!ok || n17_receive(env, wrap, len, me, &msg, &arena, &used) != SC_OK ||
            memcmp(msg.rumor.id, want, 32) != 0 || msg.n_room != 2) {
            vt_case_fail(&r, "the %s copy: p tag, receipt or room wrong",
                         k == 0 ? "receiver" : "sender");
        } else {
            vt_case_pass(&r);
        }
        free(arena);
        free(wrap);
    }
    sc_identity_clear(&alice);
    sc_identity_clear(&bob);
    cJSON_free(rtext);
    free(ra);
    cJSON_Delete(root);
    vt_report_finish(&r, 3);
}

/* ---- kind 15 -------------------------------------------------------------------------------- */

/* The case's tags after a p tag, as a kind 15 rumor into buf. */
static void k15_rumor(gw_env *env, const cJSON *c, sc_event *ev, uint8_t *buf, size_t cap)
{
    static const char *const head[] = {"p",
                                       "918e2da906df4ccd12c8ac672d8335add131a4cf9d27ce42b3bb"
                                       "3625755f0788",
                                       NULL};
    const char *list[64];
    const cJSON *tag, *item;
    uint8_t author[32];
    size_t n = 0;

    memset(author, 0x44, sizeof author);
    list[n++] = head[0];
    list[n++] = head[1];
    list[n++] = NULL;
    cJSON_ArrayForEach(tag, cJSON_GetObjectItemCaseSensitive(c, "tags"))
    {
        cJSON_ArrayForEach(item, tag)
        {
            assert_true(n < 60 && cJSON_IsString(item));
            list[n++] = item->valuestring;
        }
        list[n++] = NULL;
    }
    list[n] = NULL;
    gw_rumor(env, ev, buf, cap, author, 15, 1700000000, "https://files.example/blob", 26, list);
}

/* The tag of ev named name (its value), or NULL. */
static const sc_str *tag_value(const sc_event *ev, const char *name)
{
    size_t t;

    for (t = 0; t < ev->n_tags; t++) {
        if (ev->tags[t].n_items >= 2 && ev->tags[t].items[0].len == strlen(name) &&
            memcmp(ev->tags[t].items[0].ptr, name, strlen(name)) == 0) {
            return &ev->tags[t].items[1];
        }
    }
    return NULL;
}

/* The value of the case's tag named name (a NUL-terminated string of the JSON), or "". */
static const char *case_tag(const cJSON *c, const char *name)
{
    const cJSON *tag;

    cJSON_ArrayForEach(tag, cJSON_GetObjectItemCaseSensitive(c, "tags"))
    {
        const cJSON *k = cJSON_GetArrayItem(tag, 0), *v = cJSON_GetArrayItem(tag, 1);

        if (cJSON_IsString(k) && cJSON_IsString(v) && strcmp(k->valuestring, name) == 0) {
            return v->valuestring;
        }
    }
    return "";
}

static int same_text(const sc_str *a, const sc_str *b)
{
    return a != NULL && b != NULL && a->len == b->len && memcmp(a->ptr, b->ptr, a->len) == 0;
}

/* Parse and build for one case; 1 on success, else 0 with err. */
static int k15_case(gw_env *env, const cJSON *c, char *err, size_t cap, int *decrypted)
{
    uint8_t buf[2048], buf2[2048], key[32], x[32], ox[32], digest[32], sender[32];
    const char *nonce_hex = vt_json_str(c, "nonce");
    const char *legacy = vt_json_str(c, "nonce_tag_value");
    vt_bytes iv, blob, pt, used_iv;
    sc_nip17_file f, g;
    sc_nip17_peer to;
    sc_nip17_chat m;
    sc_event ev, built;
    char why[200];
    size_t t;
    int ok = 0;

    *decrypted = 0;
    memset(&iv, 0, sizeof iv);
    memset(&used_iv, 0, sizeof used_iv);
    k15_rumor(env, c, &ev, buf, sizeof buf);
    gw_json32(c, "key", key);
    gw_hex32(case_tag(c, "x"), x);
    gw_hex32(case_tag(c, "ox"), ox);
    if (!vt_hex_to_bytes(nonce_hex != NULL ? nonce_hex : legacy, &iv) ||
        !vt_json_hex(c, "encrypted_blob", &blob) || !vt_json_hex(c, "plaintext", &pt)) {
        snprintf(err, cap, "malformed case");
        return 0;
    }
    if (sc_nip17_file_parse(&f, NULL, 0, &(size_t){0}, &ev) != SC_OK) {
        snprintf(err, cap, "the tags do not parse");
    } else if (memcmp(f.key, key, 32) != 0 || f.nonce_len != iv.n ||
               memcmp(f.nonce, iv.p, iv.n) != 0 || memcmp(f.x, x, 32) != 0 || !f.has_ox ||
               memcmp(f.ox, ox, 32) != 0 || f.size != blob.n ||
               !same_text(&f.nonce_text, tag_value(&ev, "decryption-nonce")) ||
               f.file_type.len != 9 || memcmp(f.file_type.ptr, "image/png", 9) != 0) {
        snprintf(err, cap, "parsed parameters differ from the case");
    } else if (sc_crypto_sha256(&env->ctx, digest, blob.p, blob.n) != SC_OK ||
               memcmp(digest, f.x, 32) != 0 ||
               sc_crypto_sha256(&env->ctx, digest, pt.p, pt.n) != SC_OK ||
               memcmp(digest, f.ox, 32) != 0) {
        snprintf(err, cap, "x / ox are not the digests of the blob / plaintext");
    } else {
        /* built back from the parsed parameters: the same tags in the same order */
        memset(&to, 0, sizeof to);
        gw_hex32("918e2da906df4ccd12c8ac672d8335add131a4cf9d27ce42b3bb3625755f0788", to.pubkey);
        memset(&m, 0, sizeof m);
        m.to = &to;
        m.n_to = 1;
        m.created_at = ev.created_at;
        memcpy(sender, ev.pubkey, 32);
        g = f;
        memset(&g.nonce_text, 0, sizeof g.nonce_text);
        if (sc_nip17_file_rumor(&env->ctx, &built, buf2, sizeof buf2, &m, &g, sender) != SC_OK ||
            !gw_same(&built, &ev, why, sizeof why)) {
            snprintf(err, cap, "rebuilt kind 15 differs: %s", why);
        } else {
            ok = 1;
        }
    }
    /* the blob opens with the parsed key and IV (the legacy case: the ASCII of the tag) */
    if (ok && vt_json_str(c, "iv_actually_used") != NULL) {
        ok = vt_json_hex(c, "iv_actually_used", &used_iv) && used_iv.n == f.nonce_text.len &&
             memcmp(used_iv.p, f.nonce_text.ptr, used_iv.n) == 0;
        if (!ok) {
            snprintf(err, cap, "the legacy IV is not the ASCII of decryption-nonce");
        }
    }
    if (ok && blob.n >= 16) {
        uint8_t *out = vt_alloc(blob.n);
        const uint8_t *ivp = used_iv.n != 0 ? used_iv.p : f.nonce;
        size_t ivn = used_iv.n != 0 ? used_iv.n : f.nonce_len;
        sc_status st = sc_crypto_aes256gcm_open(&env->ctx, out, f.key, ivp, ivn, NULL, 0, blob.p,
                                                blob.n - 16, blob.p + blob.n - 16);

        if (st == SC_OK) {
            *decrypted = memcmp(out, pt.p, pt.n) == 0 ? 1 : -1;
        } else if (st != SC_ERR_UNSUPPORTED) {
            *decrypted = -1;
        }
        if (*decrypted < 0) {
            snprintf(err, cap, "the blob does not open with the parsed parameters");
            ok = 0;
        }
        free(out);
    }
    for (t = 0; t < 32; t++) {
        f.key[t] = 0;
    }
    vt_bytes_free(&iv);
    vt_bytes_free(&used_iv);
    vt_bytes_free(&blob);
    vt_bytes_free(&pt);
    return ok;
}

void test_kind15_vectors(void **state)
{
    gw_env *env = gw_env_of(state);
    cJSON *root = gw_need_upstream(env, N17_K15_FILE);
    const cJSON *c;
    size_t i = 0, opened = 0;
    char err[300];
    vt_report r;

    vt_report_init(&r, env->backend, N17_K15_FILE);
    cJSON_ArrayForEach(c, cJSON_GetObjectItemCaseSensitive(root, "cases"))
    {
        int decrypted = 0;

        if (!k15_case(env, c, err, sizeof err, &decrypted)) {
            vt_case_fail(&r, "case %zu: %s", i, err);
        } else {
            vt_case_pass(&r);
        }
        opened += decrypted > 0;
        i++;
    }
    cJSON_Delete(root);
    snprintf(r.detail, sizeof r.detail,
             "parse, digests, rebuild; blobs opened with the parsed key and IV: %zu of %zu", opened,
             i);
    if (opened < i) {
        vt_appendf(r.detail, sizeof r.detail, " (the other IV lengths: unsupported here)");
    }
    vt_report_finish(&r, 3);
}
