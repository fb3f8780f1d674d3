/* The JNI glue of the Kotlin facade (org.softchat, bindings/kotlin): shared declarations.
 *
 * Every native method is registered by JNI_OnLoad (onload.c) on one class,
 * org.softchat.internal.NativeBridge; the class and constructor IDs that native code uses are
 * looked up there once and kept as global references. Each public facade call crosses JNI
 * once: bulk data through GetPrimitiveArrayCritical (no JNI call inside a critical region),
 * 32-byte keys by GetByteArrayRegion into stack memory that is wiped. Results are byte
 * arrays (a plain blob layout, blob.h) that the Kotlin side decodes, so native code creates
 * no object but byte[] and org.softchat.SoftchatException.
 *
 * Failures: every failure throws SoftchatException with the library's status. An input over
 * the facade's cap is SC_ERR_TOO_LARGE before anything is allocated; a native or Java
 * allocation failure is SC_ERR_NOMEM (a pending OutOfMemoryError from NewByteArray is
 * cleared and replaced; with no memory left to make that exception, a preallocated one is
 * thrown), so hostile input never surfaces as an Error. */
#ifndef SOFTCHAT_KOTLIN_SCJ_H
#define SOFTCHAT_KOTLIN_SCJ_H

#include <jni.h>
#include <softchat/softchat.h>

#include <stddef.h>
#include <stdint.h>

#define SCJ_CLASS "org/softchat/internal/NativeBridge"

/* A pooled native context: the sc_ctx and its reusable working memory. One thread at a time
 * (the Kotlin pool hands a slot to one caller). */
typedef struct scj_slot {
    sc_ctx *ctx;
    uint8_t *buf;
    size_t cap;
    int busy; /* buf is handed out to a scj_mem of the running call */
} scj_slot;

/* Working memory of one call: the slot's buffer, or a temporary one when the need is over
 * SCJ_KEEP_BYTES (then released to the system after the call). */
#define SCJ_KEEP_BYTES (256u * 1024u)
typedef struct scj_mem {
    uint8_t *p;
    size_t n;   /* bytes asked for */
    size_t cap; /* bytes usable (the slot's buffer may be larger) */
    int owned;
    scj_slot *slot; /* the slot whose buffer this is, when not owned */
} scj_mem;

/* Throws SoftchatException(st). Returns 0. Any pending exception is cleared first, so an
 * OutOfMemoryError from a JNI allocation becomes the SDK's exception; when even the new
 * exception cannot be made (the heap is full), the error that caused it is cleared and the
 * SoftchatException(SC_ERR_NOMEM) made by JNI_OnLoad (scj_nomem) is thrown instead. */
int scj_throw(JNIEnv *env, sc_status st);

/* The slot behind a handle. */
scj_slot *scj_slot_of(jlong h);

/* n bytes of working memory (not zeroed). Returns 1, or 0 with SC_ERR_NOMEM thrown. */
int scj_mem_get(JNIEnv *env, scj_slot *s, scj_mem *m, size_t n);

/* Wipes the first `used` bytes (what the call wrote that may be secret) and releases m. */
void scj_mem_put(scj_mem *m, size_t used);

/* Copies a 32-byte array (a key, an id) into out. Returns 1, or 0 with SC_ERR_ARG thrown. */
int scj_key(JNIEnv *env, jbyteArray a, uint8_t out[32]);

/* A public 32-byte value (an x-only public key, an event id) given as a byte[32] or as a
 * String of 64 hex digits (org.softchat.PublicKey and EventId are their lowercase hex, so
 * they cross without a byte[] made for them): decoded into out. Returns 1, or 0 with
 * SC_ERR_ARG (null, another type, a wrong length) or SC_ERR_ENCODING (not hex) thrown. */
int scj_pub(JNIEnv *env, jobject o, uint8_t out[32]);

/* Length of a (0 for null). */
size_t scj_len(JNIEnv *env, jbyteArray a);

/* A new byte[n]; NULL with SC_ERR_NOMEM (or SC_ERR_TOO_LARGE above 2^31 - 1) thrown. */
jbyteArray scj_new_bytes(JNIEnv *env, size_t n);

/* A new byte[n] holding p[0..n); NULL with an exception thrown. */
jbyteArray scj_bytes(JNIEnv *env, const void *p, size_t n);

/* a + b and a * b without wrapping: 1, or 0 when the result does not fit size_t. */
int scj_add(size_t *r, size_t a, size_t b);
int scj_mul(size_t *r, size_t a, size_t b);

/* Rounds n up to a multiple of 16 (1, or 0 on overflow). */
int scj_align(size_t *r, size_t n);

/* The NIP-59 options of a wrap call: flags, expiration, now and the relay hint, whose bytes
 * are copied into hint (a hint the library would refuse anyway is refused before the call).
 * Returns 1, or 0 with SC_ERR_TOO_LARGE thrown (a hint over SCJ_RELAY_HINT_MAX bytes). */
#define SCJ_RELAY_HINT_MAX 256u
int scj_wrap_opts(JNIEnv *env, sc_nip59_opts *opts, char hint[SCJ_RELAY_HINT_MAX], jint flags,
                  jbyteArray relay, jlong expiration, jlong now);

/* An event given by the Kotlin side (kind, created_at, tags blob, content bytes) as an
 * sc_event whose views point into a copy in working memory. */
typedef struct scj_event_in {
    scj_mem mem;
    sc_event ev;
} scj_event_in;

/* Loads the event (flags: kind, created_at, tags, content). Returns 1, or 0 with an exception
 * thrown (SC_ERR_ARG for a malformed tags blob, SC_ERR_TOO_LARGE above max bytes). */
int scj_event_load(JNIEnv *env, scj_slot *s, scj_event_in *e, jint kind, jlong created_at,
                   jbyteArray tags, jbyteArray content, size_t max);

/* Wipes (the content may be private) and releases the copy. */
void scj_event_unload(scj_event_in *e);

/* The facade's cap on an event's tags + content, before any allocation. */
#define SCJ_MAX_EVENT_INPUT (1024u * 1024u)

/* A Kotlin limit as the library's size: 0 (the library's default) for 0 or less. */
#define SCJ_LIMIT(max) ((max) > 0 ? (size_t)(max) : (size_t)0)

/* NIP-17 send (nip17.c): a chat message (file = 0: content is the text) or a file message
 * (file = 1: content is the file blob of nip17_file.c). The gift wraps, receivers first. */
jbyteArray scj_nip17_send(JNIEnv *env, jlong slot, jlong me, jbyteArray peers, jbyteArray content,
                          jlong created_at, jbyteArray subject, jobject reply_to, jint flags,
                          jbyteArray relay, jlong expiration, jlong now, int file);

/* The kind 15 parameters given by the Kotlin side (nip17_file.c): u32-length-prefixed url and
 * file type, key[32], u32 nonce_len + nonce, x[32], u32 has_ox, ox[32], size as two u32
 * (low, high), dim, blurhash and thumb (u32 length + UTF-8, 0 for none), u32 n + each
 * fallback URL. Reads f from blob[0..len) (views point into it; fallbacks into fb). Returns
 * SC_OK, SC_ERR_ARG (a malformed blob) or SC_ERR_TOO_LARGE (over SCJ_FILE_FALLBACKS_MAX). */
#define SCJ_FILE_FALLBACKS_MAX 16u
sc_status scj_file_read(sc_nip17_file *f, sc_str fb[SCJ_FILE_FALLBACKS_MAX], const uint8_t *blob,
                        size_t len);

/* Registration of each file's natives (onload.c calls them). 0 on success. */
int scj_register_ctx(JNIEnv *env, jclass c);
int scj_register_identity(JNIEnv *env, jclass c);
int scj_register_nip44(JNIEnv *env, jclass c);
int scj_register_event(JNIEnv *env, jclass c);
int scj_register_nip59(JNIEnv *env, jclass c);
int scj_register_nip17(JNIEnv *env, jclass c);
int scj_register_nip19(JNIEnv *env, jclass c);
int scj_register_file(JNIEnv *env, jclass c);
int scj_register_nip17_file(JNIEnv *env, jclass c);
int scj_register_pool(JNIEnv *env, jclass c);       /* pool.c; it registers pool_io.c's too */
int scj_register_pool_io(JNIEnv *env, jclass c);    /* pool_io.c */
int scj_register_inboxes(JNIEnv *env, jclass c);    /* inboxes.c */
int scj_register_negentropy(JNIEnv *env, jclass c); /* negentropy.c */

/* The relay pool of a poolNew handle (pool.c), for pool_io.c. */
sc_pool *scj_pool_get(jlong h);
/* Frees the blocks the pool no longer references (publishes done, subscriptions replaced or
 * ended, deliveries released). */
void scj_pool_sweep(jlong h);
/* Copies a received frame into the pool's text buffer (kept until the next receive: an
 * EVENT update points into it) and sizes the receive arena for it. 1, or 0 with an exception
 * (SC_ERR_TOO_LARGE over sc_pool_message_max, SC_ERR_NOMEM). */
int scj_pool_text(JNIEnv *env, jlong h, jbyteArray text, char **out, size_t *len, uint8_t **arena,
                  size_t *arena_cap);
/* The pool's buffer for sc_pool_next, at least need bytes. 1, or 0 with an exception. */
int scj_pool_out(JNIEnv *env, jlong h, size_t need, char **out);
/* The delivery record a publish update's user pointer names, or NULL (*handle: its block,
 * 0 for none); publish_done: one of its publishes ended. */
void *scj_pool_delivery_of(jlong h, const void *user, jlong *handle, int publish_done);
/* A publish of the pool's own (RelayPool.publish) ended: its event is freed at the next call. */
void scj_pool_publish_done(jlong h, uint32_t pub);
/* A delivery record of wraps (nip17.c's send blob: u32 n, per wrap recipient[32], u32 len,
 * JSON) and routes (u32 n, per wrap u32 n_relays, each URL u32 len + bytes), started on the
 * pool. Returns its block (the handle), or NULL with an exception thrown. */
void *scj_pool_delivery_new(JNIEnv *env, jlong h, const uint8_t *w, size_t wl, const uint8_t *rt,
                            size_t rl);
/* The record of a delivery handle (NULL when unknown); *finished: every publish of it ended. */
sc_delivery *scj_pool_delivery_get(jlong h, jlong d, int *finished);
/* Releases a delivery whose publishes ended (freed at the next call). */
void scj_pool_delivery_free(jlong h, jlong d);

/* SoftchatException, cached by JNI_OnLoad. */
extern jclass scj_exception_class;
/* java.lang.String and byte[], cached by JNI_OnLoad (scj_pub tells them apart). */
extern jclass scj_string_class;
extern jclass scj_bytes_class;
extern jmethodID scj_exception_init; /* (ILjava/lang/String;)V */
/* SoftchatException(SC_ERR_NOMEM), made by JNI_OnLoad through the (ILjava/lang/String;ZZ)V
 * constructor (no suppression, no stack trace, no cause: it cannot change, so every thread
 * may throw the same one); a global reference, released by JNI_OnUnload. */
extern jthrowable scj_nomem;

#define SCJ_COUNT(a) (sizeof(a) / sizeof((a)[0]))

#endif
