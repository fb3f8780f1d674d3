/* Minimal JSON writing for the bench reports. */
#ifndef SOFTCHAT_BENCH_JSONW_H
#define SOFTCHAT_BENCH_JSONW_H

#include <stdio.h>

/* Writes s as a JSON string (quotes included); bytes that are not UTF-8 as U+FFFD. */
void jsonw_str(FILE *f, const char *s);

#endif
