/* See scan.h. */
#define _DEFAULT_SOURCE 1 /* mincore, pread */

#include "scan.h"

#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#if defined(__clang__) || (defined(__GNUC__) && __GNUC__ >= 8)
#define RS_NO_ASAN __attribute__((no_sanitize("address"), noinline))
#elif defined(__GNUC__)
#define RS_NO_ASAN __attribute__((no_sanitize_address, noinline))
#else
#define RS_NO_ASAN
#endif

#define RESERVED_BYTES ((uint64_t)64 << 30)   /* mappings this large are left out */
#define PAGES_ONLY_BYTES ((uint64_t)16 << 20) /* mappings this large: used pages only */
#define MAP_PAGES 4096

static uint64_t mask_state;

static uint8_t mask_byte(void)
{
    /* splitmix64: the masks only need to differ from needle to needle */
    uint64_t z = (mask_state += 0x9e3779b97f4a7c15ull);

    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return (uint8_t)(z ^ (z >> 31));
}

void rs_init(uint64_t seed)
{
    mask_state = seed ^ 0x5265736964756521ull;
}

void rs_set_clear(rs_set *s)
{
    memset(s, 0, sizeof *s);
}

static void add_piece(rs_set *s, const char *what, size_t off, const uint8_t *p)
{
    rs_needle *n;
    size_t i;

    if (s->count == RS_MAX) {
        s->overflow = 1;
        return;
    }
    n = &s->n[s->count++];
    snprintf(n->what, sizeof n->what, "%s [%zu..%zu)", what, off, off + RS_PIECE);
    for (i = 0; i < RS_PIECE; i++) {
        n->mask[i] = mask_byte();
        n->masked[i] = (uint8_t)(p[i] ^ n->mask[i]);
    }
}

static void add_windows(rs_set *s, const char *what, const uint8_t *p, size_t len)
{
    size_t off;

    if (len < RS_PIECE) {
        s->overflow = 1; /* too short to look for */
        return;
    }
    for (off = 0; off + RS_PIECE <= len; off += RS_PIECE) {
        add_piece(s, what, off, p + off);
    }
    if (len % RS_PIECE != 0) {
        add_piece(s, what, len - RS_PIECE, p + len - RS_PIECE);
    }
}

void rs_add(rs_set *s, const char *what, const void *secret, size_t len)
{
    add_windows(s, what, (const uint8_t *)secret, len);
}

void rs_add_words(rs_set *s, const char *what, const void *secret, size_t len)
{
    const uint8_t *p = (const uint8_t *)secret;
    uint8_t w[64];
    char name[64];
    size_t i;

    if (len % 4 != 0 || len > sizeof w) {
        s->overflow = 1;
        return;
    }
    for (i = 0; i < len; i++) {
        w[i] = p[(i & ~(size_t)3) + 3 - (i & 3)];
    }
    snprintf(name, sizeof name, "%s (state words)", what);
    add_windows(s, name, w, len);
    memset(w, 0, sizeof w); /* the test's stack is not scanned; keep it clean anyway */
}

int rs_add_set(rs_set *dst, const rs_set *src)
{
    if (RS_MAX - dst->count < src->count) {
        return 0;
    }
    memcpy(&dst->n[dst->count], src->n, src->count * sizeof src->n[0]);
    dst->count += src->count;
    dst->overflow |= src->overflow;
    return 1;
}

/* ---- the scan ------------------------------------------------------------------------------ */

typedef struct chains {
    int16_t head[256];
    int16_t next[RS_MAX];
    const rs_range *except;
    size_t n_except;
} chains;

static void record(const chains *c, rs_result *r, size_t needle, uintptr_t addr, const char *name,
                   uintptr_t base)
{
    size_t i;

    for (i = 0; i < c->n_except; i++) {
        uintptr_t p = (uintptr_t)c->except[i].p;
        if (addr + RS_PIECE > p && addr < p + c->except[i].len) {
            return; /* inside the test's own live memory */
        }
    }
    if (r->hits < RS_MAX_HITS) {
        rs_hit *h = &r->hit[r->hits];
        h->needle = needle;
        h->addr = addr;
        snprintf(h->where, sizeof h->where, "%s+0x%lx", name, (unsigned long)(addr - base));
    }
    r->hits++;
}

/* Reads [from, to) in place, freed or poisoned bytes included. */
RS_NO_ASAN static void scan_range(const rs_set *s, const chains *c, rs_result *r, uintptr_t from,
                                  uintptr_t to, const char *name, uintptr_t base)
{
    const uint8_t *m = (const uint8_t *)from;
    size_t len = (size_t)(to - from), i;

    r->bytes += len;
    if (len < RS_PIECE) {
        return;
    }
    for (i = 0; i + RS_PIECE <= len; i++) {
        int k = c->head[m[i]];

        while (k >= 0) {
            const rs_needle *n = &s->n[k];
            size_t j;

            for (j = 1; j < RS_PIECE; j++) {
                if ((uint8_t)(m[i + j] ^ n->mask[j]) != n->masked[j]) {
                    break;
                }
            }
            if (j == RS_PIECE) {
                record(c, r, (size_t)k, from + i, name, base);
            }
            k = c->next[k];
        }
    }
}

/* Which of pages [at, at + n * page) hold data (bit 0 of used[i]): present or swapped out per
 * /proc/self/pagemap (bits 63 and 62), or resident per mincore where pagemap cannot be read. */
static int used_pages(int pagemap, uintptr_t at, size_t page, size_t n, unsigned char *used)
{
    static uint64_t entry[MAP_PAGES];
    size_t i;

    if (pagemap >= 0 &&
        pread(pagemap, entry, n * sizeof entry[0], (off_t)(at / page * sizeof entry[0])) ==
            (ssize_t)(n * sizeof entry[0])) {
        for (i = 0; i < n; i++) {
            used[i] = (unsigned char)((entry[i] >> 62) != 0);
        }
        return 1;
    }
    return mincore((void *)at, n * page, used) == 0;
}

/* A mapping; a large one page by page, where pages hold data (untouched pages of a large
 * reservation are left unread: reading them would only map zero pages). */
static void scan_mapping(const rs_set *s, const chains *c, rs_result *r, int pagemap,
                         uintptr_t start, uintptr_t end, const char *name)
{
    static unsigned char used[MAP_PAGES];
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    uintptr_t at;

    r->mappings++;
    if ((uint64_t)(end - start) < PAGES_ONLY_BYTES) {
        scan_range(s, c, r, start, end, name, start);
        return;
    }
    for (at = start; at < end;) {
        size_t n = (size_t)((end - at) / page), i;

        if (n > MAP_PAGES) {
            n = MAP_PAGES;
        }
        if (used_pages(pagemap, at, page, n, used)) {
            for (i = 0; i < n; i++) {
                if (used[i] & 1) {
                    scan_range(s, c, r, at + i * page, at + (i + 1) * page, name, start);
                }
            }
        } else {
            scan_range(s, c, r, at, at + n * page, name, start);
        }
        at += n * page;
    }
}

static int excluded(const char *path, const char *perms, uint64_t size, rs_result *r)
{
    if (perms[0] != 'r' || perms[1] != 'w') {
        return 1;
    }
    if (strcmp(path, "[stack]") == 0 || strncmp(path, "[stack:", 7) == 0 ||
        strcmp(path, "[vvar]") == 0 || strcmp(path, "[vsyscall]") == 0 ||
        strcmp(path, "[vdso]") == 0 || strncmp(path, "/dev/", 5) == 0) {
        return 1;
    }
    if (size >= RESERVED_BYTES) {
        r->skipped_reserved++;
        return 1;
    }
    return 0;
}

void rs_scan(const rs_set *s, rs_result *r)
{
    rs_scan_except(s, r, NULL, 0);
}

void rs_scan_except(const rs_set *s, rs_result *r, const rs_range *except, size_t n_except)
{
    static char maps[1 << 20];
    chains c;
    size_t got = 0, i;
    char *line, *next;
    int fd, pagemap;

    memset(r, 0, sizeof *r);
    c.except = except;
    c.n_except = n_except;
    for (i = 0; i < 256; i++) {
        c.head[i] = -1;
    }
    for (i = s->count; i-- > 0;) {
        uint8_t b0 = (uint8_t)(s->n[i].masked[0] ^ s->n[i].mask[0]);
        c.next[i] = c.head[b0];
        c.head[b0] = (int16_t)i;
    }
    /* the whole map first, so the scan's own reads do not change what it walks */
    fd = open("/proc/self/maps", O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        r->error = 1;
        return;
    }
    for (;;) {
        ssize_t n = read(fd, maps + got, sizeof maps - 1 - got);
        if (n <= 0) {
            break;
        }
        got += (size_t)n;
    }
    close(fd);
    if (got == 0 || got == sizeof maps - 1) {
        r->error = 1;
        return;
    }
    maps[got] = '\0';
    pagemap = open("/proc/self/pagemap", O_RDONLY | O_CLOEXEC);
    for (line = maps; *line != '\0'; line = next) {
        unsigned long start, end;
        char perms[8], path[512];
        int path_at = 0;

        next = strchr(line, '\n');
        if (next != NULL) {
            *next++ = '\0';
        } else {
            next = line + strlen(line);
        }
        path[0] = '\0';
        if (sscanf(line, "%lx-%lx %7s %*s %*s %*s %n", &start, &end, perms, &path_at) < 3) {
            continue;
        }
        if (path_at > 0) {
            snprintf(path, sizeof path, "%s", line + path_at);
        }
        if (excluded(path, perms, (uint64_t)(end - start), r)) {
            continue;
        }
        scan_mapping(s, &c, r, pagemap, (uintptr_t)start, (uintptr_t)end,
                     path[0] ? path : "[anon]");
    }
    if (pagemap >= 0) {
        close(pagemap);
    }
    memset(&c, 0, sizeof c);
}

void rs_print_hits(const rs_set *s, const rs_result *r, size_t max)
{
    size_t i, shown = r->hits < RS_MAX_HITS ? r->hits : RS_MAX_HITS;

    for (i = 0; i < shown && i < max; i++) {
        printf("       %s at %s\n", s->n[r->hit[i].needle].what, r->hit[i].where);
    }
    if (r->hits > i) {
        printf("       ... and %zu more\n", r->hits - i);
    }
}
