/* softchat bunker: one NIP-46 request answered. The request is opened with the bunker key
 * (sc_nip46_request_open), run with the user's key under the policy
 * (sc_nip46_bunker_handle), and its result or refusal sealed back to the client
 * (sc_nip46_response_build) and published to every relay of the bunker. A request id seen
 * before (a replay, or the same event from another relay) is not run again, nor is one
 * created before the bunker started (less its slack), which a relay that ignores the
 * subscription's since could still send. A client that connects with the secret joins the
 * policy's connected clients: the others get nothing but connect. */
#include "bunker.h"

#include <stdlib.h>
#include <string.h>

/* 1 when id was answered already; otherwise remembers it and returns 0. */
static int seen_before(cli_bunker *b, const uint8_t id[SC_EVENT_ID_BYTES])
{
    size_t i;

    for (i = 0; i < b->n_seen; i++) {
        if (memcmp(b->seen[i], id, SC_EVENT_ID_BYTES) == 0) {
            return 1;
        }
    }
    memcpy(b->seen[b->seen_next], id, SC_EVENT_ID_BYTES);
    b->seen_next = (b->seen_next + 1) % CLI_BUNKER_SEEN;
    if (b->n_seen < CLI_BUNKER_SEEN) {
        b->n_seen++;
    }
    return 0;
}

void cli_bunker_add_client(cli_bunker *b, const uint8_t client[SC_PUBKEY_BYTES])
{
    size_t i;

    for (i = 0; i < b->n_clients; i++) {
        if (memcmp(b->clients[i], client, SC_PUBKEY_BYTES) == 0) {
            return;
        }
    }
    memcpy(b->clients[b->clients_next], client, SC_PUBKEY_BYTES);
    b->clients_next = (b->clients_next + 1) % CLI_BUNKER_CLIENTS;
    if (b->n_clients < CLI_BUNKER_CLIENTS) {
        b->n_clients++;
    }
}

void cli_bunker_reply_free(cli_bunker *b, cli_bunker_reply *r)
{
    if (r->prev != NULL) {
        r->prev->next = r->next;
    } else if (b->replies == r) {
        b->replies = r->next;
    }
    if (r->next != NULL) {
        r->next->prev = r->prev;
    }
    free(r->json);
    free(r->arena);
    free(r);
}

/* Builds the response to req (result, or error when not NULL) into a new reply. */
static int build_reply(cli_bunker *b, const sc_nip46_request *req, sc_str result, const char *error,
                       cli_bunker_reply **out)
{
    sc_str err = {error != NULL ? error : "", error != NULL ? strlen(error) : 0};
    cli_bunker_reply *r = calloc(1, sizeof *r);
    size_t need = 0, len = 0, used = 0;
    int64_t now = 0;
    sc_status st;

    *out = NULL;
    if (r == NULL || cli_now(&now) != CLI_OK) {
        free(r);
        return cli_fail(CLI_ERROR, "out of memory, or no clock");
    }
    st = sc_nip46_response_build(b->ctx, NULL, 0, &need, b->bunker, req->client, req->id, result,
                                 err, now);
    r->json = st == SC_ERR_BUFFER_TOO_SMALL ? malloc(need) : NULL;
    if (r->json != NULL) {
        st = sc_nip46_response_build(b->ctx, r->json, need, &len, b->bunker, req->client, req->id,
                                     result, err, now);
    }
    if (r->json != NULL && st == SC_OK) {
        need = sc_event_parse_arena_max(len);
        r->arena = need > 0 ? malloc(need) : NULL;
        st = r->arena == NULL ? SC_ERR_BUFFER_TOO_SMALL
                              : sc_event_parse(&r->ev, r->arena, need, &used, r->json, len, NULL);
    }
    if (r->json == NULL || st != SC_OK) {
        cli_bunker_reply_free(b, r);
        return cli_fail_status(st, "cannot build the NIP-46 response");
    }
    *out = r;
    return CLI_OK;
}

/* Publishes r to every relay of the bunker; it is freed at its PUBLISH_DONE. */
static int publish(cli_bunker *b, cli_pool *cp, cli_bunker_reply *r)
{
    uint32_t pub = 0;
    sc_status st = sc_pool_publish(&cp->p, &pub, &r->ev, b->relays, b->n_relays, r);

    if (st != SC_OK) {
        cli_bunker_reply_free(b, r);
        return cli_fail_status(st, "cannot publish the NIP-46 response");
    }
    r->next = b->replies;
    if (b->replies != NULL) {
        b->replies->prev = r;
    }
    b->replies = r;
    return CLI_OK;
}

/* Runs the opened request under the policy and publishes the response. */
static int answer(cli_bunker *b, cli_pool *cp, const sc_nip46_request *req)
{
    size_t need = sc_nip46_bunker_result_max(req), len = 0;
    const char *error = NULL;
    cli_bunker_reply *r = NULL;
    sc_str result = {"", 0};
    sc_status st;
    int rc;

    if (need == 0 || cli_buf_size(&b->result, need) != CLI_OK) {
        return cli_fail(CLI_ERROR, "out of memory");
    }
    b->policy.clients = (const uint8_t(*)[SC_PUBKEY_BYTES])b->clients;
    b->policy.n_clients = b->n_clients;
    st = sc_nip46_bunker_handle(b->ctx, (char *)b->result.p, b->result.cap, &len, &error, b->user,
                                &b->policy, req);
    if (st == SC_OK && cli_str_is(req->call.method, "connect")) {
        cli_bunker_add_client(b, req->client);
    }
    if (st == SC_OK) {
        result.ptr = (const char *)b->result.p;
        result.len = len;
    } else if (error == NULL) {
        error = sc_status_str(st);
    }
    cli_fail(CLI_OK, "nip46 %.*s from %02x%02x%02x%02x: %s%s", (int)req->call.method.len,
             req->call.method.ptr, req->client[0], req->client[1], req->client[2], req->client[3],
             st == SC_OK ? "allowed" : "refused: ", st == SC_OK ? "" : error);
    rc = build_reply(b, req, result, st == SC_OK ? NULL : error, &r);
    sc_mem_wipe(b->result.p, b->result.cap);
    if (rc != CLI_OK) {
        return rc;
    }
    (void)publish(b, cp, r); /* a failure is said; the client may ask again */
    return CLI_POOL_CONTINUE;
}

int cli_bunker_nostrconnect(cli_bunker *b, cli_pool *cp, const sc_nip46_uri *u)
{
    uint8_t rnd[SC_NIP46_ID_RAND_BYTES];
    char id[2 * SC_NIP46_ID_RAND_BYTES + 1];
    sc_nip46_request req;
    cli_bunker_reply *r = NULL;
    sc_status st = sc_crypto_rng_fill(b->ctx, rnd, sizeof rnd);
    int rc;

    if (st != SC_OK) {
        return cli_fail_status(st, "cannot draw a response id");
    }
    cli_hex_str(id, rnd, sizeof rnd);
    memset(&req, 0, sizeof req);
    memcpy(req.client, u->pubkey, SC_PUBKEY_BYTES);
    req.id.ptr = id;
    req.id.len = 2 * SC_NIP46_ID_RAND_BYTES;
    cli_bunker_add_client(b, u->pubkey);
    rc = build_reply(b, &req, u->secret, NULL, &r);
    if (rc == CLI_OK) {
        rc = publish(b, cp, r);
    }
    if (rc == CLI_OK) {
        cli_fail(CLI_OK, "nip46 nostrconnect to %02x%02x%02x%02x: connect response sent",
                 u->pubkey[0], u->pubkey[1], u->pubkey[2], u->pubkey[3]);
    }
    return rc;
}

int cli_bunker_serve(cli_bunker *b, cli_pool *cp, const sc_pool_update *u)
{
    size_t need = sc_nip46_open_scratch_max(u->event_json.len), used = 0;
    sc_nip46_request req;
    sc_status st;
    int rc;

    if (u->event->created_at < b->since) {
        cli_fail(CLI_OK, "a kind 24133 event from %.*s skipped: created before the bunker started",
                 (int)u->url.len, u->url.ptr);
        return CLI_POOL_CONTINUE;
    }
    if (seen_before(b, u->event->id)) {
        return CLI_POOL_CONTINUE;
    }
    if (need == 0 || cli_buf_size(&b->scratch, need) != CLI_OK) {
        return cli_fail(CLI_ERROR, "out of memory");
    }
    st = sc_nip46_request_open(b->ctx, &req, b->scratch.p, b->scratch.cap, &used, b->bunker,
                               u->event_json.ptr, u->event_json.len);
    if (st != SC_OK) {
        char token[48];

        cli_status_token(token, sizeof token, st);
        cli_fail(CLI_OK, "a kind 24133 event from %.*s skipped: %s: %s", (int)u->url.len,
                 u->url.ptr, token, sc_status_str(st));
        return CLI_POOL_CONTINUE;
    }
    rc = answer(b, cp, &req);
    sc_mem_wipe(b->scratch.p, used);
    memset(&req, 0, sizeof req);
    return rc;
}
