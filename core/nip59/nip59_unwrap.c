/* NIP-59 unwrap: every layer authenticated before the next is opened, inside one arena; the
 * two decryptions are the recipient's signer's (at once over a local identity; over an
 * external signer each stops at a request, and the plaintext it answers goes where a local
 * decryption would have put it), and the synchronous sc_nip59_unwrap / sc_nip59_unwrap_at.
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
#include "nip44/nip44_internal.h"
#include "nip59/nip59_internal.h"
#include "signer/signer_internal.h"

/* The fields a rumor must have besides its id (checked on its own) and without a sig. */
#define RUMOR_FIELDS                                                                               \
    (SC_EVENT_HAS_PUBKEY | SC_EVENT_HAS_KIND | SC_EVENT_HAS_CREATED_AT | SC_EVENT_HAS_TAGS |       \
     SC_EVENT_HAS_CONTENT)

/* Where an unwrap stands. */
enum {
    U_WRAP = 0,  /* open the gift wrap and decrypt its content */
    U_WRAP_WAIT, /* asked the signer to decrypt the wrap's content */
    U_SEAL,      /* the seal JSON is base[at..at + len): open it, decrypt its content */
    U_SEAL_WAIT, /* asked the signer to decrypt the seal's content */
    U_RUMOR,     /* the rumor JSON is base[at..at + len): open it */
    U_DONE
};

typedef sc_nip59_unwrap_op unwrapper;

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

/* Decrypts payload (from peer) into the back of the arena, above `front`, as the
 * recipient's signer: the plaintext is base[*off..*off + *len) (SC_OK), or the signer was
 * asked for it (SC_OP_YIELD: *off is set, *len comes with the answer). */
static sc_status back_decrypt(unwrapper *u, sc_ctx *ctx, sc_signer_op *op, size_t front,
                              const uint8_t *peer, const sc_str *payload, size_t *off, size_t *len)
{
    size_t n = sc_nip44_decrypt_max(payload->len);

    *off = u->cap;
    *len = 0;
    if (n > u->cap - front) {
        return SC_ERR_BUFFER_TOO_SMALL;
    }
    *off = u->cap - n;
    if (*off < u->back_lo) {
        u->back_lo = *off;
    }
    note_peak(u, front, n);
    u->front = front;
    return sc_nip44_decrypt_as(ctx, op, n != 0 ? u->base + *off : NULL, n, len, peer, payload->ptr,
                               payload->len, payload->len, &u->padded);
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

/* A layer's decryption status: the shortfall, a bad payload as the layer's status, a
 * request (or anything else) as it is. */
static sc_status decrypt_status(unwrapper *u, sc_status st, sc_status bad)
{
    if (st == SC_ERR_BUFFER_TOO_SMALL) {
        return too_small(u, u->wrap_len);
    }
    return bad_payload(st) ? bad : st;
}

/* The outer layer: parsed into the front, verified, its content decrypted to the back (the
 * seal JSON is base[u->at..u->at + u->len)). */
static sc_status open_wrap(unwrapper *u, sc_ctx *ctx, sc_signer_op *op)
{
    sc_event w;
    size_t used = 0;
    sc_status st;

    st = front_parse(u, &w, u->cap, u->wrap_json, u->wrap_len, SC_EVENT_SIGNED, &used);
    if (st != SC_OK) {
        return st == SC_ERR_BUFFER_TOO_SMALL ? too_small(u, u->wrap_len) : st;
    }
    if (w.kind != SC_NIP59_KIND_WRAP && w.kind != SC_NIP59_KIND_WRAP_EPHEMERAL) {
        return SC_ERR_WRAP_KIND;
    }
    st = verify_layer(ctx, &w, SC_ERR_WRAP_ID, SC_ERR_WRAP_SIG);
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
    st = back_decrypt(u, ctx, op, used, w.pubkey, &w.content, &u->at, &u->len);
    return decrypt_status(u, st, SC_ERR_WRAP_DECRYPT);
}

/* The seal, from base[u->at..u->at + u->len) (wiped once parsed): parsed into the front,
 * verified, its content decrypted to the back (the rumor JSON is then base[u->at..]). */
static sc_status open_seal(unwrapper *u, sc_ctx *ctx, sc_signer_op *op)
{
    size_t at = u->at, len = u->len, used = 0;
    sc_event s;
    sc_status st;

    st = front_parse(u, &s, at, (const char *)u->base + at, len, SC_EVENT_SIGNED, &used);
    sc_mem_wipe(u->base + at, len); /* the seal names the sender */
    if (st != SC_OK) {
        return st == SC_ERR_BUFFER_TOO_SMALL ? too_small(u, u->wrap_len)
               : bad_text(st)                ? SC_ERR_SEAL_JSON
                                             : st;
    }
    if (s.kind != SC_NIP59_KIND_SEAL) {
        return SC_ERR_SEAL_KIND;
    }
    st = verify_layer(ctx, &s, SC_ERR_SEAL_ID, SC_ERR_SEAL_SIG);
    if (st != SC_OK) {
        return st;
    }
    if (u->now >= 0 && sc_nip40_check(&s, u->now) != SC_OK) {
        return SC_ERR_SEAL_EXPIRED;
    }
    memcpy(u->info.sender, s.pubkey, SC_PUBKEY_BYTES);
    memcpy(u->info.seal_id, s.id, SC_EVENT_ID_BYTES);
    u->info.seal_created_at = s.created_at;
    st = back_decrypt(u, ctx, op, used, s.pubkey, &s.content, &u->at, &u->len);
    return decrypt_status(u, st, SC_ERR_SEAL_DECRYPT);
}

/* The rumor, from base[u->at..u->at + u->len) (wiped once parsed), into the front; u->used
 * its size. */
static sc_status open_rumor(unwrapper *u, sc_ctx *ctx)
{
    uint8_t id[SC_EVENT_ID_BYTES];
    sc_event *rumor = u->rumor;
    size_t at = u->at;
    sc_status st;

    st = front_parse(u, rumor, at, (const char *)u->base + at, u->len, RUMOR_FIELDS, &u->used);
    sc_mem_wipe(u->base + at, u->len);
    if (st == SC_ERR_BUFFER_TOO_SMALL) {
        /* every other step fitted: the need is exact */
        u->need = u->used + (u->cap - at) > u->peak ? u->used + (u->cap - at) : u->peak;
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
    st = sc_event_compute_id(ctx, id, rumor);
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

sc_status sc_nip59_unwrap_begin(sc_nip59_unwrap_op *u, sc_ctx *ctx, sc_event *rumor,
                                sc_nip59_info *info, void *arena, size_t arena_cap,
                                size_t *arena_used, const char *wrap_json, size_t wrap_len,
                                const sc_signer *recipient, int64_t now)
{
    sc_status st;

    if (arena_used != NULL) {
        *arena_used = 0;
    }
    if (rumor != NULL) {
        memset(rumor, 0, sizeof *rumor);
    }
    if (info != NULL) {
        memset(info, 0, sizeof *info);
    }
    if (u == NULL || ctx == NULL || rumor == NULL || arena_used == NULL ||
        sc_signer_check(recipient) == SC_ERR_ARG || (wrap_json == NULL && wrap_len != 0) ||
        (arena == NULL && arena_cap != 0) ||
        sc_range_overlap(arena, arena_cap, wrap_json, wrap_len)) {
        return SC_ERR_ARG;
    }
    st = sc_signer_check(recipient);
    if (sc_ctx_impl_get(ctx) == NULL || st != SC_OK) {
        return SC_ERR_STATE;
    }
    memset(u, 0, sizeof *u);
    u->base = (uint8_t *)arena;
    u->cap = arena_cap;
    u->back_lo = arena_cap;
    u->now = now;
    u->rumor = rumor;
    u->info_out = info;
    u->arena_used = arena_used;
    u->wrap_json = wrap_json;
    u->wrap_len = wrap_len;
    u->stage = U_WRAP;
    return SC_OK;
}

sc_status sc_nip59_unwrap_run(sc_nip59_unwrap_op *u, sc_ctx *ctx, sc_signer_op *op)
{
    sc_status st = SC_OK;

    while (st == SC_OK && u->stage != U_DONE) {
        switch (u->stage) {
        case U_WRAP:
            st = open_wrap(u, ctx, op);
            u->stage = st == SC_OP_YIELD ? U_WRAP_WAIT : U_SEAL;
            break;
        case U_SEAL:
            st = open_seal(u, ctx, op);
            u->stage = st == SC_OP_YIELD ? U_SEAL_WAIT : U_RUMOR;
            break;
        case U_RUMOR:
            st = open_rumor(u, ctx);
            u->stage = U_DONE;
            break;
        default:
            st = SC_ERR_STATE; /* a request without its answer: the frame prevents it */
            break;
        }
    }
    if (st != SC_OK) {
        return st;
    }
    /* the back regions were wiped when their text had been parsed */
    wipe(u, u->used, u->front_hi);
    if (u->info_out != NULL) {
        *u->info_out = u->info;
    }
    *u->arena_used = u->used;
    return SC_OK;
}

sc_status sc_nip59_unwrap_answer(sc_nip59_unwrap_op *u, const char *text, size_t len)
{
    sc_status st;

    if (u->stage != U_WRAP_WAIT && u->stage != U_SEAL_WAIT) {
        return SC_ERR_STATE;
    }
    /* the plaintext goes where a local decryption puts it, at the back region's start */
    st = sc_nip44_decrypt_answer(u->base + u->at, u->cap - u->at, &u->len, u->padded, text, len);
    u->stage = u->stage == U_WRAP_WAIT ? U_SEAL : U_RUMOR;
    return st;
}

void sc_nip59_unwrap_abort(sc_nip59_unwrap_op *u, sc_status st)
{
    /* nothing of an inner layer survives a failed check */
    wipe(u, 0, u->front_hi);
    wipe(u, u->back_lo, u->cap);
    memset(u->rumor, 0, sizeof *u->rumor);
    if (u->info_out != NULL) {
        memset(u->info_out, 0, sizeof *u->info_out);
    }
    *u->arena_used = st == SC_ERR_BUFFER_TOO_SMALL ? u->need : 0;
    sc_mem_wipe(&u->info, sizeof u->info);
}

/* ---- the operation (nip59.h) and the synchronous calls ----------------------------------- */

static sc_status unwrap_step(sc_signer_op *op, sc_ctx *ctx)
{
    return sc_nip59_unwrap_run((sc_nip59_unwrap_op *)sc_op_body(op), ctx, op);
}

static sc_status unwrap_answer(sc_signer_op *op, sc_ctx *ctx, const char *text, size_t len)
{
    (void)ctx;
    return sc_nip59_unwrap_answer((sc_nip59_unwrap_op *)sc_op_body(op), text, len);
}

static void unwrap_fail(sc_signer_op *op, sc_status st)
{
    sc_nip59_unwrap_abort((sc_nip59_unwrap_op *)sc_op_body(op), st);
}

static const sc_op_vt unwrap_vt = {unwrap_step, unwrap_answer, unwrap_fail};

typedef char unwrap_op_fits[(sizeof(sc_nip59_unwrap_op) <= SC_OP_BODY_BYTES) ? 1 : -1];

sc_status sc_nip59_unwrap_start(sc_ctx *ctx, sc_signer_op *op, sc_event *rumor, sc_nip59_info *info,
                                void *arena, size_t arena_cap, size_t *arena_used,
                                const char *wrap_json, size_t wrap_len, const sc_signer *recipient,
                                int64_t now)
{
    sc_nip59_unwrap_op *u = NULL;
    sc_status st;

    if (op != NULL && recipient != NULL) {
        u = (sc_nip59_unwrap_op *)sc_op_start(op, recipient, &unwrap_vt);
    }
    st = sc_nip59_unwrap_begin(u, ctx, rumor, info, arena, arena_cap, arena_used, wrap_json,
                               wrap_len, recipient, now < 0 ? -1 : now);
    if (st != SC_OK) {
        sc_op_drop(op);
    }
    return st;
}

/* sc_nip59_unwrap_start over the identity, run to its end in one call. */
static sc_status unwrap_local(sc_ctx *ctx, sc_event *rumor, sc_nip59_info *info, void *arena,
                              size_t arena_cap, size_t *arena_used, const char *wrap_json,
                              size_t wrap_len, const sc_identity *recipient, int64_t now)
{
    sc_signer s;
    sc_signer_op op;
    sc_status st;

    sc_signer_set_local(&s, recipient);
    st = sc_nip59_unwrap_start(ctx, &op, rumor, info, arena, arena_cap, arena_used, wrap_json,
                               wrap_len, &s, now);
    return sc_op_run_local(&op, ctx, st);
}

sc_status sc_nip59_unwrap(sc_ctx *ctx, sc_event *rumor, sc_nip59_info *info, void *arena,
                          size_t arena_cap, size_t *arena_used, const char *wrap_json,
                          size_t wrap_len, const sc_identity *recipient)
{
    return unwrap_local(ctx, rumor, info, arena, arena_cap, arena_used, wrap_json, wrap_len,
                        recipient, -1);
}

sc_status sc_nip59_unwrap_at(sc_ctx *ctx, sc_event *rumor, sc_nip59_info *info, void *arena,
                             size_t arena_cap, size_t *arena_used, const char *wrap_json,
                             size_t wrap_len, const sc_identity *recipient, int64_t now)
{
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
    return unwrap_local(ctx, rumor, info, arena, arena_cap, arena_used, wrap_json, wrap_len,
                        recipient, now);
}
