/* See machine.h. */
#define _POSIX_C_SOURCE 200809L
#include "machine.h"

#include <softchat/softchat.h>

#include <string.h>
#include <sys/utsname.h>

#include "jsonw.h"
#include "ops.h"

#include "bench_revision.h" /* SOFTCHAT_REVISION, SOFTCHAT_COMMIT (generated at build time) */
#ifndef SOFTCHAT_C_FLAGS
#define SOFTCHAT_C_FLAGS "unknown"
#endif
#ifndef SOFTCHAT_BUILD_TYPE
#define SOFTCHAT_BUILD_TYPE "unknown"
#endif

/* The value of "key : value" lines in /proc/cpuinfo (first CPU), into buf. */
static int cpuinfo(const char *key, char *buf, size_t cap)
{
    char line[8192];
    size_t klen = strlen(key);
    FILE *f = fopen("/proc/cpuinfo", "r");
    int found = 0;

    if (f == NULL) {
        return 0;
    }
    while (!found && fgets(line, sizeof line, f) != NULL) {
        char *colon = strchr(line, ':');
        if (strncmp(line, key, klen) == 0 && colon != NULL) {
            char *v = colon + 1;
            size_t n;
            while (*v == ' ') {
                v++;
            }
            n = strcspn(v, "\n");
            if (n >= cap) {
                n = cap - 1;
            }
            memcpy(buf, v, n);
            buf[n] = '\0';
            found = 1;
        }
    }
    fclose(f);
    return found;
}

/* The CPU model name ("unknown" if unavailable) into buf. */
static void cpu_model(char *buf, size_t cap)
{
    if (!cpuinfo("model name", buf, cap)) {
        snprintf(buf, cap, "unknown");
    }
}

/* The CPU features that matter to the crypto code, as a JSON array. */
static void write_flags(FILE *f)
{
    static const char *const wanted[] = {"sha_ni", "aes",  "vaes",    "pclmulqdq", "vpclmulqdq",
                                         "avx",    "avx2", "avx512f", "avx512vl",  "bmi2",
                                         "adx",    "sha1", "sha2",    "pmull"};
    char flags[8192];
    size_t i;
    int first = 1;

    fputc('[', f);
    if (cpuinfo("flags", flags, sizeof flags) || cpuinfo("Features", flags, sizeof flags)) {
        for (i = 0; i < sizeof wanted / sizeof wanted[0]; i++) {
            char *p = flags;
            size_t n = strlen(wanted[i]);
            while ((p = strstr(p, wanted[i])) != NULL) {
                if ((p == flags || p[-1] == ' ') && (p[n] == ' ' || p[n] == '\0')) {
                    fprintf(f, "%s", first ? "" : ",");
                    jsonw_str(f, wanted[i]);
                    first = 0;
                    break;
                }
                p += n;
            }
        }
    }
    fputc(']', f);
}

void bench_write_environment(FILE *f)
{
    char model[256];
    struct utsname u;
    size_t i;

    cpu_model(model, sizeof model);
    fputs("\"revision\":", f);
    jsonw_str(f, SOFTCHAT_REVISION);
    fputs(",\"commit\":", f);
    jsonw_str(f, SOFTCHAT_COMMIT);
    fputs(",\"machine\":{\"cpu\":", f);
    jsonw_str(f, model);
    fputs(",\"cpu_flags\":", f);
    write_flags(f);
    fprintf(f, ",\"cores\":%u", bench_cores());
    if (uname(&u) == 0) {
        fputs(",\"os\":", f);
        jsonw_str(f, u.sysname);
        fputs(",\"kernel\":", f);
        jsonw_str(f, u.release);
        fputs(",\"arch\":", f);
        jsonw_str(f, u.machine);
    }
    fputs("},\"build\":{\"compiler\":", f);
#if defined(__clang__)
    jsonw_str(f, "clang " __clang_version__);
#elif defined(__GNUC__)
    jsonw_str(f, "gcc " __VERSION__);
#else
    jsonw_str(f, "unknown");
#endif
    fputs(",\"type\":", f);
    jsonw_str(f, SOFTCHAT_BUILD_TYPE);
    fputs(",\"c_flags\":", f);
    jsonw_str(f, SOFTCHAT_C_FLAGS);
    fputs("},\"libraries\":{\"libsoftchat\":", f);
    jsonw_str(f, sc_version());
    fputs(",\"libsecp256k1\":", f);
    jsonw_str(f, sc_version_secp256k1());
    fputs(",\"backends\":{", f);
    for (i = 0; i < sc_backend_count(); i++) {
        const sc_backend *b = sc_backend_at(i);
        fprintf(f, "%s", i ? "," : "");
        jsonw_str(f, b->name);
        fputc(':', f);
        jsonw_str(f, b->lib_version());
    }
    fputs("}}", f);
}
