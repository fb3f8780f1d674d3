/* libsoftchat: the one status enum.
 *
 * SC_OK is 0; every error is negative. The numeric values are frozen: bindings (JNI, Swift)
 * and the CLI depend on them. New codes are only ever appended inside their family's range.
 *   -1 .. -19   caller errors (a bug in the calling code)
 *  -20 .. -59   bad data (the input was read and is invalid or unauthentic)
 *  -60 .. -79   bad data in a NIP-59 gift wrap, one code per failed check
 *  -80 .. -99   environment (backend, RNG, memory)
 * -100 .. -119  an external signer and NIP-46 remote signing (what the signer or its channel
 *               did)
 */
#ifndef SOFTCHAT_STATUS_H
#define SOFTCHAT_STATUS_H

#include "common.h"

SC_BEGIN_DECLS

typedef enum sc_status {
    SC_OK = 0,

    /* caller errors */
    SC_ERR_ARG = -1,              /* NULL or out-of-range argument */
    SC_ERR_BUFFER_TOO_SMALL = -2, /* output capacity too small; *out_len holds the need */
    SC_ERR_STATE = -3,            /* object used in the wrong state (uninitialised, busy) */
    SC_ERR_TOO_LARGE = -4,        /* input exceeds a caller-set or protocol limit */
    SC_ERR_NOT_FOUND = -5,        /* no such backend or item */
    SC_ERR_POLICY = -6,           /* refused by an opt-in policy: a NIP-44 plaintext of 65536
                                     bytes or more needs SC_NIP44_EXTENDED */
    SC_ERR_FLAGS = -7,            /* an unknown flag bit, or an option value out of range */
    SC_ERR_EMPTY = -8,            /* an input that must not be empty is empty */
    SC_ERR_OVERLAP = -9,          /* an output buffer overlaps an input or another output */
    SC_ERR_UNSORTED = -10,        /* Negentropy records not strictly ascending (a duplicate) */
    SC_ERR_FULL = -11,            /* a relay session holds all the subscriptions or publishes
                                     it was given room for */

    /* bad data */
    SC_ERR_ENCODING = -20,       /* malformed hex or other fixed encoding */
    SC_ERR_BASE64 = -21,         /* malformed or non-canonical base64 */
    SC_ERR_BECH32 = -22,         /* malformed bech32: charset, case, checksum, prefix */
    SC_ERR_TLV = -23,            /* NIP-19 TLV truncated, missing or of the wrong length */
    SC_ERR_JSON = -24,           /* JSON syntax error */
    SC_ERR_UTF8 = -25,           /* invalid UTF-8 */
    SC_ERR_EVENT_FIELD = -26,    /* event field missing, duplicated or of the wrong type */
    SC_ERR_EVENT_RANGE = -27,    /* kind or created_at out of range */
    SC_ERR_INVALID_KEY = -28,    /* secret key 0 or >= n, or public key not on the curve */
    SC_ERR_INVALID_SIG = -29,    /* signature does not verify */
    SC_ERR_ID_MISMATCH = -30,    /* event id differs from the recomputed id */
    SC_ERR_VERSION = -31,        /* NIP-44 unknown or unsupported version */
    SC_ERR_PAYLOAD_SIZE = -32,   /* NIP-44 payload or decoded data of invalid size */
    SC_ERR_MAC = -33,            /* NIP-44 MAC mismatch */
    SC_ERR_PADDING = -34,        /* NIP-44 invalid padding or length prefix */
    SC_ERR_AUTH = -35,           /* AEAD tag mismatch (AES-GCM, XChaCha20-Poly1305; NIP-49: a
                                    wrong password) */
    SC_ERR_MESSAGE = -36,        /* a NIP-17 message lacks a required element */
    SC_ERR_EXPIRED = -37,        /* NIP-40: the event's expiration time has passed */
    SC_ERR_NEGENTROPY = -38,     /* a malformed NIP-77 Negentropy message */
    SC_ERR_NEG_VERSION = -39,    /* the Negentropy peer speaks another protocol version */
    SC_ERR_RELAY_MESSAGE = -40,  /* a relay message of the wrong shape */
    SC_ERR_RELAY_UNKNOWN = -41,  /* a relay message of a type this library does not know */
    SC_ERR_NO_MATCH = -42,       /* the event matches none of the subscription's filters */
    SC_ERR_SUBSCRIPTION = -43,   /* a relay message names a subscription that is not open */
    SC_ERR_AUTH_KIND = -44,      /* NIP-42: not a kind 22242 event */
    SC_ERR_AUTH_CHALLENGE = -45, /* NIP-42: challenge tag missing or not the one sent */
    SC_ERR_AUTH_RELAY = -46,     /* NIP-42: relay tag missing or naming another relay */
    SC_ERR_AUTH_TIME = -47,      /* NIP-42: created_at outside the accepted window */
    SC_ERR_FILTER = -48,         /* a malformed NIP-01 filter */
    SC_ERR_NO_INBOX = -49,       /* the receiver publishes no kind 10050 inbox list (NIP-17:
                                     not ready for private messages) */
    SC_ERR_SCRYPT_COST = -50,    /* scrypt cost out of range: N < 2, or more working memory than
                                    SC_SCRYPT_MEMORY_MAX (NIP-49: log_n above 22) */
    SC_ERR_NIP98_SCHEME = -51,   /* NIP-98: the Authorization value is not "Nostr <token>" */
    SC_ERR_NIP98_KIND = -52,     /* NIP-98: not a kind 27235 event */
    SC_ERR_NIP98_TIME = -53,     /* NIP-98: created_at outside the accepted window */
    SC_ERR_NIP98_URL = -54,      /* NIP-98: u tag missing, repeated or not the request URL */
    SC_ERR_NIP98_METHOD = -55,   /* NIP-98: method tag missing, repeated or another method */
    SC_ERR_NIP98_PAYLOAD = -56,  /* NIP-98: payload tag missing, repeated or another body hash */

    /* NIP-59 unwrap, one per check, in the order they run */
    SC_ERR_WRAP_KIND = -60,    /* outer event is not kind 1059 / 21059 */
    SC_ERR_WRAP_ID = -61,      /* gift wrap id mismatch */
    SC_ERR_WRAP_SIG = -62,     /* gift wrap signature invalid */
    SC_ERR_WRAP_DECRYPT = -63, /* gift wrap content does not decrypt for this recipient */
    SC_ERR_SEAL_JSON = -64,    /* decrypted seal is not a valid event */
    SC_ERR_SEAL_KIND = -65,    /* seal is not kind 13 */
    SC_ERR_SEAL_ID = -66,      /* seal id mismatch */
    SC_ERR_SEAL_SIG = -67,     /* seal signature invalid */
    SC_ERR_SEAL_DECRYPT = -68, /* seal content does not decrypt */
    SC_ERR_RUMOR_JSON = -69,   /* decrypted rumor is not a valid unsigned event */
    SC_ERR_RUMOR_AUTHOR = -70, /* rumor pubkey differs from the seal pubkey */
    SC_ERR_RUMOR_ID = -71,     /* rumor id missing or differs from the recomputed id */
    SC_ERR_RUMOR_SIGNED = -72, /* rumor carries a signature */
    SC_ERR_WRAP_EXPIRED = -73, /* NIP-40: the gift wrap's expiration has passed */
    SC_ERR_SEAL_EXPIRED = -74, /* NIP-40: the seal's expiration has passed */

    /* environment */
    SC_ERR_RNG = -80,         /* the random generator failed */
    SC_ERR_BACKEND = -81,     /* backend table invalid, or a known-answer check failed */
    SC_ERR_UNSUPPORTED = -82, /* the bound backend lacks this capability */
    SC_ERR_NOMEM = -83,       /* allocation failed (context creation or the JSON edge) */
    SC_ERR_INTERNAL = -84,    /* a crypto library reported an unexpected failure */
    SC_ERR_IO = -85,          /* a caller-supplied sink or source reported failure */

    /* an external signer and NIP-46 remote signing (-100 .. -119) */
    SC_ERR_SIGNER_ANSWER = -100,  /* an external signer's answer failed verification: a
                                     signature that does not verify against the user's key over
                                     the requested id, a NIP-44 payload of the wrong form or
                                     length, a plaintext its payload cannot hold */
    SC_ERR_SIGNER_REFUSED = -101, /* the signer declined the request or answered with an error
                                     (a NIP-46 error response; a bunker's permission policy) */
    SC_ERR_TIMEOUT = -102,        /* no answer before the request's deadline */
    SC_ERR_NIP46 = -103,          /* a malformed NIP-46 message: not kind 24133, content that
                                     is not a JSON-RPC object of the right shape */
    SC_ERR_NIP46_SECRET = -104,   /* NIP-46: a connect secret missing, or not the one
                                     expected */
    SC_ERR_NIP46_URI = -105,      /* a malformed bunker:// or nostrconnect:// URI (scheme,
                                     key, percent-encoding, no relay, a repeated parameter) */
    SC_ERR_NIP46_SENDER = -106,   /* NIP-46: the event is not from the expected party, or
                                     not addressed (p tag) to this key */
    SC_ERR_NIP46_ID = -107,       /* NIP-46: the response answers another request id */
    SC_ERR_NIP46_AUTH_URL = -108  /* NIP-46: the signer asks the user to open a URL first
                                     (result "auth_url"; the URL is the error text) */
} sc_status;

/** Human-readable description of a status (English; may be reworded between releases).
 *  Returns: a static NUL-terminated string; "unknown status" for values not in the enum.
 *  In: s. Constant time: n/a. RNG: no. */
SC_API const char *sc_status_str(sc_status s);

/** Stable symbolic name of a status, e.g. "SC_ERR_MAC": bindings map it to their exception
 *  types; it never changes once released.
 *  Returns: a static NUL-terminated string; "SC_UNKNOWN" for values not in the enum.
 *  In: s. Constant time: n/a. RNG: no. */
SC_API const char *sc_status_name(sc_status s);

SC_END_DECLS

#endif
