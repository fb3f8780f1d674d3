/* Internal pieces of the relay protocol code: the filter checks and writer shared by the
 * message writer, the matcher and the session, and the session's layout. */
#ifndef SOFTCHAT_CORE_RELAY_INTERNAL_H
#define SOFTCHAT_CORE_RELAY_INTERNAL_H

#include <softchat/relay.h>

#include "util/json_write.h"

/* SC_OK when f could be written (the rules of sc_relay_filter_match's SC_ERR_FILTER, and
 * UTF-8 tag values: SC_ERR_UTF8). */
sc_status sc_relay_filter_check(const sc_relay_filter *f);

/* Writes f as a JSON object; since_floor >= 0 raises its since to at least that value (the
 * session's resume), -1 leaves it. f must have passed sc_relay_filter_check. */
void sc_relay_filter_write(sc_jw *w, const sc_relay_filter *f, int64_t since_floor);

/* SC_OK when id is a valid subscription id (1..64 bytes of UTF-8). */
sc_status sc_relay_sub_id_check(sc_str id);

/* Writes m; since_floor applies to every filter of a REQ or COUNT (see above). */
sc_status sc_relay_msg_emit(sc_jw *w, const sc_relay_client_msg *m, int64_t since_floor);

/* The prefix of an OK / CLOSED / NEG-ERR text and where its reason starts. */
sc_relay_prefix sc_relay_prefix_of(sc_str text, sc_str *reason);

/* An OK the strict parser refuses for its event id alone (empty, or not 64 lowercase hex
 * characters): SC_OK with m's type, accepted, message (unescaped into the arena), prefix and
 * reason, event_id zero; SC_ERR_RELAY_MESSAGE for anything else; SC_ERR_BUFFER_TOO_SMALL
 * (an arena below the message's length; sc_relay_parse_arena_max always suffices). */
sc_status sc_relay_parse_ok_loose(sc_relay_msg *m, void *arena, size_t arena_cap, const char *json,
                                  size_t json_len);

/* Fills a with the unsigned AUTH event for challenge on relay_url (kind 22242, the relay and
 * challenge tags, content "", created_at; no pubkey, id or sig): SC_OK; SC_ERR_ARG (a NULL
 * string with a length); SC_ERR_EMPTY (an empty url or challenge). a is zeroed first. */
sc_status sc_relay_auth_fill(sc_relay_auth *a, sc_str relay_url, sc_str challenge,
                             int64_t created_at);

#endif
