/* Shared CLI helpers: error reporting, option handling, context setup. */
#include "cli.h"

#include <stdarg.h>
#include <string.h>

int cli_fail(int status, const char *fmt, ...)
{
    va_list ap;

    fputs("softchat: ", stderr);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    return status;
}

int cli_ctx_init(sc_ctx *ctx, const cli_globals *g)
{
    sc_status st = sc_ctx_init(ctx, g->backend);

    if (st == SC_ERR_NOT_FOUND) {
        return cli_fail(CLI_ERROR, "no backend named '%s' in this build (see: softchat backends)",
                        g->backend);
    }
    if (st != SC_OK) {
        return cli_fail(CLI_ERROR, "cannot initialise backend '%s': %s (%s)",
                        g->backend ? g->backend : sc_backend_default()->name, sc_status_str(st),
                        sc_status_name(st));
    }
    return CLI_OK;
}

int cli_take_backend(cli_globals *g, int argc, char **argv)
{
    int i, out = 0;

    for (i = 0; i < argc; i++) {
        if (strcmp(argv[i], "--backend") == 0) {
            if (i + 1 >= argc) {
                cli_fail(CLI_ERROR, "--backend needs a name");
                return -1;
            }
            g->backend = argv[++i];
        } else if (strncmp(argv[i], "--backend=", 10) == 0) {
            g->backend = argv[i] + 10;
        } else {
            argv[out++] = argv[i];
        }
    }
    argv[out] = NULL;
    return out;
}
