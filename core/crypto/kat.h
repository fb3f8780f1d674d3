/* The known-answer checks of the backend groups (core/crypto/kat.c), run when a context is
 * bound and by sc_ctx_selftest. */
#ifndef SOFTCHAT_CORE_CRYPTO_KAT_H
#define SOFTCHAT_CORE_CRYPTO_KAT_H

#include <softchat/backend.h>
#include <softchat/ctx.h>

/* Known-answer check of one group against live state; SC_OK, SC_ERR_BACKEND, or
 * SC_ERR_UNSUPPORTED (group absent or unavailable on this machine). */
sc_status sc_kat_group(sc_ctx *ctx, sc_group g);

#endif
