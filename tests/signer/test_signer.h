/* The signer suite (signer.h and the operations of event.h, nip44.h, nip59.h, nip17.h over a
 * signer): one cmocka group per backend, every test receiving the gw_env of
 * test_nip59_util.h. External signers are played by a double that holds a key and answers
 * each request, honestly or with one chosen lie. */
#ifndef SOFTCHAT_TESTS_TEST_SIGNER_H
#define SOFTCHAT_TESTS_TEST_SIGNER_H

#include "test_nip59_util.h"

/* The lies a double can tell (sg_double.lie), each on the request numbered lie_seq (0: on
 * every request of its kind). */
enum {
    SG_HONEST = 0,
    SG_SIG_OTHER_KEY,     /* SIGN: a signature by another key, as a signed event */
    SG_SIG_OTHER_EVENT,   /* SIGN: the event with created_at + 1, signed by the user */
    SG_SIG_BITFLIP,       /* SIGN: the honest signature with one bit flipped (hex form) */
    SG_SIG_PUBKEY,        /* SIGN: the honest signed event naming another pubkey */
    SG_SIG_ID,            /* SIGN: the honest signed event naming another id */
    SG_SIG_NOT_JSON,      /* SIGN: "signed" */
    SG_SIG_NO_SIG,        /* SIGN: the signed event without its sig */
    SG_PAYLOAD_LONG,      /* ENCRYPT: one base64 group too many */
    SG_PAYLOAD_SHORT,     /* ENCRYPT: the last character dropped */
    SG_PAYLOAD_VERSION,   /* ENCRYPT: version byte 1 */
    SG_PAYLOAD_BASE64,    /* ENCRYPT: a character outside the alphabet */
    SG_PAYLOAD_PAD,       /* ENCRYPT: '=' in the middle (at the end of an early group) */
    SG_PAYLOAD_OTHER_KEY, /* ENCRYPT: well formed, under the wrong peer's key */
    SG_PLAIN_LONGER,      /* DECRYPT: the plaintext with spaces up to the next padded size */
    SG_PLAIN_UTF8,        /* DECRYPT: a byte 0xff in the plaintext */
    SG_PLAIN_BITFLIP,     /* DECRYPT: the plaintext with its last hex digit of "sig" changed */
    SG_PLAIN_GARBAGE,     /* DECRYPT: as many 'x' as the plaintext (same length, not JSON) */
    SG_REFUSE             /* any: refuses (sc_signer_op_refuse) */
};

typedef struct sg_double {
    gw_env *env;
    const sc_identity *id;     /* the key it holds */
    const sc_identity *other;  /* another key, for the lies that need one */
    const uint8_t *nonce;      /* ENCRYPT: the NIP-44 nonce to use (NULL: random) */
    const uint8_t *aux;        /* SIGN: the BIP-340 aux (NULL: random) */
    const sc_nip59_rand *rnds; /* NIP-17 sends: the seal nonce and aux of wrap (seq-1)/2 */
    int hex_sig;               /* SIGN: answer with the signature's hex, not the event */
    int lie;                   /* SG_* */
    uint32_t lie_seq;          /* the request to lie on (0: every one of its kind) */
    /* what it saw */
    size_t n; /* requests answered */
    sc_signer_req_kind kinds[16];
    uint8_t peers[16][32];
} sg_double;

/* A double holding id that answers honestly. */
void sg_double_init(sg_double *d, gw_env *env, const sc_identity *id);

/* The double's answer to req into buf (malloc'd; the caller frees), or NULL when it refuses.
 * Records the request. */
char *sg_answer(sg_double *d, const sc_signer_req *req, size_t *len);

/* Drives op to its end with the double, at time now_ms: step, answer (or refuse), step...
 * Returns the last status (SC_OK when done). Every request must come with a deadline after
 * now_ms and a sequence number one more than the last. */
sc_status sg_drive(sc_signer_op *op, sg_double *d, int64_t now_ms);

/* The 64 lowercase hex characters of a key, terminated. */
void sg_hex(char out[65], const uint8_t key[32]);

/* An external signer for the user key of id (timeout 5000 ms). */
void sg_external(sc_signer *s, const sc_identity *id);

/* local and external operations give the same results (test_signer.c) */
void test_signer_object(void **state);
void test_wrap_same_bytes(void **state);
void test_unwrap_same(void **state);
void test_send_same_bytes(void **state);
void test_receive_same(void **state);
void test_event_and_auth(void **state);
void test_nip44_ops(void **state);

/* lying signers (test_signer_lies.c) */
void test_lies_on_send(void **state);
void test_lies_on_receive(void **state);
void test_lie_unseen_fails_at_receiver(void **state);
void test_lies_on_event(void **state);
void test_lies_on_nip44(void **state);

/* the frame: deadlines, refusals, clearing midway, misuse (test_signer_frame.c) */
void test_deadline(void **state);
void test_refuse_and_clear(void **state);
void test_frame_misuse(void **state);
void test_start_checks(void **state);

#endif
