/* Minimal JSON writing for the bench reports. */
#ifndef SOFTCHAT_BENCH_JSONW_H
#define SOFTCHAT_BENCH_JSONW_H

#include <stdio.h>

/* Writes s as a JSON string (quotes included). */
void jsonw_str(FILE *f, const char *s);

#endif
