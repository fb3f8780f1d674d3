/* The last step of NIP-44 encryption: base64 in place, so the caller's output buffer is the
 * only working memory.
 *
 * The raw payload (R bytes) sits at the end of the E = 4 * ceil(R / 3) character buffer, at
 * offset D = E - R >= ceil(R / 3) = G, the number of 3-byte groups. Groups are encoded front
 * to back: after the chunk that ends at group k is read, its 4k characters end at or before
 * the first unread raw byte, at D + 3k, because k <= G <= D. sc_base64_encode itself never
 * sees overlapping input and output:
 * - a chunk of m groups starting at group k is encoded straight into the buffer when its
 *   characters [4k, 4k + 4m) end before its raw bytes start at D + 3k, that is when
 *   k + 4m <= D; each such chunk takes a quarter of what is left or more (k + m <= G <= D),
 *   so a 64000-byte payload takes a few dozen calls and no copy;
 * - the rest, once chunks that large no longer fit, goes through a small local buffer. */
#include <softchat/mem.h>
#include <softchat/base64.h>

#include <string.h>

#include "nip44/nip44_internal.h"

#define CHUNK_BYTES 192      /* 64 groups */
#define DIRECT_MIN_GROUPS 64 /* smaller direct chunks would cost more calls than copies */

sc_status sc_nip44_b64_in_place(char *buf, size_t enc_len, size_t raw_len)
{
    char tmp[CHUNK_BYTES / 3 * 4];
    const uint8_t *raw;
    size_t done = 0, o = 0, d;

    if (buf == NULL || enc_len != sc_base64_encode_len(raw_len) || (enc_len == 0 && raw_len != 0)) {
        return SC_ERR_ARG;
    }
    d = enc_len - raw_len;
    raw = (const uint8_t *)buf + d;
    while (done < raw_len) {
        size_t k = done / 3; /* groups done: done is a multiple of 3 until the last chunk */
        size_t m = k < d ? (d - k) / 4 : 0; /* the largest direct chunk, in groups */
        size_t take, n = 0;
        sc_status st;

        if (m >= DIRECT_MIN_GROUPS) {
            take = raw_len - done < 3 * m ? raw_len - done : 3 * m;
            st = sc_base64_encode(buf + o, 4 * m, &n, raw + done, take);
        } else {
            take = raw_len - done < CHUNK_BYTES ? raw_len - done : CHUNK_BYTES;
            st = sc_base64_encode(tmp, sizeof tmp, &n, raw + done, take);
            if (st == SC_OK) {
                memcpy(buf + o, tmp, n);
            }
        }
        if (st != SC_OK) {
            return st;
        }
        o += n;
        done += take;
    }
    return SC_OK;
}
