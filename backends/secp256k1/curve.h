/* The shared libsecp256k1 curve group; every backend table points its curve slot here. */
#ifndef SOFTCHAT_BACKENDS_SECP256K1_CURVE_H
#define SOFTCHAT_BACKENDS_SECP256K1_CURVE_H

#include <softchat/backend.h>

extern const sc_backend_curve sc_curve_secp256k1;

#endif
