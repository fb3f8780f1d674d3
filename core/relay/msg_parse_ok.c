/* The tolerant reading of an OK that the strict parser refuses for its event id alone. Real
 * relays answer a refused event with ["OK","",false,"invalid: ... too old"] (an empty id) or
 * with an id that is not 64 hex characters; the relay pool still wants the verdict and the
 * relay's words. Everything else about the message must be right: four elements, the label
 * "OK", a string where the id goes, true or false, a string message. */
#include <softchat/relay.h>

#include <string.h>

#include "relay/relay_internal.h"
#include "util/json_scan.h"

/* Moves past optional whitespace, then the byte c; 0 when it is not there. */
static int expect(sc_jscan *s, int c)
{
    sc_jscan_ws(s);
    if (sc_jscan_peek(s) != c) {
        return 0;
    }
    s->pos++;
    sc_jscan_ws(s);
    return 1;
}

static int literal(sc_jscan *s, const char *word)
{
    size_t n = strlen(word);

    if (s->len - s->pos < n || memcmp(s->p + s->pos, word, n) != 0) {
        return 0;
    }
    s->pos += n;
    return 1;
}

sc_status sc_relay_parse_ok_loose(sc_relay_msg *m, void *arena, size_t arena_cap, const char *json,
                                  size_t json_len)
{
    uint8_t label[3];
    size_t len = 0;
    sc_jscan s, at;

    memset(m, 0, sizeof *m);
    sc_jscan_init(&s, json, json_len);
    if (!expect(&s, '[') || sc_jscan_peek(&s) != '"' ||
        sc_jscan_string(&s, label, sizeof label, &len) != SC_OK || len != 2 ||
        memcmp(label, "OK", 2) != 0 || !expect(&s, ',') || sc_jscan_peek(&s) != '"' ||
        sc_jscan_string(&s, NULL, 0, &len) != SC_OK || !expect(&s, ',')) {
        return SC_ERR_RELAY_MESSAGE;
    }
    if (literal(&s, "true")) {
        m->accepted = 1;
    } else if (!literal(&s, "false")) {
        return SC_ERR_RELAY_MESSAGE;
    }
    if (!expect(&s, ',') || sc_jscan_peek(&s) != '"') {
        return SC_ERR_RELAY_MESSAGE;
    }
    at = s;
    if (sc_jscan_string(&s, NULL, 0, &len) != SC_OK || !expect(&s, ']') || s.pos != s.len) {
        memset(m, 0, sizeof *m);
        return SC_ERR_RELAY_MESSAGE;
    }
    if (len > arena_cap) {
        memset(m, 0, sizeof *m);
        return SC_ERR_BUFFER_TOO_SMALL;
    }
    (void)sc_jscan_string(&at, (uint8_t *)arena, arena_cap, &len);
    m->type = SC_RELAY_OK;
    m->message.ptr = len > 0 ? (const char *)arena : "";
    m->message.len = len;
    m->prefix = sc_relay_prefix_of(m->message, &m->reason);
    return SC_OK;
}
