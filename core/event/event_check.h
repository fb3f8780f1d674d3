/* The field checks of core/event/event_check.c that the writers share (sc_event_check itself
 * is public). */
#ifndef SOFTCHAT_CORE_EVENT_CHECK_H
#define SOFTCHAT_CORE_EVENT_CHECK_H

#include <softchat/event.h>

/* sc_event_check without the UTF-8 of the strings: kinds, ranges, NULL pointers, empty tags.
 * When it passes, sc_event_check can fail only with SC_ERR_UTF8, at the first ill-formed
 * string in the order the writer writes them (tags in order, then the content). */
sc_status sc_event_check_shape(const sc_event *ev);

/* What an entry point that writes ev checks before the writer: the shape, then the flags in
 * `need`; on a failure, the status sc_event_check (then the missing field) gives, exactly.
 * The writer then finds any ill-formed UTF-8 (SC_ERR_UTF8), so the text is read once. */
sc_status sc_event_check_written(const sc_event *ev, unsigned need);

#endif
