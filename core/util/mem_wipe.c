/* sc_mem_wipe: the platform chain. This file is the one place in core/ with platform #if. */
#if defined(__linux__) || defined(__GLIBC__)
#define _DEFAULT_SOURCE 1 /* explicit_bzero in <string.h> (glibc >= 2.25, musl, bionic) */
#endif
#if defined(__APPLE__)
#define __STDC_WANT_LIB_EXT1__ 1 /* memset_s */
#endif

#include <softchat/mem.h>

#include <string.h>
#if defined(_WIN32)
#include <windows.h>
#endif

void sc_mem_wipe(void *p, size_t len)
{
    if (p == NULL || len == 0) {
        return;
    }
#if defined(_WIN32)
    SecureZeroMemory(p, len);
#elif defined(__APPLE__)
    (void)memset_s(p, len, 0, len);
#elif defined(__GLIBC__) || defined(__BIONIC__) || defined(__OpenBSD__) || defined(__FreeBSD__)
    explicit_bzero(p, len);
#else
    {
        volatile unsigned char *v = (volatile unsigned char *)p;
        while (len--) {
            *v++ = 0;
        }
    }
#endif
}
