/* The tag readers of received events: kind 15 file parameters (sc_nip17_file_parse, what a
 * peer put inside a gift wrap), kind 10050 inbox relays (sc_nip17_inbox_parse, what a relay
 * hands out) and NIP-40 expiration (sc_nip40_expiration / sc_nip40_check). Input: a mode byte,
 * then an event's JSON (only kind, tags and content required). The mode's low 2 bits set the
 * kind the readers see: as parsed, 15 or 10050, so the fuzzer's tags reach both readers.
 * Checks: only the documented statuses; a fallback or relay list one short reports the exact
 * count (a short relay list is left untouched, a short fallback list zeroed); failures zero what
 * the header says; views lie in the event's
 * arena; a file read back is built again with sc_nip17_file_rumor and reads back the same, as
 * an inbox list does with sc_nip17_inbox_build; the expiration agrees with an independent
 * reading of the tags, and sc_nip40_check with it on either side of that time. */
#include "fuzz_common.h"

#include <stdlib.h>
#include <string.h>

#define MAX_LIST 64

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    fz_setup();
    return 0;
}

static int same_file(const sc_nip17_file *a, const sc_nip17_file *b)
{
    size_t i;

    if (!fz_same_str(a->url, b->url) || !fz_same_str(a->file_type, b->file_type) ||
        memcmp(a->key, b->key, 32) != 0 || a->nonce_len != b->nonce_len ||
        memcmp(a->nonce, b->nonce, a->nonce_len) != 0 || memcmp(a->x, b->x, 32) != 0 ||
        a->has_ox != b->has_ox || (a->has_ox && memcmp(a->ox, b->ox, 32) != 0) ||
        a->size != b->size || !fz_same_str(a->dim, b->dim) ||
        !fz_same_str(a->blurhash, b->blurhash) || !fz_same_str(a->thumb, b->thumb) ||
        a->n_fallbacks != b->n_fallbacks) {
        return 0;
    }
    for (i = 0; i < a->n_fallbacks; i++) {
        if (!fz_same_str(a->fallbacks[i], b->fallbacks[i])) {
            return 0;
        }
    }
    return 1;
}

/* Reads the file parameters of ev with fallbacks[] of exactly the needed size; returns the
 * status, *f filled on SC_OK (its fallbacks point into the returned array *list). */
static sc_status read_file(const sc_event *ev, sc_nip17_file *f, sc_str **list,
                           const uint8_t *arena, size_t arena_len)
{
    size_t need = 7, got = 7, i;
    sc_str *fb;
    sc_status st;

    *list = NULL;
    st = sc_nip17_file_parse(f, NULL, 0, &need, ev);
    FZ_STATUS_IN(st, SC_OK, SC_ERR_MESSAGE, SC_ERR_BUFFER_TOO_SMALL);
    if (st == SC_ERR_MESSAGE) {
        FZ_REQUIRE(need == 0 && fz_all_zero(f, sizeof *f));
        return st;
    }
    if (st == SC_OK) {
        FZ_REQUIRE(need == 0 && f->n_fallbacks == 0);
    } else {
        FZ_REQUIRE(need > 0 && fz_all_zero(f, sizeof *f));
        if (need > MAX_LIST) {
            return SC_ERR_BUFFER_TOO_SMALL; /* a list this long is not built again here */
        }
        fb = (sc_str *)(void *)fz_alloc(need * sizeof *fb);
        if (need > 1) {
            /* one short: the exact count again, the list zeroed (f holds no key then) */
            FZ_REQUIRE(sc_nip17_file_parse(f, fb, need - 1, &got, ev) == SC_ERR_BUFFER_TOO_SMALL);
            FZ_REQUIRE(got == need && fz_all_zero(f, sizeof *f));
            FZ_REQUIRE(fz_all_zero_or(fb, (need - 1) * sizeof *fb, FZ_CANARY));
        }
        FZ_REQUIRE(sc_nip17_file_parse(f, fb, need, &got, ev) == SC_OK);
        FZ_REQUIRE(got == need && f->n_fallbacks == need && f->fallbacks == fb);
        *list = fb;
    }
    FZ_REQUIRE(f->url.len > 0 && f->file_type.len > 0 && fz_inside(f->url, arena, arena_len) &&
               fz_inside(f->file_type, arena, arena_len));
    FZ_REQUIRE(f->nonce_len >= SC_NIP17_NONCE_MIN && f->nonce_len <= SC_NIP17_NONCE_MAX);
    FZ_REQUIRE(f->nonce_text.len == 2 * f->nonce_len && fz_inside(f->nonce_text, arena, arena_len));
    FZ_REQUIRE(f->has_ox == 0 || f->has_ox == 1);
    FZ_REQUIRE(fz_inside(f->dim, arena, arena_len) && fz_inside(f->blurhash, arena, arena_len) &&
               fz_inside(f->thumb, arena, arena_len));
    for (i = 0; i < f->n_fallbacks; i++) {
        FZ_REQUIRE(fz_inside(f->fallbacks[i], arena, arena_len));
    }
    {
        uint8_t nonce[32];

        FZ_REQUIRE(sc_hex_decode_fixed(nonce, f->nonce_len, f->nonce_text.ptr, f->nonce_text.len,
                                       SC_HEX_ANY_CASE) == SC_OK);
        FZ_REQUIRE(memcmp(nonce, f->nonce, f->nonce_len) == 0);
    }
    return SC_OK;
}

/* The file built into a kind 15 rumor again reads back the same. */
static void file_round_trip(sc_ctx *ctx, const sc_nip17_file *f)
{
    sc_nip17_peer to;
    sc_nip17_chat m;
    sc_nip17_file back;
    sc_event rumor;
    sc_str *list = NULL;
    size_t cap;
    uint8_t *buf;

    memset(&to, 0, sizeof to);
    memcpy(to.pubkey, fz_pub(0), 32);
    memset(&m, 0, sizeof m);
    m.to = &to;
    m.n_to = 1;
    m.created_at = 1700000000;
    cap = sc_nip17_file_rumor_buf_max(&m, f);
    FZ_REQUIRE(cap != 0);
    buf = fz_alloc(cap);
    FZ_REQUIRE(sc_nip17_file_rumor(ctx, &rumor, buf, cap, &m, f, fz_pub(1)) == SC_OK);
    FZ_REQUIRE(rumor.kind == SC_NIP17_KIND_FILE);
    FZ_REQUIRE(read_file(&rumor, &back, &list, buf, cap) == SC_OK);
    FZ_REQUIRE(same_file(f, &back));
    sc_mem_wipe(&back, sizeof back);
    sc_mem_wipe(buf, cap);
    free(list);
    free(buf);
}

static void check_inbox(const sc_event *ev, const uint8_t *arena, size_t arena_len)
{
    size_t need = 7, got = 7, i, cap;
    sc_str *relays;
    sc_event back;
    uint8_t *buf;
    sc_status st = sc_nip17_inbox_parse(NULL, 0, &need, ev);

    FZ_STATUS_IN(st, SC_OK, SC_ERR_MESSAGE, SC_ERR_BUFFER_TOO_SMALL);
    if (st == SC_ERR_MESSAGE) {
        FZ_REQUIRE(ev->kind != SC_NIP17_KIND_INBOX_RELAYS);
        return;
    }
    FZ_REQUIRE(ev->kind == SC_NIP17_KIND_INBOX_RELAYS);
    FZ_REQUIRE((st == SC_OK) == (need == 0));
    if (need > MAX_LIST) {
        return;
    }
    relays = (sc_str *)(void *)fz_alloc(need * sizeof *relays);
    if (need > 1) {
        FZ_REQUIRE(sc_nip17_inbox_parse(relays, need - 1, &got, ev) == SC_ERR_BUFFER_TOO_SMALL);
        FZ_REQUIRE(got == need && fz_all_equal(relays, (need - 1) * sizeof *relays, FZ_CANARY));
    }
    FZ_REQUIRE(sc_nip17_inbox_parse(need != 0 ? relays : NULL, need, &got, ev) == SC_OK &&
               got == need);
    for (i = 0; i < need; i++) {
        FZ_REQUIRE(relays[i].len > 0 && fz_inside(relays[i], arena, arena_len));
    }
    /* built again, the list reads back the same */
    cap = sc_nip17_inbox_build_buf_max(need != 0 ? relays : NULL, need);
    buf = fz_alloc(cap);
    FZ_REQUIRE(sc_nip17_inbox_build(&back, cap != 0 ? buf : NULL, cap, need != 0 ? relays : NULL,
                                    need, 1700000000) == SC_OK);
    {
        sc_str *again = (sc_str *)(void *)fz_alloc(need * sizeof *again);

        FZ_REQUIRE(sc_nip17_inbox_parse(need != 0 ? again : NULL, need, &got, &back) == SC_OK &&
                   got == need);
        for (i = 0; i < need; i++) {
            FZ_REQUIRE(fz_same_str(relays[i], again[i]));
        }
        free(again);
    }
    free(buf);
    free(relays);
}

/* NIP-40, read independently: the one expiration tag's value as a canonical decimal. */
static sc_status model_expiration(const sc_event *ev, int64_t *value)
{
    size_t t, found = 0, i;
    const sc_str *v = NULL;
    uint64_t x = 0;

    *value = 0;
    for (t = 0; t < ev->n_tags; t++) {
        const sc_tag *tag = &ev->tags[t];

        if (tag->n_items >= 1 && tag->items[0].len == 10 &&
            memcmp(tag->items[0].ptr, "expiration", 10) == 0) {
            found++;
            v = tag->n_items >= 2 ? &tag->items[1] : NULL;
        }
    }
    if (found == 0) {
        return SC_ERR_NOT_FOUND;
    }
    if (found > 1 || v == NULL || v->len == 0 || v->len > 19 || (v->len > 1 && v->ptr[0] == '0')) {
        return SC_ERR_EVENT_FIELD;
    }
    for (i = 0; i < v->len; i++) {
        if (v->ptr[i] < '0' || v->ptr[i] > '9') {
            return SC_ERR_EVENT_FIELD;
        }
        x = x * 10 + (uint64_t)(v->ptr[i] - '0'); /* 19 digits fit in 64 bits */
    }
    if (x > (uint64_t)INT64_MAX) {
        return SC_ERR_EVENT_FIELD;
    }
    *value = (int64_t)x;
    return SC_OK;
}

static void check_expiration(const sc_event *ev)
{
    int64_t got = 7, want = 0;
    sc_status st = sc_nip40_expiration(ev, &got), model = model_expiration(ev, &want);

    FZ_STATUS_IN(st, SC_OK, SC_ERR_NOT_FOUND, SC_ERR_EVENT_FIELD);
    FZ_REQUIRE(st == model && got == want);
    if (st == SC_OK) {
        FZ_REQUIRE(sc_nip40_check(ev, want) == SC_ERR_EXPIRED);
        if (want > 0) {
            FZ_REQUIRE(sc_nip40_check(ev, want - 1) == SC_OK);
        }
    } else {
        FZ_REQUIRE(sc_nip40_check(ev, 0) == (st == SC_ERR_NOT_FOUND ? SC_OK : st));
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const uint32_t kinds[] = {0, SC_NIP17_KIND_FILE, SC_NIP17_KIND_INBOX_RELAYS, 0};
    sc_event_parse_opts po;
    size_t cap, used = 0;
    uint8_t *arena;
    sc_nip17_file f;
    sc_str *list = NULL;
    sc_event ev;

    if (size == 0) {
        return 0;
    }
    memset(&po, 0, sizeof po);
    po.optional =
        SC_EVENT_HAS_ID | SC_EVENT_HAS_PUBKEY | SC_EVENT_HAS_SIG | SC_EVENT_HAS_CREATED_AT;
    cap = sc_event_parse_arena_max(size - 1);
    FZ_REQUIRE(cap != 0);
    arena = fz_alloc(cap);
    if (sc_event_parse(&ev, arena, cap, &used, (const char *)data + 1, size - 1, &po) != SC_OK) {
        free(arena);
        return 0; /* the event parser has its own target */
    }
    if (kinds[data[0] & 3] != 0) {
        ev.kind = kinds[data[0] & 3];
    }
    if (read_file(&ev, &f, &list, arena, used) == SC_OK) {
        FZ_REQUIRE(ev.kind == SC_NIP17_KIND_FILE);
        file_round_trip(fz_ctx(size % fz_backends()), &f);
    } else {
        FZ_REQUIRE(fz_all_zero(&f, sizeof f));
    }
    sc_mem_wipe(&f, sizeof f);
    free(list);
    check_inbox(&ev, arena, used);
    check_expiration(&ev);
    free(arena);
    return 0;
}
