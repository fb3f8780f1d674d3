/* docs/api.md "Sending and receiving a private message": alice sends bob a NIP-17 chat message
 * (one gift wrap for bob, one for her own copy), and bob opens his. Run: nip17 [BACKEND]. */
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

/* Bob's side: authenticate one gift wrap and read the message (see api.md). */
static int receive(sc_ctx *ctx, const sc_identity *bob, const char *wrap, size_t wrap_len,
                   const char *expect)
{
    /* api.md: begin receive */
    size_t cap = sc_nip17_receive_arena_max(wrap_len), used = 0;
    void *arena = malloc(cap > 0 ? cap : 1);
    sc_nip17_received msg;
    sc_status st;
    int same = 0;

    st = sc_nip17_receive(ctx, &msg, arena, cap, &used, wrap, wrap_len, bob);
    if (st == SC_OK) {
        /* msg.wrap.sender is the real author (the seal's signer); msg.room[0..n_room) the
         * conversation's members; msg.rumor the kind 14 event, its views in the arena */
        printf("from a room of %zu: %.*s\n", msg.n_room, (int)msg.rumor.content.len,
               msg.rumor.content.ptr);
        same = msg.rumor.content.len == strlen(expect) &&
               memcmp(msg.rumor.content.ptr, expect, msg.rumor.content.len) == 0;
    } else {
        /* one status per failed check: SC_ERR_WRAP_DECRYPT (not for me), SC_ERR_SEAL_SIG, ... */
        fprintf(stderr, "refused: %s\n", sc_status_name(st));
    }
    sc_mem_wipe(arena, cap); /* it held the message */
    free(arena);
    /* api.md: end receive */
    return st == SC_OK && same ? 0 : 1;
}

int main(int argc, char **argv)
{
    static const char text[] = "lunch at noon?";
    uint8_t alice_pub[SC_PUBKEY_BYTES], rumor_buf[1024];
    sc_identity alice, bob;
    sc_nip17_peer to;
    sc_nip17_chat m;
    sc_event rumor;
    sc_ctx ctx;
    int rc = 0;

    CHECK(sc_ctx_init(&ctx, argc > 1 ? argv[1] : NULL));
    CHECK(sc_identity_generate(&ctx, &alice));
    CHECK(sc_identity_generate(&ctx, &bob));
    CHECK(sc_identity_pubkey(alice_pub, &alice));
    memset(&to, 0, sizeof to);
    CHECK(sc_identity_pubkey(to.pubkey, &bob));
    {
        /* api.md: begin send */
        sc_nip17_wrap wraps[2];
        size_t out_len = 0, n = 0, k;
        char *out;
        void *scratch;

        memset(&m, 0, sizeof m); /* a kind 14 chat message to bob */
        m.content = SC_STR(text);
        m.to = &to;
        m.n_to = 1;
        m.created_at = 1700000000;
        CHECK(sc_nip17_chat_rumor(&ctx, &rumor, rumor_buf, sizeof rumor_buf, &m, alice_pub));

        /* one wrap for bob and one for alice's own copy, sized up front */
        out = malloc(sc_nip17_send_max(&rumor, alice_pub, NULL));
        scratch = malloc(sc_nip17_send_scratch_max(&rumor, alice_pub, NULL));
        CHECK(sc_nip17_send(&ctx, out, sc_nip17_send_max(&rumor, alice_pub, NULL), &out_len, wraps,
                            2, &n, scratch, sc_nip17_send_scratch_max(&rumor, alice_pub, NULL),
                            &rumor, &alice, NULL));
        for (k = 0; k < n; k++) {
            /* publish out[wraps[k].offset .. + wraps[k].len) to wraps[k].recipient's relays */
            if (memcmp(wraps[k].recipient, to.pubkey, SC_PUBKEY_BYTES) == 0) {
                rc |= receive(&ctx, &bob, out + wraps[k].offset, wraps[k].len, text);
            }
        }
        free(scratch);
        free(out);
        sc_mem_wipe(rumor_buf, sizeof rumor_buf);
        /* api.md: end send */
        rc |= n == 2 ? 0 : 1;
    }
    sc_identity_clear(&alice);
    sc_identity_clear(&bob);
    sc_ctx_clear(&ctx);
    return rc;
}
