/* softchat-bench: the benchmark harness of libsoftchat (docs/benchmarks.md): it measures and
 * records; the audit around it (builds, suites, peers, report) is scripts/audit.
 *
 * A development tool, kept out of the softchat CLI: its counting allocator (alloc_count.c)
 * replaces malloc and free for the whole process, and the runner spawns this executable once
 * per measurement. It is installed only with SOFTCHAT_INSTALL_BENCH. */
#include <softchat/softchat.h>

#include <stdio.h>
#include <string.h>

#include "bench.h"

typedef struct bench_command {
    const char *name;
    int (*run)(int argc, char **argv);
} bench_command;

static const bench_command commands[] = {
    {"run", bench_cmd_run},
    {"compare", bench_cmd_compare},
    {"worker", bench_cmd_worker}, /* internal: spawned by the runner */
};

static const char usage[] =
    "usage: softchat-bench COMMAND [ARGS]\n"
    "\n"
    "The benchmark harness of libsoftchat (docs/benchmarks.md): a development tool, separate\n"
    "from the softchat CLI and not installed by default. It measures and records; the audit\n"
    "(builds, suites, peers, the report) is scripts/run.sh.\n"
    "\n"
    "commands:\n"
    "  softchat-bench run [--backend NAME|all] [--only OP[,OP...]] [--runs N] [--json FILE]\n"
    "                     [--quick] [--no-floors] [--peers NAME[,NAME...]] [--secp-build DIR]\n"
    "                     [--lanes FILE] [--clock wall|cpu]\n"
    "  softchat-bench compare BASE.json CURRENT.json [--variation RUNS.json] [--no-retry]\n"
    "                         [--footprint BASE.tsv CURRENT.tsv]\n"
    "\n"
    "\"softchat-bench COMMAND --help\" describes a command; \"softchat-bench --version\" names "
    "the\n"
    "libsecp256k1 release and the backends (the default first).\n"
    "\n"
    "exit status: 0 success, 1 a confirmed regression (compare), 2 usage or environment error\n";

int main(int argc, char **argv)
{
    size_t i;

    if (argc < 2) {
        fputs(usage, stderr);
        return 2;
    }
    if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0 ||
        strcmp(argv[1], "help") == 0) {
        fputs(usage, stdout);
        return 0;
    }
    if (strcmp(argv[1], "--version") == 0) { /* then the backends, the default first */
        printf("softchat-bench %s (libsecp256k1 %s)\nbackends:", sc_version(),
               sc_version_secp256k1());
        for (i = 0; i < sc_backend_count(); i++) {
            printf(" %s", sc_backend_at(i)->name);
        }
        putchar('\n');
        return 0;
    }
    for (i = 0; i < sizeof commands / sizeof commands[0]; i++) {
        if (strcmp(commands[i].name, argv[1]) == 0) {
            return commands[i].run(argc - 1, argv + 1);
        }
    }
    bench_fail("unknown command '%s'", argv[1]);
    fputs(usage, stderr);
    return 2;
}
