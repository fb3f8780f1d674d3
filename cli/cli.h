/* The softchat command-line tool: shared declarations.
 *
 * Exit status contract: 0 success; 1 the input was read but is invalid or unauthentic (one
 * line on stderr naming the reason); 2 usage, I/O or environment error. On 1 or 2 nothing is
 * written to stdout, except by commands documented otherwise (event verify reports every
 * event, nip17 receive every message). Commands therefore build their output in a cli_buf and
 * write it only on success.
 *
 * Secrets (key files, decoded keys, identities, conversation keys, plaintext) live only in
 * buffers the tool wipes on every path; they are read with read(2) into those buffers, never
 * through stdio, whose internal buffers could not be wiped. */
#ifndef SOFTCHAT_CLI_H
#define SOFTCHAT_CLI_H

#include <softchat/softchat.h>

#include <stdio.h>

#define CLI_OK 0
#define CLI_INVALID 1
#define CLI_ERROR 2
#define CLI_HELP (-1) /* cli_parse_args printed the help text: the command exits 0 */

/* Options every command accepts. */
typedef struct cli_globals {
    const char *backend; /* --backend NAME, or NULL for the default */
} cli_globals;

/* A command: argv[0] is the command name; returns an exit status. */
typedef int (*cli_command_fn)(const cli_globals *g, int argc, char **argv);

typedef struct cli_command {
    const char *name;
    const char *summary; /* the synopsis lines shown by "softchat --help" */
    cli_command_fn run;
} cli_command;

/* ---- messages and statuses (util.c) ------------------------------------------------------ */

/* Prints "softchat: <msg>" to stderr and returns status. */
int cli_fail(int status, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/* text as it may appear in a message: a placeholder instead when it looks like a secret
 * key (an nsec, or 64 hex digits), which a mistyped command line must not echo into logs. */
const char *cli_shown(const char *text);

/* Prints "softchat: <msg>" and then the usage text to stderr; returns CLI_ERROR. */
int cli_usage_error(const char *usage, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/* The exit status for a library failure: 1 for bad data (the status families -20..-79) and
 * for limits and policies the input ran into (SC_ERR_TOO_LARGE, SC_ERR_POLICY); 2 for
 * everything else (caller errors are bugs of this tool; environment errors). */
int cli_exit_for(sc_status st);

/* Prints "softchat: <what>: <status text> (<status name>)", <what> formatted from fmt, and
 * returns cli_exit_for(st): the one wording of a library status in a message. */
int cli_fail_status(sc_status st, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/* The stable token of a status: sc_status_name without "SC_ERR_", lowercased, '_' -> '-'
 * ("id-mismatch"); "ok" for SC_OK, "unknown" for a value outside the enum. */
void cli_status_token(char *out, size_t out_cap, sc_status st);

/* Prints "softchat: <what>: <token>: <status text> (<status name>)", the form that names a
 * failed check by its stable token ("cannot unwrap: seal-sig: seal signature invalid
 * (SC_ERR_SEAL_SIG)"), <what> formatted from fmt, and returns cli_exit_for(st). */
int cli_fail_token(sc_status st, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/* The current time for created_at; CLI_OK, or CLI_ERROR (message printed). */
int cli_now(int64_t *now);

/* Initialises ctx on g->backend; on failure prints the reason and returns CLI_ERROR. */
int cli_ctx_init(sc_ctx *ctx, const cli_globals *g);

/* Takes "--backend NAME" out of argv (anywhere), updating g; returns the new argc, or -1
 * on a malformed option (message printed). */
int cli_take_backend(cli_globals *g, int argc, char **argv);

/* ---- argument parsing (args.c) ---------------------------------------------------------- */

/* One option of a command. Exactly one of value, flag, list is set. */
typedef struct cli_opt {
    const char *name;   /* "--pub" */
    const char **value; /* single-valued option: given twice is a usage error */
    int *flag;          /* option without a value */
    const char **list;  /* repeatable option: values appended here */
    size_t list_cap;    /* more than this many is a usage error */
    size_t *list_n;
} cli_opt;

/* Parses argv[0..argc) against opts: "--name VALUE" or "--name=VALUE", flags, positional
 * operands (at most pos_cap, into pos[]; "--" ends the options). "--help" or "-h" prints
 * `usage` to stdout and returns CLI_HELP. Any option that would carry a secret key on the
 * command line (--sec, --nsec, --secret, ...) is refused, unless opts declares that name
 * (file decrypt --key, a documented exposure). Unknown options, missing values
 * and surplus operands are usage errors (message and usage on stderr, CLI_ERROR). */
int cli_parse_args(const char *usage, int argc, char **argv, const cli_opt *opts, size_t n_opts,
                   const char **pos, size_t pos_cap, size_t *n_pos);

/* The longest --timeout any command takes, in seconds (a day). */
#define CLI_TIMEOUT_MAX_S 86400

/* The seconds of a --timeout value arg (NULL: dflt) into *seconds: 1 to CLI_TIMEOUT_MAX_S,
 * digits only. CLI_OK, or CLI_ERROR ("--timeout takes seconds, 1 to 86400" and usage said). */
int cli_timeout_arg(const char *usage, const char *arg, int dflt, int *seconds);

/* Prints a usage text to stdout and returns CLI_OK (for "COMMAND --help"). */
int cli_help(const char *usage);

/* The subcommand argv[1] of a group of two (`group` is "key": "key new", "key pub"). Returns
 * CLI_OK with *second 0 for a, 1 for b; CLI_HELP for "--help" or "-h" (usage printed on
 * stdout); CLI_ERROR when it is missing or neither ("key needs a subcommand (new or pub)",
 * "unknown key subcommand", then the usage, on stderr). */
int cli_subcommand(const char *usage, const char *group, const char *a, const char *b, int argc,
                   char **argv, int *second);

/* ---- buffers and I/O (io.c) ------------------------------------------------------------- */

/* A growable byte buffer on the heap. Every byte it ever held is wiped when it grows (the old
 * block is wiped before it is freed) and when it is freed, so it may hold secrets. */
typedef struct cli_buf {
    unsigned char *p;
    size_t len;
    size_t cap;
} cli_buf;

#define CLI_BUF_INIT                                                                               \
    {                                                                                              \
        NULL, 0, 0                                                                                 \
    }

/* Ensures room for `extra` more bytes (the capacity doubles: for appends). Returns CLI_OK or
 * CLI_ERROR (message printed). */
int cli_buf_reserve(cli_buf *b, size_t extra);

/* Empties b and makes its capacity at least n, allocating exactly n when it grows (the old
 * block wiped and freed, nothing copied): the output buffer of a library call, sized by the
 * call's measuring form, so that the wipe of the whole capacity covers what the call used
 * and no more. Returns CLI_OK or CLI_ERROR (message printed). */
int cli_buf_size(cli_buf *b, size_t n);

/* Appends n bytes / a NUL-terminated string / one byte. Returns CLI_OK or CLI_ERROR. */
int cli_buf_add(cli_buf *b, const void *p, size_t n);
int cli_buf_adds(cli_buf *b, const char *s);
int cli_buf_addc(cli_buf *b, char c);

/* Appends the lowercase hex of p[0..n). */
int cli_buf_hex(cli_buf *b, const uint8_t *p, size_t n);

/* 1 when s is exactly the text of name (a method, a subscription id: names from a peer are
 * compared through this), else 0. */
int cli_str_is(sc_str s, const char *name);

/* Writes the lowercase hex of p[0..n) and a NUL to out, which holds 2 * n + 1 characters. */
void cli_hex_str(char *out, const uint8_t *p, size_t n);

/* Writes b's bytes to stdout in full, then wipes them and empties b (its lines may be
 * private: decrypted messages). Returns CLI_OK or CLI_ERROR (message printed). */
int cli_buf_flush_stdout(cli_buf *b);

/* Wipes and frees the buffer; it is CLI_BUF_INIT again. */
void cli_buf_free(cli_buf *b);

/* Reads fd until end of file into b, but no more than limit + 1 bytes in total: b->len >
 * limit tells the caller the input is over its limit (the rest is left unread). `what` names
 * the source in the error message. Returns CLI_OK or CLI_ERROR (read error, out of memory). */
int cli_read_all(int fd, cli_buf *b, size_t limit, const char *what);

/* Writes p[0..n) to fd in full (retrying short writes and EINTR). Returns CLI_OK or
 * CLI_ERROR (message printed). */
int cli_write_all(int fd, const void *p, size_t n);

/* Reads a small file (at most cap - 1 bytes) into buf with read(2); *len = bytes read. A
 * larger file sets *len = cap. Returns CLI_OK or CLI_ERROR (cannot open or read; message
 * printed). The caller wipes buf. */
int cli_read_small_file(const char *path, char *buf, size_t cap, size_t *len);

/* Writes p[0..n) to fd in full; returns 0 or an errno value (nothing printed). */
int cli_write_fd(int fd, const void *p, size_t n);

/* ---- atomic output files (outfile.c) ------------------------------------------------------ */

/* A file created under a temporary name in the directory of its final path and moved there
 * only when complete: readers of the final path never see a partial (or, for decryption,
 * unauthenticated) file, and a failure leaves nothing behind. An existing final path is
 * never replaced. SIGINT, SIGTERM, SIGHUP and SIGQUIT remove the temporary file before the
 * process dies of the signal (at most two open cli_outfiles per process: file decrypt of an
 * input it cannot read twice writes one per IV candidate; opening a third fails). */
typedef struct cli_outfile {
    int fd;           /* the temporary file, or -1 */
    const char *path; /* the final path */
    char *tmp;        /* the temporary path (heap) */
    char *dir;        /* the directory both live in (heap) */
} cli_outfile;

/* Creates the temporary file (mode 0600, O_EXCL) beside path, after checking that path does
 * not exist yet. Returns CLI_OK or CLI_ERROR (message printed; nothing left behind). */
int cli_outfile_open(cli_outfile *f, const char *path);

/* Writes to the temporary file. Returns CLI_OK or CLI_ERROR (message printed). */
int cli_outfile_write(cli_outfile *f, const void *p, size_t n);

/* fsyncs the temporary file, moves it to the final path without replacing an existing file
 * (link + unlink; rename after a fresh check where the file system has no hard links), and
 * fsyncs the directory. On failure the temporary file is removed. Returns CLI_OK or
 * CLI_ERROR (message printed). Either way the outfile is closed. */
int cli_outfile_commit(cli_outfile *f);

/* Closes and removes the temporary file (no-op when closed). */
void cli_outfile_discard(cli_outfile *f);

/* ---- progress (progress.c) ---------------------------------------------------------------- */

/* A one-line progress bar on stderr, shown only when stderr is a terminal and the total is
 * large (over 8 MiB); redrawn in place when the percentage changes, cleared by
 * cli_progress_end (call it before any message is printed). */
typedef struct cli_progress {
    const char *label;
    uint64_t total;
    uint64_t done;
    int shown;   /* 1 when active */
    int percent; /* the last drawn percentage, -1 before the first */
    int width;   /* characters of the last line drawn */
} cli_progress;

void cli_progress_start(cli_progress *p, const char *label, uint64_t total);
void cli_progress_add(cli_progress *p, uint64_t n);
void cli_progress_end(cli_progress *p);

/* ---- keys (keys.c) ------------------------------------------------------------------------ */

/* Loads the secret key held in file `path` (64 hex characters in either case, or an nsec;
 * surrounding whitespace ignored) into id. Never echoes the file's contents.
 * Returns CLI_OK; CLI_INVALID (the file holds no valid secret key); CLI_ERROR (I/O). */
int cli_load_identity(sc_ctx *ctx, sc_identity *id, const char *path);

/* Writes a secret key file p[0..n) at path: it appears whole or not at all (outfile.c:
 * written and synced under a temporary name, mode 0600, in the same directory, then linked
 * into place); an existing file, or a symlink in its place, is never replaced. Returns CLI_OK
 * or CLI_ERROR (message printed). */
int cli_write_key_file(const char *path, const uint8_t *p, size_t n);

/* Parses a public key given on the command line as option `opt`: 64 hex characters or an
 * npub. Returns CLI_OK or CLI_ERROR (usage error printed, with `usage`). */
int cli_parse_pubkey(uint8_t pub[SC_PUBKEY_BYTES], const char *arg, const char *opt,
                     const char *usage);

/* Parses a comma-separated list of public keys (each 64 hex characters or an npub) into
 * keys[0..cap), *n = how many. Empty items, duplicates and more than cap keys are usage
 * errors. Returns CLI_OK or CLI_ERROR (usage error printed, with `usage`). */
int cli_parse_pubkey_list(uint8_t (*keys)[SC_PUBKEY_BYTES], size_t cap, size_t *n, const char *arg,
                          const char *opt, const char *usage);

/* Parses exactly 64 hex characters (either case) into 32 bytes. Returns 0 or -1. */
int cli_hex32(uint8_t out[32], const char *arg);

/* ---- passwords (password.c; nfkc.c or nfkc_none.c) -------------------------------------- */

/* Reads the password in file `path` (NIP-49): its bytes less one final newline (LF or CRLF),
 * which must be UTF-8, normalised to NFKC into pw (a wiping buffer). Never echoed. Returns
 * CLI_OK; CLI_INVALID (not UTF-8, over 4095 bytes, or not normalisable by this build);
 * CLI_ERROR (I/O; message printed). On failure pw is freed. */
int cli_read_password(cli_buf *pw, const char *path);

/* NFKC of the UTF-8 text s[0..n) into out (emptied first): libunistring's u8_normalize
 * (nfkc.c), or, in a build without it (SOFTCHAT_CLI_NFKC=OFF: nfkc_none.c), the text itself
 * when it is ASCII, which is its own NFKC form. Returns CLI_OK; CLI_INVALID (cannot
 * normalise it); CLI_ERROR (out of memory). Prints nothing. */
int cli_nfkc(cli_buf *out, const char *s, size_t n);

/* Which normaliser this build has, for messages and `softchat nip49 --help`. */
const char *cli_nfkc_impl(void);

/* ---- JSON output (json_out.c) -------------------------------------------------------------- */

/* Appends s[0..n) (UTF-8: callers check text they did not get from the library) as a JSON
 * string, escaped like the NIP-01 canonical form by the library's escaper (the seven short
 * escapes, other C0 controls as \u00xx), and DEL, the C1 controls and the bidi controls (see
 * cli_text_char) as \uXXXX, so that a line shown on a terminal cannot drive it; everything
 * else verbatim. */
int cli_buf_json_str(cli_buf *b, const char *s, size_t n);

/* Appends the lowercase hex of p[0..n) as a JSON string ("..."). */
int cli_buf_json_hex(cli_buf *b, const uint8_t *p, size_t n);

/* Appends ,"name":"<hex of p[0..n)>" (a field after the first of a JSON object). */
int cli_buf_json_hex_field(cli_buf *b, const char *name, const uint8_t *p, size_t n);

/* Appends ev's tags as a JSON array of arrays of strings. */
int cli_buf_json_tags(cli_buf *b, const sc_event *ev);

/* Appends ev as one line: its JSON object form and a newline. `what` names it in a message
 * ("the event", "the rumor"). Returns CLI_OK or CLI_ERROR (message printed). */
int cli_buf_event_line(cli_buf *b, const sc_event *ev, const char *what);

/* ---- terminal text (text.c) ---------------------------------------------------------------- */

/* Makes s[0..n) safe to show on a terminal, in place; returns its new length (at most n).
 * Each control character (C0, DEL, C1, bidi controls, U+2028/U+2029) and each byte that is
 * not UTF-8 becomes one '?'. Every message on stderr goes through it (util.c's reporter
 * behind cli_fail and the others). */
size_t cli_text_for_terminal(char *s, size_t n);

/* The character at s[0..n) (n >= 1): returns its length in bytes (1 for a byte that is not
 * UTF-8), *cp its code point (the byte for one that is not UTF-8; 0x10000 for any above
 * U+FFFF), and *control 1 when a terminal must not see it (as cli_text_for_terminal). */
size_t cli_text_char(const char *s, size_t n, int *control, uint32_t *cp);

/* ---- event templates (template.c) ---------------------------------------------------------- */

/* The largest template accepted: the event parser's default limit. */
#define CLI_TEMPLATE_MAX 1048576u

/* Parses an event template in[0..n) for the key `pub`: "kind" and "content" required, "tags"
 * defaulting to [] and "created_at" to now; "id" and "sig" must be well-formed if present
 * (the caller replaces them); a "pubkey" must be pub (set either way). ev's views point into
 * arena (a cli_buf: it is wiped when freed, for private content). Returns CLI_OK, CLI_INVALID
 * ("invalid event template: ..." printed) or CLI_ERROR. */
int cli_parse_template(sc_event *ev, cli_buf *arena, const unsigned char *in, size_t n,
                       const uint8_t pub[SC_PUBKEY_BYTES]);

/* ---- gift wraps (giftwrap.c) -------------------------------------------------------------- */

struct cli_ext_signer;

/* Seals and gift-wraps rumor for `to` (sc_nip59_wrap_start over author's signer, driven to
 * its end), appending the wrap's JSON and a newline to out; the new wrap's id and signature
 * are verified before it is kept. `who` names the recipient in messages ("--to",
 * "receiver 2"). Returns CLI_OK; CLI_INVALID (the rumor is too large for NIP-44 receivers,
 * or `to` is not a valid public key); CLI_ERROR (message printed; a signer's refusal too). */
int cli_gift_wrap(sc_ctx *ctx, cli_buf *out, const sc_event *rumor,
                  const struct cli_ext_signer *author, const uint8_t to[SC_PUBKEY_BYTES],
                  const sc_nip59_opts *opts, const char *who);

/* A signer for the user's key: a local identity (cli/user_key.c) or a NIP-46 bunker
 * (cli/nip46_client.c). drive carries an operation's requests to the signer until the
 * operation ends (a local identity's ends at its first step) and returns the operation's
 * status (a remote signer's failures said). */
typedef struct cli_ext_signer {
    const sc_signer *signer;
    sc_status (*drive)(void *user, sc_signer_op *op);
    void *user;
} cli_ext_signer;

/* Signs ev (a complete template) as id, or, when ext is not NULL, through ext's signer: an
 * sc_event_sign_start operation driven to its end, the signature verified against the
 * signer's user key (template.c). Returns the signing status (failures not said here, but
 * a signer's refusal is, by the drive). */
sc_status cli_event_sign(sc_ctx *ctx, sc_event *ev, const sc_identity *id,
                         const cli_ext_signer *ext);

/* sc_nip17_send of rumor from author (or, when ext is not NULL, sc_nip17_send_start over
 * ext's signer; author is then unused): every wrap checked and appended to out, one per line.
 * names[k] names the k-th wrap's recipient in messages (the distinct receivers in order, then
 * the sender's copy). Returns as cli_gift_wrap. */
int cli_nip17_send(sc_ctx *ctx, cli_buf *out, const sc_event *rumor, const sc_identity *author,
                   const cli_ext_signer *ext, const sc_nip59_opts *opts, const char *const *names,
                   size_t n_names);

/* The kind 14 message text[0..) from id (or ext's signer, when not NULL) to to[0..n_to) (at
 * most 256, each once), created now, with a subject tag when subject is not NULL and an e
 * tag when reply is not NULL: sealed and gift-wrapped for every receiver, then the sender
 * (cli_nip17_send), the wraps appended to out one per line in sc_nip17_send's order
 * (cmd_nip17.c). Returns as cli_nip17_send. */
int cli_nip17_compose(sc_ctx *ctx, cli_buf *out, const sc_identity *id, const cli_ext_signer *ext,
                      const uint8_t (*to)[SC_PUBKEY_BYTES], size_t n_to, const char *subject,
                      const uint8_t *reply, const cli_buf *text);

/* sc_nip17_receive of json[0..len) over me's signer (sc_nip17_receive_start, driven to its
 * end; no NIP-40 checks), its views in arena (grown to the wrap's bound); *used: the arena
 * bytes written, to wipe. Returns the operation's status; SC_ERR_NOMEM when the arena cannot
 * grow. */
sc_status cli_nip17_open(sc_ctx *ctx, const cli_ext_signer *me, sc_nip17_received *msg,
                         cli_buf *arena, size_t *used, const char *json, size_t len);

/* ---- attachments (cmd_file.c) ------------------------------------------------------------- */

/* The chunk size of file encrypt and decrypt: memory stays independent of the file size. */
#define CLI_FILE_CHUNK 65536u

/* CLI_OK when the context's backend streams AES-256-GCM; otherwise prints why (the plain
 * sodium backend: libsodium has no streaming AES-GCM and no 16-byte IVs) and returns
 * CLI_ERROR. */
int cli_file_supported(sc_ctx *ctx);

/* Opens the input file (not a directory); *size = its size when it is a regular file, else
 * 0. Returns CLI_OK or CLI_ERROR (message printed). */
int cli_file_open_in(const char *path, int *fd, uint64_t *size);

/* Reads up to cap bytes (fewer only at end of file); *n = bytes read. Returns 0 or an errno
 * value; prints nothing (a progress line may be showing). */
int cli_file_read(int fd, uint8_t *buf, size_t cap, size_t *n);

/* ---- commands ----------------------------------------------------------------------------- */

int cmd_backends(const cli_globals *g, int argc, char **argv);
int cmd_selftest(const cli_globals *g, int argc, char **argv);
int cmd_key(const cli_globals *g, int argc, char **argv);
int cmd_event(const cli_globals *g, int argc, char **argv);
int cmd_nip44(const cli_globals *g, int argc, char **argv);
int cmd_nip19(const cli_globals *g, int argc, char **argv);
int cmd_nip59(const cli_globals *g, int argc, char **argv);
int cmd_nip17(const cli_globals *g, int argc, char **argv);
int cmd_file(const cli_globals *g, int argc, char **argv);
int cmd_relay(const cli_globals *g, int argc, char **argv);
int cmd_nip49(const cli_globals *g, int argc, char **argv);
int cmd_nip98(const cli_globals *g, int argc, char **argv);
int cmd_dm(const cli_globals *g, int argc, char **argv);
int cmd_bunker(const cli_globals *g, int argc, char **argv);
int cmd_signer(const cli_globals *g, int argc, char **argv);

/* event verify, in its own file (the streaming splitter); usage is the event group's text. */
int cmd_event_verify(const cli_globals *g, int argc, char **argv, const char *usage);

/* nip17 receive and file decrypt, in their own files; usage is the group's text. */
int cmd_nip17_receive(const cli_globals *g, int argc, char **argv, const char *usage);
int cmd_file_decrypt(const cli_globals *g, int argc, char **argv, const char *usage);

#endif
