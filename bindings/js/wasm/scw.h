/* The C side of the JavaScript package (bindings/js): what the TypeScript API calls in the
 * wasm module, and the state it shares with it.
 *
 * One scw per module instance (a module is single-threaded: one instance per page or
 * worker). It owns one sc_ctx, an input buffer and working memory. A call crosses the
 * boundary once: the TypeScript side writes its inputs into the input buffer (UTF-8 text
 * by TextEncoder.encodeInto, bytes by one copy), calls an scw_* function, which leaves its
 * variable-length result in working memory at w->out[0..w->out_len) and fixed-size results
 * in w->res, and returns the status; the TypeScript side copies the result out (one
 * TextDecoder pass or one slice) and calls scw_done, which wipes what the call wrote. So a
 * call costs one copy in and one copy out, as the JNI glue does.
 *
 * Nothing here allocates per call below SCW_KEEP_BYTES: the input buffer and the working
 * memory grow to that size once and are reused; a larger call takes a temporary block that
 * scw_done wipes and frees, so the wasm heap does not grow with the number of calls. */
#ifndef SOFTCHAT_JS_SCW_H
#define SOFTCHAT_JS_SCW_H

#include <softchat/softchat.h>

#include <stddef.h>
#include <stdint.h>

#define SCW_KEEP_BYTES (256u * 1024u)
#define SCW_RES_BYTES 256u

/* Memory kept between calls (SCW_KEEP_BYTES), handed out in 16-byte aligned pieces, and
 * temporary blocks for what does not fit; scw_done wipes every byte handed out (what the
 * call may have written) and frees the temporary blocks. */
#define SCW_TEMP_BLOCKS 6
typedef struct scw_region {
    uint8_t *keep;
    size_t off; /* bytes of keep handed out */
    uint8_t *temp[SCW_TEMP_BLOCKS];
    size_t temp_len[SCW_TEMP_BLOCKS];
    uint8_t *first; /* the first piece of the call (the result, for the output region) */
} scw_region;

/* The layout the TypeScript side reads (wasm32: 4-byte pointers): keep the first four
 * fields and res where they are (scw.c checks the offsets). */
typedef struct scw {
    uint8_t *out;               /* 0: the call's result */
    uint32_t out_len;           /* 4 */
    uint8_t *in;                /* 8: the input buffer */
    uint32_t in_cap;            /* 12 */
    uint8_t res[SCW_RES_BYTES]; /* 16: fixed-size results (keys, ids, times) */
    sc_ctx *ctx;
    scw_region scratch; /* arenas and scratch of the running call */
    scw_region output;  /* its result */
} scw;

/* Scratch memory of n bytes for the running call (a call may ask several times); NULL when
 * there is no memory. */
uint8_t *scw_scratch(scw *w, size_t n);

/* Output memory of n bytes for the running call; NULL when there is no memory. The first
 * piece a call asks for is where its result is. */
uint8_t *scw_output(scw *w, size_t n);

/* Sets the result to the first n bytes of the output memory. Returns SC_OK. */
sc_status scw_result(scw *w, size_t n);

/* Ends the call: wipes the working memory it used and releases a temporary block. */
void scw_done(scw *w);

/* a + b and a * b without wrapping (1, or 0 when the result does not fit size_t); rounds
 * up to 16. */
int scw_add(size_t *r, size_t a, size_t b);
int scw_mul(size_t *r, size_t a, size_t b);
int scw_align(size_t *r, size_t n);

/* Parses an event given as JSON (JSON.stringify of the TypeScript object, or a relay's
 * text) into ev, whose views point into scratch memory; fields in `optional` may be
 * absent. Inputs over SCW_MAX_INPUT are SC_ERR_TOO_LARGE before anything is allocated. */
sc_status scw_event_in(scw *w, sc_event *ev, const char *json, size_t len, unsigned optional);

/* Writes the JSON object of ev to the output memory, followed by `extra` bytes the caller
 * fills (*tail points at them), and makes all of it the result. */
sc_status scw_event_out(scw *w, const sc_event *ev, size_t extra, uint8_t **tail);

/* NIP-59 options from the TypeScript side's values: flags, the relay hint relay[0..rlen),
 * expiration and now (doubles holding unix seconds; 0: none / the library's clock). */
sc_status scw_wrap_opts(sc_nip59_opts *o, uint32_t flags, const char *relay, uint32_t rlen,
                        double expiration, double now);

/* A time from the TypeScript side (a double holding a non-negative integer). 1, or 0. */
int scw_time(double t, int64_t *out);

/* What unwrap learned, into res (the layout is in event.c). */
void scw_put_info(scw *w, const sc_nip59_info *i);

/* Parses a filters blob (u32 count, then per filter u32 length + its JSON object, at most
 * 64 filters) into one malloc'd block: the sc_relay_filter array, then each filter's arena.
 * *mem is the block (the caller frees it), *n_out the count. */
sc_status scw_filters_parse(void **mem, size_t *n_out, const uint8_t *b, size_t blen);

/* The facade's cap on JSON it parses (events, wraps, relay messages) before anything is
 * allocated, as the Kotlin facade's default. */
#define SCW_MAX_INPUT (1024u * 1024u)

#endif
