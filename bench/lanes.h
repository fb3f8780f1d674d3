/* Lanes (runner.h): the programs measured beside this build's backends, process by process: a
 * peer (bench/peers/NAME/run.sh --prepare prints its lanes), another build of this tool (the
 * like-for-like libsecp256k1), or any lane a file lists (run --lanes FILE: the audit's). A
 * lane line is the label, then the worker command's words, tab-separated. */
#ifndef SOFTCHAT_BENCH_LANES_H
#define SOFTCHAT_BENCH_LANES_H

#include <stddef.h>
#include <stdio.h>

#include "runner.h"

/* Reads lane lines from f (blank lines and lines starting with '#' left out) into
 * lanes[*n..cap), advancing *n. Returns 0, or -1 on a bad line or more than cap lanes. */
int bench_lanes_read(FILE *f, bench_lane *lanes, size_t cap, size_t *n);

/* The lanes of run's --secp-build BUILD_DIR (its softchat-bench worker running `backend`,
 * labelled BACKEND@libsecp256k1-VERSION from its --version), --peers NAME[,NAME...] (each
 * installed first; its messages on stderr) and --lanes FILE, in that order, each NULL when
 * not asked for, into lanes[0..cap). Returns how many, or -1 (message printed). */
long bench_lanes_pick(const char *secp_build, const char *peers, const char *file,
                      const char *backend, bench_lane *lanes, size_t cap);

#endif
