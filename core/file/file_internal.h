/* The layouts behind the opaque sc_file_enc and sc_file_dec (api/softchat/file.h), shared by
 * core/file/file_enc.c and core/file/file_dec.c and read by the tests. Memory is fixed: it does not
 * grow
 * with the file. */
#ifndef SOFTCHAT_CORE_FILE_INTERNAL_H
#define SOFTCHAT_CORE_FILE_INTERNAL_H

#include <softchat/file.h>

#include <stddef.h>
#include <stdint.h>

#include "crypto/aead_stream.h"

#define SC_FILE_ENC_MAGIC 0x53434665u /* "SCFe": a live encryption */
#define SC_FILE_DEC_MAGIC 0x53434664u /* "SCFd": a live decryption */

/* Plaintext produced by one backend update before it goes to the sink: the sink sees writes
 * of at most this many bytes. A multiple of 16, so a slice of this many ciphertext bytes never
 * yields more. */
#define SC_FILE_STAGE_BYTES ((size_t)SC_FILE_SINK_MAX_WRITE)

typedef struct sc_file_enc_impl {
    uint32_t magic;
    sc_aead_stream aead;
    sc_sha256_state x;  /* over the blob as it is produced */
    sc_sha256_state ox; /* over the plaintext as it is consumed */
} sc_file_enc_impl;

typedef struct sc_file_dec_impl {
    uint32_t magic;
    int in_sink; /* a sink callback is running */
    int abandon; /* sc_file_decrypt_abort was called from a sink callback */
    sc_aead_stream aead;
    sc_file_sink sink;
    sc_sha256_state x;               /* over the blob as it arrives */
    sc_sha256_state ox;              /* over the (not yet authentic) plaintext */
    uint8_t hold[SC_FILE_TAG_BYTES]; /* the last bytes seen: the tag, if nothing follows */
    size_t hold_len;
    uint8_t stage[SC_FILE_STAGE_BYTES];
} sc_file_dec_impl;

/* Compile-time checks that the layouts fit the public opaque types, in size and alignment
 * (the alignment of T is the offset of T after a char). */
typedef struct {
    char c;
    sc_file_enc_impl v;
} sc_file_enc_impl_align;
typedef struct {
    char c;
    sc_file_enc v;
} sc_file_enc_align;
typedef struct {
    char c;
    sc_file_dec_impl v;
} sc_file_dec_impl_align;
typedef struct {
    char c;
    sc_file_dec v;
} sc_file_dec_align;

typedef char sc_file_limit_is_gcms[(SC_FILE_MAX_PLAINTEXT == SC_AEAD_STREAM_MAX_BYTES) ? 1 : -1];
typedef char sc_file_stage_is_blocks[(SC_FILE_STAGE_BYTES % SC_AEAD_BLOCK == 0) ? 1 : -1];
typedef char
    sc_file_enc_fits[(sizeof(sc_file_enc_impl) <= sizeof(sc_file_enc) &&
                      offsetof(sc_file_enc_impl_align, v) <= offsetof(sc_file_enc_align, v))
                         ? 1
                         : -1];
typedef char
    sc_file_dec_fits[(sizeof(sc_file_dec_impl) <= sizeof(sc_file_dec) &&
                      offsetof(sc_file_dec_impl_align, v) <= offsetof(sc_file_dec_align, v))
                         ? 1
                         : -1];

/* The status a sink callback's result becomes: SC_OK; the sink's own status when it is a
 * known error of sc_status; SC_ERR_IO for any other value. */
sc_status sc_file_sink_status(sc_status st);

#endif
