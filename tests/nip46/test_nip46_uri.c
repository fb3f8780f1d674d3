/* bunker:// and nostrconnect:// URIs: what is accepted (and how it reads), what is refused
 * with which status, and building them back. */
#include "test_nip46.h"

#include <stdlib.h>
#include <string.h>

#define KEY_HEX "79be667ef9dcbbac55a06295ce870b07029bfcdb2dce28d959f2815b16f81798"
#define KEY_UP "79BE667EF9DCBBAC55A06295CE870B07029BFCDB2DCE28D959F2815B16F81798"

static sc_status parse(const char *uri, sc_nip46_uri *u, char **buf)
{
    size_t len = strlen(uri), used = 0;
    sc_status st;

    *buf = (char *)vt_alloc(len + 1);
    st = sc_nip46_uri_parse(u, *buf, len, &used, uri, len);
    assert_true(used <= len);
    if (st != SC_OK) {
        assert_int_equal(used, 0);
        assert_true(vt_all_zero((const uint8_t *)u, sizeof *u));
        assert_true(vt_all_zero((const uint8_t *)*buf, len));
    }
    return st;
}

static void assert_str(sc_str s, const char *want)
{
    assert_int_equal(s.len, strlen(want));
    assert_memory_equal(s.ptr, want, s.len);
}

void test_uri_accepted(void **state)
{
    sc_nip46_uri u;
    char *buf;
    uint8_t key[32];

    (void)state;
    gw_hex32(KEY_HEX, key);
    /* two relays, percent-encoded and normalised; the same relay twice kept once */
    VT_ASSERT_STATUS(parse("bunker://" KEY_HEX "?relay=wss%3A%2F%2FRelay.Example%3A443%2F"
                           "&relay=wss://relay.example&relay=wss://b.example/x&secret=s%2Bt+u",
                           &u, &buf),
                     SC_OK);
    assert_int_equal(u.kind, SC_NIP46_URI_BUNKER);
    assert_memory_equal(u.pubkey, key, 32);
    assert_int_equal(u.n_relays, 2);
    assert_str(u.relays[0], "wss://relay.example");
    assert_str(u.relays[1], "wss://b.example/x");
    assert_str(u.secret, "s+t u");
    free(buf);
    /* no secret; scheme and key in uppercase; an unknown parameter and empty pairs skipped;
     * perms on a bunker URI is not one of its parameters (skipped) */
    VT_ASSERT_STATUS(
        parse("BUNKER://" KEY_UP "?&relay=ws://127.0.0.1:7777&&x=1&perms=a&perms=b", &u, &buf),
        SC_OK);
    assert_memory_equal(u.pubkey, key, 32);
    assert_int_equal(u.n_relays, 1);
    assert_str(u.relays[0], "ws://127.0.0.1:7777");
    assert_int_equal(u.secret.len, 0);
    assert_int_equal(u.perms.len, 0);
    free(buf);
    /* nostrconnect with every parameter; UTF-8 decoded */
    VT_ASSERT_STATUS(parse("nostrconnect://" KEY_HEX "?relay=wss%3A%2F%2Fr.example&secret=0s3cr3t"
                           "&perms=sign_event%3A14%2Cnip44_encrypt&name=My+App%20%C3%A9"
                           "&url=https%3A%2F%2Fapp.example&image=https%3A%2F%2Fapp.example%2Fi.png",
                           &u, &buf),
                     SC_OK);
    assert_int_equal(u.kind, SC_NIP46_URI_NOSTRCONNECT);
    assert_str(u.secret, "0s3cr3t");
    assert_str(u.perms, "sign_event:14,nip44_encrypt");
    assert_str(u.name, "My App \xc3\xa9");
    assert_str(u.url, "https://app.example");
    assert_str(u.image, "https://app.example/i.png");
    free(buf);
}

void test_uri_refused(void **state)
{
    static const struct {
        const char *uri;
        sc_status want;
    } cases[] = {
        {"http://" KEY_HEX "?relay=wss://r.example", SC_ERR_NIP46_URI},
        {"bunker:" KEY_HEX "?relay=wss://r.example", SC_ERR_NIP46_URI},
        {"bunker://"
         "79be667ef9dcbbac55a06295ce870b07029bfcdb2dce28d959f2815b16f8179"
         "?relay=wss://r.example",
         SC_ERR_NIP46_URI},
        {"bunker://"
         "g9be667ef9dcbbac55a06295ce870b07029bfcdb2dce28d959f2815b16f81798"
         "?relay=wss://r.example",
         SC_ERR_NIP46_URI},
        {"bunker://" KEY_HEX "0?relay=wss://r.example", SC_ERR_NIP46_URI},
        {"bunker://" KEY_HEX, SC_ERR_NIP46_URI},
        {"bunker://" KEY_HEX "?secret=x", SC_ERR_NIP46_URI},
        {"bunker://" KEY_HEX "?relay=https://r.example", SC_ERR_NIP46_URI},
        {"bunker://" KEY_HEX "?relay=wss://r.example%2", SC_ERR_NIP46_URI},
        {"bunker://" KEY_HEX "?relay=wss://r.example&secret=%zz", SC_ERR_NIP46_URI},
        {"bunker://" KEY_HEX "?relay=wss://r.example&secret=a b", SC_ERR_NIP46_URI},
        {"bunker://" KEY_HEX "?relay=wss://r.example&secret=\xc3\xa9", SC_ERR_NIP46_URI},
        {"bunker://" KEY_HEX "?relay=wss://r.example#frag", SC_ERR_NIP46_URI},
        {"bunker://" KEY_HEX "?relay=wss://r.example&secret=a&secret=a", SC_ERR_NIP46_URI},
        {"bunker://" KEY_HEX "?relay=wss://r.example&secret=%FF", SC_ERR_UTF8},
        {"nostrconnect://" KEY_HEX "?relay=wss://r.example", SC_ERR_NIP46_SECRET},
        {"nostrconnect://" KEY_HEX "?relay=wss://r.example&secret=", SC_ERR_NIP46_SECRET},
        {"nostrconnect://" KEY_HEX "?relay=wss://r.example&secret=x&name=a&name=b",
         SC_ERR_NIP46_URI},
        {"bunker://" KEY_HEX "?relay=wss://a1.example&relay=wss://a2.example"
         "&relay=wss://a3.example&relay=wss://a4.example&relay=wss://a5.example"
         "&relay=wss://a6.example&relay=wss://a7.example&relay=wss://a8.example"
         "&relay=wss://a9.example",
         SC_ERR_TOO_LARGE},
    };
    sc_nip46_uri u;
    char *buf, *big;
    size_t i, used = 7, len;

    (void)state;
    for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        sc_status st = parse(cases[i].uri, &u, &buf);

        if (st != cases[i].want) {
            fail_msg("case %zu (%s): %s, want %s", i, cases[i].uri, sc_status_name(st),
                     sc_status_name(cases[i].want));
        }
        free(buf);
    }
    /* a relay longer than SC_NIP46_URI_MAX_RELAY_LEN, and a URI over the limit */
    len = SC_NIP46_URI_MAX_LEN + 1;
    big = (char *)vt_alloc(len + 1);
    memset(big, 'a', len);
    memcpy(big, "bunker://" KEY_HEX "?relay=wss://", 9 + 64 + 13);
    big[2000] = '\0';
    VT_ASSERT_STATUS(parse(big, &u, &buf), SC_ERR_TOO_LARGE);
    free(buf);
    big[2000] = 'a';
    buf = (char *)vt_alloc(len);
    VT_ASSERT_STATUS(sc_nip46_uri_parse(&u, buf, len, &used, big, len), SC_ERR_TOO_LARGE);
    /* the buffer: uri_len suffices, less is refused with that need */
    len = strlen("bunker://" KEY_HEX "?relay=wss://r.example");
    VT_ASSERT_STATUS(
        sc_nip46_uri_parse(&u, NULL, 0, &used, "bunker://" KEY_HEX "?relay=wss://r.example", len),
        SC_ERR_BUFFER_TOO_SMALL);
    assert_int_equal(used, len);
    VT_ASSERT_STATUS(sc_nip46_uri_parse(&u, NULL, 1, &used, "x", 1), SC_ERR_ARG);
    free(buf);
    free(big);
}

void test_uri_build(void **state)
{
    static const char want[] = "bunker://" KEY_HEX "?relay=wss%3A%2F%2Fr.example&secret=a%20b%2B";
    static const char conn[] = "nostrconnect://" KEY_HEX "?relay=wss%3A%2F%2Fa.example"
                               "&relay=wss%3A%2F%2Fb.example&secret=s&perms=sign_event%3A14"
                               "&name=My%20App%20%C3%A9&url=https%3A%2F%2Fapp.example";
    sc_nip46_uri u, back;
    char out[512], *buf;
    size_t len = 0;

    (void)state;
    memset(&u, 0, sizeof u);
    u.kind = SC_NIP46_URI_BUNKER;
    gw_hex32(KEY_HEX, u.pubkey);
    u.relays[0] = SC_STR("wss://r.example");
    u.n_relays = 1;
    u.secret = SC_STR("a b+");
    u.perms = SC_STR("ignored on a bunker URI");
    VT_ASSERT_STATUS(sc_nip46_uri_build(NULL, 0, &len, &u), SC_ERR_BUFFER_TOO_SMALL);
    assert_int_equal(len, sizeof want - 1);
    VT_ASSERT_STATUS(sc_nip46_uri_build(out, sizeof want - 2, &len, &u), SC_ERR_BUFFER_TOO_SMALL);
    VT_ASSERT_STATUS(sc_nip46_uri_build(out, sizeof out, &len, &u), SC_OK);
    assert_int_equal(len, sizeof want - 1);
    assert_memory_equal(out, want, len);
    out[len] = '\0';
    VT_ASSERT_STATUS(parse(out, &back, &buf), SC_OK);
    assert_str(back.secret, "a b+");
    free(buf);
    /* nostrconnect: built, parsed back to the same fields */
    u.kind = SC_NIP46_URI_NOSTRCONNECT;
    u.relays[0] = SC_STR("wss://a.example");
    u.relays[1] = SC_STR("wss://b.example");
    u.n_relays = 2;
    u.secret = SC_STR("s");
    u.perms = SC_STR("sign_event:14");
    u.name = SC_STR("My App \xc3\xa9");
    u.url = SC_STR("https://app.example");
    VT_ASSERT_STATUS(sc_nip46_uri_build(out, sizeof out, &len, &u), SC_OK);
    assert_int_equal(len, sizeof conn - 1);
    assert_memory_equal(out, conn, len);
    out[len] = '\0';
    VT_ASSERT_STATUS(parse(out, &back, &buf), SC_OK);
    assert_int_equal(back.n_relays, 2);
    assert_str(back.relays[1], "wss://b.example");
    assert_str(back.name, "My App \xc3\xa9");
    assert_str(back.perms, "sign_event:14");
    free(buf);
    /* refusals */
    u.secret = (sc_str){"", 0};
    VT_ASSERT_STATUS(sc_nip46_uri_build(out, sizeof out, &len, &u), SC_ERR_NIP46_SECRET);
    u.secret = SC_STR("s");
    u.name = SC_STR("\xff");
    VT_ASSERT_STATUS(sc_nip46_uri_build(out, sizeof out, &len, &u), SC_ERR_UTF8);
    u.name = (sc_str){"", 0};
    u.n_relays = 0;
    VT_ASSERT_STATUS(sc_nip46_uri_build(out, sizeof out, &len, &u), SC_ERR_NIP46_URI);
    u.n_relays = SC_NIP46_URI_MAX_RELAYS + 1;
    VT_ASSERT_STATUS(sc_nip46_uri_build(out, sizeof out, &len, &u), SC_ERR_NIP46_URI);
    u.n_relays = 1;
    u.kind = (sc_nip46_uri_kind)3;
    VT_ASSERT_STATUS(sc_nip46_uri_build(out, sizeof out, &len, &u), SC_ERR_NIP46_URI);
}
