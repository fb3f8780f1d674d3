/* The bench and audit commands of the softchat CLI (compiled into the CLI binary). */
#ifndef SOFTCHAT_BENCH_BENCH_H
#define SOFTCHAT_BENCH_BENCH_H

/* softchat bench ... (argv[0] == "bench"); backend is the global --backend or NULL.
 * Returns the exit status. */
int bench_command(const char *backend, int argc, char **argv);

/* softchat audit ... (argv[0] == "audit"). */
int audit_command(const char *backend, int argc, char **argv);

extern const char bench_usage[];
extern const char audit_usage[];

#endif
