/* The residue test's protocol cases (residue.h): identity, NIP-44 (conversation key, message
 * keys, encryption and decryption by key, by identity and held), NIP-59 (wrap with explicit
 * and with drawn randomness, unwrap, a refused unwrap) and streaming attachments. Identities
 * live in caller memory and are not tied to a context: the test imports them on a reference
 * context, so the call under test is only the one named. Calls that draw randomness run first
 * and their needles are computed from their output (no control scan is possible then). */
#include "residue.h"

#include <stdio.h>
#include <string.h>

#define PT_LEN 300
#define NOW 1700000000

/* ---- identity ------------------------------------------------------------------------------ */

static void case_import(rt *t)
{
    static const char *name = "identity_import";
    static uint8_t sec[32];
    static sc_identity id;
    rs_set *s = rt_case(t, name);
    sc_status st;

    if (s == NULL || !rt_has(t, name, SC_CAP_SECP256K1)) {
        return;
    }
    rt_fresh_key(sec);
    rs_add(s, "secret key", sec, 32);
    if (!RT_CONTROL(t, name, s, RS_LIVE(sec))) {
        return;
    }
    st = sc_identity_import(&t->ctx, &id, sec);
    sc_identity_clear(&id);
    RT_WIPE(sec);
    rt_verdict(t, name, st, SC_OK, s);
}

static void case_sign(rt *t)
{
    static const char *name = "identity_sign";
    static uint8_t sec[32], msg[32], sig[64];
    static sc_identity id;
    rs_set *s = rt_case(t, name);
    sc_ctx ref;
    sc_status st;

    if (s == NULL || !rt_has(t, name, SC_CAP_SECP256K1)) {
        return;
    }
    rt_fresh_key(sec);
    rt_fresh(msg, sizeof msg);
    if (!rt_ref_begin(t, name, &ref)) {
        return;
    }
    st = sc_identity_import(&ref, &id, sec);
    rt_ref_end(&ref);
    rs_add(s, "secret key", sec, 32);
    RT_WIPE(sec);
    if (st != SC_OK || !RT_CONTROL(t, name, s, RS_LIVE(id))) {
        sc_identity_clear(&id);
        return;
    }
    st = sc_identity_sign(&t->ctx, sig, &id, msg);
    sc_identity_clear(&id);
    rt_verdict(t, name, st, SC_OK, s);
}

static void case_generate(rt *t)
{
    static const char *name = "identity_generate";
    static uint8_t sec[32];
    static sc_identity id;
    rs_set *s = rt_case(t, name);
    sc_status st;

    if (s == NULL || !rt_has(t, name, SC_CAP_SECP256K1)) {
        return;
    }
    st = sc_identity_generate(&t->ctx, &id);
    if (st == SC_OK) {
        st = sc_identity_seckey(sec, &id);
    }
    rs_add(s, "secret key", sec, 32);
    sc_identity_clear(&id);
    RT_WIPE(sec);
    rt_verdict(t, name, st, SC_OK, s);
}

void rt_identity_cases(rt *t)
{
    case_import(t);
    case_sign(t);
    case_generate(t);
}

/* ---- NIP-44 --------------------------------------------------------------------------------- */

static char payload[2048];
static uint8_t plain[PT_LEN], out[2048];

static int nip44_ready(rt *t, const char *name)
{
    return rt_has(t, name, SC_CAP_HMAC_SHA256) && rt_has(t, name, SC_CAP_CHACHA20) &&
           rt_has(t, name, SC_CAP_SECP256K1);
}

static void case_conversation_key(rt *t)
{
    static const char *name = "nip44_conversation_key";
    static uint8_t sec[32], peer_sec[32], peer[32], ck[32];
    rs_set *s = rt_case(t, name);
    sc_ctx ref;
    sc_status st;
    int ok;

    if (s == NULL || !nip44_ready(t, name)) {
        return;
    }
    rt_fresh_key(sec);
    rt_fresh_key(peer_sec);
    if (!rt_ref_begin(t, name, &ref)) {
        return;
    }
    ok = rt_pub(t, name, &ref, peer, peer_sec) &&
         rt_add_conversation(s, &ref, "me-peer", ck, sec, peer);
    rt_ref_end(&ref);
    RT_WIPE(peer_sec);
    RT_WIPE(ck);
    if (!ok || !RT_CONTROL(t, name, s, RS_LIVE(sec))) {
        return;
    }
    st = sc_nip44_conversation_key(&t->ctx, ck, sec, peer);
    RT_WIPE(sec);
    RT_WIPE(ck);
    rt_verdict(t, name, st, SC_OK, s);
}

static void case_message_keys(rt *t)
{
    static const char *name = "nip44_message_keys";
    static uint8_t ck[32], nonce[32], okm[96], key[32], cnonce[12], hkey[32];
    rs_set *s = rt_case(t, name);
    sc_ctx ref;
    sc_status st;
    int ok;

    if (s == NULL || !nip44_ready(t, name)) {
        return;
    }
    rt_fresh(ck, sizeof ck);
    rt_fresh(nonce, sizeof nonce);
    if (!rt_ref_begin(t, name, &ref)) {
        return;
    }
    ok = rt_add_hkdf_expand(s, &ref, "conversation key", okm, sizeof okm, ck, 32, nonce, 32) &&
         rt_add_hmac_key(s, &ref, "hmac key", okm + 44, 32);
    rt_ref_end(&ref);
    rs_add(s, "chacha20 key", okm, 32);
    RT_WIPE(okm);
    if (!ok || !RT_CONTROL(t, name, s, RS_LIVE(ck))) {
        return;
    }
    st = sc_nip44_message_keys(&t->ctx, key, cnonce, hkey, ck, nonce);
    RT_WIPE(ck);
    RT_WIPE(key);
    RT_WIPE(cnonce);
    RT_WIPE(hkey);
    rt_verdict(t, name, st, SC_OK, s);
}

/* A payload of plain[0..len) under ck with nonce, made on ref, and its needles. */
static int ref_payload(rt *t, const char *name, rs_set *s, sc_ctx *ref, const uint8_t ck[32],
                       const uint8_t nonce[32], size_t len, size_t *payload_len)
{
    sc_status st = sc_nip44_encrypt_with_rand(ref, payload, sizeof payload, payload_len, ck, nonce,
                                              plain, len, 0);

    if (st != SC_OK) {
        rt_fail(t, name, "reference encryption: %s", sc_status_name(st));
        return 0;
    }
    rs_add(s, "conversation key", ck, 32);
    return rt_add_nip44_payload(t, name, s, ref, ck, payload, *payload_len, NULL, 0, NULL);
}

static void case_encrypt(rt *t, const char *name, size_t len, int drawn)
{
    static uint8_t ck[32], nonce[32];
    rs_set *s = rt_case(t, name);
    size_t n = 0, got = 0;
    sc_ctx ref;
    sc_status st;
    int ok;

    if (s == NULL || !nip44_ready(t, name)) {
        return;
    }
    rt_fresh(ck, sizeof ck);
    rt_fresh(nonce, sizeof nonce);
    rt_fresh(plain, len);
    if (drawn) { /* the nonce comes from the RNG: the call first, the needles from its output */
        st = sc_nip44_encrypt(&t->ctx, payload, sizeof payload, &got, ck, plain, len, 0);
        if (st != SC_OK) {
            rt_verdict(t, name, st, SC_OK, s);
            return;
        }
        ok = rt_ref_begin(t, name, &ref);
        if (ok) {
            rs_add(s, "conversation key", ck, 32);
            ok = rt_add_nip44_payload(t, name, s, &ref, ck, payload, got, NULL, 0, NULL);
            rt_ref_end(&ref);
        }
        RT_WIPE(ck);
        sc_mem_wipe(plain, len);
        if (ok) {
            rt_verdict(t, name, st, SC_OK, s);
        }
        return;
    }
    if (!rt_ref_begin(t, name, &ref)) {
        return;
    }
    ok = ref_payload(t, name, s, &ref, ck, nonce, len, &n);
    rt_ref_end(&ref);
    if (!ok || !RT_CONTROL(t, name, s, RS_LIVE(ck), RS_LIVE(plain))) {
        return;
    }
    st = sc_nip44_encrypt_with_rand(&t->ctx, (char *)out, sizeof out, &got, ck, nonce, plain, len,
                                    0);
    if (st == SC_OK && (got != n || memcmp(out, payload, n) != 0)) {
        rt_fail(t, name, "the payload differs from the reference's");
    }
    RT_WIPE(ck);
    sc_mem_wipe(plain, len);
    rt_verdict(t, name, st, SC_OK, s);
}

static void case_decrypt(rt *t, const char *name, int bad_mac)
{
    static uint8_t ck[32], nonce[32], raw[1024];
    rs_set *s = rt_case(t, name);
    size_t n = 0, got = 0, raw_len = 0;
    sc_ctx ref;
    sc_status st;
    int ok;

    if (s == NULL || !nip44_ready(t, name)) {
        return;
    }
    rt_fresh(ck, sizeof ck);
    rt_fresh(nonce, sizeof nonce);
    rt_fresh(plain, PT_LEN);
    if (!rt_ref_begin(t, name, &ref)) {
        return;
    }
    ok = ref_payload(t, name, s, &ref, ck, nonce, PT_LEN, &n);
    rt_ref_end(&ref);
    sc_mem_wipe(plain, PT_LEN);
    if (ok && bad_mac) {
        /* one MAC bit flipped, re-encoded canonically: the call stops at the MAC */
        ok = sc_base64_decode(raw, sizeof raw, &raw_len, payload, n) == SC_OK;
        raw[raw_len - 1] ^= 1;
        ok = ok && sc_base64_encode(payload, sizeof payload, &n, raw, raw_len) == SC_OK;
    }
    if (!ok || !RT_CONTROL(t, name, s, RS_LIVE(ck))) {
        return;
    }
    st = sc_nip44_decrypt(&t->ctx, out, sizeof out, &got, ck, payload, n, 0);
    RT_WIPE(ck);
    RT_WIPE(out);
    rt_verdict(t, name, st, bad_mac ? SC_ERR_MAC : SC_OK, s);
}

/* Identities on a reference context for (me, peer), with the conversation's needles. */
static int two_parties(rt *t, const char *name, rs_set *s, sc_ctx *ref, sc_identity *me,
                       uint8_t me_pub[32], uint8_t peer_pub[32], uint8_t ck[32])
{
    uint8_t sec[32], peer_sec[32];
    int ok;

    rt_fresh_key(sec);
    rt_fresh_key(peer_sec);
    ok = sc_identity_import(ref, me, sec) == SC_OK && sc_identity_pubkey(me_pub, me) == SC_OK &&
         rt_pub(t, name, ref, peer_pub, peer_sec) &&
         rt_add_conversation(s, ref, "me-peer", ck, sec, peer_pub);
    if (!ok) {
        rt_fail(t, name, "reference identities failed");
    }
    RT_WIPE(sec);
    RT_WIPE(peer_sec);
    return ok;
}

static void case_by_identity(rt *t, const char *name, int decrypt)
{
    static uint8_t ck[32], nonce[32], me_pub[32], peer_pub[32];
    static sc_identity me;
    rs_set *s = rt_case(t, name);
    size_t n = 0, got = 0;
    sc_ctx ref;
    sc_status st;
    int ok;

    if (s == NULL || !nip44_ready(t, name)) {
        return;
    }
    rt_fresh(nonce, sizeof nonce);
    rt_fresh(plain, PT_LEN);
    if (!rt_ref_begin(t, name, &ref)) {
        return;
    }
    ok = two_parties(t, name, s, &ref, &me, me_pub, peer_pub, ck) &&
         ref_payload(t, name, s, &ref, ck, nonce, PT_LEN, &n);
    rt_ref_end(&ref);
    RT_WIPE(ck);
    if (!ok || !RT_CONTROL(t, name, s, RS_LIVE(me), RS_LIVE(plain))) {
        sc_identity_clear(&me);
        sc_mem_wipe(plain, PT_LEN);
        return;
    }
    if (decrypt) {
        st = sc_nip44_decrypt_from(&t->ctx, out, sizeof out, &got, &me, peer_pub, payload, n, 0);
        if (st == SC_OK && (got != PT_LEN || memcmp(out, plain, PT_LEN) != 0)) {
            rt_fail(t, name, "wrong plaintext");
        }
    } else {
        st = sc_nip44_encrypt_to_with_rand(&t->ctx, (char *)out, sizeof out, &got, &me, peer_pub,
                                           nonce, plain, PT_LEN, 0);
        if (st == SC_OK && (got != n || memcmp(out, payload, n) != 0)) {
            rt_fail(t, name, "the payload differs from the reference's");
        }
    }
    sc_identity_clear(&me);
    sc_mem_wipe(plain, PT_LEN);
    RT_WIPE(out);
    rt_verdict(t, name, st, SC_OK, s);
}

static void case_held(rt *t)
{
    static const char *name = "nip44 held conversation (init, encrypt, decrypt, clear)";
    static uint8_t ck[32], me_pub[32], peer_pub[32];
    static sc_identity me;
    static sc_nip44_conversation conv;
    rs_set *s = rt_case(t, name);
    size_t n = 0, got = 0;
    sc_ctx ref;
    sc_status st;
    int ok;

    if (s == NULL || !nip44_ready(t, name)) {
        return;
    }
    rt_fresh(plain, PT_LEN);
    if (!rt_ref_begin(t, name, &ref)) {
        return;
    }
    ok = two_parties(t, name, s, &ref, &me, me_pub, peer_pub, ck);
    rt_ref_end(&ref);
    if (!ok || !RT_CONTROL(t, name, s, RS_LIVE(me), RS_LIVE(ck), RS_LIVE(plain))) {
        sc_identity_clear(&me);
        RT_WIPE(ck);
        return;
    }
    st = sc_nip44_conversation_init(&t->ctx, &conv, &me, peer_pub);
    if (st == SC_OK) {
        st = sc_nip44_conversation_encrypt(&t->ctx, payload, sizeof payload, &n, &conv, plain,
                                           PT_LEN, 0);
    }
    if (st == SC_OK) {
        st = sc_nip44_conversation_decrypt(&t->ctx, out, sizeof out, &got, &conv, payload, n, 0);
    }
    /* the nonce was drawn: the message's needles come from the payload */
    if (st == SC_OK && rt_ref_begin(t, name, &ref)) {
        ok = rt_add_nip44_payload(t, name, s, &ref, ck, payload, n, NULL, 0, NULL);
        rt_ref_end(&ref);
    }
    sc_nip44_conversation_clear(&conv);
    sc_identity_clear(&me);
    sc_mem_wipe(plain, PT_LEN);
    RT_WIPE(out);
    RT_WIPE(ck);
    if (ok) {
        rt_verdict(t, name, st, SC_OK, s);
    }
}

void rt_nip44_cases(rt *t)
{
    case_conversation_key(t);
    case_message_keys(t);
    case_encrypt(t, "nip44_encrypt_with_rand (32 bytes)", 32, 0);
    case_encrypt(t, "nip44_encrypt_with_rand (300 bytes)", PT_LEN, 0);
    case_encrypt(t, "nip44_encrypt (drawn nonce, 300 bytes)", PT_LEN, 1);
    case_decrypt(t, "nip44_decrypt (300 bytes)", 0);
    case_decrypt(t, "nip44_decrypt (MAC mismatch)", 1);
    case_by_identity(t, "nip44_encrypt_to", 0);
    case_by_identity(t, "nip44_decrypt_from", 1);
    case_held(t);
}

/* ---- NIP-59 --------------------------------------------------------------------------------- */

typedef struct gw {
    sc_identity author, recipient;
    uint8_t author_sec[32], recipient_sec[32], author_pub[32], recipient_pub[32];
    char content[48];
    sc_event rumor;
    uint8_t rumor_buf[1024];
    sc_nip59_rand rnd;
    sc_nip59_opts opts;
    char wrap[8192];
    size_t wrap_len;
    uint8_t scratch[16384], arena[65536], parse[65536], seal_json[8192], ck[32];
} gw;

static gw g;

static void gw_wipe(void)
{
    sc_identity_clear(&g.author);
    sc_identity_clear(&g.recipient);
    sc_mem_wipe(&g, sizeof g);
}

/* Fresh parties and a kind-14 rumor from author to recipient with a private text. */
static int gw_setup(rt *t, const char *name, sc_ctx *ref)
{
    sc_event_builder b;
    sc_str tag[2];
    char hex[64];
    size_t n;

    gw_wipe();
    rt_fresh_key(g.author_sec);
    rt_fresh_key(g.recipient_sec);
    rt_fresh_key(g.rnd.wrap_seckey);
    rt_fresh(g.rnd.seal_nonce, 32);
    rt_fresh(g.rnd.wrap_nonce, 32);
    rt_fresh(g.rnd.seal_aux, 32);
    rt_fresh(g.rnd.wrap_aux, 32);
    g.rnd.seal_backdate = 1000;
    g.rnd.wrap_backdate = 2000;
    g.opts.now = NOW;
    rt_fresh_text(g.content, sizeof g.content);
    if (sc_identity_import(ref, &g.author, g.author_sec) != SC_OK ||
        sc_identity_import(ref, &g.recipient, g.recipient_sec) != SC_OK ||
        sc_identity_pubkey(g.author_pub, &g.author) != SC_OK ||
        sc_identity_pubkey(g.recipient_pub, &g.recipient) != SC_OK ||
        sc_hex_encode(hex, sizeof hex, &n, g.recipient_pub, 32) != SC_OK ||
        sc_event_builder_init(&b, g.rumor_buf, sizeof g.rumor_buf) != SC_OK) {
        rt_fail(t, name, "reference parties failed");
        return 0;
    }
    tag[0].ptr = "p";
    tag[0].len = 1;
    tag[1].ptr = hex;
    tag[1].len = 64;
    sc_event_builder_kind(&b, 14);
    sc_event_builder_created_at(&b, NOW);
    sc_event_builder_content(&b, g.content, sizeof g.content);
    sc_event_builder_tag(&b, tag, 2);
    if (sc_event_builder_final(&b, &g.rumor, NULL) != SC_OK ||
        sc_nip59_rumor(ref, &g.rumor, g.author_pub) != SC_OK) {
        rt_fail(t, name, "reference rumor failed");
        return 0;
    }
    return 1;
}

/* The needles of a gift wrap to g.recipient, layer by layer, from the wrap itself: both
 * conversations (from the recipient's side: the same keys and ECDH x as the sender's), both
 * payloads with their plaintexts, the seal's id and signature, the rumor's text. */
static int gw_needles(rt *t, const char *name, rs_set *s, sc_ctx *ref)
{
    uint8_t ck_seal[32];
    sc_event wrap, seal;
    size_t used = 0, seal_len = 0, rumor_len = 0;
    int ok;

    ok = sc_event_parse(&wrap, g.parse, sizeof g.parse, &used, g.wrap, g.wrap_len, NULL) == SC_OK &&
         rt_add_conversation(s, ref, "wrap layer", g.ck, g.recipient_sec, wrap.pubkey) &&
         rt_add_nip44_payload(t, name, s, ref, g.ck, wrap.content.ptr, wrap.content.len,
                              g.seal_json, sizeof g.seal_json, &seal_len) &&
         sc_event_parse(&seal, g.arena, sizeof g.arena, &used, (const char *)g.seal_json, seal_len,
                        NULL) == SC_OK &&
         rt_add_conversation(s, ref, "seal layer", ck_seal, g.recipient_sec, g.author_pub) &&
         rt_add_nip44_payload(t, name, s, ref, ck_seal, seal.content.ptr, seal.content.len,
                              g.scratch, sizeof g.scratch, &rumor_len);
    if (ok) {
        rs_add(s, "seal id", seal.id, 32);
        rs_add(s, "seal signature", seal.sig, 64);
        rs_add(s, "rumor text", g.content, sizeof g.content);
        rs_add(s, "author secret key", g.author_sec, 32);
    } else {
        rt_fail(t, name, "the gift wrap's layers do not open with the reference keys");
    }
    sc_mem_wipe(g.parse, sizeof g.parse);
    sc_mem_wipe(g.arena, sizeof g.arena);
    sc_mem_wipe(g.scratch, sizeof g.scratch);
    sc_mem_wipe(g.seal_json, sizeof g.seal_json);
    RT_WIPE(ck_seal);
    sc_mem_wipe(&seal, sizeof seal);
    return ok;
}

static int nip59_ready(rt *t, const char *name)
{
    return nip44_ready(t, name) && rt_has(t, name, SC_CAP_SHA256);
}

static void case_wrap(rt *t, const char *name, int drawn)
{
    rs_set *s = rt_case(t, name);
    size_t n = 0;
    sc_ctx ref;
    sc_status st;
    int ok;

    if (s == NULL || !nip59_ready(t, name) || !rt_ref_begin(t, name, &ref)) {
        return;
    }
    ok = gw_setup(t, name, &ref);
    if (ok && !drawn) {
        rs_add(s, "one-time secret key", g.rnd.wrap_seckey, 32);
        ok = sc_nip59_wrap_with_rand(&ref, g.wrap, sizeof g.wrap, &g.wrap_len, g.scratch,
                                     sizeof g.scratch, &g.rumor, &g.author, g.recipient_pub,
                                     &g.opts, &g.rnd) == SC_OK &&
             gw_needles(t, name, s, &ref);
    }
    rt_ref_end(&ref);
    if (!ok) {
        gw_wipe();
        return;
    }
    if (drawn) {
        /* one-time key, nonces and aux drawn: the call first, the needles from its output */
        RT_WIPE(g.rnd.wrap_seckey);
        st = sc_nip59_wrap(&t->ctx, g.wrap, sizeof g.wrap, &g.wrap_len, g.scratch, sizeof g.scratch,
                           &g.rumor, &g.author, g.recipient_pub, &g.opts);
        ok = st == SC_OK && rt_ref_begin(t, name, &ref);
        if (ok) {
            ok = gw_needles(t, name, s, &ref);
            rt_ref_end(&ref);
        }
        gw_wipe();
        if (ok || st != SC_OK) {
            rt_verdict(t, name, st, SC_OK, s);
        }
        return;
    }
    if (!RT_CONTROL(t, name, s, RS_LIVE(g))) {
        gw_wipe();
        return;
    }
    st = sc_nip59_wrap_with_rand(&t->ctx, (char *)g.parse, sizeof g.parse, &n, g.scratch,
                                 sizeof g.scratch, &g.rumor, &g.author, g.recipient_pub, &g.opts,
                                 &g.rnd);
    if (st == SC_OK && (n != g.wrap_len || memcmp(g.parse, g.wrap, n) != 0)) {
        rt_fail(t, name, "the gift wrap differs from the reference's");
    }
    gw_wipe();
    rt_verdict(t, name, st, SC_OK, s);
}

/* Re-makes g.wrap around a seal whose signature has one bit flipped: the wrap itself stays
 * valid (re-encrypted and re-signed with the one-time key), so unwrap decrypts the wrap and
 * then refuses the seal. */
static int gw_break_seal(sc_ctx *ref)
{
    static char seal_text[8192], content[12288];
    uint8_t ck[32], nonce[32], aux[32];
    sc_identity once;
    sc_event wrap, seal;
    size_t used = 0, seal_len = 0, n = 0;
    int ok;

    rt_fresh(nonce, sizeof nonce);
    rt_fresh(aux, sizeof aux);
    ok = sc_event_parse(&wrap, g.parse, sizeof g.parse, &used, g.wrap, g.wrap_len, NULL) == SC_OK &&
         sc_nip44_conversation_key(ref, ck, g.rnd.wrap_seckey, g.recipient_pub) == SC_OK &&
         sc_nip44_decrypt(ref, g.seal_json, sizeof g.seal_json, &seal_len, ck, wrap.content.ptr,
                          wrap.content.len, 0) == SC_OK &&
         sc_event_parse(&seal, g.arena, sizeof g.arena, &used, (const char *)g.seal_json, seal_len,
                        NULL) == SC_OK;
    if (ok) {
        seal.sig[0] ^= 1;
        ok = sc_event_to_json(seal_text, sizeof seal_text, &n, &seal, 0) == SC_OK &&
             sc_nip44_encrypt_with_rand(ref, content, sizeof content, &used, ck, nonce,
                                        (const uint8_t *)seal_text, n, 0) == SC_OK;
    }
    if (ok) {
        wrap.content.ptr = content;
        wrap.content.len = used;
        ok = sc_identity_import(ref, &once, g.rnd.wrap_seckey) == SC_OK &&
             sc_event_sign_with_rand(ref, &wrap, &once, aux) == SC_OK &&
             sc_event_to_json((char *)g.scratch, sizeof g.scratch, &n, &wrap, 0) == SC_OK &&
             n <= sizeof g.wrap;
        if (ok) {
            memcpy(g.wrap, g.scratch, n);
            g.wrap_len = n;
        }
        sc_identity_clear(&once);
    }
    sc_mem_wipe(seal_text, sizeof seal_text);
    RT_WIPE(ck);
    sc_mem_wipe(g.seal_json, sizeof g.seal_json);
    sc_mem_wipe(g.arena, sizeof g.arena);
    sc_mem_wipe(g.parse, sizeof g.parse);
    sc_mem_wipe(g.scratch, sizeof g.scratch);
    return ok;
}

static void case_unwrap(rt *t, const char *name, int break_seal)
{
    static sc_event rumor;
    static sc_nip59_info info;
    rs_set *s = rt_case(t, name);
    size_t used = 0;
    sc_ctx ref;
    sc_status st;
    int ok;

    if (s == NULL || !nip59_ready(t, name) || !rt_ref_begin(t, name, &ref)) {
        return;
    }
    ok = gw_setup(t, name, &ref) &&
         sc_nip59_wrap_with_rand(&ref, g.wrap, sizeof g.wrap, &g.wrap_len, g.scratch,
                                 sizeof g.scratch, &g.rumor, &g.author, g.recipient_pub, &g.opts,
                                 &g.rnd) == SC_OK &&
         (!break_seal || gw_break_seal(&ref));
    if (!ok) {
        rt_fail(t, name, "reference gift wrap failed");
    } else {
        /* a broken seal still opens: gw_needles parses it, never verifies it */
        ok = gw_needles(t, name, s, &ref);
    }
    rt_ref_end(&ref);
    rs_add(s, "one-time secret key", g.rnd.wrap_seckey, 32);
    RT_WIPE(g.rnd.wrap_seckey);
    sc_identity_clear(&g.author);
    RT_WIPE(g.author_sec);
    if (!ok || !RT_CONTROL(t, name, s, RS_LIVE(g))) {
        gw_wipe();
        return;
    }
    st = sc_nip59_unwrap(&t->ctx, &rumor, &info, g.arena, sizeof g.arena, &used, g.wrap, g.wrap_len,
                         &g.recipient);
    if (st == SC_OK && (rumor.content.len != sizeof g.content ||
                        memcmp(rumor.content.ptr, g.content, sizeof g.content) != 0)) {
        rt_fail(t, name, "wrong rumor text");
    }
    sc_mem_wipe(&rumor, sizeof rumor);
    sc_mem_wipe(&info, sizeof info);
    gw_wipe();
    rt_verdict(t, name, st, break_seal ? SC_ERR_SEAL_SIG : SC_OK, s);
}

void rt_nip59_cases(rt *t)
{
    case_wrap(t, "nip59_wrap_with_rand", 0);
    case_wrap(t, "nip59_wrap (drawn randomness)", 1);
    case_unwrap(t, "nip59_unwrap", 0);
    case_unwrap(t, "nip59_unwrap (seal signature wrong)", 1);
}

/* ---- files ---------------------------------------------------------------------------------- */

#define FILE_LEN 3000

typedef struct fsink {
    uint8_t got[FILE_LEN + 64];
    size_t len;
    int committed, discarded;
} fsink;

static fsink sink_data;

static sc_status sink_write(void *user, const uint8_t *data, size_t len)
{
    fsink *k = (fsink *)user;

    if (k->len + len > sizeof k->got) {
        return SC_ERR_TOO_LARGE;
    }
    memcpy(k->got + k->len, data, len);
    k->len += len;
    return SC_OK;
}

static sc_status sink_commit(void *user)
{
    ((fsink *)user)->committed = 1;
    return SC_OK;
}

static void sink_discard(void *user)
{
    fsink *k = (fsink *)user;

    sc_mem_wipe(k->got, sizeof k->got);
    k->len = 0;
    k->discarded = 1;
}

static uint8_t fkey[32], fiv[16], fplain[FILE_LEN], fblob[FILE_LEN + 16 + 64];
static sc_file_enc fenc;
static sc_file_dec fdec;

static int file_ready(rt *t, const char *name)
{
    return rt_has(t, name, SC_CAP_AES256GCM_STREAM);
}

/* Fresh key, IV and plaintext, the blob made on a reference context, and the needles. */
static int file_setup(rt *t, const char *name, rs_set *s)
{
    const char *why = NULL;
    sc_ctx ref;
    size_t n = 0;
    int ok;

    rt_fresh(fkey, sizeof fkey);
    rt_fresh(fiv, sizeof fiv);
    rt_fresh(fplain, sizeof fplain);
    if (!rt_ref_begin(t, name, &ref)) {
        return 0;
    }
    ok = sc_crypto_aes256gcm_seal(&ref, fblob, fblob + FILE_LEN, fkey, fiv, sizeof fiv, NULL, 0,
                                  fplain, FILE_LEN) == SC_OK;
    if (ok && sc_backend_has(sc_ctx_backend(&ref), SC_CAP_AES256GCM_IV16, &why) == SC_OK) {
        ok = rt_add_gcm(s, &ref, fkey, fiv, sizeof fiv, FILE_LEN);
    } else if (ok) {
        rs_add(s, "AES key", fkey, 32); /* no one-shot 16-byte IVs to compute the rest with */
    }
    rt_ref_end(&ref);
    rs_add(s, "plaintext", fplain, 128);
    (void)n;
    if (!ok) {
        rt_fail(t, name, "reference encryption failed");
    }
    return ok;
}

static void file_wipe(void)
{
    RT_WIPE(fkey);
    RT_WIPE(fplain);
    sc_mem_wipe(&fenc, sizeof fenc);
    sc_mem_wipe(&fdec, sizeof fdec);
    sc_mem_wipe(&sink_data, sizeof sink_data);
    RT_WIPE(out);
}

static void case_keygen(rt *t)
{
    static const char *name = "file_keygen";
    rs_set *s = rt_case(t, name);
    sc_status st;

    if (s == NULL || !rt_has(t, name, SC_CAP_RNG)) {
        return;
    }
    st = sc_file_keygen(&t->ctx, fkey, fiv);
    rs_add(s, "file key", fkey, sizeof fkey);
    file_wipe();
    rt_verdict(t, name, st, SC_OK, s);
}

static void case_file_encrypt(rt *t, const char *name, int abort_it)
{
    static const size_t pieces[] = {1000, 1333, 667};
    rs_set *s = rt_case(t, name);
    uint8_t x[32], ox[32];
    uint64_t blob_size = 0;
    size_t i, at = 0, n = 0, total = 0;
    sc_status st;

    if (s == NULL || !file_ready(t, name) || !file_setup(t, name, s) ||
        !RT_CONTROL(t, name, s, RS_LIVE(fkey), RS_LIVE(fplain))) {
        file_wipe();
        return;
    }
    st = sc_file_encrypt_init(&t->ctx, &fenc, fkey, fiv, sizeof fiv);
    for (i = 0; st == SC_OK && i < sizeof pieces / sizeof pieces[0]; i++) {
        st = sc_file_encrypt_update(&fenc, out, sizeof out, &n, fplain + at, pieces[i]);
        if (st == SC_OK && memcmp(out, fblob + total, n) != 0) {
            rt_fail(t, name, "ciphertext differs from the reference's");
        }
        at += pieces[i];
        total += n;
        if (abort_it) {
            sc_file_encrypt_abort(&fenc);
            break;
        }
    }
    if (st == SC_OK && !abort_it) {
        st = sc_file_encrypt_final(&fenc, out, sizeof out, &n, x, ox, &blob_size);
        if (st == SC_OK && (total + n != FILE_LEN + 16 || memcmp(out, fblob + total, n) != 0)) {
            rt_fail(t, name, "the blob differs from the reference's");
        }
    }
    file_wipe();
    rt_verdict(t, name, st, SC_OK, s);
}

static void case_file_decrypt(rt *t, const char *name, int bad_tag)
{
    sc_file_sink sink;
    rs_set *s = rt_case(t, name);
    sc_status st;

    if (s == NULL || !file_ready(t, name) || !file_setup(t, name, s) ||
        !RT_CONTROL(t, name, s, RS_LIVE(fkey), RS_LIVE(fplain))) {
        file_wipe();
        return;
    }
    if (bad_tag) {
        fblob[FILE_LEN + 15] ^= 1;
    }
    sink.user = &sink_data;
    sink.write = sink_write;
    sink.commit = sink_commit;
    sink.discard = sink_discard;
    memset(&sink_data, 0, sizeof sink_data);
    st = sc_file_decrypt_init(&t->ctx, &fdec, fkey, fiv, sizeof fiv, &sink);
    if (st == SC_OK) {
        st = sc_file_decrypt_update(&fdec, fblob, 1777);
    }
    if (st == SC_OK) {
        st = sc_file_decrypt_update(&fdec, fblob + 1777, FILE_LEN + 16 - 1777);
    }
    if (st == SC_OK) {
        st = sc_file_decrypt_final(&fdec, NULL, NULL);
    }
    if (st == SC_OK && (!sink_data.committed || sink_data.len != FILE_LEN ||
                        memcmp(sink_data.got, fplain, FILE_LEN) != 0)) {
        rt_fail(t, name, "the sink did not receive the plaintext");
    }
    if (bad_tag && !sink_data.discarded) {
        rt_fail(t, name, "the sink was not discarded");
    }
    file_wipe();
    rt_verdict(t, name, st, bad_tag ? SC_ERR_AUTH : SC_OK, s);
}

void rt_file_cases(rt *t)
{
    case_keygen(t);
    case_file_encrypt(t, "file encrypt (3000 bytes in 3 updates, final)", 0);
    case_file_encrypt(t, "file encrypt (aborted after an update)", 1);
    case_file_decrypt(t, "file decrypt (commit)", 0);
    case_file_decrypt(t, "file decrypt (wrong tag)", 1);
}
