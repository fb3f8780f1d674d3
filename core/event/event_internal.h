/* Internal pieces shared by the event modules (check, id, JSON, parse, builder). */
#ifndef SOFTCHAT_CORE_EVENT_INTERNAL_H
#define SOFTCHAT_CORE_EVENT_INTERNAL_H

#include <softchat/event.h>

#include "util/json_write.h"
#include "util/range.h"

/* Alignment of the sc_tag and sc_str arrays placed in caller buffers (a pointer and a size_t
 * each; an alignment always divides the size). */
#define SC_EVENT_ALIGN (sizeof(void *) > sizeof(size_t) ? sizeof(void *) : sizeof(size_t))

/* Bytes to skip at p to reach SC_EVENT_ALIGN. */
size_t sc_event_align_pad(const void *p);

/* Builder bytes that suffice, at any alignment, for one tag of n items holding `bytes`
 * string bytes (the sc_tag, its alignment padding, the n views and the bytes); saturates. */
size_t sc_event_tag_cost(size_t n, size_t bytes);

/* Builder bytes for the two ends' alignment (start and back), at any buffer address. */
#define SC_EVENT_BUILDER_SLACK (2 * (SC_EVENT_ALIGN - 1))

/* Writes ev as JSON (SC_EVENT_JSON_CANONICAL or SC_EVENT_JSON_OBJECT) to w. ev must have passed
 * sc_event_check and carry a pubkey. */
void sc_event_write(sc_jw *w, const sc_event *ev, unsigned flags);

#endif
