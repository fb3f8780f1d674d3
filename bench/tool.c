/* Helpers shared by the commands of softchat-bench: messages, the executable's path, numbers. */
#define _POSIX_C_SOURCE 200809L
#include "bench.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

int bench_fail(const char *fmt, ...)
{
    va_list ap;

    fputs("softchat-bench: ", stderr);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    return 2;
}

int bench_usage_error(const char *usage, const char *msg)
{
    fprintf(stderr, "softchat-bench: %s\n%s", msg, usage);
    return 2;
}

int bench_self_path(char *buf, size_t cap)
{
    ssize_t n = readlink("/proc/self/exe", buf, cap - 1);

    if (n <= 0 || (size_t)n >= cap - 1) {
        return -1;
    }
    buf[n] = '\0';
    return 0;
}

int bench_parse_uint(const char *s, unsigned long long *v)
{
    char *end;

    errno = 0;
    *v = strtoull(s, &end, 10);
    return (errno == 0 && end != s && *end == '\0') ? 0 : -1;
}
