/* The CLI's WebSocket client: one connection at a time over libwebsockets (Debian's
 * libwebsockets, no framing of our own), driven by short lws_service() turns so the relay
 * commands can run their sans-IO session loop with their own deadlines. Text frames are
 * reassembled from fragments into a queue; sends are queued and written when lws says the
 * socket is writeable. */
#include "ws.h"

#include <libwebsockets.h>

#include <stdlib.h>
#include <string.h>

typedef struct ws_msg {
    struct ws_msg *next;
    size_t len;
    char text[]; /* LWS_PRE bytes of headroom before the payload when sending */
} ws_msg;

struct cli_ws {
    struct lws_context *ctx;
    struct lws *wsi;
    int state; /* CLI_WS_* */
    char error[160];
    ws_msg *out_head, *out_tail;
    ws_msg *in_head, *in_tail;
    cli_buf frag; /* the text frame being reassembled */
    size_t max_message;
    char host[256], path[512];
    lws_sorted_usec_list_t wake; /* bounds each lws_service wait (see cli_ws_service) */
};

static void set_error(cli_ws *w, const char *msg)
{
    if (w->error[0] == '\0') {
        snprintf(w->error, sizeof w->error, "%s", msg);
    }
}

static void free_list(ws_msg **head, ws_msg **tail)
{
    while (*head != NULL) {
        ws_msg *m = *head;

        *head = m->next;
        free(m);
    }
    *tail = NULL;
}

/* A piece of a received frame: text frames are reassembled into the incoming queue. Returns
 * 0, or -1 to drop the connection (over the size limit, out of memory). */
static int on_receive(cli_ws *w, struct lws *wsi, const void *in, size_t len)
{
    ws_msg *m;

    if (lws_frame_is_binary(wsi)) {
        return 0; /* relays speak text */
    }
    if (w->frag.len + len > w->max_message) {
        set_error(w, "a message from the relay is over the size limit");
        w->frag.len = 0;
        return -1;
    }
    if (cli_buf_add(&w->frag, in, len) != CLI_OK) {
        return -1;
    }
    if (!lws_is_final_fragment(wsi) || lws_remaining_packet_payload(wsi) != 0) {
        return 0;
    }
    m = malloc(sizeof *m + w->frag.len + 1);
    if (m == NULL) {
        return -1;
    }
    m->next = NULL;
    m->len = w->frag.len;
    if (w->frag.len > 0) {
        memcpy(m->text, w->frag.p, w->frag.len);
    }
    m->text[m->len] = '\0';
    w->frag.len = 0;
    if (w->in_tail != NULL) {
        w->in_tail->next = m;
    } else {
        w->in_head = m;
    }
    w->in_tail = m;
    return 0;
}

/* The socket takes more: the oldest queued send is written. 0, or -1 on a failed write. */
static int on_writeable(cli_ws *w, struct lws *wsi)
{
    ws_msg *m = w->out_head;
    int n;

    if (m == NULL) {
        return 0;
    }
    n = lws_write(wsi, (unsigned char *)m->text + LWS_PRE, m->len, LWS_WRITE_TEXT);
    if (n < (int)m->len) {
        set_error(w, "write to the relay failed");
        return -1;
    }
    w->out_head = m->next;
    if (w->out_head == NULL) {
        w->out_tail = NULL;
    }
    free(m);
    if (w->out_head != NULL) {
        lws_callback_on_writable(wsi);
    }
    return 0;
}

static int callback(struct lws *wsi, enum lws_callback_reasons reason, void *user, void *in,
                    size_t len)
{
    cli_ws *w = (cli_ws *)lws_context_user(lws_get_context(wsi));

    (void)user;
    if (w == NULL) {
        return 0;
    }
    switch (reason) {
    case LWS_CALLBACK_CLIENT_ESTABLISHED:
        w->state = CLI_WS_OPEN;
        if (w->out_head != NULL) {
            lws_callback_on_writable(wsi);
        }
        break;
    case LWS_CALLBACK_CLIENT_CONNECTION_ERROR:
        set_error(w, in != NULL ? (const char *)in : "connection failed");
        w->state = CLI_WS_CLOSED;
        w->wsi = NULL;
        break;
    case LWS_CALLBACK_CLIENT_RECEIVE:
        return on_receive(w, wsi, in, len);
    case LWS_CALLBACK_CLIENT_WRITEABLE:
        return on_writeable(w, wsi);
    case LWS_CALLBACK_CLIENT_CLOSED:
        set_error(w, "the relay closed the connection");
        w->state = CLI_WS_CLOSED;
        w->wsi = NULL;
        break;
    case LWS_CALLBACK_WSI_DESTROY:
        if (w->state != CLI_WS_CLOSED) {
            set_error(w, "the connection ended");
            w->state = CLI_WS_CLOSED;
        }
        w->wsi = NULL;
        break;
    default:
        break;
    }
    return 0;
}

static const struct lws_protocols protocols[] = {
    {"softchat-relay", callback, 0, 65536, 0, NULL, 0},
    {NULL, NULL, 0, 0, 0, NULL, 0},
};

cli_ws *cli_ws_new(size_t max_message)
{
    cli_ws *w = calloc(1, sizeof *w);

    if (w != NULL) {
        w->max_message = max_message;
        w->state = CLI_WS_CLOSED;
    }
    return w;
}

static void drop_context(cli_ws *w)
{
    if (w->ctx != NULL) {
        lws_sul_cancel(&w->wake);
        lws_context_destroy(w->ctx);
        w->ctx = NULL;
    }
    w->wsi = NULL;
}

int cli_ws_connect(cli_ws *w, const char *url)
{
    struct lws_context_creation_info info;
    struct lws_client_connect_info cc;
    int secure = 0, port = 0;

    drop_context(w);
    free_list(&w->out_head, &w->out_tail);
    w->frag.len = 0;
    w->error[0] = '\0';
    if (cli_ws_parse_url(url, &secure, w->host, sizeof w->host, &port, w->path, sizeof w->path) !=
        0) {
        set_error(w, "not a ws:// or wss:// URL");
        return -1;
    }
    lws_set_log_level(0, NULL);
    memset(&info, 0, sizeof info);
    info.port = CONTEXT_PORT_NO_LISTEN;
    info.protocols = protocols;
    info.options = LWS_SERVER_OPTION_DO_SSL_GLOBAL_INIT;
    info.user = w;
    info.gid = -1;
    info.uid = -1;
    w->ctx = lws_create_context(&info);
    if (w->ctx == NULL) {
        set_error(w, "cannot create the WebSocket context");
        return -1;
    }
    memset(&cc, 0, sizeof cc);
    cc.context = w->ctx;
    cc.address = w->host;
    cc.port = port;
    cc.path = w->path;
    cc.host = w->host;
    cc.origin = w->host;
    cc.ssl_connection = secure ? LCCSCF_USE_SSL : 0;
    cc.protocol = NULL;
    cc.pwsi = &w->wsi;
    w->state = CLI_WS_CONNECTING;
    if (lws_client_connect_via_info(&cc) == NULL) {
        set_error(w, "cannot start the connection");
        w->state = CLI_WS_CLOSED;
        return -1;
    }
    return 0;
}

int cli_ws_state(const cli_ws *w)
{
    return w->state;
}

const char *cli_ws_error(const cli_ws *w)
{
    return w->error[0] != '\0' ? w->error : "connection closed";
}

int cli_ws_send(cli_ws *w, const char *text, size_t len)
{
    ws_msg *m = malloc(sizeof *m + LWS_PRE + len);

    if (m == NULL) {
        return -1;
    }
    m->next = NULL;
    m->len = len;
    memcpy(m->text + LWS_PRE, text, len);
    if (w->out_tail != NULL) {
        w->out_tail->next = m;
    } else {
        w->out_head = m;
    }
    w->out_tail = m;
    if (w->wsi != NULL && w->state == CLI_WS_OPEN) {
        lws_callback_on_writable(w->wsi);
    }
    return 0;
}

static void wake_up(lws_sorted_usec_list_t *sul)
{
    (void)sul; /* nothing to do: being called ends the wait */
}

void cli_ws_service(cli_ws *w, int timeout_ms)
{
    if (w->ctx != NULL && w->in_head == NULL) {
        /* lws_service waits until lws's next scheduled event (its timeout argument is
         * ignored since v3.2: a silent relay kept it in poll for about 30 s, past
         * --timeout); a timer of our own bounds the wait */
        lws_sul_schedule(w->ctx, 0, &w->wake, wake_up, (lws_usec_t)timeout_ms * LWS_US_PER_MS);
        lws_service(w->ctx, 0);
    }
}

int cli_ws_take(cli_ws *w, cli_buf *into)
{
    ws_msg *m = w->in_head;

    if (m == NULL) {
        return 0;
    }
    w->in_head = m->next;
    if (w->in_head == NULL) {
        w->in_tail = NULL;
    }
    into->len = 0;
    if (cli_buf_add(into, m->text, m->len) != CLI_OK) {
        free(m);
        return -1;
    }
    free(m);
    return 1;
}

int cli_ws_pending_out(const cli_ws *w)
{
    return w->out_head != NULL;
}

void cli_ws_close(cli_ws *w)
{
    drop_context(w);
    free_list(&w->out_head, &w->out_tail);
    free_list(&w->in_head, &w->in_tail);
    w->state = CLI_WS_CLOSED;
}

void cli_ws_free(cli_ws *w)
{
    if (w != NULL) {
        cli_ws_close(w);
        cli_buf_free(&w->frag);
        free(w);
    }
}
