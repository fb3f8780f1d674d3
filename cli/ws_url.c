/* The parts of the CLI's WebSocket client that do not depend on the transport: URLs and the
 * clock (cli/ws.c is the transport over libwebsockets, cli/ws_none.c the build without). */
#include "ws.h"

#include <string.h>
#include <time.h>

int64_t cli_ws_now_ms(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

int64_t cli_ws_wall_ms(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_REALTIME, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

int cli_ws_parse_url(const char *url, int *secure, char *host, size_t host_cap, int *port,
                     char *path, size_t path_cap)
{
    const char *p, *h, *e;
    size_t n;
    long v = 0;

    if (strncmp(url, "ws://", 5) == 0) {
        *secure = 0;
        p = url + 5;
    } else if (strncmp(url, "wss://", 6) == 0) {
        *secure = 1;
        p = url + 6;
    } else {
        return -1;
    }
    h = p;
    while (*p != '\0' && *p != ':' && *p != '/' && *p != '?') {
        p++;
    }
    n = (size_t)(p - h);
    if (n == 0 || n >= host_cap) {
        return -1;
    }
    memcpy(host, h, n);
    host[n] = '\0';
    *port = *secure ? 443 : 80;
    if (*p == ':') {
        p++;
        e = p;
        while (*p >= '0' && *p <= '9' && p - e < 6) {
            v = v * 10 + (*p - '0');
            p++;
        }
        if (p == e || v < 1 || v > 65535 || (*p != '\0' && *p != '/' && *p != '?')) {
            return -1;
        }
        *port = (int)v;
    }
    if (*p == '\0') {
        p = "/";
    }
    if (strlen(p) >= path_cap) {
        return -1;
    }
    strcpy(path, p);
    return 0;
}
