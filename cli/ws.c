/* The CLI's WebSocket client: one connection at a time over libwebsockets (Debian's
 * libwebsockets, no framing of our own), driven by short lws_service() turns so the relay
 * commands can run their sans-IO session loop with their own deadlines. Text frames are
 * reassembled from fragments into a queue; sends are queued and written when lws says the
 * socket is writeable. */
#include "ws.h"

#include <libwebsockets.h>
#include <openssl/ssl.h>  /* lws's TLS on Debian: the client context is made here */
#include <openssl/x509.h> /* the reason a certificate was refused */

#include <stdlib.h>
#include <string.h>

typedef struct ws_msg {
    struct ws_msg *next;
    size_t len;
    char text[]; /* LWS_PRE bytes of headroom before the payload */
} ws_msg;

/* A received message, its buffer handed on as it is (no copy). */
typedef struct ws_in {
    struct ws_in *next;
    cli_buf text;
} ws_in;

struct cli_ws {
    struct lws_context *ctx;
    struct lws *wsi;
    int state; /* CLI_WS_* */
    char error[160];
    int permanent; /* the failure in error is one no retry changes */
    ws_msg *out_head, *out_tail;
    size_t out_bytes;                 /* queued and not yet written */
    uint64_t out_queued, out_written; /* messages, since the connection started */
    ws_in *in_head, *in_tail;
    cli_buf frag; /* the text message being reassembled */
    size_t limit; /* frag's limit, 0 until its head tells */
    int skipping; /* the rest of the current message is discarded */
    unsigned long dropped;
    cli_ws_limit_fn limit_of;
    char host[256], path[512];
    char host_header[264];       /* host:port, or host for the scheme's default port */
    lws_sorted_usec_list_t wake; /* bounds each lws_service wait (see cli_ws_service) */
    SSL_CTX *tls;                /* the connection's client TLS context (see make_tls) */
};

static void set_error(cli_ws *w, const char *msg)
{
    if (w->error[0] == '\0') {
        snprintf(w->error, sizeof w->error, "%s", msg);
    }
}

/* Drops the send queue: a connection starts with none. */
static void free_out(cli_ws *w)
{
    while (w->out_head != NULL) {
        ws_msg *m = w->out_head;

        w->out_head = m->next;
        free(m);
    }
    w->out_tail = NULL;
    w->out_bytes = 0;
    w->out_queued = 0;
    w->out_written = 0;
}

static void free_in(cli_ws *w)
{
    while (w->in_head != NULL) {
        ws_in *m = w->in_head;

        w->in_head = m->next;
        cli_buf_free(&m->text);
        free(m);
    }
    w->in_tail = NULL;
}

/* The message being reassembled is over its limit: the rest of it is read and dropped. */
static void skip_message(cli_ws *w)
{
    w->dropped++;
    w->skipping = 1;
    cli_buf_free(&w->frag);
}

/* A piece of a received message: text messages are reassembled into the incoming queue,
 * each within the limit its first bytes give it. Returns 0, or -1 to drop the connection
 * (out of memory). */
static int on_receive(cli_ws *w, struct lws *wsi, const void *in, size_t len)
{
    int last = lws_is_final_fragment(wsi) && lws_remaining_packet_payload(wsi) == 0;
    ws_in *m;

    if (lws_frame_is_binary(wsi) || w->skipping) {
        w->skipping = w->skipping && !last; /* relays speak text */
        return 0;
    }
    if (w->limit == 0) {
        size_t n = w->frag.len + len < CLI_WS_HEAD ? w->frag.len + len : CLI_WS_HEAD;
        char head[CLI_WS_HEAD];

        if (w->frag.len > 0) {
            memcpy(head, w->frag.p, w->frag.len < n ? w->frag.len : n);
        }
        if (n > w->frag.len) {
            memcpy(head + w->frag.len, in, n - w->frag.len);
        }
        w->limit = w->limit_of(head, n);
    }
    if (w->limit != 0 && w->frag.len + len > w->limit) {
        skip_message(w);
        w->skipping = !last;
        w->limit = 0;
        return 0;
    }
    if (cli_buf_add(&w->frag, in, len) != CLI_OK) {
        return -1;
    }
    if (!last) {
        return 0;
    }
    m = calloc(1, sizeof *m);
    if (m == NULL) {
        return -1;
    }
    m->text = w->frag; /* handed on: the next message starts a buffer of its own */
    memset(&w->frag, 0, sizeof w->frag);
    w->limit = 0;
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
    w->out_bytes -= m->len;
    w->out_written++;
    free(m);
    if (w->out_head != NULL) {
        lws_callback_on_writable(wsi);
    }
    return 0;
}

/* A redirect answered the upgrade (not followed: see cli_ws_connect): says so and where. */
static void say_redirect(cli_ws *w, struct lws *wsi)
{
    unsigned int code = wsi != NULL ? lws_http_client_http_response(wsi) : 0;
    char where[128];

    if (code < 300 || code > 399) {
        return;
    }
    if (lws_hdr_copy(wsi, where, sizeof where, WSI_TOKEN_HTTP_LOCATION) <= 0) {
        snprintf(where, sizeof where, "(no Location)");
    }
    w->permanent = 1;
    snprintf(w->error, sizeof w->error,
             "the relay answered with a redirect (HTTP %u to %.80s): not followed", code, where);
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
    case LWS_CALLBACK_OPENSSL_PERFORM_SERVER_CERT_VERIFICATION:
        if (len == 0 && user != NULL && w->error[0] == '\0') { /* len: OpenSSL's verdict */
            int err = X509_STORE_CTX_get_error((X509_STORE_CTX *)user);

            /* no retry changes the relay's certificate: the commands stop at once */
            w->permanent = 1;
            snprintf(w->error, sizeof w->error, "the relay's certificate was refused: %s",
                     X509_verify_cert_error_string(err));
        }
        return 0; /* OpenSSL's verdict stands */
    case LWS_CALLBACK_CLIENT_CONNECTION_ERROR:
        say_redirect(w, wsi);
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

cli_ws *cli_ws_new(cli_ws_limit_fn limit)
{
    cli_ws *w = calloc(1, sizeof *w);

    if (w != NULL) {
        w->limit_of = limit;
        w->state = CLI_WS_CLOSED;
    }
    return w;
}

unsigned long cli_ws_dropped(const cli_ws *w)
{
    return w->dropped;
}

static void drop_context(cli_ws *w)
{
    if (w->ctx != NULL) {
        lws_sul_cancel(&w->wake);
        lws_context_destroy(w->ctx);
        w->ctx = NULL;
    }
    SSL_CTX_free(w->tls); /* after the context: lws never frees a context it was given */
    w->tls = NULL;
    w->wsi = NULL;
}

/* The client TLS context lws would make (its options; the CAs of ca_file, else the system's), made
 * here and owned by w: Debian's libwebsockets 4.1 takes a new OpenSSL ex_data index for every
 * lws context it creates and finds its own client SSL_CTX by the latest one when it destroys
 * a context, so with several connections open at once (softchat dm: one per relay) it lost
 * every SSL_CTX but the newest's (700 KB with the system's CAs). A plain ws:// connection
 * gets an empty one (lws makes one either way). 0, or -1 (said in w->error). */
static int make_tls(cli_ws *w, int secure, const char *ca_file)
{
    w->tls = SSL_CTX_new(TLS_client_method());
    if (w->tls == NULL) {
        set_error(w, "cannot create the TLS context");
        return -1;
    }
    SSL_CTX_set_options(w->tls, SSL_OP_NO_COMPRESSION | SSL_OP_CIPHER_SERVER_PREFERENCE);
    SSL_CTX_set_mode(w->tls, SSL_MODE_ACCEPT_MOVING_WRITE_BUFFER | SSL_MODE_RELEASE_BUFFERS);
    /* ca_file instead of the system's store, as the relay commands say (lws loaded both) */
    if (secure && ca_file == NULL && SSL_CTX_set_default_verify_paths(w->tls) != 1) {
        set_error(w, "cannot load the system's CA certificates");
        return -1;
    }
    if (secure && ca_file != NULL && SSL_CTX_load_verify_locations(w->tls, ca_file, NULL) != 1) {
        set_error(w, "cannot load the CA certificates of --ca-file");
        return -1;
    }
    return 0;
}

int cli_ws_connect(cli_ws *w, const char *url, const char *ca_file)
{
    struct lws_context_creation_info info;
    struct lws_client_connect_info cc;
    int secure = 0, port = 0;

    drop_context(w);
    free_out(w);
    cli_buf_free(&w->frag);
    w->limit = 0;
    w->skipping = 0;
    w->error[0] = '\0';
    w->permanent = 0;
    if (cli_ws_parse_url(url, &secure, w->host, sizeof w->host, &port, w->path, sizeof w->path) !=
        0) {
        set_error(w, "not a ws:// or wss:// URL");
        return -1;
    }
    if (make_tls(w, secure, ca_file) != 0) {
        return -1;
    }
    lws_set_log_level(0, NULL);
    memset(&info, 0, sizeof info);
    info.port = CONTEXT_PORT_NO_LISTEN;
    info.protocols = protocols;
    info.options = LWS_SERVER_OPTION_DO_SSL_GLOBAL_INIT;
    info.provided_client_ssl_ctx = w->tls; /* the CAs: the system's, and ca_file's if given */
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
    /* the Host header names the port unless it is the scheme's default (RFC 9110 7.2); lws
     * takes the name for TLS (SNI, the certificate check) from it without the port */
    if (port == (secure ? 443 : 80)) {
        snprintf(w->host_header, sizeof w->host_header, "%s", w->host);
    } else {
        snprintf(w->host_header, sizeof w->host_header, "%s:%d", w->host, port);
    }
    cc.host = w->host_header;
    cc.origin = w->host_header;
    /* a redirect is not followed: it could lead anywhere (another host, another port), and
     * the AUTH event would still name the URL given */
    cc.ssl_connection = (secure ? LCCSCF_USE_SSL : 0) | LCCSCF_HTTP_NO_FOLLOW_REDIRECT;
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

int cli_ws_permanent(const cli_ws *w)
{
    return w->permanent;
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
    w->out_bytes += len;
    w->out_queued++;
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
    ws_in *m = w->in_head;

    if (m == NULL) {
        return 0;
    }
    w->in_head = m->next;
    if (w->in_head == NULL) {
        w->in_tail = NULL;
    }
    cli_buf_free(into);
    *into = m->text;
    free(m);
    return 1;
}

size_t cli_ws_pending_out(const cli_ws *w)
{
    return w->out_bytes;
}

uint64_t cli_ws_queued(const cli_ws *w)
{
    return w->out_queued;
}

uint64_t cli_ws_written(const cli_ws *w)
{
    return w->out_written;
}

void cli_ws_close(cli_ws *w)
{
    drop_context(w);
    free_out(w);
    free_in(w);
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
