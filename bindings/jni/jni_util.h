/* Helpers of the JNI glue: throwing the binding's exceptions and moving bytes across the
 * boundary. Every input is copied out of its Java array into native memory, and inputs that
 * may be secret are wiped before that memory is released. */
#ifndef SOFTCHAT_BINDINGS_JNI_UTIL_H
#define SOFTCHAT_BINDINGS_JNI_UTIL_H

#include <jni.h>
#include <softchat/softchat.h>

#include <stddef.h>
#include <stdint.h>

/* Native bytes copied from a Java byte[]; p is never NULL once scj_in succeeds. */
typedef struct scj_buf {
    uint8_t *p;
    size_t len;
} scj_buf;

/* Throws org.softchat.core.SoftchatException for st (< 0). Returns 0 (for `return` chains). */
int scj_throw_status(JNIEnv *env, sc_status st);

/* Throws IllegalArgumentException / IllegalStateException / OutOfMemoryError with msg. */
int scj_throw_arg(JNIEnv *env, const char *msg);
int scj_throw_nomem(JNIEnv *env);

/* The context behind a handle (never 0: Context.live() checks). */
sc_ctx *scj_ctx(jlong handle);

/* Copies a 32-byte key out of a; throws IllegalArgumentException (null, wrong length).
 * Returns 1 on success, 0 with an exception pending. */
int scj_key(JNIEnv *env, jbyteArray a, uint8_t out[32], const char *what);

/* Copies a (non-null) into a new native buffer. Returns 1, or 0 with an exception pending. */
int scj_in(JNIEnv *env, jbyteArray a, scj_buf *b, const char *what);

/* Wipes and frees a buffer from scj_in (or scj_alloc); accepts an empty one. */
void scj_free(scj_buf *b);

/* A zeroed native buffer of n bytes (n may be 0). Returns 1, or 0 with OutOfMemoryError. */
int scj_alloc(JNIEnv *env, scj_buf *b, size_t n);

/* A new Java byte[] holding p[0..n), or NULL with an exception pending. */
jbyteArray scj_out(JNIEnv *env, const void *p, size_t n);

/* Imports a secret key from a Java array into id (the native copy is wiped).
 * Returns 1, or 0 with an exception pending (id erased). */
int scj_identity(JNIEnv *env, sc_ctx *ctx, jbyteArray sec, sc_identity *id);

#endif
