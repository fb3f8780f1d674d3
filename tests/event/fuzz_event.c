/* NIP-01 event parse and verify. Input: one option byte, then the JSON text.
 * Option byte: bit 7 set makes the low 7 bits the optional-field mask (else all seven fields
 * are required, a signed event).
 * Checks: only the documented statuses; the NULL-arena query gives the same verdict as a real
 * parse and a need that suffices at any address; a failure zeroes the event and leaves the
 * arena holding only zeroed or untouched bytes, with an error offset inside the text; a
 * success passes sc_event_check, its views lie in the arena, it serializes to exactly
 * sc_event_to_json_len bytes, and that JSON parses back to the same event; the canonical text
 * hashes to the computed id; verification says ID_MISMATCH exactly when the recomputed id
 * differs, and otherwise OK or INVALID_SIG. */
#include "fuzz_common.h"

#include <stdlib.h>
#include <string.h>

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    fz_setup();
    return 0;
}

static void check_views(const sc_event *ev, const uint8_t *a, size_t used)
{
    size_t t, i;

    /* a present string never has a NULL view; an absent content may */
    FZ_REQUIRE((ev->content.ptr != NULL || !(ev->flags & SC_EVENT_HAS_CONTENT)) &&
               fz_inside(ev->content, a, used));
    FZ_REQUIRE((ev->n_tags == 0) == (ev->tags == NULL));
    for (t = 0; t < ev->n_tags; t++) {
        FZ_REQUIRE((const uint8_t *)&ev->tags[t] >= a &&
                   (const uint8_t *)(&ev->tags[t] + 1) <= a + used);
        FZ_REQUIRE(ev->tags[t].n_items >= 1);
        for (i = 0; i < ev->tags[t].n_items; i++) {
            FZ_REQUIRE(ev->tags[t].items[i].ptr != NULL &&
                       fz_inside(ev->tags[t].items[i], a, used));
        }
    }
}

/* Serialization, reparse and id of a parsed event. */
static void check_round_trip(sc_ctx *ctx, const sc_event *ev)
{
    size_t need = sc_event_to_json_len(ev, SC_EVENT_JSON_OBJECT), got = 0, used = 0, clen;
    sc_event_parse_opts po;
    sc_event back;
    uint8_t *arena, id[32], digest[32];
    char *json, *canon;
    sc_status st;

    if ((ev->flags & SC_EVENT_HAS_PUBKEY) == 0) {
        FZ_REQUIRE(need == 0);
        FZ_REQUIRE(sc_event_to_json(NULL, 0, &got, ev, SC_EVENT_JSON_OBJECT) == SC_ERR_EVENT_FIELD);
        FZ_REQUIRE(sc_event_compute_id(ctx, id, ev) == SC_ERR_EVENT_FIELD && fz_all_zero(id, 32));
        return;
    }
    FZ_REQUIRE(need != 0);
    FZ_REQUIRE(sc_event_to_json(NULL, 0, &got, ev, SC_EVENT_JSON_OBJECT) ==
                   SC_ERR_BUFFER_TOO_SMALL &&
               got == need);
    json = (char *)fz_alloc(need);
    FZ_REQUIRE(sc_event_to_json(json, need, &got, ev, SC_EVENT_JSON_OBJECT) == SC_OK);
    FZ_REQUIRE(got == need);
    memset(&po, 0, sizeof po);
    po.optional = SC_EVENT_HAS_ALL & ~ev->flags;
    arena = fz_alloc(sc_event_parse_arena_max(need));
    st = sc_event_parse(&back, arena, sc_event_parse_arena_max(need), &used, json, need, &po);
    FZ_REQUIRE(st == SC_OK);
    FZ_REQUIRE(back.flags == (ev->flags | SC_EVENT_HAS_KIND | SC_EVENT_HAS_CREATED_AT |
                              SC_EVENT_HAS_TAGS | SC_EVENT_HAS_CONTENT));
    FZ_REQUIRE(fz_same_event(ev, &back));
    FZ_REQUIRE(!(ev->flags & SC_EVENT_HAS_SIG) || memcmp(ev->sig, back.sig, 64) == 0);

    /* the id is the SHA-256 of the canonical text */
    clen = sc_event_to_json_len(ev, SC_EVENT_JSON_CANONICAL);
    FZ_REQUIRE(clen != 0);
    canon = (char *)fz_alloc(clen);
    FZ_REQUIRE(sc_event_to_json(canon, clen, &got, ev, SC_EVENT_JSON_CANONICAL) == SC_OK &&
               got == clen);
    FZ_REQUIRE(sc_crypto_sha256(ctx, digest, (const uint8_t *)canon, clen) == SC_OK);
    FZ_REQUIRE(sc_event_compute_id(ctx, id, ev) == SC_OK);
    FZ_REQUIRE(memcmp(id, digest, 32) == 0);

    if ((ev->flags & (SC_EVENT_HAS_ID | SC_EVENT_HAS_SIG)) ==
        (SC_EVENT_HAS_ID | SC_EVENT_HAS_SIG)) {
        st = sc_event_verify(ctx, ev);
        if (memcmp(id, ev->id, 32) != 0) {
            FZ_REQUIRE(st == SC_ERR_ID_MISMATCH);
        } else {
            FZ_STATUS_IN(st, SC_OK, SC_ERR_INVALID_SIG);
        }
        FZ_REQUIRE(sc_event_verify(ctx, &back) == st);
    } else {
        FZ_REQUIRE(sc_event_verify(ctx, ev) == SC_ERR_EVENT_FIELD);
    }
    free(canon);
    free(arena);
    free(json);
}

static int known_field(const char *f)
{
    static const char *const names[] = {"id",         "pubkey", "sig",    "kind",
                                        "created_at", "tags",   "content"};
    size_t i;

    if (f == NULL) {
        return 1;
    }
    for (i = 0; i < sizeof names / sizeof names[0]; i++) {
        if (strcmp(f, names[i]) == 0) {
            return 1;
        }
    }
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    sc_event_parse_opts po;
    sc_event_parse_error err;
    sc_event ev, ev0;
    size_t n, cap, used = 7, need = 7;
    const char *json;
    uint8_t *arena, *fitted;
    unsigned require;
    sc_status st, st0;

    if (size == 0) {
        return 0;
    }
    memset(&po, 0, sizeof po);
    po.optional = (data[0] & 0x80) ? (data[0] & 0x7fu) : 0;
    po.error = &err;
    require = SC_EVENT_HAS_ALL & ~po.optional;
    json = (const char *)data + 1;
    n = size - 1;

    st0 = sc_event_parse(&ev0, NULL, 0, &need, json, n, &po);
    cap = sc_event_parse_arena_max(n);
    FZ_REQUIRE(cap != 0);
    arena = fz_alloc(cap);
    st = sc_event_parse(&ev, arena, cap, &used, json, n, &po);
    FZ_STATUS_IN(st, SC_OK, SC_ERR_JSON, SC_ERR_UTF8, SC_ERR_EVENT_FIELD, SC_ERR_EVENT_RANGE,
                 SC_ERR_TOO_LARGE);
    if (st != SC_OK) {
        FZ_REQUIRE(st0 == st && need == 0);
        FZ_REQUIRE(used == 0 && fz_all_zero(&ev, sizeof ev));
        FZ_REQUIRE(fz_all_zero_or(arena, cap, FZ_CANARY));
        FZ_REQUIRE(err.offset <= n && known_field(err.field));
        free(arena);
        return 0;
    }
    FZ_REQUIRE(used <= cap);
    FZ_REQUIRE(fz_all_equal(arena + used, cap - used, FZ_CANARY));
    if (st0 == SC_OK) {
        FZ_REQUIRE(used == 0);
    } else {
        FZ_REQUIRE(st0 == SC_ERR_BUFFER_TOO_SMALL);
        FZ_REQUIRE(need >= used && need < used + sizeof(void *) + 1);
        /* the need reported for a NULL arena suffices at another address */
        fitted = fz_alloc(need);
        FZ_REQUIRE(sc_event_parse(&ev0, fitted, need, &used, json, n, &po) == SC_OK);
        FZ_REQUIRE(fz_same_event(&ev, &ev0) && ev.flags == ev0.flags);
        if (used > 1) {
            size_t again = 0;

            FZ_REQUIRE(sc_event_parse(&ev0, fitted, used - 1, &again, json, n, &po) ==
                       SC_ERR_BUFFER_TOO_SMALL);
            FZ_REQUIRE(again >= used && fz_all_zero(&ev0, sizeof ev0));
        }
        free(fitted);
    }
    FZ_REQUIRE((ev.flags & require) == require && (ev.flags & ~SC_EVENT_HAS_ALL) == 0);
    FZ_REQUIRE(sc_event_check(&ev) == SC_OK);
    FZ_REQUIRE(ev.kind <= SC_EVENT_KIND_MAX && ev.created_at >= 0);
    check_views(&ev, arena, cap);
    check_round_trip(fz_ctx(size % fz_backends()), &ev);
    free(arena);
    return 0;
}
