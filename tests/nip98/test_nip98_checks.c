/* Each of sc_nip98_verify's checks, with an event made to fail exactly it (the others hold),
 * the header forms it accepts and refuses, the time window at its edges and the payload
 * hash. */
#include "test_nip98.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define OK_TAGS "u=" N98_URL "|method=GET"

/* Verifies a header made from (kind, created_at, tags) against the standard request. */
static sc_status check_made(n98_env *env, uint32_t kind, int64_t created_at, const char *tags)
{
    char *h = n98_header(env, kind, created_at, "", tags, 1);
    sc_status st = n98_verify(env, h, N98_URL, "GET", NULL, N98_NOW, 0, NULL);

    free(h);
    return st;
}

void test_header_forms(void **state)
{
    n98_env *env = n98_env_of(state);
    char *padded = n98_header(env, SC_NIP98_KIND, N98_NOW, "", OK_TAGS, 1);
    char *bare = n98_header(env, SC_NIP98_KIND, N98_NOW, "", OK_TAGS, 0);
    const char *tok = padded + 6;
    char h[4096];
    size_t i;

#define FORM(want, fmt, ...)                                                                       \
    do {                                                                                           \
        snprintf(h, sizeof h, fmt, __VA_ARGS__);                                                   \
        VT_ASSERT_STATUS(n98_verify(env, h, N98_URL, "GET", NULL, N98_NOW, 0, NULL), want);        \
    } while (0)
    assert_true(strcmp(padded, bare) != 0); /* the event's JSON needs padding: both forms */
    FORM(SC_OK, "%s", padded);
    FORM(SC_OK, "%s", bare);
    FORM(SC_OK, "nostr %s", tok);
    FORM(SC_OK, "NOSTR   %s", tok);
    FORM(SC_OK, " \tNostr %s \t", tok);
    FORM(SC_ERR_NIP98_SCHEME, "Bearer %s", tok);
    FORM(SC_ERR_NIP98_SCHEME, "Nostr%s", tok);
    FORM(SC_ERR_NIP98_SCHEME, "Nostr\t%s", tok);
    FORM(SC_ERR_NIP98_SCHEME, "%s", tok); /* the token alone */
    FORM(SC_ERR_NIP98_SCHEME, "%s", "Nostr");
    FORM(SC_ERR_NIP98_SCHEME, "%s", "Nostr   ");
    FORM(SC_ERR_NIP98_SCHEME, "%s", "");
    FORM(SC_ERR_BASE64, "Nostr %s=", tok);     /* too much padding */
    FORM(SC_ERR_BASE64, "Nostr %s", "AAAAA");  /* a lone character after whole quads */
    FORM(SC_ERR_BASE64, "Nostr %s AAAA", tok); /* a space inside */
    FORM(SC_ERR_BASE64, "Nostr %sAA", tok);    /* text after the padding */
    /* base64url's alphabet is not base64's */
    snprintf(h, sizeof h, "Nostr %s", tok);
    for (i = 6; h[i] != '\0'; i++) {
        h[i] = h[i] == '+' ? '-' : h[i] == '/' ? '_' : h[i];
    }
    if (strchr(tok, '+') != NULL || strchr(tok, '/') != NULL) {
        VT_ASSERT_STATUS(n98_verify(env, h, N98_URL, "GET", NULL, N98_NOW, 0, NULL), SC_ERR_BASE64);
    }
    FORM(SC_ERR_JSON, "Nostr %s", "eyJraW5kIjo=");        /* {"kind": */
    FORM(SC_ERR_EVENT_FIELD, "Nostr %s", "WzEsMiwzXQ=="); /* [1,2,3] */
#undef FORM
    free(padded);
    free(bare);
}

void test_each_check(void **state)
{
    n98_env *env = n98_env_of(state);
    char *h;

    VT_ASSERT_STATUS(check_made(env, SC_NIP98_KIND, N98_NOW, OK_TAGS), SC_OK);
    /* kind */
    VT_ASSERT_STATUS(check_made(env, 1, N98_NOW, OK_TAGS), SC_ERR_NIP98_KIND);
    VT_ASSERT_STATUS(check_made(env, 22242, N98_NOW, OK_TAGS), SC_ERR_NIP98_KIND);
    /* u: byte for byte, once */
    VT_ASSERT_STATUS(check_made(env, SC_NIP98_KIND, N98_NOW, "method=GET"), SC_ERR_NIP98_URL);
    VT_ASSERT_STATUS(check_made(env, SC_NIP98_KIND, N98_NOW, "url=" N98_URL "|method=GET"),
                     SC_ERR_NIP98_URL);
    VT_ASSERT_STATUS(check_made(env, SC_NIP98_KIND, N98_NOW, "u|method=GET"), SC_ERR_NIP98_URL);
    VT_ASSERT_STATUS(
        check_made(env, SC_NIP98_KIND, N98_NOW, "u=" N98_URL "|u=" N98_URL "|method=GET"),
        SC_ERR_NIP98_URL);
    VT_ASSERT_STATUS(check_made(env, SC_NIP98_KIND, N98_NOW,
                                "u=https://api.example.com/v1/upload?name=a%20b&x=2|method=GET"),
                     SC_ERR_NIP98_URL); /* another query */
    VT_ASSERT_STATUS(check_made(env, SC_NIP98_KIND, N98_NOW,
                                "u=https://API.example.com/v1/upload?name=a%20b&x=1|method=GET"),
                     SC_ERR_NIP98_URL); /* exactly the URL: no normalisation */
    VT_ASSERT_STATUS(
        check_made(env, SC_NIP98_KIND, N98_NOW, "u=https://api.example.com/v1/upload|method=GET"),
        SC_ERR_NIP98_URL); /* the query is part of it */
    /* method: ASCII case-insensitive, once */
    VT_ASSERT_STATUS(check_made(env, SC_NIP98_KIND, N98_NOW, "u=" N98_URL), SC_ERR_NIP98_METHOD);
    VT_ASSERT_STATUS(check_made(env, SC_NIP98_KIND, N98_NOW, "u=" N98_URL "|method=POST"),
                     SC_ERR_NIP98_METHOD);
    VT_ASSERT_STATUS(check_made(env, SC_NIP98_KIND, N98_NOW, "u=" N98_URL "|method=GETX"),
                     SC_ERR_NIP98_METHOD);
    VT_ASSERT_STATUS(check_made(env, SC_NIP98_KIND, N98_NOW, "u=" N98_URL "|method=GET|method=GET"),
                     SC_ERR_NIP98_METHOD);
    VT_ASSERT_STATUS(check_made(env, SC_NIP98_KIND, N98_NOW, "u=" N98_URL "|method=get"), SC_OK);
    /* other tags and content do not matter */
    h = n98_header(env, SC_NIP98_KIND, N98_NOW, "hello", "x=1|" OK_TAGS "|t", 1);
    VT_ASSERT_STATUS(n98_verify(env, h, N98_URL, "GET", NULL, N98_NOW, 0, NULL), SC_OK);
    free(h);
    /* authenticity last: a forged signature, a changed field under the signature */
    {
        uint8_t json[4096];
        size_t jl = 0;
        char *fixed, *p;

        h = n98_header(env, SC_NIP98_KIND, N98_NOW, "", OK_TAGS, 1);
        VT_ASSERT_STATUS(sc_base64_decode(json, sizeof json - 1, &jl, h + 6, strlen(h) - 6), SC_OK);
        json[jl] = '\0';
        p = strstr((char *)json, "\"sig\":\"");
        assert_non_null(p);
        p[7] = p[7] == '0' ? '1' : '0';
        fixed = n98_wrap_json((const char *)json, jl, 1);
        VT_ASSERT_STATUS(n98_verify(env, fixed, N98_URL, "GET", NULL, N98_NOW, 0, NULL),
                         SC_ERR_INVALID_SIG);
        free(fixed);
        p[7] = p[7] == '0' ? '1' : '0';
        p = strstr((char *)json, "\"content\":\"\"");
        assert_non_null(p);
        memmove(p + 12, p + 11, jl - (size_t)(p + 11 - (char *)json) + 1);
        p[11] = 'x'; /* content "x" */
        fixed = n98_wrap_json((const char *)json, jl + 1, 1);
        VT_ASSERT_STATUS(n98_verify(env, fixed, N98_URL, "GET", NULL, N98_NOW, 0, NULL),
                         SC_ERR_ID_MISMATCH);
        free(fixed);
        free(h);
    }
}

void test_time_window(void **state)
{
    n98_env *env = n98_env_of(state);
    char *h = n98_header(env, SC_NIP98_KIND, N98_NOW, "", OK_TAGS, 1);

    /* |created_at - now| <= window: 60 by default, either side */
    VT_ASSERT_STATUS(n98_verify(env, h, N98_URL, "GET", NULL, N98_NOW + 60, 0, NULL), SC_OK);
    VT_ASSERT_STATUS(n98_verify(env, h, N98_URL, "GET", NULL, N98_NOW - 60, 0, NULL), SC_OK);
    VT_ASSERT_STATUS(n98_verify(env, h, N98_URL, "GET", NULL, N98_NOW + 61, 0, NULL),
                     SC_ERR_NIP98_TIME);
    VT_ASSERT_STATUS(n98_verify(env, h, N98_URL, "GET", NULL, N98_NOW - 61, 0, NULL),
                     SC_ERR_NIP98_TIME);
    VT_ASSERT_STATUS(n98_verify(env, h, N98_URL, "GET", NULL, N98_NOW + 5, 5, NULL), SC_OK);
    VT_ASSERT_STATUS(n98_verify(env, h, N98_URL, "GET", NULL, N98_NOW + 6, 5, NULL),
                     SC_ERR_NIP98_TIME);
    /* a clock far off either way: no overflow */
    VT_ASSERT_STATUS(n98_verify(env, h, N98_URL, "GET", NULL, INT64_MIN, 0, NULL),
                     SC_ERR_NIP98_TIME);
    VT_ASSERT_STATUS(n98_verify(env, h, N98_URL, "GET", NULL, INT64_MAX, INT64_MAX, NULL), SC_OK);
    VT_ASSERT_STATUS(n98_verify(env, h, N98_URL, "GET", NULL, INT64_MAX, 0, NULL),
                     SC_ERR_NIP98_TIME);
    free(h);
    /* the time is checked before the URL: a stale event with a wrong URL says TIME */
    h = n98_header(env, SC_NIP98_KIND, 1000, "", "u=https://other|method=PUT", 1);
    VT_ASSERT_STATUS(n98_verify(env, h, N98_URL, "GET", NULL, N98_NOW, 0, NULL), SC_ERR_NIP98_TIME);
    free(h);
}

void test_payload(void **state)
{
    n98_env *env = n98_env_of(state);
    static const char body[] = "{\"name\":\"file.png\",\"size\":1024}";
    uint8_t hash[32], other[32];
    char hex[65], upper[65], tags[512], *h;
    size_t hl = 0, i;

    VT_ASSERT_STATUS(sc_crypto_sha256(&env->ctx, hash, (const uint8_t *)body, sizeof body - 1),
                     SC_OK);
    memcpy(other, hash, 32);
    other[31] ^= 1;
    VT_ASSERT_STATUS(sc_hex_encode(hex, sizeof hex, &hl, hash, 32), SC_OK);
    hex[64] = '\0';
    for (i = 0; i < 65; i++) {
        upper[i] = (hex[i] >= 'a' && hex[i] <= 'f') ? (char)(hex[i] - 'a' + 'A') : hex[i];
    }
    snprintf(tags, sizeof tags, "%s|payload=%s", OK_TAGS, hex);
    h = n98_header(env, SC_NIP98_KIND, N98_NOW, "", tags, 1);
    VT_ASSERT_STATUS(n98_verify(env, h, N98_URL, "GET", hash, N98_NOW, 0, NULL), SC_OK);
    VT_ASSERT_STATUS(n98_verify(env, h, N98_URL, "GET", other, N98_NOW, 0, NULL),
                     SC_ERR_NIP98_PAYLOAD);
    VT_ASSERT_STATUS(n98_verify(env, h, N98_URL, "GET", NULL, N98_NOW, 0, NULL), SC_OK);
    free(h);
    snprintf(tags, sizeof tags, "%s|payload=%s", OK_TAGS, upper);
    h = n98_header(env, SC_NIP98_KIND, N98_NOW, "", tags, 1);
    VT_ASSERT_STATUS(n98_verify(env, h, N98_URL, "GET", hash, N98_NOW, 0, NULL), SC_OK);
    free(h);
    /* missing, repeated, not 64 hex digits */
    h = n98_header(env, SC_NIP98_KIND, N98_NOW, "", OK_TAGS, 1);
    VT_ASSERT_STATUS(n98_verify(env, h, N98_URL, "GET", hash, N98_NOW, 0, NULL),
                     SC_ERR_NIP98_PAYLOAD);
    free(h);
    snprintf(tags, sizeof tags, "%s|payload=%s|payload=%s", OK_TAGS, hex, hex);
    h = n98_header(env, SC_NIP98_KIND, N98_NOW, "", tags, 1);
    VT_ASSERT_STATUS(n98_verify(env, h, N98_URL, "GET", hash, N98_NOW, 0, NULL),
                     SC_ERR_NIP98_PAYLOAD);
    free(h);
    snprintf(tags, sizeof tags, "%s|payload=%.63s", OK_TAGS, hex);
    h = n98_header(env, SC_NIP98_KIND, N98_NOW, "", tags, 1);
    VT_ASSERT_STATUS(n98_verify(env, h, N98_URL, "GET", hash, N98_NOW, 0, NULL),
                     SC_ERR_NIP98_PAYLOAD);
    free(h);
}
