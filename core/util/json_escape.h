/* JSON string escaping as JSON.stringify does it, which is NIP-01's canonical form: '"', '\\'
 * and the C0 controls are escaped (the seven short escapes, \u00xx for the other controls),
 * every other byte goes verbatim, and the text is checked for UTF-8 on the way. The one
 * escaper: the event writer (util/json_write.c) uses its scan and escapes; the CLI and
 * softchat-bench write their JSON strings with sc_json_put_string (they link this file and
 * util/utf8.c through the static library softchat_text, core/CMakeLists.txt). */
#ifndef SOFTCHAT_CORE_JSON_ESCAPE_H
#define SOFTCHAT_CORE_JSON_ESCAPE_H

#include <softchat/status.h>

/* The index of the first byte of s[0..n) that needs an escape, or n, checking UTF-8 on the
 * way: at an ill-formed sequence *bad is set to 1 and its index returned. s may be NULL when
 * n is 0. */
size_t sc_json_plain_len(const char *s, size_t n, int *bad);

/* The escape of c, a byte sc_json_plain_len stops at without *bad ('"', '\\' or a C0
 * control), into esc; returns its length, 2 or 6. */
size_t sc_json_escape(uint8_t c, char esc[6]);

/* Where sc_json_put_string writes: p[0..n) appended to arg's output; 0, or nonzero to stop. */
typedef int (*sc_json_put_fn)(void *arg, const char *p, size_t n);

/* Flag of sc_json_put_string: each byte of an ill-formed UTF-8 sequence is written as U+FFFD
 * instead of failing (for text the writer does not vouch for, such as a command line). */
#define SC_JSON_PUT_REPLACE 1u

/* Writes s[0..n) as a JSON string, quotes included, through put, in as few pieces as the
 * escapes allow. Returns SC_OK; SC_ERR_UTF8 (s is not UTF-8 and flags lacks
 * SC_JSON_PUT_REPLACE: what came before the ill-formed byte has been written); SC_ERR_IO
 * (put returned nonzero). s may be NULL when n is 0. */
sc_status sc_json_put_string(const char *s, size_t n, unsigned flags, sc_json_put_fn put,
                             void *arg);

#endif
