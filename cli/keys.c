/* Keys on the command line: secret keys only from files (--sec-file), public keys from
 * arguments (64 hex characters or an npub). Error messages never echo a key file's bytes. */
#include "cli.h"

#include <string.h>

/* A key file holds one key and some whitespace; anything longer is not a key file. */
#define KEY_FILE_MAX 4096u

static int is_space(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f';
}

static void trim(const char **s, size_t *n)
{
    while (*n > 0 && is_space((*s)[0])) {
        (*s)++;
        (*n)--;
    }
    while (*n > 0 && is_space((*s)[*n - 1])) {
        (*n)--;
    }
}

int cli_hex32(uint8_t out[32], const char *arg)
{
    size_t n = strlen(arg);

    if (n != 64 || sc_hex_decode_fixed(out, 32, arg, n, SC_HEX_ANY_CASE) != SC_OK) {
        return -1;
    }
    return 0;
}

/* Decodes a bech32 entity of the expected type into key. Returns SC_OK, the decoder's
 * status, or SC_ERR_NOT_FOUND with *got set when the string is another (valid) type. */
static sc_status decode_entity(uint8_t key[32], sc_nip19_type want, sc_nip19_type *got,
                               const char *s, size_t n)
{
    uint8_t scratch[KEY_FILE_MAX];
    sc_nip19_entity e;
    size_t need = sc_nip19_decode_scratch_max(n), used = 0;
    sc_status st;

    memset(&e, 0, sizeof e);
    if (need > sizeof scratch) {
        return SC_ERR_BECH32; /* far longer than any key */
    }
    st = sc_nip19_decode(&e, scratch, sizeof scratch, &used, s, n);
    *got = e.type;
    if (st == SC_OK && e.type != want) {
        st = SC_ERR_NOT_FOUND;
    }
    if (st == SC_OK) {
        memcpy(key, e.key, 32);
    }
    sc_mem_wipe(&e, sizeof e);
    sc_mem_wipe(scratch, sizeof scratch);
    return st;
}

int cli_load_identity(sc_ctx *ctx, sc_identity *id, const char *path)
{
    char buf[KEY_FILE_MAX];
    uint8_t sec[SC_SECKEY_BYTES];
    const char *s = buf;
    size_t n = 0;
    sc_nip19_type got = SC_NIP19_NSEC;
    sc_status st;
    int rc;

    sc_identity_clear(id);
    rc = cli_read_small_file(path, buf, sizeof buf, &n);
    if (rc != CLI_OK) {
        goto out;
    }
    rc = CLI_INVALID;
    if (n == sizeof buf) {
        cli_fail(rc, "%s: not a secret key (the file is too large)", path);
        goto out;
    }
    trim(&s, &n);
    if (n == 64) {
        st = sc_hex_decode_fixed(sec, sizeof sec, s, n, SC_HEX_ANY_CASE);
    } else {
        st = decode_entity(sec, SC_NIP19_NSEC, &got, s, n);
    }
    if (st == SC_ERR_NOT_FOUND) {
        cli_fail(rc, "%s: holds a NIP-19 %s, not a secret key (nsec or 64 hex characters)", path,
                 sc_nip19_prefix(got) != NULL ? sc_nip19_prefix(got) : "entity");
        goto out;
    }
    if (st != SC_OK) {
        cli_fail(rc, "%s: not a secret key: expected 64 hex characters or an nsec (%s)", path,
                 sc_status_str(st));
        goto out;
    }
    st = sc_identity_import(ctx, id, sec);
    if (st == SC_ERR_INVALID_KEY) {
        cli_fail(rc, "%s: invalid secret key (zero or not below the curve order) (%s)", path,
                 sc_status_name(st));
        goto out;
    }
    if (st != SC_OK) {
        rc = cli_fail_status(st, "cannot import the secret key");
        goto out;
    }
    rc = CLI_OK;
out:
    sc_mem_wipe(buf, sizeof buf);
    sc_mem_wipe(sec, sizeof sec);
    if (rc != CLI_OK) {
        sc_identity_clear(id);
    }
    return rc;
}

int cli_write_key_file(const char *path, const uint8_t *p, size_t n)
{
    cli_outfile f;
    int rc = cli_outfile_open(&f, path);

    if (rc != CLI_OK) {
        return rc;
    }
    rc = cli_outfile_write(&f, p, n);
    if (rc != CLI_OK) {
        cli_outfile_discard(&f);
        return rc;
    }
    return cli_outfile_commit(&f);
}

int cli_parse_pubkey(uint8_t pub[SC_PUBKEY_BYTES], const char *arg, const char *opt,
                     const char *usage)
{
    sc_nip19_type got = SC_NIP19_NPUB;
    sc_status st;

    if (cli_hex32(pub, arg) == 0) {
        return CLI_OK;
    }
    st = decode_entity(pub, SC_NIP19_NPUB, &got, arg, strlen(arg));
    if (st == SC_OK) {
        return CLI_OK;
    }
    sc_mem_wipe(pub, SC_PUBKEY_BYTES);
    if (st == SC_ERR_NOT_FOUND && got == SC_NIP19_NSEC) {
        return cli_usage_error(usage,
                               "%s: that is a secret key (nsec); secret keys are never taken on "
                               "the command line: use --sec-file FILE",
                               opt);
    }
    if (st == SC_ERR_NOT_FOUND) {
        return cli_usage_error(usage,
                               "%s: expected a public key (64 hex characters or an npub), "
                               "got a NIP-19 %s",
                               opt, sc_nip19_prefix(got) ? sc_nip19_prefix(got) : "entity");
    }
    return cli_usage_error(usage, "%s: expected 64 hex characters or an npub (%s)", opt,
                           sc_status_str(st));
}

int cli_parse_pubkey_list(uint8_t (*keys)[SC_PUBKEY_BYTES], size_t cap, size_t *n, const char *arg,
                          const char *opt, const char *usage)
{
    char item[128]; /* an npub is 63 characters, hex 64: anything longer is not a key */
    const char *p = arg;
    size_t i;
    int rc = CLI_OK;

    *n = 0;
    for (;;) {
        const char *comma = strchr(p, ',');
        size_t len = comma != NULL ? (size_t)(comma - p) : strlen(p);

        if (len == 0) {
            rc = cli_usage_error(usage, "%s: empty item in the list of public keys", opt);
            break;
        }
        if (*n >= cap) {
            rc = cli_usage_error(usage, "%s: more than %zu public keys", opt, cap);
            break;
        }
        if (len >= sizeof item) {
            rc = cli_usage_error(usage,
                                 "%s: expected 64 hex characters or an npub (item %zu "
                                 "is %zu characters long)",
                                 opt, *n + 1, len);
            break;
        }
        memcpy(item, p, len);
        item[len] = '\0';
        rc = cli_parse_pubkey(keys[*n], item, opt, usage);
        if (rc != CLI_OK) {
            break;
        }
        for (i = 0; i < *n; i++) {
            if (memcmp(keys[i], keys[*n], SC_PUBKEY_BYTES) == 0) {
                rc = cli_usage_error(usage, "%s: public key %zu repeats key %zu", opt, *n + 1,
                                     i + 1);
                break;
            }
        }
        if (rc != CLI_OK) {
            break;
        }
        (*n)++;
        if (comma == NULL) {
            break;
        }
        p = comma + 1;
    }
    sc_mem_wipe(item, sizeof item); /* it may have held an nsec given by mistake */
    if (rc != CLI_OK) {
        *n = 0;
    }
    return rc;
}
