/* Threads: 8 threads per backend, each with its own sc_ctx, run sign/verify, NIP-44 (held
 * and per-call), gift wrap + unwrap and a streaming attachment concurrently, every result
 * checked. The objects ctx.h says may be shared are shared, read-only: the backend table,
 * two sc_identity, an sc_nip44_conversation, a parsed sc_event (and the arena its views
 * point into), a gift wrap's JSON text and a NIP-44 payload. Built normally it checks the
 * results; built with -fsanitize=thread (scripts/test.sh, build/tsan) it also proves that
 * the sharing is race-free.
 * Usage: test_threads [--backend NAME] [--iterations N] [--share-context]
 *        (default: every backend, 12 iterations). --share-context is the negative control of
 *        the TSan stage: all threads use one context, which ctx.h says is not supported; under
 *        TSan it must be reported as a data race (proving the stage can see one). */
#include <softchat/softchat.h>

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define N_THREADS 8

/* Everything the threads share, set up once per backend before they start. */
typedef struct shared {
    const sc_backend *backend;
    sc_identity alice, bob;
    uint8_t alice_pub[32], bob_pub[32];
    sc_nip44_conversation alice_bob; /* held by alice, peer bob */
    sc_event ev;                     /* a parsed, signed event */
    uint8_t *ev_arena;
    char *wrap; /* a gift wrap from alice to bob */
    size_t wrap_len;
    char *payload; /* NIP-44 from alice to bob */
    size_t payload_len;
    int iterations;
    sc_ctx *one_ctx; /* --share-context: the one context all threads misuse */
} shared;

typedef struct worker {
    const shared *sh;
    int index;
    int checks;
    char failure[200]; /* empty when every check passed */
} worker;

static const char MESSAGE[] = "shared conversation, private message";
static const char CONTENT[] = "a rumor for the threads";

#define CHECK(w, cond)                                                                             \
    do {                                                                                           \
        if (!(cond)) {                                                                             \
            if ((w)->failure[0] == '\0') {                                                         \
                snprintf((w)->failure, sizeof(w)->failure, "line %d: %s", __LINE__, #cond);        \
            }                                                                                      \
            return;                                                                                \
        }                                                                                          \
        (w)->checks++;                                                                             \
    } while (0)

/* ---- the steps one thread repeats ---------------------------------------------------------- */

static void step_sign_verify(worker *w, sc_ctx *ctx, int it)
{
    uint8_t msg[32], sig[64], buf[512];
    sc_event_builder b;
    sc_event ev;
    char text[64];

    memset(msg, w->index * 31 + it, sizeof msg);
    CHECK(w, sc_identity_sign(ctx, sig, &w->sh->alice, msg) == SC_OK);
    CHECK(w, sc_identity_verify(ctx, sig, msg, w->sh->alice_pub) == SC_OK);
    msg[0] ^= 1;
    CHECK(w, sc_identity_verify(ctx, sig, msg, w->sh->alice_pub) == SC_ERR_INVALID_SIG);

    snprintf(text, sizeof text, "thread %d iteration %d", w->index, it);
    CHECK(w, sc_event_builder_init(&b, buf, sizeof buf) == SC_OK);
    sc_event_builder_kind(&b, 1);
    sc_event_builder_created_at(&b, 1700000000 + it);
    sc_event_builder_content(&b, text, strlen(text));
    CHECK(w, sc_event_builder_final(&b, &ev, NULL) == SC_OK);
    CHECK(w, sc_event_sign(ctx, &ev, &w->sh->bob) == SC_OK);
    CHECK(w, sc_event_verify(ctx, &ev) == SC_OK);
    /* the shared parsed event, verified from every thread at once */
    CHECK(w, sc_event_verify(ctx, &w->sh->ev) == SC_OK);
}

static void step_nip44(worker *w, sc_ctx *ctx, int it)
{
    char pt[64], payload[256];
    uint8_t out[256];
    size_t len = 0, n = 0, plen;

    snprintf(pt, sizeof pt, "held %d/%d", w->index, it);
    plen = strlen(pt);
    /* the held conversation, shared read-only */
    CHECK(w, sc_nip44_conversation_encrypt(ctx, payload, sizeof payload, &len, &w->sh->alice_bob,
                                           (const uint8_t *)pt, plen, 0) == SC_OK);
    CHECK(w, sc_nip44_conversation_decrypt(ctx, out, sizeof out, &n, &w->sh->alice_bob, payload,
                                           len, 0) == SC_OK);
    CHECK(w, n == plen && memcmp(out, pt, plen) == 0);
    /* the other side, one ECDH per call from the shared identities */
    CHECK(w, sc_nip44_decrypt_from(ctx, out, sizeof out, &n, &w->sh->bob, w->sh->alice_pub, payload,
                                   len, 0) == SC_OK);
    CHECK(w, n == plen && memcmp(out, pt, plen) == 0);
    CHECK(w, sc_nip44_encrypt_to(ctx, payload, sizeof payload, &len, &w->sh->bob, w->sh->alice_pub,
                                 (const uint8_t *)pt, plen, 0) == SC_OK);
    CHECK(w, sc_nip44_conversation_decrypt(ctx, out, sizeof out, &n, &w->sh->alice_bob, payload,
                                           len, 0) == SC_OK);
    CHECK(w, n == plen && memcmp(out, pt, plen) == 0);
    /* the shared payload */
    CHECK(w, sc_nip44_conversation_decrypt(ctx, out, sizeof out, &n, &w->sh->alice_bob,
                                           w->sh->payload, w->sh->payload_len, 0) == SC_OK);
    CHECK(w, n == strlen(MESSAGE) && memcmp(out, MESSAGE, n) == 0);
}

static void step_gift_wrap(worker *w, sc_ctx *ctx, int it)
{
    uint8_t buf[512];
    sc_event_builder b;
    sc_event rumor, got;
    sc_nip59_info info;
    sc_nip59_opts opts;
    char text[64];
    size_t scratch_cap, out_cap, arena_cap, len = 0, used = 0;
    void *scratch;
    char *out;
    uint8_t *arena;

    snprintf(text, sizeof text, "wrapped by %d at %d", w->index, it);
    CHECK(w, sc_event_builder_init(&b, buf, sizeof buf) == SC_OK);
    sc_event_builder_kind(&b, 14);
    sc_event_builder_created_at(&b, 1700000000);
    sc_event_builder_content(&b, text, strlen(text));
    CHECK(w, sc_event_builder_final(&b, &rumor, NULL) == SC_OK);
    CHECK(w, sc_nip59_rumor(ctx, &rumor, w->sh->alice_pub) == SC_OK);
    memset(&opts, 0, sizeof opts);
    opts.now = 1700000000;
    scratch_cap = sc_nip59_wrap_scratch_max(&rumor, &opts);
    out_cap = sc_nip59_wrap_max(&rumor, &opts);
    CHECK(w, scratch_cap != 0 && out_cap != 0);
    scratch = malloc(scratch_cap);
    out = malloc(out_cap);
    arena_cap = sc_nip59_unwrap_arena_max(out_cap);
    arena = malloc(arena_cap);
    if (scratch == NULL || out == NULL || arena == NULL) {
        free(scratch);
        free(out);
        free(arena);
        CHECK(w, !"out of memory");
    }
    if (sc_nip59_wrap(ctx, out, out_cap, &len, scratch, scratch_cap, &rumor, &w->sh->alice,
                      w->sh->bob_pub, &opts) != SC_OK ||
        sc_nip59_unwrap(ctx, &got, &info, arena, arena_cap, &used, out, len, &w->sh->bob) !=
            SC_OK ||
        got.content.len != strlen(text) || memcmp(got.content.ptr, text, strlen(text)) != 0 ||
        memcmp(info.sender, w->sh->alice_pub, 32) != 0) {
        free(scratch);
        free(out);
        free(arena);
        CHECK(w, !"own gift wrap round trip");
    }
    w->checks++;
    /* the shared gift wrap, unwrapped from every thread at once */
    free(arena);
    arena_cap = sc_nip59_unwrap_arena_max(w->sh->wrap_len);
    arena = malloc(arena_cap);
    if (arena == NULL ||
        sc_nip59_unwrap(ctx, &got, &info, arena, arena_cap, &used, w->sh->wrap, w->sh->wrap_len,
                        &w->sh->bob) != SC_OK ||
        got.content.len != strlen(CONTENT) ||
        memcmp(got.content.ptr, CONTENT, strlen(CONTENT)) != 0) {
        free(scratch);
        free(out);
        free(arena);
        CHECK(w, !"shared gift wrap unwrap");
    }
    w->checks++;
    free(scratch);
    free(out);
    free(arena);
}

typedef struct mem_sink {
    uint8_t buf[2048];
    size_t len;
    int committed;
} mem_sink;

static sc_status ms_write(void *u, const uint8_t *d, size_t n)
{
    mem_sink *m = (mem_sink *)u;

    if (m->len + n > sizeof m->buf) {
        return SC_ERR_TOO_LARGE;
    }
    memcpy(m->buf + m->len, d, n);
    m->len += n;
    return SC_OK;
}

static sc_status ms_commit(void *u)
{
    ((mem_sink *)u)->committed = 1;
    return SC_OK;
}

static void ms_discard(void *u)
{
    ((mem_sink *)u)->len = 0;
}

static void step_file(worker *w, sc_ctx *ctx, int it)
{
    uint8_t key[32], iv[16], pt[1000], blob[1100], x[32], ox[32], x2[32];
    size_t o = 0, n = 0, i;
    uint64_t size = 0;
    sc_file_enc e;
    sc_file_dec d;
    mem_sink ms;
    sc_file_sink sink = {&ms, ms_write, ms_commit, ms_discard};

    if (sc_backend_has(w->sh->backend, SC_CAP_AES256GCM_STREAM, NULL) != SC_OK) {
        return; /* plain sodium: no streaming AES-GCM (said by sc_backend_has) */
    }
    for (i = 0; i < sizeof pt; i++) {
        pt[i] = (uint8_t)(i * 7 + w->index + it);
    }
    CHECK(w, sc_file_keygen(ctx, key, iv) == SC_OK);
    CHECK(w, sc_file_encrypt_init(ctx, &e, key, iv, sizeof iv) == SC_OK);
    CHECK(w, sc_file_encrypt_update(&e, blob, sizeof blob, &n, pt, sizeof pt) == SC_OK);
    o = n;
    CHECK(w, sc_file_encrypt_final(&e, blob + o, sizeof blob - o, &n, x, ox, &size) == SC_OK);
    o += n;
    CHECK(w, o == sizeof pt + 16 && size == o);
    memset(&ms, 0, sizeof ms);
    CHECK(w, sc_file_decrypt_init(ctx, &d, key, iv, sizeof iv, &sink) == SC_OK);
    CHECK(w, sc_file_decrypt_update(&d, blob, 333) == SC_OK);
    CHECK(w, sc_file_decrypt_update(&d, blob + 333, o - 333) == SC_OK);
    CHECK(w, sc_file_decrypt_final(&d, x2, NULL) == SC_OK);
    CHECK(w, ms.committed && ms.len == sizeof pt && memcmp(ms.buf, pt, sizeof pt) == 0);
    CHECK(w, memcmp(x, x2, 32) == 0);
}

static void *run(void *arg)
{
    worker *w = (worker *)arg;
    sc_ctx ctx;
    int it;

    sc_ctx *c = &ctx;

    if (w->sh->one_ctx != NULL) {
        c = w->sh->one_ctx; /* the negative control: not supported */
    } else if (sc_ctx_init_table(&ctx, w->sh->backend) != SC_OK) {
        /* its own context, bound to the shared (immutable) table */
        snprintf(w->failure, sizeof w->failure, "sc_ctx_init_table failed");
        return NULL;
    }
    for (it = 0; it < w->sh->iterations && w->failure[0] == '\0'; it++) {
        step_sign_verify(w, c, it);
        step_nip44(w, c, it);
        step_gift_wrap(w, c, it);
        if (w->sh->one_ctx == NULL) {
            step_file(w, c, it); /* one stream per context: only with a context each */
        }
    }
    if (c == &ctx) {
        sc_ctx_clear(&ctx);
    }
    return NULL;
}

/* ---- set-up of the shared objects ---------------------------------------------------------- */

static int setup(shared *sh, const sc_backend *b, int iterations)
{
    uint8_t sec[32], buf[512];
    sc_event_builder eb;
    sc_event ev;
    sc_nip59_opts opts;
    sc_ctx ctx;
    char json[1024];
    size_t len = 0, used = 0, cap, scratch_cap;
    void *scratch;
    int ok;

    memset(sh, 0, sizeof *sh);
    sh->backend = b;
    sh->iterations = iterations;
    if (sc_ctx_init_table(&ctx, b) != SC_OK) {
        return 0;
    }
    memset(sec, 0x11, sizeof sec);
    ok = sc_identity_import(&ctx, &sh->alice, sec) == SC_OK;
    memset(sec, 0x22, sizeof sec);
    ok = ok && sc_identity_import(&ctx, &sh->bob, sec) == SC_OK;
    ok = ok && sc_identity_pubkey(sh->alice_pub, &sh->alice) == SC_OK &&
         sc_identity_pubkey(sh->bob_pub, &sh->bob) == SC_OK;
    ok = ok && sc_nip44_conversation_init(&ctx, &sh->alice_bob, &sh->alice, sh->bob_pub) == SC_OK;

    /* a signed event, serialized and parsed: the threads verify the parsed view */
    ok = ok && sc_event_builder_init(&eb, buf, sizeof buf) == SC_OK;
    if (ok) {
        sc_event_builder_kind(&eb, 1);
        sc_event_builder_created_at(&eb, 1700000000);
        sc_event_builder_content(&eb, "shared", 6);
        ok = sc_event_builder_final(&eb, &ev, NULL) == SC_OK &&
             sc_event_sign(&ctx, &ev, &sh->alice) == SC_OK &&
             sc_event_to_json(json, sizeof json, &len, &ev, SC_EVENT_JSON_OBJECT) == SC_OK;
    }
    if (ok) {
        cap = sc_event_parse_arena_max(len);
        sh->ev_arena = malloc(cap);
        ok = sh->ev_arena != NULL &&
             sc_event_parse(&sh->ev, sh->ev_arena, cap, &used, json, len, NULL) == SC_OK;
    }

    /* a NIP-44 payload and a gift wrap, both from alice to bob */
    if (ok) {
        sh->payload_len = sc_nip44_encrypt_len(strlen(MESSAGE));
        sh->payload = malloc(sh->payload_len);
        ok = sh->payload != NULL &&
             sc_nip44_conversation_encrypt(&ctx, sh->payload, sh->payload_len, &len, &sh->alice_bob,
                                           (const uint8_t *)MESSAGE, strlen(MESSAGE), 0) == SC_OK;
    }
    if (ok) {
        ok = sc_event_builder_init(&eb, buf, sizeof buf) == SC_OK;
        sc_event_builder_kind(&eb, 14);
        sc_event_builder_created_at(&eb, 1700000000);
        sc_event_builder_content(&eb, CONTENT, strlen(CONTENT));
        ok = ok && sc_event_builder_final(&eb, &ev, NULL) == SC_OK &&
             sc_nip59_rumor(&ctx, &ev, sh->alice_pub) == SC_OK;
    }
    if (ok) {
        memset(&opts, 0, sizeof opts);
        opts.now = 1700000000;
        scratch_cap = sc_nip59_wrap_scratch_max(&ev, &opts);
        cap = sc_nip59_wrap_max(&ev, &opts);
        scratch = malloc(scratch_cap);
        sh->wrap = malloc(cap);
        ok = scratch != NULL && sh->wrap != NULL &&
             sc_nip59_wrap(&ctx, sh->wrap, cap, &sh->wrap_len, scratch, scratch_cap, &ev,
                           &sh->alice, sh->bob_pub, &opts) == SC_OK;
        free(scratch);
    }
    sc_ctx_clear(&ctx);
    return ok;
}

static void teardown(shared *sh)
{
    sc_identity_clear(&sh->alice);
    sc_identity_clear(&sh->bob);
    sc_nip44_conversation_clear(&sh->alice_bob);
    free(sh->ev_arena);
    free(sh->wrap);
    free(sh->payload);
}

/* Runs the threads on one backend. Returns 1 when every thread passed. */
static int run_backend(const sc_backend *b, int iterations, int share_context)
{
    pthread_t th[N_THREADS];
    worker w[N_THREADS];
    shared sh;
    sc_ctx one;
    int i, ok = 1, checks = 0;

    if (!setup(&sh, b, iterations) || (share_context && sc_ctx_init_table(&one, b) != SC_OK)) {
        printf("[  FAILED  ] threads.%s: set-up of the shared objects\n", b->name);
        teardown(&sh);
        return 0;
    }
    sh.one_ctx = share_context ? &one : NULL;
    for (i = 0; i < N_THREADS; i++) {
        memset(&w[i], 0, sizeof w[i]);
        w[i].sh = &sh;
        w[i].index = i;
        if (pthread_create(&th[i], NULL, run, &w[i]) != 0) {
            printf("[  FAILED  ] threads.%s: pthread_create\n", b->name);
            return 0;
        }
    }
    for (i = 0; i < N_THREADS; i++) {
        pthread_join(th[i], NULL);
        if (w[i].failure[0] != '\0') {
            printf("[  FAILED  ] threads.%s: thread %d: %s\n", b->name, i, w[i].failure);
            ok = 0;
        }
        checks += w[i].checks;
    }
    if (share_context) {
        sc_ctx_clear(&one);
    }
    /* the shared objects are still intact */
    {
        sc_ctx ctx;
        uint8_t pub[32];

        if (sc_ctx_init_table(&ctx, b) != SC_OK || sc_event_verify(&ctx, &sh.ev) != SC_OK ||
            sc_identity_pubkey(pub, &sh.alice) != SC_OK || memcmp(pub, sh.alice_pub, 32) != 0) {
            printf("[  FAILED  ] threads.%s: a shared object changed\n", b->name);
            ok = 0;
        }
        sc_ctx_clear(&ctx);
    }
    if (ok) {
        printf("[       OK ] threads.%s: %d threads x %d iterations, %d checks\n", b->name,
               N_THREADS, iterations, checks);
    }
    teardown(&sh);
    return ok;
}

int main(int argc, char **argv)
{
    const char *only = NULL;
    int iterations = 12, i, passed = 0, failed = 0, share_context = 0;
    size_t k;

    for (i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--backend") == 0 && i + 1 < argc) {
            only = argv[++i];
        } else if (strcmp(argv[i], "--iterations") == 0 && i + 1 < argc) {
            iterations = atoi(argv[++i]);
        } else if (strcmp(argv[i], "--share-context") == 0) {
            share_context = 1;
        } else {
            fprintf(stderr, "usage: %s [--backend NAME] [--iterations N] [--share-context]\n",
                    argv[0]);
            return 2;
        }
    }
    if (only != NULL && sc_backend_find(only) == NULL) {
        printf("[  FAILED  ] threads: backend %s is not compiled in\n", only);
        return 1;
    }
    for (k = 0; k < sc_backend_count(); k++) {
        const sc_backend *b = sc_backend_at(k);

        if (only != NULL && strcmp(only, b->name) != 0) {
            continue;
        }
        if (run_backend(b, iterations, share_context)) {
            passed++;
        } else {
            failed++;
        }
    }
    printf("%d passed, %d failed\n", passed, failed);
    return failed == 0 && passed > 0 ? 0 : 1;
}
