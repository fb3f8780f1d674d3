/* NIP-01 events from nostr-tools (vectors/nostr-tools.events.json).
 *
 * For each event: our parse of nostr-tools' JSON, our canonical serialisation (byte for byte
 * the serializeEvent string), our object form (byte for byte JSON.stringify with our key
 * order), our id, our verification of their signature, and our signature with the same key
 * and aux (through the parsed event and through the builder) all agree. Alternate encodings
 * parse to the same event; rejects fail with the recorded status. */
#include "test_interop.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ERRMAX 400

/* A parsed event with the arena it points into. */
typedef struct it_parsed {
    sc_event ev;
    void *arena;
    size_t arena_used;
} it_parsed;

static void parsed_free(it_parsed *p)
{
    free(p->arena);
    p->arena = NULL;
}

/* Parses json[0..len) with opts NULL (all seven fields required). */
static sc_status parse_text(it_parsed *p, const char *json, size_t len)
{
    size_t cap = sc_event_parse_arena_max(len);

    memset(p, 0, sizeof *p);
    p->arena = vt_alloc(cap);
    return sc_event_parse(&p->ev, p->arena, cap, &p->arena_used, json, len, NULL);
}

static int event_is_zero(const sc_event *ev)
{
    return vt_all_zero(ev->id, sizeof ev->id) && vt_all_zero(ev->pubkey, sizeof ev->pubkey) &&
           vt_all_zero(ev->sig, sizeof ev->sig) && ev->created_at == 0 && ev->kind == 0 &&
           ev->tags == NULL && ev->n_tags == 0 && ev->content.ptr == NULL && ev->content.len == 0 &&
           ev->flags == 0;
}

/* Writes ev under flags into a fresh buffer and compares it with want. Also checks the size
 * function and the BUFFER_TOO_SMALL contract. NULL on success, else a message in err. */
static const char *check_json(char *err, const sc_event *ev, unsigned flags, const char *want,
                              size_t want_len, const char *what)
{
    size_t need = sc_event_to_json_len(ev, flags), got_len = 0, small_len = 0;
    char *out = (char *)vt_alloc(want_len + 1);
    sc_status st;
    const char *res = NULL;

    if (need != want_len) {
        snprintf(err, ERRMAX, "%s: sc_event_to_json_len = %zu, nostr-tools' text is %zu bytes",
                 what, need, want_len);
        res = err;
        goto out;
    }
    st = sc_event_to_json(out, want_len, &got_len, ev, flags);
    if (st != SC_OK || got_len != want_len || memcmp(out, want, want_len) != 0) {
        size_t at = it_first_diff(out, got_len, want, want_len);

        snprintf(err, ERRMAX, "%s: %s, %zu bytes vs nostr-tools' %zu, first difference at byte %zu",
                 what, sc_status_name(st), got_len, want_len, at);
        res = err;
        goto out;
    }
    if (want_len > 0) {
        st = sc_event_to_json(out, want_len - 1, &small_len, ev, flags);
        if (st != SC_ERR_BUFFER_TOO_SMALL || small_len != want_len) {
            snprintf(err, ERRMAX, "%s: one byte short gives %s with need %zu (want %zu)", what,
                     sc_status_name(st), small_len, want_len);
            res = err;
        }
    }
out:
    free(out);
    return res;
}

/* Signs a copy of ev (id and sig cleared) with sk and aux; compares with the recorded id and
 * sig. NULL on success. */
static const char *check_resign(char *err, it_env *env, const sc_event *src, const sc_identity *who,
                                const uint8_t aux[32], const uint8_t want_id[32],
                                const uint8_t want_sig[64], const char *what)
{
    sc_event ev = *src;
    sc_status st;
    char h1[100], h2[100];

    memset(ev.id, 0, sizeof ev.id);
    memset(ev.sig, 0, sizeof ev.sig);
    ev.flags &= ~(SC_EVENT_HAS_ID | SC_EVENT_HAS_SIG);
    st = sc_event_sign_with_rand(&env->ctx, &ev, who, aux);
    if (st != SC_OK) {
        snprintf(err, ERRMAX, "%s: sc_event_sign_with_rand: %s", what, sc_status_name(st));
        return err;
    }
    if ((ev.flags & (SC_EVENT_HAS_PUBKEY | SC_EVENT_HAS_ID | SC_EVENT_HAS_SIG)) !=
        (SC_EVENT_HAS_PUBKEY | SC_EVENT_HAS_ID | SC_EVENT_HAS_SIG)) {
        snprintf(err, ERRMAX, "%s: flags 0x%x after signing", what, ev.flags);
        return err;
    }
    if (memcmp(ev.id, want_id, 32) != 0) {
        snprintf(err, ERRMAX, "%s: id %s, nostr-tools %s", what,
                 vt_hexstr(h1, sizeof h1, ev.id, 32), vt_hexstr(h2, sizeof h2, want_id, 32));
        return err;
    }
    if (memcmp(ev.sig, want_sig, 64) != 0) {
        snprintf(err, ERRMAX, "%s: sig %s, noble %s", what, vt_hexstr(h1, sizeof h1, ev.sig, 64),
                 vt_hexstr(h2, sizeof h2, want_sig, 64));
        return err;
    }
    st = sc_event_verify(&env->ctx, &ev);
    if (st != SC_OK) {
        snprintf(err, ERRMAX, "%s: our own signature does not verify: %s", what,
                 sc_status_name(st));
        return err;
    }
    return NULL;
}

/* Rebuilds the event through the builder (strings copied) and signs it. */
static const char *check_builder(char *err, it_env *env, const sc_event *src,
                                 const sc_identity *who, const uint8_t aux[32],
                                 const uint8_t want_id[32], const uint8_t want_sig[64],
                                 size_t json_len)
{
    size_t i, items = 0, cap;
    sc_event_builder b;
    sc_event ev;
    void *buf;
    const char *res;
    sc_status st;

    for (i = 0; i < src->n_tags; i++) {
        items += src->tags[i].n_items;
    }
    cap = 2 * json_len + (items + src->n_tags) * 2 * sizeof(sc_str) + 4096;
    buf = vt_alloc(cap);
    st = sc_event_builder_init(&b, buf, cap);
    if (st != SC_OK) {
        snprintf(err, ERRMAX, "builder init: %s", sc_status_name(st));
        free(buf);
        return err;
    }
    sc_event_builder_kind(&b, src->kind);
    sc_event_builder_created_at(&b, src->created_at);
    sc_event_builder_content(&b, src->content.ptr, src->content.len);
    for (i = 0; i < src->n_tags; i++) {
        sc_event_builder_tag(&b, src->tags[i].items, src->tags[i].n_items);
    }
    st = sc_event_builder_final(&b, &ev, NULL);
    if (st != SC_OK) {
        snprintf(err, ERRMAX, "builder finish (cap %zu): %s", cap, sc_status_name(st));
        free(buf);
        return err;
    }
    res = check_resign(err, env, &ev, who, aux, want_id, want_sig, "builder");
    free(buf);
    return res;
}

/* Every check of one event. NULL on success. */
static const char *check_event(char *err, it_env *env, const cJSON *c)
{
    const cJSON *obj = cJSON_GetObjectItemCaseSensitive(c, "event");
    uint8_t sk[32], aux[32], id[32], sig[64], pub[32], got[32];
    size_t json_len, ser_len, need = 0;
    const char *json = it_json_text(c, "json", &json_len);
    const char *ser = it_json_text(c, "serialized", &ser_len);
    int64_t kind, created_at;
    it_parsed p;
    sc_identity who;
    const char *res = NULL;
    sc_status st;
    char h1[100];

    memset(&p, 0, sizeof p);
    memset(&who, 0, sizeof who);
    if (json == NULL || ser == NULL || !cJSON_IsObject(obj) ||
        !it_json_hex_exact(c, "sk", sk, 32) || !it_json_hex_exact(c, "aux", aux, 32) ||
        !it_json_hex_exact(c, "id", id, 32) || !it_json_hex_exact(c, "sig", sig, 64) ||
        !it_json_hex_exact(obj, "pubkey", pub, 32) || !it_json_i64(obj, "kind", &kind) ||
        !it_json_i64(obj, "created_at", &created_at)) {
        return "malformed vector";
    }
    /* The vector itself: id = sha256(serialized). */
    if (sc_crypto_sha256(&env->ctx, got, (const uint8_t *)ser, ser_len) != SC_OK ||
        memcmp(got, id, 32) != 0) {
        return "vector: id is not sha256(serialized)";
    }
    /* Arena sizing: 0 bytes reports the exact need (or succeeds when nothing needs the
     * arena); the need is enough; one less is not. */
    st = sc_event_parse(&p.ev, NULL, 0, &need, json, json_len, NULL);
    if (!(st == SC_ERR_BUFFER_TOO_SMALL && need != 0) && !(st == SC_OK && need == 0)) {
        snprintf(err, ERRMAX, "parse with no arena: %s, need %zu", sc_status_name(st), need);
        return err;
    }
    if (need > sc_event_parse_arena_max(json_len)) {
        snprintf(err, ERRMAX, "parse with no arena: %s, need %zu (bound %zu)", sc_status_name(st),
                 need, sc_event_parse_arena_max(json_len));
        return err;
    }
    st = parse_text(&p, json, json_len);
    if (st != SC_OK) {
        snprintf(err, ERRMAX, "sc_event_parse: %s", sc_status_name(st));
        res = err;
        goto out;
    }
    if (p.arena_used != need) {
        snprintf(err, ERRMAX, "arena used %zu, the size query said %zu", p.arena_used, need);
        res = err;
        goto out;
    }
    {
        it_parsed exact;
        void *a = vt_alloc(need); /* at least one byte, exactly `need` usable */
        size_t used = 0;

        st = sc_event_parse(&exact.ev, a, need, &used, json, json_len, NULL);
        if (st == SC_OK && need > 1) {
            st = sc_event_parse(&exact.ev, a, need - 1, &used, json, json_len, NULL) ==
                         SC_ERR_BUFFER_TOO_SMALL
                     ? SC_OK
                     : SC_ERR_INTERNAL;
        }
        free(a);
        if (st != SC_OK) {
            snprintf(err, ERRMAX, "parse into exactly %zu (and %zu) bytes of arena: %s", need,
                     need - 1, sc_status_name(st));
            res = err;
            goto out;
        }
    }
    if (p.ev.flags != SC_EVENT_SIGNED || p.ev.kind != (uint32_t)kind ||
        p.ev.created_at != created_at || memcmp(p.ev.pubkey, pub, 32) != 0 ||
        memcmp(p.ev.id, id, 32) != 0 || memcmp(p.ev.sig, sig, 64) != 0 ||
        p.ev.n_tags != (size_t)cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(obj, "tags"))) {
        snprintf(err, ERRMAX, "parsed fields differ (flags 0x%x kind %u created_at %lld, %zu tags)",
                 p.ev.flags, p.ev.kind, (long long)p.ev.created_at, p.ev.n_tags);
        res = err;
        goto out;
    }
    if ((res = check_json(err, &p.ev, SC_EVENT_JSON_CANONICAL, ser, ser_len, "canonical")) !=
            NULL ||
        (res = check_json(err, &p.ev, SC_EVENT_JSON_OBJECT, json, json_len, "object")) != NULL) {
        goto out;
    }
    st = sc_event_compute_id(&env->ctx, got, &p.ev);
    if (st != SC_OK || memcmp(got, id, 32) != 0) {
        snprintf(err, ERRMAX, "sc_event_compute_id: %s, %s", sc_status_name(st),
                 vt_hexstr(h1, sizeof h1, got, 32));
        res = err;
        goto out;
    }
    st = sc_event_verify(&env->ctx, &p.ev);
    if (st != SC_OK) {
        snprintf(err, ERRMAX, "sc_event_verify of nostr-tools' event: %s", sc_status_name(st));
        res = err;
        goto out;
    }
    st = sc_identity_import(&env->ctx, &who, sk);
    if (st != SC_OK || sc_identity_pubkey(got, &who) != SC_OK || memcmp(got, pub, 32) != 0) {
        snprintf(err, ERRMAX, "identity from sk: %s, pubkey %s", sc_status_name(st),
                 vt_hexstr(h1, sizeof h1, got, 32));
        res = err;
        goto out;
    }
    if ((res = check_resign(err, env, &p.ev, &who, aux, id, sig, "re-sign")) != NULL ||
        (res = check_builder(err, env, &p.ev, &who, aux, id, sig, json_len)) != NULL) {
        goto out;
    }
out:
    sc_identity_clear(&who);
    parsed_free(&p);
    return res;
}

void test_interop_events(void **state)
{
    it_env *env = it_env_of(state);
    const cJSON *arr = it_need_array(env, env->events, IT_EVENTS_FILE, env->events_why, "events");
    const cJSON *c;
    vt_report r;
    char err[ERRMAX];

    vt_report_init(&r, env->backend, IT_EVENTS_FILE " events");
    cJSON_ArrayForEach(c, arr)
    {
        const char *res = check_event(err, env, c);

        if (res == NULL) {
            vt_case_pass(&r);
        } else {
            vt_case_fail(&r, "event %s: %s", vt_json_str(c, "name"), res);
        }
    }
    vt_report_finish(&r, (size_t)cJSON_GetArraySize(arr));
}

/* The canonical text of the event named `name` in events[]. */
static const char *serialized_of(const it_env *env, const char *name, size_t *len)
{
    const cJSON *c;

    cJSON_ArrayForEach(c, cJSON_GetObjectItemCaseSensitive(env->events, "events"))
    {
        const char *n = vt_json_str(c, "name");

        if (n != NULL && name != NULL && strcmp(n, name) == 0) {
            return it_json_text(c, "serialized", len);
        }
    }
    return NULL;
}

static const char *check_alternate(char *err, it_env *env, const char *json, size_t json_len,
                                   const uint8_t id[32], const char *ser, size_t ser_len)
{
    it_parsed p;
    uint8_t got[32];
    const char *res = NULL;
    sc_status st;

    st = parse_text(&p, json, json_len);
    if (st != SC_OK) {
        snprintf(err, ERRMAX, "sc_event_parse: %s", sc_status_name(st));
        res = err;
        goto out;
    }
    if (memcmp(p.ev.id, id, 32) != 0) {
        res = "parsed id differs";
        goto out;
    }
    st = sc_event_compute_id(&env->ctx, got, &p.ev);
    if (st != SC_OK || memcmp(got, id, 32) != 0) {
        snprintf(err, ERRMAX, "recomputed id differs (%s)", sc_status_name(st));
        res = err;
        goto out;
    }
    if ((res = check_json(err, &p.ev, SC_EVENT_JSON_CANONICAL, ser, ser_len, "canonical")) !=
        NULL) {
        goto out;
    }
    st = sc_event_verify(&env->ctx, &p.ev);
    if (st != SC_OK) {
        snprintf(err, ERRMAX, "sc_event_verify: %s", sc_status_name(st));
        res = err;
    }
out:
    parsed_free(&p);
    return res;
}

void test_interop_event_alternates(void **state)
{
    it_env *env = it_env_of(state);
    const cJSON *arr =
        it_need_array(env, env->events, IT_EVENTS_FILE, env->events_why, "alternate_encodings");
    const cJSON *g, *a;
    vt_report r;
    size_t total = 0;
    char err[ERRMAX];

    vt_report_init(&r, env->backend, IT_EVENTS_FILE " alternate_encodings");
    cJSON_ArrayForEach(g, arr)
    {
        const char *name = vt_json_str(g, "name");
        size_t ser_len = 0;
        const char *ser = serialized_of(env, name, &ser_len);
        uint8_t id[32];
        int ok = ser != NULL && it_json_hex_exact(g, "id", id, 32);

        cJSON_ArrayForEach(a, cJSON_GetObjectItemCaseSensitive(g, "encodings"))
        {
            size_t len = 0;
            const char *json = it_json_text(a, "json", &len);
            const char *res;

            total++;
            res = ok && json != NULL ? check_alternate(err, env, json, len, id, ser, ser_len)
                                     : "malformed vector";
            if (res == NULL) {
                vt_case_pass(&r);
            } else {
                vt_case_fail(&r, "%s / %s: %s", name, vt_json_str(a, "what"), res);
            }
        }
    }
    vt_report_finish(&r, total);
}

static const char *check_reject(char *err, it_env *env, const cJSON *c)
{
    size_t len = 0;
    const char *json = it_json_text(c, "json", &len);
    const char *stage = vt_json_str(c, "stage");
    int want = it_status_by_name(vt_json_str(c, "expect"));
    it_parsed p;
    const char *res = NULL;
    sc_status st;

    if (json == NULL || stage == NULL || want > 0) {
        return "malformed vector";
    }
    st = parse_text(&p, json, len);
    if (strcmp(stage, "parse") == 0) {
        if ((int)st != want) {
            snprintf(err, ERRMAX, "sc_event_parse: %s, want %s", sc_status_name(st),
                     sc_status_name((sc_status)want));
            res = err;
        } else if (!event_is_zero(&p.ev)) {
            res = "the event is not zeroed after a failed parse";
        }
    } else if (strcmp(stage, "verify") == 0) {
        if (st != SC_OK) {
            snprintf(err, ERRMAX, "sc_event_parse: %s, want SC_OK before verification",
                     sc_status_name(st));
            res = err;
        } else if ((int)(st = sc_event_verify(&env->ctx, &p.ev)) != want) {
            snprintf(err, ERRMAX, "sc_event_verify: %s, want %s", sc_status_name(st),
                     sc_status_name((sc_status)want));
            res = err;
        }
    } else {
        res = "malformed vector (stage)";
    }
    parsed_free(&p);
    return res;
}

void test_interop_event_rejects(void **state)
{
    it_env *env = it_env_of(state);
    const cJSON *arr = it_need_array(env, env->events, IT_EVENTS_FILE, env->events_why, "rejects");
    const cJSON *c;
    vt_report r;
    size_t stricter = 0;
    char err[ERRMAX];

    vt_report_init(&r, env->backend, IT_EVENTS_FILE " rejects");
    cJSON_ArrayForEach(c, arr)
    {
        const char *res = check_reject(err, env, c);
        const char *nt = vt_json_str(c, "nostr_tools");

        if (nt != NULL && strcmp(nt, "accepts") == 0) {
            stricter++;
        }
        if (res == NULL) {
            vt_case_pass(&r);
        } else {
            vt_case_fail(&r, "reject %s: %s", vt_json_str(c, "name"), res);
        }
    }
    snprintf(r.detail, sizeof r.detail, "%zu of them accepted by nostr-tools, refused here",
             stricter);
    vt_report_finish(&r, (size_t)cJSON_GetArraySize(arr));
}
