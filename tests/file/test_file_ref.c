/* The independent AES-256-GCM check: tests/file/gcm_ref.mjs (node's built-in crypto) writes
 * plaintexts of 0 bytes to 3 MiB + 7 with 12- and 16-byte IVs (and a few legacy 32-byte IVs)
 * and their blobs into a fresh temporary folder; this test decrypts every blob through the
 * streaming API, encrypts every plaintext back, and compares byte for byte, with x and ox.
 * Node is a test dependency: when it is missing or fails, the test fails. */
#define _XOPEN_SOURCE 700 /* mkdtemp, nftw, posix_spawn */

#include "test_file.h"

#include <ftw.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "vt_rand.h"

extern char **environ;

#define WHOLE ((size_t)-1) /* one piece: the whole buffer in one call */

static int remove_entry(const char *path, const struct stat *sb, int flag, struct FTW *ftw)
{
    (void)sb;
    (void)flag;
    (void)ftw;
    return remove(path);
}

static void remove_tree(const char *dir)
{
    (void)nftw(dir, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
}

/* Runs node gcm_ref.mjs dir seed; the exit status, or -1 when it cannot start. */
static int run_node(const ft_env *env, const char *dir, const char *seed)
{
    char *argv[5];
    pid_t pid;
    int status = 0;

    argv[0] = (char *)env->node;
    argv[1] = (char *)env->gcm_ref;
    argv[2] = (char *)dir;
    argv[3] = (char *)seed;
    argv[4] = NULL;
    fflush(stdout);
    if (posix_spawn(&pid, env->node, NULL, NULL, argv, environ) != 0) {
        return -1;
    }
    if (waitpid(pid, &status, 0) != pid) {
        return -1;
    }
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/* Decrypts in pieces of `chunk` and checks the plaintext and both digests. */
static int check_open(ft_env *env, const cJSON *c, const vt_bytes *key, const vt_bytes *iv,
                      const uint8_t *pt, size_t pt_len, const uint8_t *blob, size_t blob_len,
                      size_t chunk, char *err, size_t cap)
{
    uint8_t x[32], ox[32];
    sc_file_sink unused;
    ft_sink k;
    sc_status st;
    int ok;

    ft_sink_init(&k, &unused);
    st = ft_decrypt(env, key->p, iv->p, iv->n, blob, blob_len, chunk, &k, x, ox);
    ok = st == SC_OK && k.commits == 1 && k.discards == 0 && k.committed_len == pt_len &&
         memcmp(k.committed, pt, pt_len) == 0 && vt_hex_is(x, 32, vt_json_str(c, "x")) &&
         vt_hex_is(ox, 32, vt_json_str(c, "ox")) && k.max_write <= SC_FILE_SINK_MAX_WRITE;
    if (!ok) {
        snprintf(err, cap, "decrypt (%s pieces): %s, %zu of %zu bytes committed",
                 chunk == WHOLE ? "one" : "random", sc_status_name(st), k.committed_len, pt_len);
    }
    ft_sink_free(&k);
    return ok;
}

/* Encrypts in pieces of `chunk` and compares the blob byte for byte, x, ox and the size. */
static int check_seal(ft_env *env, const cJSON *c, const vt_bytes *key, const vt_bytes *iv,
                      const uint8_t *pt, size_t pt_len, const uint8_t *blob, size_t blob_len,
                      size_t chunk, char *err, size_t cap)
{
    uint8_t x[32], ox[32], *got = NULL;
    size_t got_len = 0;
    uint64_t size = 0;
    long want_size = 0;
    sc_status st;
    int ok;

    st = ft_encrypt(env, key->p, iv->p, iv->n, pt, pt_len, chunk, &got, &got_len, x, ox, &size);
    ok = st == SC_OK && got_len == blob_len && memcmp(got, blob, blob_len) == 0 &&
         vt_hex_is(x, 32, vt_json_str(c, "x")) && vt_hex_is(ox, 32, vt_json_str(c, "ox")) &&
         vt_json_long(c, "blob_size", &want_size) && size == (uint64_t)want_size;
    if (!ok) {
        snprintf(err, cap, "encrypt (%s pieces): %s, %zu bytes vs node's %zu",
                 chunk == WHOLE ? "one" : "random", sc_status_name(st), got_len, blob_len);
    }
    free(got);
    return ok;
}

/* A blob of a MiB with one ciphertext byte flipped in the middle: the sink received most of
 * it, and all of it is discarded, never committed. */
static int check_tampered(ft_env *env, const vt_bytes *key, const vt_bytes *iv, uint8_t *blob,
                          size_t blob_len, char *err, size_t cap)
{
    uint8_t x[32], ox[32];
    sc_file_sink unused;
    ft_sink k;
    sc_status st;
    int ok;

    blob[blob_len / 2] ^= 0x01;
    ft_sink_init(&k, &unused);
    st = ft_decrypt(env, key->p, iv->p, iv->n, blob, blob_len, FT_CHUNK_RANDOM, &k, x, ox);
    ok = st == SC_ERR_AUTH && ft_sink_discarded_once(&k) && k.writes > 100 && vt_all_zero(x, 32) &&
         vt_all_zero(ox, 32);
    if (!ok) {
        snprintf(err, cap, "tampered: %s, %u writes, %u commits, %u discards", sc_status_name(st),
                 k.writes, k.commits, k.discards);
    }
    ft_sink_free(&k);
    blob[blob_len / 2] ^= 0x01;
    return ok;
}

static int run_case(ft_env *env, const char *dir, const cJSON *c, size_t *opens, size_t *seals,
                    char *err, size_t cap)
{
    const char *pt_name = vt_json_str(c, "pt"), *blob_name = vt_json_str(c, "blob");
    char *pt_path = vt_path_join(dir, pt_name != NULL ? pt_name : "?");
    char *blob_path = vt_path_join(dir, blob_name != NULL ? blob_name : "?");
    size_t pt_len = 0, blob_len = 0;
    uint8_t *pt = (uint8_t *)vt_read_file(pt_path, &pt_len);
    uint8_t *blob = (uint8_t *)vt_read_file(blob_path, &blob_len);
    const cJSON *enc = cJSON_GetObjectItemCaseSensitive(c, "encrypt");
    uint8_t h[32];
    vt_bytes key = {0}, iv = {0};
    int ok = 0;

    if (pt == NULL || blob == NULL || !vt_json_hex(c, "key", &key) || key.n != 32 ||
        !vt_json_hex(c, "iv", &iv) || blob_len != pt_len + 16) {
        snprintf(err, cap, "node's output is incomplete");
        goto out;
    }
    /* node's digests are the digests of the files it wrote */
    if (sc_crypto_sha256(&env->ctx, h, blob, blob_len) != SC_OK ||
        !vt_hex_is(h, 32, vt_json_str(c, "x")) ||
        sc_crypto_sha256(&env->ctx, h, pt, pt_len) != SC_OK ||
        !vt_hex_is(h, 32, vt_json_str(c, "ox"))) {
        snprintf(err, cap, "manifest digests differ from sc_crypto_sha256 of the files");
        goto out;
    }
    if (!check_open(env, c, &key, &iv, pt, pt_len, blob, blob_len, FT_CHUNK_RANDOM, err, cap) ||
        !check_open(env, c, &key, &iv, pt, pt_len, blob, blob_len, WHOLE, err, cap)) {
        goto out;
    }
    *opens += 2;
    if (cJSON_IsTrue(enc)) {
        if (!check_seal(env, c, &key, &iv, pt, pt_len, blob, blob_len, FT_CHUNK_RANDOM, err, cap) ||
            !check_seal(env, c, &key, &iv, pt, pt_len, blob, blob_len, WHOLE, err, cap)) {
            goto out;
        }
        *seals += 2;
    }
    if (pt_len == ((size_t)1 << 20) && !check_tampered(env, &key, &iv, blob, blob_len, err, cap)) {
        goto out;
    }
    ok = 1;
out:
    vt_bytes_free(&key);
    vt_bytes_free(&iv);
    free(pt);
    free(blob);
    free(pt_path);
    free(blob_path);
    return ok;
}

void test_node_reference(void **state)
{
    ft_env *env = ft_env_of(state);
    const char *tmp = getenv("TMPDIR");
    char dir[512], seed[32], why[600], err[300], label[200];
    size_t opens = 0, seals = 0;
    const cJSON *c;
    cJSON *manifest;
    vt_report r;
    int rc;
    /* gcm_ref.mjs ran before this program, into gcm_ref_dir (shared by the backends' entries,
     * so it is kept afterwards) */
    const int prewritten = env->gcm_ref_dir != NULL && env->gcm_ref_dir[0] != '\0';

    if (prewritten) {
        ft_need_stream(env, "node AES-GCM reference");
        snprintf(dir, sizeof dir, "%s", env->gcm_ref_dir);
    } else {
        if (env->node == NULL || env->node[0] == '\0' || access(env->node, X_OK) != 0) {
            fail_msg("node (Node.js) is missing (\"%s\"), so the independent AES-GCM reference "
                     "cannot run. Node is a test dependency: install it and reconfigure (or "
                     "pass --node PATH).",
                     env->node != NULL ? env->node : "");
        }
        if (access(env->gcm_ref, R_OK) != 0) {
            fail_msg("cannot read the AES-GCM reference script \"%s\"", env->gcm_ref);
        }
        ft_need_stream(env, "node AES-GCM reference");
        snprintf(dir, sizeof dir, "%s/softchat-file-XXXXXX",
                 (tmp != NULL && tmp[0] != '\0') ? tmp : "/tmp");
        if (mkdtemp(dir) == NULL) {
            fail_msg("cannot create a temporary folder from %s", dir);
        }
        snprintf(seed, sizeof seed, "%llu", (unsigned long long)(vt_rand_u64() % 1000000000000ull));
        rc = run_node(env, dir, seed);
        if (rc != 0) {
            remove_tree(dir);
            fail_msg("%s %s %s %s exited with %d", env->node, env->gcm_ref, dir, seed, rc);
        }
    }
    manifest = vt_load_json(dir, "manifest.json", why, sizeof why);
    if (manifest == NULL) {
        if (!prewritten) {
            remove_tree(dir);
        }
        fail_msg("node wrote no readable manifest in %s: %s", dir, why);
    }
    if (prewritten) {
        snprintf(seed, sizeof seed, "%s",
                 vt_json_str(manifest, "seed") != NULL ? vt_json_str(manifest, "seed") : "?");
    }
    snprintf(label, sizeof label, "gcm_ref.mjs (%s, seed %s)",
             vt_json_str(manifest, "generator") ? vt_json_str(manifest, "generator") : "node",
             seed);
    vt_report_init(&r, env->backend, label);
    cJSON_ArrayForEach(c, cJSON_GetObjectItemCaseSensitive(manifest, "cases"))
    {
        err[0] = '\0';
        if (run_case(env, dir, c, &opens, &seals, err, sizeof err)) {
            vt_case_pass(&r);
        } else {
            vt_case_fail(&r, "%s: %s", vt_json_str(c, "name") ? vt_json_str(c, "name") : "?", err);
        }
    }
    vt_appendf(r.detail, sizeof r.detail, "decrypt %zu, encrypt %zu", opens, seals);
    cJSON_Delete(manifest);
    if (!prewritten) {
        remove_tree(dir);
    }
    vt_report_finish(&r, 23);
}
