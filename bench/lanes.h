/* Lanes (runner.h): the programs measured beside this build's backends, process by process.
 * A peer (bench/peers/NAME/run.sh --prepare) or another build of this tool (the like-for-like
 * libsecp256k1 build). */
#ifndef SOFTCHAT_BENCH_LANES_H
#define SOFTCHAT_BENCH_LANES_H

#include <stddef.h>

#include "runner.h"

/* Installs or builds peer `name` (bench/peers/NAME/run.sh --prepare META, its output in
 * log_path) and fills lanes[*n..cap) with the lanes it prints (one per configuration of the
 * peer: label TAB command TAB arguments...); META receives the peer's record without results.
 * Returns 0, or -1 with the reason in why (the peer "could not be installed"). */
int bench_peer_lanes(const char *name, const char *meta_path, const char *log_path,
                     bench_lane *lanes, size_t cap, size_t *n, char *why, size_t why_cap);

/* The lane of another build's softchat-bench (BUILD/bench/softchat-bench worker BACKEND op),
 * labelled "BACKEND@libsecp256k1-VERSION" with the libsecp256k1 release it was built
 * against (its --version); secp receives that release. Returns 0, or -1 with why. */
int bench_build_lane(const char *build_dir, const char *backend, bench_lane *lane, char *secp,
                     size_t secp_cap, char *why, size_t why_cap);

/* Fills lane from a tab-separated line (label, then the command's words). Returns 0 or -1. */
int bench_lane_parse(bench_lane *lane, const char *line);

#endif
