/* The relay pool suite (pool.h): shared helpers. A rig is a pool over static memory with a
 * clock, driven by hand: the test plays every relay, writing the texts each would send and
 * reading what the pool sends. */
#ifndef SOFTCHAT_TESTS_POOL_H
#define SOFTCHAT_TESTS_POOL_H

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <softchat/softchat.h>

#include "vectors_util.h"

/* The wall clock of the suite, in unix milliseconds (2023-11-14), after every event made. */
#define T0 INT64_C(1700001000000)

typedef struct pool_env {
    sc_ctx ctx;
    const char *backend;
    sc_identity alice, bob;
    uint8_t alice_pub[32], bob_pub[32];
} pool_env;

/* A signed event and the arrays it points into (tags as in test_relay: NULL-separated item
 * lists ending with two NULLs). */
typedef struct pool_ev {
    sc_event ev;
    sc_tag tags[8];
    sc_str items[24];
    char content[64];
} pool_ev;
void pool_make(pool_env *e, pool_ev *h, uint32_t kind, int64_t created_at, const char *content,
               const char *const *tags);

/* A pool over static memory, its clock and the last update. */
typedef struct rig {
    pool_env *e;
    sc_pool p;
    uint8_t *mem;
    size_t mem_len;
    int64_t now;
    sc_pool_update u;
    char out[1 << 14];
    size_t len;
    uint8_t arena[1 << 16];
} rig;

/* Sets up r's pool with o (NULL: defaults, which need memory from the heap). */
void rig_init(rig *r, pool_env *e, const sc_pool_opts *o);
void rig_clear(rig *r);
/* Adds a relay, or fails the test. */
uint32_t rig_relay(rig *r, const char *url);
/* The next update at the rig's clock (u->kind NONE when none). */
sc_pool_update_kind rig_poll(rig *r);
/* Polls until the update of kind comes (failing on NONE, or after 64 others). */
void rig_expect(rig *r, sc_pool_update_kind kind);
/* Polls until NONE, failing on an update of kind `never` (or any but CONNECT when never is
 * SC_POOL_U_NONE). Returns the number of updates seen. */
int rig_drain(rig *r, sc_pool_update_kind never);
/* Polls for CONNECT of relay, and reports the socket open. */
void rig_connect(rig *r, uint32_t relay);
/* The next text for relay, NUL-terminated in r->out ("" when none). */
const char *rig_next(rig *r, uint32_t relay);
/* Sends every queued text of relay; returns how many, the last in r->out. */
int rig_flush(rig *r, uint32_t relay);
/* One text from relay at the rig's clock: sc_pool_receive's status. */
sc_status rig_recv(rig *r, uint32_t relay, const char *text);
/* A NUL-terminated string as an sc_str (SC_STR takes literals only). */
sc_str str_of(const char *s);
/* Texts a relay sends. */
const char *msg_ok(char *buf, size_t cap, const uint8_t id[32], int accepted, const char *msg);
const char *msg_event(char *buf, size_t cap, const char *sub, const sc_event *ev);
/* The event id of an ["EVENT", {...}] text the pool sent (1 when it is one). */
int sent_event_id(const char *text, uint8_t id[32]);

/* Counts the library's own allocations from start to stop (test_pool_alloc.c): -1 where the
 * linker cannot wrap malloc. */
void alloc_count_start(void);
long alloc_count_stop(void);

void test_opts(void **state);
void test_memory(void **state);
void test_relays(void **state);
void test_links(void **state);
void test_publish_results(void **state);
void test_publish_retries(void **state);
void test_publish_lost(void **state);
void test_publish_timeout(void **state);
void test_publish_unattributed(void **state);
void test_publish_removed(void **state);
void test_publish_args(void **state);
void test_sub_dedupe(void **state);
void test_sub_eose(void **state);
void test_sub_closed(void **state);
void test_sub_once_replace(void **state);
void test_sub_future(void **state);
void test_sub_args(void **state);
void test_dropped(void **state);
void test_cursor_resume(void **state);
void test_cursor_bytes(void **state);
void test_cursor_args(void **state);
void test_auth_on_demand(void **state);
void test_auth_policies(void **state);
void test_auth_refused(void **state);
void test_auth_late(void **state);
void test_auth_external(void **state);
void test_auth_wanted(void **state);
void test_auth_wanted_policies(void **state);
void test_inboxes(void **state);
void test_delivery(void **state);
void test_delivery_failed(void **state);
void test_alloc(void **state);

#endif
