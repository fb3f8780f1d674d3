/* Test data for the relay integration tests: N NIP-17 gift wraps from one key to another, one
 * JSON object per line (the same wraps `softchat nip17 send` makes, without the sender's
 * copies), quickly enough for the 10,000-wrap Negentropy scenario.
 *   make_wraps SENDER_HEX_SECRET RECIPIENT_HEX_PUBKEY N [BACKEND] */
#include <softchat/softchat.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv)
{
    static uint8_t buf[4096], scratch[1 << 16];
    static char out[1 << 15];
    uint8_t sec[32], to[32], pub[32];
    sc_identity alice;
    sc_ctx ctx;
    long n, i;
    size_t len = 0;

    if (argc < 4 ||
        sc_hex_decode_fixed(sec, 32, argv[1], strlen(argv[1]), SC_HEX_ANY_CASE) != SC_OK ||
        sc_hex_decode_fixed(to, 32, argv[2], strlen(argv[2]), SC_HEX_ANY_CASE) != SC_OK ||
        (n = strtol(argv[3], NULL, 10)) <= 0) {
        fprintf(stderr, "usage: make_wraps SENDER_HEX_SECRET RECIPIENT_HEX_PUBKEY N [BACKEND]\n");
        return 2;
    }
    if (sc_ctx_init(&ctx, argc > 4 ? argv[4] : NULL) != SC_OK ||
        sc_identity_import(&ctx, &alice, sec) != SC_OK ||
        sc_identity_pubkey(pub, &alice) != SC_OK) {
        fprintf(stderr, "make_wraps: cannot set up\n");
        return 2;
    }
    for (i = 0; i < n; i++) {
        char text[64];
        sc_nip17_peer peer;
        sc_nip17_chat m;
        sc_event rumor;
        sc_status st;

        snprintf(text, sizeof text, "message %ld", i);
        memset(&peer, 0, sizeof peer);
        memcpy(peer.pubkey, to, 32);
        memset(&m, 0, sizeof m);
        m.content.ptr = text;
        m.content.len = strlen(text);
        m.to = &peer;
        m.n_to = 1;
        m.created_at = 1700000000 + i;
        st = sc_nip17_chat_rumor(&ctx, &rumor, buf, sizeof buf, &m, pub);
        if (st == SC_OK) {
            st = sc_nip59_wrap(&ctx, out, sizeof out, &len, scratch, sizeof scratch, &rumor, &alice,
                               to, NULL);
        }
        if (st != SC_OK) {
            fprintf(stderr, "make_wraps: %s\n", sc_status_name(st));
            return 1;
        }
        fwrite(out, 1, len, stdout);
        putchar('\n');
    }
    sc_identity_clear(&alice);
    sc_ctx_clear(&ctx);
    return 0;
}
