/* UTF-8 well-formedness (Unicode table 3-7): the one validator behind event checks, the JSON
 * scanner and the builder. U+0000 is well-formed; overlong forms, surrogates (U+D800..DFFF),
 * code points above U+10FFFF and truncated sequences are not. */
#ifndef SOFTCHAT_CORE_UTF8_H
#define SOFTCHAT_CORE_UTF8_H

#include <softchat/status.h>

/* Length (1..4) of the well-formed sequence at s[0..avail), or 0 if it is ill-formed or cut
 * short. avail must be >= 1. */
size_t sc_utf8_seq_len(const uint8_t *s, size_t avail);

/* SC_OK when s[0..len) is well-formed UTF-8, else SC_ERR_UTF8. s may be NULL when len is 0. */
sc_status sc_utf8_check(const char *s, size_t len);

/* Encodes cp (a scalar value: <= U+10FFFF and not a surrogate) into out; returns 1..4, or 0
 * for a value that is not a scalar value. */
size_t sc_utf8_put(uint8_t out[4], uint32_t cp);

#endif
