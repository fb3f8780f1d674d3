/* mbed TLS's entropy source in the web module (MBEDTLS_ENTROPY_HARDWARE_ALT, set by
 * mbedtls_web.h): getentropy, which a standalone Emscripten module imports (env.getentropy)
 * and the TypeScript loader answers from crypto.getRandomValues (browsers, workers, Node >=
 * 20: src/native.ts). A failure is reported to mbed TLS, whose seeding then fails: the
 * context is not made (SC_ERR_RNG), nothing runs unseeded. */
#define _DEFAULT_SOURCE /* getentropy under -std=c99 */
#include <stddef.h>
#include <stdint.h>
#include <unistd.h>

int mbedtls_hardware_poll(void *data, unsigned char *output, size_t len, size_t *olen);

int mbedtls_hardware_poll(void *data, unsigned char *output, size_t len, size_t *olen)
{
    (void)data;
    *olen = 0;
    /* getentropy hands out at most 256 bytes a call */
    while (len > 0) {
        size_t n = len < 256 ? len : 256;
        if (getentropy(output + *olen, n) != 0) {
            *olen = 0;
            return -1;
        }
        *olen += n;
        len -= n;
    }
    return 0;
}
