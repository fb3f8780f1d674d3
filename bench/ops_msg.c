/* Workload: NIP-59 (rumor, gift wrap, unwrap), NIP-17 (a chat message wrapped for its
 * receiver) and streaming AES-256-GCM attachments, on 15-byte messages and 64000-byte / 1 MiB
 * files. */
#include <softchat/softchat.h>

#include <stdlib.h>
#include <string.h>

#include "ops.h"
#include "ops_internal.h"

#define CHUNK 65536
/* Keys rotate through ROTATE of each: more than the curve adapter keeps lifted, so no call
 * meets a public key lifted by an earlier call, as for a peer without a cache. gift_wrap and
 * nip17_message write to ROTATE receivers in turn; unwrap cycles through ROTATE gift wraps,
 * each with its own one-time key, from ROTATE senders. The _warm rows (reported apart) repeat
 * one receiver, or one sender (unwrap_warm: 16 wraps from alice, as in a conversation). */
#define ROTATE 16

typedef struct msg_state {
    sc_ctx *ctx;
    sc_identity alice, bob; /* family 0x51 and 0x52, key 0 */
    uint8_t alice_pub[32], bob_pub[32];
    uint8_t to_pub[ROTATE][32]; /* receivers: family 0x52, key k */
    unsigned n_to, next_to;
    char content[32];
    size_t content_len;
    sc_event rumor; /* alice to bob */
    uint8_t rumor_buf[1024];
    char *out, *wraps[ROTATE];
    size_t out_cap, wrap_lens[ROTATE];
    unsigned next_wrap;
    void *scratch, *arena;
    size_t scratch_cap, arena_cap;
    uint8_t *plain, *blob, *chunk_out;
    size_t len, blob_len;
    uint8_t key[32], iv[16];
} msg_state;

static void msg_teardown(void *p)
{
    msg_state *s = p;
    unsigned i;

    if (s == NULL) {
        return;
    }
    sc_identity_clear(&s->alice);
    sc_identity_clear(&s->bob);
    sc_ctx_free(s->ctx);
    free(s->out);
    for (i = 0; i < ROTATE; i++) {
        free(s->wraps[i]);
    }
    free(s->scratch);
    free(s->arena);
    free(s->plain);
    free(s->blob);
    free(s->chunk_out);
    free(s);
}

/* Imports key k of a family (31 bytes `byte`, then k). */
static int family_key(msg_state *s, sc_identity *id, uint8_t pub[32], uint8_t byte, unsigned k)
{
    uint8_t sec[32];

    memset(sec, byte, sizeof sec);
    sec[31] = (uint8_t)k;
    return sc_identity_import(s->ctx, id, sec) == SC_OK && sc_identity_pubkey(pub, id) == SC_OK
               ? 0
               : -1;
}

/* A kind-14 rumor from `author` with one p tag (to) and 15 bytes of content, into ev. */
static int make_rumor_of(msg_state *s, sc_event *ev, uint8_t *buf, size_t cap,
                         const uint8_t author[32], const uint8_t to[32])
{
    sc_event_builder b;
    sc_str tag[2];
    char hex[64];
    size_t n;

    if (sc_hex_encode(hex, sizeof hex, &n, to, 32) != SC_OK) {
        return -1;
    }
    tag[0].ptr = "p";
    tag[0].len = 1;
    tag[1].ptr = hex;
    tag[1].len = 64;
    if (sc_event_builder_init(&b, buf, cap) != SC_OK) {
        return -1;
    }
    sc_event_builder_kind(&b, 14);
    sc_event_builder_created_at(&b, 1700000000);
    sc_event_builder_content(&b, s->content, s->content_len);
    sc_event_builder_tag(&b, tag, 2);
    return (sc_event_builder_final(&b, ev, NULL) == SC_OK &&
            sc_nip59_rumor(s->ctx, ev, author) == SC_OK)
               ? 0
               : -1;
}

/* The rumor of nip59_rumor and gift_wrap: alice to bob. */
static int make_rumor(msg_state *s)
{
    return make_rumor_of(s, &s->rumor, s->rumor_buf, sizeof s->rumor_buf, s->alice_pub, s->bob_pub);
}

/* ROTATE gift wraps to bob, from `senders` senders in turn (family 0x51; 1: alice only). */
static int make_wraps(msg_state *s, unsigned senders)
{
    uint8_t buf[1024], pub[32];
    sc_identity who;
    sc_event r;
    size_t used;
    unsigned k;
    int rc = 0;

    for (k = 0; k < ROTATE && rc == 0; k++) {
        rc = family_key(s, &who, pub, 0x51, k % senders);
        if (rc == 0) {
            s->wraps[k] = malloc(s->out_cap);
            rc =
                s->wraps[k] != NULL &&
                        make_rumor_of(s, &r, buf, sizeof buf, pub, s->bob_pub) == 0 &&
                        sc_nip59_wrap(s->ctx, s->wraps[k], s->out_cap, &s->wrap_lens[k], s->scratch,
                                      s->scratch_cap, &r, &who, s->bob_pub, NULL) == SC_OK
                    ? 0
                    : -1;
        }
        sc_identity_clear(&who);
        if (rc == 0 && sc_nip59_unwrap_arena_max(s->wrap_lens[k]) > s->arena_cap) {
            s->arena_cap = sc_nip59_unwrap_arena_max(s->wrap_lens[k]);
        }
    }
    s->arena = rc == 0 ? malloc(s->arena_cap) : NULL;
    for (k = 0; k < ROTATE && s->arena != NULL; k++) {
        if (sc_nip59_unwrap(s->ctx, &r, NULL, s->arena, s->arena_cap, &used, s->wraps[k],
                            s->wrap_lens[k], &s->bob) != SC_OK) {
            return -1;
        }
    }
    return s->arena != NULL ? 0 : -1;
}

/* The common state: alice, bob, `receivers` receivers, the rumor and the output buffers. */
static int msg_setup_keys(msg_state **out, const char *backend, size_t bytes, unsigned receivers)
{
    msg_state *s = calloc(1, sizeof *s);
    sc_identity id;
    unsigned k;

    *out = s;
    if (s == NULL || bench_ctx_new(&s->ctx, backend) != 0 ||
        family_key(s, &s->alice, s->alice_pub, 0x51, 0) != 0 ||
        family_key(s, &s->bob, s->bob_pub, 0x52, 0) != 0) {
        return -1;
    }
    for (k = 0; k < receivers; k++) {
        int rc = family_key(s, &id, s->to_pub[k], 0x52, k);
        sc_identity_clear(&id);
        if (rc != 0) {
            return -1;
        }
    }
    s->n_to = receivers;
    s->content_len = bytes < sizeof s->content ? bytes : sizeof s->content;
    bench_fill((unsigned char *)s->content, s->content_len, 59);
    if (make_rumor(s) != 0) {
        return -1;
    }
    s->out_cap = sc_nip59_wrap_max(&s->rumor, NULL) + 4096;
    s->scratch_cap = sc_nip59_wrap_scratch_max(&s->rumor, NULL) + 4096;
    s->out = malloc(s->out_cap);
    s->scratch = malloc(s->scratch_cap);
    return s->out != NULL && s->scratch != NULL ? 0 : -1;
}

static int msg_setup(void **out, const char *backend, size_t bytes)
{
    msg_state *s;
    int rc = msg_setup_keys(&s, backend, bytes, ROTATE);

    *out = s;
    return rc;
}

static int msg_setup_warm(void **out, const char *backend, size_t bytes)
{
    msg_state *s;
    int rc = msg_setup_keys(&s, backend, bytes, 1);

    *out = s;
    return rc;
}

static int unwrap_setup(void **out, const char *backend, size_t bytes)
{
    msg_state *s;
    int rc = msg_setup_keys(&s, backend, bytes, 1);

    *out = s;
    return rc == 0 ? make_wraps(s, ROTATE) : rc;
}

static int unwrap_setup_warm(void **out, const char *backend, size_t bytes)
{
    msg_state *s;
    int rc = msg_setup_keys(&s, backend, bytes, 1);

    *out = s;
    return rc == 0 ? make_wraps(s, 1) : rc;
}

/* The receiver of this call; advances the rotation. */
static const uint8_t *next_receiver(msg_state *s)
{
    unsigned k = s->next_to;

    s->next_to = (k + 1) % s->n_to;
    return s->to_pub[k];
}

static int run_rumor(void *p, uint64_t n)
{
    msg_state *s = p;

    while (n--) {
        if (make_rumor(s) != 0) {
            return -1;
        }
    }
    return 0;
}

static int run_gift_wrap(void *p, uint64_t n)
{
    msg_state *s = p;
    size_t len;

    while (n--) {
        if (sc_nip59_wrap(s->ctx, s->out, s->out_cap, &len, s->scratch, s->scratch_cap, &s->rumor,
                          &s->alice, next_receiver(s), NULL) != SC_OK) {
            return -1;
        }
    }
    return 0;
}

/* A chat message to one receiver: the kind-14 rumor, sealed and wrapped for that receiver. */
static int run_nip17(void *p, uint64_t n)
{
    msg_state *s = p;
    sc_nip17_peer to;
    sc_nip17_chat m;
    sc_event rumor;
    uint8_t buf[1024];
    size_t len;

    memset(&to, 0, sizeof to);
    memset(&m, 0, sizeof m);
    m.content.ptr = s->content;
    m.content.len = s->content_len;
    m.to = &to;
    m.n_to = 1;
    m.created_at = 1700000000;
    while (n--) {
        memcpy(to.pubkey, next_receiver(s), 32);
        if (sc_nip17_chat_rumor(s->ctx, &rumor, buf, sizeof buf, &m, s->alice_pub) != SC_OK ||
            sc_nip59_wrap(s->ctx, s->out, s->out_cap, &len, s->scratch, s->scratch_cap, &rumor,
                          &s->alice, to.pubkey, NULL) != SC_OK) {
            return -1;
        }
    }
    return 0;
}

static int run_unwrap(void *p, uint64_t n)
{
    msg_state *s = p;
    sc_event r;
    size_t used;

    while (n--) {
        unsigned k = s->next_wrap;
        s->next_wrap = (k + 1) % ROTATE;
        if (sc_nip59_unwrap(s->ctx, &r, NULL, s->arena, s->arena_cap, &used, s->wraps[k],
                            s->wrap_lens[k], &s->bob) != SC_OK) {
            return -1;
        }
    }
    return 0;
}

/* ---- attachments ------------------------------------------------------------------------ */

static sc_status null_write(void *user, const uint8_t *data, size_t len)
{
    (void)user;
    (void)data;
    (void)len;
    return SC_OK;
}

static sc_status null_commit(void *user)
{
    (void)user;
    return SC_OK;
}

static void null_discard(void *user)
{
    (void)user;
}

/* Encrypts s->plain in CHUNK pieces into s->blob (when keep) and returns 0. */
static int encrypt_file(msg_state *s, int keep)
{
    sc_file_enc e;
    size_t off = 0, got, at = 0;
    uint8_t x[32], ox[32];
    uint64_t size;

    if (sc_file_encrypt_init(s->ctx, &e, s->key, s->iv, 16) != SC_OK) {
        return -1;
    }
    while (off < s->len) {
        size_t take = s->len - off < CHUNK ? s->len - off : CHUNK;
        if (sc_file_encrypt_update(&e, s->chunk_out, CHUNK + 15, &got, s->plain + off, take) !=
            SC_OK) {
            return -1;
        }
        if (keep) {
            memcpy(s->blob + at, s->chunk_out, got);
        }
        at += got;
        off += take;
    }
    if (sc_file_encrypt_final(&e, s->chunk_out, CHUNK + 15, &got, x, ox, &size) != SC_OK) {
        return -1;
    }
    if (keep) {
        memcpy(s->blob + at, s->chunk_out, got);
        s->blob_len = at + got;
    }
    return 0;
}

static int file_setup(void **out, const char *backend, size_t bytes)
{
    msg_state *s = calloc(1, sizeof *s);
    const sc_backend *b = sc_backend_find(backend);

    *out = s;
    if (b != NULL && sc_backend_has(b, SC_CAP_AES256GCM_STREAM, NULL) == SC_ERR_UNSUPPORTED) {
        return 1; /* plain sodium: no streaming AES-GCM */
    }
    if (s == NULL || bench_ctx_new(&s->ctx, backend) != 0) {
        return -1;
    }
    s->len = bytes;
    s->plain = malloc(bytes);
    s->blob = malloc(bytes + 16);
    s->chunk_out = malloc(CHUNK + 15);
    if (s->plain == NULL || s->blob == NULL || s->chunk_out == NULL ||
        sc_file_keygen(s->ctx, s->key, s->iv) != SC_OK) {
        return -1;
    }
    bench_fill(s->plain, bytes, 15);
    return encrypt_file(s, 1);
}

static int run_file_encrypt(void *p, uint64_t n)
{
    msg_state *s = p;

    while (n--) {
        if (encrypt_file(s, 0) != 0) {
            return -1;
        }
    }
    return 0;
}

static int run_file_decrypt(void *p, uint64_t n)
{
    msg_state *s = p;
    sc_file_sink sink = {NULL, null_write, null_commit, null_discard};
    uint8_t x[32], ox[32];

    while (n--) {
        sc_file_dec d;
        size_t off = 0;

        if (sc_file_decrypt_init(s->ctx, &d, s->key, s->iv, 16, &sink) != SC_OK) {
            return -1;
        }
        while (off < s->blob_len) {
            size_t take = s->blob_len - off < CHUNK ? s->blob_len - off : CHUNK;
            if (sc_file_decrypt_update(&d, s->blob + off, take) != SC_OK) {
                return -1;
            }
            off += take;
        }
        if (sc_file_decrypt_final(&d, x, ox) != SC_OK) {
            return -1;
        }
    }
    return 0;
}

const bench_op bench_ops_msg[] = {
    {"nip59_rumor", 15, msg_setup_warm, run_rumor, msg_teardown, 0, 1},
    {"nip17_message", 15, msg_setup, run_nip17, msg_teardown, 0, 1},
    {"gift_wrap", 15, msg_setup, run_gift_wrap, msg_teardown, 0, 1},
    {"unwrap", 15, unwrap_setup, run_unwrap, msg_teardown, 0, 1},
    {"attachment_encrypt", 64000, file_setup, run_file_encrypt, msg_teardown, 0, 1},
    {"attachment_decrypt", 64000, file_setup, run_file_decrypt, msg_teardown, 0, 1},
    {"attachment_encrypt", 1048576, file_setup, run_file_encrypt, msg_teardown, 0, 1},
    {"attachment_decrypt", 1048576, file_setup, run_file_decrypt, msg_teardown, 0, 1},
};
const size_t bench_ops_msg_count = sizeof bench_ops_msg / sizeof bench_ops_msg[0];

/* Reported apart, after every other operation: one receiver, or one sender. */
const bench_op bench_ops_msg_warm[] = {
    {"nip17_message_warm", 15, msg_setup_warm, run_nip17, msg_teardown, 0, 1},
    {"gift_wrap_warm", 15, msg_setup_warm, run_gift_wrap, msg_teardown, 0, 1},
    {"unwrap_warm", 15, unwrap_setup_warm, run_unwrap, msg_teardown, 0, 1},
};
const size_t bench_ops_msg_warm_count = sizeof bench_ops_msg_warm / sizeof bench_ops_msg_warm[0];
