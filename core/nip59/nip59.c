/* NIP-59: rumors, the size plan of a gift wrap, and the tags of the seal and the wrap.
 *
 * Sizes are measured by the same writer that produces the JSON: the seal and the wrap are
 * measured with an empty content and the NIP-44 payload length added, which is exact because
 * base64 never needs escaping. */
#include <softchat/mem.h>
#include <softchat/nip44.h>
#include <softchat/nip59.h>

#include <stdint.h>
#include <string.h>

#include "nip59/nip59_internal.h"
#include "util/utf8.h"

/* NIP-44 plaintexts from this length on need the extended length prefix. */
#define EXTENDED_FROM 65536u

static const char k_expiration[] = "expiration";

int64_t sc_nip59_backdated(int64_t now, uint32_t backdate)
{
    return now > (int64_t)backdate ? now - (int64_t)backdate : 0;
}

size_t sc_nip59_dec(char out[SC_NIP59_DEC_MAX], uint64_t v)
{
    char tmp[SC_NIP59_DEC_MAX];
    size_t n = 0, i;

    do {
        tmp[n++] = (char)('0' + (int)(v % 10));
        v /= 10;
    } while (v != 0);
    for (i = 0; i < n; i++) {
        out[i] = tmp[n - 1 - i];
    }
    return n;
}

void sc_nip59_tags_init(sc_nip59_tags *t, const uint8_t *recipient, const sc_nip59_opts *opts)
{
    static const char hex[] = "0123456789abcdef";
    size_t i, n_p = 2;

    memset(t, 0, sizeof *t);
    if (recipient != NULL) {
        for (i = 0; i < SC_PUBKEY_BYTES; i++) {
            t->p_hex[2 * i] = hex[recipient[i] >> 4];
            t->p_hex[2 * i + 1] = hex[recipient[i] & 15];
        }
        t->p_items[0].ptr = "p";
        t->p_items[0].len = 1;
        t->p_items[1].ptr = t->p_hex;
        t->p_items[1].len = sizeof t->p_hex;
        if (opts != NULL && opts->relay.len != 0) {
            t->p_items[2] = opts->relay;
            n_p = 3;
        }
        t->tags[t->n].items = t->p_items;
        t->tags[t->n].n_items = n_p;
        t->n++;
    }
    if (opts != NULL && opts->expiration > 0 &&
        (recipient != NULL || (opts->flags & SC_NIP59_EXPIRATION_WRAP_ONLY) == 0)) {
        t->exp_items[0].ptr = k_expiration;
        t->exp_items[0].len = sizeof k_expiration - 1;
        t->exp_items[1].ptr = t->exp_dec;
        t->exp_items[1].len = sc_nip59_dec(t->exp_dec, (uint64_t)opts->expiration);
        t->tags[t->n].items = t->exp_items;
        t->tags[t->n].n_items = 2;
        t->n++;
    }
}

sc_status sc_nip59_check_opts(const sc_nip59_opts *opts)
{
    if (opts == NULL) {
        return SC_OK;
    }
    if (opts->relay.ptr == NULL && opts->relay.len != 0) {
        return SC_ERR_ARG;
    }
    if ((opts->flags & ~(unsigned)(SC_NIP59_EPHEMERAL | SC_NIP44_EXTENDED |
                                   SC_NIP59_EXPIRATION_WRAP_ONLY)) != 0 ||
        opts->expiration < 0 || opts->now < 0) {
        return SC_ERR_FLAGS;
    }
    return SC_OK;
}

sc_status sc_nip59_check_rumor(const sc_event *rumor)
{
    const unsigned need = SC_EVENT_HAS_PUBKEY | SC_EVENT_HAS_ID;

    if (rumor == NULL) {
        return SC_ERR_ARG;
    }
    if ((rumor->flags & SC_EVENT_HAS_SIG) != 0) {
        return SC_ERR_RUMOR_SIGNED; /* a rumor is never signed: pass the unsigned event */
    }
    if ((rumor->flags & need) != need) {
        return SC_ERR_EVENT_FIELD; /* make it a rumor first: sc_nip59_rumor */
    }
    return sc_event_check(rumor);
}

/* The length of ev's JSON object with `payload` bytes of base64 as its content (ev's own
 * content is empty); 0 on overflow. */
static size_t signed_len(const sc_event *ev, size_t payload)
{
    size_t shape = sc_event_to_json_len(ev, SC_EVENT_JSON_OBJECT);

    if (shape == 0 || payload == 0 || payload > (size_t)-1 - shape) {
        return 0;
    }
    return shape + payload;
}

sc_status sc_nip59_plan_sizes(sc_nip59_plan *p, const sc_event *rumor, const sc_nip59_opts *opts,
                              int64_t seal_at, int64_t wrap_at)
{
    static const uint8_t zero_key[SC_PUBKEY_BYTES];
    const unsigned shape_flags = SC_EVENT_HAS_ID | SC_EVENT_HAS_PUBKEY | SC_EVENT_HAS_SIG;
    sc_nip59_tags seal_tags, wrap_tags;
    sc_event seal, wrap;

    memset(p, 0, sizeof *p);
    if (opts != NULL && opts->relay.len != 0 &&
        sc_utf8_check(opts->relay.ptr, opts->relay.len) != SC_OK) {
        return SC_ERR_UTF8;
    }
    p->rumor_json = sc_event_to_json_len(rumor, SC_EVENT_JSON_OBJECT);
    p->seal_payload = sc_nip44_encrypt_len(p->rumor_json);

    sc_nip59_tags_init(&seal_tags, NULL, opts);
    memset(&seal, 0, sizeof seal);
    seal.kind = SC_NIP59_KIND_SEAL;
    seal.created_at = seal_at;
    seal.tags = seal_tags.n != 0 ? seal_tags.tags : NULL;
    seal.n_tags = seal_tags.n;
    seal.content.ptr = "";
    seal.flags = shape_flags;
    p->seal_json = signed_len(&seal, p->seal_payload);
    p->wrap_payload = sc_nip44_encrypt_len(p->seal_json);

    sc_nip59_tags_init(&wrap_tags, zero_key, opts);
    memset(&wrap, 0, sizeof wrap);
    wrap.kind = (opts != NULL && (opts->flags & SC_NIP59_EPHEMERAL) != 0)
                    ? SC_NIP59_KIND_WRAP_EPHEMERAL
                    : SC_NIP59_KIND_WRAP;
    wrap.created_at = wrap_at;
    wrap.tags = wrap_tags.tags;
    wrap.n_tags = wrap_tags.n;
    wrap.content.ptr = "";
    wrap.flags = shape_flags;
    p->wrap_json = signed_len(&wrap, p->wrap_payload);

    /* a zero anywhere means a length did not fit size_t (or the NIP-44 maximum) */
    if (p->rumor_json == 0 || p->seal_payload == 0 || p->seal_json == 0 || p->wrap_payload == 0 ||
        p->wrap_json == 0 || p->wrap_payload > (size_t)-1 - p->seal_json) {
        memset(p, 0, sizeof *p);
        return SC_ERR_TOO_LARGE;
    }
    p->scratch = p->seal_json + p->wrap_payload;
    p->extended = p->rumor_json >= EXTENDED_FROM || p->seal_json >= EXTENDED_FROM;
    return SC_OK;
}

/* The plan with both timestamps bounded by opts->now (INT64_MAX when unset), or 0 sizes. */
static int bound_plan(sc_nip59_plan *p, const sc_event *rumor, const sc_nip59_opts *opts)
{
    int64_t t = (opts != NULL && opts->now != 0) ? opts->now : INT64_MAX;

    memset(p, 0, sizeof *p);
    return rumor != NULL && sc_nip59_check_rumor(rumor) == SC_OK &&
           sc_nip59_check_opts(opts) == SC_OK && sc_nip59_plan_sizes(p, rumor, opts, t, t) == SC_OK;
}

size_t sc_nip59_wrap_scratch_max(const sc_event *rumor, const sc_nip59_opts *opts)
{
    sc_nip59_plan p;

    return bound_plan(&p, rumor, opts) ? p.scratch : 0;
}

size_t sc_nip59_wrap_max(const sc_event *rumor, const sc_nip59_opts *opts)
{
    sc_nip59_plan p;

    return bound_plan(&p, rumor, opts) ? p.wrap_json : 0;
}

sc_status sc_nip59_rumor(sc_ctx *ctx, sc_event *ev, const uint8_t author[SC_PUBKEY_BYTES])
{
    uint8_t id[SC_EVENT_ID_BYTES];
    sc_event tmp;
    sc_status st;

    if (ev == NULL) {
        return SC_ERR_ARG;
    }
    if (ctx == NULL || author == NULL) {
        st = SC_ERR_ARG;
    } else {
        tmp = *ev;
        memcpy(tmp.pubkey, author, SC_PUBKEY_BYTES);
        tmp.flags |= SC_EVENT_HAS_PUBKEY;
        st = sc_event_compute_id(ctx, id, &tmp);
    }
    sc_mem_wipe(ev->sig, SC_SIG_BYTES);
    if (st != SC_OK) {
        sc_mem_wipe(ev->id, SC_EVENT_ID_BYTES);
        ev->flags &= ~(unsigned)(SC_EVENT_HAS_ID | SC_EVENT_HAS_SIG);
        return st;
    }
    memcpy(ev->pubkey, author, SC_PUBKEY_BYTES);
    memcpy(ev->id, id, SC_EVENT_ID_BYTES);
    ev->flags = (ev->flags | SC_EVENT_HAS_PUBKEY | SC_EVENT_HAS_ID) & ~(unsigned)SC_EVENT_HAS_SIG;
    return SC_OK;
}
