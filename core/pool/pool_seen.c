/* A bounded set of event ids in caller memory: the ids in the order they came (a ring, the
 * oldest forgotten first when it is full), each with its created_at when the set keeps
 * them, and an open-addressed index over the ring (linear probing, twice as many positions
 * as ids) for O(1) lookups, inserts and evictions without allocation. */
#include <string.h>

#include "pool/pool_internal.h"
#include "util/range.h"

/* Index positions: the power of two at least twice cap. */
static size_t positions(size_t cap)
{
    size_t n = 2;

    while (n < cap * 2 && n < (SC_SIZE_SAT >> 1)) {
        n <<= 1;
    }
    return n;
}

static size_t round8(size_t n)
{
    return n > SC_SIZE_SAT - 7 ? SC_SIZE_SAT : (n + 7) & ~(size_t)7;
}

size_t sc_pl_seen_mem(size_t cap, int times)
{
    size_t n = round8(sc_size_mul(cap, SC_EVENT_ID_BYTES));

    if (times) {
        n = sc_size_add(n, sc_size_mul(cap, sizeof(int64_t)));
    }
    return sc_size_add(n, round8(sc_size_mul(positions(cap), sizeof(uint32_t))));
}

void sc_pl_seen_init(sc_pl_seen *s, void *mem, size_t cap, int times)
{
    uint8_t *base = (uint8_t *)mem;
    size_t off = round8(cap * SC_EVENT_ID_BYTES);

    memset(s, 0, sizeof *s);
    s->ids = (uint8_t(*)[SC_EVENT_ID_BYTES])(void *)base;
    if (times) {
        s->times = (int64_t *)(void *)(base + off);
        off += cap * sizeof(int64_t);
    }
    s->index = (uint32_t *)(void *)(base + off);
    s->cap = cap;
    s->mask = positions(cap) - 1;
}

void sc_pl_seen_reset(sc_pl_seen *s)
{
    memset(s->index, 0, (s->mask + 1) * sizeof(uint32_t));
    memset(s->ids, 0, s->cap * SC_EVENT_ID_BYTES);
    if (s->times != NULL) {
        memset(s->times, 0, s->cap * sizeof(int64_t));
    }
    s->head = 0;
    s->n = 0;
}

/* Where an id's search starts. Ids are SHA-256 outputs; a relay that grinds them to collide
 * lengthens probes, bounded by the set's size. */
static size_t home(const sc_pl_seen *s, const uint8_t *id)
{
    uint32_t h =
        (uint32_t)id[0] | (uint32_t)id[1] << 8 | (uint32_t)id[2] << 16 | (uint32_t)id[3] << 24;

    return (size_t)h & s->mask;
}

/* The index position holding id, or the empty one where it would go. */
static size_t find(const sc_pl_seen *s, const uint8_t *id)
{
    size_t i = home(s, id);

    while (s->index[i] != 0 && memcmp(s->ids[s->index[i] - 1], id, SC_EVENT_ID_BYTES) != 0) {
        i = (i + 1) & s->mask;
    }
    return i;
}

int sc_pl_seen_has(const sc_pl_seen *s, const uint8_t id[SC_EVENT_ID_BYTES])
{
    return s->cap > 0 && s->index[find(s, id)] != 0;
}

/* Removes index position i, moving later entries of its probe run back (no tombstones). */
static void unindex(sc_pl_seen *s, size_t i)
{
    size_t j = i;

    for (;;) {
        size_t k;

        j = (j + 1) & s->mask;
        if (s->index[j] == 0) {
            break;
        }
        k = home(s, s->ids[s->index[j] - 1]);
        /* j's entry may fill the hole at i when its home is not in (i, j] cyclically */
        if (i <= j ? (k <= i || k > j) : (k <= i && k > j)) {
            s->index[i] = s->index[j];
            i = j;
        }
    }
    s->index[i] = 0;
}

void sc_pl_seen_add(sc_pl_seen *s, const uint8_t id[SC_EVENT_ID_BYTES], int64_t created_at)
{
    size_t at;

    if (s->cap == 0) {
        return;
    }
    if (s->n == s->cap) {
        unindex(s, find(s, s->ids[s->head]));
        s->head = (s->head + 1) % s->cap;
        s->n--;
    }
    at = (s->head + s->n) % s->cap;
    memcpy(s->ids[at], id, SC_EVENT_ID_BYTES);
    if (s->times != NULL) {
        s->times[at] = created_at;
    }
    s->index[find(s, id)] = (uint32_t)(at + 1);
    s->n++;
}

const uint8_t *sc_pl_seen_at(const sc_pl_seen *s, size_t k, int64_t *created_at)
{
    size_t at = (s->head + k) % s->cap;

    if (created_at != NULL) {
        *created_at = s->times != NULL ? s->times[at] : 0;
    }
    return s->ids[at];
}
