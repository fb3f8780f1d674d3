/* The byte forms the application saves (the cursor, the delivery record): big-endian fields
 * written and read with bounds checks, a four-byte magic and a version first, and a CRC-32
 * (IEEE 802.3) of everything before it last, so a truncated, extended or altered form is
 * refused rather than half read. The checksum finds storage damage; it is no seal against
 * someone who can write the storage. */
#include <string.h>

#include "pool/pool_internal.h"

/* CRC-32 a nibble at a time (reflected polynomial 0xEDB88320). */
static uint32_t crc32(const uint8_t *p, size_t n)
{
    static const uint32_t k[16] = {0x00000000u, 0x1db71064u, 0x3b6e20c8u, 0x26d930acu,
                                   0x76dc4190u, 0x6b6b51f4u, 0x4db26158u, 0x5005713cu,
                                   0xedb88320u, 0xf00f9344u, 0xd6d6a3e8u, 0xcb61b38cu,
                                   0x9b64c2b0u, 0x86d3d2d4u, 0xa00ae278u, 0xbdbdf21cu};
    uint32_t c = 0xffffffffu;
    size_t i;

    for (i = 0; i < n; i++) {
        c ^= p[i];
        c = (c >> 4) ^ k[c & 15u];
        c = (c >> 4) ^ k[c & 15u];
    }
    return c ^ 0xffffffffu;
}

void sc_pl_wr_bytes(sc_pl_wr *w, const void *b, size_t n)
{
    if (w->p != NULL && w->len <= w->cap && n <= w->cap - w->len) {
        memcpy(w->p + w->len, b, n);
    }
    w->len += n;
}

void sc_pl_wr_u8(sc_pl_wr *w, uint8_t v)
{
    sc_pl_wr_bytes(w, &v, 1);
}

void sc_pl_wr_u16(sc_pl_wr *w, uint16_t v)
{
    uint8_t b[2] = {(uint8_t)(v >> 8), (uint8_t)v};

    sc_pl_wr_bytes(w, b, 2);
}

void sc_pl_wr_u32(sc_pl_wr *w, uint32_t v)
{
    uint8_t b[4] = {(uint8_t)(v >> 24), (uint8_t)(v >> 16), (uint8_t)(v >> 8), (uint8_t)v};

    sc_pl_wr_bytes(w, b, 4);
}

void sc_pl_wr_i64(sc_pl_wr *w, int64_t v)
{
    sc_pl_wr_u32(w, (uint32_t)((uint64_t)v >> 32));
    sc_pl_wr_u32(w, (uint32_t)(uint64_t)v);
}

void sc_pl_wr_head(sc_pl_wr *w, const char magic[4], uint8_t version)
{
    sc_pl_wr_bytes(w, magic, 4);
    sc_pl_wr_u8(w, version);
}

void sc_pl_wr_seal(sc_pl_wr *w)
{
    uint32_t c = w->p != NULL && w->len <= w->cap ? crc32(w->p, w->len) : 0;

    sc_pl_wr_u32(w, c);
}

const uint8_t *sc_pl_rd_view(sc_pl_rd *r, size_t n)
{
    const uint8_t *v;

    if (r->bad || n > r->len - r->pos) {
        r->bad = 1;
        return NULL;
    }
    v = r->p + r->pos;
    r->pos += n;
    return v;
}

uint8_t sc_pl_rd_u8(sc_pl_rd *r)
{
    const uint8_t *b = sc_pl_rd_view(r, 1);

    return b != NULL ? b[0] : 0;
}

uint16_t sc_pl_rd_u16(sc_pl_rd *r)
{
    const uint8_t *b = sc_pl_rd_view(r, 2);

    return b != NULL ? (uint16_t)((unsigned)b[0] << 8 | b[1]) : 0;
}

uint32_t sc_pl_rd_u32(sc_pl_rd *r)
{
    const uint8_t *b = sc_pl_rd_view(r, 4);

    return b != NULL ? (uint32_t)b[0] << 24 | (uint32_t)b[1] << 16 | (uint32_t)b[2] << 8 | b[3] : 0;
}

int64_t sc_pl_rd_i64(sc_pl_rd *r)
{
    uint64_t hi = sc_pl_rd_u32(r), lo = sc_pl_rd_u32(r);

    return (int64_t)(hi << 32 | lo);
}

sc_status sc_pl_rd_open(sc_pl_rd *r, const uint8_t *in, size_t in_len, const char magic[4],
                        uint8_t version)
{
    const uint8_t *tail;
    uint32_t want;

    memset(r, 0, sizeof *r);
    if (in == NULL || in_len < 9 || memcmp(in, magic, 4) != 0 || in[4] != version) {
        return SC_ERR_ENCODING;
    }
    tail = in + in_len - 4;
    want = (uint32_t)tail[0] << 24 | (uint32_t)tail[1] << 16 | (uint32_t)tail[2] << 8 | tail[3];
    if (crc32(in, in_len - 4) != want) {
        return SC_ERR_ENCODING;
    }
    r->p = in;
    r->len = in_len - 4;
    r->pos = 5;
    return SC_OK;
}

int sc_pl_rd_done(const sc_pl_rd *r)
{
    return !r->bad && r->pos == r->len;
}
