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

/* sc_event_check without the UTF-8 of the strings: kinds, ranges, NULL pointers, empty tags.
 * When it passes, sc_event_check can fail only with SC_ERR_UTF8, at the first ill-formed
 * string in the order the writer writes them (tags in order, then the content). */
sc_status sc_event_check_shape(const sc_event *ev);

/* What an entry point that writes ev checks before the writer: the shape, then the flags in
 * `need`; on a failure, the status sc_event_check (then the missing field) gives, exactly.
 * The writer then finds any ill-formed UTF-8 (SC_ERR_UTF8), so the text is read once. */
sc_status sc_event_check_written(const sc_event *ev, unsigned need);

/* Writes ev as JSON (SC_EVENT_JSON_CANONICAL or SC_EVENT_JSON_OBJECT) to w. ev must have passed
 * sc_event_check_written; ill-formed UTF-8 stops w with SC_ERR_UTF8. */
void sc_event_write(sc_jw *w, const sc_event *ev, unsigned flags);

#endif
