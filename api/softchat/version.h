/* libsoftchat: library version. */
#ifndef SOFTCHAT_VERSION_H
#define SOFTCHAT_VERSION_H

#include "common.h"

SC_BEGIN_DECLS

#define SC_VERSION_MAJOR 1
#define SC_VERSION_MINOR 1
#define SC_VERSION_PATCH 0

/** The library version as "MAJOR.MINOR.PATCH".
 *  Returns: a static NUL-terminated string (the library's, which may differ from the
 *  SC_VERSION_* macros a program was compiled with). RNG: no. */
SC_API const char *sc_version(void);

/** The version of the libsecp256k1 the library was built against.
 *  Returns: a static NUL-terminated string ("unknown" when the build could not tell). RNG: no. */
SC_API const char *sc_version_secp256k1(void);

SC_END_DECLS

#endif
