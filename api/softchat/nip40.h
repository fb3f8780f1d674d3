/* libsoftchat: NIP-40 expiration timestamps.
 *
 * An event may carry ["expiration", "<unix seconds>"]: from that second on it is expired,
 * clients should not show it and relays should not serve it. It is not a security feature
 * (copies may remain). Sending: sc_nip59_opts.expiration puts the tag on the gift wrap (and
 * on the seal unless SC_NIP59_EXPIRATION_WRAP_ONLY); receiving: sc_nip59_unwrap_at and
 * sc_nip17_receive_at refuse expired layers; any event: sc_nip40_check.
 */
#ifndef SOFTCHAT_NIP40_H
#define SOFTCHAT_NIP40_H

#include "event.h"

SC_BEGIN_DECLS

/** The expiration time of ev: the value of its one ["expiration", v, ...] tag, v a decimal
 *  integer (no sign, no leading zero unless "0", at most INT64_MAX).
 *  Returns: SC_OK; SC_ERR_NOT_FOUND (no expiration tag); SC_ERR_EVENT_FIELD (a value that is
 *           not such a number, a tag without a value, or more than one expiration tag: two
 *           readers could disagree); SC_ERR_ARG (ev or expiration NULL, tags NULL with a
 *           count).
 *  Out: *expiration (0 on failure).
 *  In: ev.
 *  Constant time: no (public data). RNG: no. No context, no allocation. */
SC_API SC_WARN_UNUSED sc_status sc_nip40_expiration(const sc_event *ev, int64_t *expiration)
    SC_NONNULL(1, 2);

/** Whether ev is still valid at time now: SC_OK when it has no expiration tag or now is
 *  before it; SC_ERR_EXPIRED when now >= the expiration.
 *  Returns: SC_OK; SC_ERR_EXPIRED; SC_ERR_EVENT_FIELD (as sc_nip40_expiration); SC_ERR_ARG
 *           (ev NULL).
 *  In: ev; now (unix seconds, the caller's clock).
 *  Constant time: no (public data). RNG: no. No context, no allocation. */
SC_API SC_WARN_UNUSED sc_status sc_nip40_check(const sc_event *ev, int64_t now) SC_NONNULL(1);

SC_END_DECLS

#endif
