/* NIP-17 kind 10050: the relays a user receives direct messages on, as ["relay", url] tags. */
#include <softchat/nip17.h>

#include <string.h>

#include "event/event_builder.h"
#include "nip17/nip17_internal.h"

static const char k_relay[] = "relay";

size_t sc_nip17_inbox_build_buf_max(const sc_str *relays, size_t n)
{
    size_t total = SC_EVENT_BUILDER_SLACK, i; /* the builder aligns both ends */

    if (relays == NULL && n != 0) {
        return 0;
    }
    for (i = 0; i < n; i++) {
        total = sc_size_add(total,
                            sc_event_tag_cost(2, sc_size_add(sizeof k_relay - 1, relays[i].len)));
    }
    return sc_size_public(total);
}

sc_status sc_nip17_inbox_build(sc_event *ev, void *buf, size_t cap, const sc_str *relays, size_t n,
                               int64_t created_at)
{
    sc_event_builder b;
    sc_str items[2];
    size_t i;

    if (ev == NULL) {
        return SC_ERR_ARG;
    }
    memset(ev, 0, sizeof *ev);
    if ((buf == NULL && cap != 0) || (relays == NULL && n != 0)) {
        return SC_ERR_ARG;
    }
    for (i = 0; i < n; i++) {
        if (relays[i].len == 0) {
            return SC_ERR_ARG;
        }
    }
    if (sc_event_builder_init(&b, buf, cap) != SC_OK) {
        return SC_ERR_ARG;
    }
    sc_event_builder_kind(&b, SC_NIP17_KIND_INBOX_RELAYS);
    sc_event_builder_created_at(&b, created_at);
    items[0].ptr = k_relay;
    items[0].len = sizeof k_relay - 1;
    for (i = 0; i < n; i++) {
        items[1] = relays[i];
        sc_event_builder_tag(&b, items, 2);
    }
    return sc_event_builder_final(&b, ev, NULL);
}

sc_status sc_nip17_inbox_parse(sc_str *relays, size_t relays_cap, size_t *relays_len,
                               const sc_event *ev)
{
    size_t t, count = 0;

    if (relays_len == NULL) {
        return SC_ERR_ARG;
    }
    *relays_len = 0;
    if (ev == NULL || (relays == NULL && relays_cap != 0) ||
        (ev->tags == NULL && ev->n_tags != 0)) {
        return SC_ERR_ARG;
    }
    if (ev->kind != SC_NIP17_KIND_INBOX_RELAYS) {
        return SC_ERR_MESSAGE;
    }
    /* count first: on SC_ERR_BUFFER_TOO_SMALL nothing is written */
    for (t = 0; t < ev->n_tags; t++) {
        const sc_tag *tag = &ev->tags[t];

        if (tag->n_items >= 2 && sc_nip17_is(&tag->items[0], k_relay) && tag->items[1].len != 0) {
            count++;
        }
    }
    *relays_len = count;
    if (count > relays_cap) {
        return SC_ERR_BUFFER_TOO_SMALL;
    }
    for (t = 0, count = 0; t < ev->n_tags; t++) {
        const sc_tag *tag = &ev->tags[t];

        if (tag->n_items >= 2 && sc_nip17_is(&tag->items[0], k_relay) && tag->items[1].len != 0) {
            relays[count++] = tag->items[1];
        }
    }
    return SC_OK;
}
