/* The conformance section of the audit: what the conformance suites print when ctest runs
 * them verbosely (ctest -V), read line by line. The suites report every vector file they read
 * (tests/lib/vectors_util.c):
 *   "[backend] LABEL: N cases: R run (...), P passed, F failed[, S skipped (...)][, n/a ...]"
 *   "[backend] LABEL: skipped (WHY)"   (the file is absent, or the backend lacks a capability)
 * where LABEL starts with the file's path relative to its folder ("wycheproof/aes_gcm_test.json",
 * "nip44.vectors.json valid.get_conversation_key", "vectors/primitives.json sha256"). A file is
 * upstream when it lives in the upstream folder the suite names on its group line
 * ("[==========] group ...: ..., upstream vectors DIR"), or when it was skipped because that
 * folder or file is absent; everything else is the project's own vectors and checks. The
 * fallback entries (*.no-upstream, *.own-only), which point at a missing folder on purpose,
 * count as suites but their lines are left out. */
#ifndef SOFTCHAT_BENCH_CONFORMANCE_H
#define SOFTCHAT_BENCH_CONFORMANCE_H

#include <stddef.h>
#include <stdio.h>

#define CONF_MAX_TESTS 1024

typedef struct conf_row {
    char backend[48];
    char label[192];
    char result[640];
    int upstream; /* 1: an upstream file; 0: the project's own */
    int skipped;  /* the file or check did not run at all */
    int absent;   /* skipped because the upstream folder or file is absent */
    size_t group; /* rows of one label stay together: the index of its first row */
} conf_row;

typedef struct conformance {
    int ran;                 /* 0: ctest did not run (note says why) */
    int passed, failed;      /* ctest entries */
    int exit_status;         /* of ctest */
    char upstream_dir[1024]; /* as the suites name it; "" if none said */
    int upstream_missing;    /* a suite said the folder is not found */
    conf_row *rows;
    size_t n_rows, cap_rows;
    int oom;                               /* a row could not be stored */
    int skipped;                           /* ctest entries ctest itself reported skipped */
    unsigned char ignored[CONF_MAX_TESTS]; /* per ctest number: a fallback entry */
    char note[1536];                       /* one line: the ctest result and the upstream folder */
} conformance;

void conf_init(conformance *c);

/* Reads one line of ctest -V output (without or with its newline). */
void conf_line(conformance *c, const char *line);

/* After the last line: classifies the rows (upstream or own; stat(2) on the upstream folder),
 * groups each label's rows together and writes the note. status is ctest's exit status. */
void conf_finish(conformance *c, int status);

/* Marks the section as not run, with the reason as its note. */
void conf_not_run(conformance *c, const char *why);

/* The markdown of the section (below its heading): the note, the upstream summary and the
 * two tables, upstream files and the project's own. */
void conf_write(FILE *f, const conformance *c);

void conf_free(conformance *c);

#endif
