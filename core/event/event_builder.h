/* The builder's size accounting (core/event/event_builder.c), for the modules that compute
 * a buffer bound for the tags they add (core/nip17). */
#ifndef SOFTCHAT_CORE_EVENT_BUILDER_H
#define SOFTCHAT_CORE_EVENT_BUILDER_H

#include <softchat/event.h>

#include "event/event_align.h"

/* Builder bytes that suffice, at any alignment, for one tag of n items holding `bytes`
 * string bytes (the sc_tag, its alignment padding, the n views and the bytes); saturates. */
size_t sc_event_tag_cost(size_t n, size_t bytes);

/* Builder bytes for the two ends' alignment (start and back), at any buffer address. */
#define SC_EVENT_BUILDER_SLACK (2 * (SC_EVENT_ALIGN - 1))

#endif
