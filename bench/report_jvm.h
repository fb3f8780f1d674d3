/* The JVM section of the audit: the Kotlin facade under JMH with its peers in the same run
 * (bindings/kotlin/jmh/run.sh), read back from DIR/jvm/ and written into report.md. */
#ifndef SOFTCHAT_BENCH_REPORT_JVM_H
#define SOFTCHAT_BENCH_REPORT_JVM_H

#include <stdio.h>

/* Runs bindings/kotlin/jmh/run.sh into out_dir/jvm (quick: the CI smoke profile) against the
 * JNI library of build_dir. Returns 0 when it ran; otherwise the reason is kept in
 * out_dir/jvm/failure.txt and the section says it. */
int jvm_run(const char *out_dir, const char *build_dir, int quick);

/* Writes the "JVM" section from out_dir/jvm (jmh.json, alloc.json, peers.json). Returns the
 * number of JVM targets missed. */
size_t jvm_report(FILE *f, const char *out_dir);

#endif
