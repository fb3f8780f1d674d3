/* Shared CLI helpers: error reporting, status mapping, context setup, --backend, names. */
#include "cli.h"

#include <stdarg.h>
#include <string.h>
#include <strings.h>
#include <time.h>

const char *cli_shown(const char *text)
{
    size_t n = strlen(text), i, hex = 0;

    for (i = 0; i < n; i++) {
        char c = text[i];

        hex += (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
    }
    if ((n >= 5 && strncasecmp(text, "nsec1", 5) == 0) || (n == 64 && hex == 64)) {
        return "(what looks like a secret key: not shown)";
    }
    return text;
}

/* "softchat: <message>\n" on stderr, at most 1 KiB of it, through cli_text_for_terminal:
 * messages quote text a relay chooses. */
static void vreport(const char *fmt, va_list ap)
{
    char buf[1024];
    int n = vsnprintf(buf, sizeof buf, fmt, ap);
    size_t len = n < 0 ? 0 : (size_t)n < sizeof buf ? (size_t)n : sizeof buf - 1;

    len = cli_text_for_terminal(buf, len);
    fputs("softchat: ", stderr);
    fwrite(buf, 1, len, stderr);
    if (n > 0 && (size_t)n >= sizeof buf) {
        fputs("...", stderr);
    }
    fputc('\n', stderr);
    sc_mem_wipe(buf, sizeof buf); /* a message may name what it refused */
}

int cli_fail(int status, const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    vreport(fmt, ap);
    va_end(ap);
    return status;
}

int cli_usage_error(const char *usage, const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    vreport(fmt, ap);
    va_end(ap);
    fputs(usage, stderr);
    return CLI_ERROR;
}

int cli_help(const char *usage)
{
    fputs(usage, stdout);
    return CLI_OK;
}

int cli_exit_for(sc_status st)
{
    if (st == SC_OK) {
        return CLI_OK;
    }
    if ((st <= SC_ERR_ENCODING && st > SC_ERR_RNG) || st == SC_ERR_TOO_LARGE ||
        st == SC_ERR_POLICY) {
        return CLI_INVALID;
    }
    return CLI_ERROR;
}

/* The message of a library status: "<what>: [<token>: ]<status text> (<status name>)". */
static int vfail_status(sc_status st, int with_token, const char *fmt, va_list ap)
{
    char what[1024], token[48];

    vsnprintf(what, sizeof what, fmt, ap);
    cli_status_token(token, sizeof token, st);
    return cli_fail(cli_exit_for(st), "%s: %s%s%s (%s)", what, with_token ? token : "",
                    with_token ? ": " : "", sc_status_str(st), sc_status_name(st));
}

int cli_fail_status(sc_status st, const char *fmt, ...)
{
    va_list ap;
    int rc;

    va_start(ap, fmt);
    rc = vfail_status(st, 0, fmt, ap);
    va_end(ap);
    return rc;
}

int cli_fail_token(sc_status st, const char *fmt, ...)
{
    va_list ap;
    int rc;

    va_start(ap, fmt);
    rc = vfail_status(st, 1, fmt, ap);
    va_end(ap);
    return rc;
}

int cli_now(int64_t *now)
{
    time_t t = time(NULL);

    if (t == (time_t)-1 || t < 0) {
        return cli_fail(CLI_ERROR, "cannot read the clock for created_at");
    }
    *now = (int64_t)t;
    return CLI_OK;
}

void cli_status_token(char *out, size_t out_cap, sc_status st)
{
    const char *name = sc_status_name(st);
    size_t i = 0;

    if (out_cap == 0) {
        return;
    }
    if (st == SC_OK) {
        name = "ok";
    } else if (strncmp(name, "SC_ERR_", 7) == 0) {
        name += 7;
    } else {
        name = "unknown";
    }
    for (; name[i] != '\0' && i + 1 < out_cap; i++) {
        char c = name[i];
        out[i] = (c == '_') ? '-' : (c >= 'A' && c <= 'Z') ? (char)(c - 'A' + 'a') : c;
    }
    out[i] = '\0';
}

int cli_ctx_init(sc_ctx *ctx, const cli_globals *g)
{
    sc_status st = sc_ctx_init(ctx, g->backend);

    if (st == SC_ERR_NOT_FOUND) {
        return cli_fail(CLI_ERROR, "no backend named '%s' in this build (see: softchat backends)",
                        g->backend);
    }
    if (st != SC_OK) {
        cli_fail_status(st, "cannot initialise backend '%s'",
                        g->backend ? g->backend : sc_backend_default()->name);
        return CLI_ERROR; /* whatever the status: this tool or its build is at fault */
    }
    return CLI_OK;
}

int cli_take_backend(cli_globals *g, int argc, char **argv)
{
    int i, out = 0;

    for (i = 0; i < argc; i++) {
        if (strcmp(argv[i], "--") == 0) {
            /* operands after "--" are data, even one spelled "--backend" */
            while (i < argc) {
                argv[out++] = argv[i++];
            }
            break;
        }
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

int cli_str_is(sc_str s, const char *name)
{
    size_t n = strlen(name);

    return s.len == n && (n == 0 || memcmp(s.ptr, name, n) == 0);
}
