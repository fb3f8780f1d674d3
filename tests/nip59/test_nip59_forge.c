/* Forged gift wraps, built layer by layer from the library's primitives (NIP-44, the event
 * builder, signing) so that each one is well-formed up to the check it targets: each must be
 * refused with exactly its status, with rumor, info and every arena byte the call wrote
 * zeroed (gw_unwrap checks that). A second table combines faults to pin the order of the
 * checks: the first failing check in the documented order wins. */
#include "test_nip59.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SECRET "forged-layer secret \xf0\x9f\x94\x92 \"quoted\" \\ \n"

enum rumor_mode {
    R_VALID,        /* alice's rumor, as it should be */
    R_SIGNED,       /* alice's rumor with its signature */
    R_NO_ID,        /* without "id" */
    R_BAD_ID,       /* an id that is not its id */
    R_NOT_EVENT,    /* JSON, but not an event */
    R_NOT_JSON,     /* not JSON */
    R_NO_PUBKEY,    /* without "pubkey" */
    R_CAROL,        /* carol's rumor (sealed by alice unless said otherwise) */
    R_CAROL_SIGNED, /* carol's rumor, signed */
    R_CAROL_BAD_ID, /* carol's rumor with a wrong id */
    R_BAD_JSON_SIG, /* "sig" present but not a signature */
};

typedef struct forge {
    const char *name;
    sc_status want;
    int rumor;          /* enum rumor_mode */
    uint8_t seal_by;    /* key seed of the seal signer: 1 alice (0 means alice), 3 carol */
    uint32_t seal_kind; /* 0 means 13 */
    unsigned seal_tamper;
    int seal_to_carol;  /* seal content encrypted to carol instead of bob */
    int seal_not_json;  /* the wrap carries "hello" instead of a seal */
    int seal_expiring;  /* the seal carries an expiration tag */
    uint32_t wrap_kind; /* 0 means 1059 */
    unsigned wrap_tamper;
    int wrap_to_carol; /* the wrap is encrypted to carol */
    int wrap_cut;      /* the wrap JSON loses its last byte */
    size_t pad;        /* extra content bytes in the rumor (large wraps) */
} forge;

static const forge k_single[] = {
    {"valid layers (the forging itself)", SC_OK, R_VALID, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0},
    {"seal with an expiration tag", SC_OK, R_VALID, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0},
    {"ephemeral wrap kind 21059", SC_OK, R_VALID, 0, 0, 0, 0, 0, 0, 21059, 0, 0, 0, 0},
    {"extended-prefix layers (100 KB rumor)", SC_OK, R_VALID, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 100000},
    {"wrap JSON cut short", SC_ERR_JSON, R_VALID, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0},
    {"wrap without sig", SC_ERR_EVENT_FIELD, R_VALID, 0, 0, 0, 0, 0, 0, 0, GW_NO_SIG, 0, 0, 0},
    {"wrap of kind 1", SC_ERR_WRAP_KIND, R_VALID, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0},
    {"wrap of kind 13", SC_ERR_WRAP_KIND, R_VALID, 0, 0, 0, 0, 0, 0, 13, 0, 0, 0, 0},
    {"wrap id tampered", SC_ERR_WRAP_ID, R_VALID, 0, 0, 0, 0, 0, 0, 0, GW_BAD_ID, 0, 0, 0},
    {"wrap signature tampered", SC_ERR_WRAP_SIG, R_VALID, 0, 0, 0, 0, 0, 0, 0, GW_BAD_SIG, 0, 0, 0},
    {"wrap for another recipient", SC_ERR_WRAP_DECRYPT, R_VALID, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0},
    {"wrap content tampered, then signed", SC_ERR_WRAP_DECRYPT, R_VALID, 0, 0, 0, 0, 0, 0, 0,
     GW_BAD_PAYLOAD, 0, 0, 0},
    {"seal that is not JSON", SC_ERR_SEAL_JSON, R_VALID, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0},
    {"seal without sig", SC_ERR_SEAL_JSON, R_VALID, 0, 0, GW_NO_SIG, 0, 0, 0, 0, 0, 0, 0, 0},
    {"seal of kind 14", SC_ERR_SEAL_KIND, R_VALID, 0, 14, 0, 0, 0, 0, 0, 0, 0, 0, 0},
    {"seal of kind 1059", SC_ERR_SEAL_KIND, R_VALID, 0, 1059, 0, 0, 0, 0, 0, 0, 0, 0, 0},
    {"seal id tampered", SC_ERR_SEAL_ID, R_VALID, 0, 0, GW_BAD_ID, 0, 0, 0, 0, 0, 0, 0, 0},
    {"seal signature tampered", SC_ERR_SEAL_SIG, R_VALID, 0, 0, GW_BAD_SIG, 0, 0, 0, 0, 0, 0, 0, 0},
    {"seal content tampered, then signed", SC_ERR_SEAL_DECRYPT, R_VALID, 0, 0, GW_BAD_PAYLOAD, 0, 0,
     0, 0, 0, 0, 0, 0},
    {"seal content encrypted to another key", SC_ERR_SEAL_DECRYPT, R_VALID, 0, 0, 0, 1, 0, 0, 0, 0,
     0, 0, 0},
    {"rumor that is not an event", SC_ERR_RUMOR_JSON, R_NOT_EVENT, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0},
    {"rumor that is not JSON", SC_ERR_RUMOR_JSON, R_NOT_JSON, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0},
    {"rumor without pubkey", SC_ERR_RUMOR_JSON, R_NO_PUBKEY, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0},
    {"rumor whose sig is not a signature", SC_ERR_RUMOR_JSON, R_BAD_JSON_SIG, 0, 0, 0, 0, 0, 0, 0,
     0, 0, 0, 0},
    {"signed rumor", SC_ERR_RUMOR_SIGNED, R_SIGNED, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0},
    {"seal signed by someone other than the rumor author", SC_ERR_RUMOR_AUTHOR, R_VALID, 3, 0, 0, 0,
     0, 0, 0, 0, 0, 0, 0},
    {"rumor of another author in alice's seal", SC_ERR_RUMOR_AUTHOR, R_CAROL, 0, 0, 0, 0, 0, 0, 0,
     0, 0, 0, 0},
    {"rumor id tampered", SC_ERR_RUMOR_ID, R_BAD_ID, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0},
    {"rumor without id", SC_ERR_RUMOR_ID, R_NO_ID, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0},
};

/* Several faults at once: the first in the documented order decides. */
static const forge k_order[] = {
    {"wrap kind, id and recipient wrong", SC_ERR_WRAP_KIND, R_VALID, 0, 0, 0, 0, 0, 0, 1, GW_BAD_ID,
     1, 0, 0},
    {"wrap id and signature wrong", SC_ERR_WRAP_ID, R_VALID, 0, 0, 0, 0, 0, 0, 0,
     GW_BAD_ID | GW_BAD_SIG, 0, 0, 0},
    {"wrap signature and recipient wrong", SC_ERR_WRAP_SIG, R_VALID, 0, 0, 0, 0, 0, 0, 0,
     GW_BAD_SIG, 1, 0, 0},
    {"wrong recipient hides a bad seal", SC_ERR_WRAP_DECRYPT, R_VALID, 0, 14, GW_BAD_SIG, 0, 0, 0,
     0, 0, 1, 0, 0},
    {"seal kind, id and signature wrong", SC_ERR_SEAL_KIND, R_VALID, 0, 14, GW_BAD_ID | GW_BAD_SIG,
     0, 0, 0, 0, 0, 0, 0, 0},
    {"seal id and signature wrong", SC_ERR_SEAL_ID, R_VALID, 0, 0, GW_BAD_ID | GW_BAD_SIG, 0, 0, 0,
     0, 0, 0, 0, 0},
    {"seal signature and content wrong", SC_ERR_SEAL_SIG, R_VALID, 0, 0,
     GW_BAD_SIG | GW_BAD_PAYLOAD, 0, 0, 0, 0, 0, 0, 0, 0},
    {"seal content wrong hides a bad rumor", SC_ERR_SEAL_DECRYPT, R_CAROL_SIGNED, 0, 0,
     GW_BAD_PAYLOAD, 0, 0, 0, 0, 0, 0, 0, 0},
    {"rumor signed, of another author, with a wrong id", SC_ERR_RUMOR_SIGNED, R_CAROL_SIGNED, 0, 0,
     0, 0, 0, 0, 0, 0, 0, 0, 0},
    {"rumor of another author with a wrong id", SC_ERR_RUMOR_AUTHOR, R_CAROL_BAD_ID, 0, 0, 0, 0, 0,
     0, 0, 0, 0, 0, 0},
};

typedef struct cast {
    sc_identity alice, bob, carol, one;
    uint8_t alice_pub[32], bob_pub[32], carol_pub[32], one_pub[32];
} cast;

static void cast_init(gw_env *env, cast *c)
{
    gw_key(env, &c->alice, c->alice_pub, 1);
    gw_key(env, &c->bob, c->bob_pub, 2);
    gw_key(env, &c->carol, c->carol_pub, 3);
    gw_key(env, &c->one, c->one_pub, 4);
}

static void cast_clear(cast *c)
{
    sc_identity_clear(&c->alice);
    sc_identity_clear(&c->bob);
    sc_identity_clear(&c->carol);
    sc_identity_clear(&c->one);
}

/* The rumor JSON of mode, malloc'd. */
static char *rumor_text(gw_env *env, cast *c, int mode, size_t pad, size_t *len)
{
    static const char *const tags[] = {"p",
                                       "0000000000000000000000000000000000000000000000000000"
                                       "000000000000",
                                       NULL, NULL};
    int carol = mode == R_CAROL || mode == R_CAROL_SIGNED || mode == R_CAROL_BAD_ID;
    size_t clen = strlen(SECRET) + pad, n = 0;
    char *content = (char *)vt_alloc(clen), *out;
    uint8_t buf[1024 + 100000];
    sc_event ev;

    memcpy(content, SECRET, strlen(SECRET));
    memset(content + strlen(SECRET), 'x', pad);
    if (mode == R_NOT_EVENT || mode == R_NOT_JSON) {
        const char *t = mode == R_NOT_EVENT ? "[1,2,3]" : "this is not JSON";

        free(content);
        *len = strlen(t);
        out = (char *)vt_alloc(*len);
        memcpy(out, t, *len);
        return out;
    }
    assert_true(pad <= 100000);
    gw_rumor(env, &ev, buf, sizeof buf, carol ? c->carol_pub : c->alice_pub, 14, 1700000000,
             content, clen, tags);
    free(content);
    if (mode == R_SIGNED || mode == R_CAROL_SIGNED) {
        VT_ASSERT_STATUS(sc_event_sign(&env->ctx, &ev, carol ? &c->carol : &c->alice), SC_OK);
    }
    if (mode == R_CAROL_SIGNED || mode == R_BAD_ID || mode == R_CAROL_BAD_ID) {
        ev.id[0] ^= 0x80;
    }
    if (mode == R_NO_ID) {
        ev.flags &= ~(unsigned)SC_EVENT_HAS_ID;
    }
    *len = sc_event_to_json_len(&ev, SC_EVENT_JSON_OBJECT);
    out = (char *)vt_alloc(*len + 16);
    VT_ASSERT_STATUS(sc_event_to_json(out, *len, &n, &ev, SC_EVENT_JSON_OBJECT), SC_OK);
    if (mode == R_NO_PUBKEY) {
        /* {"id":"<64>","pubkey":"<64>",... -> {"id":"<64>",... */
        const char *p = strstr(out, "\"pubkey\":");

        assert_non_null(p);
        memmove(out + (p - out), p + 9 + 66 + 1, *len - (size_t)(p - out) - 76);
        *len -= 76;
    }
    if (mode == R_BAD_JSON_SIG) {
        /* a last field "sig":"x" in place of the closing brace */
        memcpy(out + *len - 1, ",\"sig\":\"x\"}", 11);
        *len += 10;
    }
    return out;
}

/* The gift wrap JSON of case f, malloc'd. */
static char *forge_wrap(gw_env *env, cast *c, const forge *f, size_t *len)
{
    static const char *const exp_items[] = {"expiration", "1800000000"};
    sc_str p_items[2], e_items[2];
    sc_tag p_tag, e_tag;
    char p_hex[64];
    size_t rlen = 0, slen = 0, i;
    char *rumor = rumor_text(env, c, f->rumor, f->pad, &rlen), *seal, *wrap;
    const sc_identity *signer = f->seal_by == 3 ? &c->carol : &c->alice;

    for (i = 0; i < 2; i++) {
        e_items[i].ptr = exp_items[i];
        e_items[i].len = strlen(exp_items[i]);
    }
    e_tag.items = e_items;
    e_tag.n_items = 2;
    if (f->seal_not_json) {
        seal = (char *)vt_alloc(5);
        memcpy(seal, "hello", 5);
        slen = 5;
    } else {
        seal = gw_layer(env, rumor, rlen, signer, f->seal_to_carol ? c->carol_pub : c->bob_pub,
                        f->seal_kind != 0 ? f->seal_kind : 13, 1699990000,
                        f->seal_expiring ? &e_tag : NULL, f->seal_expiring ? 1 : 0, f->seal_tamper,
                        &slen);
    }
    for (i = 0; i < 32; i++) {
        static const char hex[] = "0123456789abcdef";

        p_hex[2 * i] = hex[c->bob_pub[i] >> 4];
        p_hex[2 * i + 1] = hex[c->bob_pub[i] & 15];
    }
    p_items[0].ptr = "p";
    p_items[0].len = 1;
    p_items[1].ptr = p_hex;
    p_items[1].len = 64;
    p_tag.items = p_items;
    p_tag.n_items = 2;
    wrap = gw_layer(env, seal, slen, &c->one, f->wrap_to_carol ? c->carol_pub : c->bob_pub,
                    f->wrap_kind != 0 ? f->wrap_kind : 1059, 1699980000, &p_tag, 1, f->wrap_tamper,
                    len);
    if (f->wrap_cut) {
        (*len)--;
    }
    free(rumor);
    free(seal);
    return wrap;
}

static void run_table(gw_env *env, const forge *table, size_t n, const char *label)
{
    uint8_t *arena = NULL;
    sc_nip59_info info;
    sc_event rumor;
    size_t i, len, used;
    sc_status st;
    vt_report r;
    cast c;

    cast_init(env, &c);
    vt_report_init(&r, env->backend, label);
    for (i = 0; i < n; i++) {
        char *wrap = forge_wrap(env, &c, &table[i], &len);

        st = gw_unwrap(env, wrap, len, &c.bob, &rumor, &info, &arena, &used);
        if (st != table[i].want) {
            vt_case_fail(&r, "%s: %s, expected %s", table[i].name, sc_status_name(st),
                         sc_status_name(table[i].want));
        } else if (st == SC_OK &&
                   (rumor.content.len != strlen(SECRET) + table[i].pad ||
                    memcmp(rumor.content.ptr, SECRET, strlen(SECRET)) != 0 ||
                    memcmp(info.sender, c.alice_pub, 32) != 0 ||
                    memcmp(info.wrap_pubkey, c.one_pub, 32) != 0 ||
                    info.wrap_kind != (table[i].wrap_kind != 0 ? table[i].wrap_kind : 1059) ||
                    info.seal_created_at != 1699990000 || info.wrap_created_at != 1699980000)) {
            vt_case_fail(&r, "%s: opened, but the rumor or info is wrong", table[i].name);
        } else {
            vt_case_pass(&r);
        }
        free(arena);
        free(wrap);
    }
    cast_clear(&c);
    vt_report_finish(&r, n);
}

void test_forged_layers(void **state)
{
    run_table(gw_env_of(state), k_single, sizeof k_single / sizeof k_single[0],
              "own: forged layers, one fault each");
}

void test_check_order(void **state)
{
    run_table(gw_env_of(state), k_order, sizeof k_order / sizeof k_order[0],
              "own: forged layers, the first failing check wins");
}
