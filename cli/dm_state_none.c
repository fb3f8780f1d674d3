/* dm listen's state store in a build without SQLite (SOFTCHAT_CLI_SQLITE=OFF): dm listen
 * says so and stops. */
#include "dm.h"

cli_dm_state *cli_dm_state_open(const char *path, const uint8_t me[SC_PUBKEY_BYTES], int *rc)
{
    (void)path;
    (void)me;
    *rc = cli_fail(CLI_ERROR, "this softchat was built without SQLite (SOFTCHAT_CLI_SQLITE=OFF): "
                              "dm listen has no state store");
    return NULL;
}

int cli_dm_state_cursor(cli_dm_state *s, cli_buf *out)
{
    (void)s;
    (void)out;
    return CLI_ERROR;
}

int cli_dm_state_seen(cli_dm_state *s, const uint8_t id[SC_EVENT_ID_BYTES])
{
    (void)s;
    (void)id;
    return -1;
}

int cli_dm_state_commit(cli_dm_state *s, const uint8_t id[SC_EVENT_ID_BYTES], const uint8_t *cursor,
                        size_t cursor_len)
{
    (void)s;
    (void)id;
    (void)cursor;
    (void)cursor_len;
    return CLI_ERROR;
}

void cli_dm_state_close(cli_dm_state *s)
{
    (void)s;
}
