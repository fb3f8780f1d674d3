/* Walking the members of one JSON object, or the elements of one array, with the strict
 * scanner (util/json_scan.h): for readers that want a few known keys of a small document
 * (a signer's answer, NIP-46 messages) and skip the rest. */
#ifndef SOFTCHAT_CORE_JSON_OBJECT_H
#define SOFTCHAT_CORE_JSON_OBJECT_H

#include "util/json_scan.h"

/* At c ('{' or '[', after whitespace): moves past it. SC_OK; SC_ERR_JSON (another byte);
 * SC_ERR_UTF8 (a byte that starts no UTF-8 sequence). */
sc_status sc_jobj_open(sc_jscan *s, int c);

/* Inside an object entered with sc_jobj_open (first is 1 for its first member): the next
 * member's key, unescaped into key[0..min(*key_len, cap)) (*key_len is its whole length),
 * with the cursor moved to its value; *more is 0 at the closing '}' (moved past it).
 * Returns: SC_OK; SC_ERR_JSON; SC_ERR_UTF8. */
sc_status sc_jobj_key(sc_jscan *s, int first, char *key, size_t cap, size_t *key_len, int *more);

/* Inside an array entered with sc_jobj_open: *more is 1 with the cursor at the next element
 * (after whitespace), 0 at the closing ']' (moved past it). Returns: SC_OK; SC_ERR_JSON;
 * SC_ERR_UTF8. */
sc_status sc_jarr_next(sc_jscan *s, int first, int *more);

/* A string value at the cursor (after whitespace) unescaped into dst[0..min(*len, cap))
 * (*len: its whole length; dst may be NULL with cap 0 to measure). Returns: SC_OK;
 * SC_ERR_EVENT_FIELD (the value is not a string: it is skipped, nested at most 32 deep);
 * SC_ERR_JSON; SC_ERR_UTF8; SC_ERR_TOO_LARGE (nesting). */
sc_status sc_jobj_string(sc_jscan *s, uint8_t *dst, size_t cap, size_t *len);

/* Only whitespace is left. Returns: SC_OK; SC_ERR_JSON; SC_ERR_UTF8. */
sc_status sc_jobj_end(sc_jscan *s);

#endif
