/* The self-check of ctest cli.clean: a deliberately unclean program, built only to be
 * inspected (never run). It defines and exports malloc and free, as an interposing allocator
 * does, imports system, popen, fork and execv, and holds the source path; check_clean.sh
 * must report each. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

extern void *__libc_malloc(size_t size);
extern void __libc_free(void *p);

void *malloc(size_t size)
{
    return __libc_malloc(size);
}

void free(void *p)
{
    __libc_free(p);
}

int main(int argc, char **argv)
{
    if (argc > 1000) { /* never true: the calls are here to be imported */
        FILE *p = popen(argv[0], "r");
        if (p != NULL) {
            pclose(p);
        }
        if (system(argv[0]) == 0 && fork() == 0) {
            execv(argv[0], argv);
        }
    }
    puts(SOFTCHAT_SOURCE_DIR);
    return 0;
}
