/* softchat: the command-line front end of libsoftchat. */
#include "cli.h"

#include <string.h>

static const cli_command commands[] = {
    {"backends", "backends", cmd_backends},
    {"selftest", "selftest [--backend NAME]", cmd_selftest},
};

#define N_COMMANDS (sizeof commands / sizeof commands[0])

static void print_usage(FILE *f)
{
    size_t i;

    fprintf(f, "usage: softchat [--backend NAME] COMMAND [ARGS]\n\ncommands:\n");
    for (i = 0; i < N_COMMANDS; i++) {
        fprintf(f, "  softchat %s\n", commands[i].usage);
    }
    fprintf(f, "\nexit status: 0 success, 1 invalid or unauthentic input, 2 usage, I/O or "
               "environment error\n");
}

int cli_usage(const char *cmd)
{
    size_t i;

    for (i = 0; i < N_COMMANDS; i++) {
        if (strcmp(commands[i].name, cmd) == 0) {
            return cli_fail(CLI_ERROR, "usage: softchat %s", commands[i].usage);
        }
    }
    return cli_fail(CLI_ERROR, "usage: softchat [--backend NAME] COMMAND ...");
}

int main(int argc, char **argv)
{
    cli_globals g = {NULL};
    size_t i;

    argc = cli_take_backend(&g, argc - 1, argv + 1);
    argv++;
    if (argc < 0) {
        return CLI_ERROR;
    }
    if (argc == 0) {
        print_usage(stderr);
        return CLI_ERROR;
    }
    if (strcmp(argv[0], "--help") == 0 || strcmp(argv[0], "-h") == 0 ||
        strcmp(argv[0], "help") == 0) {
        print_usage(stdout);
        return CLI_OK;
    }
    if (strcmp(argv[0], "--version") == 0) {
        printf("softchat %s (libsecp256k1 %s)\n", sc_version(), sc_secp256k1_version());
        return CLI_OK;
    }
    for (i = 0; i < N_COMMANDS; i++) {
        if (strcmp(commands[i].name, argv[0]) == 0) {
            return commands[i].run(&g, argc, argv);
        }
    }
    cli_fail(CLI_ERROR, "unknown command '%s'", argv[0]);
    print_usage(stderr);
    return CLI_ERROR;
}
