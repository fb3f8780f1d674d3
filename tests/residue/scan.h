/* A scan of the process's own writable memory for secret bytes, for the residue test.
 *
 * A needle is 16 bytes of a secret (a window of a key, a keystream block, a padded HMAC key,
 * a digest in SHA-256 state order). The test keeps each needle XORed with a mask of its own,
 * so its copy never matches; the scan compares memory against the unmasked bytes one at a
 * time. 16 random bytes match by chance with probability 2^-128 per position.
 *
 * Scanned: every mapping of /proc/self/maps that is readable and writable (the heap, anonymous
 * mappings, the writable data of the executable and of every library), except the main
 * thread's stack ([stack]: the test's own locals live there), device mappings (/dev/...) and
 * reservations of 64 GiB or more (sanitizer shadow memory: no program data). Mappings of
 * 16 MiB or more are read only where their pages hold data (present or swapped out, per
 * /proc/self/pagemap, or resident, per mincore, where pagemap is closed). Memory is read in place,
 * freed and poisoned blocks included, so the scanner runs outside AddressSanitizer's checks;
 * it cannot run under valgrind memcheck, which reports every such read. */
#ifndef SOFTCHAT_TESTS_RESIDUE_SCAN_H
#define SOFTCHAT_TESTS_RESIDUE_SCAN_H

#include <stddef.h>
#include <stdint.h>

#define RS_PIECE 16    /* bytes per needle */
#define RS_MAX 1024    /* needles per set */
#define RS_MAX_HITS 32 /* hits kept per scan (the count goes on) */

typedef struct rs_needle {
    char what[64];
    uint8_t masked[RS_PIECE];
    uint8_t mask[RS_PIECE];
} rs_needle;

typedef struct rs_set {
    rs_needle n[RS_MAX];
    size_t count;
    int overflow; /* a needle did not fit: the set is incomplete (a test bug) */
} rs_set;

typedef struct rs_hit {
    size_t needle; /* index into the set */
    uintptr_t addr;
    char where[96]; /* the mapping's name and the offset into it */
} rs_hit;

typedef struct rs_result {
    size_t hits;             /* every match found */
    rs_hit hit[RS_MAX_HITS]; /* the first RS_MAX_HITS of them */
    size_t mappings;         /* mappings read */
    size_t bytes;            /* bytes read */
    size_t skipped_reserved; /* reservations of 64 GiB or more left out */
    int error;               /* /proc/self/maps could not be read: no result */
} rs_result;

/* A range of the test's own memory that a scan leaves out (inputs still live during a
 * control scan). */
typedef struct rs_range {
    const void *p;
    size_t len;
} rs_range;
#define RS_LIVE(x)                                                                                 \
    {                                                                                              \
        &(x), sizeof(x)                                                                            \
    }

/* Seeds the masks (call once, with a value that changes per run). */
void rs_init(uint64_t seed);

void rs_set_clear(rs_set *s);

/* Adds every 16-byte window of secret[0..len) at offsets 0, 16, 32, ... and the window that
 * ends at len (len >= 16). `what` names the secret in reports. */
void rs_add(rs_set *s, const char *what, const void *secret, size_t len);

/* As rs_add for the secret with each 32-bit word byte-reversed (len a multiple of 4): how
 * SHA-256 implementations hold a digest or chaining value in their state words. */
void rs_add_words(rs_set *s, const char *what, const void *secret, size_t len);

/* Appends every needle of src to dst; 0 (dst unchanged) when they do not all fit. */
int rs_add_set(rs_set *dst, const rs_set *src);

/* Scans memory for every needle of s. */
void rs_scan(const rs_set *s, rs_result *r);

/* As rs_scan, leaving out n ranges (a needle overlapping one is not counted). */
void rs_scan_except(const rs_set *s, rs_result *r, const rs_range *except, size_t n);

/* Prints up to `max` hits of r, one line each, with the needle names. */
void rs_print_hits(const rs_set *s, const rs_result *r, size_t max);

#endif
