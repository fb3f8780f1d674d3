/* Library and dependency versions. SC_SECP256K1_VERSION is set by CMake from pkg-config or
 * the source tree, since libsecp256k1 has no runtime version query. */
#include <softchat/version.h>

#ifndef SC_SECP256K1_VERSION
#define SC_SECP256K1_VERSION "unknown"
#endif

#define SC_STR2(x) #x
#define SC_STR(x) SC_STR2(x)

const char *sc_version(void)
{
    return SC_STR(SC_VERSION_MAJOR) "." SC_STR(SC_VERSION_MINOR) "." SC_STR(SC_VERSION_PATCH);
}

const char *sc_secp256k1_version(void)
{
    return SC_SECP256K1_VERSION;
}
