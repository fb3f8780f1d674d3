/* Table validation, capability queries and names. Capabilities are computed from the table
 * and its probes, never kept as a separate bitmask that could drift. */
#include <softchat/backend.h>

#include <stddef.h>

#include "crypto/backend.h"

static const char *const group_names[SC_GROUP_COUNT] = {"hash", "mac",   "stream", "aead",
                                                        "rng",  "curve", "xaead",  "scrypt"};
static const char *const cap_names[SC_CAP_COUNT] = {
    "sha256",           "hmac-sha256",        "chacha20", "aes256gcm",
    "aes256gcm-iv16",   "aes256gcm-stream",   "rng",      "secp256k1",
    "chacha20-counter", "xchacha20-poly1305", "scrypt"};

static const size_t group_offsets[SC_GROUP_COUNT] = {
    offsetof(sc_backend, hash),  offsetof(sc_backend, mac),   offsetof(sc_backend, stream),
    offsetof(sc_backend, aead),  offsetof(sc_backend, rng),   offsetof(sc_backend, curve),
    offsetof(sc_backend, xaead), offsetof(sc_backend, scrypt)};

/* The table's optional why_absent (ABI 2.2), or NULL when it lies beyond struct_size. */
static const char *(*why_absent_of(const sc_backend *b))(sc_group)
{
    return (b->struct_size >= offsetof(sc_backend, why_absent) + sizeof b->why_absent)
               ? b->why_absent
               : NULL;
}

const char *sc_backend_group_name(sc_group g)
{
    return ((unsigned)g < SC_GROUP_COUNT) ? group_names[g] : NULL;
}

const char *sc_backend_cap_name(sc_cap cap)
{
    return ((unsigned)cap < SC_CAP_COUNT) ? cap_names[cap] : NULL;
}

const void *sc_backend_group_ptr(const sc_backend *b, sc_group g)
{
    const void *const *slot;

    if (b == NULL || (unsigned)g >= SC_GROUP_COUNT ||
        group_offsets[g] + sizeof(void *) > b->struct_size) {
        return NULL;
    }
    slot = (const void *const *)(const void *)((const char *)b + group_offsets[g]);
    return *slot;
}

const char *sc_backend_group_lib(const sc_backend *b, sc_group g)
{
    const void *p = sc_backend_group_ptr(b, g);

    if (p == NULL) {
        return NULL;
    }
    switch (g) {
    case SC_GROUP_HASH:
        return SC_GROUP_FN(sc_backend_hash, (const sc_backend_hash *)p, lib);
    case SC_GROUP_MAC:
        return SC_GROUP_FN(sc_backend_mac, (const sc_backend_mac *)p, lib);
    case SC_GROUP_STREAM:
        return SC_GROUP_FN(sc_backend_stream, (const sc_backend_stream *)p, lib);
    case SC_GROUP_AEAD:
        return SC_GROUP_FN(sc_backend_aead, (const sc_backend_aead *)p, lib);
    case SC_GROUP_RNG:
        return SC_GROUP_FN(sc_backend_rng, (const sc_backend_rng *)p, lib);
    case SC_GROUP_CURVE:
        return SC_GROUP_FN(sc_backend_curve, (const sc_backend_curve *)p, lib);
    case SC_GROUP_XAEAD:
        return SC_GROUP_FN(sc_backend_xaead, (const sc_backend_xaead *)p, lib);
    case SC_GROUP_SCRYPT:
        return SC_GROUP_FN(sc_backend_scrypt, (const sc_backend_scrypt *)p, lib);
    }
    return NULL;
}

/* A required field: within the group's declared size and non-NULL. */
#define REQ(type, g, f) (SC_GROUP_FN(type, g, f) != NULL)

/* setup and teardown come as a pair, or not at all. */
#define PAIRED(type, g)                                                                            \
    ((SC_GROUP_FN(type, g, setup) == NULL) == (SC_GROUP_FN(type, g, teardown) == NULL))

static int group_ok(const sc_backend *b, sc_group g)
{
    const void *p = sc_backend_group_ptr(b, g);

    if (p == NULL) {
        return 1; /* absent groups are allowed */
    }
    switch (g) {
    case SC_GROUP_HASH: {
        const sc_backend_hash *h = p;
        return REQ(sc_backend_hash, h, lib) && PAIRED(sc_backend_hash, h) &&
               REQ(sc_backend_hash, h, sha256) && REQ(sc_backend_hash, h, init) &&
               REQ(sc_backend_hash, h, update) && REQ(sc_backend_hash, h, final) &&
               h->state_size > 0 && h->state_size <= SC_SHA256_STATE_BYTES;
    }
    case SC_GROUP_MAC: {
        const sc_backend_mac *m = p;
        return REQ(sc_backend_mac, m, lib) && PAIRED(sc_backend_mac, m) &&
               REQ(sc_backend_mac, m, hmac_sha256);
    }
    case SC_GROUP_STREAM: {
        const sc_backend_stream *s = p;
        return REQ(sc_backend_stream, s, lib) && PAIRED(sc_backend_stream, s) &&
               REQ(sc_backend_stream, s, chacha20_xor);
    }
    case SC_GROUP_AEAD: {
        const sc_backend_aead *a = p;
        return REQ(sc_backend_aead, a, lib) && PAIRED(sc_backend_aead, a) &&
               REQ(sc_backend_aead, a, probe) && REQ(sc_backend_aead, a, seal) &&
               REQ(sc_backend_aead, a, open) && REQ(sc_backend_aead, a, start) &&
               REQ(sc_backend_aead, a, update) && REQ(sc_backend_aead, a, final) &&
               REQ(sc_backend_aead, a, abort);
    }
    case SC_GROUP_RNG: {
        const sc_backend_rng *r = p;
        return REQ(sc_backend_rng, r, lib) && PAIRED(sc_backend_rng, r) &&
               REQ(sc_backend_rng, r, fill);
    }
    case SC_GROUP_CURVE: {
        const sc_backend_curve *c = p;
        return REQ(sc_backend_curve, c, lib) && PAIRED(sc_backend_curve, c) &&
               REQ(sc_backend_curve, c, keypair) && REQ(sc_backend_curve, c, sign) &&
               REQ(sc_backend_curve, c, verify) && REQ(sc_backend_curve, c, ecdh_x);
    }
    case SC_GROUP_XAEAD: {
        const sc_backend_xaead *x = p;
        return REQ(sc_backend_xaead, x, lib) && PAIRED(sc_backend_xaead, x) &&
               REQ(sc_backend_xaead, x, seal) && REQ(sc_backend_xaead, x, open);
    }
    case SC_GROUP_SCRYPT: {
        /* stateless by contract: a context keeps no state for it (ctx/ctx_internal.h) */
        const sc_backend_scrypt *k = p;
        return REQ(sc_backend_scrypt, k, lib) && SC_GROUP_FN(sc_backend_scrypt, k, setup) == NULL &&
               SC_GROUP_FN(sc_backend_scrypt, k, teardown) == NULL &&
               REQ(sc_backend_scrypt, k, scrypt);
    }
    }
    return 0;
}

sc_status sc_backend_validate(const sc_backend *b)
{
    unsigned g;

    if (b == NULL) {
        return SC_ERR_ARG;
    }
    if ((b->abi_version >> 16) != SC_BACKEND_ABI_MAJOR ||
        b->struct_size < offsetof(sc_backend, hash) || b->name == NULL || b->name[0] == '\0' ||
        b->lib_version == NULL) {
        return SC_ERR_BACKEND;
    }
    for (g = 0; g < SC_GROUP_COUNT; g++) {
        if (!group_ok(b, (sc_group)g)) {
            return SC_ERR_BACKEND;
        }
    }
    return SC_OK;
}

/* SC_OK when group g is present; otherwise SC_ERR_UNSUPPORTED with the table's own reason
 * (why_absent) or the generic one. */
static sc_status need_group(const sc_backend *b, sc_group g, const char *generic, const char **why)
{
    const char *(*absent)(sc_group) = why_absent_of(b);
    const char *reason = NULL;

    if (sc_backend_group_ptr(b, g) != NULL) {
        return SC_OK;
    }
    if (absent != NULL) {
        reason = absent(g);
    }
    *why = reason != NULL ? reason : generic;
    return SC_ERR_UNSUPPORTED;
}

static sc_status aead_probe(const sc_backend *b, sc_aead_mode mode, size_t iv_len, const char **why)
{
    const sc_backend_aead *a = sc_backend_group_ptr(b, SC_GROUP_AEAD);
    const char *reason = NULL;
    sc_status st;

    if (a == NULL) {
        return need_group(b, SC_GROUP_AEAD, "the backend has no aead group", why);
    }
    st = a->probe(mode, iv_len, &reason);
    if (st != SC_OK) {
        *why = reason != NULL ? reason : "the aead group reports this mode unsupported";
        return SC_ERR_UNSUPPORTED;
    }
    return SC_OK;
}

/* Any starting block counter, unless the stream group's optional probe_counter says no. */
static sc_status stream_counter(const sc_backend *b, const char **why)
{
    const sc_backend_stream *s = sc_backend_group_ptr(b, SC_GROUP_STREAM);
    sc_status (*probe)(const char **);
    const char *reason = NULL;

    if (s == NULL) {
        return need_group(b, SC_GROUP_STREAM, "the backend has no stream group", why);
    }
    probe = SC_GROUP_FN(sc_backend_stream, s, probe_counter);
    if (probe != NULL && probe(&reason) != SC_OK) {
        *why = reason != NULL ? reason : "the stream group starts at block counter 0 only";
        return SC_ERR_UNSUPPORTED;
    }
    return SC_OK;
}

sc_status sc_backend_has(const sc_backend *b, sc_cap cap, const char **why)
{
    const char *dummy = NULL;
    sc_status st;

    if (why == NULL) {
        why = &dummy;
    }
    *why = NULL;
    if (b == NULL || (unsigned)cap >= SC_CAP_COUNT) {
        return SC_ERR_ARG;
    }
    switch (cap) {
    case SC_CAP_SHA256:
        return need_group(b, SC_GROUP_HASH, "the backend has no hash group", why);
    case SC_CAP_HMAC_SHA256:
        return need_group(b, SC_GROUP_MAC, "the backend has no mac group", why);
    case SC_CAP_CHACHA20:
        return need_group(b, SC_GROUP_STREAM, "the backend has no stream group", why);
    case SC_CAP_AES256GCM:
        return aead_probe(b, SC_AEAD_ONESHOT, 12, why);
    case SC_CAP_AES256GCM_IV16:
        return aead_probe(b, SC_AEAD_ONESHOT, 16, why);
    case SC_CAP_AES256GCM_STREAM:
        st = aead_probe(b, SC_AEAD_STREAM, 12, why);
        return st == SC_OK ? aead_probe(b, SC_AEAD_STREAM, 16, why) : st;
    case SC_CAP_RNG:
        return need_group(b, SC_GROUP_RNG, "the backend has no rng group", why);
    case SC_CAP_SECP256K1:
        return need_group(b, SC_GROUP_CURVE, "the backend has no curve group", why);
    case SC_CAP_CHACHA20_COUNTER:
        return stream_counter(b, why);
    case SC_CAP_XCHACHA20POLY1305:
        return need_group(b, SC_GROUP_XAEAD, "the backend has no xaead group", why);
    case SC_CAP_SCRYPT:
        return need_group(b, SC_GROUP_SCRYPT, "the backend has no scrypt group", why);
    }
    return SC_ERR_ARG;
}
