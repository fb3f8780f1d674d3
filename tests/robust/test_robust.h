/* The robustness suite (test_robust --backend NAME ...): shared between test_robust.c (the
 * driver, the corpus and the byte-level mutation engine), test_robust_events.c (event JSON)
 * and test_robust_nip44.c (NIP-44 payloads). */
#ifndef SOFTCHAT_TESTS_TEST_ROBUST_H
#define SOFTCHAT_TESTS_TEST_ROBUST_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <cjson/cJSON.h>
#include <softchat/softchat.h>

#include "vectors_util.h"
#include "vt_rand.h"

#define RB_EVENTS_FILE "nostr-tools.events.json"
#define RB_NIP44_FILE "nostr-tools.nip44.json"
#define RB_MAX_SEED_JSON 4096    /* event texts longer than this are not mutated */
#define RB_MAX_SEED_PAYLOAD 2048 /* payloads longer than this (characters) are not mutated */
#define RB_MAX_GROWTH 256        /* bytes one mutation may add */
#define RB_MAX_CORPUS 512

/* ---- the corpus -------------------------------------------------------------------------- */

typedef struct rb_item {
    const char *text; /* points into the loaded cJSON documents */
    size_t len;
    int valid;       /* a valid event / a payload that decrypts */
    const char *ser; /* events: the canonical text of the event, when valid */
    size_t ser_len;
    const uint8_t *ck; /* payloads: conversation key (32) */
    vt_bytes pt;       /* payloads: the plaintext, when valid */
} rb_item;

typedef struct rb_known {
    uint8_t id[32];
    const char *ser;
    size_t ser_len;
} rb_known;

typedef struct rb_env {
    sc_ctx ctx;
    const char *backend;
    const char *own_dir;
    uint64_t seed;
    unsigned long iterations;
    cJSON *events, *nip44;
    rb_item ev[RB_MAX_CORPUS];
    size_t n_ev;
    rb_item pl[RB_MAX_CORPUS];
    size_t n_pl;
    uint8_t cks[RB_MAX_CORPUS][32];
    rb_known known[RB_MAX_CORPUS]; /* every valid event of the file, by id */
    size_t n_known;
} rb_env;

/* Per-run tallies and the first failures. */
typedef struct rb_stats {
    const char *what;
    unsigned long runs, failures, preserved, ok, verified;
    unsigned long by_status[100];  /* first call (parse / decrypt), index -status */
    unsigned long by_status2[100]; /* second call (verify / resealed decrypt) */
} rb_stats;

typedef struct rb_buf {
    uint8_t *p;
    size_t len, cap;
} rb_buf;

/* Tallies a status into hist (index -status). */
void rb_stat_status(unsigned long *hist, sc_status st);
/* Prints the one-line summary and both status histograms. */
void rb_print_stats(const rb_env *env, const rb_stats *s, const char *first, const char *second);
/* Counts a failure; prints the first few with the iteration and the input. */
void rb_report(rb_stats *s, unsigned long iter, const uint8_t *in, size_t len, const char *fmt, ...)
    VT_PRINTF(5, 6);

/* Byte-level edits of b (insertions are cut at b->cap). */
void rb_buf_insert(rb_buf *b, size_t at, const void *src, size_t n);
void rb_buf_delete(rb_buf *b, size_t at, size_t n);
size_t rb_pick_pos(const rb_buf *b); /* 0..len */
/* Replaces one byte with (or inserts) a token from the list, or a NUL byte. */
void rb_put_token(rb_buf *b, const char *const *tokens, size_t n_tokens, int replace);
/* One mutation that may break the input: bit flip, byte change, insertion, deletion,
 * truncation, duplicated span, or a token from the list. */
void rb_mutate_any(rb_buf *b, const char *const *tokens, size_t n_tokens);

void test_robust_events(void **state);
void test_robust_nip44(void **state);

#endif
