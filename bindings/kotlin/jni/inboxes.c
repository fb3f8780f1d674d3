/* Natives: the inbox directory (api/softchat/delivery.h, sc_inboxes) for RelayPool.inboxes.
 * One scj_inboxes holds the directory and its memory, and what each call reuses: a buffer for
 * an event's JSON and its parse arena (events up to SCJ_INBOX_EVENT_MAX bytes) and the views
 * sc_inboxes_get writes. Nothing is allocated per add or get. The events come from the pool,
 * which verified them. One thread at a time per directory. */
#include "blob.h"
#include "scj.h"

#include <stdlib.h>
#include <string.h>

/* A relay list longer than this is not a relay list a client should route by. */
#define SCJ_INBOX_EVENT_MAX (64u * 1024u)

typedef struct scj_inboxes {
    sc_inboxes dir;
    uint8_t *mem;
    size_t mem_len;
    char *json; /* SCJ_INBOX_EVENT_MAX bytes */
    uint8_t *arena;
    size_t arena_cap;
    sc_str *views;
    size_t max_relays;
} scj_inboxes;

static void inboxes_release(scj_inboxes *x)
{
    sc_inboxes_clear(&x->dir);
    if (x->mem != NULL) {
        sc_mem_wipe(x->mem, x->mem_len);
    }
    free(x->mem);
    free(x->json);
    free(x->arena);
    free(x->views);
    free(x);
}

/* inboxesNew(maxUsers, maxRelays, maxUrl): Long. */
static jlong inboxes_new(JNIEnv *env, jclass cls, jint users, jint relays, jint url)
{
    scj_inboxes *x;
    size_t need;
    sc_status st;

    (void)cls;
    need = users > 0 && relays > 0 && url > 0
               ? sc_inboxes_mem_max((size_t)users, (size_t)relays, (size_t)url)
               : 0;
    if (need == 0) {
        scj_throw(env, users <= 0 || relays <= 0 || url <= 0 ? SC_ERR_EMPTY : SC_ERR_TOO_LARGE);
        return 0;
    }
    x = calloc(1, sizeof *x);
    if (x == NULL) {
        scj_throw(env, SC_ERR_NOMEM);
        return 0;
    }
    x->mem_len = need;
    x->arena_cap = sc_event_parse_arena_max(SCJ_INBOX_EVENT_MAX);
    x->max_relays = (size_t)relays;
    x->mem = malloc(need);
    x->json = malloc(SCJ_INBOX_EVENT_MAX);
    x->arena = malloc(x->arena_cap);
    x->views = calloc(x->max_relays, sizeof *x->views);
    if (x->mem == NULL || x->json == NULL || x->arena == NULL || x->views == NULL) {
        inboxes_release(x);
        scj_throw(env, SC_ERR_NOMEM);
        return 0;
    }
    st = sc_inboxes_init(&x->dir, x->mem, x->mem_len, (size_t)users, (size_t)relays, (size_t)url);
    if (st != SC_OK) {
        inboxes_release(x);
        scj_throw(env, st);
        return 0;
    }
    return (jlong)(uintptr_t)x;
}

static void inboxes_free(JNIEnv *env, jclass cls, jlong h)
{
    (void)env;
    (void)cls;
    if (h != 0) {
        inboxes_release((scj_inboxes *)(uintptr_t)h);
    }
}

/* inboxesAdd(h, event JSON): a kind 10050 or 10002 event into the directory. */
static void inboxes_add(JNIEnv *env, jclass cls, jlong h, jbyteArray json)
{
    scj_inboxes *x = (scj_inboxes *)(uintptr_t)h;
    size_t n = scj_len(env, json), used = 0;
    sc_event ev;
    sc_status st;

    (void)cls;
    if (n == 0 || n > SCJ_INBOX_EVENT_MAX) {
        scj_throw(env, n == 0 ? SC_ERR_EMPTY : SC_ERR_TOO_LARGE);
        return;
    }
    (*env)->GetByteArrayRegion(env, json, 0, (jsize)n, (jbyte *)x->json);
    st = sc_event_parse(&ev, x->arena, x->arena_cap, &used, x->json, n, NULL);
    if (st == SC_OK) {
        st = sc_inboxes_add(&x->dir, &ev);
    }
    if (st != SC_OK) {
        scj_throw(env, st);
    }
}

/* inboxesGet(h, user, flags): byte[]? (u32 source, u32 n, then u32 len + URL each), null
 * for SC_ERR_NO_INBOX (the facade's typed "no inbox list" outcome). */
static jbyteArray inboxes_get(JNIEnv *env, jclass cls, jlong h, jobject user, jint flags)
{
    scj_inboxes *x = (scj_inboxes *)(uintptr_t)h;
    uint8_t key[32];
    size_t n = 0, i, len = 8;
    sc_inbox_source src = SC_INBOX_NONE;
    sc_status st;
    jbyteArray out;
    scj_wr w;

    (void)cls;
    if (!scj_pub(env, user, key)) {
        return NULL;
    }
    st = sc_inboxes_get(&x->dir, x->views, x->max_relays, &n, &src, key, (unsigned)flags);
    if (st == SC_ERR_NO_INBOX) {
        return NULL;
    }
    if (st != SC_OK) {
        scj_throw(env, st);
        return NULL;
    }
    for (i = 0; i < n; i++) {
        len += 4 + x->views[i].len;
    }
    if ((out = scj_wr_begin(env, &w, len)) == NULL) {
        return NULL;
    }
    scj_wr_u32(&w, (uint32_t)src);
    scj_wr_u32(&w, (uint32_t)n);
    for (i = 0; i < n; i++) {
        scj_wr_u32(&w, (uint32_t)x->views[i].len);
        scj_wr_bytes(&w, x->views[i].ptr, x->views[i].len);
    }
    return scj_wr_end(env, out, &w);
}

int scj_register_inboxes(JNIEnv *env, jclass c)
{
    static const JNINativeMethod m[] = {
        {"inboxesNew", "(III)J", (void *)inboxes_new},
        {"inboxesFree", "(J)V", (void *)inboxes_free},
        {"inboxesAdd", "(J[B)V", (void *)inboxes_add},
        {"inboxesGet", "(JLjava/lang/Object;I)[B", (void *)inboxes_get},
    };
    return (*env)->RegisterNatives(env, c, m, (jint)SCJ_COUNT(m)) != 0;
}
