/* See vt_secp.h. */
#include "vt_secp.h"

#include <secp256k1.h>

#include <string.h>

int vt_secp_x_lifts(const uint8_t x[32])
{
    secp256k1_pubkey pk;
    unsigned char ser[33];

    ser[0] = 0x02;
    memcpy(ser + 1, x, 32);
    return secp256k1_ec_pubkey_parse(secp256k1_context_static, &pk, ser, sizeof ser);
}

int vt_secp_on_curve(const uint8_t x[32], const uint8_t y[32])
{
    secp256k1_pubkey pk;
    unsigned char ser[65];

    ser[0] = 0x04;
    memcpy(ser + 1, x, 32);
    memcpy(ser + 33, y, 32);
    return secp256k1_ec_pubkey_parse(secp256k1_context_static, &pk, ser, sizeof ser);
}

int vt_secp_scalar_ok(const uint8_t k[32])
{
    return secp256k1_ec_seckey_verify(secp256k1_context_static, k);
}
