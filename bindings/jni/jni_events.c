/* Natives of Context for NIP-01 events: sign a new event, parse and verify one. */
#include "jni_util.h"
#include "org_softchat_core_Context.h"

#include <string.h>

/* The tag strings of a byte[][][] copied to native memory: one buffer holds every string,
 * items[] views into it and tags[] groups them. */
typedef struct tag_set {
    scj_buf bytes, items, tags; /* items: sc_str[], tags: size_t[] item counts */
    size_t n_tags, n_items;
} tag_set;

static void tags_free(tag_set *t)
{
    scj_free(&t->bytes);
    scj_free(&t->items);
    scj_free(&t->tags);
}

static int tags_load(JNIEnv *env, jobjectArray tags, tag_set *t)
{
    size_t total = 0, i, j, k = 0, off = 0;
    jsize n = tags != NULL ? (*env)->GetArrayLength(env, tags) : 0;

    memset(t, 0, sizeof *t);
    t->n_tags = (size_t)n;
    for (i = 0; i < t->n_tags; i++) { /* count */
        jobjectArray tag = (jobjectArray)(*env)->GetObjectArrayElement(env, tags, (jsize)i);
        jsize m = tag != NULL ? (*env)->GetArrayLength(env, tag) : 0;
        if (tag == NULL) {
            return scj_throw_arg(env, "null tag");
        }
        for (j = 0; j < (size_t)m; j++) {
            jbyteArray s = (jbyteArray)(*env)->GetObjectArrayElement(env, tag, (jsize)j);
            if (s == NULL) {
                return scj_throw_arg(env, "null tag item");
            }
            total += (size_t)(*env)->GetArrayLength(env, s);
            (*env)->DeleteLocalRef(env, s);
        }
        t->n_items += (size_t)m;
        (*env)->DeleteLocalRef(env, tag);
    }
    if (!scj_alloc(env, &t->bytes, total) ||
        !scj_alloc(env, &t->items, t->n_items * sizeof(sc_str)) ||
        !scj_alloc(env, &t->tags, t->n_tags * sizeof(size_t))) {
        tags_free(t);
        return 0;
    }
    for (i = 0; i < t->n_tags; i++) { /* copy */
        jobjectArray tag = (jobjectArray)(*env)->GetObjectArrayElement(env, tags, (jsize)i);
        jsize m = (*env)->GetArrayLength(env, tag);
        ((size_t *)(void *)t->tags.p)[i] = (size_t)m;
        for (j = 0; j < (size_t)m; j++, k++) {
            jbyteArray s = (jbyteArray)(*env)->GetObjectArrayElement(env, tag, (jsize)j);
            jsize len = (*env)->GetArrayLength(env, s);
            sc_str *item = (sc_str *)(void *)t->items.p + k;
            (*env)->GetByteArrayRegion(env, s, 0, len, (jbyte *)t->bytes.p + off);
            item->ptr = (const char *)t->bytes.p + off;
            item->len = (size_t)len;
            off += (size_t)len;
            (*env)->DeleteLocalRef(env, s);
        }
        (*env)->DeleteLocalRef(env, tag);
    }
    return 1;
}

/* Builds (kind, created_at, tags, content) over buf; SC_ERR_BUFFER_TOO_SMALL asks for more. */
static sc_status build(sc_event *ev, scj_buf *buf, const tag_set *t, jint kind, jlong created_at,
                       const scj_buf *content)
{
    sc_event_builder b;
    const sc_str *items = (const sc_str *)(const void *)t->items.p;
    size_t i;
    sc_status st = sc_event_builder_init(&b, buf->p, buf->len);

    if (st != SC_OK) {
        return st;
    }
    sc_event_builder_kind(&b, (uint32_t)kind);
    sc_event_builder_created_at(&b, (int64_t)created_at);
    for (i = 0; i < t->n_tags; i++) {
        size_t m = ((const size_t *)(const void *)t->tags.p)[i];
        sc_event_builder_tag(&b, items, m);
        items += m;
    }
    sc_event_builder_content(&b, (const char *)content->p, content->len);
    return sc_event_builder_final(&b, ev, NULL);
}

JNIEXPORT jbyteArray JNICALL Java_org_softchat_core_Context_signEvent0(
    JNIEnv *env, jclass cls, jlong ctx, jbyteArray sec, jint kind, jlong created_at,
    jobjectArray tags, jbyteArray content)
{
    sc_identity id;
    tag_set t;
    scj_buf text = {NULL, 0}, buf = {NULL, 0}, json = {NULL, 0};
    sc_event ev;
    size_t need, len = 0;
    sc_status st = SC_OK;
    jbyteArray out = NULL;

    (void)cls;
    if (kind < 0) {
        scj_throw_status(env, SC_ERR_EVENT_RANGE);
        return NULL;
    }
    if (!scj_identity(env, scj_ctx(ctx), sec, &id)) {
        return NULL;
    }
    if (!scj_in(env, content, &text, "content") || !tags_load(env, tags, &t)) {
        goto out_id;
    }
    /* the builder's need: every string plus its views, aligned; grow until it fits */
    need = t.bytes.len + text.len + (t.n_items + t.n_tags) * 2 * sizeof(sc_str) + 64;
    for (;;) {
        if (!scj_alloc(env, &buf, need)) {
            goto out_tags;
        }
        st = build(&ev, &buf, &t, kind, created_at, &text);
        if (st != SC_ERR_BUFFER_TOO_SMALL) {
            break;
        }
        scj_free(&buf);
        need *= 2;
    }
    if (st == SC_OK) {
        st = sc_event_sign(scj_ctx(ctx), &ev, &id);
    }
    if (st == SC_OK && !scj_alloc(env, &json, sc_event_to_json_len(&ev, SC_EVENT_JSON_OBJECT))) {
        goto out_buf;
    }
    if (st == SC_OK) {
        st = sc_event_to_json((char *)json.p, json.len, &len, &ev, SC_EVENT_JSON_OBJECT);
    }
    if (st == SC_OK) {
        out = scj_out(env, json.p, len);
    } else {
        scj_throw_status(env, st);
    }
    scj_free(&json);
out_buf:
    scj_free(&buf);
out_tags:
    tags_free(&t);
out_id:
    scj_free(&text);
    sc_identity_clear(&id);
    return out;
}

JNIEXPORT void JNICALL Java_org_softchat_core_Context_verifyEvent0(JNIEnv *env, jclass cls,
                                                                   jlong ctx, jbyteArray json)
{
    scj_buf in, arena;
    sc_event ev;
    size_t used = 0;
    sc_status st;

    (void)cls;
    if (!scj_in(env, json, &in, "json")) {
        return;
    }
    if (!scj_alloc(env, &arena, sc_event_parse_arena_max(in.len))) {
        scj_free(&in);
        return;
    }
    st = sc_event_parse(&ev, arena.p, arena.len, &used, (const char *)in.p, in.len, NULL);
    if (st == SC_OK) {
        st = sc_event_verify(scj_ctx(ctx), &ev);
    }
    scj_free(&arena);
    scj_free(&in);
    if (st != SC_OK) {
        scj_throw_status(env, st);
    }
}
