/* The signer suite for one backend:
 *   test_signer --backend NAME [--vectors DIR] [--own DIR]
 * Operations over a local identity and over an external signer (a double holding the same
 * key) give the same results, byte for byte where the randomness is the same; the double
 * (sg_answer) and its driver (sg_drive) live here too. */
#include "test_signer.h"

#include <stdlib.h>
#include <string.h>

/* ---- the double ------------------------------------------------------------------------- */

void sg_double_init(sg_double *d, gw_env *env, const sc_identity *id)
{
    memset(d, 0, sizeof *d);
    d->env = env;
    d->id = id;
}

void sg_hex(char out[65], const uint8_t key[32])
{
    size_t n = 0;

    VT_ASSERT_STATUS(sc_hex_encode(out, 65, &n, key, 32), SC_OK);
    out[64] = '\0';
}

void sg_external(sc_signer *s, const sc_identity *id)
{
    uint8_t pub[32];

    VT_ASSERT_STATUS(sc_identity_pubkey(pub, id), SC_OK);
    VT_ASSERT_STATUS(sc_signer_init_external(s, pub, 5000), SC_OK);
}

static char *copy_text(const char *p, size_t n, size_t extra)
{
    char *c = (char *)vt_alloc(n + extra + 1);

    memcpy(c, p, n);
    c[n] = '\0';
    return c;
}

/* The event's JSON object (malloc'd). */
static char *event_json(const sc_event *ev, size_t *len)
{
    size_t n = 0;
    char *out;

    VT_ASSERT_STATUS(sc_event_to_json(NULL, 0, &n, ev, SC_EVENT_JSON_OBJECT),
                     SC_ERR_BUFFER_TOO_SMALL);
    out = (char *)vt_alloc(n + 1);
    VT_ASSERT_STATUS(sc_event_to_json(out, n, len, ev, SC_EVENT_JSON_OBJECT), SC_OK);
    return out;
}

static char *sign_answer(sg_double *d, const sc_signer_req *req, int lie, size_t *len)
{
    sc_ctx *ctx = &d->env->ctx;
    const sc_identity *who = lie == SG_SIG_OTHER_KEY ? d->other : d->id;
    const uint8_t *aux = d->rnds != NULL ? d->rnds[(req->seq - 1) / 2].seal_aux : d->aux;
    uint8_t id[32], pub[32];
    sc_event ev = *req->event;
    char *out;

    /* the request is self-consistent: the user's key, the id of its fields, no signature */
    VT_ASSERT_STATUS(sc_identity_pubkey(pub, d->id), SC_OK);
    assert_memory_equal(ev.pubkey, pub, 32);
    VT_ASSERT_STATUS(sc_event_compute_id(ctx, id, &ev), SC_OK);
    assert_memory_equal(ev.id, id, 32);
    assert_int_equal(ev.flags & SC_EVENT_HAS_SIG, 0);
    if (lie == SG_SIG_NOT_JSON) {
        *len = 6;
        return copy_text("signed", 6, 0);
    }
    if (lie == SG_SIG_OTHER_EVENT) {
        ev.created_at += 1;
    }
    VT_ASSERT_STATUS(aux != NULL ? sc_event_sign_with_rand(ctx, &ev, who, aux)
                                 : sc_event_sign(ctx, &ev, who),
                     SC_OK);
    if (lie == SG_SIG_PUBKEY) {
        VT_ASSERT_STATUS(sc_identity_pubkey(ev.pubkey, d->other), SC_OK);
    } else if (lie == SG_SIG_ID) {
        ev.id[7] ^= 0x10;
    } else if (lie == SG_SIG_NO_SIG) {
        ev.flags &= ~(unsigned)SC_EVENT_HAS_SIG;
    }
    if (d->hex_sig || lie == SG_SIG_BITFLIP) {
        if (lie == SG_SIG_BITFLIP) {
            ev.sig[40] ^= 0x04;
        }
        out = (char *)vt_alloc(129);
        VT_ASSERT_STATUS(sc_hex_encode(out, 129, len, ev.sig, 64), SC_OK);
        return out;
    }
    return event_json(&ev, len);
}

static char *encrypt_answer(sg_double *d, const sc_signer_req *req, int lie, size_t *len)
{
    sc_ctx *ctx = &d->env->ctx;
    size_t need = sc_nip44_encrypt_len(req->text.len), raw_len = 0;
    const uint8_t *nonce = d->nonce;
    uint8_t peer[32], *raw;
    char *out = (char *)vt_alloc(need + 8);

    memcpy(peer, req->peer, 32);
    if (lie == SG_PAYLOAD_OTHER_KEY) {
        VT_ASSERT_STATUS(sc_identity_pubkey(peer, d->other), SC_OK);
    }
    if (d->rnds != NULL) {
        nonce = d->rnds[(req->seq - 1) / 2].seal_nonce;
    }
    VT_ASSERT_STATUS(nonce != NULL
                         ? sc_nip44_encrypt_to_with_rand(ctx, out, need, len, d->id, peer, nonce,
                                                         (const uint8_t *)req->text.ptr,
                                                         req->text.len, SC_NIP44_EXTENDED)
                         : sc_nip44_encrypt_to(ctx, out, need, len, d->id, peer,
                                               (const uint8_t *)req->text.ptr, req->text.len,
                                               SC_NIP44_EXTENDED),
                     SC_OK);
    switch (lie) {
    case SG_PAYLOAD_LONG:
        memcpy(out + *len, "AAAA", 4);
        *len += 4;
        break;
    case SG_PAYLOAD_SHORT:
        *len -= 1;
        break;
    case SG_PAYLOAD_VERSION:
        raw = vt_alloc(sc_base64_decode_max(*len));
        VT_ASSERT_STATUS(sc_base64_decode(raw, sc_base64_decode_max(*len), &raw_len, out, *len),
                         SC_OK);
        raw[0] = 1;
        VT_ASSERT_STATUS(sc_base64_encode(out, need + 8, len, raw, raw_len), SC_OK);
        free(raw);
        break;
    case SG_PAYLOAD_BASE64:
        out[*len / 2] = '!';
        break;
    case SG_PAYLOAD_PAD:
        out[*len > 1100 ? 1023 : 3] = '=';
        break;
    default:
        break;
    }
    return out;
}

static char *decrypt_answer(sg_double *d, const sc_signer_req *req, int lie, size_t *len)
{
    size_t cap = sc_nip44_decrypt_max(req->text.len);
    uint8_t *out = vt_alloc(2 * cap + 2);
    sc_status st;
    size_t more;
    char *sig;

    st = sc_nip44_decrypt_from(&d->env->ctx, out, cap, len, d->id, req->peer, req->text.ptr,
                               req->text.len, 0);
    if (st != SC_OK) {
        free(out);
        return NULL; /* an honest signer refuses what does not decrypt for it */
    }
    out[*len] = '\0';
    switch (lie) {
    case SG_PLAIN_LONGER: /* into the next padded size: trailing spaces would still parse */
        more = (size_t)sc_nip44_padded_len(*len) - *len + 1;
        memset(out + *len, ' ', more);
        *len += more;
        break;
    case SG_PLAIN_UTF8:
        out[*len / 2] = 0xff;
        break;
    case SG_PLAIN_BITFLIP:
        sig = strstr((char *)out, "\"sig\":\"");
        assert_non_null(sig);
        sig[7 + 127] = sig[7 + 127] == '0' ? '1' : '0';
        break;
    case SG_PLAIN_GARBAGE:
        memset(out, 'x', *len);
        break;
    default:
        break;
    }
    return (char *)out;
}

char *sg_answer(sg_double *d, const sc_signer_req *req, size_t *len)
{
    int lie = (d->lie_seq == 0 || d->lie_seq == req->seq) ? d->lie : SG_HONEST;

    *len = 0;
    if (d->n < 16) {
        d->kinds[d->n] = req->kind;
        memcpy(d->peers[d->n], req->peer, 32);
    }
    d->n++;
    if (lie == SG_REFUSE) {
        return NULL;
    }
    switch (req->kind) {
    case SC_SIGNER_REQ_SIGN_EVENT:
        assert_non_null(req->event);
        return sign_answer(d, req, lie, len);
    case SC_SIGNER_REQ_NIP44_ENCRYPT:
        return encrypt_answer(d, req, lie, len);
    case SC_SIGNER_REQ_NIP44_DECRYPT:
        return decrypt_answer(d, req, lie, len);
    default:
        fail_msg("a request of kind %d", (int)req->kind);
        return NULL;
    }
}

sc_status sg_drive(sc_signer_op *op, sg_double *d, int64_t now_ms)
{
    sc_ctx *ctx = &d->env->ctx;
    sc_signer_req req, again;
    uint32_t last = 0;
    sc_status st;
    size_t len;
    char *ans;

    for (;;) {
        st = sc_signer_op_step(op, ctx, now_ms, &req);
        if (st != SC_OK || req.kind == SC_SIGNER_REQ_NONE) {
            return st;
        }
        assert_int_equal(req.seq, last + 1);
        last = req.seq;
        assert_true(req.deadline_ms > now_ms);
        /* a step before the answer describes the same request */
        VT_ASSERT_STATUS(sc_signer_op_step(op, ctx, now_ms + 1, &again), SC_OK);
        assert_int_equal(again.seq, req.seq);
        assert_int_equal(again.kind, req.kind);
        assert_true(again.deadline_ms == req.deadline_ms);
        ans = sg_answer(d, &req, &len);
        if (ans == NULL) {
            VT_ASSERT_STATUS(sc_signer_op_refuse(op), SC_OK);
            continue;
        }
        st = sc_signer_op_answer(op, ctx, ans, len);
        free(ans);
        if (st != SC_OK) {
            return st;
        }
    }
}

/* ---- the signer object ------------------------------------------------------------------ */

void test_signer_object(void **state)
{
    gw_env *env = gw_env_of(state);
    uint8_t pub[32], got[32];
    sc_identity id, dead;
    sc_signer s;

    gw_key(env, &id, pub, 0x31);
    memset(&dead, 0, sizeof dead);
    assert_int_equal(sc_signer_bytes(), sizeof(sc_signer));
    assert_int_equal(sc_signer_op_bytes(), sizeof(sc_signer_op));
    VT_ASSERT_STATUS(sc_signer_init_local(&s, &id), SC_OK);
    assert_int_equal(sc_signer_is_external(&s), 0);
    VT_ASSERT_STATUS(sc_signer_pubkey(got, &s), SC_OK);
    assert_memory_equal(got, pub, 32);
    VT_ASSERT_STATUS(sc_signer_init_local(&s, &dead), SC_ERR_STATE);
    assert_true(vt_all_zero((const uint8_t *)&s, sizeof s));
    VT_ASSERT_STATUS(sc_signer_init_local(&s, vt_null()), SC_ERR_ARG);
    VT_ASSERT_STATUS(sc_signer_init_local(vt_null(), &id), SC_ERR_ARG);
    VT_ASSERT_STATUS(sc_signer_pubkey(got, &s), SC_ERR_STATE);
    VT_ASSERT_STATUS(sc_signer_pubkey(vt_null(), &s), SC_ERR_ARG);
    /* an identity cleared behind a local signer */
    VT_ASSERT_STATUS(sc_signer_init_local(&s, &id), SC_OK);
    sc_identity_clear(&id);
    VT_ASSERT_STATUS(sc_signer_pubkey(got, &s), SC_ERR_STATE);
    /* an external one holds the key it was given */
    memset(pub, 0x7e, 32);
    VT_ASSERT_STATUS(sc_signer_init_external(&s, pub, 0), SC_OK);
    assert_int_equal(sc_signer_is_external(&s), 1);
    VT_ASSERT_STATUS(sc_signer_pubkey(got, &s), SC_OK);
    assert_memory_equal(got, pub, 32);
    VT_ASSERT_STATUS(sc_signer_init_external(&s, vt_null(), 0), SC_ERR_ARG);
    assert_int_equal(sc_signer_is_external(&s), 0);
    assert_int_equal(sc_signer_is_external(vt_null()), 0);
    sc_signer_clear(&s);
    assert_true(vt_all_zero((const uint8_t *)&s, sizeof s));
    sc_signer_clear(vt_null());
}

/* ---- the same results ------------------------------------------------------------------ */

static void fixed_rand(sc_nip59_rand *r, uint8_t seed)
{
    memset(r, 0, sizeof *r);
    memset(r->wrap_seckey, seed, 32);
    memset(r->seal_nonce, seed + 1, 32);
    memset(r->wrap_nonce, seed + 2, 32);
    memset(r->seal_aux, seed + 3, 32);
    memset(r->wrap_aux, seed + 4, 32);
    r->seal_backdate = 1000u * seed;
    r->wrap_backdate = 7u * seed;
}

#define NOW 1700000000

void test_wrap_same_bytes(void **state)
{
    gw_env *env = gw_env_of(state);
    uint8_t apub[32], bpub[32], buf[512], *scratch;
    size_t cap, scap, len_a = 0, len_b = 0, len_c = 0;
    sc_identity alice, bob;
    char *a, *b, *c;
    sc_nip59_opts opts;
    sc_nip59_rand rnd;
    sc_signer ext, loc;
    sc_signer_op op;
    sg_double d;
    sc_event rumor;

    gw_key(env, &alice, apub, 0x41);
    gw_key(env, &bob, bpub, 0x42);
    gw_rumor(env, &rumor, buf, sizeof buf, apub, 14, NOW, "the same bytes", 14, NULL);
    memset(&opts, 0, sizeof opts);
    opts.now = NOW;
    fixed_rand(&rnd, 9);
    cap = sc_nip59_wrap_max(&rumor, &opts);
    scap = sc_nip59_wrap_scratch_max(&rumor, &opts);
    a = (char *)vt_alloc(cap);
    b = (char *)vt_alloc(cap);
    c = (char *)vt_alloc(cap);
    scratch = vt_alloc(scap);
    VT_ASSERT_STATUS(sc_nip59_wrap_with_rand(&env->ctx, a, cap, &len_a, scratch, scap, &rumor,
                                             &alice, bpub, &opts, &rnd),
                     SC_OK);
    /* the same operation over a local signer, driven by hand: done at the first step */
    VT_ASSERT_STATUS(sc_signer_init_local(&loc, &alice), SC_OK);
    sg_double_init(&d, env, &alice);
    VT_ASSERT_STATUS(sc_nip59_wrap_start_with_rand(&env->ctx, &op, c, cap, &len_c, scratch, scap,
                                                   &rumor, &loc, bpub, &opts, &rnd),
                     SC_OK);
    VT_ASSERT_STATUS(sg_drive(&op, &d, 1000), SC_OK);
    assert_int_equal(d.n, 0);
    sc_signer_op_clear(&op);
    /* over an external signer holding alice's key, with the seal's nonce and aux */
    sg_external(&ext, &alice);
    sg_double_init(&d, env, &alice);
    d.nonce = rnd.seal_nonce;
    d.aux = rnd.seal_aux;
    memset(scratch, 0xa5, scap);
    VT_ASSERT_STATUS(sc_nip59_wrap_start_with_rand(&env->ctx, &op, b, cap, &len_b, scratch, scap,
                                                   &rumor, &ext, bpub, &opts, &rnd),
                     SC_OK);
    VT_ASSERT_STATUS(sg_drive(&op, &d, 1000), SC_OK);
    assert_int_equal(d.n, 2);
    assert_int_equal(d.kinds[0], SC_SIGNER_REQ_NIP44_ENCRYPT);
    assert_memory_equal(d.peers[0], bpub, 32);
    assert_int_equal(d.kinds[1], SC_SIGNER_REQ_SIGN_EVENT);
    assert_int_equal(len_a, len_b);
    assert_int_equal(len_a, len_c);
    assert_memory_equal(a, b, len_a);
    assert_memory_equal(a, c, len_a);
    assert_true(vt_all_zero(scratch, scap)); /* the rumor and the seal wiped */
    /* done is done: a later step says so again */
    {
        sc_signer_req req;

        VT_ASSERT_STATUS(sc_signer_op_step(&op, &env->ctx, 2000, &req), SC_OK);
        assert_int_equal(req.kind, SC_SIGNER_REQ_NONE);
    }
    sc_signer_op_clear(&op);
    /* the signer's answer as a bare signature works the same */
    sg_double_init(&d, env, &alice);
    d.nonce = rnd.seal_nonce;
    d.aux = rnd.seal_aux;
    d.hex_sig = 1;
    VT_ASSERT_STATUS(sc_nip59_wrap_start_with_rand(&env->ctx, &op, b, cap, &len_b, scratch, scap,
                                                   &rumor, &ext, bpub, &opts, &rnd),
                     SC_OK);
    VT_ASSERT_STATUS(sg_drive(&op, &d, 1000), SC_OK);
    assert_memory_equal(a, b, len_a);
    sc_signer_op_clear(&op);
    free(a);
    free(b);
    free(c);
    free(scratch);
    sc_identity_clear(&alice);
    sc_identity_clear(&bob);
}

/* Unwraps json for `me` over signer s (an external one is answered by d) into a fresh arena
 * of exactly the bound, filled with 0xa5 first; returns the arena (malloc'd). */
static uint8_t *unwrap_with(gw_env *env, sc_signer *s, sg_double *d, const char *json, size_t len,
                            sc_event *rumor, sc_nip59_info *info, size_t *used, sc_status want)
{
    size_t cap = sc_nip59_unwrap_arena_max(len);
    uint8_t *arena = vt_alloc(cap);
    sc_signer_op op;

    memset(arena, 0xa5, cap);
    VT_ASSERT_STATUS(
        sc_nip59_unwrap_start(&env->ctx, &op, rumor, info, arena, cap, used, json, len, s, -1),
        SC_OK);
    VT_ASSERT_STATUS(sg_drive(&op, d, 5000), want);
    sc_signer_op_clear(&op);
    if (want != SC_OK) {
        assert_true(vt_only_zero_or(arena, cap, 0xa5));
        assert_true(vt_all_zero((const uint8_t *)rumor, sizeof *rumor));
        assert_true(vt_all_zero((const uint8_t *)info, sizeof *info));
        assert_int_equal(*used, 0);
    }
    return arena;
}

void test_unwrap_same(void **state)
{
    gw_env *env = gw_env_of(state);
    uint8_t apub[32], bpub[32], buf[512], *a1, *a2;
    sc_nip59_info i1, i2;
    sc_event rumor, r1, r2;
    sc_identity alice, bob;
    size_t len = 0, u1 = 0, u2 = 0, cap;
    sc_signer loc, ext;
    sg_double d;
    char *json;

    gw_key(env, &alice, apub, 0x43);
    gw_key(env, &bob, bpub, 0x44);
    gw_rumor(env, &rumor, buf, sizeof buf, apub, 14, NOW, "open me twice", 13, NULL);
    json = gw_wrap(env, &rumor, &alice, bpub, NULL, &len);
    cap = sc_nip59_unwrap_arena_max(len);
    VT_ASSERT_STATUS(sc_signer_init_local(&loc, &bob), SC_OK);
    sg_double_init(&d, env, &bob);
    a1 = unwrap_with(env, &loc, &d, json, len, &r1, &i1, &u1, SC_OK);
    assert_int_equal(d.n, 0);
    sg_external(&ext, &bob);
    a2 = unwrap_with(env, &ext, &d, json, len, &r2, &i2, &u2, SC_OK);
    assert_int_equal(d.n, 2);
    assert_int_equal(d.kinds[0], SC_SIGNER_REQ_NIP44_DECRYPT);
    assert_memory_equal(d.peers[0], i1.wrap_pubkey, 32);
    assert_int_equal(d.kinds[1], SC_SIGNER_REQ_NIP44_DECRYPT);
    assert_memory_equal(d.peers[1], apub, 32);
    /* the same rumor, facts and arena, byte for byte */
    gw_assert_same(&r1, &r2);
    gw_assert_same(&r1, &rumor);
    assert_memory_equal(&i1, &i2, sizeof i1);
    assert_int_equal(u1, u2);
    assert_memory_equal(a1, a2 + 0, u1);
    assert_memory_equal(a1 + u1, a2 + u2, cap - u1);
    free(a1);
    free(a2);
    free(json);
    sc_identity_clear(&alice);
    sc_identity_clear(&bob);
}

/* A kind 14 rumor from `from` to the keys given (NULL-terminated hex list). */
static void chat_rumor(gw_env *env, sc_event *ev, void *buf, size_t cap, const uint8_t from[32],
                       const char *const *hexes)
{
    const char *tags[16];
    size_t n = 0, i;

    for (i = 0; hexes[i] != NULL; i++) {
        tags[n++] = "p";
        tags[n++] = hexes[i];
        tags[n++] = NULL;
    }
    tags[n] = NULL;
    gw_rumor(env, ev, buf, cap, from, 14, NOW, "to the room", 11, tags);
}

void test_send_same_bytes(void **state)
{
    gw_env *env = gw_env_of(state);
    uint8_t apub[32], bpub[32], cpub[32], buf[1024], *scratch;
    char bhex[65], chex[65], *a, *b;
    const char *hexes[3];
    sc_identity alice, bob, carol;
    sc_nip59_rand rnd[3];
    sc_nip17_wrap wa[3], wb[3];
    size_t cap, scap, la = 0, lb = 0, na = 0, nb = 0;
    sc_nip59_opts opts;
    sc_signer loc, ext;
    sc_signer_op op;
    sg_double d;
    sc_event rumor;

    gw_key(env, &alice, apub, 0x45);
    gw_key(env, &bob, bpub, 0x46);
    gw_key(env, &carol, cpub, 0x47);
    sg_hex(bhex, bpub);
    sg_hex(chex, cpub);
    hexes[0] = bhex;
    hexes[1] = chex;
    hexes[2] = NULL;
    chat_rumor(env, &rumor, buf, sizeof buf, apub, hexes);
    memset(&opts, 0, sizeof opts);
    opts.now = NOW;
    fixed_rand(&rnd[0], 11);
    fixed_rand(&rnd[1], 21);
    fixed_rand(&rnd[2], 31);
    assert_int_equal(sc_nip17_send_wraps_len(&rumor, apub), 3);
    cap = sc_nip17_send_max(&rumor, apub, &opts);
    scap = sc_nip17_send_scratch_max(&rumor, apub, &opts);
    a = (char *)vt_alloc(cap);
    b = (char *)vt_alloc(cap);
    scratch = vt_alloc(scap);
    VT_ASSERT_STATUS(sc_signer_init_local(&loc, &alice), SC_OK);
    VT_ASSERT_STATUS(sc_nip17_send_start_with_rand(&env->ctx, &op, a, cap, &la, wa, 3, &na, scratch,
                                                   scap, &rumor, &loc, &opts, rnd, 3),
                     SC_OK);
    sg_double_init(&d, env, &alice);
    VT_ASSERT_STATUS(sg_drive(&op, &d, 0), SC_OK);
    sc_signer_op_clear(&op);
    sg_external(&ext, &alice);
    d.rnds = rnd;
    VT_ASSERT_STATUS(sc_nip17_send_start_with_rand(&env->ctx, &op, b, cap, &lb, wb, 3, &nb, scratch,
                                                   scap, &rumor, &ext, &opts, rnd, 3),
                     SC_OK);
    VT_ASSERT_STATUS(sg_drive(&op, &d, 0), SC_OK);
    sc_signer_op_clear(&op);
    assert_int_equal(d.n, 6); /* each wrap: the rumor encrypted, the seal signed */
    assert_memory_equal(d.peers[0], bpub, 32);
    assert_memory_equal(d.peers[2], cpub, 32);
    assert_memory_equal(d.peers[4], apub, 32); /* the sender's own copy */
    assert_int_equal(na, 3);
    assert_int_equal(nb, 3);
    assert_int_equal(la, lb);
    assert_memory_equal(a, b, la);
    assert_memory_equal(wa, wb, sizeof wa);
    assert_true(vt_all_zero(scratch, scap));
    /* and each wrap opens for its recipient */
    {
        sc_event got;
        sc_nip59_info info;
        uint8_t *arena = NULL;
        size_t used = 0;

        VT_ASSERT_STATUS(
            gw_unwrap(env, b + wb[1].offset, wb[1].len, &carol, &got, &info, &arena, &used), SC_OK);
        gw_assert_same(&got, &rumor);
        free(arena);
    }
    free(a);
    free(b);
    free(scratch);
    sc_identity_clear(&alice);
    sc_identity_clear(&bob);
    sc_identity_clear(&carol);
}

void test_receive_same(void **state)
{
    gw_env *env = gw_env_of(state);
    uint8_t apub[32], bpub[32], buf[1024], *a1, *a2;
    char bhex[65], *out, *scratch;
    const char *hexes[2];
    sc_nip17_received m1, m2;
    sc_identity alice, bob;
    sc_nip17_wrap w[2];
    size_t cap, scap, len = 0, n = 0, acap, u1 = 0, u2 = 0;
    sc_signer loc, ext;
    sc_signer_op op;
    sg_double d;
    sc_event rumor;

    gw_key(env, &alice, apub, 0x48);
    gw_key(env, &bob, bpub, 0x49);
    sg_hex(bhex, bpub);
    hexes[0] = bhex;
    hexes[1] = NULL;
    chat_rumor(env, &rumor, buf, sizeof buf, apub, hexes);
    cap = sc_nip17_send_max(&rumor, apub, NULL);
    scap = sc_nip17_send_scratch_max(&rumor, apub, NULL);
    out = (char *)vt_alloc(cap);
    scratch = (char *)vt_alloc(scap);
    VT_ASSERT_STATUS(
        sc_nip17_send(&env->ctx, out, cap, &len, w, 2, &n, scratch, scap, &rumor, &alice, NULL),
        SC_OK);
    acap = sc_nip17_receive_arena_max(w[0].len);
    a1 = vt_alloc(acap);
    a2 = vt_alloc(acap);
    memset(a1, 0x5a, acap);
    memset(a2, 0x5a, acap);
    VT_ASSERT_STATUS(sc_signer_init_local(&loc, &bob), SC_OK);
    VT_ASSERT_STATUS(sc_nip17_receive_start(&env->ctx, &op, &m1, a1, acap, &u1, out + w[0].offset,
                                            w[0].len, &loc, NOW),
                     SC_OK);
    sg_double_init(&d, env, &bob);
    VT_ASSERT_STATUS(sg_drive(&op, &d, 0), SC_OK);
    sc_signer_op_clear(&op);
    sg_external(&ext, &bob);
    VT_ASSERT_STATUS(sc_nip17_receive_start(&env->ctx, &op, &m2, a2, acap, &u2, out + w[0].offset,
                                            w[0].len, &ext, NOW),
                     SC_OK);
    VT_ASSERT_STATUS(sg_drive(&op, &d, 0), SC_OK);
    sc_signer_op_clear(&op);
    assert_int_equal(d.n, 2);
    gw_assert_same(&m1.rumor, &m2.rumor);
    assert_memory_equal(&m1.wrap, &m2.wrap, sizeof m1.wrap);
    assert_int_equal(m1.n_room, 2);
    assert_int_equal(m2.n_room, 2);
    assert_memory_equal(m2.room[0], apub, 32);
    assert_memory_equal(m2.room[1], bpub, 32);
    /* the arenas: the rumor's arrays hold pointers into each; after them, the same bytes */
    assert_int_equal(u1, u2);
    assert_memory_equal(a1 + u1, a2 + u2, acap - u1);
    free(a1);
    free(a2);
    free(out);
    free(scratch);
    sc_identity_clear(&alice);
    sc_identity_clear(&bob);
}

void test_event_and_auth(void **state)
{
    gw_env *env = gw_env_of(state);
    static const sc_str items[2] = {{"t", 1}, {"signer", 6}};
    static const sc_tag tag = {items, 2};
    uint8_t pub[32], aux[32];
    sc_identity alice;
    sc_event e1, e2, e3;
    sc_signer loc, ext;
    sc_signer_op op;
    sg_double d;

    gw_key(env, &alice, pub, 0x4a);
    memset(aux, 0x3c, 32);
    memset(&e1, 0, sizeof e1);
    e1.kind = 1;
    e1.created_at = NOW;
    e1.tags = &tag;
    e1.n_tags = 1;
    e1.content = SC_STR("signed over a signer");
    e2 = e1;
    e3 = e1;
    VT_ASSERT_STATUS(sc_event_sign_with_rand(&env->ctx, &e1, &alice, aux), SC_OK);
    VT_ASSERT_STATUS(sc_signer_init_local(&loc, &alice), SC_OK);
    VT_ASSERT_STATUS(sc_event_sign_start_with_rand(&env->ctx, &op, &e2, &loc, aux), SC_OK);
    sg_double_init(&d, env, &alice);
    VT_ASSERT_STATUS(sg_drive(&op, &d, 0), SC_OK);
    sc_signer_op_clear(&op);
    assert_memory_equal(e1.sig, e2.sig, 64);
    assert_memory_equal(e1.id, e2.id, 32);
    sg_external(&ext, &alice);
    d.aux = aux;
    VT_ASSERT_STATUS(sc_event_sign_start(&env->ctx, &op, &e3, &ext), SC_OK);
    VT_ASSERT_STATUS(sg_drive(&op, &d, 0), SC_OK);
    sc_signer_op_clear(&op);
    assert_int_equal(d.n, 1);
    assert_int_equal(d.kinds[0], SC_SIGNER_REQ_SIGN_EVENT);
    assert_memory_equal(e1.sig, e3.sig, 64);
    assert_memory_equal(e3.pubkey, pub, 32);
    assert_int_equal(e3.flags & SC_EVENT_SIGNED & 7u, 7u);
    VT_ASSERT_STATUS(sc_event_verify(&env->ctx, &e3), SC_OK);
    sc_identity_clear(&alice);
}

void test_nip44_ops(void **state)
{
    gw_env *env = gw_env_of(state);
    static const char text[] = "a secret for bob, encrypted over a signer";
    uint8_t apub[32], bpub[32], nonce[32], pt[256], pt2[256];
    char p1[256], p2[256];
    size_t n1 = 0, n2 = 0, n3 = 0;
    sc_identity alice, bob;
    sc_signer ext;
    sc_signer_op op;
    sg_double d;

    gw_key(env, &alice, apub, 0x4b);
    gw_key(env, &bob, bpub, 0x4c);
    memset(nonce, 0x61, 32);
    VT_ASSERT_STATUS(sc_nip44_encrypt_to_with_rand(&env->ctx, p1, sizeof p1, &n1, &alice, bpub,
                                                   nonce, (const uint8_t *)text, sizeof text - 1,
                                                   0),
                     SC_OK);
    sg_external(&ext, &alice);
    sg_double_init(&d, env, &alice);
    d.nonce = nonce;
    VT_ASSERT_STATUS(sc_nip44_encrypt_start(&env->ctx, &op, p2, sizeof p2, &n2, &ext, bpub,
                                            (const uint8_t *)text, sizeof text - 1, 0),
                     SC_OK);
    VT_ASSERT_STATUS(sg_drive(&op, &d, 0), SC_OK);
    sc_signer_op_clear(&op);
    assert_int_equal(n1, n2);
    assert_memory_equal(p1, p2, n1);
    /* bob's external signer decrypts it */
    sg_external(&ext, &bob);
    sg_double_init(&d, env, &bob);
    memset(pt, 0x77, sizeof pt);
    VT_ASSERT_STATUS(
        sc_nip44_decrypt_start(&env->ctx, &op, pt, sizeof pt, &n3, &ext, apub, p2, n2, 0), SC_OK);
    VT_ASSERT_STATUS(sg_drive(&op, &d, 0), SC_OK);
    sc_signer_op_clear(&op);
    assert_int_equal(n3, sizeof text - 1);
    assert_memory_equal(pt, text, n3);
    /* the buffer as a local decryption leaves it: what it wrote zeroed, the rest untouched */
    memset(pt2, 0x77, sizeof pt2);
    VT_ASSERT_STATUS(sc_nip44_decrypt_from(&env->ctx, pt2, sizeof pt2, &n1, &bob, apub, p2, n2, 0),
                     SC_OK);
    assert_memory_equal(pt, pt2, sizeof pt);
    /* an external signer takes text only */
    VT_ASSERT_STATUS(sc_nip44_encrypt_start(&env->ctx, &op, p2, sizeof p2, &n2, &ext, apub,
                                            (const uint8_t *)"\xff", 1, 0),
                     SC_ERR_UTF8);
    sc_identity_clear(&alice);
    sc_identity_clear(&bob);
}

int main(int argc, char **argv)
{
    static gw_env env; /* the state of every test */
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_prestate(test_signer_object, &env),
        cmocka_unit_test_prestate(test_wrap_same_bytes, &env),
        cmocka_unit_test_prestate(test_unwrap_same, &env),
        cmocka_unit_test_prestate(test_send_same_bytes, &env),
        cmocka_unit_test_prestate(test_receive_same, &env),
        cmocka_unit_test_prestate(test_event_and_auth, &env),
        cmocka_unit_test_prestate(test_nip44_ops, &env),
        cmocka_unit_test_prestate(test_lies_on_send, &env),
        cmocka_unit_test_prestate(test_lies_on_receive, &env),
        cmocka_unit_test_prestate(test_lie_unseen_fails_at_receiver, &env),
        cmocka_unit_test_prestate(test_lies_on_event, &env),
        cmocka_unit_test_prestate(test_lies_on_nip44, &env),
        cmocka_unit_test_prestate(test_deadline, &env),
        cmocka_unit_test_prestate(test_refuse_and_clear, &env),
        cmocka_unit_test_prestate(test_frame_misuse, &env),
        cmocka_unit_test_prestate(test_start_checks, &env),
    };

    return gw_main(argc, argv, "signer", tests, sizeof tests / sizeof tests[0], &env);
}
