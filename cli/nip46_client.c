/* The NIP-46 client of the dm commands: a bunker reached over its relays (nip46_client.h). */
#include "nip46_client.h"

#include <stdlib.h>
#include <string.h>

#include "dm.h"
#include "ws.h"

/* A published request: its JSON and parsed event, kept until close (the pool holds the event
 * by reference until its publish settles). */
struct cli_nip46_sent {
    cli_nip46_sent *next;
    sc_event ev;
    char *json;
    void *arena;
};

static int on_response(cli_nip46 *n, cli_pool *cp, const sc_pool_update *u)
{
    size_t need = sc_nip46_open_scratch_max(u->event_json.len), used = 0;
    sc_nip46_response r;
    sc_str id = {n->id, SC_NIP46_ID_CHARS};
    sc_status st;

    if (need == 0 || cli_buf_size(&n->scratch, need) != CLI_OK) {
        return cli_fail(CLI_ERROR, "out of memory");
    }
    st = sc_nip46_response_open(n->ctx, &r, n->scratch.p, n->scratch.cap, &used, &n->client,
                                n->bunker, id, u->event_json.ptr, u->event_json.len);
    if (st == SC_ERR_NIP46_ID) {
        return CLI_POOL_CONTINUE; /* an answer to another request */
    }
    if (st == SC_ERR_NIP46_AUTH_URL) {
        cli_fail(CLI_OK, "the bunker asks to open %.*s first: waiting", (int)r.error.len,
                 r.error.ptr);
        return CLI_POOL_CONTINUE;
    }
    if (st != SC_OK && st != SC_ERR_SIGNER_REFUSED) {
        cli_pool_note(cp, "%.*s: a kind 24133 event skipped: %s", (int)u->url.len, u->url.ptr,
                      sc_status_str(st));
        return CLI_POOL_CONTINUE;
    }
    n->result.len = 0;
    if (st == SC_OK ? cli_buf_add(&n->result, r.result.ptr, r.result.len)
                    : cli_buf_add(&n->result, r.error.ptr, r.error.len)) {
        return CLI_ERROR;
    }
    sc_mem_wipe(n->scratch.p, used);
    n->outcome = st;
    n->answered = 1;
    return CLI_POOL_DONE;
}

static int on_update(void *user, cli_pool *cp, const sc_pool_update *u)
{
    cli_nip46 *n = (cli_nip46 *)user;

    if (u->kind == SC_POOL_U_EVENT) {
        return on_response(n, cp, u);
    }
    if (u->kind == SC_POOL_U_PUBLISHED && u->result != SC_POOL_ACCEPTED) {
        cli_pool_note(cp, "%.*s: NIP-46 request %s: %.*s", (int)u->url.len, u->url.ptr,
                      cli_pool_result_name(u->result), (int)u->text.len, u->text.ptr);
    }
    return CLI_POOL_CONTINUE;
}

/* Seals call into a new request event (n->id its id), kept on n->sent. */
static int build_request(cli_nip46 *n, const sc_nip46_call *call, cli_nip46_sent **out)
{
    cli_nip46_sent *s = calloc(1, sizeof *s);
    uint8_t rnd[SC_NIP46_ID_RAND_BYTES];
    size_t need = 0, len = 0, used = 0;
    int64_t now = 0;
    sc_status st = SC_ERR_STATE;

    if (s == NULL || cli_now(&now) != CLI_OK) {
        free(s);
        return cli_fail(CLI_ERROR, "out of memory, or no clock");
    }
    s->next = n->sent;
    n->sent = s;
    if (sc_crypto_rng_fill(n->ctx, rnd, sizeof rnd) == SC_OK) {
        st = sc_nip46_request_build(n->ctx, NULL, 0, &need, &n->client, n->bunker, rnd, call, now,
                                    n->id);
    }
    s->json = st == SC_ERR_BUFFER_TOO_SMALL ? malloc(need) : NULL;
    if (s->json != NULL) {
        st = sc_nip46_request_build(n->ctx, s->json, need, &len, &n->client, n->bunker, rnd, call,
                                    now, n->id);
    }
    if (s->json != NULL && st == SC_OK) {
        need = sc_event_parse_arena_max(len);
        s->arena = need > 0 ? malloc(need) : NULL;
        st = s->arena == NULL ? SC_ERR_BUFFER_TOO_SMALL
                              : sc_event_parse(&s->ev, s->arena, need, &used, s->json, len, NULL);
    }
    if (s->json == NULL || st != SC_OK) {
        return cli_fail_status(st, "cannot build the NIP-46 request");
    }
    *out = s;
    return CLI_OK;
}

int cli_nip46_call(cli_nip46 *n, const sc_nip46_call *call)
{
    cli_nip46_sent *s = NULL;
    uint32_t pub = 0;
    sc_status st;
    int rc = build_request(n, call, &s);

    if (rc != CLI_OK) {
        return rc;
    }
    st = sc_pool_publish(&n->cp.p, &pub, &s->ev, n->relays, n->n_relays, NULL);
    if (st != SC_OK) {
        return cli_fail_status(st, "cannot publish the NIP-46 request");
    }
    n->answered = 0;
    n->cp.deadline_ms = cli_ws_now_ms() + (int64_t)n->timeout_s * 1000;
    rc = cli_pool_run(&n->cp, on_update, n);
    if (rc == CLI_OK && !n->answered) {
        rc = cli_fail(CLI_ERROR, "the bunker did not answer %.*s", (int)call->method.len,
                      call->method.ptr);
    }
    if (rc != CLI_OK) {
        cli_fail(CLI_OK, "NIP-46 %.*s: no answer from the bunker within %d s",
                 (int)call->method.len, call->method.ptr, n->timeout_s);
    }
    return rc;
}

sc_status cli_nip46_drive(void *user, sc_signer_op *op)
{
    cli_nip46 *n = (cli_nip46 *)user;
    cli_buf buf = CLI_BUF_INIT;
    sc_signer_req req;
    sc_nip46_call call;
    size_t need = 0;
    sc_status st;

    while ((st = sc_signer_op_step(op, n->ctx, cli_ws_now_ms(), &req)) == SC_OK &&
           req.kind != SC_SIGNER_REQ_NONE) {
        st = sc_nip46_call_from_req(&call, NULL, 0, &need, &req);
        if (st == SC_ERR_BUFFER_TOO_SMALL && cli_buf_size(&buf, need > 0 ? need : 1) == CLI_OK) {
            st = sc_nip46_call_from_req(&call, (char *)buf.p, buf.cap, &need, &req);
        }
        if (st != SC_OK) {
            break;
        }
        if (cli_nip46_call(n, &call) != CLI_OK) {
            st = SC_ERR_TIMEOUT;
            break;
        }
        if (n->outcome == SC_ERR_SIGNER_REFUSED) {
            cli_fail(CLI_OK, "the bunker refused %.*s: %.*s", (int)call.method.len, call.method.ptr,
                     (int)n->result.len, (const char *)n->result.p);
            st = sc_signer_op_refuse(op);
        } else {
            st = sc_signer_op_answer(op, n->ctx, (const char *)n->result.p, n->result.len);
        }
        if (st != SC_OK) {
            break;
        }
    }
    cli_buf_free(&buf);
    return st;
}

/* Subscribes to the bunker's answers: kind 24133 from the bunker key (any author when
 * any_author), p-tagged to ours (the filter lives in n: the pool keeps it by reference). */
static int subscribe(cli_nip46 *n, int any_author)
{
    sc_relay_filter *f = &n->filter;
    uint32_t sub;
    int64_t now = 0;
    sc_status st;

    if (cli_now(&now) != CLI_OK) {
        return CLI_ERROR;
    }
    n->kinds[0] = SC_NIP46_KIND;
    n->p_value.ptr = n->client_hex;
    n->p_value.len = 2 * SC_PUBKEY_BYTES;
    n->tag.letter = 'p';
    n->tag.values = &n->p_value;
    n->tag.n_values = 1;
    memset(f, 0, sizeof *f);
    f->kinds = n->kinds;
    f->n_kinds = 1;
    f->authors = any_author ? NULL : (const uint8_t(*)[SC_PUBKEY_BYTES])n->bunker;
    f->n_authors = any_author ? 0 : 1;
    f->tags = &n->tag;
    f->n_tags = 1;
    f->has = SC_RELAY_FILTER_SINCE;
    f->since = now > 30 ? now - 30 : 0;
    st = sc_pool_subscribe(&n->cp.p, &sub, SC_STR("nip46"), f, 1, n->relays, n->n_relays, NULL);
    return st == SC_OK ? CLI_OK : cli_fail_status(st, "cannot subscribe to the bunker's answers");
}

int cli_nip46_get_user(cli_nip46 *n)
{
    sc_nip46_call c;
    int rc;

    memset(&c, 0, sizeof c);
    c.method = SC_STR("get_public_key");
    rc = cli_nip46_call(n, &c);
    if (rc == CLI_OK && n->outcome != SC_OK) {
        rc = cli_fail(CLI_ERROR, "the bunker refused get_public_key: %.*s", (int)n->result.len,
                      (const char *)n->result.p);
    }
    if (rc == CLI_OK && (n->result.len != 2 * SC_PUBKEY_BYTES ||
                         sc_hex_decode_fixed(n->user, SC_PUBKEY_BYTES, (const char *)n->result.p,
                                             n->result.len, SC_HEX_LOWER_ONLY) != SC_OK)) {
        rc = cli_fail(CLI_ERROR, "the bunker's get_public_key is not a public key");
    }
    return rc;
}

/* connect with the URI's secret, then get_public_key: n->user. A known client key (paired
 * before) with no secret to give: a refused connect is said, get_public_key decides. */
static int handshake(cli_nip46 *n, sc_str secret, int known_key)
{
    char bunker_hex[2 * SC_PUBKEY_BYTES + 1];
    sc_nip46_call c;
    int rc;

    cli_hex_str(bunker_hex, n->bunker, SC_PUBKEY_BYTES);
    memset(&c, 0, sizeof c);
    c.method = SC_STR("connect");
    c.params[0].ptr = bunker_hex;
    c.params[0].len = 2 * SC_PUBKEY_BYTES;
    c.params[1] = secret;
    c.n_params = 2;
    rc = cli_nip46_call(n, &c);
    if (rc == CLI_OK && n->outcome != SC_OK && known_key && secret.len == 0) {
        cli_fail(CLI_OK,
                 "the bunker refused connect without a secret (%.*s): trying the paired "
                 "client key",
                 (int)n->result.len, (const char *)n->result.p);
    } else if (rc == CLI_OK && n->outcome != SC_OK) {
        rc = cli_fail(CLI_ERROR, "the bunker refused connect: %.*s", (int)n->result.len,
                      (const char *)n->result.p);
    }
    return rc == CLI_OK ? cli_nip46_get_user(n) : rc;
}

int cli_nip46_start(cli_nip46 *n, sc_ctx *ctx, const char *client_key_file, const sc_str *relays,
                    size_t n_relays, const char *ca_file, int timeout_s, int any_author)
{
    uint8_t client_pub[SC_PUBKEY_BYTES];
    char url[SC_NIP46_URI_MAX_RELAY_LEN + 1];
    sc_pool_opts o;
    size_t i;
    sc_status st = SC_OK;
    int rc;

    n->ctx = ctx;
    n->timeout_s = timeout_s;
    if (client_key_file != NULL) {
        rc = cli_load_identity(ctx, &n->client, client_key_file);
    } else {
        st = sc_identity_generate(ctx, &n->client);
        rc = st == SC_OK ? CLI_OK : cli_fail_status(st, "cannot make a client key");
    }
    if (rc == CLI_OK && (st = sc_identity_pubkey(client_pub, &n->client)) != SC_OK) {
        rc = cli_fail_status(st, "cannot read the client key");
    }
    cli_dm_pool_opts(&o);
    if (rc == CLI_OK && (rc = cli_pool_open(&n->cp, ctx, &o, ca_file, timeout_s)) == CLI_OK) {
        n->pool_open = 1;
    }
    for (i = 0; rc == CLI_OK && i < n_relays && i < SC_NIP46_URI_MAX_RELAYS; i++) {
        snprintf(url, sizeof url, "%.*s", (int)relays[i].len, relays[i].ptr);
        rc = cli_pool_add(&n->cp, url, &n->relays[i]);
    }
    n->n_relays = i;
    if (rc == CLI_OK) {
        cli_hex_str(n->client_hex, client_pub, SC_PUBKEY_BYTES);
        rc = subscribe(n, any_author);
    }
    return rc;
}

int cli_nip46_open(cli_nip46 *n, sc_ctx *ctx, const char *uri, const char *client_key_file,
                   const char *ca_file, int timeout_s)
{
    sc_nip46_uri u;
    cli_buf ubuf = CLI_BUF_INIT;
    size_t used = 0;
    sc_status st;
    int rc;

    memset(n, 0, sizeof *n);
    n->ctx = ctx;
    rc = cli_buf_size(&ubuf, strlen(uri) + 1);
    st = rc == CLI_OK ? sc_nip46_uri_parse(&u, (char *)ubuf.p, ubuf.cap, &used, uri, strlen(uri))
                      : SC_ERR_ARG;
    if (st != SC_OK || u.kind != SC_NIP46_URI_BUNKER) {
        cli_buf_free(&ubuf);
        return cli_fail(CLI_ERROR, "--signer: not a bunker:// URI (%s)",
                        sc_status_name(st != SC_OK ? st : SC_ERR_NIP46_URI));
    }
    memcpy(n->bunker, u.pubkey, SC_PUBKEY_BYTES);
    rc = cli_nip46_start(n, ctx, client_key_file, u.relays, u.n_relays, ca_file, timeout_s, 0);
    if (rc == CLI_OK) {
        rc = handshake(n, u.secret, client_key_file != NULL);
    }
    if (rc == CLI_OK &&
        (st = sc_signer_init_external(&n->signer, n->user, (uint32_t)timeout_s * 1000u)) != SC_OK) {
        rc = cli_fail_status(st, "external signer");
    }
    cli_buf_free(&ubuf);
    return rc;
}

int cli_nip46_new(cli_nip46 **out, cli_ext_signer *ext, uint8_t user[SC_PUBKEY_BYTES], sc_ctx *ctx,
                  const char *uri, const char *client_key_file, const char *ca_file, int timeout_s)
{
    cli_nip46 *n = calloc(1, sizeof *n);
    int rc;

    *out = n;
    if (n == NULL) {
        return cli_fail(CLI_ERROR, "out of memory");
    }
    rc = cli_nip46_open(n, ctx, uri, client_key_file, ca_file, timeout_s);
    ext->signer = &n->signer;
    ext->drive = cli_nip46_drive;
    ext->user = n;
    memcpy(user, n->user, SC_PUBKEY_BYTES);
    return rc;
}

void cli_nip46_free(cli_nip46 *n)
{
    if (n != NULL) {
        cli_nip46_close(n);
        free(n);
    }
}

void cli_nip46_close(cli_nip46 *n)
{
    if (n->pool_open) {
        cli_pool_close(&n->cp);
        n->pool_open = 0;
    }
    while (n->sent != NULL) {
        cli_nip46_sent *s = n->sent;

        n->sent = s->next;
        free(s->json);
        free(s->arena);
        free(s);
    }
    sc_identity_clear(&n->client);
    sc_signer_clear(&n->signer);
    cli_buf_free(&n->scratch);
    cli_buf_free(&n->result);
}
