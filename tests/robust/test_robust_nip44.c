/* The NIP-44 half of the robustness suite: mutated payloads (text-level edits, and edits of
 * the decoded bytes re-encoded as valid base64) go to sc_nip44_decrypt, and so do payloads
 * resealed around a mutated padded buffer, whose verdict is compared with the spec's unpad
 * rule. */
#include "test_robust.h"

#define RESEAL_RAW_CAP                                                                             \
    2048 /* raw bytes a resealed payload may grow to (its base64 fits the
            4096-byte text buffer) */

static const char *const b64_tokens[] = {
    "A", "B", "Z", "a",  "z",  "0",    "9",        "+",    "/",    "=",  "==", "#",
    "-", "_", " ", "\n", "\r", "\x80", "\xc3\xa9", "AAAA", "////", "Ag", "AQ", "=A",
};

static int is_decrypt_status(sc_status st)
{
    return st == SC_OK || st == SC_ERR_VERSION || st == SC_ERR_PAYLOAD_SIZE ||
           st == SC_ERR_TOO_LARGE || st == SC_ERR_BASE64 || st == SC_ERR_MAC ||
           st == SC_ERR_PADDING;
}

/* Raw-level mutation: decode (strict, local codec), change the bytes, re-encode. Reaches the
 * version, size, MAC and padding checks with valid base64. */
static const char b64a[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

static int b64_val(uint8_t c)
{
    const char *p = c != 0 ? strchr(b64a, c) : NULL;

    return p != NULL ? (int)(p - b64a) : -1;
}

static size_t b64_decode(uint8_t *out, const uint8_t *in, size_t len)
{
    size_t i, n = 0;
    uint32_t acc = 0;
    int bits = 0, v;

    for (i = 0; i < len && in[i] != '='; i++) {
        if ((v = b64_val(in[i])) < 0) {
            return SIZE_MAX;
        }
        acc = (acc << 6) | (uint32_t)v;
        bits += 6;
        if (bits >= 8) {
            bits -= 8;
            out[n++] = (uint8_t)(acc >> bits);
        }
    }
    return n;
}

static size_t b64_encode(uint8_t *out, const uint8_t *in, size_t n)
{
    size_t i, o = 0;

    for (i = 0; i + 2 < n; i += 3) {
        uint32_t v = (uint32_t)in[i] << 16 | (uint32_t)in[i + 1] << 8 | in[i + 2];

        out[o++] = (uint8_t)b64a[v >> 18];
        out[o++] = (uint8_t)b64a[(v >> 12) & 63];
        out[o++] = (uint8_t)b64a[(v >> 6) & 63];
        out[o++] = (uint8_t)b64a[v & 63];
    }
    if (n - i == 1) {
        uint32_t v = (uint32_t)in[i] << 16;

        out[o++] = (uint8_t)b64a[v >> 18];
        out[o++] = (uint8_t)b64a[(v >> 12) & 63];
        out[o++] = '=';
        out[o++] = '=';
    } else if (n - i == 2) {
        uint32_t v = (uint32_t)in[i] << 16 | (uint32_t)in[i + 1] << 8;

        out[o++] = (uint8_t)b64a[v >> 18];
        out[o++] = (uint8_t)b64a[(v >> 12) & 63];
        out[o++] = (uint8_t)b64a[(v >> 6) & 63];
        out[o++] = '=';
    }
    return o;
}

static void mutate_raw(rb_buf *b, uint8_t *raw)
{
    size_t n = b64_decode(raw, b->p, b->len), at;

    if (n == SIZE_MAX || n == 0) {
        return;
    }
    at = vt_rand_below(n);
    switch (vt_rand_below(6)) {
    case 0: /* version byte */
        raw[0] = (uint8_t)vt_rand_below(4);
        break;
    case 1: /* any byte: nonce, ciphertext or MAC */
        raw[at] ^= (uint8_t)(1u + vt_rand_below(255));
        break;
    case 2: /* truncate the raw bytes */
        n = vt_rand_below(n + 1);
        break;
    case 3: /* drop or add whole bytes in the middle */
        if (vt_rand_below(2) == 0 && n > 1) {
            memmove(raw + at, raw + at + 1, n - at - 1);
            n--;
        } else if (n < (b->cap / 4) * 3 - 8) {
            memmove(raw + at + 1, raw + at, n - at);
            raw[at] = (uint8_t)vt_rand_u64();
            n++;
        }
        break;
    case 4: /* the last byte (MAC) */
        raw[n - 1] ^= 0x01;
        break;
    default: /* append bytes */
        if (n + 3 < (b->cap / 4) * 3 - 8) {
            vt_rand_bytes(raw + n, 3);
            n += 3;
        }
        break;
    }
    b->len = b64_encode(b->p, raw, n);
}

static void check_payload(rb_env *env, rb_stats *s, unsigned long iter, const rb_item *it,
                          const uint8_t *in, size_t len)
{
    size_t cap = sc_nip44_decrypt_max(len), out_len = 777, max = 0;
    uint8_t fill = (uint8_t)(1u + vt_rand_below(255));
    int same = len == it->len && memcmp(in, it->text, len) == 0;
    uint8_t *out;
    sc_status st;

    if (vt_rand_below(16) == 0) {
        max = 1 + vt_rand_below(len + 64); /* the caller's limit, checked before decoding */
    }
    out = (uint8_t *)malloc(cap != 0 ? cap : 1);
    assert_non_null(out);
    memset(out, fill, cap != 0 ? cap : 1);
    st = sc_nip44_decrypt(&env->ctx, out, cap, &out_len, it->ck, (const char *)in, len, max);
    rb_stat_status(s->by_status, st);
    if (strcmp(sc_status_name(st), "SC_UNKNOWN") == 0 || !is_decrypt_status(st)) {
        rb_report(s, iter, in, len, "sc_nip44_decrypt returned %s (%d)", sc_status_name(st),
                  (int)st);
    } else if (max != 0 && len > max && len > 0 && in[0] != '#' && st != SC_ERR_TOO_LARGE) {
        rb_report(s, iter, in, len, "payload of %zu over max_payload %zu gave %s", len, max,
                  sc_status_name(st));
    } else if (st != SC_OK) {
        if (out_len != 0 || !vt_only_zero_or(out, cap, fill)) {
            rb_report(s, iter, in, len, "%s left out_len %zu or decoded bytes in the output",
                      sc_status_name(st), out_len);
        } else if (same && it->valid && (max == 0 || len <= max)) {
            rb_report(s, iter, in, len, "the unchanged payload failed: %s", sc_status_name(st));
        }
    } else {
        s->ok++;
        if (!same || !it->valid) {
            rb_report(s, iter, in, len, "a changed payload decrypted (%zu bytes)", out_len);
        } else if (out_len != it->pt.n || memcmp(out, it->pt.p, out_len) != 0 ||
                   !vt_only_zero_or(out + out_len, cap - out_len, fill)) {
            rb_report(s, iter, in, len, "wrong plaintext, or bytes left after it");
        } else {
            s->verified++;
        }
    }
    free(out);
}

/* Padding checks sit behind the MAC, so byte mutations never reach them. Resealing does:
 * decrypt the padded buffer with the message keys, mutate it (length prefix, buffer size,
 * padding bytes, the extended form), encrypt and MAC it again, and compare the library's
 * verdict with an independent reading of the spec's unpad rule. */
static uint64_t ref_padded_len(uint64_t len)
{
    uint64_t np = 1, chunk;

    if (len <= 32) {
        return 32;
    }
    while (np < len) {
        np <<= 1;
    }
    chunk = np <= 256 ? 32 : np / 8;
    return chunk * ((len - 1) / chunk + 1);
}

/* The spec's unpad: SC_OK with the plaintext at p[*off..*off + *len), or SC_ERR_PADDING. */
static sc_status ref_unpad(const uint8_t *p, size_t n, size_t *off, size_t *len)
{
    uint64_t l;
    size_t pre;

    if (n < 2) {
        return SC_ERR_PADDING;
    }
    l = (uint64_t)p[0] << 8 | p[1];
    pre = 2;
    if (l == 0) {
        if (n < 6) {
            return SC_ERR_PADDING;
        }
        l = (uint64_t)p[2] << 24 | (uint64_t)p[3] << 16 | (uint64_t)p[4] << 8 | p[5];
        if (l < 65536) {
            return SC_ERR_PADDING;
        }
        pre = 6;
    }
    if (l > n - pre || n != pre + ref_padded_len(l)) {
        return SC_ERR_PADDING;
    }
    *off = pre;
    *len = (size_t)l;
    return SC_OK;
}

static void set_u16(uint8_t *p, size_t v)
{
    p[0] = (uint8_t)(v >> 8);
    p[1] = (uint8_t)v;
}

/* Mutates the padded buffer p[0..*n) (capacity cap). */
static void mutate_padded(uint8_t *p, size_t *n, size_t cap)
{
    size_t l = (size_t)p[0] << 8 | p[1], m;

    switch (vt_rand_below(8)) {
    case 0: /* length prefix off by a little */
        set_u16(p, (l + 65536 - 2 + vt_rand_below(5)) & 0xffff);
        break;
    case 1: /* any length prefix */
        set_u16(p, vt_rand_below(65536));
        break;
    case 2: /* buffer shortened or lengthened by a little */
        m = *n - 3 + vt_rand_below(7);
        if (m <= cap) {
            if (m > *n) {
                memset(p + *n, 0, m - *n);
            }
            *n = m;
        }
        break;
    case 3: /* buffer resized to another padded size (32-multiples) */
        m = 2 + 32 * (1 + vt_rand_below((cap - 2) / 32));
        if (m > *n) {
            memset(p + *n, 0, m - *n);
        }
        *n = m;
        break;
    case 4: /* a length prefix and a buffer that agree, for a new length */
        l = 1 + vt_rand_below(cap - 2 < 2000 ? cap - 2 : 2000);
        if (2 + ref_padded_len(l) <= cap) {
            set_u16(p, l);
            m = 2 + (size_t)ref_padded_len(l);
            if (m > *n) {
                memset(p + *n, 0x61, m - *n);
            }
            *n = m;
        }
        break;
    case 5: /* the extended form with a short length */
        if (*n >= 6) {
            p[0] = p[1] = 0;
            set_u16(p + 2, 0);
            set_u16(p + 4, vt_rand_below(65536));
        }
        break;
    case 6: /* the extended form with a large length */
        if (*n >= 6) {
            p[0] = p[1] = 0;
            p[2] = (uint8_t)vt_rand_below(256);
            p[3] = (uint8_t)vt_rand_u64();
            p[4] = (uint8_t)vt_rand_u64();
            p[5] = (uint8_t)vt_rand_u64();
        }
        break;
    default: /* garbage in the padding bytes (allowed: still valid) */
        if (*n > 2 + l) {
            vt_rand_bytes(p + 2 + l, *n - 2 - l);
        }
        break;
    }
}

/* raw = 0x02 || nonce || ChaCha20(padded) || HMAC(nonce || ct), with nonce from the item and
 * a mutated padded buffer; *want is the spec's verdict on that buffer, and on SC_OK the
 * plaintext is copied to pt (*pt_len bytes). */
static int reseal(rb_env *env, const rb_item *it, uint8_t *raw, size_t *raw_len, size_t cap,
                  sc_status *want, uint8_t *pt, size_t *pt_len)
{
    uint8_t ckey[32], cnonce[12], hkey[32];
    size_t n = b64_decode(raw, (const uint8_t *)it->text, it->len), pn;
    sc_iov parts[2];
    int ok = 0;

    if (n == SIZE_MAX || n < 99 ||
        sc_nip44_message_keys(&env->ctx, ckey, cnonce, hkey, it->ck, raw + 1) != SC_OK) {
        goto out;
    }
    pn = n - 65;
    if (sc_crypto_chacha20_xor(&env->ctx, raw + 33, raw + 33, pn, ckey, cnonce, 0) != SC_OK) {
        goto out;
    }
    mutate_padded(raw + 33, &pn, cap - 65);
    if (vt_rand_below(2) == 0) {
        mutate_padded(raw + 33, &pn, cap - 65);
    }
    if (pn < 34) {
        *want = SC_ERR_PAYLOAD_SIZE; /* fewer than 99 raw bytes */
    } else {
        size_t off = 0;

        *want = ref_unpad(raw + 33, pn, &off, pt_len);
        if (*want == SC_OK) {
            memcpy(pt, raw + 33 + off, *pt_len);
        }
    }
    if (sc_crypto_chacha20_xor(&env->ctx, raw + 33, raw + 33, pn, ckey, cnonce, 0) != SC_OK) {
        goto out;
    }
    parts[0].data = raw + 1;
    parts[0].len = 32;
    parts[1].data = raw + 33;
    parts[1].len = pn;
    if (sc_crypto_hmac_sha256(&env->ctx, raw + 33 + pn, hkey, sizeof hkey, parts, 2) != SC_OK) {
        goto out;
    }
    *raw_len = 65 + pn;
    ok = 1;
out:
    memset(ckey, 0, sizeof ckey);
    memset(hkey, 0, sizeof hkey);
    return ok;
}

static void check_resealed(rb_env *env, rb_stats *s, unsigned long iter, const rb_item *it,
                           uint8_t *raw, size_t raw_cap, uint8_t *text, uint8_t *pt)
{
    size_t raw_len = 0, len, cap, out_len = 777, pl = 0;
    uint8_t fill = (uint8_t)(1u + vt_rand_below(255));
    sc_status want = SC_ERR_INTERNAL, st;
    uint8_t *out, *in;

    if (!reseal(env, it, raw, &raw_len, raw_cap, &want, pt, &pl)) {
        rb_report(s, iter, (const uint8_t *)it->text, it->len, "cannot reseal this payload");
        return;
    }
    len = b64_encode(text, raw, raw_len);
    cap = sc_nip44_decrypt_max(len);
    in = (uint8_t *)malloc(len);
    out = (uint8_t *)malloc(cap != 0 ? cap : 1);
    assert_true(in != NULL && out != NULL);
    memcpy(in, text, len);
    memset(out, fill, cap != 0 ? cap : 1);
    st = sc_nip44_decrypt(&env->ctx, out, cap, &out_len, it->ck, (const char *)in, len, 0);
    rb_stat_status(s->by_status2, st);
    if (st != want) {
        rb_report(s, iter, in, len, "resealed padded buffer of %zu bytes: %s, the spec says %s",
                  raw_len - 65, sc_status_name(st), sc_status_name(want));
    } else if (st != SC_OK) {
        if (out_len != 0 || !vt_only_zero_or(out, cap, fill)) {
            rb_report(s, iter, in, len, "%s left out_len %zu or decrypted bytes in the output",
                      sc_status_name(st), out_len);
        }
    } else {
        s->ok++;
        if (out_len != pl || memcmp(out, pt, pl) != 0 ||
            !vt_only_zero_or(out + out_len, cap - out_len, fill)) {
            rb_report(s, iter, in, len,
                      "plaintext of %zu bytes, the spec says %zu (or bytes left "
                      "after it)",
                      out_len, pl);
        } else {
            s->verified++;
        }
    }
    free(in);
    free(out);
}

void test_robust_nip44(void **state)
{
    rb_env *env = (rb_env *)*state;
    rb_stats s;
    rb_buf b;
    uint8_t *raw, *pt;
    unsigned long i, n = env->iterations / 2;

    memset(&s, 0, sizeof s);
    s.what = "nip44";
    if (env->n_pl == 0) {
        fail_msg("no payloads to mutate (is %s/%s there?)", env->own_dir, RB_NIP44_FILE);
    }
    b.cap = 4096;
    b.p = vt_alloc(b.cap);
    raw = vt_alloc(b.cap);
    pt = vt_alloc(b.cap);
    vt_rand_seed(env->seed ^ 0x6e69703434ull); /* "nip44": its own stream */
    for (i = 0; i < n; i++) {
        const rb_item *it = &env->pl[vt_rand_below(env->n_pl)];
        size_t rounds = vt_rand_below(4), r; /* 0 rounds: the unchanged payload */
        uint8_t *in;

        if (vt_rand_below(4) == 0) {
            check_resealed(env, &s, i, it, raw, RESEAL_RAW_CAP, b.p, pt);
            s.runs++;
            continue;
        }
        memcpy(b.p, it->text, it->len);
        b.len = it->len;
        for (r = 0; r < rounds; r++) {
            if (vt_rand_below(3) == 0) {
                mutate_raw(&b, raw);
            } else {
                rb_mutate_any(&b, b64_tokens, sizeof b64_tokens / sizeof b64_tokens[0]);
            }
        }
        s.preserved += (unsigned long)(rounds == 0 && it->valid);
        in = (uint8_t *)malloc(b.len != 0 ? b.len : 1);
        assert_non_null(in);
        memcpy(in, b.p, b.len);
        check_payload(env, &s, i, it, in, b.len);
        free(in);
        s.runs++;
    }
    free(b.p);
    free(raw);
    free(pt);
    rb_print_stats(env, &s, "sc_nip44_decrypt of mutated payloads",
                   "sc_nip44_decrypt of resealed padded buffers");
    if (s.failures != 0) {
        fail_msg("%lu of %lu mutated payloads misbehaved (seed 0x%llx)", s.failures, s.runs,
                 (unsigned long long)env->seed);
    }
}
