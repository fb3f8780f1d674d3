/* Command-line parsing shared by every command: options from a table, operands, --help, a
 * group's subcommand, and the refusal of secret keys on the command line (argv is visible to
 * every local user through ps and /proc, and ends up in shell history). */
#include "cli.h"

#include <stdlib.h>
#include <string.h>

/* Spellings people try for a secret key argument. Each is refused with a pointer to
 * --sec-file instead of the generic "unknown option". */
static const char *const secret_opts[] = {
    "--sec",  "--seckey", "--sec-key", "--secret",      "--secret-key",
    "--nsec", "--priv",   "--privkey", "--private-key", "--key",
};

/* And for a password (NIP-49), refused with a pointer to --password-file. */
static const char *const password_opts[] = {
    "--password", "--pass", "--passphrase", "--passwd", "--pw",
};

static int in_list(const char *const *list, size_t n, const char *arg, size_t name_len)
{
    size_t i;

    for (i = 0; i < n; i++) {
        if (strlen(list[i]) == name_len && strncmp(arg, list[i], name_len) == 0) {
            return 1;
        }
    }
    return 0;
}

static int is_secret_opt(const char *arg, size_t name_len)
{
    return in_list(secret_opts, sizeof secret_opts / sizeof secret_opts[0], arg, name_len);
}

static int is_password_opt(const char *arg, size_t name_len)
{
    return in_list(password_opts, sizeof password_opts / sizeof password_opts[0], arg, name_len);
}

static const cli_opt *find_opt(const cli_opt *opts, size_t n, const char *arg, size_t name_len)
{
    size_t i;

    for (i = 0; i < n; i++) {
        if (strlen(opts[i].name) == name_len && strncmp(arg, opts[i].name, name_len) == 0) {
            return &opts[i];
        }
    }
    return NULL;
}

/* Stores one option value; returns CLI_OK or a usage error. */
static int store(const char *usage, const cli_opt *o, const char *val)
{
    if (o->value != NULL) {
        if (*o->value != NULL) {
            return cli_usage_error(usage, "%s given more than once", o->name);
        }
        *o->value = val;
        return CLI_OK;
    }
    if (*o->list_n >= o->list_cap) {
        return cli_usage_error(usage, "%s given more than %zu times", o->name, o->list_cap);
    }
    o->list[(*o->list_n)++] = val;
    return CLI_OK;
}

int cli_parse_args(const char *usage, int argc, char **argv, const cli_opt *opts, size_t n_opts,
                   const char **pos, size_t pos_cap, size_t *n_pos)
{
    int i, only_operands = 0;

    *n_pos = 0;
    for (i = 0; i < argc; i++) {
        const char *a = argv[i];
        const char *eq;
        const cli_opt *o;
        size_t name_len;

        if (!only_operands && (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0)) {
            cli_help(usage);
            return CLI_HELP;
        }
        if (!only_operands && strcmp(a, "--") == 0) {
            only_operands = 1;
            continue;
        }
        if (only_operands || a[0] != '-' || a[1] == '\0') {
            if (*n_pos >= pos_cap) {
                return cli_usage_error(usage, "unexpected argument '%s'", cli_shown(a));
            }
            pos[(*n_pos)++] = a;
            continue;
        }
        eq = strchr(a, '=');
        name_len = eq != NULL ? (size_t)(eq - a) : strlen(a);
        /* a command that declares one of these names takes it by contract (file decrypt
         * --key: a file key, documented as visible in ps, with --key-file beside it) */
        o = find_opt(opts, n_opts, a, name_len);
        if (o == NULL && is_secret_opt(a, name_len)) {
            return cli_usage_error(usage,
                                   "secret keys are never taken on the command line (visible "
                                   "in ps and shell history); put the key in a file and pass "
                                   "--sec-file FILE");
        }
        if (o == NULL && is_password_opt(a, name_len)) {
            return cli_usage_error(usage,
                                   "passwords are never taken on the command line (visible in "
                                   "ps and shell history); put it in a file and pass "
                                   "--password-file FILE");
        }
        if (o == NULL) {
            return cli_usage_error(usage, "unknown option '%.*s'", (int)name_len, a);
        }
        if (o->flag != NULL) {
            if (eq != NULL) {
                return cli_usage_error(usage, "%s takes no value", o->name);
            }
            *o->flag = 1;
            continue;
        }
        if (eq == NULL && i + 1 >= argc) {
            return cli_usage_error(usage, "%s needs a value", o->name);
        }
        if (store(usage, o, eq != NULL ? eq + 1 : argv[++i]) != CLI_OK) {
            return CLI_ERROR;
        }
    }
    return CLI_OK;
}

int cli_subcommand(const char *usage, const char *group, const char *a, const char *b, int argc,
                   char **argv, int *second)
{
    if (argc >= 2 && (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0)) {
        cli_help(usage);
        return CLI_HELP;
    }
    if (argc < 2) {
        return cli_usage_error(usage, "%s needs a subcommand (%s or %s)", group, a, b);
    }
    if (strcmp(argv[1], a) != 0 && strcmp(argv[1], b) != 0) {
        return cli_usage_error(usage, "unknown %s subcommand", group);
    }
    *second = strcmp(argv[1], b) == 0;
    return CLI_OK;
}

int cli_timeout_arg(const char *usage, const char *arg, int dflt, int *seconds)
{
    unsigned long t;
    char *end = NULL;

    *seconds = dflt;
    if (arg == NULL) {
        return CLI_OK;
    }
    t = strtoul(arg, &end, 10);
    if (*arg < '0' || *arg > '9' || *end != '\0' || t == 0 || t > CLI_TIMEOUT_MAX_S) {
        return cli_usage_error(usage, "--timeout takes seconds, 1 to 86400");
    }
    *seconds = (int)t;
    return CLI_OK;
}
