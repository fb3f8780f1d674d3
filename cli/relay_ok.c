/* Relay answers off NIP-01 that the relay commands take without losing what they say: an OK
 * whose id is no event id. PyPI nostr-relay sends ["OK","",false,"invalid: ... too old"] for
 * an event it refused before reading the event's id; the strict parser refuses the message,
 * and with it the relay's reason. */
#include "relay_client.h"

#include <string.h>

static size_t skip_ws(const unsigned char *s, size_t n, size_t i)
{
    while (i < n && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\r')) {
        i++;
    }
    return i;
}

static int is_event_id(const unsigned char *s, size_t n)
{
    size_t i;

    if (n != 2 * SC_EVENT_ID_BYTES) {
        return 0;
    }
    for (i = 0; i < n; i++) {
        if (!((s[i] >= '0' && s[i] <= '9') || (s[i] >= 'a' && s[i] <= 'f'))) {
            return 0;
        }
    }
    return 1;
}

int cli_relay_unnamed_ok(const unsigned char *text, size_t n, cli_buf *out)
{
    static const char zeros[2 * SC_EVENT_ID_BYTES + 1] =
        "0000000000000000000000000000000000000000000000000000000000000000";
    size_t i = skip_ws(text, n, 0), at, end;

    if (i >= n || text[i] != '[') {
        return 0;
    }
    i = skip_ws(text, n, i + 1);
    if (n - i < 4 || memcmp(text + i, "\"OK\"", 4) != 0) {
        return 0;
    }
    i = skip_ws(text, n, i + 4);
    if (i >= n || text[i] != ',') {
        return 0;
    }
    i = skip_ws(text, n, i + 1);
    if (i >= n || text[i] != '"') {
        return 0;
    }
    at = i + 1; /* the id string's contents: to its closing quote, past escapes */
    for (end = at; end < n && text[end] != '"'; end++) {
        end += text[end] == '\\';
    }
    if (end >= n || is_event_id(text + at, end - at)) {
        return 0; /* not an OK, or its id is fine and something else is wrong */
    }
    out->len = 0;
    if (cli_buf_add(out, text, at) != CLI_OK ||
        cli_buf_add(out, zeros, sizeof zeros - 1) != CLI_OK ||
        cli_buf_add(out, text + end, n - end) != CLI_OK) {
        return -1;
    }
    return 1;
}
