/* NIP-59 unwrap: every layer authenticated before the next is opened, inside one arena.
 *
 * The arena is used from both ends in turn. Each parse writes at the front and each NIP-44
 * decryption at the back, and each step's input is the other end's latest region, so a step
 * never overwrites what it reads:
 *   wrap JSON (caller's)  -> parse       -> front: the wrap event
 *   wrap content (front)  -> decrypt     -> back:  the seal JSON
 *   seal JSON (back)      -> parse       -> front: the seal event    (seal JSON then wiped)
 *   seal content (front)  -> decrypt     -> back:  the rumor JSON
 *   rumor JSON (back)     -> parse       -> front: the rumor         (rumor JSON then wiped)
 * The rumor ends at the arena's start; everything after it that the call wrote is zeroed. */
#include <softchat/crypto.h>
#include <softchat/mem.h>
#include <softchat/nip40.h>
#include <softchat/nip44.h>
#include <softchat/nip59.h>

#include <string.h>

#include "ctx/ctx_internal.h"
#include "identity/identity_internal.h"
#include "nip44/nip44_internal.h"
#include "nip59/nip59_internal.h"

/* The fields a rumor must have besides its id (checked on its own) and without a sig. */
#define RUMOR_FIELDS                                                                               \
    (SC_EVENT_HAS_PUBKEY | SC_EVENT_HAS_KIND | SC_EVENT_HAS_CREATED_AT | SC_EVENT_HAS_TAGS |       \
     SC_EVENT_HAS_CONTENT)

typedef struct unwrapper {
    sc_ctx *ctx;
    const sc_identity *me; /* the recipient */
    uint8_t *base;         /* the arena (NULL when arena_cap is 0) */
    size_t cap;
    size_t front_hi; /* bytes written from the start, at most */
    size_t back_lo;  /* lowest offset written from the end (cap when none) */
    size_t peak;     /* the largest front + back use so far */
    size_t need;     /* for SC_ERR_BUFFER_TOO_SMALL */
    int64_t now;     /* >= 0: the NIP-40 checks at this time */
    sc_nip59_info info;
} unwrapper;

size_t sc_nip59_unwrap_arena_max(size_t wrap_len)
{
    /* Each step holds one front and one back region: a parse of at most wrap_len bytes of
     * JSON (sc_event_parse_arena_max at any alignment) and a decryption buffer of
     * sc_nip44_decrypt_max(n) = 3 * (n / 4) bytes for a payload of n <= wrap_len characters.
     * Every inner text is shorter than the payload it came from, so no step needs more. */
    size_t parse = sc_event_parse_arena_max(wrap_len), dec = 3 * (wrap_len / 4);

    return parse == 0 ? 0 : sc_size_public(sc_size_add(parse, dec));
}

static void note_peak(unwrapper *u, size_t front, size_t back)
{
    if (front + back > u->peak) {
        u->peak = front + back;
    }
}

/* The shortfall of a step before the rumor's: the bound suffices for every step. */
static sc_status too_small(unwrapper *u, size_t wrap_len)
{
    u->need = sc_nip59_unwrap_arena_max(wrap_len);
    return u->need > u->cap ? SC_ERR_BUFFER_TOO_SMALL : SC_ERR_INTERNAL;
}

/* Parses text into the front of the arena, below `limit`. *used is the need on
 * SC_ERR_BUFFER_TOO_SMALL. */
static sc_status front_parse(unwrapper *u, sc_event *ev, size_t limit, const char *text, size_t len,
                             unsigned require, size_t *used)
{
    sc_event_parse_opts po;
    sc_status st;

    memset(&po, 0, sizeof po);
    po.max_input = len != 0 ? len : 1; /* no limit of its own: the caller chose the input */
    po.optional = SC_EVENT_HAS_ALL & ~(unsigned)(require);
    st = sc_event_parse(ev, limit != 0 ? u->base : NULL, limit, used, text, len, &po);
    if (st == SC_OK) {
        if (*used > u->front_hi) {
            u->front_hi = *used;
        }
        note_peak(u, *used, u->cap - limit);
    }
    return st;
}

/* Decrypts payload (from peer) into the back of the arena, above `front`: the plaintext is
 * base[*off..*off + *len). */
static sc_status back_decrypt(unwrapper *u, size_t front, const uint8_t *peer,
                              const sc_str *payload, size_t *off, size_t *len)
{
    size_t n = sc_nip44_decrypt_max(payload->len);
    uint8_t ck[SC_NIP44_KEY_BYTES];
    sc_status st;

    *off = u->cap;
    *len = 0;
    if (n > u->cap - front) {
        return SC_ERR_BUFFER_TOO_SMALL;
    }
    st = sc_nip44_identity_key(u->ctx, ck, u->me, peer);
    if (st == SC_OK) {
        *off = u->cap - n;
        if (*off < u->back_lo) {
            u->back_lo = *off;
        }
        note_peak(u, front, n);
        st = sc_nip44_decrypt(u->ctx, n != 0 ? u->base + *off : NULL, n, len, ck, payload->ptr,
                              payload->len, payload->len);
    }
    sc_mem_wipe(ck, sizeof ck);
    return st;
}

/* Whether st says the bytes were bad (as opposed to the environment or the caller). */
static int bad_text(sc_status st)
{
    return st == SC_ERR_JSON || st == SC_ERR_UTF8 || st == SC_ERR_EVENT_FIELD ||
           st == SC_ERR_EVENT_RANGE || st == SC_ERR_TOO_LARGE;
}

static int bad_payload(sc_status st)
{
    return st == SC_ERR_VERSION || st == SC_ERR_TOO_LARGE || st == SC_ERR_PAYLOAD_SIZE ||
           st == SC_ERR_BASE64 || st == SC_ERR_MAC || st == SC_ERR_PADDING;
}

/* sc_event_verify's verdict as a layer's status. */
static sc_status verify_layer(sc_ctx *ctx, const sc_event *ev, sc_status bad_id, sc_status bad_sig)
{
    sc_status st = sc_event_verify(ctx, ev);

    return st == SC_ERR_ID_MISMATCH ? bad_id : st == SC_ERR_INVALID_SIG ? bad_sig : st;
}

/* The outer layer: parsed into the front, verified, its content decrypted to the back.
 * The seal JSON is base[*off..*off + *len). */
static sc_status open_wrap(unwrapper *u, const char *json, size_t json_len, size_t *off,
                           size_t *len)
{
    sc_event w;
    size_t used = 0;
    sc_status st;

    st = front_parse(u, &w, u->cap, json, json_len, SC_EVENT_SIGNED, &used);
    if (st != SC_OK) {
        return st == SC_ERR_BUFFER_TOO_SMALL ? too_small(u, json_len) : st;
    }
    if (w.kind != SC_NIP59_KIND_WRAP && w.kind != SC_NIP59_KIND_WRAP_EPHEMERAL) {
        return SC_ERR_WRAP_KIND;
    }
    st = verify_layer(u->ctx, &w, SC_ERR_WRAP_ID, SC_ERR_WRAP_SIG);
    if (st != SC_OK) {
        return st;
    }
    if (u->now >= 0 && sc_nip40_check(&w, u->now) != SC_OK) {
        return SC_ERR_WRAP_EXPIRED;
    }
    memcpy(u->info.wrap_pubkey, w.pubkey, SC_PUBKEY_BYTES);
    memcpy(u->info.wrap_id, w.id, SC_EVENT_ID_BYTES);
    u->info.wrap_kind = w.kind;
    u->info.wrap_created_at = w.created_at;
    st = back_decrypt(u, used, w.pubkey, &w.content, off, len);
    if (st == SC_ERR_BUFFER_TOO_SMALL) {
        return too_small(u, json_len);
    }
    return bad_payload(st) ? SC_ERR_WRAP_DECRYPT : st;
}

/* The seal, from base[at..at + len) (wiped once parsed): parsed into the front, verified,
 * its content decrypted to the back. The rumor JSON is base[*off..*off + *len). */
static sc_status open_seal(unwrapper *u, size_t at, size_t len, size_t wrap_len, size_t *off,
                           size_t *rlen)
{
    sc_event s;
    size_t used = 0;
    sc_status st;

    st = front_parse(u, &s, at, (const char *)u->base + at, len, SC_EVENT_SIGNED, &used);
    sc_mem_wipe(u->base + at, len); /* the seal names the sender */
    if (st != SC_OK) {
        return st == SC_ERR_BUFFER_TOO_SMALL ? too_small(u, wrap_len)
               : bad_text(st)                ? SC_ERR_SEAL_JSON
                                             : st;
    }
    if (s.kind != SC_NIP59_KIND_SEAL) {
        return SC_ERR_SEAL_KIND;
    }
    st = verify_layer(u->ctx, &s, SC_ERR_SEAL_ID, SC_ERR_SEAL_SIG);
    if (st != SC_OK) {
        return st;
    }
    if (u->now >= 0 && sc_nip40_check(&s, u->now) != SC_OK) {
        return SC_ERR_SEAL_EXPIRED;
    }
    memcpy(u->info.sender, s.pubkey, SC_PUBKEY_BYTES);
    memcpy(u->info.seal_id, s.id, SC_EVENT_ID_BYTES);
    u->info.seal_created_at = s.created_at;
    st = back_decrypt(u, used, s.pubkey, &s.content, off, rlen);
    if (st == SC_ERR_BUFFER_TOO_SMALL) {
        return too_small(u, wrap_len);
    }
    return bad_payload(st) ? SC_ERR_SEAL_DECRYPT : st;
}

/* The rumor, from base[at..at + len) (wiped once parsed), into the front; *used its size. */
static sc_status open_rumor(unwrapper *u, sc_event *rumor, size_t at, size_t len, size_t *used)
{
    uint8_t id[SC_EVENT_ID_BYTES];
    sc_status st;

    st = front_parse(u, rumor, at, (const char *)u->base + at, len, RUMOR_FIELDS, used);
    sc_mem_wipe(u->base + at, len);
    if (st == SC_ERR_BUFFER_TOO_SMALL) {
        /* every other step fitted: the need is exact */
        u->need = *used + (u->cap - at) > u->peak ? *used + (u->cap - at) : u->peak;
        return st;
    }
    if (st != SC_OK) {
        return bad_text(st) ? SC_ERR_RUMOR_JSON : st;
    }
    if (rumor->flags & SC_EVENT_HAS_SIG) {
        return SC_ERR_RUMOR_SIGNED; /* a signed rumor could be published as proof */
    }
    if (memcmp(rumor->pubkey, u->info.sender, SC_PUBKEY_BYTES) != 0) {
        return SC_ERR_RUMOR_AUTHOR; /* a seal signer may not speak for someone else */
    }
    if ((rumor->flags & SC_EVENT_HAS_ID) == 0) {
        return SC_ERR_RUMOR_ID;
    }
    st = sc_event_compute_id(u->ctx, id, rumor);
    if (st != SC_OK) {
        return st;
    }
    return sc_mem_ct_compare(id, rumor->id, SC_EVENT_ID_BYTES) == 0 ? SC_OK : SC_ERR_RUMOR_ID;
}

/* Zeroes base[from..to) (nothing when from >= to). */
static void wipe(unwrapper *u, size_t from, size_t to)
{
    if (from < to) {
        sc_mem_wipe(u->base + from, to - from);
    }
}

sc_status sc_nip59_unwrap_peak(sc_ctx *ctx, sc_event *rumor, sc_nip59_info *info, void *arena,
                               size_t arena_cap, size_t *arena_used, size_t *peak,
                               const char *wrap_json, size_t wrap_len, const sc_identity *recipient,
                               int64_t now)
{
    size_t seal_at = 0, seal_len = 0, rumor_at = 0, rumor_len = 0, used = 0;
    unwrapper u;
    sc_status st;

    if (arena_used != NULL) {
        *arena_used = 0;
    }
    if (peak != NULL) {
        *peak = 0;
    }
    if (rumor != NULL) {
        memset(rumor, 0, sizeof *rumor);
    }
    if (info != NULL) {
        memset(info, 0, sizeof *info);
    }
    if (ctx == NULL || rumor == NULL || arena_used == NULL || peak == NULL || recipient == NULL ||
        (wrap_json == NULL && wrap_len != 0) || (arena == NULL && arena_cap != 0) ||
        sc_range_overlap(arena, arena_cap, wrap_json, wrap_len)) {
        return SC_ERR_ARG;
    }
    if (sc_ctx_impl_get(ctx) == NULL || !sc_identity_live(recipient)) {
        return SC_ERR_STATE;
    }
    memset(&u, 0, sizeof u);
    u.ctx = ctx;
    u.me = recipient;
    u.base = (uint8_t *)arena;
    u.cap = arena_cap;
    u.back_lo = arena_cap;
    u.now = now;

    st = open_wrap(&u, wrap_json, wrap_len, &seal_at, &seal_len);
    if (st == SC_OK) {
        st = open_seal(&u, seal_at, seal_len, wrap_len, &rumor_at, &rumor_len);
    }
    if (st == SC_OK) {
        st = open_rumor(&u, rumor, rumor_at, rumor_len, &used);
    }
    if (st != SC_OK) {
        /* nothing of an inner layer survives a failed check */
        wipe(&u, 0, u.front_hi);
        wipe(&u, u.back_lo, u.cap);
        memset(rumor, 0, sizeof *rumor);
        *arena_used = st == SC_ERR_BUFFER_TOO_SMALL ? u.need : 0;
        sc_mem_wipe(&u.info, sizeof u.info);
        return st;
    }
    /* the back regions were wiped when their text had been parsed */
    wipe(&u, used, u.front_hi);
    if (info != NULL) {
        *info = u.info;
    }
    *arena_used = used;
    *peak = u.peak;
    return SC_OK;
}

sc_status sc_nip59_unwrap(sc_ctx *ctx, sc_event *rumor, sc_nip59_info *info, void *arena,
                          size_t arena_cap, size_t *arena_used, const char *wrap_json,
                          size_t wrap_len, const sc_identity *recipient)
{
    size_t peak = 0;

    return sc_nip59_unwrap_peak(ctx, rumor, info, arena, arena_cap, arena_used, &peak, wrap_json,
                                wrap_len, recipient, -1);
}

sc_status sc_nip59_unwrap_at(sc_ctx *ctx, sc_event *rumor, sc_nip59_info *info, void *arena,
                             size_t arena_cap, size_t *arena_used, const char *wrap_json,
                             size_t wrap_len, const sc_identity *recipient, int64_t now)
{
    size_t peak = 0;

    if (now < 0) {
        if (arena_used != NULL) {
            *arena_used = 0;
        }
        if (rumor != NULL) {
            memset(rumor, 0, sizeof *rumor);
        }
        if (info != NULL) {
            memset(info, 0, sizeof *info);
        }
        return SC_ERR_ARG;
    }
    return sc_nip59_unwrap_peak(ctx, rumor, info, arena, arena_cap, arena_used, &peak, wrap_json,
                                wrap_len, recipient, now);
}
