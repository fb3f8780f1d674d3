/* What a result was measured on and with: revision, CPU, compiler, flags, library versions. */
#ifndef SOFTCHAT_BENCH_MACHINE_H
#define SOFTCHAT_BENCH_MACHINE_H

#include <stdio.h>

/* Writes the "revision", "commit", "machine", "build" and "libraries" members (no braces
 * around them, no trailing comma) of the result JSON. */
void bench_write_environment(FILE *f);

#endif
