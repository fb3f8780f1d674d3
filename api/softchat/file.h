/* libsoftchat: streaming AES-256-GCM attachments (NIP-17 kind 15).
 *
 * The uploaded blob is ciphertext || 16-byte tag, no AAD. Encryption streams bounded chunks
 * (memory independent of the file size) and computes, in the same pass, x = sha256(blob),
 * ox = sha256(plaintext) and the blob size. Decryption never releases unauthenticated
 * plaintext: it writes to a caller sink that is committed only after the tag verifies and
 * discarded otherwise.
 *
 * IVs: sc_file_keygen makes 16-byte IVs (as Amethyst and 0xChat do). Encryption takes 12- or
 * 16-byte IVs. Decryption takes 12- and 16-byte IVs and the 32-byte legacy IV: some early
 * clients used the 32 ASCII bytes of the hex nonce string itself as the IV, and
 * sc_file_iv_candidates lists the decoded IV first and that legacy IV second. No other IV
 * length is accepted by this module (the one-shot sc_crypto_aes256gcm_* calls of crypto.h
 * take what the backend supports; see sc_backend_has).
 *
 * Thumbnails: NIP-17 suggests encrypting the thumbnail "with the same key and nonce". Under
 * GCM that is nonce reuse (it leaks the XOR of the two plaintexts and allows tag forgery), so
 * a thumbnail must get its own key and nonce: call sc_file_keygen again.
 *
 * Requires SC_CAP_AES256GCM_STREAM (openssl, mbedtls, sodium+mbedtls, psa); the plain sodium
 * backend returns SC_ERR_UNSUPPORTED (sc_backend_has says why). One streaming operation per
 * context at a time (SC_ERR_STATE otherwise): use a context per concurrent attachment.
 *
 * Lifetime: an operation runs from a successful init until final or abort, or until a call
 * fails for a reason other than the caller's arguments. A call refused for its arguments
 * (SC_ERR_ARG, SC_ERR_OVERLAP, SC_ERR_BUFFER_TOO_SMALL, SC_ERR_TOO_LARGE for one update's
 * length) consumes nothing and leaves the operation live: ask for the size, then retry.
 * Every other failure ends it (aborted and wiped; a decryption's sink is discarded), so a
 * failed operation cannot be continued by mistake. The state holds a pointer to the context:
 * the context must not be freed or moved while the operation runs. Clearing the context ends
 * the operation: its next call returns SC_ERR_STATE (a decryption discards its sink then).
 * No call allocates. The key schedule lives in the backend's context state for the length of
 * the operation and is wiped when it ends.
 */
#ifndef SOFTCHAT_FILE_H
#define SOFTCHAT_FILE_H

#include "backend.h"
#include "ctx.h"

SC_BEGIN_DECLS

#define SC_FILE_KEY_BYTES 32
#define SC_FILE_IV_BYTES 16        /* what sc_file_keygen produces */
#define SC_FILE_LEGACY_IV_BYTES 32 /* the ASCII of a 32-digit hex nonce (decryption only) */
#define SC_FILE_TAG_BYTES 16
/* out_cap that sc_file_encrypt_final needs: up to 15 last ciphertext bytes and the tag */
#define SC_FILE_FINAL_BYTES 31
/* The most plaintext one key and IV may encrypt (GCM: 2^39 - 256 bits); the blob is 16 more */
#define SC_FILE_MAX_PLAINTEXT ((((uint64_t)1) << 36) - 32u)
/* The largest single write a decryption makes to its sink */
#define SC_FILE_SINK_MAX_WRITE 4096

/** Exact size of the blob (ciphertext || tag) for a plaintext of plaintext_len bytes.
 *  Returns: plaintext_len + SC_FILE_TAG_BYTES; 0 above SC_FILE_MAX_PLAINTEXT or when it does
 *  not fit size_t. */
SC_API size_t sc_file_blob_len(uint64_t plaintext_len);

/** A fresh 32-byte key and 16-byte IV from the context's CSPRNG. Call it for every file and
 *  every thumbnail: a key and IV pair must never encrypt two plaintexts.
 *  Returns: SC_OK; SC_ERR_RNG; SC_ERR_ARG (a NULL argument); SC_ERR_STATE (ctx);
 *           SC_ERR_UNSUPPORTED (no RNG).
 *  Out: key: SC_FILE_KEY_BYTES, iv: SC_FILE_IV_BYTES; both zeroed on failure.
 *  In: ctx (its RNG). Constant time: yes. RNG: yes (48 bytes). */
SC_API SC_WARN_UNUSED sc_status sc_file_keygen(sc_ctx *ctx, uint8_t key[SC_FILE_KEY_BYTES],
                                               uint8_t iv[SC_FILE_IV_BYTES]) SC_NONNULL(1, 2, 3);

/** Streaming encryption state, in caller memory. Opaque; holds the context pointer, the
 *  hash states and up to 15 plaintext bytes: final, abort and every failure that ends the
 *  operation wipe it. */
typedef struct sc_file_enc {
    uint64_t opaque[96];
} sc_file_enc;

/** Starts encrypting under key and iv.
 *  Returns: SC_OK; SC_ERR_ARG (a NULL argument, an IV length other than 12 or 16);
 *           SC_ERR_UNSUPPORTED (no streaming AES-GCM with this IV length); SC_ERR_STATE (bad
 *           ctx, or another streaming operation holds it); SC_ERR_INTERNAL.
 *  Out: e, zeroed first and on failure.
 *  In: key: SC_FILE_KEY_BYTES (not kept in e: the backend holds the key schedule until the
 *      operation ends); iv[0..iv_len).
 *  Constant time: in the key and the data. RNG: no. */
SC_API SC_WARN_UNUSED sc_status sc_file_encrypt_init(sc_ctx *ctx, sc_file_enc *e,
                                                     const uint8_t key[SC_FILE_KEY_BYTES],
                                                     const uint8_t *iv, size_t iv_len)
    SC_NONNULL(1, 2, 3, 4);

/** The out_cap sc_file_encrypt_update needs for len bytes of input (len + 15: partial blocks
 *  are held back until the next call or final). Returns: that size; 0 for len 0 or when it
 *  does not fit size_t. */
SC_API size_t sc_file_encrypt_update_max(size_t len);

/** Encrypts in[0..len) and writes ciphertext to out: at most
 *  sc_file_encrypt_update_max(len) bytes; *out_len says how many. out must not overlap in
 *  (no in-place). len == 0 writes nothing and accepts out NULL with out_cap 0.
 *  Returns: SC_OK; SC_ERR_BUFFER_TOO_SMALL (out_cap below sc_file_encrypt_update_max(len),
 *           whatever this call would write: *out_len = the need; the operation stays live);
 *           SC_ERR_ARG (out_len NULL, in NULL with len > 0, out NULL with out_cap; live);
 *           SC_ERR_OVERLAP (live); SC_ERR_TOO_LARGE (len alone overflows: live; more than
 *           SC_FILE_MAX_PLAINTEXT in all: ended); SC_ERR_STATE (not live, or its context
 *           was cleared); a backend failure (ended).
 *  Out: out[0..*out_len). When the operation ends on a failure, out[0..len + 15) is zeroed;
 *       a refused call leaves out untouched.
 *  In: in[0..len).
 *  Constant time: in the key and the data. RNG: no. */
SC_API SC_WARN_UNUSED sc_status sc_file_encrypt_update(sc_file_enc *e, uint8_t *out, size_t out_cap,
                                                       size_t *out_len, const uint8_t *in,
                                                       size_t len) SC_NONNULL(1, 4);

/** Finishes: writes the last ciphertext bytes (at most 15) and the tag to out, and returns
 *  x = sha256(blob), ox = sha256(plaintext) and the blob size (plaintext bytes + 16). The
 *  state is wiped.
 *  Returns: SC_OK; SC_ERR_BUFFER_TOO_SMALL (out_cap < SC_FILE_FINAL_BYTES: *out_len =
 *           SC_FILE_FINAL_BYTES; the operation stays live); SC_ERR_ARG (a NULL output; live);
 *           SC_ERR_STATE; a backend failure (ended).
 *  Out: out[0..*out_len) (at most SC_FILE_FINAL_BYTES); x, ox: SC_SHA256_BYTES each;
 *       *blob_size. Zeroed first; on a failure that ends the operation out[0..31) is zeroed
 *       too.
 *  In/Out: e (finished and wiped on success or on a failure that ends it).
 *  Constant time: in the key and the data. RNG: no. */
SC_API SC_WARN_UNUSED sc_status sc_file_encrypt_final(sc_file_enc *e, uint8_t *out, size_t out_cap,
                                                      size_t *out_len, uint8_t x[SC_SHA256_BYTES],
                                                      uint8_t ox[SC_SHA256_BYTES],
                                                      uint64_t *blob_size)
    SC_NONNULL(1, 2, 4, 5, 6, 7);

/** Abandons an encryption and wipes the state.
 *  In/Out: e; NULL, finished and failed states are accepted (no-op beyond the wipe).
 *  Constant time: yes. RNG: no. */
SC_API void sc_file_encrypt_abort(sc_file_enc *e);

/** Where decrypted plaintext goes. write receives plaintext that is NOT yet authenticated:
 *  the sink must hold it back (e.g. a temporary file) until commit, and destroy it on
 *  discard. Writes come in order, at most SC_FILE_SINK_MAX_WRITE bytes each. Exactly one of
 *  commit or discard is called per operation that started (sc_file_decrypt_init returned
 *  SC_OK); a failed init calls none. When commit fails it must clean up itself: discard does
 *  not follow. All three callbacks are required.
 *  write and commit return SC_OK or an error of sc_status, which the running call returns
 *  unchanged (e.g. SC_ERR_IO for an I/O error, SC_ERR_TOO_LARGE for a quota); a value that
 *  is not an sc_status becomes SC_ERR_IO.
 *  A callback must not call sc_file_decrypt_update or _final on its own operation (they
 *  return SC_ERR_STATE and change nothing); sc_file_decrypt_abort from a write callback ends
 *  the operation: the running call then discards and returns SC_ERR_STATE. */
typedef struct sc_file_sink {
    void *user;
    sc_status (*write)(void *user, const uint8_t *data, size_t len);
    sc_status (*commit)(void *user);
    void (*discard)(void *user);
} sc_file_sink;

/** Streaming decryption state, in caller memory. Opaque; holds the context pointer, a copy
 *  of the sink, the hash states, the 16 bytes held back as the tag candidate and a plaintext
 *  staging buffer of SC_FILE_SINK_MAX_WRITE bytes (wiped after every write). */
typedef struct sc_file_dec {
    uint64_t opaque[640];
} sc_file_dec;

/** Starts decrypting a blob (ciphertext || tag) under key and iv, writing to sink. The sink
 *  structure is copied; its user pointer must stay valid until the operation ends.
 *  Returns: SC_OK; SC_ERR_ARG (a NULL argument, a sink without all three callbacks, an IV
 *           length other than 12, 16 or SC_FILE_LEGACY_IV_BYTES); SC_ERR_UNSUPPORTED;
 *           SC_ERR_STATE (bad ctx, or another streaming operation holds it); SC_ERR_INTERNAL.
 *  Out: d, zeroed first and on failure; the sink is not called.
 *  In: key: SC_FILE_KEY_BYTES; iv[0..iv_len); sink.
 *  Constant time: in the key and the data. RNG: no. */
SC_API SC_WARN_UNUSED sc_status sc_file_decrypt_init(sc_ctx *ctx, sc_file_dec *d,
                                                     const uint8_t key[SC_FILE_KEY_BYTES],
                                                     const uint8_t *iv, size_t iv_len,
                                                     const sc_file_sink *sink)
    SC_NONNULL(1, 2, 3, 4, 6);

/** Feeds the next bytes of the blob, in any pieces. The last 16 bytes seen are held back as
 *  the tag; the rest is decrypted and written to the sink (unauthenticated: see the sink).
 *  Returns: SC_OK; the sink's write status (see sc_file_sink); SC_ERR_TOO_LARGE (the
 *           ciphertext passed SC_FILE_MAX_PLAINTEXT); SC_ERR_ARG (in NULL with len > 0:
 *           refused, the operation stays live); SC_ERR_STATE; a backend failure. On any
 *           other failure the sink is discarded (once) and the state wiped.
 *  In: in[0..len).
 *  Constant time: in the key and the data. RNG: no. */
SC_API SC_WARN_UNUSED sc_status sc_file_decrypt_update(sc_file_dec *d, const uint8_t *in,
                                                       size_t len) SC_NONNULL(1);

/** Verifies the tag (constant time) and commits the sink, or discards it. The state is
 *  wiped.
 *  Returns: SC_OK (committed); SC_ERR_AUTH (tag mismatch, or a blob shorter than 16 bytes:
 *           discarded); the sink's write status (the last write failed: discarded) or commit
 *           status (commit failed: not discarded, see sc_file_sink); SC_ERR_STATE; a backend
 *           failure (discarded).
 *  Out: x, ox (each may be NULL): sha256(blob) and sha256(plaintext), zeroed on failure.
 *  In/Out: d (finished and wiped).
 *  Constant time: the tag comparison. RNG: no. */
SC_API SC_WARN_UNUSED sc_status sc_file_decrypt_final(sc_file_dec *d, uint8_t x[SC_SHA256_BYTES],
                                                      uint8_t ox[SC_SHA256_BYTES]) SC_NONNULL(1);

/** Abandons a decryption: discards the sink and wipes the state.
 *  In/Out: d; NULL, finished and failed states are accepted (the sink is not called again).
 *  Constant time: yes. RNG: no. */
SC_API void sc_file_decrypt_abort(sc_file_dec *d);

/** The IVs to try, in order, for a kind 15 decryption-nonce tag value nonce_text[0..len)
 *  (not NUL-terminated): the hex-decoded IV (24 or 32 hex digits, either case: 12 or 16
 *  bytes) first; then, for 32 hex digits only, the legacy IV (those 32 ASCII bytes as they
 *  are).
 *  Returns: SC_OK with *n = 1 (24 digits) or 2 (32 digits); SC_ERR_ENCODING (any other
 *           length, or a non-hex character); SC_ERR_ARG (a NULL argument).
 *  Out: ivs: up to 2 candidates of up to SC_FILE_LEGACY_IV_BYTES bytes each; iv_lens their
 *       lengths; *n. All zeroed on failure.
 *  In: nonce_text[0..len).
 *  Constant time: in the hex digits. RNG: no. */
SC_API SC_WARN_UNUSED sc_status sc_file_iv_candidates(uint8_t ivs[2][SC_FILE_LEGACY_IV_BYTES],
                                                      size_t iv_lens[2], size_t *n,
                                                      const char *nonce_text, size_t len)
    SC_NONNULL(1, 2, 3, 4);

SC_END_DECLS

#endif
