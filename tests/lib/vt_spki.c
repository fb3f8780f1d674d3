/* Strict DER reader for the EC SubjectPublicKeyInfo shape (see vt_spki.h): single-byte tags,
 * minimal definite lengths, no trailing bytes at any level. */
#include "vt_spki.h"

#include <string.h>

typedef struct der {
    const uint8_t *p;
    size_t len;
} der;

/* Reads one element of the expected tag from *in into *content. 1 on success. */
static int der_take(der *in, uint8_t tag, der *content)
{
    size_t len, hdr = 2;

    if (in->len < 2 || in->p[0] != tag) {
        return 0;
    }
    len = in->p[1];
    if (len == 0x81) {
        if (in->len < 3 || in->p[2] < 0x80) {
            return 0; /* non-minimal */
        }
        len = in->p[2];
        hdr = 3;
    } else if (len == 0x82) {
        if (in->len < 4 || in->p[2] == 0 || ((size_t)in->p[2] << 8 | in->p[3]) < 0x100) {
            return 0;
        }
        len = (size_t)in->p[2] << 8 | in->p[3];
        hdr = 4;
    } else if (len >= 0x80) {
        return 0; /* indefinite or longer than this structure can be */
    }
    if (in->len - hdr < len) {
        return 0;
    }
    content->p = in->p + hdr;
    content->len = len;
    in->p += hdr + len;
    in->len -= hdr + len;
    return 1;
}

static int is_oid(const der *d, const uint8_t *oid, size_t n)
{
    return d->len == n && memcmp(d->p, oid, n) == 0;
}

vt_spki_result vt_spki_parse(const uint8_t *bytes, size_t len, vt_spki *out)
{
    static const uint8_t ec_public_key[] = {0x2a, 0x86, 0x48, 0xce, 0x3d, 0x02, 0x01};
    static const uint8_t secp256k1[] = {0x2b, 0x81, 0x04, 0x00, 0x0a};
    der in, spki, alg, oid, params, bits;

    memset(out, 0, sizeof *out);
    in.p = bytes;
    in.len = len;
    if (!der_take(&in, 0x30, &spki) || in.len != 0) {
        return VT_SPKI_BAD_DER;
    }
    if (!der_take(&spki, 0x30, &alg) || !der_take(&alg, 0x06, &oid) ||
        !is_oid(&oid, ec_public_key, sizeof ec_public_key)) {
        return VT_SPKI_BAD_DER;
    }
    if (alg.len != 0 && alg.p[0] == 0x06) {
        if (!der_take(&alg, 0x06, &params) || params.len == 0) {
            return VT_SPKI_BAD_DER;
        }
        out->secp256k1_named = is_oid(&params, secp256k1, sizeof secp256k1);
    } else if (der_take(&alg, 0x30, &params)) {
        out->explicit_params = 1;
    } else {
        return VT_SPKI_BAD_DER;
    }
    if (alg.len != 0 || !der_take(&spki, 0x03, &bits) || spki.len != 0 || bits.len < 1 ||
        bits.p[0] != 0) {
        return VT_SPKI_BAD_DER;
    }
    bits.p++;
    bits.len--;
    if (bits.len == 65 && bits.p[0] == 0x04) {
        memcpy(out->x, bits.p + 1, 32);
        memcpy(out->y, bits.p + 33, 32);
    } else if (bits.len == 33 && (bits.p[0] == 0x02 || bits.p[0] == 0x03)) {
        memcpy(out->x, bits.p + 1, 32);
    } else {
        return VT_SPKI_BAD_POINT;
    }
    out->prefix = bits.p[0];
    return VT_SPKI_OK;
}
