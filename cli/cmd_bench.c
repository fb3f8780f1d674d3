/* softchat bench / audit: the benchmark harness (bench/), compiled in when
 * SOFTCHAT_BUILD_BENCH is on. */
#include "cli.h"

#if defined(SOFTCHAT_WITH_BENCH)
#include "bench.h"

int cmd_bench(const cli_globals *g, int argc, char **argv)
{
    return bench_command(g->backend, argc, argv);
}

int cmd_audit(const cli_globals *g, int argc, char **argv)
{
    return audit_command(g->backend, argc, argv);
}
#else
int cmd_bench(const cli_globals *g, int argc, char **argv)
{
    (void)g;
    (void)argc;
    (void)argv;
    return cli_fail(CLI_ERROR, "this build has no benchmark harness (SOFTCHAT_BUILD_BENCH=OFF)");
}

int cmd_audit(const cli_globals *g, int argc, char **argv)
{
    return cmd_bench(g, argc, argv);
}
#endif
