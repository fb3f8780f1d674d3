/* The last step of NIP-44 encryption: base64 in place, so the caller's output buffer is the
 * only working memory.
 *
 * The raw payload (R bytes) sits at the end of the E = 4 * ceil(R / 3) character buffer, at
 * offset E - R >= ceil(R / 3) = G, the number of 3-byte groups. Groups are encoded front to
 * back in chunks through a small local buffer: after the chunk that ends at group k is read,
 * its 4k characters end at or before the first unread raw byte, at E - R + 3k, because k <= G.
 * sc_base64_encode itself never sees overlapping input and output. */
#include <softchat/mem.h>
#include <softchat/base64.h>

#include <string.h>

#include "nip44/nip44_internal.h"

#define CHUNK_BYTES 192 /* 64 groups */

sc_status sc_nip44_b64_in_place(char *buf, size_t enc_len, size_t raw_len)
{
    char tmp[CHUNK_BYTES / 3 * 4];
    const uint8_t *raw;
    size_t done = 0, o = 0;

    if (buf == NULL || enc_len != sc_base64_encode_len(raw_len) ||
        (enc_len == 0 && raw_len != 0)) {
        return SC_ERR_ARG;
    }
    raw = (const uint8_t *)buf + (enc_len - raw_len);
    while (done < raw_len) {
        size_t take = raw_len - done < CHUNK_BYTES ? raw_len - done : CHUNK_BYTES;
        size_t n = 0;
        sc_status st = sc_base64_encode(tmp, sizeof tmp, &n, raw + done, take);

        if (st != SC_OK) {
            return st;
        }
        memcpy(buf + o, tmp, n);
        o += n;
        done += take;
    }
    return SC_OK;
}
