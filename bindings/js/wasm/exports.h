/* The functions softchat.wasm exports (bindings/js/wasm/CMakeLists.txt lists them for the
 * linker): what src/native.ts calls. Pointers are wasm32 addresses; times are doubles
 * holding integers (unix seconds, or milliseconds for the relay session's clock); every
 * int result is an sc_status. Each is documented where it is defined. */
#ifndef SOFTCHAT_JS_EXPORTS_H
#define SOFTCHAT_JS_EXPORTS_H

#include "scw.h"

#define SCW_EXPORT __attribute__((used, visibility("default")))

typedef struct scw_fenc scw_fenc;
typedef struct scw_fdec scw_fdec;
typedef struct scw_neg scw_neg;
typedef struct scw_relay scw_relay;
typedef struct scw_pool scw_pool;

/* scw.c */
SCW_EXPORT void scw_done(scw *w);
SCW_EXPORT scw *scw_new(void);
SCW_EXPORT int scw_init(scw *w);
SCW_EXPORT void scw_free(scw *w);
SCW_EXPORT uint8_t *scw_in(scw *w, uint32_t n);
SCW_EXPORT const char *scw_version(void);
SCW_EXPORT const char *scw_status_name(int code);
SCW_EXPORT const char *scw_backend(scw *w);
SCW_EXPORT const char *scw_version_secp256k1(void);
SCW_EXPORT uint32_t scw_heap_used(void);
/* keys.c */
SCW_EXPORT int scw_identity_new(scw *w, uint8_t *sec);
SCW_EXPORT void scw_identity_free(sc_identity *id);
SCW_EXPORT int scw_identity_secret(scw *w, const sc_identity *id);
SCW_EXPORT int scw_schnorr_sign(scw *w, const sc_identity *id, const uint8_t *msg,
                                const uint8_t *aux);
SCW_EXPORT int scw_schnorr_verify(scw *w, const uint8_t *sig, const uint8_t *msg,
                                  const uint8_t *pub);
SCW_EXPORT int scw_conv_new(scw *w, const sc_identity *id, const uint8_t *peer, uint8_t *ck);
SCW_EXPORT void scw_conv_free(sc_nip44_conversation *c);
SCW_EXPORT int scw_nip44_encrypt(scw *w, const sc_nip44_conversation *c, const sc_identity *id,
                                 const uint8_t *peer, const uint8_t *pt, uint32_t len,
                                 uint32_t flags, const uint8_t *nonce);
SCW_EXPORT int scw_nip44_encrypt_key(scw *w, uint8_t *ck, const uint8_t *nonce, const uint8_t *pt,
                                     uint32_t len, uint32_t flags);
SCW_EXPORT int scw_nip44_decrypt(scw *w, const sc_nip44_conversation *c, const sc_identity *id,
                                 const uint8_t *peer, const char *payload, uint32_t len,
                                 uint32_t max);
/* event.c */
SCW_EXPORT int scw_event_sign(scw *w, const sc_identity *id, const char *json, uint32_t len,
                              const uint8_t *aux);
SCW_EXPORT int scw_event_verify(scw *w, const char *json, uint32_t len);
SCW_EXPORT int scw_rumor(scw *w, const uint8_t *author, const char *json, uint32_t len);
SCW_EXPORT int scw_nip40(scw *w, const char *json, uint32_t len, double now);
SCW_EXPORT int scw_nip59_wrap(scw *w, const sc_identity *id, const uint8_t *recipient,
                              const char *json, uint32_t len, uint32_t flags, const char *relay,
                              uint32_t rlen, double expiration, double now);
SCW_EXPORT int scw_nip59_unwrap(scw *w, const sc_identity *id, const char *json, uint32_t len,
                                double now);
/* nip17.c */
SCW_EXPORT int scw_nip17_send(scw *w, const sc_identity *id, const char *json, uint32_t len,
                              const char *text, uint32_t tlen, const uint8_t *key,
                              const uint8_t *iv, uint32_t iv_len, uint32_t flags, const char *relay,
                              uint32_t rlen, double expiration, double now);
SCW_EXPORT int scw_nip17_receive(scw *w, const sc_identity *id, const char *json, uint32_t len,
                                 double now);
/* nip19.c */
SCW_EXPORT int scw_nip19_encode(scw *w, uint32_t type, const uint8_t *key, const uint8_t *author,
                                double kind, const char *ident, uint32_t ilen,
                                const uint8_t *relays, uint32_t rlen);
SCW_EXPORT int scw_nip19_decode(scw *w, const char *s, uint32_t len);
/* file.c */
SCW_EXPORT int scw_fenc_new(scw *w);
SCW_EXPORT int scw_fenc_update(scw *w, scw_fenc *f, const uint8_t *in, uint32_t len);
SCW_EXPORT int scw_fenc_final(scw *w, scw_fenc *f);
SCW_EXPORT void scw_fenc_free(scw_fenc *f);
SCW_EXPORT int scw_fdec_new(scw *w, uint8_t *key, const uint8_t *iv, uint32_t iv_len, double max);
SCW_EXPORT int scw_fdec_update(scw_fdec *f, const uint8_t *in, uint32_t len);
SCW_EXPORT int scw_fdec_final(scw *w, scw_fdec *f);
SCW_EXPORT void scw_fdec_free(scw_fdec *f);
/* neg.c */
SCW_EXPORT int scw_neg_new(scw *w, const uint8_t *recs, uint32_t n, uint32_t frame_limit);
SCW_EXPORT void scw_neg_free(scw_neg *g);
SCW_EXPORT int scw_neg_initiate(scw *w, scw_neg *g);
SCW_EXPORT int scw_neg_reconcile(scw *w, scw_neg *g, const uint8_t *msg, uint32_t len);
/* relay.c */
SCW_EXPORT void scw_relay_free(scw_relay *r);
SCW_EXPORT int scw_relay_new(scw *w, const char *url, uint32_t len, uint32_t max_subs,
                             uint32_t max_pending, double resume_slack);
SCW_EXPORT int scw_relay_connected(scw_relay *r, double now_ms);
SCW_EXPORT int scw_relay_disconnected(scw *w, scw_relay *r, double now_ms);
SCW_EXPORT int scw_relay_subscribe(scw_relay *r, const char *id, uint32_t len, const uint8_t *b,
                                   uint32_t blen);
SCW_EXPORT int scw_relay_unsubscribe(scw_relay *r, const char *id, uint32_t len);
SCW_EXPORT int scw_relay_publish(scw *w, scw_relay *r, const char *json, uint32_t len);
SCW_EXPORT uint32_t scw_relay_pending(scw_relay *r);
SCW_EXPORT int scw_relay_next(scw *w, scw_relay *r);
SCW_EXPORT int scw_relay_handle(scw *w, scw_relay *r, const char *json, uint32_t len);
SCW_EXPORT int scw_relay_auth(scw *w, scw_relay *r, const sc_identity *id, double now);
/* pool.c */
SCW_EXPORT void scw_pool_free(scw_pool *g);
SCW_EXPORT int scw_pool_new(scw *w, const uint32_t *opt);
SCW_EXPORT int scw_pool_relay_add(scw *w, scw_pool *g, const char *url, uint32_t len);
SCW_EXPORT int scw_pool_relay_remove(scw_pool *g, uint32_t relay);
SCW_EXPORT int scw_pool_connected(scw_pool *g, uint32_t relay, double now_ms);
SCW_EXPORT int scw_pool_disconnected(scw_pool *g, uint32_t relay, double now_ms);
SCW_EXPORT int scw_pool_next(scw *w, scw_pool *g, uint32_t relay);
SCW_EXPORT int scw_pool_receive(scw *w, scw_pool *g, uint32_t relay, const char *text, uint32_t len,
                                double now_ms);
SCW_EXPORT int scw_pool_poll(scw *w, scw_pool *g, double now_ms);
SCW_EXPORT double scw_pool_wakeup(const scw_pool *g);
SCW_EXPORT int scw_pool_auth_identity(scw_pool *g, const sc_identity *id);
SCW_EXPORT int scw_pool_publish(scw *w, scw_pool *g, const char *json, uint32_t len,
                                const uint32_t *relays, uint32_t n);
SCW_EXPORT int scw_pool_subscribe(scw *w, scw_pool *g, const char *id, uint32_t len,
                                  const uint8_t *blob, uint32_t blen, const uint32_t *relays,
                                  uint32_t n, const uint32_t *opt, const uint8_t *saved,
                                  uint32_t slen);
SCW_EXPORT int scw_pool_unsubscribe(scw_pool *g, uint32_t sub);
SCW_EXPORT int scw_pool_cursor_save(scw *w, scw_pool *g, uint32_t sub);

#endif
