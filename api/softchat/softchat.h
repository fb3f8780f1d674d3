/* libsoftchat: umbrella header (also the Swift/Clang module umbrella). */
#ifndef SOFTCHAT_SOFTCHAT_H
#define SOFTCHAT_SOFTCHAT_H

#include "backend.h"
#include "common.h"
#include "crypto.h"
#include "ctx.h"
#include "encoding.h"
#include "status.h"
#include "version.h"

#endif
