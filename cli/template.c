/* Event templates on stdin, shared by event sign and nip59 wrap: the fields a person writes
 * (kind, content, optionally tags and created_at), checked against the key that will own
 * the event; and an event signed by a local key or an external signer (cli_event_sign). */
#include "cli.h"

#include <string.h>

int cli_parse_template(sc_event *ev, cli_buf *arena, const unsigned char *in, size_t n,
                       const uint8_t pub[SC_PUBKEY_BYTES])
{
    sc_event_parse_opts opts;
    size_t need, used = 0;
    sc_status st;

    memset(ev, 0, sizeof *ev);
    if (n > CLI_TEMPLATE_MAX) {
        return cli_fail_status(SC_ERR_TOO_LARGE, "invalid event template: larger than %u bytes",
                               CLI_TEMPLATE_MAX);
    }
    need = sc_event_parse_arena_max(n);
    arena->len = 0;
    if (cli_buf_reserve(arena, need > 0 ? need : 1) != CLI_OK) {
        return CLI_ERROR;
    }
    memset(&opts, 0, sizeof opts);
    opts.max_input = CLI_TEMPLATE_MAX;
    opts.optional = SC_EVENT_HAS_ALL & ~(unsigned)(SC_EVENT_HAS_KIND | SC_EVENT_HAS_CONTENT);
    st = sc_event_parse(ev, arena->p, arena->cap, &used, (const char *)in, n, &opts);
    if (st != SC_OK) {
        return cli_fail_status(st, "invalid event template");
    }
    arena->len = used;
    if ((ev->flags & SC_EVENT_HAS_PUBKEY) != 0 && memcmp(ev->pubkey, pub, SC_PUBKEY_BYTES) != 0) {
        memset(ev, 0, sizeof *ev);
        return cli_fail(CLI_INVALID, "invalid event template: its pubkey is not the public key "
                                     "of the signing key");
    }
    if ((ev->flags & SC_EVENT_HAS_CREATED_AT) == 0) {
        if (cli_now(&ev->created_at) != CLI_OK) {
            memset(ev, 0, sizeof *ev);
            return CLI_ERROR;
        }
    }
    memcpy(ev->pubkey, pub, SC_PUBKEY_BYTES);
    ev->flags |= SC_EVENT_HAS_PUBKEY | SC_EVENT_HAS_CREATED_AT;
    return CLI_OK;
}

sc_status cli_event_sign(sc_ctx *ctx, sc_event *ev, const sc_identity *id,
                         const cli_ext_signer *ext)
{
    sc_signer_op op;
    sc_status st;

    if (ext == NULL) {
        return sc_event_sign(ctx, ev, id);
    }
    st = sc_event_sign_start(ctx, &op, ev, ext->signer);
    if (st == SC_OK) {
        st = ext->drive(ext->user, &op);
    }
    sc_signer_op_clear(&op);
    return st;
}
