/* docs/api.md "Remote signing (NIP-46)": an event signed over an external signer whose
 * request travels to a bunker as NIP-46 events (the relay between them left out: the two
 * sides run here in one process). Run: nip46 [BACKEND]. Exit 0 when every step works. */
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

/* The bunker's side: opens the request, runs it under the policy, writes the response. */
static int bunker_turn(sc_ctx *ctx, const sc_identity *bunker, const sc_identity *user,
                       const char *req, size_t req_len, char *resp, size_t resp_cap,
                       size_t *resp_len)
{
    /* api.md: begin bunker */
    static const sc_str grants[] = {{"sign_event:1", 12}, {"get_public_key", 14}};
    sc_nip46_policy policy = {grants, 2, {"", 0}, NULL, 0};
    sc_nip46_request r;
    void *scratch = malloc(sc_nip46_open_scratch_max(req_len));
    char result[4096];
    const char *error = NULL;
    size_t used, result_len = 0;
    sc_status st;

    st = sc_nip46_request_open(ctx, &r, scratch, sc_nip46_open_scratch_max(req_len), &used, bunker,
                               req, req_len);
    if (st == SC_OK) { /* else: not a request for this bunker: drop it */
        st = sc_nip46_bunker_handle(ctx, result, sizeof result, &result_len, &error, user, &policy,
                                    &r);
        /* refused or not, the client gets an answer */
        st = sc_nip46_response_build(
            ctx, resp, resp_cap, resp_len, bunker, r.client, r.id, (sc_str){result, result_len},
            error ? (sc_str){error, strlen(error)} : (sc_str){"", 0}, 1700000000);
    }
    free(scratch);
    CHECK(st);
    /* api.md: end bunker */
    return 0;
}

int main(int argc, char **argv)
{
    sc_identity client, bunker, user;
    uint8_t user_pub[SC_PUBKEY_BYTES], bunker_pub[SC_PUBKEY_BYTES], rnd[SC_NIP46_ID_RAND_BYTES];
    char buf[256], req[4096], resp[8192], id[SC_NIP46_ID_CHARS];
    size_t used, req_len, resp_len;
    void *scratch;
    sc_signer ext;
    sc_signer_op op;
    sc_signer_req sreq;
    sc_nip46_call call;
    sc_nip46_response answer;
    sc_event ev;
    sc_status st;
    sc_ctx ctx;

    CHECK(sc_ctx_init(&ctx, argc > 1 ? argv[1] : NULL));
    CHECK(sc_identity_generate(&ctx, &client)); /* the client's own (ephemeral) key */
    CHECK(sc_identity_generate(&ctx, &bunker)); /* the remote signer's key */
    CHECK(sc_identity_generate(&ctx, &user));   /* the user's key, in the bunker only */
    CHECK(sc_identity_pubkey(user_pub, &user));
    CHECK(sc_identity_pubkey(bunker_pub, &bunker));
    memset(&ev, 0, sizeof ev);
    ev.kind = 1;
    ev.created_at = 1700000000;
    ev.content = SC_STR("signed far away");

    /* api.md: begin client */
    CHECK(sc_signer_init_external(&ext, user_pub, 0));
    CHECK(sc_event_sign_start(&ctx, &op, &ev, &ext));
    while ((st = sc_signer_op_step(&op, &ctx, 0, &sreq)) == SC_OK &&
           sreq.kind != SC_SIGNER_REQ_NONE) {
        CHECK(sc_nip46_call_from_req(&call, buf, sizeof buf, &used, &sreq));
        CHECK(sc_crypto_rng_fill(&ctx, rnd, sizeof rnd));
        CHECK(sc_nip46_request_build(&ctx, req, sizeof req, &req_len, &client, bunker_pub, rnd,
                                     &call, 1700000000, id));
        /* publish req to the bunker's relays; a kind 24133 event comes back */
        if (bunker_turn(&ctx, &bunker, &user, req, req_len, resp, sizeof resp, &resp_len) != 0) {
            return 1;
        }
        scratch = malloc(sc_nip46_open_scratch_max(resp_len));
        st = sc_nip46_response_open(&ctx, &answer, scratch, sc_nip46_open_scratch_max(resp_len),
                                    &used, &client, bunker_pub, (sc_str){id, SC_NIP46_ID_CHARS},
                                    resp, resp_len);
        if (st == SC_OK) {
            st = sc_signer_op_answer(&op, &ctx, answer.result.ptr, answer.result.len);
        } else if (st == SC_ERR_SIGNER_REFUSED) {
            st = sc_signer_op_refuse(&op); /* answer.error says why */
        } /* SC_ERR_NIP46_AUTH_URL: show answer.error to the user, wait for the next reply */
        free(scratch);
        CHECK(st);
    }
    sc_signer_op_clear(&op);
    CHECK(st);
    CHECK(sc_event_verify(&ctx, &ev)); /* signed by the user's key, held by the bunker */
    /* api.md: end client */

    sc_identity_clear(&client);
    sc_identity_clear(&bunker);
    sc_identity_clear(&user);
    sc_ctx_clear(&ctx);
    printf("nip46: ok\n");
    return 0;
}
