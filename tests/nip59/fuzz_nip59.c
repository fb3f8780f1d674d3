/* NIP-59 unwrap and NIP-17 receive, with the fuzzer's bytes inside validly wrapped layers.
 * Input: [mode][text...]. Layers are built from the primitives (NIP-44 under the held
 * conversation keys, sc_event_sign_with_rand), so every outer check passes and the bytes reach
 * the inner parse.
 *  mode bits 0-2  case:
 *    0  the text is the seal JSON, inside a valid gift wrap
 *    1  the text is the rumor JSON, inside a valid seal inside a valid gift wrap
 *    2  the text, parsed as an event (any fields), becomes a correct rumor of the author
 *       (pubkey set, id computed), sealed and wrapped: unwrap must succeed and return it
 *    3  as 2, with a twist chosen by the text's length: the rumor names another author, the
 *       seal is of another kind or signed by a third party, the wrap is addressed to someone
 *       else, or the rumor carries a signature: each must fail with its own status
 *    4  the text is the seal's content (any string), in a signed seal, wrapped
 *    5-7 the text is the gift wrap itself
 *  bit 3          receive with sc_nip17_receive instead of sc_nip59_unwrap
 *  bits 4-5       backend
 *  bit 6          ephemeral gift wrap kind (21059)
 *  bit 7          a short arena: the reported need must then suffice and give the same verdict
 * Checks: only the documented statuses, in the layer the case allows; a failure zeroes the
 * rumor and the info and leaves only zeroed or untouched arena bytes; a success returns views
 * inside the used arena, zeroes what it wrote after them, reports the layers' facts in info,
 * and (cases 2-3) the very rumor that was wrapped; the NIP-17 room is the sender followed by
 * the distinct p tag keys. */
#include "fuzz_common.h"

#include <stdlib.h>
#include <string.h>

#define T_SEAL 1703000000
#define T_WRAP 1703000100

static char p_hex[FZ_N_IDS][64];
static sc_str p_items[FZ_N_IDS][2];
static sc_tag p_tag[FZ_N_IDS];

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    unsigned k;
    size_t n = 0;

    (void)argc;
    (void)argv;
    fz_setup();
    for (k = 0; k < FZ_N_IDS; k++) {
        FZ_REQUIRE(sc_hex_encode(p_hex[k], 64, &n, fz_pub(k), 32) == SC_OK);
        p_items[k][0] = SC_STR("p");
        p_items[k][1].ptr = p_hex[k];
        p_items[k][1].len = 64;
        p_tag[k].items = p_items[k];
        p_tag[k].n_items = 2;
    }
    return 0;
}

/* A gift wrap around seal_json: kind 1059 (or 21059), a p tag for `to`, by the one-time key. */
static char *wrap_of(sc_ctx *ctx, const uint8_t *seal_json, size_t len, unsigned to, int ephemeral,
                     size_t *out_len)
{
    static const uint8_t nonce[32] = {0x77, 1, 2, 3};

    return fz_layer(ctx, seal_json, len, 2, to,
                    ephemeral ? SC_NIP59_KIND_WRAP_EPHEMERAL : SC_NIP59_KIND_WRAP, T_WRAP,
                    &p_tag[to], 1, nonce, out_len);
}

/* A seal around rumor_json by signer for `to`, of `kind`. */
static char *seal_of(sc_ctx *ctx, const uint8_t *rumor_json, size_t len, unsigned signer,
                     unsigned to, uint32_t kind, size_t *out_len)
{
    static const uint8_t nonce[32] = {0x55, 9, 8, 7};

    return fz_layer(ctx, rumor_json, len, signer, to, kind, T_SEAL, NULL, 0, nonce, out_len);
}

/* The rumor JSON of the event text parses to: pubkey of `author`, id computed, and a sig when
 * `signed_`. NULL when the text is not an event or the result cannot be serialized. *ev and
 * *arena keep the parsed event (the caller frees *arena). */
static char *normalized_rumor(sc_ctx *ctx, const uint8_t *text, size_t len, unsigned author,
                              int signed_, sc_event *ev, uint8_t **arena, size_t *out_len)
{
    sc_event_parse_opts po;
    size_t cap = sc_event_parse_arena_max(len), used = 0, need, got = 0;
    char *json;

    *out_len = 0;
    *arena = fz_alloc(cap);
    memset(&po, 0, sizeof po);
    po.optional = SC_EVENT_HAS_ALL;
    if (sc_event_parse(ev, *arena, cap, &used, (const char *)text, len, &po) != SC_OK) {
        return NULL;
    }
    ev->flags |=
        SC_EVENT_HAS_KIND | SC_EVENT_HAS_CREATED_AT | SC_EVENT_HAS_TAGS | SC_EVENT_HAS_CONTENT;
    if (signed_) {
        uint8_t aux[32] = {0};

        if (sc_event_sign_with_rand(ctx, ev, fz_id(author), aux) != SC_OK) {
            return NULL;
        }
    } else if (sc_nip59_rumor(ctx, ev, fz_pub(author)) != SC_OK) {
        return NULL;
    }
    need = sc_event_to_json_len(ev, SC_EVENT_JSON_OBJECT);
    FZ_REQUIRE(need != 0);
    json = (char *)fz_alloc(need);
    FZ_REQUIRE(sc_event_to_json(json, need, &got, ev, SC_EVENT_JSON_OBJECT) == SC_OK);
    *out_len = got;
    return json;
}

typedef struct result {
    sc_status st;
    sc_nip17_received msg; /* msg.rumor and msg.wrap for unwrap too */
    uint8_t *arena;
    size_t cap, used;
} result;

static sc_status open_once(sc_ctx *ctx, int receive, const char *wrap, size_t len, size_t cap,
                           result *r)
{
    r->cap = cap;
    r->arena = fz_alloc(cap);
    r->used = 7;
    memset(&r->msg, 0x5a, sizeof r->msg);
    if (receive) {
        r->st = sc_nip17_receive(ctx, &r->msg, cap != 0 ? r->arena : NULL, cap, &r->used, wrap, len,
                                 fz_id(0));
    } else {
        memset(&r->msg, 0, sizeof r->msg);
        memset(&r->msg.rumor, 0x5a, sizeof r->msg.rumor);
        memset(&r->msg.wrap, 0x5a, sizeof r->msg.wrap);
        r->st = sc_nip59_unwrap(ctx, &r->msg.rumor, &r->msg.wrap, cap != 0 ? r->arena : NULL, cap,
                                &r->used, wrap, len, fz_id(0));
    }
    return r->st;
}

static int in_arena(const void *p, size_t n, const result *r)
{
    return n == 0 ||
           ((const uint8_t *)p >= r->arena && (const uint8_t *)p + n <= r->arena + r->used);
}

static void check_result(const result *r, int receive)
{
    size_t t, i;

    if (r->st != SC_OK) {
        FZ_REQUIRE(r->used == 0 || r->st == SC_ERR_BUFFER_TOO_SMALL);
        FZ_REQUIRE(fz_all_zero(&r->msg.rumor, sizeof r->msg.rumor));
        FZ_REQUIRE(fz_all_zero(&r->msg.wrap, sizeof r->msg.wrap));
        if (receive) {
            FZ_REQUIRE(r->msg.room == NULL && r->msg.n_room == 0);
        }
        FZ_REQUIRE(fz_all_zero_or(r->arena, r->cap, FZ_CANARY));
        return;
    }
    FZ_REQUIRE(r->used <= r->cap);
    FZ_REQUIRE(fz_all_zero_or(r->arena + r->used, r->cap - r->used, FZ_CANARY));
    FZ_REQUIRE((r->msg.rumor.flags & SC_EVENT_HAS_SIG) == 0);
    FZ_REQUIRE((r->msg.rumor.flags & SC_EVENT_RUMOR) == SC_EVENT_RUMOR);
    FZ_REQUIRE(sc_event_check(&r->msg.rumor) == SC_OK);
    FZ_REQUIRE(memcmp(r->msg.rumor.pubkey, r->msg.wrap.sender, 32) == 0);
    FZ_REQUIRE(r->msg.wrap.wrap_kind == SC_NIP59_KIND_WRAP ||
               r->msg.wrap.wrap_kind == SC_NIP59_KIND_WRAP_EPHEMERAL);
    FZ_REQUIRE(in_arena(r->msg.rumor.content.ptr, r->msg.rumor.content.len, r));
    for (t = 0; t < r->msg.rumor.n_tags; t++) {
        const sc_tag *tag = &r->msg.rumor.tags[t];

        FZ_REQUIRE(in_arena(tag, sizeof *tag, r));
        for (i = 0; i < tag->n_items; i++) {
            FZ_REQUIRE(in_arena(tag->items[i].ptr, tag->items[i].len, r));
        }
    }
    if (receive) {
        size_t np = 0, a, b;

        FZ_REQUIRE(r->msg.rumor.kind == SC_NIP17_KIND_CHAT ||
                   r->msg.rumor.kind == SC_NIP17_KIND_FILE);
        FZ_REQUIRE(r->msg.n_room >= 2);
        FZ_REQUIRE(in_arena(r->msg.room, r->msg.n_room * 32, r));
        FZ_REQUIRE(memcmp(r->msg.room[0], r->msg.wrap.sender, 32) == 0);
        for (a = 0; a < r->msg.n_room; a++) {
            for (b = a + 1; b < r->msg.n_room; b++) {
                FZ_REQUIRE(memcmp(r->msg.room[a], r->msg.room[b], 32) != 0);
            }
        }
        /* every p tag names a member; members after the sender are p tags */
        for (t = 0; t < r->msg.rumor.n_tags; t++) {
            const sc_tag *tag = &r->msg.rumor.tags[t];
            uint8_t pk[32];
            int found = 0;

            if (!(tag->items[0].len == 1 && tag->items[0].ptr[0] == 'p')) {
                continue;
            }
            np++;
            FZ_REQUIRE(tag->n_items >= 2 &&
                       sc_hex_decode_fixed(pk, 32, tag->items[1].ptr, tag->items[1].len,
                                           SC_HEX_LOWER_ONLY) == SC_OK);
            for (a = 0; a < r->msg.n_room; a++) {
                found |= memcmp(r->msg.room[a], pk, 32) == 0;
            }
            FZ_REQUIRE(found);
        }
        FZ_REQUIRE(np >= 1 && r->msg.n_room <= np + 1);
    }
}

static void result_free(result *r)
{
    free(r->arena);
    r->arena = NULL;
}

/* Opens the wrap (with a short arena when asked, then the reported need) and checks it. */
static sc_status open_checked(sc_ctx *ctx, int receive, int short_arena, const char *wrap,
                              size_t len, result *r)
{
    size_t bound = receive ? sc_nip17_receive_arena_max(len) : sc_nip59_unwrap_arena_max(len);

    FZ_REQUIRE(bound != 0);
    if (short_arena) {
        result q;

        open_once(ctx, receive, wrap, len, bound / 8, &q);
        check_result(&q, receive);
        if (q.st == SC_ERR_BUFFER_TOO_SMALL) {
            size_t need = q.used;

            FZ_REQUIRE(need > bound / 8 && need <= bound);
            result_free(&q);
            open_once(ctx, receive, wrap, len, need, r);
            FZ_REQUIRE(r->st != SC_ERR_BUFFER_TOO_SMALL);
            check_result(r, receive);
            return r->st;
        }
        result_free(&q);
    }
    open_once(ctx, receive, wrap, len, bound, r);
    FZ_REQUIRE(r->st != SC_ERR_BUFFER_TOO_SMALL);
    check_result(r, receive);
    return r->st;
}

#define INNER_STATUSES SC_ERR_RUMOR_JSON, SC_ERR_RUMOR_SIGNED, SC_ERR_RUMOR_AUTHOR, SC_ERR_RUMOR_ID

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fz_in in = {data, size};
    uint8_t mode = fz_u8(&in);
    unsigned kase = mode & 7u;
    int receive = (mode >> 3) & 1, ephemeral = (mode >> 6) & 1, short_arena = mode >> 7;
    sc_ctx *ctx = fz_ctx(((mode >> 4) & 3u) % fz_backends());
    const uint8_t *text = in.p;
    size_t len = in.n, seal_len = 0, wrap_len = 0, rumor_len = 0;
    char *seal = NULL, *wrap = NULL, *rumor = NULL;
    uint8_t *rumor_arena = NULL;
    sc_event expect;
    unsigned twist = 0, signer = 1, to = 0;
    uint32_t seal_kind = SC_NIP59_KIND_SEAL;
    result r;
    sc_status st;

    memset(&r, 0, sizeof r);
    if (kase == 3) {
        twist = 1 + (unsigned)(len % 5);
        signer = twist == 2 ? 3 : 1;      /* 2: the seal is by a third party */
        seal_kind = twist == 3 ? 14 : 13; /* 3: not a seal */
        to = twist == 4 ? 3 : 0;          /* 4: addressed to someone else */
    }
    if (kase == 2 || kase == 3) {
        /* 1: the rumor names another author; 5: the rumor is signed */
        rumor = normalized_rumor(ctx, text, len, twist == 1 ? 3 : 1, twist == 5, &expect,
                                 &rumor_arena, &rumor_len);
        if (rumor == NULL) {
            kase = 1; /* not an event: use the text as the rumor JSON, without a twist */
            twist = 0;
            signer = 1;
            seal_kind = SC_NIP59_KIND_SEAL;
            to = 0;
        }
    }
    if (kase >= 5) {
        wrap = (char *)fz_dup(text, len);
        wrap_len = len;
    } else {
        if (kase == 4) {
            sc_event ev;

            memset(&ev, 0, sizeof ev);
            ev.kind = SC_NIP59_KIND_SEAL;
            ev.created_at = T_SEAL;
            ev.content.ptr = (const char *)text;
            ev.content.len = len;
            ev.flags = SC_EVENT_HAS_KIND | SC_EVENT_HAS_CREATED_AT | SC_EVENT_HAS_TAGS |
                       SC_EVENT_HAS_CONTENT;
            seal = fz_signed_json(ctx, &ev, 1, &seal_len);
        } else if (kase == 0) {
            seal = (char *)fz_dup(text, len);
            seal_len = len;
        } else {
            seal = seal_of(ctx, rumor != NULL ? (const uint8_t *)rumor : text,
                           rumor != NULL ? rumor_len : len, signer, to, seal_kind, &seal_len);
        }
        if (seal != NULL) {
            wrap = wrap_of(ctx, (const uint8_t *)seal, seal_len, to, ephemeral, &wrap_len);
        }
    }
    if (wrap == NULL) {
        goto done; /* an empty, oversized or non-UTF-8 inner text: no layer to build */
    }

    st = open_checked(ctx, receive, short_arena, wrap, wrap_len, &r);
    if (kase <= 4) {
        /* the outer layer is valid: whatever fails is inside it */
        FZ_REQUIRE(st != SC_ERR_WRAP_KIND && st != SC_ERR_WRAP_ID && st != SC_ERR_WRAP_SIG);
        if (to == 0) {
            FZ_REQUIRE(st != SC_ERR_WRAP_DECRYPT);
        }
    }
    switch (kase) {
    case 0:
        FZ_STATUS_IN(st, SC_ERR_SEAL_JSON, SC_ERR_SEAL_KIND, SC_ERR_SEAL_ID, SC_ERR_SEAL_SIG,
                     SC_ERR_SEAL_DECRYPT);
        break;
    case 1:
        FZ_STATUS_IN(st, SC_OK, SC_ERR_MESSAGE, INNER_STATUSES);
        break;
    case 2:
        FZ_REQUIRE(st == SC_OK || (receive && st == SC_ERR_MESSAGE));
        if (st == SC_OK) {
            FZ_REQUIRE(fz_same_event(&r.msg.rumor, &expect));
            FZ_REQUIRE(memcmp(r.msg.wrap.sender, fz_pub(1), 32) == 0);
            FZ_REQUIRE(memcmp(r.msg.wrap.wrap_pubkey, fz_pub(2), 32) == 0);
            FZ_REQUIRE(r.msg.wrap.wrap_kind ==
                       (ephemeral ? SC_NIP59_KIND_WRAP_EPHEMERAL : SC_NIP59_KIND_WRAP));
            FZ_REQUIRE(r.msg.wrap.wrap_created_at == T_WRAP &&
                       r.msg.wrap.seal_created_at == T_SEAL);
        }
        break;
    case 3: {
        static const sc_status want[6] = {SC_OK,
                                          SC_ERR_RUMOR_AUTHOR,
                                          SC_ERR_RUMOR_AUTHOR,
                                          SC_ERR_SEAL_KIND,
                                          SC_ERR_WRAP_DECRYPT,
                                          SC_ERR_RUMOR_SIGNED};
        FZ_REQUIRE(st == want[twist]);
        break;
    }
    case 4:
        FZ_STATUS_IN(st, SC_ERR_SEAL_DECRYPT);
        break;
    default:
        FZ_STATUS_IN(st, SC_OK, SC_ERR_MESSAGE, SC_ERR_JSON, SC_ERR_UTF8, SC_ERR_EVENT_FIELD,
                     SC_ERR_EVENT_RANGE, SC_ERR_TOO_LARGE, SC_ERR_WRAP_KIND, SC_ERR_WRAP_ID,
                     SC_ERR_WRAP_SIG, SC_ERR_WRAP_DECRYPT, SC_ERR_SEAL_JSON, SC_ERR_SEAL_KIND,
                     SC_ERR_SEAL_ID, SC_ERR_SEAL_SIG, SC_ERR_SEAL_DECRYPT, INNER_STATUSES);
        break;
    }
    if (receive && st == SC_ERR_MESSAGE) {
        /* unwrap alone accepts it: the message check is NIP-17's */
        result u;

        FZ_REQUIRE(open_checked(ctx, 0, 0, wrap, wrap_len, &u) == SC_OK);
        result_free(&u);
    }
    result_free(&r);
done:
    free(rumor);
    free(rumor_arena);
    free(seal);
    free(wrap);
    return 0;
}
