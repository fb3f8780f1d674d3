/* nip01.events.json: all 24 entries. For each, the raw text of its "event" object (exactly
 * as the file writes it: pretty-printed, in the entry's key order, with \u escapes) is
 * parsed; the canonical serialization must equal "serialized" byte for byte and the id must
 * be its SHA-256; verification must give SC_OK for valid entries and the listed failure for
 * the others; the OBJECT form must parse back to the same event. Entries generated with the
 * BIP-340 vector-1 key and zero aux are also re-signed and must reproduce id and sig. */
#include "test_event.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NIP01_FILE "nip01.events.json"
#define NIP01_ENTRIES 24
#define NIP01_VALID 18

/* Why each invalid entry must fail, and where. */
typedef struct expect_fail {
    const char *name;
    int at_parse; /* rejected by sc_event_parse (else by sc_event_verify) */
    sc_status st;
} expect_fail;

static const expect_fail k_invalid[] = {
    {"invalid-id-content-changed", 0, SC_ERR_ID_MISMATCH},
    {"invalid-id-created_at-changed", 0, SC_ERR_ID_MISMATCH},
    {"invalid-sig-bitflip", 0, SC_ERR_INVALID_SIG},
    {"invalid-sig-wrong-pubkey", 0, SC_ERR_INVALID_SIG},
    {"invalid-id-uppercase-hex", 1, SC_ERR_EVENT_FIELD},
    {"invalid-id-nip98-current-example", 0, SC_ERR_ID_MISMATCH},
};

static const expect_fail *invalid_expectation(const char *name)
{
    size_t k;

    for (k = 0; k < sizeof k_invalid / sizeof k_invalid[0]; k++) {
        if (strcmp(k_invalid[k].name, name) == 0) {
            return &k_invalid[k];
        }
    }
    return NULL;
}

/* The raw text of the next "event": {...} value at or after *at in text; NULL at the end.
 * A JSON string cannot contain the bytes "event" followed by ':' unescaped, so a plain
 * search finds only keys. */
static const char *next_event_object(const char *text, size_t *at, size_t *len)
{
    const char *p = strstr(text + *at, "\"event\"");
    int depth = 0, in_str = 0;
    const char *q;

    if (p == NULL) {
        return NULL;
    }
    for (q = p + 7; *q == ' ' || *q == '\n' || *q == '\r' || *q == '\t'; q++) {
    }
    if (*q != ':') {
        *at = (size_t)(p - text) + 7;
        return next_event_object(text, at, len);
    }
    p = strchr(q, '{');
    for (q = p; *q != '\0'; q++) {
        if (in_str) {
            if (*q == '\\' && q[1] != '\0') {
                q++;
            } else if (*q == '"') {
                in_str = 0;
            }
        } else if (*q == '"') {
            in_str = 1;
        } else if (*q == '{') {
            depth++;
        } else if (*q == '}' && --depth == 0) {
            *len = (size_t)(q + 1 - p);
            *at = (size_t)(q + 1 - text);
            return p;
        }
    }
    return NULL;
}

typedef struct counts {
    size_t parsed_fail, verified_ok, verified_fail, round_trips, resigned;
} counts;

/* Checks the scalar fields against cJSON's reading of the same entry. */
static int fields_match(const cJSON *obj, const sc_event *ev, char *err, size_t cap)
{
    static const char *const hex_keys[] = {"id", "pubkey", "sig"};
    const uint8_t *mine[] = {ev->id, ev->pubkey, ev->sig};
    const cJSON *tags = cJSON_GetObjectItemCaseSensitive(obj, "tags");
    long kind = -1;
    int64_t created = -1;
    size_t k;

    for (k = 0; k < 3; k++) {
        vt_bytes b = {0};
        int ok = vt_json_hex(obj, hex_keys[k], &b) && memcmp(b.p, mine[k], b.n) == 0 &&
                 b.n == (k == 2 ? 64u : 32u);

        vt_bytes_free(&b);
        if (!ok) {
            snprintf(err, cap, "%s differs from the file", hex_keys[k]);
            return 0;
        }
    }
    if (!vt_json_long(obj, "kind", &kind) || !vt_json_i64(obj, "created_at", &created) ||
        (long)ev->kind != kind || ev->created_at != created) {
        snprintf(err, cap, "kind/created_at differ from the file");
        return 0;
    }
    if (!cJSON_IsArray(tags) || (size_t)cJSON_GetArraySize(tags) != ev->n_tags) {
        snprintf(err, cap, "tag count differs from the file");
        return 0;
    }
    return 1;
}

/* Parse -> OBJECT -> parse preserves every field, and the second OBJECT text is identical. */
static int round_trip(const sc_event *ev, char *err, size_t cap)
{
    size_t len1 = 0, len2 = 0, need = 0, used = 0;
    char *j1 = ev_to_json(ev, SC_EVENT_JSON_OBJECT, &len1), *j2 = NULL;
    uint8_t *arena;
    sc_event back;
    sc_status st;
    int ok = 0;

    st = sc_event_parse(&back, NULL, 0, &need, j1, len1, NULL);
    if (st != SC_ERR_BUFFER_TOO_SMALL && !(st == SC_OK && need == 0)) {
        snprintf(err, cap, "measuring the reparse: %s", sc_status_name(st));
        free(j1);
        return 0;
    }
    arena = vt_alloc(need);
    st = ev_parse_exact(&back, arena, need, &used, j1, len1, NULL);
    if (st != SC_OK || used != need) {
        snprintf(err, cap, "reparse of the OBJECT form: %s (used %zu of %zu)", sc_status_name(st),
                 used, need);
    } else if (!ev_same(ev, &back, err, cap)) {
        /* err says why */
    } else {
        j2 = ev_to_json(&back, SC_EVENT_JSON_OBJECT, &len2);
        ok = len1 == len2 && memcmp(j1, j2, len1) == 0;
        if (!ok) {
            snprintf(err, cap, "second OBJECT text differs");
        }
    }
    free(j1);
    free(j2);
    free(arena);
    return ok;
}

/* Re-signs an entry made with the BIP-340 vector-1 key and zero aux: same id and sig. */
static int resign(ev_env *env, const sc_event *ev, char *err, size_t cap)
{
    static const uint8_t zero_aux[32] = {0};
    sc_identity who;
    sc_event copy = *ev;
    sc_status st;

    ev_identity(env, &who);
    memset(copy.sig, 0, sizeof copy.sig);
    memset(copy.id, 0, sizeof copy.id);
    st = sc_event_sign_with_rand(&env->ctx, &copy, &who, zero_aux);
    sc_identity_clear(&who);
    if (st != SC_OK || memcmp(copy.id, ev->id, 32) != 0 || memcmp(copy.sig, ev->sig, 64) != 0) {
        snprintf(err, cap, "re-signing: %s, id/sig differ", sc_status_name(st));
        return 0;
    }
    return 1;
}

static int run_entry(ev_env *env, const cJSON *entry, const char *raw, size_t raw_len, counts *c,
                     char *err, size_t cap)
{
    const char *name = vt_json_str(entry, "name");
    const char *serialized = vt_json_str(entry, "serialized");
    const char *origin = vt_json_str(entry, "origin");
    const cJSON *valid = cJSON_GetObjectItemCaseSensitive(entry, "valid");
    const cJSON *obj = cJSON_GetObjectItemCaseSensitive(entry, "event");
    const expect_fail *x = NULL;
    size_t need = sc_event_parse_arena_max(raw_len), used = 0, len = 0;
    uint8_t *arena = vt_alloc(need), id[32], want_id[32];
    char *canon = NULL, h[80];
    sc_event ev;
    sc_status st;
    int ok = 0;

    if (name == NULL || serialized == NULL || origin == NULL || !cJSON_IsBool(valid) ||
        !cJSON_IsObject(obj)) {
        snprintf(err, cap, "malformed entry");
        goto out;
    }
    if (!cJSON_IsTrue(valid) && (x = invalid_expectation(name)) == NULL) {
        snprintf(err, cap, "%s: invalid entry without a known expected failure", name);
        goto out;
    }
    st = ev_parse_exact(&ev, arena, need, &used, raw, raw_len, NULL);
    if (x != NULL && x->at_parse) {
        ok = st == x->st;
        if (!ok) {
            snprintf(err, cap, "%s: parse gave %s, expected %s", name, sc_status_name(st),
                     sc_status_name(x->st));
        }
        c->parsed_fail += ok;
        goto out;
    }
    if (st != SC_OK || ev.flags != SC_EVENT_SIGNED) {
        snprintf(err, cap, "%s: parse gave %s (flags %u)", name, sc_status_name(st), ev.flags);
        goto out;
    }
    if (!fields_match(obj, &ev, err, cap)) {
        goto out;
    }
    canon = ev_to_json(&ev, SC_EVENT_JSON_CANONICAL, &len);
    if (len != strlen(serialized) || memcmp(canon, serialized, len) != 0) {
        snprintf(err, cap, "%s: canonical text differs from \"serialized\" (%zu vs %zu bytes)",
                 name, len, strlen(serialized));
        goto out;
    }
    st = sc_event_compute_id(&env->ctx, id, &ev);
    if (st != SC_OK ||
        sc_crypto_sha256(&env->ctx, want_id, (const uint8_t *)serialized, strlen(serialized)) !=
            SC_OK ||
        memcmp(id, want_id, 32) != 0) {
        snprintf(err, cap, "%s: id %s is not sha256(serialized)", name,
                 vt_hexstr(h, sizeof h, id, 32));
        goto out;
    }
    if ((memcmp(id, ev.id, 32) == 0) != (x == NULL || x->st != SC_ERR_ID_MISMATCH)) {
        snprintf(err, cap, "%s: the computed id %s the stated one", name,
                 x == NULL ? "differs from" : "equals");
        goto out;
    }
    st = sc_event_verify(&env->ctx, &ev);
    if (st != (x != NULL ? x->st : SC_OK)) {
        snprintf(err, cap, "%s: verify gave %s, expected %s", name, sc_status_name(st),
                 sc_status_name(x != NULL ? x->st : SC_OK));
        goto out;
    }
    c->verified_ok += x == NULL;
    c->verified_fail += x != NULL;
    if (!round_trip(&ev, err, cap)) {
        goto out;
    }
    c->round_trips++;
    if (x == NULL && strncmp(origin, "generated locally", 17) == 0) {
        if (!resign(env, &ev, err, cap)) {
            goto out;
        }
        c->resigned++;
    }
    ok = 1;
out:
    free(canon);
    free(arena);
    return ok;
}

void test_nip01_vectors(void **state)
{
    ev_env *env = ev_env_of(state);
    char err[512], *path, *text;
    cJSON *root, *events;
    const cJSON *entry;
    size_t at = 0, valid = 0, index = 0;
    counts c = {0};
    vt_report r;

    root = vt_upstream_json(env->backend, env->vectors_dir, env->vectors_present, NIP01_FILE);
    path = vt_path_join(env->vectors_dir, NIP01_FILE);
    text = vt_read_file(path, NULL);
    free(path);
    events = cJSON_GetObjectItemCaseSensitive(root, "events");
    if (text == NULL || !cJSON_IsArray(events)) {
        cJSON_Delete(root);
        free(text);
        fail_msg("%s: unreadable or without an \"events\" array", NIP01_FILE);
    }
    vt_report_init(&r, env->backend, NIP01_FILE);
    cJSON_ArrayForEach(entry, events)
    {
        size_t raw_len = 0;
        const char *raw = next_event_object(text, &at, &raw_len);

        valid += cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(entry, "valid"));
        if (raw == NULL) {
            vt_case_fail(&r, "entry %zu: no \"event\" object found in the raw text", index);
        } else if (!run_entry(env, entry, raw, raw_len, &c, err, sizeof err)) {
            vt_case_fail(&r, "entry %zu: %s", index, err);
        } else {
            vt_case_pass(&r);
        }
        index++;
    }
    snprintf(r.detail, sizeof r.detail,
             "%zu valid verified, %zu invalid rejected at verify, %zu at parse; %zu round "
             "trips, %zu re-signed",
             c.verified_ok, c.verified_fail, c.parsed_fail, c.round_trips, c.resigned);
    cJSON_Delete(root);
    free(text);
    vt_report_finish(&r, NIP01_ENTRIES);
    if (valid != NIP01_VALID) {
        fail_msg("%s: %zu valid entries, expected %d", NIP01_FILE, valid, NIP01_VALID);
    }
}
