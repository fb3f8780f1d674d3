/* Shared helpers of the test suites: files, JSON fields, hex, and per-file case tallies.
 * Hex is decoded here with an independent parser (the library's own decoder is under test
 * in test_core). */
#ifndef SOFTCHAT_TESTS_VECTORS_UTIL_H
#define SOFTCHAT_TESTS_VECTORS_UTIL_H

#include <stddef.h>
#include <stdint.h>

#include <cjson/cJSON.h>
#include <softchat/ctx.h>
#include <softchat/event.h>
#include <softchat/status.h>

#if defined(__GNUC__) || defined(__clang__)
#define VT_PRINTF(a, b) __attribute__((format(printf, a, b)))
#else
#define VT_PRINTF(a, b)
#endif

/* A decoded byte string. p is never NULL (an empty string owns a 1-byte allocation). */
typedef struct vt_bytes {
    uint8_t *p;
    size_t n;
} vt_bytes;

/* Decodes hex (either case) into out. Returns 1, or 0 for odd length or a bad digit. */
int vt_hex_to_bytes(const char *hex, vt_bytes *out);
void vt_bytes_free(vt_bytes *b);
/* Whether p[0..n) is exactly the bytes of the hex string want (0 for NULL or bad hex). */
int vt_hex_is(const uint8_t *p, size_t n, const char *want);
/* Zero-filled allocation of n bytes (at least 1), or aborts the test on exhaustion. */
uint8_t *vt_alloc(size_t n);

/* JSON field access. Each returns 1 when the field exists with the right type. */
int vt_json_hex(const cJSON *obj, const char *key, vt_bytes *out);
/* An integral number within long's range (0 otherwise: on a 32-bit target long has 32 bits). */
int vt_json_long(const cJSON *obj, const char *key, long *out);
/* An integral number within +-2^53 (exact in a double), whatever the width of long. */
int vt_json_i64(const cJSON *obj, const char *key, int64_t *out);
const char *vt_json_str(const cJSON *obj, const char *key);

/* dir + "/" + rel, malloc'd. */
char *vt_path_join(const char *dir, const char *rel);
int vt_dir_exists(const char *path);
/* Whole file, NUL-terminated, malloc'd; NULL if it cannot be read. */
char *vt_read_file(const char *path, size_t *len);
/* Parses dir/rel. NULL with a reason in why when the file is missing or malformed. */
cJSON *vt_load_json(const char *dir, const char *rel, char *why, size_t why_cap);

/* Lowercase hex of up to 48 bytes into buf (with "..." when cut), for messages. */
const char *vt_hexstr(char *buf, size_t cap, const uint8_t *p, size_t n);
int vt_all_zero(const uint8_t *p, size_t n);
/* Appends printf output to the NUL-terminated string in buf (cut at cap). */
void vt_appendf(char *buf, size_t cap, const char *fmt, ...) VT_PRINTF(3, 4);

/* A NULL pointer the compiler cannot see through: for argument checks on parameters the
 * public headers declare non-NULL. */
void *vt_null(void);

/* Fails the running test with both status names when got != want. */
#define VT_ASSERT_STATUS(got, want) vt_assert_status((got), (want), #got, __FILE__, __LINE__)
void vt_assert_status(sc_status got, sc_status want, const char *expr, const char *file, int line);

/* ---- per-file tallies ------------------------------------------------------------------ */

#define VT_MAX_REASONS 8

typedef struct vt_reason {
    const char *text; /* static string */
    size_t count;
} vt_reason;

/* Every case of a file ends as exactly one of: passed, failed, skipped (the backend refused
 * it: never a pass) or n/a (the case does not apply to this library). */
typedef struct vt_report {
    const char *backend;
    const char *file;
    size_t cases, passed, failed;
    vt_reason skipped[VT_MAX_REASONS];
    vt_reason na[VT_MAX_REASONS];
    char detail[256]; /* printed after "N run", e.g. "one-shot 105, stream 105" */
} vt_report;

void vt_report_init(vt_report *r, const char *backend, const char *file);
void vt_case_pass(vt_report *r);
void vt_case_fail(vt_report *r, const char *fmt, ...) VT_PRINTF(2, 3);
void vt_case_skip(vt_report *r, const char *reason);
void vt_case_na(vt_report *r, const char *reason);
size_t vt_report_run(const vt_report *r);
size_t vt_report_skipped(const vt_report *r);
size_t vt_report_na(const vt_report *r);
/* Prints the one-line summary to stdout. */
void vt_report_print(const vt_report *r);
/* Prints the summary, then fails the test if any case failed or if `expected` (when non-zero)
 * differs from the number of cases seen; skips the test when no case ran. */
void vt_report_finish(const vt_report *r, size_t expected);
/* Whether every byte of p[0..n) is 0 or fill: a buffer the call under test either left as
 * the caller's fill or wiped, with nothing it decrypted left behind. */
int vt_only_zero_or(const uint8_t *p, size_t n, uint8_t fill);

/* An upstream data file (dir/rel) for the running test: parsed JSON, or its text (the caller
 * frees either). When the folder is absent (`present` 0: the own-only mode), prints the
 * file's skip line and skips the test; when the folder is present but the file cannot be read
 * or parsed, prints the file's FAIL line and fails the test (neither returns). */
cJSON *vt_upstream_json(const char *backend, const char *dir, int present, const char *rel);
char *vt_upstream_text(const char *backend, const char *dir, int present, const char *rel);

/* Prints "[backend] file: skipped (why)" and skips the running test. */
void vt_skip_file(const char *backend, const char *file, const char *why);

/* ---- the start of a per-backend suite ------------------------------------------------- */

/* What every per-backend suite's main() shares: its options and where the data is. */
typedef struct vt_suite {
    const char *backend;     /* --backend NAME (default: the build's default backend) */
    const char *vectors_dir; /* --vectors DIR: upstream conformance data */
    const char *own_dir;     /* --own DIR: the project's vectors/ */
    int vectors_present;     /* vectors_dir exists */
} vt_suite;

/* An option beyond the common ones: "--name VALUE", the value stored in *value. */
typedef struct vt_suite_opt {
    const char *name;
    const char **value;
} vt_suite_opt;

/* Parses --backend, --vectors, --own and the extra options; creates ctx on the backend;
 * prints a loud banner when the upstream folder is missing (naming what is then skipped,
 * `skipped`; NULL for a suite that reads no upstream data) and the group line ("[==========] group
 * BACKEND: TITLE, ..."). `prog` names the
 * program in messages. Returns 0, or the exit status main must return: 2 for a usage error,
 * 1 when the context cannot be created. */
int vt_suite_start(vt_suite *s, sc_ctx *ctx, int argc, char **argv, const char *prog,
                   const char *title, const char *skipped, const vt_suite_opt *extra,
                   size_t n_extra);

/* Whether two events agree on created_at, kind, content and every tag (the fields below the
 * id, pubkey and signature, which callers compare by their own rules). Returns 1, or 0 with
 * the first difference in why. */
int vt_event_same_body(const sc_event *a, const sc_event *b, char *why, size_t cap);

#endif
