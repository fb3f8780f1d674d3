/* A Negentropy peer over libsoftchat, for tests/negentropy/cross.py (the other peers are the
 * `negentropy` crate and nostr-tools' nip77, speaking the same line protocol):
 *   neg_peer --backend NAME --role initiator|responder --items FILE [--frame-limit N]
 * FILE: "<timestamp> <64 hex id>" per line, in any order (sorted here with
 * sc_negentropy_sort). The initiator starts with "MSG <hex>"; every "MSG <hex>" read is
 * answered with "MSG <hex>" (the initiator first prints "HAVE <hex>" / "NEED <hex>" per id
 * and "DONE" instead when reconciliation is complete). A failure prints "ERR <status>" and
 * exits 1; every message written is checked against the frame limit here too. */
#include <softchat/softchat.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void die(const char *what, sc_status st)
{
    printf("ERR %s %s\n", what, sc_status_name(st));
    fflush(stdout);
    exit(1);
}

static void *xmalloc(size_t n)
{
    void *p = malloc(n > 0 ? n : 1);

    if (p == NULL) {
        die("malloc", SC_ERR_NOMEM);
    }
    return p;
}

static void put_hex(const char *tag, const uint8_t *p, size_t n)
{
    static const char d[] = "0123456789abcdef";
    size_t i;

    fputs(tag, stdout);
    for (i = 0; i < n; i++) {
        putchar(d[p[i] >> 4]);
        putchar(d[p[i] & 15]);
    }
    putchar('\n');
}

static sc_negentropy_item *load(const char *path, size_t *n)
{
    FILE *f = fopen(path, "r");
    size_t cap = 1024, k = 0;
    sc_negentropy_item *v = xmalloc(cap * sizeof *v);
    unsigned long long ts;
    char hex[80];

    if (f == NULL) {
        die("cannot open the items file", SC_ERR_IO);
    }
    while (fscanf(f, "%llu %70s", &ts, hex) == 2) {
        size_t used = 0;

        if (k == cap) {
            cap *= 2;
            v = realloc(v, cap * sizeof *v);
            if (v == NULL) {
                die("realloc", SC_ERR_NOMEM);
            }
        }
        v[k].timestamp = ts;
        if (sc_hex_decode(v[k].id, 32, &used, hex, strlen(hex), SC_HEX_ANY_CASE) != SC_OK ||
            used != 32) {
            die("bad id in the items file", SC_ERR_ENCODING);
        }
        k++;
    }
    fclose(f);
    *n = k;
    return v;
}

int main(int argc, char **argv)
{
    const char *backend = NULL, *role = NULL, *items_path = NULL;
    size_t limit = 0, n = 0, line_cap = 1 << 16;
    sc_negentropy_item *items;
    sc_negentropy neg;
    sc_negentropy_opts opts;
    sc_ctx ctx;
    char *line;
    int initiator, i;
    sc_status st;

    for (i = 1; i + 1 < argc; i += 2) {
        if (strcmp(argv[i], "--backend") == 0) {
            backend = argv[i + 1];
        } else if (strcmp(argv[i], "--role") == 0) {
            role = argv[i + 1];
        } else if (strcmp(argv[i], "--items") == 0) {
            items_path = argv[i + 1];
        } else if (strcmp(argv[i], "--frame-limit") == 0) {
            limit = (size_t)strtoull(argv[i + 1], NULL, 10);
        } else {
            break;
        }
    }
    if (i != argc || role == NULL || items_path == NULL ||
        (strcmp(role, "initiator") != 0 && strcmp(role, "responder") != 0)) {
        fprintf(stderr, "usage: neg_peer [--backend NAME] --role initiator|responder "
                        "--items FILE [--frame-limit N]\n");
        return 2;
    }
    initiator = strcmp(role, "initiator") == 0;
    if ((st = sc_ctx_init(&ctx, backend)) != SC_OK) {
        die("sc_ctx_init", st);
    }
    items = load(items_path, &n);
    if ((st = sc_negentropy_sort(items, n)) != SC_OK) {
        die("sc_negentropy_sort", st);
    }
    memset(&opts, 0, sizeof opts);
    opts.frame_limit = limit;
    if ((st = sc_negentropy_init(&neg, items, n, &opts)) != SC_OK) {
        die("sc_negentropy_init", st);
    }
    line = xmalloc(line_cap);
    if (initiator) {
        size_t len = 0, cap = sc_negentropy_initiate_max(&neg);
        uint8_t *out = xmalloc(cap);

        if ((st = sc_negentropy_initiate(&ctx, &neg, out, cap, &len)) != SC_OK) {
            die("sc_negentropy_initiate", st);
        }
        if (limit != 0 && len > limit) {
            die("initial message over the frame limit", SC_ERR_TOO_LARGE);
        }
        put_hex("MSG ", out, len);
        fflush(stdout);
        free(out);
    }
    for (;;) {
        size_t len = 0, msg_len = 0, out_len = 0, have_len = 0, need_len = 0, out_cap, k;
        size_t have_cap = initiator ? sc_negentropy_have_max(&neg) : 0, need_cap;
        uint8_t *msg, *out, (*need)[32];
        size_t *have;
        int c;

        while ((c = getchar()) != EOF && c != '\n') {
            if (len + 1 >= line_cap) {
                line_cap *= 2;
                line = realloc(line, line_cap);
                if (line == NULL) {
                    die("realloc", SC_ERR_NOMEM);
                }
            }
            line[len++] = (char)c;
        }
        if (c == EOF && len == 0) {
            break;
        }
        if (len < 4 || memcmp(line, "MSG ", 4) != 0) {
            die("expected MSG", SC_ERR_ARG);
        }
        msg = xmalloc((len - 4) / 2);
        if ((st = sc_hex_decode(msg, (len - 4) / 2, &msg_len, line + 4, len - 4,
                                SC_HEX_LOWER_ONLY)) != SC_OK) {
            die("bad hex", st);
        }
        need_cap = initiator ? sc_negentropy_need_max(msg_len) : 0;
        out_cap = sc_negentropy_reconcile_max(&neg, msg_len);
        out = xmalloc(out_cap);
        have = xmalloc(have_cap * sizeof *have);
        need = xmalloc(need_cap * sizeof *need);
        st = sc_negentropy_reconcile(&ctx, &neg, out, out_cap, &out_len, have, have_cap, &have_len,
                                     need, need_cap, &need_len, msg, msg_len);
        if (st != SC_OK) {
            die("sc_negentropy_reconcile", st);
        }
        if (limit != 0 && out_len > limit) {
            die("message over the frame limit", SC_ERR_TOO_LARGE);
        }
        for (k = 0; k < have_len; k++) {
            put_hex("HAVE ", items[have[k]].id, 32);
        }
        for (k = 0; k < need_len; k++) {
            put_hex("NEED ", need[k], 32);
        }
        if (initiator && out_len == 0) {
            puts("DONE");
            fflush(stdout);
            free(msg);
            free(out);
            free(have);
            free(need);
            break;
        }
        put_hex("MSG ", out, out_len);
        fflush(stdout);
        free(msg);
        free(out);
        free(have);
        free(need);
    }
    free(line);
    free(items);
    sc_ctx_clear(&ctx);
    return 0;
}
