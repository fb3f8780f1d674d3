/* NIP-17: sending a kind 14 chat or kind 15 file message (the rumor, then one gift wrap per
 * receiver and the sender's copy) and receiving one. The message crosses as the JSON of an
 * unsigned event the TypeScript side builds from its options:
 *   content: the text (14) or the file's URL (15); created_at;
 *   tags: ["p", hex, relay?]..., ["e", hex, relay?], ["subject", s], ["q", target, relay,
 *         author?]..., and for kind 15 ["file-type", t], ["x", hex], ["ox", hex],
 *         ["size", decimal], ["dim", s], ["blurhash", s], ["thumb", url], ["fallback", url]...
 * The kind 15 key and IV cross as bytes (the input buffer, wiped by the caller), never as
 * text: on receipt the decryption-key tag is taken out of the rumor's JSON and its bytes
 * handed over in res. */
#include "exports.h"

#include <stdlib.h>
#include <string.h>

static int is(const sc_tag *t, const char *name, size_t min_items)
{
    size_t n = strlen(name);

    return t->n_items >= min_items && t->items[0].len == n && memcmp(t->items[0].ptr, name, n) == 0;
}

static sc_str item(const sc_tag *t, size_t i)
{
    sc_str none = {NULL, 0};

    return i < t->n_items ? t->items[i] : none;
}

/* The message's arrays, in scratch memory. */
typedef struct spec {
    sc_nip17_chat m;
    sc_nip17_file f;
    uint8_t reply[32];
} spec;

static sc_status hex32(uint8_t out[32], sc_str s)
{
    return sc_hex_decode_fixed(out, 32, s.ptr, s.len, SC_HEX_ANY_CASE) == SC_OK ? SC_OK
                                                                                : SC_ERR_MESSAGE;
}

/* Receivers, reply, subject and quotes of a kind 14 or 15 spec event. */
static sc_status chat_from(scw *w, spec *s, const sc_event *ev, sc_str content)
{
    size_t np = 0, nq = 0, i, bytes;
    sc_nip17_peer *peers;
    sc_nip17_quote *quotes;

    for (i = 0; i < ev->n_tags; i++) {
        np += is(&ev->tags[i], "p", 2);
        nq += is(&ev->tags[i], "q", 2);
    }
    if (!scw_mul(&bytes, np + nq + 1, sizeof(sc_nip17_peer) + sizeof(sc_nip17_quote)) ||
        (peers = (sc_nip17_peer *)(void *)scw_scratch(w, bytes)) == NULL) {
        return SC_ERR_NOMEM;
    }
    quotes = (sc_nip17_quote *)(void *)(peers + np + 1);
    s->m.to = peers;
    s->m.quotes = quotes;
    for (i = 0; i < ev->n_tags; i++) {
        const sc_tag *t = &ev->tags[i];
        if (is(t, "p", 2)) {
            sc_nip17_peer *p = &peers[s->m.n_to++];
            if (hex32(p->pubkey, t->items[1]) != SC_OK) {
                return SC_ERR_MESSAGE;
            }
            p->relay = item(t, 2);
        } else if (is(t, "e", 2)) {
            if (hex32(s->reply, t->items[1]) != SC_OK) {
                return SC_ERR_MESSAGE;
            }
            s->m.reply_to = s->reply;
            s->m.reply_relay = item(t, 2);
        } else if (is(t, "subject", 2)) {
            s->m.subject = t->items[1];
            if (s->m.subject.ptr == NULL) {
                s->m.subject.ptr = "";
            }
        } else if (is(t, "q", 2)) {
            sc_nip17_quote *q = &quotes[s->m.n_quotes++];
            q->target = t->items[1];
            q->relay = item(t, 2);
            q->author = item(t, 3);
        }
    }
    s->m.content = content;
    s->m.created_at = ev->created_at;
    return SC_OK;
}

/* A decimal size (at most 2^53). */
static sc_status decimal(uint64_t *v, sc_str s)
{
    size_t i;

    *v = 0;
    if (s.len == 0 || s.len > 16) {
        return SC_ERR_MESSAGE;
    }
    for (i = 0; i < s.len; i++) {
        if (s.ptr[i] < '0' || s.ptr[i] > '9') {
            return SC_ERR_MESSAGE;
        }
        *v = *v * 10 + (uint64_t)(s.ptr[i] - '0');
    }
    return SC_OK;
}

/* The kind 15 fields of a spec event (key and IV come as bytes). */
static sc_status file_from(scw *w, spec *s, const sc_event *ev)
{
    size_t nf = 0, i;
    sc_str *fb;
    sc_status st = SC_OK;

    for (i = 0; i < ev->n_tags; i++) {
        nf += is(&ev->tags[i], "fallback", 2);
    }
    if ((fb = (sc_str *)(void *)scw_scratch(w, (nf + 1) * sizeof(sc_str))) == NULL) {
        return SC_ERR_NOMEM;
    }
    s->f.url = ev->content;
    s->f.fallbacks = fb;
    for (i = 0; i < ev->n_tags && st == SC_OK; i++) {
        const sc_tag *t = &ev->tags[i];
        if (is(t, "file-type", 2)) {
            s->f.file_type = t->items[1];
        } else if (is(t, "x", 2)) {
            st = hex32(s->f.x, t->items[1]);
        } else if (is(t, "ox", 2)) {
            st = hex32(s->f.ox, t->items[1]);
            s->f.has_ox = 1;
        } else if (is(t, "size", 2)) {
            st = decimal(&s->f.size, t->items[1]);
        } else if (is(t, "dim", 2)) {
            s->f.dim = t->items[1];
        } else if (is(t, "blurhash", 2)) {
            s->f.blurhash = t->items[1];
        } else if (is(t, "thumb", 2)) {
            s->f.thumb = t->items[1];
        } else if (is(t, "fallback", 2)) {
            fb[s->f.n_fallbacks++] = t->items[1];
        }
    }
    return st;
}

/* Wraps the rumor for every receiver and the sender: the result is, per wrap,
 * recipient[32], u32 length, the wrap's JSON. */
static sc_status send_rumor(scw *w, const sc_event *rumor, const sc_identity *id,
                            const uint8_t pub[32], const sc_nip59_opts *o)
{
    size_t count = sc_nip17_send_wraps_len(rumor, pub), on = sc_nip17_send_max(rumor, pub, o);
    size_t sn = sc_nip17_send_scratch_max(rumor, pub, o), wn, total, used = 0, got = 0, i, off;
    sc_nip17_wrap *wraps;
    uint8_t *json, *scratch, *out;
    sc_status st;

    if (count == 0 || on == 0 || sn == 0) { /* the call names the failure */
        st = sc_nip17_send(w->ctx, NULL, 0, &used, NULL, 0, &got, NULL, 0, rumor, id, o);
        return st == SC_OK || st == SC_ERR_BUFFER_TOO_SMALL ? SC_ERR_TOO_LARGE : st;
    }
    if (!scw_mul(&wn, count, sizeof(sc_nip17_wrap)) || !scw_mul(&total, count, 36) ||
        !scw_add(&total, total, on)) {
        return SC_ERR_TOO_LARGE;
    }
    if ((wraps = (sc_nip17_wrap *)(void *)scw_scratch(w, wn)) == NULL ||
        (json = scw_scratch(w, on)) == NULL || (scratch = scw_scratch(w, sn)) == NULL ||
        (out = scw_output(w, total)) == NULL) {
        return SC_ERR_NOMEM;
    }
    st = sc_nip17_send(w->ctx, (char *)json, on, &used, wraps, count, &got, scratch, sn, rumor, id,
                       o);
    if (st != SC_OK) {
        return st;
    }
    for (i = 0, off = 0; i < got; i++) {
        uint32_t l = (uint32_t)wraps[i].len;
        memcpy(out + off, wraps[i].recipient, 32);
        memcpy(out + off + 32, &l, 4);
        memcpy(out + off + 36, json + wraps[i].offset, wraps[i].len);
        off += 36 + wraps[i].len;
    }
    return scw_result(w, off);
}

/* Sends a kind 14 or 15 message given as a spec event (above) from id; a kind 14's text is
 * text[0..tlen) (bytes: the TypeScript side never makes it a JSON string), the spec's
 * content is empty then. key and iv (iv_len bytes) are the kind 15 attachment's, NULL for
 * kind 14. */
SCW_EXPORT int scw_nip17_send(scw *w, const sc_identity *id, const char *json, uint32_t len,
                              const char *text, uint32_t tlen, const uint8_t *key,
                              const uint8_t *iv, uint32_t iv_len, uint32_t flags, const char *relay,
                              uint32_t rlen, double expiration, double now)
{
    sc_str content = {tlen > 0 ? text : "", tlen};
    spec *s = (spec *)(void *)scw_scratch(w, sizeof(spec));
    sc_event ev, rumor;
    sc_nip59_opts o;
    uint8_t pub[32], *buf;
    size_t rb;
    sc_status st;

    if (s == NULL) {
        return SC_ERR_NOMEM;
    }
    memset(s, 0, sizeof *s);
    st = scw_wrap_opts(&o, flags, relay, rlen, expiration, now);
    if (st == SC_OK) {
        st = scw_event_in(w, &ev, json, len,
                          SC_EVENT_HAS_ID | SC_EVENT_HAS_PUBKEY | SC_EVENT_HAS_SIG);
    }
    if (st == SC_OK) {
        st = sc_identity_pubkey(pub, id);
    }
    if (st == SC_OK) {
        st = chat_from(w, s, &ev, content);
    }
    if (st == SC_OK && ev.kind == SC_NIP17_KIND_FILE) {
        if (key == NULL || iv == NULL || iv_len < SC_NIP17_NONCE_MIN ||
            iv_len > SC_NIP17_NONCE_MAX) {
            return SC_ERR_ARG;
        }
        memcpy(s->f.key, key, 32);
        memcpy(s->f.nonce, iv, iv_len);
        s->f.nonce_len = iv_len;
        st = file_from(w, s, &ev);
    } else if (st == SC_OK && ev.kind != SC_NIP17_KIND_CHAT) {
        st = SC_ERR_MESSAGE;
    }
    if (st != SC_OK) {
        return st;
    }
    rb = ev.kind == SC_NIP17_KIND_FILE ? sc_nip17_file_rumor_buf_max(&s->m, &s->f)
                                       : sc_nip17_chat_rumor_buf_max(&s->m);
    if (rb == 0 || (buf = scw_scratch(w, rb)) == NULL) {
        return rb == 0 ? SC_ERR_MESSAGE : SC_ERR_NOMEM;
    }
    st = ev.kind == SC_NIP17_KIND_FILE
             ? sc_nip17_file_rumor(w->ctx, &rumor, buf, rb, &s->m, &s->f, pub)
             : sc_nip17_chat_rumor(w->ctx, &rumor, buf, rb, &s->m, pub);
    return st == SC_OK ? send_rumor(w, &rumor, id, pub, &o) : st;
}

/* A kind 15 rumor's attachment key and IV to res (160: key, 192: IV, 224: u32 IV length),
 * and the rumor without its decryption-key tag in *out (tags in scratch memory). */
static sc_status file_keys(scw *w, sc_event *out, const sc_event *rumor)
{
    sc_nip17_file f;
    size_t nfb = 0, i, n = 0;
    uint32_t l;
    sc_tag *tags;
    sc_status st = sc_nip17_file_parse(&f, NULL, 0, &nfb, rumor);

    if (st == SC_ERR_BUFFER_TOO_SMALL) { /* fallbacks are read from the tags, not here */
        sc_str *fb = (sc_str *)(void *)scw_scratch(w, nfb * sizeof(sc_str));
        st = fb == NULL ? SC_ERR_NOMEM : sc_nip17_file_parse(&f, fb, nfb, &nfb, rumor);
    }
    if (st != SC_OK) {
        return st;
    }
    memcpy(w->res + 160, f.key, 32);
    memcpy(w->res + 192, f.nonce, f.nonce_len);
    l = (uint32_t)f.nonce_len;
    memcpy(w->res + 224, &l, 4);
    sc_mem_wipe(&f, sizeof f);
    if ((tags = (sc_tag *)(void *)scw_scratch(w, (rumor->n_tags + 1) * sizeof(sc_tag))) == NULL) {
        return SC_ERR_NOMEM;
    }
    for (i = 0; i < rumor->n_tags; i++) {
        if (!is(&rumor->tags[i], "decryption-key", 1)) {
            tags[n++] = rumor->tags[i];
        }
    }
    *out = *rumor;
    out->tags = tags;
    out->n_tags = n;
    return SC_OK;
}

/* Receives a gift wrap for id at now: the rumor's JSON with an empty content (for kind 15
 * also without the decryption-key tag), then the content's bytes, then the room (32 bytes
 * per member); res: the unwrap facts, u32 JSON length at 148, u32 room size at 152, u32
 * content length at 156, and the kind 15 key and IV (file_keys). The text never becomes a
 * JSON string: the TypeScript side keeps it as bytes until asked for a string. */
SCW_EXPORT int scw_nip17_receive(scw *w, const sc_identity *id, const char *json, uint32_t len,
                                 double now)
{
    sc_nip17_received msg;
    sc_event shown;
    size_t need, used = 0, i;
    int64_t t;
    uint8_t *arena, *tail = NULL;
    uint32_t jl, nr, cl;
    sc_status st;

    if (len > SCW_MAX_INPUT) {
        return SC_ERR_TOO_LARGE;
    }
    if (!scw_time(now, &t)) {
        return SC_ERR_ARG;
    }
    need = sc_nip17_receive_arena_max(len);
    if (need == 0 || (arena = scw_scratch(w, need)) == NULL) {
        return need == 0 ? SC_ERR_TOO_LARGE : SC_ERR_NOMEM;
    }
    st = sc_nip17_receive_at(w->ctx, &msg, arena, need, &used, json, len, id, t);
    shown = msg.rumor;
    if (st == SC_OK && msg.rumor.kind == SC_NIP17_KIND_FILE) {
        st = file_keys(w, &shown, &msg.rumor);
    }
    shown.content.ptr = "";
    shown.content.len = 0;
    if (st == SC_OK) {
        st = scw_event_out(w, &shown, msg.rumor.content.len + msg.n_room * 32, &tail);
    }
    if (st != SC_OK) {
        return st;
    }
    cl = (uint32_t)msg.rumor.content.len;
    if (cl > 0) {
        memcpy(tail, msg.rumor.content.ptr, cl);
    }
    for (i = 0; i < msg.n_room; i++) {
        memcpy(tail + cl + 32 * i, msg.room[i], 32);
    }
    scw_put_info(w, &msg.wrap);
    jl = (uint32_t)(w->out_len - cl - msg.n_room * 32);
    nr = (uint32_t)msg.n_room;
    memcpy(w->res + 148, &jl, 4);
    memcpy(w->res + 152, &nr, 4);
    memcpy(w->res + 156, &cl, 4);
    return SC_OK;
}
