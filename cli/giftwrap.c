/* Gift wraps for nip59 wrap and nip17 send: one sc_nip59_wrap per recipient, each checked
 * before it leaves the tool; and the opening of a NIP-17 message over the user's signer. */
#include "cli.h"

#include <string.h>

/* The new wrap must be a valid signed event: a faulty signature (a glitch, a miscompiled
 * backend) is caught here rather than by every relay that drops it. */
static int self_check(sc_ctx *ctx, const char *json, size_t len)
{
    cli_buf arena = CLI_BUF_INIT;
    size_t need = sc_event_parse_arena_max(len), used = 0;
    sc_event_parse_opts opts;
    sc_event ev;
    sc_status st;
    int rc;

    memset(&opts, 0, sizeof opts);
    opts.max_input = len;
    opts.optional = 0;
    rc = cli_buf_reserve(&arena, need > 0 ? need : 1);
    if (rc != CLI_OK) {
        return rc;
    }
    st = sc_event_parse(&ev, arena.p, arena.cap, &used, json, len, &opts);
    if (st == SC_OK) {
        st = sc_event_verify(ctx, &ev);
    }
    if (st != SC_OK) {
        rc = cli_fail(CLI_ERROR, "internal error: the new gift wrap does not verify (%s)",
                      sc_status_name(st));
    }
    cli_buf_free(&arena);
    return rc;
}

/* The message for a wrap of rumor that failed with st; `who` names its recipient. */
static int wrap_failure(sc_status st, const sc_event *rumor, const char *who)
{
    if (st == SC_ERR_POLICY) {
        return cli_fail_status(st,
                               "message too large for a gift wrap: its rumor is %zu bytes of "
                               "JSON, and receivers that only read NIP-44's 2-byte length "
                               "prefix limit it to about 40960",
                               sc_event_to_json_len(rumor, SC_EVENT_JSON_OBJECT));
    }
    if (st == SC_ERR_INVALID_KEY) {
        return cli_fail(CLI_INVALID,
                        "%s: not a valid public key (no point on the curve has that "
                        "x coordinate) (%s)",
                        who, sc_status_name(st));
    }
    return cli_fail_status(st, "cannot gift-wrap the message");
}

/* sc_nip17_send over ext's signer: the operation started, then driven to its end. */
static sc_status send_ext(sc_ctx *ctx, cli_buf *json, sc_nip17_wrap *w, size_t w_cap, size_t *len,
                          size_t *got, cli_buf *scratch, const sc_event *rumor,
                          const cli_ext_signer *ext, const sc_nip59_opts *opts)
{
    sc_signer_op op;
    sc_status st = sc_nip17_send_start(ctx, &op, (char *)json->p, json->cap, len, w, w_cap, got,
                                       scratch->p, scratch->cap, rumor, ext->signer, opts);

    if (st == SC_OK) {
        st = ext->drive(ext->user, &op);
    }
    sc_signer_op_clear(&op);
    return st;
}

int cli_nip17_send(sc_ctx *ctx, cli_buf *out, const sc_event *rumor, const sc_identity *author,
                   const cli_ext_signer *ext, const sc_nip59_opts *opts, const char *const *names,
                   size_t n_names)
{
    uint8_t pub[SC_PUBKEY_BYTES];
    cli_buf scratch = CLI_BUF_INIT, wraps = CLI_BUF_INIT, json = CLI_BUF_INIT;
    size_t cap, scap, n, len = 0, got = 0, k;
    sc_nip17_wrap *w;
    sc_status st;
    int rc;

    st = ext != NULL ? sc_signer_pubkey(pub, ext->signer) : sc_identity_pubkey(pub, author);
    if (st != SC_OK) {
        return cli_fail_status(st, "cannot read the public key");
    }
    cap = sc_nip17_send_max(rumor, pub, opts);
    scap = sc_nip17_send_scratch_max(rumor, pub, opts);
    n = sc_nip17_send_wraps_len(rumor, pub);
    rc = cli_buf_reserve(&json, cap > 0 ? cap : 1); /* 0: sc_nip17_send says why */
    if (rc == CLI_OK) {
        rc = cli_buf_reserve(&scratch, scap > 0 ? scap : 1);
    }
    if (rc == CLI_OK) {
        rc = cli_buf_reserve(&wraps, (n > 0 ? n : 1) * sizeof(sc_nip17_wrap));
    }
    if (rc != CLI_OK) {
        goto out;
    }
    w = (sc_nip17_wrap *)(void *)wraps.p;
    if (ext != NULL) {
        st = send_ext(ctx, &json, w, wraps.cap / sizeof *w, &len, &got, &scratch, rumor, ext, opts);
    } else {
        st = sc_nip17_send(ctx, (char *)json.p, json.cap, &len, w, wraps.cap / sizeof *w, &got,
                           scratch.p, scratch.cap, rumor, author, opts);
    }
    if (st != SC_OK) {
        rc = wrap_failure(st, rumor, got < n_names ? names[got] : "a receiver");
        goto out;
    }
    for (k = 0; k < got && rc == CLI_OK; k++) {
        rc = self_check(ctx, (const char *)json.p + w[k].offset, w[k].len);
        if (rc == CLI_OK) {
            rc = cli_buf_add(out, json.p + w[k].offset, w[k].len);
        }
        if (rc == CLI_OK) {
            rc = cli_buf_addc(out, '\n');
        }
    }
out:
    cli_buf_free(&json);
    cli_buf_free(&scratch);
    cli_buf_free(&wraps);
    return rc;
}

int cli_gift_wrap(sc_ctx *ctx, cli_buf *out, const sc_event *rumor, const cli_ext_signer *author,
                  const uint8_t to[SC_PUBKEY_BYTES], const sc_nip59_opts *opts, const char *who)
{
    sc_signer_op op;
    cli_buf scratch = CLI_BUF_INIT;
    size_t scratch_len = sc_nip59_wrap_scratch_max(rumor, opts);
    size_t wrap_len = sc_nip59_wrap_max(rumor, opts), used = 0;
    sc_status st;
    int rc;

    if (scratch_len == 0 || wrap_len == 0) {
        return cli_fail(CLI_ERROR, "internal error: the rumor cannot be wrapped");
    }
    rc = cli_buf_reserve(&scratch, scratch_len);
    if (rc == CLI_OK) {
        rc = cli_buf_reserve(out, wrap_len + 1);
    }
    if (rc != CLI_OK) {
        goto out;
    }
    st = sc_nip59_wrap_start(ctx, &op, (char *)out->p + out->len, out->cap - out->len, &used,
                             scratch.p, scratch.cap, rumor, author->signer, to, opts);
    if (st == SC_OK) {
        st = author->drive(author->user, &op);
    }
    sc_signer_op_clear(&op);
    if (st != SC_OK) {
        rc = wrap_failure(st, rumor, who);
        goto out;
    }
    rc = self_check(ctx, (const char *)out->p + out->len, used);
    if (rc != CLI_OK) {
        goto out;
    }
    out->len += used;
    rc = cli_buf_addc(out, '\n');
out:
    cli_buf_free(&scratch);
    return rc;
}

sc_status cli_nip17_open(sc_ctx *ctx, const cli_ext_signer *me, sc_nip17_received *msg,
                         cli_buf *arena, size_t *used, const char *json, size_t len)
{
    size_t need = sc_nip17_receive_arena_max(len);
    sc_signer_op op;
    sc_status st;

    *used = 0;
    arena->len = 0; /* need 0: no bound exists, and the call says why */
    if (cli_buf_reserve(arena, need > 0 ? need : 1) != CLI_OK) {
        return SC_ERR_NOMEM;
    }
    st = sc_nip17_receive_start(ctx, &op, msg, arena->p, arena->cap, used, json, len, me->signer,
                                -1);
    if (st == SC_OK) {
        st = me->drive(me->user, &op);
    }
    sc_signer_op_clear(&op);
    return st;
}
