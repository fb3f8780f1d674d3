/* The "sodium+mbedtls" composite backend.
 *
 * libsodium's AES-256-GCM runs only on CPUs with hardware AES, only with 12-byte IVs and only
 * one-shot. This table takes SHA-256, HMAC-SHA256, ChaCha20, the RNG, XChaCha20-Poly1305 and
 * scrypt from libsodium and AES-256-GCM from mbed TLS (any CPU, 12- and 16-byte IVs,
 * streaming), with the shared libsecp256k1 curve. mbed TLS has no scrypt, so of the mobile
 * tables this one and plain sodium offer NIP-49.
 *
 * A named composite is the only sanctioned way to mix libraries: the mix is a registry entry
 * of its own, visible in the backend name, never assembled at run time. Each group's `lib`
 * field says which library implements it (sc_backend_group_lib). Groups keep separate state,
 * so groups from the two libraries share nothing.
 */
#include <softchat/backend.h>

#include <mbedtls/version.h>
#include <sodium/version.h>

#include "../mbedtls/groups.h"
#include "../secp256k1/curve.h"
#include "../sodium/groups.h"

/* Built at compile time from the two headers' versions: assembling it at run time would need
 * a mutable buffer. */
static const char *sodium_mbedtls_lib_version(void)
{
    return "libsodium " SODIUM_VERSION_STRING " + mbed TLS " MBEDTLS_VERSION_STRING;
}

const sc_backend sc_backend_sodium_mbedtls = {
    .abi_version = SC_BACKEND_ABI_VERSION,
    .struct_size = sizeof(sc_backend),
    .name = "sodium+mbedtls",
    .lib_version = sodium_mbedtls_lib_version,
    .hash = &sc_sodium_hash,
    .mac = &sc_sodium_mac,
    .stream = &sc_sodium_stream,
    .aead = &sc_mbedtls_aead,
    .rng = &sc_sodium_rng,
    .curve = &sc_curve_secp256k1,
    .xaead = &sc_sodium_xaead,
    .scrypt = &sc_sodium_scrypt,
    .why_absent = NULL,
};
