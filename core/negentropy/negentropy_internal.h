/* Internal pieces of the NIP-77 Negentropy code: the object's layout, the byte writer, the
 * wire format (varints, bounds) and the record-store operations over the caller's array. */
#ifndef SOFTCHAT_CORE_NEGENTROPY_INTERNAL_H
#define SOFTCHAT_CORE_NEGENTROPY_INTERNAL_H

#include <softchat/negentropy.h>

#define SC_NEG_MAGIC 0x4e454731u /* "NEG1" */
#define SC_NEG_INFINITY UINT64_MAX

enum {
    SC_NEG_ROLE_NONE = 0,
    SC_NEG_ROLE_INITIATOR = 1,
    SC_NEG_ROLE_RESPONDER = 2
};
enum {
    SC_NEG_MODE_SKIP = 0,
    SC_NEG_MODE_FINGERPRINT = 1,
    SC_NEG_MODE_IDLIST = 2
};

typedef struct sc_neg_impl {
    const sc_negentropy_item *items;
    size_t n;
    size_t frame_limit;
    uint32_t magic;
    uint32_t role;
} sc_neg_impl;

typedef char sc_neg_impl_fits[(sizeof(sc_neg_impl) <= sizeof(sc_negentropy)) ? 1 : -1];

/* A bound: a timestamp and an id prefix; the omitted bytes read as zeros. */
typedef struct sc_neg_bound {
    uint64_t ts;
    size_t len;
    uint8_t id[SC_NEGENTROPY_ID_BYTES];
} sc_neg_bound;

/* Output: writes to out[0..cap) while it fits, counts always (len); past cap nothing more is
 * written and over is set, so one pass gives the exact size. */
typedef struct sc_neg_out {
    uint8_t *out;
    size_t cap;
    size_t len;
    int over;
    uint64_t last_ts; /* the previous timestamp written in this message */
} sc_neg_out;

/* Input cursor over one message. */
typedef struct sc_neg_in {
    const uint8_t *p;
    size_t len;
    size_t pos;
    uint64_t last_ts;
} sc_neg_in;

void sc_neg_put(sc_neg_out *o, const uint8_t *p, size_t n);
void sc_neg_put_varint(sc_neg_out *o, uint64_t v);
void sc_neg_put_bound(sc_neg_out *o, const sc_neg_bound *b);
/* Removes everything written after `mark` (a length taken earlier), wiping it. */
void sc_neg_truncate(sc_neg_out *o, size_t mark, uint64_t last_ts);

/* Strict readers: SC_ERR_NEGENTROPY on truncation, a non-minimal or oversized varint, a
 * prefix over 32 bytes, or a finite timestamp that reaches the reserved infinity. */
sc_status sc_neg_get_varint(sc_neg_in *in, uint64_t *v);
sc_status sc_neg_get_bound(sc_neg_in *in, sc_neg_bound *b);

/* -1, 0, 1: a against b, ids padded with zeros. */
int sc_neg_bound_cmp(const sc_neg_bound *a, const sc_neg_bound *b);

/* The first index in [lo, hi) whose record is not below b (hi when none). */
size_t sc_neg_lower_bound(const sc_negentropy_item *items, size_t lo, size_t hi,
                          const sc_neg_bound *b);

/* The shortest bound that separates prev from curr (curr's side). */
void sc_neg_minimal_bound(sc_neg_bound *b, const sc_negentropy_item *prev,
                          const sc_negentropy_item *curr);

/* The bound of a whole record. */
void sc_neg_item_bound(sc_neg_bound *b, const sc_negentropy_item *it);

/* Fingerprint of items[lo..hi). */
sc_status sc_neg_fingerprint(sc_ctx *ctx, uint8_t fp[SC_NEGENTROPY_FINGERPRINT_BYTES],
                             const sc_negentropy_item *items, size_t lo, size_t hi);

/* In-place heap sorts: indices by the id of the record they name; 32-byte ids bytewise. */
void sc_neg_sort_indices(size_t *idx, size_t n, const sc_negentropy_item *items);
void sc_neg_sort_ids(uint8_t (*ids)[SC_NEGENTROPY_ID_BYTES], size_t n);

#endif
