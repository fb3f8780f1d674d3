/* Internal pieces of NIP-59 shared by core/nip59/ and core/nip17/: the size plan of one
 * gift wrap, the tags of the seal and the wrap, and the unwrap that also reports its peak
 * arena use (for the room NIP-17 appends after the rumor). */
#ifndef SOFTCHAT_CORE_NIP59_INTERNAL_H
#define SOFTCHAT_CORE_NIP59_INTERNAL_H

#include <softchat/nip59.h>
#include "util/range.h"

/* Characters of the decimal form of any uint64_t. */
#define SC_NIP59_DEC_MAX 20

/* The sizes of one gift wrap. The scratch holds the rumor JSON and then the seal JSON in its
 * first seal_json bytes, and the seal content and then the wrap content after them. */
typedef struct sc_nip59_plan {
    size_t rumor_json;   /* R: the rumor as a JSON object (id, no sig) */
    size_t seal_payload; /* NIP-44 payload of R */
    size_t seal_json;    /* S: the signed seal as a JSON object */
    size_t wrap_payload; /* NIP-44 payload of S */
    size_t wrap_json;    /* the signed gift wrap as a JSON object */
    size_t scratch;      /* seal_json + wrap_payload */
    int extended;        /* R or S needs the NIP-44 extended prefix */
} sc_nip59_plan;

/* The tags of a seal (an optional expiration) or of a wrap (p, then an optional expiration),
 * with their strings held in the struct itself. Not to be copied once initialised. */
typedef struct sc_nip59_tags {
    char p_hex[2 * SC_PUBKEY_BYTES];
    char exp_dec[SC_NIP59_DEC_MAX];
    sc_str p_items[3];
    sc_str exp_items[2];
    sc_tag tags[2];
    size_t n;
} sc_nip59_tags;

/* Writes v in decimal to out (no terminator) and returns the number of characters. */
size_t sc_nip59_dec(char out[SC_NIP59_DEC_MAX], uint64_t v);

/* Fills t: the wrap's tags when recipient is non-NULL (its p tag carries opts' relay), the
 * seal's otherwise. opts must have been checked (sc_nip59_check_opts). */
void sc_nip59_tags_init(sc_nip59_tags *t, const uint8_t *recipient, const sc_nip59_opts *opts);

/* Checks the option values (not the relay's UTF-8, which the plan checks).
 * Returns: SC_OK; SC_ERR_ARG. */
sc_status sc_nip59_check_opts(const sc_nip59_opts *opts);

/* Checks that rumor is a rumor: pubkey and id flags, no sig, sc_event_check.
 * Returns: SC_OK; SC_ERR_EVENT_FIELD; the sc_event_check errors. */
sc_status sc_nip59_check_rumor(const sc_event *rumor);

/* The sizes for rumor (checked), opts (checked; NULL = defaults) and the seal and wrap
 * timestamps (exact values, or bounds of their decimal width).
 * Returns: SC_OK; SC_ERR_UTF8 (relay); SC_ERR_TOO_LARGE (a size overflows). */
sc_status sc_nip59_plan_sizes(sc_nip59_plan *p, const sc_event *rumor, const sc_nip59_opts *opts,
                              int64_t seal_at, int64_t wrap_at);

/* sc_nip59_unwrap, with *peak = the arena bytes the call needed from arena's start (the high
 * water of its layout, >= *arena_used) on success; now >= 0 adds the NIP-40 checks of
 * sc_nip59_unwrap_at, now < 0 leaves them out. */
sc_status sc_nip59_unwrap_peak(sc_ctx *ctx, sc_event *rumor, sc_nip59_info *info, void *arena,
                               size_t arena_cap, size_t *arena_used, size_t *peak,
                               const char *wrap_json, size_t wrap_len, const sc_identity *recipient,
                               int64_t now);

#endif
