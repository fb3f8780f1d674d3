/* The Negentropy wire format: base-128 varints (most significant group first, the high bit
 * on every byte but the last), timestamps as deltas within one message (0 = infinity, else
 * 1 + the difference from the previous one), and bounds (timestamp, prefix length, prefix). */
#include <softchat/mem.h>

#include <string.h>

#include "negentropy/negentropy_internal.h"

void sc_neg_put(sc_neg_out *o, const uint8_t *p, size_t n)
{
    if (!o->over && o->out != NULL && n <= o->cap - o->len) {
        if (n > 0) {
            memcpy(o->out + o->len, p, n);
        }
    } else {
        o->over = 1;
    }
    o->len += n;
}

void sc_neg_put_varint(sc_neg_out *o, uint64_t v)
{
    uint8_t buf[10];
    size_t n = 0, i;
    uint8_t rev[10];

    do {
        rev[n++] = (uint8_t)(v & 0x7f);
        v >>= 7;
    } while (v != 0);
    for (i = 0; i < n; i++) {
        buf[i] = (uint8_t)(rev[n - 1 - i] | (i + 1 < n ? 0x80 : 0));
    }
    sc_neg_put(o, buf, n);
}

void sc_neg_put_bound(sc_neg_out *o, const sc_neg_bound *b)
{
    if (b->ts == SC_NEG_INFINITY) {
        o->last_ts = SC_NEG_INFINITY;
        sc_neg_put_varint(o, 0);
    } else {
        sc_neg_put_varint(o, b->ts - o->last_ts + 1);
        o->last_ts = b->ts;
    }
    sc_neg_put_varint(o, b->len);
    sc_neg_put(o, b->id, b->len);
}

void sc_neg_truncate(sc_neg_out *o, size_t mark, uint64_t last_ts)
{
    if (o->out != NULL && mark < o->len) {
        size_t end = o->len < o->cap ? o->len : o->cap;

        if (mark < end) {
            sc_mem_wipe(o->out + mark, end - mark);
        }
    }
    o->len = mark;
    o->over = o->out == NULL || mark > o->cap;
    o->last_ts = last_ts;
}

sc_status sc_neg_get_varint(sc_neg_in *in, uint64_t *v)
{
    uint64_t r = 0;
    size_t k = 0;

    for (;;) {
        uint8_t c;

        if (in->pos >= in->len) {
            return SC_ERR_NEGENTROPY;
        }
        c = in->p[in->pos++];
        if (k == 0 && c == 0x80) {
            return SC_ERR_NEGENTROPY; /* a leading zero group: not minimal */
        }
        if (r > (UINT64_MAX >> 7)) {
            return SC_ERR_NEGENTROPY; /* over 64 bits */
        }
        r = (r << 7) | (uint64_t)(c & 0x7f);
        k++;
        if ((c & 0x80) == 0) {
            break;
        }
    }
    *v = r;
    return SC_OK;
}

sc_status sc_neg_get_bound(sc_neg_in *in, sc_neg_bound *b)
{
    uint64_t t, len;
    sc_status st = sc_neg_get_varint(in, &t);

    if (st != SC_OK) {
        return st;
    }
    if (t == 0) {
        b->ts = SC_NEG_INFINITY;
        in->last_ts = SC_NEG_INFINITY;
    } else if (in->last_ts == SC_NEG_INFINITY || t - 1 >= SC_NEG_INFINITY - in->last_ts) {
        return SC_ERR_NEGENTROPY; /* past infinity, or a finite value reaching it */
    } else {
        b->ts = in->last_ts + (t - 1);
        in->last_ts = b->ts;
    }
    st = sc_neg_get_varint(in, &len);
    if (st != SC_OK) {
        return st;
    }
    if (len > SC_NEGENTROPY_ID_BYTES || len > in->len - in->pos) {
        return SC_ERR_NEGENTROPY;
    }
    memset(b->id, 0, sizeof b->id);
    if (len > 0) {
        memcpy(b->id, in->p + in->pos, (size_t)len);
    }
    b->len = (size_t)len;
    in->pos += (size_t)len;
    return SC_OK;
}

int sc_neg_bound_cmp(const sc_neg_bound *a, const sc_neg_bound *b)
{
    int c;

    if (a->ts != b->ts) {
        return a->ts < b->ts ? -1 : 1;
    }
    c = memcmp(a->id, b->id, SC_NEGENTROPY_ID_BYTES);
    return c < 0 ? -1 : c > 0;
}
