/* Internal pieces shared by the files of core/nip17/: the common head of kind 14 and kind 15
 * rumors (p, e and subject tags) with its builder accounting, and two small helpers. */
#ifndef SOFTCHAT_CORE_NIP17_INTERNAL_H
#define SOFTCHAT_CORE_NIP17_INTERNAL_H

#include <softchat/nip17.h>
#include "util/range.h"

/* Builder bytes that suffice for the buffer's own alignment, content_len bytes of content and
 * the p, e and subject tags of m (SIZE_MAX on overflow, 0 when m is inconsistent). */
size_t sc_nip17_head_cost(const sc_nip17_chat *m, size_t content_len);

/* Checks what the head needs: m's arrays and at least one receiver.
 * Returns: SC_OK; SC_ERR_ARG; SC_ERR_MESSAGE (no receiver). */
sc_status sc_nip17_check_head(const sc_nip17_chat *m);

/* Starts b over buf[0..cap) with the kind, m's created_at, the content and the p, e and
 * subject tags of m. Errors stay in the builder (sticky). */
void sc_nip17_start(sc_event_builder *b, void *buf, size_t cap, const sc_nip17_chat *m,
                    uint32_t kind, sc_str content);

/* Finishes b into rumor, from sender (pubkey and id set). On failure rumor is zeroed and
 * buf[0..cap) wiped. */
sc_status sc_nip17_finish(sc_ctx *ctx, sc_event_builder *b, sc_event *rumor, void *buf, size_t cap,
                          const uint8_t sender[SC_PUBKEY_BYTES]);

/* Lowercase hex of a 32-byte value into out[64]. */
void sc_nip17_hex32(char out[64], const uint8_t in[32]);

/* Whether s is exactly `lit` (a NUL-terminated literal). */
int sc_nip17_is(const sc_str *s, const char *lit);

#endif
