/* See random.h. */
#define _DEFAULT_SOURCE 1 /* syscall, mmap, sysconf */

#include "random.h"

#include <softchat/mem.h>

#include <stdlib.h>
#include <string.h>

#if defined(__linux__)
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <link.h>
#include <sys/auxv.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <unistd.h>
#endif

/* getrandom(2) returns at most 32 MiB - 1 per call */
#define GETRANDOM_CHUNK ((size_t)1 << 24)

#if defined(__linux__)

/* The vDSO symbol and its version, per architecture (the kernel's vdso.lds files). */
#if defined(__x86_64__) && !defined(__ILP32__)
#define VDSO_NAME "__vdso_getrandom"
#define VDSO_VERSION "LINUX_2.6"
#elif defined(__aarch64__) && !defined(__ILP32__)
#define VDSO_NAME "__kernel_getrandom"
#define VDSO_VERSION "LINUX_2.6.39"
#endif

#if defined(VDSO_NAME)

/* The kernel's struct vgetrandom_opaque_params (include/uapi/linux/random.h, Linux 6.11),
 * what the vDSO function reports when called with len 0 and state_len ~0. */
typedef struct vdso_params {
    uint32_t size_of_opaque_state;
    uint32_t mmap_prot;
    uint32_t mmap_flags;
    uint32_t reserved[13];
} vdso_params;

/* Whether the version definition of index ndx is named version. */
static int version_is(const ElfW(Verdef) * def, const char *strtab, ElfW(Half) ndx,
                      const char *version)
{
    for (;;) {
        if (def->vd_ndx == ndx && (def->vd_flags & VER_FLG_BASE) == 0) {
            const ElfW(Verdaux) *aux =
                (const ElfW(Verdaux) *)(const void *)((const char *)def + def->vd_aux);

            return strcmp(strtab + aux->vda_name, version) == 0;
        }
        if (def->vd_next == 0) {
            return 0;
        }
        def = (const ElfW(Verdef) *)(const void *)((const char *)def + def->vd_next);
    }
}

/* The address of the vDSO's getrandom, or 0. The vDSO is the kernel's ELF image mapped into
 * every process (AT_SYSINFO_EHDR); the walk is the dynamic loader's: the first PT_LOAD gives
 * the load bias, PT_DYNAMIC the symbol, string, hash and version tables. Every Linux vDSO
 * that exports getrandom is linked with a SysV hash table (--hash-style=sysv or both), whose
 * chain count is the symbol count; without one the lookup gives up. */
static uintptr_t vdso_lookup(void)
{
    uintptr_t base = (uintptr_t)getauxval(AT_SYSINFO_EHDR);
    const ElfW(Ehdr) *eh = (const ElfW(Ehdr) *)base;
    const ElfW(Phdr) * ph;
    const ElfW(Dyn) *dyn = NULL;
    const ElfW(Sym) *sym = NULL;
    const ElfW(Word) *hash = NULL;
    const ElfW(Half) *versym = NULL;
    const ElfW(Verdef) *verdef = NULL;
    const char *strtab = NULL;
    uintptr_t bias = 0;
    int loaded = 0;
    ElfW(Word) i;
    ElfW(Half) p;

    if (base == 0 || memcmp(eh->e_ident, ELFMAG, SELFMAG) != 0 ||
        eh->e_phentsize != sizeof(ElfW(Phdr))) {
        return 0;
    }
    ph = (const ElfW(Phdr) *)(base + eh->e_phoff);
    for (p = 0; p < eh->e_phnum; p++) {
        if (ph[p].p_type == PT_LOAD && !loaded) {
            bias = base + (uintptr_t)ph[p].p_offset - (uintptr_t)ph[p].p_vaddr;
            loaded = 1;
        } else if (ph[p].p_type == PT_DYNAMIC) {
            dyn = (const ElfW(Dyn) *)(base + ph[p].p_offset);
        }
    }
    if (!loaded || dyn == NULL) {
        return 0;
    }
    for (; dyn->d_tag != DT_NULL; dyn++) {
        uintptr_t at = bias + (uintptr_t)dyn->d_un.d_ptr;

        switch (dyn->d_tag) {
        case DT_STRTAB:
            strtab = (const char *)at;
            break;
        case DT_SYMTAB:
            sym = (const ElfW(Sym) *)at;
            break;
        case DT_HASH:
            hash = (const ElfW(Word) *)at;
            break;
        case DT_VERSYM:
            versym = (const ElfW(Half) *)at;
            break;
        case DT_VERDEF:
            verdef = (const ElfW(Verdef) *)at;
            break;
        default:
            break;
        }
    }
    if (strtab == NULL || sym == NULL || hash == NULL) {
        return 0;
    }
    for (i = 0; i < hash[1]; i++) {
        unsigned type = ELF64_ST_TYPE(sym[i].st_info), bind = ELF64_ST_BIND(sym[i].st_info);

        if (type != STT_FUNC || (bind != STB_GLOBAL && bind != STB_WEAK) ||
            sym[i].st_shndx == SHN_UNDEF || strcmp(strtab + sym[i].st_name, VDSO_NAME) != 0) {
            continue;
        }
        if (versym != NULL && verdef != NULL &&
            !version_is(verdef, strtab, (ElfW(Half))(versym[i] & 0x7fff), VDSO_VERSION)) {
            continue;
        }
        return bias + (uintptr_t)sym[i].st_value;
    }
    return 0;
}

/* Finds the function, asks it for its state's size and mapping, and maps one state. */
static void vdso_open(sc_os_random *r)
{
    uintptr_t at = vdso_lookup();
    sc_os_vgetrandom_fn fn;
    vdso_params params;
    long page = sysconf(_SC_PAGESIZE);
    size_t len;
    void *map;

    if (at == 0 || page <= 0) {
        return;
    }
    fn = (sc_os_vgetrandom_fn)at;
    memset(&params, 0, sizeof params);
    if (fn(NULL, 0, 0, &params, ~(size_t)0) != 0 || params.size_of_opaque_state == 0 ||
        params.size_of_opaque_state > (size_t)page) {
        return;
    }
    /* one page: a state must not straddle a page boundary, and a mapping is page-aligned */
    len = (size_t)page;
    map = mmap(NULL, len, (int)params.mmap_prot, (int)params.mmap_flags, -1, 0);
    if (map == MAP_FAILED) {
        return;
    }
    r->vdso = fn;
    r->state = map;
    r->state_len = params.size_of_opaque_state;
    r->map_len = len;
}

#else /* no vDSO getrandom on this architecture */

static void vdso_open(sc_os_random *r)
{
    (void)r;
}

#endif

void sc_os_random_open(sc_os_random *r)
{
    memset(r, 0, sizeof *r);
    vdso_open(r);
}

sc_status sc_os_random_fill(sc_os_random *r, uint8_t *out, size_t len)
{
    while (len > 0) {
        size_t want = len < GETRANDOM_CHUNK ? len : GETRANDOM_CHUNK;
        long got;
        int err = 0;

        if (r->vdso != NULL) {
            got = r->vdso(out, want, 0, r->state, r->state_len); /* -errno on failure */
            err = got < 0 ? (int)-got : 0;
        } else {
            /* the raw call, not getrandom(3): that wrapper needs glibc 2.25 or Android API
             * level 28, the system call only Linux 3.17 (else ENOSYS) */
            got = syscall(SYS_getrandom, out, want, 0u);
            err = got < 0 ? errno : 0;
        }
        if (got < 0) {
            if (err == EINTR) {
                continue;
            }
            /* ENOSYS: a kernel without getrandom; EPERM: a seccomp or LSM policy denying it
             * (the call itself never fails so). Either way there is no kernel generator for
             * this process, and the caller's library, which can read /dev/urandom, draws. */
            return err == ENOSYS || err == EPERM ? SC_ERR_UNSUPPORTED : SC_ERR_RNG;
        }
        if (got == 0 || (size_t)got > want) {
            return SC_ERR_RNG; /* never the kernel's answer; refuse rather than loop */
        }
        out += (size_t)got;
        len -= (size_t)got;
    }
    return SC_OK;
}

int sc_os_random_source(void)
{
    static const char *const devices[] = {"/dev/urandom", "/dev/random"};
    sc_os_random r;
    uint8_t fodder[16];
    struct stat sb;
    size_t i;
    int fd, ok;

    memset(&r, 0, sizeof r); /* the system call, as the library's own test makes it */
    ok = sc_os_random_fill(&r, fodder, sizeof fodder) == SC_OK;
    sc_mem_wipe(fodder, sizeof fodder);
    for (i = 0; !ok && i < sizeof devices / sizeof devices[0]; i++) {
        do {
            fd = open(devices[i], O_RDONLY | O_CLOEXEC);
        } while (fd < 0 && errno == EINTR);
        if (fd >= 0) {
            ok = fstat(fd, &sb) == 0 && S_ISCHR(sb.st_mode);
            (void)close(fd);
        }
    }
    return ok;
}

void sc_os_random_close(sc_os_random *r)
{
    if (r->state != NULL) {
        sc_mem_wipe(r->state, r->state_len); /* the generator's key and unused batch */
        munmap(r->state, r->map_len);
    }
    memset(r, 0, sizeof *r);
}

#else /* not Linux: no kernel generator here; the caller's library draws */

void sc_os_random_open(sc_os_random *r)
{
    memset(r, 0, sizeof *r);
}

sc_status sc_os_random_fill(sc_os_random *r, uint8_t *out, size_t len)
{
    (void)r;
    (void)out;
    (void)len;
    return SC_ERR_UNSUPPORTED;
}

void sc_os_random_close(sc_os_random *r)
{
    memset(r, 0, sizeof *r);
}

int sc_os_random_source(void)
{
    return 1;
}

#endif

sc_status sc_os_random_new(sc_os_random **out)
{
    sc_os_random *r = malloc(sizeof *r);

    if (r != NULL) {
        sc_os_random_open(r);
    }
    *out = r;
    return r != NULL ? SC_OK : SC_ERR_NOMEM;
}

void sc_os_random_free(sc_os_random *r)
{
    if (r != NULL) {
        sc_os_random_close(r);
        free(r);
    }
}
