/* The openssl backend's groups that live in their own file (the rest are in backend.c). */
#ifndef SOFTCHAT_BACKENDS_OPENSSL_GROUPS_H
#define SOFTCHAT_BACKENDS_OPENSSL_GROUPS_H

#include <softchat/backend.h>

extern const sc_backend_stream sc_openssl_stream;

#endif
