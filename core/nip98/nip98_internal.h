/* What the two sides of NIP-98 share: the tag names, and the one-tag rule (a tag a check
 * reads must appear once). */
#ifndef SOFTCHAT_CORE_NIP98_INTERNAL_H
#define SOFTCHAT_CORE_NIP98_INTERNAL_H

#include <softchat/nip98.h>

#define SC_NIP98_TAG_U "u"
#define SC_NIP98_TAG_METHOD "method"
#define SC_NIP98_TAG_PAYLOAD "payload"

/* The value of the one tag [name, value, ...] of ev: NULL when there is none, or more than
 * one (readers could disagree on which counts). name is a string literal. */
#define SC_NIP98_UNIQUE_TAG(ev, name) sc_nip98_unique_tag((ev), (name), sizeof(name) - 1)
const sc_str *sc_nip98_unique_tag(const sc_event *ev, const char *name, size_t name_len);

/* Whether ev has no tag [name, ...]. */
int sc_nip98_no_tag(const sc_event *ev, const char *name, size_t name_len);

#endif
