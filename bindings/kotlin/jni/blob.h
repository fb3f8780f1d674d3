/* The byte layouts that cross JNI between the glue and the Kotlin side (Blob.kt decodes and
 * encodes the same): little-endian u32 lengths and counts, i64 times, raw bytes.
 *
 * Tags in:   u32 n_tags, then per tag u32 n_items, then per item u32 len + bytes.
 * Event out: u32 flags, id[32], pubkey[32], sig[64], i64 created_at, u32 kind, the tags as
 *            above, u32 content_len + content.
 * Every reader checks each length against what remains, so a malformed blob is SC_ERR_ARG. */
#ifndef SOFTCHAT_KOTLIN_BLOB_H
#define SOFTCHAT_KOTLIN_BLOB_H

#include <jni.h>
#include <softchat/softchat.h>

#include <stddef.h>
#include <stdint.h>

typedef struct scj_rd {
    const uint8_t *p;
    size_t left;
} scj_rd;

int scj_rd_u32(scj_rd *r, uint32_t *v);
int scj_rd_bytes(scj_rd *r, const uint8_t **p, size_t n);

typedef struct scj_wr {
    uint8_t *p;
    size_t off;
} scj_wr;

void scj_wr_u32(scj_wr *w, uint32_t v);
void scj_wr_i64(scj_wr *w, int64_t v);
void scj_wr_bytes(scj_wr *w, const void *p, size_t n);

/* A new byte[n] held for writing through w (GetPrimitiveArrayCritical: no JNI call until
 * scj_wr_end). NULL, with the Java exception thrown, when it cannot be made or held. */
jbyteArray scj_wr_begin(JNIEnv *env, scj_wr *w, size_t n);
/* Releases the array scj_wr_begin holds in w; returns out. */
jbyteArray scj_wr_end(JNIEnv *env, jbyteArray out, scj_wr *w);

/* Tags parsed from a blob: counts first (scj_tags_count), then views built in caller memory
 * of scj_tags_bytes() (sc_tag and sc_str arrays). */
typedef struct scj_tags {
    size_t n_tags, n_items;
} scj_tags;

/* Counts tags and items, checking the layout. SC_OK or SC_ERR_ARG / SC_ERR_TOO_LARGE. */
sc_status scj_tags_count(scj_tags *t, const uint8_t *blob, size_t len);

/* Bytes of memory scj_tags_build needs (0 on overflow). */
size_t scj_tags_bytes(const scj_tags *t);

/* Builds the views into mem (16-byte aligned); strings point into blob. */
void scj_tags_build(const scj_tags *t, void *mem, const uint8_t *blob, const sc_tag **tags);

/* Size of the event blob of ev (0 on overflow). */
size_t scj_event_blob_len(const sc_event *ev);

/* Writes the event blob. */
void scj_event_blob(scj_wr *w, const sc_event *ev);

#endif
