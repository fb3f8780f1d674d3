/* Reading a backend table's groups without a context (core/crypto/backend.c): a group's
 * pointer, and a field that a group compiled against an older ABI minor may lack.
 *
 * Group sizes: a context binds only a validated table, whose present groups reach every
 * required function (and so setup/teardown, which precede them), so core calls those
 * directly. A field a group may lack (one appended by a later ABI minor) is read only through
 * SC_GROUP_FN, which gives NULL for a field beyond the group's declared size. */
#ifndef SOFTCHAT_CORE_CRYPTO_BACKEND_H
#define SOFTCHAT_CORE_CRYPTO_BACKEND_H

#include <softchat/backend.h>

#include <stddef.h>

/* Whether group g (a non-NULL pointer to a sub-table of type `type`) was compiled with field
 * f: its declared size reaches the end of f. */
#define SC_GROUP_HAS(type, g, f)                                                                   \
    ((size_t)(g)->size >= offsetof(type, f) + sizeof(((const type *)0)->f))

/* Field f of group g, or NULL when f lies beyond the group's declared size. */
#define SC_GROUP_FN(type, g, f) (SC_GROUP_HAS(type, g, f) ? (g)->f : NULL)

/* Group g of table b, or NULL when absent or beyond the table's struct_size. */
const void *sc_backend_group_ptr(const sc_backend *b, sc_group g);

#endif
