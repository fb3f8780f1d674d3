/* Streaming AES-256-GCM attachments: decryption (and, on the way, encryption).
 * Input: [mode][sink][pieces 4][fail status][plaintext...].
 *  mode bits 0-1  IV: 12, 16, 32 (the legacy IV) or 16 bytes
 *  mode bits 2-3  tamper: none, flip one bit of the blob, cut the blob short, append a byte
 *  mode bits 4-6  backend, among those with streaming AES-GCM
 *  mode bit 7     raw: the plaintext bytes are the blob itself (a tag that never verifies)
 *  sink           bits 0-3: fail the n-th write (0 = never); bit 4: fail the commit; bit 5:
 *                 abort the operation from the n-th write instead of failing it; bit 6: call
 *                 update from inside the write callback (must be refused)
 *  pieces         sizes of the update calls, cycled
 *  fail status    which status a failing callback returns (some are not sc_status values)
 * The blob is made with the one-shot sc_crypto_aes256gcm_seal (and, for 12- and 16-byte IVs,
 * also with the streaming encryption in the same pieces, which must agree byte for byte, with
 * x, ox and the size), so the tag verifies and decryption runs to the end. Checks: the sink
 * sees exactly the plaintext in writes of at most SC_FILE_SINK_MAX_WRITE bytes, commit once
 * and only after the tag verifies, discard exactly once on every other ending (never after a
 * failed commit), x and ox are the hashes of the blob and the plaintext and zero on failure,
 * the callbacks' statuses pass through as documented, and a finished operation refuses more
 * calls. */
#include "fuzz_common.h"

#include <stdlib.h>
#include <string.h>

#define KEY_BYTE 0x3c

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    fz_setup();
    return 0;
}

typedef struct sink_log {
    uint8_t *buf;
    size_t len, cap;
    size_t writes, commits, discards;
    size_t fail_at; /* 1-based write index that fails or aborts; 0 = none */
    int fail_commit;
    int abort_instead;
    int reenter;
    sc_status fail_with;
    sc_file_dec *op;
    int reentry_refused;
} sink_log;

static sc_status on_write(void *user, const uint8_t *data, size_t len)
{
    sink_log *s = (sink_log *)user;

    FZ_REQUIRE(s->commits == 0 && s->discards == 0);
    FZ_REQUIRE(len >= 1 && len <= SC_FILE_SINK_MAX_WRITE);
    FZ_REQUIRE(s->len + len <= s->cap);
    memcpy(s->buf + s->len, data, len);
    s->len += len;
    s->writes++;
    if (s->reenter) {
        uint8_t x[32];
        FZ_REQUIRE(sc_file_decrypt_update(s->op, data, 1) == SC_ERR_STATE);
        FZ_REQUIRE(sc_file_decrypt_final(s->op, x, NULL) == SC_ERR_STATE);
        s->reentry_refused = 1;
    }
    if (s->fail_at != 0 && s->writes == s->fail_at) {
        if (s->abort_instead) {
            sc_file_decrypt_abort(s->op);
            return SC_OK;
        }
        return s->fail_with;
    }
    return SC_OK;
}

static sc_status on_commit(void *user)
{
    sink_log *s = (sink_log *)user;

    FZ_REQUIRE(s->commits == 0 && s->discards == 0);
    s->commits++;
    return s->fail_commit ? s->fail_with : SC_OK;
}

static void on_discard(void *user)
{
    sink_log *s = (sink_log *)user;

    FZ_REQUIRE(s->commits == 0 && s->discards == 0);
    s->discards++;
}

/* What the library returns for a callback's status. */
static sc_status passed_through(sc_status st)
{
    return (st < 0 && strcmp(sc_status_name(st), "SC_UNKNOWN") != 0) ? st : SC_ERR_IO;
}

/* Streams pt through sc_file_encrypt_* in the given pieces and requires the blob, x, ox and
 * size to match the one-shot result. */
static void check_encrypt(sc_ctx *ctx, const uint8_t *key, const uint8_t *iv, size_t iv_len,
                          const uint8_t *pt, size_t len, const uint8_t *blob, size_t blob_len,
                          const uint8_t *pieces)
{
    sc_file_enc e;
    uint8_t *out = fz_alloc(blob_len + 32), x[32], ox[32], hx[32], hox[32];
    size_t o = 0, at = 0, k = 0, n, got;
    uint64_t size = 0;

    FZ_REQUIRE(sc_file_encrypt_init(ctx, &e, key, iv, iv_len) == SC_OK);
    while (at < len) {
        size_t piece = (size_t)pieces[k++ % 4] * 7 + 1;
        size_t take = piece < len - at ? piece : len - at;
        size_t cap = sc_file_encrypt_update_max(take);

        FZ_REQUIRE(cap != 0 && o + cap <= blob_len + 32);
        n = 0;
        FZ_REQUIRE(sc_file_encrypt_update(&e, out + o, cap, &n, pt + at, take) == SC_OK);
        FZ_REQUIRE(n <= cap && n % 16 == 0);
        o += n;
        at += take;
    }
    got = 0;
    FZ_REQUIRE(sc_file_encrypt_final(&e, out + o, SC_FILE_FINAL_BYTES, &got, x, ox, &size) ==
               SC_OK);
    o += got;
    FZ_REQUIRE(o == blob_len && size == blob_len && memcmp(out, blob, blob_len) == 0);
    FZ_REQUIRE(sc_crypto_sha256(ctx, hx, blob, blob_len) == SC_OK);
    FZ_REQUIRE(sc_crypto_sha256(ctx, hox, pt, len) == SC_OK);
    FZ_REQUIRE(memcmp(x, hx, 32) == 0 && memcmp(ox, hox, 32) == 0);
    /* finished: refused */
    FZ_REQUIRE(sc_file_encrypt_update(&e, out, blob_len + 32, &n, pt, len) == SC_ERR_STATE ||
               len == 0);
    free(out);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const size_t iv_lens[4] = {12, 16, 32, 16};
    static const sc_status statuses[8] = {SC_ERR_IO,    SC_ERR_TOO_LARGE, SC_ERR_AUTH,
                                          SC_ERR_MAC,   (sc_status)7,     (sc_status)-1000,
                                          SC_ERR_NOMEM, (sc_status)-19};
    fz_in in = {data, size};
    uint8_t mode = fz_u8(&in), sinkb = fz_u8(&in), pieces[4], key[32], iv[32], tag[16];
    uint8_t x[32], ox[32], hx[32], hox[32];
    size_t iv_len = iv_lens[mode & 3u], tamper = (mode >> 2) & 3u, len = 0, blob_len, at, k = 0;
    size_t bi;
    sc_status fail_with, st = SC_OK, want;
    const uint8_t *pt;
    uint8_t *blob;
    sc_file_sink sink;
    sc_file_dec d;
    sink_log log;
    sc_ctx *ctx;
    int raw = mode >> 7, changed = 0, ended = 0, write_failed;

    bi = fz_backend_with(SC_CAP_AES256GCM_STREAM, (mode >> 4) & 7u);
    if (bi == (size_t)-1) {
        return 0;
    }
    ctx = fz_ctx(bi);
    fz_bytes(&in, pieces, 4);
    fail_with = statuses[fz_u8(&in) & 7u];
    pt = fz_take(&in, in.n, &len);
    memset(key, KEY_BYTE, sizeof key);
    for (k = 0; k < sizeof iv; k++) {
        iv[k] = (uint8_t)('0' + k % 10); /* ASCII, as the legacy IV is */
    }
    k = 0;

    /* the blob: ciphertext || tag, or the raw bytes */
    if (raw) {
        blob_len = len;
        blob = fz_dup(pt, len);
        changed = 1;
    } else {
        blob_len = len + 16;
        blob = fz_alloc(blob_len + 1);
        if (sc_crypto_aes256gcm_seal(fz_ctx(0), blob, tag, key, iv, iv_len, NULL, 0, pt, len) !=
            SC_OK) {
            free(blob);
            return 0; /* the default backend lacks this IV length for one-shot sealing */
        }
        memcpy(blob + len, tag, 16);
        if (iv_len != 32) {
            check_encrypt(ctx, key, iv, iv_len, pt, len, blob, blob_len, pieces);
        }
        if (tamper == 1 && blob_len > 0) {
            size_t pos = (size_t)pieces[0] * 256 + pieces[1];
            blob[pos % blob_len] ^= (uint8_t)(1u << (pieces[2] & 7u));
            changed = 1;
        } else if (tamper == 2) {
            blob_len -= 1 + pieces[3] % (blob_len < 40 ? blob_len : 40);
            changed = 1;
        } else if (tamper == 3) {
            blob[blob_len++] = pieces[3];
            changed = 1;
        }
    }

    memset(&log, 0, sizeof log);
    log.cap = blob_len + 1;
    log.buf = fz_alloc(log.cap);
    log.fail_at = sinkb & 15u;
    log.fail_commit = (sinkb >> 4) & 1;
    log.abort_instead = (sinkb >> 5) & 1;
    log.reenter = (sinkb >> 6) & 1;
    log.fail_with = fail_with;
    log.op = &d;
    sink.user = &log;
    sink.write = on_write;
    sink.commit = on_commit;
    sink.discard = on_discard;

    FZ_REQUIRE(sc_file_decrypt_init(ctx, &d, key, iv, iv_len, &sink) == SC_OK);
    /* a second operation on the same context is refused while this one runs */
    {
        sc_file_dec d2;
        FZ_REQUIRE(sc_file_decrypt_init(ctx, &d2, key, iv, iv_len, &sink) == SC_ERR_STATE);
        FZ_REQUIRE(fz_all_zero(&d2, sizeof d2));
    }
    for (at = 0; at < blob_len && !ended;) {
        size_t piece = (size_t)pieces[k++ % 4] * 13 + 1;
        size_t take = piece < blob_len - at ? piece : blob_len - at;
        uint8_t *chunk = fz_dup(blob + at, take);

        st = sc_file_decrypt_update(&d, chunk, take);
        free(chunk);
        at += take;
        if (st != SC_OK) {
            ended = 1;
        }
    }
    memset(x, 0xa5, sizeof x);
    memset(ox, 0xa5, sizeof ox);
    if (!ended) {
        st = sc_file_decrypt_final(&d, x, ox);
    } else {
        FZ_REQUIRE(sc_file_decrypt_final(&d, x, ox) == SC_ERR_STATE);
    }
    /* finished either way: the operation refuses more */
    FZ_REQUIRE(sc_file_decrypt_update(&d, blob, blob_len) == SC_ERR_STATE || blob_len == 0);
    sc_file_decrypt_abort(&d);

    /* what must have happened */
    write_failed = log.fail_at != 0 && log.writes >= log.fail_at;
    if (write_failed) {
        want = log.abort_instead ? SC_ERR_STATE : passed_through(fail_with);
    } else if (changed) {
        want = SC_ERR_AUTH;
    } else if (log.fail_commit) {
        want = passed_through(fail_with);
    } else {
        want = SC_OK;
    }
    FZ_REQUIRE(st == want);
    /* commit exactly when the blob is authentic and every write went through */
    FZ_REQUIRE(log.commits == (size_t)(!write_failed && !changed));
    FZ_REQUIRE(log.commits + log.discards == 1);
    FZ_REQUIRE(log.reentry_refused == (log.reenter && log.writes > 0));
    /* the sink never sees the tag */
    FZ_REQUIRE(log.len == 0 || log.len + 16 <= blob_len);
    if (st == SC_OK) {
        FZ_REQUIRE(log.len == len && memcmp(log.buf, pt, len) == 0);
        FZ_REQUIRE(sc_crypto_sha256(ctx, hx, blob, blob_len) == SC_OK);
        FZ_REQUIRE(sc_crypto_sha256(ctx, hox, pt, len) == SC_OK);
        FZ_REQUIRE(memcmp(x, hx, 32) == 0 && memcmp(ox, hox, 32) == 0);
    } else {
        FZ_REQUIRE(fz_all_zero(x, 32) && fz_all_zero(ox, 32));
    }
    /* the context is free again */
    {
        sink_log again;

        memset(&again, 0, sizeof again);
        sink.user = &again;
        FZ_REQUIRE(sc_file_decrypt_init(ctx, &d, key, iv, iv_len, &sink) == SC_OK);
        sc_file_decrypt_abort(&d);
        FZ_REQUIRE(again.discards == 1 && again.commits == 0 && again.writes == 0);
    }
    free(log.buf);
    free(blob);
    return 0;
}
