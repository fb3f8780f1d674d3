/* The one event writer of core/event/event_json.c, for the id's hash (core/event/event.c) and
 * for messages that embed an event (core/relay/msg_write.c). */
#ifndef SOFTCHAT_CORE_EVENT_JSON_H
#define SOFTCHAT_CORE_EVENT_JSON_H

#include <softchat/event.h>

#include "util/json_write.h"

/* Writes ev as JSON (SC_EVENT_JSON_CANONICAL or SC_EVENT_JSON_OBJECT) to w. ev must have passed
 * sc_event_check_written; ill-formed UTF-8 stops w with SC_ERR_UTF8. */
void sc_event_write(sc_jw *w, const sc_event *ev, unsigned flags);

#endif
