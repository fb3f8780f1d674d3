/* What a result was measured on and with: revision, CPU, compiler, flags, library versions. */
#ifndef SOFTCHAT_BENCH_MACHINE_H
#define SOFTCHAT_BENCH_MACHINE_H

#include <stdio.h>

/* Writes the "revision", "commit", "machine", "build" and "libraries" members (no braces
 * around them, no trailing comma) of the result JSON. secp: the libsecp256k1 release to name
 * (rows measured by another build of this tool), or NULL for the one linked here. */
void bench_write_environment(FILE *f, const char *secp);

/* The CPU model name ("unknown" if unavailable) into buf. */
void bench_cpu_model(char *buf, size_t cap);

#endif
