/* docs/api.md "HTTP auth (NIP-98)": a client signs the Authorization header of an upload, and
 * the server checks it for the request it received. Run: nip98 [BACKEND]. Exit 0 when every
 * step works. */
#include <softchat/softchat.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CHECK(call)                                                                                \
    do {                                                                                           \
        sc_status st_ = (call);                                                                    \
        if (st_ != SC_OK) {                                                                        \
            fprintf(stderr, "%s: %s\n", #call, sc_status_name(st_));                               \
            return 1;                                                                              \
        }                                                                                          \
    } while (0)

int main(int argc, char **argv)
{
    static const char body[] = "{\"name\":\"cat.png\"}";
    const int64_t now = 1700000000; /* the caller's clock: the library has none */
    uint8_t body_hash[SC_SHA256_BYTES], who[SC_PUBKEY_BYTES];
    char header[1024];
    void *scratch;
    size_t header_len, used;
    sc_nip98_request req;
    sc_identity client;
    sc_event ev;
    sc_ctx ctx;
    sc_status st;

    CHECK(sc_ctx_init(&ctx, argc > 1 ? argv[1] : NULL));
    CHECK(sc_identity_generate(&ctx, &client));

    /* api.md: begin nip98 */
    /* the client: the request it is about to send, and its header */
    CHECK(sc_crypto_sha256(&ctx, body_hash, (const uint8_t *)body, strlen(body)));
    req.url = SC_STR("https://media.example/upload?public=1");
    req.method = SC_STR("PUT");
    req.payload_sha256 = body_hash; /* NULL for a request without a body */
    CHECK(sc_nip98_sign(&ctx, header, sizeof header, &header_len, &client, &req, now));
    /* send "Authorization: " followed by header[0..header_len) */

    /* the server: the same request as it received it, the header's value, its own clock */
    scratch = malloc(sc_nip98_verify_scratch_max(header_len));
    st = sc_nip98_verify(&ctx, &ev, scratch, sc_nip98_verify_scratch_max(header_len), &used, header,
                         header_len, &req, now + 2, 0 /* 60 s either side */);
    if (st == SC_OK) {
        memcpy(who, ev.pubkey, sizeof who); /* the user the request comes from */
    }
    free(scratch); /* ev pointed into it */
    CHECK(st);     /* else 401: st names the failed check (SC_ERR_NIP98_URL, ...) */
    /* api.md: end nip98 */

    {
        uint8_t pub[SC_PUBKEY_BYTES];

        CHECK(sc_identity_pubkey(pub, &client));
        if (memcmp(pub, who, sizeof pub) != 0) {
            fprintf(stderr, "another signer\n");
            return 1;
        }
    }
    printf("%.*s\n", (int)header_len, header);
    sc_identity_clear(&client);
    sc_ctx_clear(&ctx);
    return 0;
}
