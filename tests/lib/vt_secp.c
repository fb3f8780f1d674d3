/* See vt_secp.h. */
#include "vt_secp.h"

#include <secp256k1.h>
#include <secp256k1_ecdh.h>

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

static int copy_x(unsigned char *out, const unsigned char *x32, const unsigned char *y32,
                  void *data)
{
    (void)y32;
    (void)data;
    memcpy(out, x32, 32);
    return 1;
}

int vt_secp_ecdh_x(uint8_t x[32], const uint8_t sec[32], const uint8_t pub[32])
{
    secp256k1_pubkey pk;
    unsigned char ser[33];

    ser[0] = 0x02;
    memcpy(ser + 1, pub, 32);
    if (!secp256k1_ec_pubkey_parse(secp256k1_context_static, &pk, ser, sizeof ser) ||
        !secp256k1_ecdh(secp256k1_context_static, x, &pk, sec, copy_x, NULL)) {
        memset(x, 0, 32);
        return 0;
    }
    return 1;
}
