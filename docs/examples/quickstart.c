/* docs/api.md "Quick start": a context, an identity, a signed event checked back, and a NIP-44
 * message between two identities. Run: quickstart [BACKEND]. Exit 0 when every step works. */
#include <softchat/softchat.h>

#include <stdio.h>
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
    static const char text[] = "hello, nostr";
    uint8_t alice_pub[SC_PUBKEY_BYTES], bob_pub[SC_PUBKEY_BYTES], plain[256];
    char json[512], payload[256], npub[SC_NIP19_NPUB_LEN];
    size_t json_len, payload_len, plain_len, npub_len;
    sc_identity alice, bob;
    sc_event ev;
    sc_ctx ctx;

    /* api.md: begin quickstart */
    CHECK(sc_ctx_init(&ctx, argc > 1 ? argv[1] : NULL)); /* NULL: the default backend */
    CHECK(sc_identity_generate(&ctx, &alice));           /* or sc_identity_import(secret) */
    CHECK(sc_identity_generate(&ctx, &bob));
    CHECK(sc_identity_pubkey(bob_pub, &bob));
    CHECK(sc_nip19_encode_npub(npub, sizeof npub, &npub_len, bob_pub));

    memset(&ev, 0, sizeof ev); /* a kind 1 note */
    ev.kind = 1;
    ev.created_at = 1700000000;
    ev.content = SC_STR(text);
    CHECK(sc_event_sign(&ctx, &ev, &alice)); /* sets pubkey, id and sig */
    CHECK(sc_event_to_json(json, sizeof json, &json_len, &ev, SC_EVENT_JSON_OBJECT));
    CHECK(sc_event_verify(&ctx, &ev));

    /* NIP-44 from alice to bob, and back: the conversation key never leaves the library */
    CHECK(sc_nip44_encrypt_to(&ctx, payload, sizeof payload, &payload_len, &alice, bob_pub,
                              (const uint8_t *)text, sizeof text - 1, 0));
    CHECK(sc_identity_pubkey(alice_pub, &alice)); /* what bob knows of alice */
    /* the decrypt buffer is also decoding scratch: sc_nip44_decrypt_max(payload_len) bytes */
    if (sc_nip44_decrypt_max(payload_len) > sizeof plain) {
        return 1;
    }
    CHECK(sc_nip44_decrypt_from(&ctx, plain, sizeof plain, &plain_len, &bob, alice_pub, payload,
                                payload_len, 0));
    sc_identity_clear(&alice);
    sc_identity_clear(&bob);
    sc_ctx_clear(&ctx);
    /* api.md: end quickstart */
    if (plain_len != sizeof text - 1 || memcmp(plain, text, plain_len) != 0 ||
        npub_len != SC_NIP19_NPUB_LEN || memcmp(npub, "npub1", 5) != 0 || json[0] != '{') {
        fprintf(stderr, "quickstart: unexpected output\n");
        return 1;
    }
    printf("quickstart: %.*s signed (%zu bytes of JSON), NIP-44 round trip of %zu bytes\n",
           (int)npub_len, npub, json_len, plain_len);
    return 0;
}
