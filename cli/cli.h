/* The softchat command-line tool: shared declarations.
 *
 * Exit status contract: 0 success; 1 the input was read but is invalid or unauthentic (one
 * line on stderr naming the reason); 2 usage, I/O or environment error. On 1 or 2 nothing is
 * written to stdout, except by commands documented otherwise. */
#ifndef SOFTCHAT_CLI_H
#define SOFTCHAT_CLI_H

#include <softchat/softchat.h>

#include <stdio.h>

#define CLI_OK 0
#define CLI_INVALID 1
#define CLI_ERROR 2

/* Options every command accepts. */
typedef struct cli_globals {
    const char *backend; /* --backend NAME, or NULL for the default */
} cli_globals;

/* A command: argv[0] is the command name; returns an exit status. */
typedef int (*cli_command_fn)(const cli_globals *g, int argc, char **argv);

typedef struct cli_command {
    const char *name;
    const char *usage; /* one line, after "softchat " */
    cli_command_fn run;
} cli_command;

/* Prints "softchat: <msg>" to stderr and returns status. */
int cli_fail(int status, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/* Prints a usage error for command `cmd` and returns CLI_ERROR. */
int cli_usage(const char *cmd);

/* Initialises ctx on g->backend; on failure prints the reason and returns CLI_ERROR. */
int cli_ctx_init(sc_ctx *ctx, const cli_globals *g);

/* Takes "--backend NAME" out of argv (anywhere), updating g; returns the new argc, or -1
 * on a malformed option (message printed). */
int cli_take_backend(cli_globals *g, int argc, char **argv);

/* Command entry points. */
int cmd_backends(const cli_globals *g, int argc, char **argv);
int cmd_selftest(const cli_globals *g, int argc, char **argv);

#endif
