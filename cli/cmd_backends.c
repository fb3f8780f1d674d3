/* softchat backends: each compiled backend (default first), the library behind each group,
 * and the capabilities it has or lacks on this machine, with the reason. */
#include "cli.h"

#include <string.h>

static void print_backend(const sc_backend *b, int is_default)
{
    unsigned g, c;

    printf("%s%s\n  library: %s\n", b->name, is_default ? " (default)" : "", b->lib_version());
    for (g = 0; g < SC_GROUP_COUNT; g++) {
        const char *lib = sc_backend_group_lib(b, (sc_group)g);
        printf("  %-7s %s%s%s\n", sc_backend_group_name((sc_group)g), lib != NULL ? lib : "-",
               (lib != NULL && g == SC_GROUP_CURVE) ? " " : "",
               (lib != NULL && g == SC_GROUP_CURVE) ? sc_version_secp256k1() : "");
    }
    for (c = 0; c < SC_CAP_COUNT; c++) {
        const char *why = NULL;
        sc_status st = sc_backend_has(b, (sc_cap)c, &why);
        if (st == SC_OK) {
            printf("  + %s\n", sc_backend_cap_name((sc_cap)c));
        } else {
            printf("  - %s: %s\n", sc_backend_cap_name((sc_cap)c),
                   why != NULL ? why : sc_status_str(st));
        }
    }
}

static const char usage[] =
    "usage: softchat backends [--backend NAME]\n"
    "\n"
    "Lists each compiled backend (the default first), the library behind each primitive group\n"
    "and the capabilities it has or lacks on this machine, with the reason.\n";

int cmd_backends(const cli_globals *g, int argc, char **argv)
{
    size_t i, n = sc_backend_count(), n_pos = 0;
    int rc = cli_parse_args(usage, argc - 1, argv + 1, NULL, 0, NULL, 0, &n_pos);

    if (rc != CLI_OK) {
        return rc == CLI_HELP ? CLI_OK : rc;
    }
    if (g->backend != NULL) {
        const sc_backend *b = sc_backend_find(g->backend);
        if (b == NULL) {
            return cli_fail(CLI_ERROR, "no backend named '%s' in this build", g->backend);
        }
        print_backend(b, b == sc_backend_default());
        return CLI_OK;
    }
    for (i = 0; i < n; i++) {
        print_backend(sc_backend_at(i), i == 0);
    }
    return CLI_OK;
}
