/* A listing by REQ: every event of a filter, in pages that go back in time (until the oldest
 * event of the page before), each event once, to the page that brings nothing new. A relay
 * answers a REQ with at most its own limit of events (often 500); the pages get past it
 * without knowing it. relay sync lists a relay's wraps this way when the relay lacks NIP-77. */
#include "relay_cmd.h"

#include <stdio.h>
#include <string.h>

/* Opens the next page's subscription (closing the page before). */
static int list_page(cli_relay_list *l, cli_relay *r)
{
    sc_str id;
    sc_status st;

    if (l->sub_id[0] != '\0') {
        sc_str old = {l->sub_id, strlen(l->sub_id)};

        st = sc_relay_session_unsubscribe(&r->s, old); /* its EOSE came: CLOSE it */
        if (st != SC_OK && st != SC_ERR_SUBSCRIPTION) {
            return cli_fail_status(st, "cannot close a subscription");
        }
    }
    l->page = l->base;
    if (l->pages > 0) {
        l->page.until = l->page_min;
        l->page.has |= SC_RELAY_FILTER_UNTIL;
    }
    snprintf(l->sub_id, sizeof l->sub_id, "list-%zu", l->pages++);
    l->page_new = 0;
    l->page_min = INT64_MAX;
    id.ptr = l->sub_id;
    id.len = strlen(l->sub_id);
    st = sc_relay_session_subscribe(&r->s, id, &l->page, 1);
    return st == SC_OK ? CLI_RELAY_CONTINUE : cli_fail_status(st, "cannot subscribe");
}

int cli_relay_list_start(cli_relay_list *l, cli_relay *r, const sc_relay_filter *base)
{
    l->base = *base;
    l->pages = 0;
    l->sub_id[0] = '\0';
    return list_page(l, r);
}

int cli_relay_list_event(cli_relay_list *l, const sc_event *ev)
{
    int k = cli_idset_add(&l->seen, ev->id);

    if (k < 0) {
        return cli_fail(CLI_ERROR, "out of memory");
    }
    if (ev->created_at < l->page_min) {
        l->page_min = ev->created_at;
    }
    l->page_new += (size_t)k;
    return k;
}

int cli_relay_list_eose(cli_relay_list *l, cli_relay *r)
{
    return l->page_new == 0 ? CLI_RELAY_DONE : list_page(l, r);
}

void cli_relay_list_free(cli_relay_list *l)
{
    cli_idset_free(&l->seen);
}
