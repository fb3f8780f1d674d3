/* libsoftchat: umbrella header (also the Swift/Clang module umbrella). */
#ifndef SOFTCHAT_SOFTCHAT_H
#define SOFTCHAT_SOFTCHAT_H

#include "backend.h"
#include "base64.h"
#include "common.h"
#include "crypto.h"
#include "ctx.h"
#include "delivery.h"
#include "event.h"
#include "file.h"
#include "hex.h"
#include "identity.h"
#include "mem.h"
#include "negentropy.h"
#include "nip17.h"
#include "nip19.h"
#include "nip40.h"
#include "nip44.h"
#include "nip46.h"
#include "nip49.h"
#include "nip59.h"
#include "pool.h"
#include "nip98.h"
#include "relay.h"
#include "signer.h"
#include "status.h"
#include "version.h"

#endif
