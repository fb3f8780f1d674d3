/* See lanes.h. */
#define _POSIX_C_SOURCE 200809L
#include "lanes.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#ifndef SOFTCHAT_BENCH_PEERS
#define SOFTCHAT_BENCH_PEERS "bench/peers"
#endif

/* Copies s into the lane's store; returns the copy, or NULL when the store is full. */
static char *keep(bench_lane *lane, size_t *used, const char *s, size_t n)
{
    char *at = lane->store + *used;

    if (n + 1 > sizeof lane->store - *used) {
        return NULL;
    }
    memcpy(at, s, n);
    at[n] = '\0';
    *used += n + 1;
    return at;
}

int bench_lane_parse(bench_lane *lane, const char *line)
{
    size_t used = 0, k = 0, len = strcspn(line, "\r\n");
    const char *p = line, *end = line + len, *tab;

    memset(lane, 0, sizeof *lane);
    tab = memchr(p, '\t', (size_t)(end - p));
    if (tab == NULL || tab == p || (size_t)(tab - p) >= sizeof lane->label) {
        return -1;
    }
    memcpy(lane->label, p, (size_t)(tab - p));
    p = tab + 1;
    while (p < end) {
        size_t n;
        tab = memchr(p, '\t', (size_t)(end - p));
        n = tab != NULL ? (size_t)(tab - p) : (size_t)(end - p);
        if (k + 1 >= sizeof lane->argv / sizeof lane->argv[0] ||
            (lane->argv[k++] = keep(lane, &used, p, n)) == NULL) {
            return -1;
        }
        p += n + (tab != NULL);
    }
    lane->argv[k] = NULL;
    return k > 0 ? 0 : -1;
}

/* The last non-empty line of the file at path, into buf. */
static void last_line(const char *path, char *buf, size_t cap)
{
    char line[512];
    FILE *f = fopen(path, "r");

    snprintf(buf, cap, "see the log");
    while (f != NULL && fgets(line, sizeof line, f) != NULL) {
        line[strcspn(line, "\n")] = '\0';
        if (line[0] != '\0') {
            snprintf(buf, cap, "%s", line);
        }
    }
    if (f != NULL) {
        fclose(f);
    }
}

int bench_peer_lanes(const char *name, const char *meta_path, const char *log_path,
                     bench_lane *lanes, size_t cap, size_t *n, char *why, size_t why_cap)
{
    char cmd[8192], line[4096], last[512];
    size_t got = 0;
    FILE *p;
    int status;

    if (snprintf(cmd, sizeof cmd, "'%s/%s/run.sh' --prepare '%s' 2>'%s'", SOFTCHAT_BENCH_PEERS,
                 name, meta_path, log_path) >= (int)sizeof cmd) {
        snprintf(why, why_cap, "path too long");
        return -1;
    }
    p = popen(cmd, "r");
    if (p == NULL) {
        snprintf(why, why_cap, "cannot start bench/peers/%s/run.sh", name);
        return -1;
    }
    while (fgets(line, sizeof line, p) != NULL) {
        if (*n + got < cap && bench_lane_parse(&lanes[*n + got], line) == 0) {
            got++;
        }
    }
    status = pclose(p);
    if (status != 0 || got == 0) {
        last_line(log_path, last, sizeof last);
        snprintf(why, why_cap, "could not be installed or run (%.400s; log: %.600s)", last,
                 log_path);
        return -1;
    }
    *n += got;
    return 0;
}

int bench_build_lane(const char *build_dir, const char *backend, bench_lane *lane, char *secp,
                     size_t secp_cap, char *why, size_t why_cap)
{
    char exe[4096], cmd[4200], out[512] = "", line[4200];
    const char *v;
    FILE *p;

    if (snprintf(exe, sizeof exe, "%s/bench/softchat-bench", build_dir) >= (int)sizeof exe ||
        access(exe, X_OK) != 0) {
        snprintf(why, why_cap, "%.400s/bench/softchat-bench is not there", build_dir);
        return -1;
    }
    snprintf(cmd, sizeof cmd, "'%s' --version", exe);
    p = popen(cmd, "r");
    if (p == NULL || fgets(out, sizeof out, p) == NULL) {
        if (p != NULL) {
            pclose(p);
        }
        snprintf(why, why_cap, "%.400s --version failed", exe);
        return -1;
    }
    pclose(p);
    /* "softchat-bench 0.1.0 (libsecp256k1 0.4.1 (source))" */
    v = strstr(out, "(libsecp256k1 ");
    snprintf(secp, secp_cap, "%.*s", v != NULL ? (int)strcspn(v + 14, " )\n") : 7,
             v != NULL ? v + 14 : "unknown");
    if (snprintf(line, sizeof line, "%s@libsecp256k1-%s\t%s\tworker\t%s\top", backend, secp, exe,
                 backend) >= (int)sizeof line ||
        bench_lane_parse(lane, line) != 0) {
        snprintf(why, why_cap, "lane too long");
        return -1;
    }
    return 0;
}
