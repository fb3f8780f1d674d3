/* sc_status_str / sc_status_name: one row per status, so names and texts cannot drift. */
#include <softchat/status.h>

#include <stddef.h>

typedef struct status_row {
    sc_status code;
    const char *name;
    const char *text;
} status_row;

#define ROW(code, text)                                                                            \
    {                                                                                              \
        code, #code, text                                                                          \
    }

static const status_row rows[] = {
    ROW(SC_OK, "success"),
    ROW(SC_ERR_ARG, "invalid argument"),
    ROW(SC_ERR_BUFFER_TOO_SMALL, "output buffer too small"),
    ROW(SC_ERR_STATE, "object in the wrong state (uninitialised, cleared or busy)"),
    ROW(SC_ERR_TOO_LARGE, "input exceeds the configured limit"),
    ROW(SC_ERR_NOT_FOUND, "not found"),
    ROW(SC_ERR_POLICY, "refused by policy (opt-in required)"),
    ROW(SC_ERR_FLAGS, "unknown flag or option value"),
    ROW(SC_ERR_EMPTY, "empty input where one is required"),
    ROW(SC_ERR_OVERLAP, "buffers overlap"),
    ROW(SC_ERR_UNSORTED, "records not in strictly ascending order"),
    ROW(SC_ERR_FULL, "relay session full (no room for another subscription or publish)"),
    ROW(SC_ERR_ENCODING, "invalid hex or fixed-size encoding"),
    ROW(SC_ERR_BASE64, "invalid base64"),
    ROW(SC_ERR_BECH32, "invalid bech32"),
    ROW(SC_ERR_TLV, "invalid NIP-19 TLV"),
    ROW(SC_ERR_JSON, "invalid JSON"),
    ROW(SC_ERR_UTF8, "invalid UTF-8"),
    ROW(SC_ERR_EVENT_FIELD, "event field missing, duplicated or of the wrong type"),
    ROW(SC_ERR_EVENT_RANGE, "event kind or created_at out of range"),
    ROW(SC_ERR_INVALID_KEY, "invalid key"),
    ROW(SC_ERR_INVALID_SIG, "invalid signature"),
    ROW(SC_ERR_ID_MISMATCH, "event id does not match its content"),
    ROW(SC_ERR_VERSION, "unknown or unsupported encryption version"),
    ROW(SC_ERR_PAYLOAD_SIZE, "invalid payload size"),
    ROW(SC_ERR_MAC, "invalid MAC"),
    ROW(SC_ERR_PADDING, "invalid padding"),
    ROW(SC_ERR_AUTH, "authentication tag mismatch"),
    ROW(SC_ERR_MESSAGE, "message lacks a required element"),
    ROW(SC_ERR_EXPIRED, "event expired (NIP-40)"),
    ROW(SC_ERR_NEGENTROPY, "malformed Negentropy message"),
    ROW(SC_ERR_NEG_VERSION, "unsupported Negentropy protocol version"),
    ROW(SC_ERR_RELAY_MESSAGE, "malformed relay message"),
    ROW(SC_ERR_RELAY_UNKNOWN, "unknown relay message type"),
    ROW(SC_ERR_NO_MATCH, "event matches none of the filters"),
    ROW(SC_ERR_SUBSCRIPTION, "message for a subscription that is not open"),
    ROW(SC_ERR_AUTH_KIND, "AUTH event is not kind 22242"),
    ROW(SC_ERR_AUTH_CHALLENGE, "AUTH event challenge missing or wrong"),
    ROW(SC_ERR_AUTH_RELAY, "AUTH event names another relay"),
    ROW(SC_ERR_AUTH_TIME, "AUTH event created_at outside the window"),
    ROW(SC_ERR_FILTER, "malformed filter"),
    ROW(SC_ERR_NO_INBOX, "the receiver publishes no kind 10050 inbox list"),
    ROW(SC_ERR_SCRYPT_COST, "scrypt cost out of range (log_n too large or too small)"),
    ROW(SC_ERR_NIP98_SCHEME, "HTTP Authorization value is not \"Nostr <token>\""),
    ROW(SC_ERR_NIP98_KIND, "HTTP auth event is not kind 27235"),
    ROW(SC_ERR_NIP98_TIME, "HTTP auth event created_at outside the window"),
    ROW(SC_ERR_NIP98_URL, "HTTP auth event u tag missing or not the request URL"),
    ROW(SC_ERR_NIP98_METHOD, "HTTP auth event method tag missing or another method"),
    ROW(SC_ERR_NIP98_PAYLOAD, "HTTP auth event payload tag missing or another body hash"),
    ROW(SC_ERR_WRAP_KIND, "gift wrap has the wrong kind"),
    ROW(SC_ERR_WRAP_ID, "gift wrap id does not match"),
    ROW(SC_ERR_WRAP_SIG, "gift wrap signature invalid"),
    ROW(SC_ERR_WRAP_DECRYPT, "gift wrap does not decrypt for this recipient"),
    ROW(SC_ERR_SEAL_JSON, "seal is not a valid event"),
    ROW(SC_ERR_SEAL_KIND, "seal has the wrong kind"),
    ROW(SC_ERR_SEAL_ID, "seal id does not match"),
    ROW(SC_ERR_SEAL_SIG, "seal signature invalid"),
    ROW(SC_ERR_SEAL_DECRYPT, "seal does not decrypt"),
    ROW(SC_ERR_RUMOR_JSON, "rumor is not a valid unsigned event"),
    ROW(SC_ERR_RUMOR_AUTHOR, "rumor author differs from the seal signer"),
    ROW(SC_ERR_RUMOR_ID, "rumor id missing or does not match"),
    ROW(SC_ERR_RUMOR_SIGNED, "rumor carries a signature"),
    ROW(SC_ERR_WRAP_EXPIRED, "gift wrap expired (NIP-40)"),
    ROW(SC_ERR_SEAL_EXPIRED, "seal expired (NIP-40)"),
    ROW(SC_ERR_RNG, "random generator failure"),
    ROW(SC_ERR_BACKEND, "crypto backend invalid or failed its self-test"),
    ROW(SC_ERR_UNSUPPORTED, "not supported by the selected backend"),
    ROW(SC_ERR_NOMEM, "out of memory"),
    ROW(SC_ERR_INTERNAL, "crypto library failure"),
    ROW(SC_ERR_IO, "sink or source reported failure"),
    ROW(SC_ERR_SIGNER_ANSWER, "the external signer's answer failed verification"),
    ROW(SC_ERR_SIGNER_REFUSED, "the signer refused the request"),
    ROW(SC_ERR_TIMEOUT, "no answer before the deadline"),
    ROW(SC_ERR_NIP46, "malformed NIP-46 message"),
    ROW(SC_ERR_NIP46_SECRET, "NIP-46 connect secret missing or wrong"),
    ROW(SC_ERR_NIP46_URI, "malformed bunker:// or nostrconnect:// URI"),
    ROW(SC_ERR_NIP46_SENDER, "NIP-46 event from or to an unexpected key"),
    ROW(SC_ERR_NIP46_ID, "NIP-46 response to another request"),
    ROW(SC_ERR_NIP46_AUTH_URL, "the remote signer asks the user to open a URL"),
};

static const status_row *find(sc_status s)
{
    size_t i;
    for (i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        if (rows[i].code == s) {
            return &rows[i];
        }
    }
    return NULL;
}

const char *sc_status_str(sc_status s)
{
    const status_row *r = find(s);
    return r != NULL ? r->text : "unknown status";
}

const char *sc_status_name(sc_status s)
{
    const status_row *r = find(s);
    return r != NULL ? r->name : "SC_UNKNOWN";
}
