/* Robustness under mutation, for one backend:
 *   test_robust --backend NAME [--own DIR] [--vectors DIR] [--seed N] [--iterations N]
 *
 * Takes valid (and some invalid) event JSON texts and NIP-44 payloads from the nostr-tools
 * vectors in --own, applies seeded random mutations (bit flips, byte changes, insertions,
 * deletions, truncations, duplicated spans, JSON- and base64-significant characters, bad
 * UTF-8, \u escapes, and mutations that keep the text valid), and feeds each result to
 * sc_event_parse (+ sc_event_verify and a serialise/re-parse round trip when it parses) or to
 * sc_nip44_decrypt. Every call must return a documented status, never crash (run it under
 * ASan/UBSan and valgrind), leave its outputs zeroed (or untouched) on failure, and accept
 * exactly what is still valid: an event that verifies must be a known event byte for byte
 * after canonicalisation, and a payload decrypts only when it is the original one.
 *
 * The iterations are split evenly between events and payloads. The seed is printed; rerun
 * with the same --seed and --iterations to reproduce a failure (the iteration is printed).
 * SOFTCHAT_ROBUST_ITERATIONS in the environment overrides --iterations: the test command
 * sets it for the valgrind pass, where each mutation costs some fifty times more. */
#include "test_robust.h"

#define DEFAULT_ITERATIONS 100000ul
#define DEFAULT_SEED 0x50f7c4a7b0b57ull /* mixed with the backend name: see main */
#define MAX_REPORTED 10                 /* failures printed in full; the rest are counted */

/* ---- tallies ------------------------------------------------------------------------------ */

void rb_stat_status(unsigned long *hist, sc_status st)
{
    if ((int)st <= 0 && (int)st > -100) {
        hist[-(int)st]++;
    }
}

static void print_hist(const char *label, const unsigned long *hist)
{
    int i;

    printf("\n  %s:", label);
    for (i = 0; i < 100; i++) {
        if (hist[i] != 0) {
            printf(" %s %lu", sc_status_name((sc_status)-i), hist[i]);
        }
    }
}

void rb_print_stats(const rb_env *env, const rb_stats *s, const char *first, const char *second)
{
    printf("[%s] robust %s: %lu mutations (seed 0x%llx), %lu still valid by construction, "
           "%lu accepted, %lu verified; %lu passed, %lu failed",
           env->backend, s->what, s->runs, (unsigned long long)env->seed, s->preserved, s->ok,
           s->verified, s->runs - s->failures, s->failures);
    print_hist(first, s->by_status);
    print_hist(second, s->by_status2);
    printf("\n");
    fflush(stdout);
}

void rb_report(rb_stats *s, unsigned long iter, const uint8_t *in, size_t len, const char *fmt, ...)
{
    va_list ap;
    size_t i;

    s->failures++;
    if (s->failures > MAX_REPORTED) {
        return;
    }
    printf("FAIL robust %s, iteration %lu: ", s->what, iter);
    va_start(ap, fmt);
    vprintf(fmt, ap);
    va_end(ap);
    printf("\n  input (%zu bytes): ", len);
    for (i = 0; i < len && i < 600; i++) {
        printf(in[i] >= 0x20 && in[i] < 0x7f ? "%c" : "\\x%02x", in[i]);
    }
    printf("%s\n", len > 600 ? "..." : "");
    fflush(stdout);
}

/* ---- mutations ----------------------------------------------------------------------------- */

void rb_buf_insert(rb_buf *b, size_t at, const void *src, size_t n)
{
    if (n > b->cap - b->len) {
        n = b->cap - b->len;
    }
    memmove(b->p + at + n, b->p + at, b->len - at);
    memcpy(b->p + at, src, n);
    b->len += n;
}

void rb_buf_delete(rb_buf *b, size_t at, size_t n)
{
    memmove(b->p + at, b->p + at + n, b->len - at - n);
    b->len -= n;
}

size_t rb_pick_pos(const rb_buf *b) /* 0..len */
{
    return vt_rand_below(b->len + 1);
}

void rb_put_token(rb_buf *b, const char *const *tokens, size_t n_tokens, int replace)
{
    const char *t = tokens[vt_rand_below(n_tokens)];
    size_t tl = strlen(t), at = rb_pick_pos(b);

    if (vt_rand_below(8) == 0) { /* a NUL byte: a token list cannot hold it */
        t = "";
        tl = 1;
    }
    if (replace && at < b->len) {
        rb_buf_delete(b, at, 1);
    }
    rb_buf_insert(b, at, tl == 1 && t[0] == '\0' ? "\0" : t, tl);
}

/* The mutations that may break the input. */
void rb_mutate_any(rb_buf *b, const char *const *tokens, size_t n_tokens)
{
    size_t at = rb_pick_pos(b), n;
    uint8_t tmp[RB_MAX_GROWTH];

    switch (vt_rand_below(9)) {
    case 0: /* flip a bit */
        if (b->len > 0) {
            at = vt_rand_below(b->len);
            b->p[at] ^= (uint8_t)(1u << vt_rand_below(8));
        }
        break;
    case 1: /* set a byte (possibly to its own value) */
        if (b->len > 0) {
            b->p[vt_rand_below(b->len)] = (uint8_t)vt_rand_u64();
        }
        break;
    case 2: /* insert random bytes */
        n = 1 + vt_rand_below(4);
        vt_rand_bytes(tmp, n);
        rb_buf_insert(b, at, tmp, n);
        break;
    case 3: /* delete a span */
        n = vt_rand_below(b->len - (at < b->len ? at : b->len) + 1);
        rb_buf_delete(b, at < b->len ? at : b->len, n > 16 && vt_rand_below(4) != 0 ? 16 : n);
        break;
    case 4: /* truncate */
        b->len = vt_rand_below(b->len + 1);
        break;
    case 5: /* duplicate a span elsewhere */
        if (b->len > 0) {
            size_t from = vt_rand_below(b->len);

            n = 1 + vt_rand_below(b->len - from < 64 ? b->len - from : 64);
            memcpy(tmp, b->p + from, n);
            rb_buf_insert(b, rb_pick_pos(b), tmp, n);
        }
        break;
    case 6: /* swap a byte for a significant token */
        rb_put_token(b, tokens, n_tokens, 1);
        break;
    default: /* insert a significant token */
        rb_put_token(b, tokens, n_tokens, 0);
        break;
    }
}

/* ---- loading ------------------------------------------------------------------------------- */

static void add_event_text(rb_env *env, const char *text, int valid, const char *ser)
{
    rb_item *it;

    if (text == NULL || strlen(text) > RB_MAX_SEED_JSON || env->n_ev == RB_MAX_CORPUS) {
        return;
    }
    it = &env->ev[env->n_ev++];
    memset(it, 0, sizeof *it);
    it->text = text;
    it->len = strlen(text);
    it->valid = valid && ser != NULL;
    it->ser = ser;
    it->ser_len = ser != NULL ? strlen(ser) : 0;
}

static void load_events(rb_env *env)
{
    const cJSON *c, *g, *a;

    cJSON_ArrayForEach(c, cJSON_GetObjectItemCaseSensitive(env->events, "events"))
    {
        const char *ser = vt_json_str(c, "serialized");
        vt_bytes id;

        if (ser != NULL && env->n_known < RB_MAX_CORPUS && vt_json_hex(c, "id", &id)) {
            if (id.n == 32) {
                rb_known *k = &env->known[env->n_known++];

                memcpy(k->id, id.p, 32);
                k->ser = ser;
                k->ser_len = strlen(ser);
            }
            vt_bytes_free(&id);
        }
        add_event_text(env, vt_json_str(c, "json"), 1, ser);
    }
    cJSON_ArrayForEach(g, cJSON_GetObjectItemCaseSensitive(env->events, "alternate_encodings"))
    {
        const char *ser = NULL;
        const char *name = vt_json_str(g, "name");

        cJSON_ArrayForEach(c, cJSON_GetObjectItemCaseSensitive(env->events, "events"))
        {
            const char *n = vt_json_str(c, "name");

            if (n != NULL && name != NULL && strcmp(n, name) == 0) {
                ser = vt_json_str(c, "serialized");
            }
        }
        cJSON_ArrayForEach(a, cJSON_GetObjectItemCaseSensitive(g, "encodings"))
        {
            add_event_text(env, vt_json_str(a, "json"), 1, ser);
        }
    }
    cJSON_ArrayForEach(c, cJSON_GetObjectItemCaseSensitive(env->events, "rejects"))
    {
        add_event_text(env, vt_json_str(c, "json"), 0, NULL);
    }
}

static void add_payload(rb_env *env, const cJSON *c, const char *pt_key)
{
    const char *payload = vt_json_str(c, "payload");
    vt_bytes ck, pt;
    rb_item *it;

    if (payload == NULL || strlen(payload) > RB_MAX_SEED_PAYLOAD || env->n_pl == RB_MAX_CORPUS ||
        !vt_json_hex(c, "conversation_key", &ck)) {
        return;
    }
    if (ck.n != 32 || !vt_json_hex(c, pt_key, &pt)) {
        vt_bytes_free(&ck);
        return;
    }
    it = &env->pl[env->n_pl];
    memset(it, 0, sizeof *it);
    memcpy(env->cks[env->n_pl], ck.p, 32);
    vt_bytes_free(&ck);
    it->text = payload;
    it->len = strlen(payload);
    it->valid = 1;
    it->ck = env->cks[env->n_pl];
    it->pt = pt;
    env->n_pl++;
}

static void load_nip44(rb_env *env)
{
    const cJSON *c;

    cJSON_ArrayForEach(c, cJSON_GetObjectItemCaseSensitive(env->nip44, "encrypt"))
    {
        add_payload(env, c, "plaintext");
    }
    cJSON_ArrayForEach(c, cJSON_GetObjectItemCaseSensitive(env->nip44, "rejects"))
    {
        const char *expect = vt_json_str(c, "expect");

        if (expect != NULL && strcmp(expect, "SC_OK") == 0) {
            add_payload(env, c, "plaintext"); /* the controls are valid payloads too */
        }
    }
}

int main(int argc, char **argv)
{
    static rb_env env;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_prestate(test_robust_events, &env),
        cmocka_unit_test_prestate(test_robust_nip44, &env),
    };
    const char *seed_arg = NULL, *iterations_arg = NULL;
    const vt_suite_opt extra[] = {{"--seed", &seed_arg}, {"--iterations", &iterations_arg}};
    vt_suite suite;
    char why[512];
    size_t i;
    int failed;

    failed = vt_suite_start(&suite, &env.ctx, argc, argv, "test_robust",
                            "mutated events and NIP-44 payloads (the upstream folder is not used)",
                            NULL, extra, sizeof extra / sizeof extra[0]);
    if (failed != 0) {
        return failed;
    }
    env.own_dir = suite.own_dir;
    if (getenv("SOFTCHAT_ROBUST_ITERATIONS") != NULL) {
        iterations_arg = getenv("SOFTCHAT_ROBUST_ITERATIONS");
    }
    env.iterations = iterations_arg != NULL ? strtoul(iterations_arg, NULL, 0) : DEFAULT_ITERATIONS;
    if (env.iterations == 0) {
        fprintf(stderr, "test_robust: --iterations must be a positive number\n");
        return 1;
    }
    if (seed_arg != NULL) {
        env.seed = strtoull(seed_arg, NULL, 0);
    } else {
        /* fixed per backend (reproducible in CI), different across backends */
        env.seed = DEFAULT_SEED;
        for (i = 0; suite.backend[i] != '\0'; i++) {
            env.seed = (env.seed ^ (uint8_t)suite.backend[i]) * 0x100000001b3ull;
        }
    }
    env.backend = suite.backend;
    env.events = vt_load_json(env.own_dir, RB_EVENTS_FILE, why, sizeof why);
    if (env.events == NULL) {
        printf("ERROR: %s/%s: %s\n", env.own_dir, RB_EVENTS_FILE, why);
    } else {
        load_events(&env);
    }
    env.nip44 = vt_load_json(env.own_dir, RB_NIP44_FILE, why, sizeof why);
    if (env.nip44 == NULL) {
        printf("ERROR: %s/%s: %s\n", env.own_dir, RB_NIP44_FILE, why);
    } else {
        load_nip44(&env);
    }
    printf("[==========] group %s: %lu mutations, seed 0x%llx (rerun: --seed 0x%llx "
           "--iterations %lu); %zu event texts, %zu payloads to mutate\n",
           suite.backend, env.iterations, (unsigned long long)env.seed,
           (unsigned long long)env.seed, env.iterations, env.n_ev, env.n_pl);
    fflush(stdout);
    failed = cmocka_run_group_tests_name(suite.backend, tests, NULL, NULL);
    for (i = 0; i < env.n_pl; i++) {
        vt_bytes_free(&env.pl[i].pt);
    }
    cJSON_Delete(env.events);
    cJSON_Delete(env.nip44);
    sc_ctx_clear(&env.ctx);
    return failed != 0 ? 1 : 0;
}
