/* A splitter for a stream of top-level JSON objects (JSON Lines, pretty-printed, or several
 * on one line), fed in chunks, with memory bounded by the largest accepted value.
 *
 * It does not parse JSON: it tracks string, escape and nesting state just well enough to
 * find where each top-level object ends, and leaves validation to the event parser. Between
 * values it skips JSON whitespace (space, tab, CR, LF). The rules for everything else:
 *  - A value starts at '{' and ends at the bracket that brings the nesting depth back to 0.
 *  - A closing bracket that does not match its opening one (as in {"a":[}) is never valid
 *    JSON: the value is reported (CLI_JSCAN_MISMATCH) and the input skipped up to the next '{',
 *    so a line with a stray closer does not swallow the events after it. (A missing closer
 *    still does: the following events nest inside the open value until it passes the cap,
 *    and the rest of the input is then skipped as part of it. No splitter can tell that
 *    apart from a legitimately long value.)
 *  - Nesting deeper than CLI_JSCAN_MAX_DEPTH (far beyond what the event parser admits) is
 *    reported (CLI_JSCAN_TOO_DEEP) and the rest of that value is skipped.
 *  - Any other byte between values starts garbage: reported once (CLI_JSCAN_GARBAGE), then
 *    skipped up to the next '{' (string state is not tracked there).
 *  - A raw control character (below 0x20) inside a string is never valid JSON; it usually
 *    means a truncated line. The value is reported (CLI_JSCAN_BROKEN) and the input is
 *    skipped up to the next '{', so one bad line does not swallow the events after it.
 *  - A value longer than the cap is reported once (CLI_JSCAN_TOO_LARGE) as soon as it passes
 *    the cap, and the rest of it is scanned without being stored.
 *  - End of input inside a stored value is CLI_JSCAN_TRUNCATED (from cli_jscan_end).
 */
#ifndef SOFTCHAT_CLI_JSCAN_H
#define SOFTCHAT_CLI_JSCAN_H

#include "cli.h"

#define CLI_JSCAN_MAX_DEPTH 256u

typedef enum cli_jscan_item {
    CLI_JSCAN_NOMEM = -1, /* the value buffer could not grow (message printed) */
    CLI_JSCAN_MORE = 0,   /* the chunk is consumed: feed the next one */
    CLI_JSCAN_VALUE,      /* value[0..value_len) is one complete top-level object */
    CLI_JSCAN_GARBAGE,    /* bytes between values that do not start one */
    CLI_JSCAN_TOO_LARGE,  /* a value longer than the cap */
    CLI_JSCAN_TOO_DEEP,   /* a value nested deeper than CLI_JSCAN_MAX_DEPTH */
    CLI_JSCAN_BROKEN,     /* a raw control character inside a string */
    CLI_JSCAN_MISMATCH,   /* a closing bracket of the wrong kind */
    CLI_JSCAN_TRUNCATED   /* end of input inside a value */
} cli_jscan_item;

typedef struct cli_jscan {
    cli_buf value; /* the value being stored; grows up to max bytes */
    size_t max;
    size_t depth;
    uint64_t kinds[CLI_JSCAN_MAX_DEPTH / 64]; /* per level: 1 for '[', 0 for '{' */
    int mode;
    int in_str;
    int esc;
    int handed_out; /* value holds a complete value returned by the last call */
} cli_jscan;

void cli_jscan_init(cli_jscan *s, size_t max);
void cli_jscan_free(cli_jscan *s);

/* Scans in[0..n) from where the last call stopped and returns the first item found, with
 * *used = the bytes consumed (the caller passes the rest again); CLI_JSCAN_MORE with
 * *used = n when the chunk holds no complete item. A returned value stays in s->value until
 * the next call. */
cli_jscan_item cli_jscan_feed(cli_jscan *s, const unsigned char *in, size_t n, size_t *used);

/* At end of input: CLI_JSCAN_TRUNCATED if a stored value is open, else CLI_JSCAN_MORE. */
cli_jscan_item cli_jscan_end(cli_jscan *s);

/* What a stream's reader does with the splitter's results. on_value gets each complete value;
 * on_skip gets everything else the splitter reports, with its status and a reason line
 * composed here from `what` (the unit, e.g. "event") and `a_what` (with its article, "an
 * event"). Each returns CLI_OK to go on, or an exit status to stop. */
typedef struct cli_jscan_reader {
    int (*on_value)(void *user, const unsigned char *json, size_t len);
    int (*on_skip)(void *user, sc_status st, const char *reason);
    const char *what, *a_what;
    void *user;
} cli_jscan_reader;

/* Reads stdin to its end in 64 KiB chunks through the splitter, handing every result (and
 * cli_jscan_end's at the end) to the reader. What the reader appends to *out is written to
 * stdout before each blocking read (so a slow producer still sees results promptly) and
 * whenever it reaches 64 KiB. Returns CLI_OK or the first failing status. */
int cli_jscan_stream(cli_jscan *s, cli_buf *out, const cli_jscan_reader *r);

#endif
