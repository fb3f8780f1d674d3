/* softchat selftest: runs each group's known-answer check on one backend (--backend) or on
 * every compiled backend. A failed check is an environment error (exit 2). */
#include "cli.h"

static int selftest_one(const char *name)
{
    sc_ctx ctx;
    sc_status st;
    unsigned g;
    int failed = 0;

    st = sc_ctx_init(&ctx, name);
    if (st != SC_OK) {
        printf("%s: context refused: %s (%s)\n", name, sc_status_str(st), sc_status_name(st));
        return 1;
    }
    printf("%s:", name);
    for (g = 0; g < SC_GROUP_COUNT; g++) {
        st = sc_ctx_selftest(&ctx, (sc_group)g);
        if (st == SC_OK) {
            printf(" %s ok", sc_backend_group_name((sc_group)g));
        } else if (st == SC_ERR_UNSUPPORTED) {
            printf(" %s unsupported", sc_backend_group_name((sc_group)g));
        } else {
            printf(" %s FAILED (%s)", sc_backend_group_name((sc_group)g), sc_status_name(st));
            failed = 1;
        }
    }
    printf("\n");
    sc_ctx_clear(&ctx);
    return failed;
}

static const char usage[] =
    "usage: softchat selftest [--backend NAME]\n"
    "\n"
    "Runs each primitive group's known-answer check on one backend (--backend) or on every\n"
    "compiled backend. A failed check is an environment error (exit 2).\n";

int cmd_selftest(const cli_globals *g, int argc, char **argv)
{
    size_t i, n_pos = 0;
    int failed = 0;
    int rc = cli_parse_args(usage, argc - 1, argv + 1, NULL, 0, NULL, 0, &n_pos);

    if (rc != CLI_OK) {
        return rc == CLI_HELP ? CLI_OK : rc;
    }
    if (g->backend != NULL) {
        if (sc_backend_find(g->backend) == NULL) {
            return cli_fail(CLI_ERROR, "no backend named '%s' in this build", g->backend);
        }
        failed = selftest_one(g->backend);
    } else {
        for (i = 0; i < sc_backend_count(); i++) {
            failed |= selftest_one(sc_backend_at(i)->name);
        }
    }
    if (failed) {
        fflush(stdout);
        return cli_fail(CLI_ERROR, "self-test failed");
    }
    return CLI_OK;
}
