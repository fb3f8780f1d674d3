/* A small JSON writer for the canonical event text. One writer targets either a caller buffer
 * (with exact length accounting, or counting only) or a sink through a staging buffer inside
 * the writer: the event id streams the very bytes sc_event_to_json writes into SHA-256 that
 * way (core/event/event.c), without this file knowing of a context or a backend. */
#ifndef SOFTCHAT_CORE_JSON_WRITE_H
#define SOFTCHAT_CORE_JSON_WRITE_H

#include <softchat/common.h>

#include <stddef.h>
#include <stdint.h>

#define SC_JW_STAGE 512

/* Sink mode's consumer: takes p[0..n) (the stage, or a long verbatim run in place); SC_OK or
 * the failure that stops the writer. */
typedef sc_status (*sc_jw_sink_fn)(void *arg, const uint8_t *p, size_t n);

typedef struct sc_jw {
    char *out;          /* buffer mode: destination, or NULL to count only */
    size_t cap;         /* buffer mode: bytes available at out */
    size_t len;         /* bytes produced so far (also when counting or sinking) */
    sc_jw_sink_fn sink; /* sink mode when non-NULL */
    void *sink_arg;     /* sink mode: the sink's first argument */
    size_t staged;      /* sink mode: bytes waiting in stage */
    size_t stage_used;  /* sink mode: the most bytes the stage has held (what to wipe) */
    sc_status st;       /* first failure; every later call is a no-op */
    uint8_t stage[SC_JW_STAGE];
} sc_jw;

/* Buffer mode over out[0..cap); out NULL with cap 0 counts without writing. Running past
 * cap is SC_ERR_BUFFER_TOO_SMALL (callers measure first, so it is a guard only). */
void sc_jw_init_buf(sc_jw *w, char *out, size_t cap);

/* Sink mode: bytes go to sink(arg, ...) through the stage, in order; runs of SC_JW_STAGE
 * bytes or more of structural text go to the sink directly after the stage is flushed. */
void sc_jw_init_sink(sc_jw *w, sc_jw_sink_fn sink, void *arg);

/* Raw bytes (structural text). */
void sc_jw_raw(sc_jw *w, const char *s, size_t n);

/* A JSON string: quotes, the seven short escapes, \u00xx for the other C0 controls,
 * everything else verbatim. The bytes are checked for UTF-8 on the way (the same check as
 * sc_utf8_check): ill-formed text stops the writer with SC_ERR_UTF8, so a caller that checked
 * an event's shape (sc_event_check_shape) learns the rest of sc_event_check from the writer,
 * without a pass of its own. */
void sc_jw_string(sc_jw *w, const char *s, size_t n);

/* One raw byte (structural text). */
void sc_jw_char(sc_jw *w, char c);

/* A non-negative decimal integer. */
void sc_jw_u64(sc_jw *w, uint64_t v);

/* A quoted lowercase hex string of p[0..n), n <= 64. */
void sc_jw_hex(sc_jw *w, const uint8_t *p, size_t n);

/* Sink mode: pushes the staged bytes to the sink. Returns the writer's status.
 * Afterwards stage[0..stage_used) covers every byte the stage has held. */
sc_status sc_jw_flush(sc_jw *w);

#endif
