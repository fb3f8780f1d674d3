/* Strict DER parsing of an EC SubjectPublicKeyInfo (RFC 5480), as Wycheproof's ECDH files
 * encode public keys:
 *   SEQUENCE { SEQUENCE { OID id-ecPublicKey, OID namedCurve | SEQUENCE ecParameters },
 *              BIT STRING (0 unused bits) { SEC1 point } } */
#ifndef SOFTCHAT_TESTS_VT_SPKI_H
#define SOFTCHAT_TESTS_VT_SPKI_H

#include <stddef.h>
#include <stdint.h>

typedef enum vt_spki_result {
    VT_SPKI_OK = 0,       /* a SEC1 point with 32-byte coordinates */
    VT_SPKI_BAD_DER = 1,  /* not strict DER, or not the SPKI structure above */
    VT_SPKI_BAD_POINT = 2 /* well-formed SPKI, but the point is empty, of another size or
                             has an unknown SEC1 prefix */
} vt_spki_result;

typedef struct vt_spki {
    int secp256k1_named; /* the parameters are the secp256k1 OID */
    int explicit_params; /* the parameters are an explicit ECParameters SEQUENCE */
    uint8_t prefix;      /* 0x02, 0x03 (compressed) or 0x04 (uncompressed) */
    uint8_t x[32];
    uint8_t y[32]; /* uncompressed points only */
} vt_spki;

vt_spki_result vt_spki_parse(const uint8_t *der, size_t len, vt_spki *out);

#endif
