/* test_bench_conformance: the audit's conformance section (bench/conformance.c) reads what the
 * suites print under ctest -V: per-file case counts and skips become rows, upstream files are
 * told from the project's own (by the upstream folder the suites name, or by the skip that
 * says it is absent), labels keep their own ": ", repeated skips are one row, the fallback
 * entries' lines are left out, and ctest's verdicts are counted. */
#define _POSIX_C_SOURCE 200809L
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "conformance.h"

static conformance conf; /* large */
static char dir[64];     /* a scratch upstream folder */

static void feed(const char *const *lines, size_t n)
{
    size_t i;

    conf_init(&conf);
    for (i = 0; i < n; i++) {
        conf_line(&conf, lines[i]);
    }
    conf_finish(&conf, 0);
}

static const conf_row *row(const char *backend, const char *label)
{
    size_t i;

    for (i = 0; i < conf.n_rows; i++) {
        if (strcmp(conf.rows[i].backend, backend) == 0 && strcmp(conf.rows[i].label, label) == 0) {
            return &conf.rows[i];
        }
    }
    fail_msg("no row [%s] %s", backend, label);
    return NULL;
}

/* The markdown of the section, in a string (the caller frees it). */
static char *written(void)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);

    assert_non_null(f);
    conf_write(f, &conf);
    fclose(f);
    return buf;
}

static void touch(const char *rel)
{
    char path[256];
    FILE *f;

    snprintf(path, sizeof path, "%s/%s", dir, rel);
    f = fopen(path, "w");
    assert_non_null(f);
    fclose(f);
}

static int make_upstream(void **state)
{
    char sub[128];

    (void)state;
    snprintf(dir, sizeof dir, "/tmp/sc-conformance-XXXXXX");
    if (mkdtemp(dir) == NULL) {
        return -1;
    }
    snprintf(sub, sizeof sub, "%s/wycheproof", dir);
    if (mkdir(sub, 0700) != 0) {
        return -1;
    }
    touch("wycheproof/aes_gcm_test.json");
    touch("nip44.vectors.json");
    return 0;
}

static int remove_upstream(void **state)
{
    char path[256];

    (void)state;
    snprintf(path, sizeof path, "%s/wycheproof/aes_gcm_test.json", dir);
    unlink(path);
    snprintf(path, sizeof path, "%s/nip44.vectors.json", dir);
    unlink(path);
    snprintf(path, sizeof path, "%s/wycheproof", dir);
    rmdir(path);
    rmdir(dir);
    conf_free(&conf);
    return 0;
}

static void test_upstream_present(void **state)
{
    char group[256];
    const char *lines[] = {
        "test 1\n",
        "      Start  1: vectors.openssl\n",
        group,
        "1: [openssl] wycheproof/aes_gcm_test.json: 316 cases: 104 run (one-shot 104), 104 passed, "
        "0 failed, 211 n/a (AES-128/192 key: 211)\n",
        "1: [openssl] vectors/primitives.json sha256: 135 cases: 135 run, 135 passed, 0 failed\n",
        "1: [openssl] own: wrap options: 9 cases: 9 run, 9 passed, 0 failed\n",
        "1: [openssl] wycheproof/aes_gcm_test.json: FAIL case 7: tag mismatch\n",
        " 1/3 Test  #1: vectors.openssl ..................   Passed    0.01 sec\n",
        "      Start 12: nip44.sodium\n",
        "12: [sodium] nip44.vectors.json valid.get_conversation_key: 35 cases: 35 run, 35 passed, "
        "0 failed\n",
        "12: [sodium] tampering: skipped (libsodium has no streaming AES-256-GCM (one-shot "
        "only))\n",
        " 2/3 Test #12: nip44.sodium .....................***Failed    0.02 sec\n",
        "      Start 13: nip44.no-upstream\n",
        "13: [openssl] nip44.vectors.json: skipped (upstream vectors folder /nowhere not found)\n",
        " 3/3 Test #13: nip44.no-upstream ................   Passed    0.01 sec\n",
    };
    const conf_row *r;
    char *md;

    (void)state;
    snprintf(group, sizeof group,
             "1: [==========] group openssl: primitives (upstream and own vectors), upstream "
             "vectors %s\n",
             dir);
    feed(lines, sizeof lines / sizeof lines[0]);
    assert_int_equal(conf.passed, 2);
    assert_int_equal(conf.failed, 1);
    assert_string_equal(conf.upstream_dir, dir);
    assert_false(conf.upstream_missing);
    assert_int_equal(conf.n_rows, 5); /* the FAIL line and the fallback entry's skip are out */

    r = row("openssl", "wycheproof/aes_gcm_test.json");
    assert_true(r->upstream);
    assert_false(r->skipped);
    assert_true(strncmp(r->result, "316 cases: 104 run", 18) == 0);
    assert_true(row("sodium", "nip44.vectors.json valid.get_conversation_key")->upstream);
    assert_false(row("openssl", "vectors/primitives.json sha256")->upstream);
    r = row("openssl", "own: wrap options");
    assert_false(r->upstream);
    assert_string_equal(r->result, "9 cases: 9 run, 9 passed, 0 failed");
    r = row("sodium", "tampering");
    assert_false(r->upstream);
    assert_true(r->skipped);
    assert_string_equal(r->result,
                        "skipped (libsodium has no streaming AES-256-GCM (one-shot only))");

    assert_non_null(strstr(conf.note, "2 suites passed, 1 failed"));
    assert_non_null(strstr(conf.note, "upstream vectors: 2 files"));
    md = written();
    assert_non_null(strstr(md, "### Upstream files"));
    assert_non_null(strstr(md, "| wycheproof/aes_gcm_test.json | openssl | 316 cases: 104 run"));
    assert_non_null(strstr(md, "2 files, 2 results (one per file or check and backend): "
                               "351 cases, 139 run, 139 passed, 0 failed"));
    assert_non_null(strstr(md, "| own: wrap options | openssl | 9 cases"));
    assert_null(strstr(md, "not found"));
    /* upstream rows come first, then the own table */
    assert_true(strstr(md, "nip44.vectors.json") < strstr(md, "### The project's own"));
    free(md);
    conf_free(&conf);
}

static void test_upstream_absent(void **state)
{
    const char *lines[] = {
        "      Start  1: vectors.openssl\n",
        "1: WARNING: upstream vectors folder /src/../shared/vectors not found; every upstream "
        "vector file is\n",
        "1: [==========] group openssl: primitives (upstream and own vectors), upstream vectors "
        "/src/../shared/vectors\n",
        "1: [openssl] rfc/sha256-examples.json: skipped (upstream vectors folder "
        "/src/../shared/vectors not found)\n",
        "1: [openssl] vectors/primitives.json sha256: 135 cases: 135 run, 135 passed, 0 failed\n",
        " 1/3 Test  #1: vectors.openssl ..................   Passed    0.01 sec\n",
        "      Start  2: nip44.openssl\n",
        "2: [openssl] nip44.vectors.json: skipped (upstream vectors folder /src/../shared/vectors "
        "not found)\n",
        "2: [openssl] nip44.vectors.json: skipped (upstream vectors folder /src/../shared/vectors "
        "not found)\n",
        " 2/3 Test  #2: nip44.openssl ....................   Passed    0.01 sec\n",
        "      Start  3: nip19\n",
        "3: [nip19] nip19.vectors.json: skipped (upstream vectors folder missing)\n",
        " 3/3 Test  #3: nip19 ............................   Passed    0.01 sec\n",
    };
    const conf_row *r;
    char *md;

    (void)state;
    feed(lines, sizeof lines / sizeof lines[0]);
    assert_int_equal(conf.passed, 3);
    assert_int_equal(conf.failed, 0);
    assert_true(conf.upstream_missing);
    assert_int_equal(conf.n_rows, 4); /* nip44.vectors.json twice is one row */
    r = row("openssl", "rfc/sha256-examples.json");
    assert_true(r->upstream && r->skipped && r->absent);
    assert_string_equal(r->result, "skipped: the upstream folder is absent");
    assert_true(row("openssl", "nip44.vectors.json")->upstream);
    assert_true(row("nip19", "nip19.vectors.json")->upstream);
    assert_false(row("openssl", "vectors/primitives.json sha256")->upstream);
    assert_non_null(strstr(conf.note, "upstream vectors NOT FOUND at /src/../shared/vectors"));
    md = written();
    assert_non_null(strstr(md, "**Upstream vectors not found** (`/src/../shared/vectors`)"));
    assert_non_null(strstr(md, "| rfc/sha256-examples.json | openssl | skipped: the upstream "
                               "folder is absent |"));
    assert_non_null(strstr(md, "3 files, 3 results (one per file or check and backend): 0 cases, "
                               "0 run, 0 passed, 0 failed; 3 results skipped"));
    free(md);
    conf_free(&conf);
}

static void test_not_run(void **state)
{
    char *md;

    (void)state;
    conf_init(&conf);
    conf_not_run(&conf, "Not run: cannot start ctest.");
    md = written();
    assert_string_equal(md, "Not run: cannot start ctest.\n");
    free(md);
    conf_free(&conf);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_upstream_present, make_upstream, remove_upstream),
        cmocka_unit_test(test_upstream_absent),
        cmocka_unit_test(test_not_run),
    };

    return cmocka_run_group_tests_name("bench: the audit's conformance section", tests, NULL, NULL);
}
