/* The CLI's WebSocket client in a build without a transport (SOFTCHAT_CLI_RELAY=OFF: the
 * cross builds, for which libwebsockets is not built). The relay commands parse their
 * arguments as usual and then fail to connect, with this reason; nothing else changes. */
#include "ws.h"

#include <stdlib.h>

struct cli_ws {
    int unused;
};

static const char no_transport[] =
    "this softchat was built without a WebSocket transport (SOFTCHAT_CLI_RELAY=OFF, no "
    "libwebsockets)";

cli_ws *cli_ws_new(cli_ws_limit_fn limit)
{
    (void)limit;
    return calloc(1, sizeof(cli_ws));
}

unsigned long cli_ws_dropped(const cli_ws *w)
{
    (void)w;
    return 0;
}

void cli_ws_free(cli_ws *w)
{
    free(w);
}

int cli_ws_connect(cli_ws *w, const char *url, const char *ca_file)
{
    (void)w;
    (void)url;
    (void)ca_file;
    return -1;
}

int cli_ws_state(const cli_ws *w)
{
    (void)w;
    return CLI_WS_CLOSED;
}

const char *cli_ws_error(const cli_ws *w)
{
    (void)w;
    return no_transport;
}

int cli_ws_permanent(const cli_ws *w)
{
    (void)w;
    return 1;
}

int cli_ws_send(cli_ws *w, const char *text, size_t len)
{
    (void)w;
    (void)text;
    (void)len;
    return 0; /* nothing is ever sent: the connection never opens */
}

size_t cli_ws_pending_out(const cli_ws *w)
{
    (void)w;
    return 0;
}

uint64_t cli_ws_queued(const cli_ws *w)
{
    (void)w;
    return 0;
}

uint64_t cli_ws_written(const cli_ws *w)
{
    (void)w;
    return 0;
}

void cli_ws_service(cli_ws *w, int timeout_ms)
{
    (void)w;
    (void)timeout_ms;
}

int cli_ws_take(cli_ws *w, cli_buf *into)
{
    (void)w;
    (void)into;
    return 0;
}

void cli_ws_close(cli_ws *w)
{
    (void)w;
}
