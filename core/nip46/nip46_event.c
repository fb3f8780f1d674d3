/* The kind 24133 event around a NIP-46 JSON-RPC object: sealed (NIP-44 to the peer, p tag,
 * signed) into the caller's buffer, and opened (parsed, addressed, verified, decrypted). */
#include <softchat/hex.h>
#include <softchat/mem.h>
#include <softchat/nip44.h>

#include <string.h>

#include "nip46/nip46_internal.h"

/* The event of a seal, with the tag it points to. */
typedef struct seal_event {
    sc_event ev;
    sc_tag tag;
    sc_str items[2];
    char peer_hex[2 * SC_PUBKEY_BYTES];
} seal_event;

static void seal_init(seal_event *e, const uint8_t peer[SC_PUBKEY_BYTES], int64_t created_at)
{
    memset(e, 0, sizeof *e);
    nip46_hex(e->peer_hex, peer, SC_PUBKEY_BYTES);
    e->items[0] = SC_STR("p");
    e->items[1] = (sc_str){e->peer_hex, sizeof e->peer_hex};
    e->tag = (sc_tag){e->items, 2};
    e->ev.kind = SC_NIP46_KIND;
    e->ev.created_at = created_at;
    e->ev.tags = &e->tag;
    e->ev.n_tags = 1;
    e->ev.content = (sc_str){"", 0};
    e->ev.flags = SC_EVENT_SIGNED;
}

sc_status nip46_seal(sc_ctx *ctx, char *out, size_t out_cap, size_t *out_len, const sc_identity *me,
                     const uint8_t peer[SC_PUBKEY_BYTES], const nip46_rpc *rpc, int64_t created_at)
{
    seal_event e;
    sc_jw w;
    size_t head, pt_len, p_len, need, n = 0;
    sc_status st;

    *out_len = 0;
    if (created_at < 0) {
        return SC_ERR_EVENT_RANGE;
    }
    sc_jw_init_buf(&w, NULL, 0);
    nip46_rpc_write(&w, rpc);
    if (w.st != SC_OK) {
        return w.st;
    }
    pt_len = w.len;
    p_len = sc_nip44_encrypt_len(pt_len);
    seal_init(&e, peer, created_at);
    head = sc_event_to_json_len(&e.ev, SC_EVENT_JSON_OBJECT);
    if (p_len == 0 || pt_len > 65535u || head == 0) {
        return SC_ERR_TOO_LARGE;
    }
    need = head + 2 * p_len + pt_len; /* the event (head + payload), the plaintext, the payload */
    if (out == NULL && out_cap > 0) {
        return SC_ERR_ARG;
    }
    if (out_cap < need) {
        *out_len = need;
        return SC_ERR_BUFFER_TOO_SMALL;
    }
    sc_jw_init_buf(&w, out + head + p_len, pt_len);
    nip46_rpc_write(&w, rpc);
    st = sc_jw_flush(&w);
    if (st == SC_OK) {
        st = sc_nip44_encrypt_to(ctx, out + head + p_len + pt_len, p_len, &n, me, peer,
                                 (const uint8_t *)out + head + p_len, pt_len, 0);
    }
    sc_mem_wipe(out + head + p_len, pt_len);
    if (st == SC_OK) {
        e.ev.content = (sc_str){out + head + p_len + pt_len, p_len};
        st = sc_event_sign(ctx, &e.ev, me);
    }
    if (st == SC_OK) {
        st = sc_event_to_json(out, head + p_len, &n, &e.ev, SC_EVENT_JSON_OBJECT);
    }
    sc_mem_wipe(out + head + p_len, need - head - p_len);
    if (st != SC_OK) {
        sc_mem_wipe(out, need);
        return st;
    }
    *out_len = n;
    return SC_OK;
}

/* Whether ev has a p tag naming pub. */
static int tags_name(const sc_event *ev, const uint8_t pub[SC_PUBKEY_BYTES])
{
    size_t i;

    for (i = 0; i < ev->n_tags; i++) {
        uint8_t k[SC_PUBKEY_BYTES];
        const sc_tag *t = &ev->tags[i];

        if (t->n_items >= 2 && t->items[0].len == 1 && t->items[0].ptr[0] == 'p' &&
            sc_hex_decode_fixed(k, sizeof k, t->items[1].ptr, t->items[1].len, SC_HEX_LOWER_ONLY) ==
                SC_OK &&
            memcmp(k, pub, SC_PUBKEY_BYTES) == 0) {
            return 1;
        }
    }
    return 0;
}

static sc_status open_checked(sc_ctx *ctx, nip46_rpc *rpc, uint8_t from[SC_PUBKEY_BYTES],
                              uint8_t *scratch, size_t arena_cap, size_t json_len,
                              const sc_identity *me, const uint8_t *author, const char *json)
{
    sc_event ev;
    uint8_t mine[SC_PUBKEY_BYTES];
    size_t used = 0, pt_len = 0;
    char *pt = (char *)scratch + arena_cap, *strs = pt + json_len;
    sc_status st = sc_identity_pubkey(mine, me);

    if (st != SC_OK) {
        return st;
    }
    st = sc_event_parse(&ev, scratch, arena_cap, &used, json, json_len, NULL);
    if (st != SC_OK) {
        return st;
    }
    if (ev.kind != SC_NIP46_KIND) {
        return SC_ERR_NIP46;
    }
    if ((author != NULL && memcmp(ev.pubkey, author, SC_PUBKEY_BYTES) != 0) ||
        !tags_name(&ev, mine)) {
        return SC_ERR_NIP46_SENDER;
    }
    st = sc_event_verify(ctx, &ev);
    if (st != SC_OK) {
        return st;
    }
    st = sc_nip44_decrypt_from(ctx, (uint8_t *)pt, json_len, &pt_len, me, ev.pubkey, ev.content.ptr,
                               ev.content.len, 0);
    if (st != SC_OK) {
        return st;
    }
    memcpy(from, ev.pubkey, SC_PUBKEY_BYTES);
    return nip46_rpc_parse(rpc, strs, json_len, pt, pt_len);
}

sc_status nip46_open(sc_ctx *ctx, nip46_rpc *rpc, uint8_t from[SC_PUBKEY_BYTES], void *scratch,
                     size_t scratch_cap, size_t *scratch_used, const sc_identity *me,
                     const uint8_t *author, const char *json, size_t json_len)
{
    size_t need = sc_nip46_open_scratch_max(json_len);
    size_t arena = sc_event_parse_arena_max(json_len);
    sc_status st;

    memset(rpc, 0, sizeof *rpc);
    *scratch_used = 0;
    if ((json == NULL && json_len > 0) || (scratch == NULL && scratch_cap > 0)) {
        return SC_ERR_ARG;
    }
    if (need == 0 || arena == 0) {
        return SC_ERR_TOO_LARGE;
    }
    if (scratch_cap < need) {
        *scratch_used = need;
        return SC_ERR_BUFFER_TOO_SMALL;
    }
    st = open_checked(ctx, rpc, from, (uint8_t *)scratch, arena, json_len, me, author, json);
    if (st != SC_OK) {
        memset(rpc, 0, sizeof *rpc);
        sc_mem_wipe(scratch, need);
        return st;
    }
    *scratch_used = need;
    return SC_OK;
}

size_t sc_nip46_open_scratch_max(size_t json_len)
{
    size_t arena = sc_event_parse_arena_max(json_len);

    if (arena == 0 || json_len > (SIZE_MAX - arena) / 2) {
        return 0;
    }
    return arena + 2 * json_len;
}
