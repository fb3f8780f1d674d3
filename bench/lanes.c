/* See lanes.h. */
#define _POSIX_C_SOURCE 200809L
#include "lanes.h"

#include <string.h>

#include "bench.h"

#ifndef SOFTCHAT_BENCH_PEERS
#define SOFTCHAT_BENCH_PEERS "bench/peers"
#endif

/* Fills lane from a lane line; its words are kept in the lane's store. Returns 0 or -1. */
static int parse(bench_lane *lane, const char *line)
{
    size_t used = 0, k = 0, len = strcspn(line, "\r\n"), n;
    const char *p = line, *end = line + len, *tab = memchr(line, '\t', len);

    memset(lane, 0, sizeof *lane);
    if (tab == NULL || tab == p || (size_t)(tab - p) >= sizeof lane->label) {
        return -1;
    }
    memcpy(lane->label, p, (size_t)(tab - p));
    for (p = tab + 1; p < end; p += n + (tab != NULL)) {
        tab = memchr(p, '\t', (size_t)(end - p));
        n = tab != NULL ? (size_t)(tab - p) : (size_t)(end - p);
        if (k + 1 >= sizeof lane->argv / sizeof lane->argv[0] ||
            n + 1 > sizeof lane->store - used) {
            return -1;
        }
        lane->argv[k++] = memcpy(lane->store + used, p, n);
        lane->store[used + n] = '\0';
        used += n + 1;
    }
    return k > 0 ? 0 : -1;
}

int bench_lanes_read(FILE *f, bench_lane *lanes, size_t cap, size_t *n)
{
    char line[4096];

    while (fgets(line, sizeof line, f) != NULL) {
        if (line[0] == '\n' || line[0] == '#') {
            continue;
        }
        if (*n >= cap || parse(&lanes[*n], line) != 0) {
            return -1;
        }
        (*n)++;
    }
    return 0;
}

/* The lane of BUILD_DIR/bench/softchat-bench worker BACKEND op. Returns 0 or -1 (printed). */
static int build_lane(const char *dir, const char *backend, bench_lane *lane)
{
    char cmd[4200], out[512] = "", line[8600];
    const char *v;
    FILE *p;

    snprintf(cmd, sizeof cmd, "'%.4096s/bench/softchat-bench' --version", dir);
    p = strchr(dir, '\'') == NULL ? popen(cmd, "r") : NULL;
    if (p == NULL || fgets(out, sizeof out, p) == NULL) {
        if (p != NULL) {
            pclose(p);
        }
        bench_fail("--secp-build: %s/bench/softchat-bench --version failed", dir);
        return -1;
    }
    pclose(p);
    /* "softchat-bench 1.1.0 (libsecp256k1 0.4.1)" */
    v = strstr(out, "(libsecp256k1 ");
    snprintf(line, sizeof line,
             "%s@libsecp256k1-%.*s\t%.4096s/bench/softchat-bench\tworker\t%s\top", backend,
             v != NULL ? (int)strcspn(v + 14, " )\n") : 7, v != NULL ? v + 14 : "unknown", dir,
             backend);
    if (parse(lane, line) != 0) {
        bench_fail("--secp-build: path too long");
        return -1;
    }
    return 0;
}

/* The lanes bench/peers/NAME/run.sh --prepare prints, after lanes[0..*n). Returns 0 or -1. */
static int peer_lanes(const char *name, bench_lane *lanes, size_t cap, size_t *n)
{
    char cmd[1024];
    size_t before = *n;
    FILE *p = NULL;
    int rc = -1;

    if (strlen(name) <= 24 && strchr(name, '/') == NULL && strchr(name, '\'') == NULL) {
        snprintf(cmd, sizeof cmd, "'%s/%s/run.sh' --prepare /dev/null", SOFTCHAT_BENCH_PEERS, name);
        p = popen(cmd, "r");
    }
    if (p != NULL) {
        rc = bench_lanes_read(p, lanes, cap, n);
        rc = (pclose(p) == 0 && rc == 0 && *n > before) ? 0 : -1;
    }
    if (rc != 0) {
        bench_fail("peer %s: could not be installed or run (bench/peers/%s/run.sh --prepare; its "
                   "messages are above)",
                   name, name);
    }
    return rc;
}

long bench_lanes_pick(const char *secp_build, const char *peers, const char *file,
                      const char *backend, bench_lane *lanes, size_t cap)
{
    char list[512], *name, *save = NULL;
    size_t n = 0;
    FILE *f;
    int rc;

    if (secp_build != NULL && build_lane(secp_build, backend, &lanes[n++]) != 0) {
        return -1;
    }
    snprintf(list, sizeof list, "%s", peers != NULL ? peers : "");
    for (name = strtok_r(list, ",", &save); name != NULL; name = strtok_r(NULL, ",", &save)) {
        if (peer_lanes(name, lanes, cap, &n) != 0) {
            return -1;
        }
    }
    if (file != NULL) {
        f = fopen(file, "r");
        rc = f != NULL ? bench_lanes_read(f, lanes, cap, &n) : -1;
        if (f == NULL || fclose(f) != 0 || rc != 0) {
            bench_fail("--lanes: cannot read %s, a bad lane in it, or more than %zu lanes", file,
                       cap);
            return -1;
        }
    }
    return (long)n;
}
