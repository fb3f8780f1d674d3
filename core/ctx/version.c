/* Library and dependency versions. SC_SECP256K1_VERSION is set by CMake from pkg-config or
 * the source tree, since libsecp256k1 has no runtime version query. */
#include <softchat/version.h>

#ifndef SC_SECP256K1_VERSION
#define SC_SECP256K1_VERSION "unknown"
#endif

#define SC_STRINGIFY2(x) #x
#define SC_STRINGIFY(x) SC_STRINGIFY2(x)

const char *sc_version(void)
{
    return SC_STRINGIFY(SC_VERSION_MAJOR) "." SC_STRINGIFY(SC_VERSION_MINOR) "." SC_STRINGIFY(
        SC_VERSION_PATCH);
}

const char *sc_version_secp256k1(void)
{
    return SC_SECP256K1_VERSION;
}
