#!/usr/bin/env bash
# The pool's fault simulator in its long mode (tests/pool/sim.h): millions of scenarios, one
# process per core, each on its own range of scenario seeds, all from one base seed printed
# first. The test command runs 10,000 per backend from seed 1; this runs many more from a new
# seed each time, so every run explores scenarios none ran before.
#   scripts/pool-sim.sh [SCENARIOS [SEED [BACKEND]]]    (default 1000000, a fresh seed, openssl)
# Needs the build of the test command (build/test; BUILD_DIR=... for another). A failure
# prints the seed that replays it: test_pool_sim --backend B --replay SEED --trace 1.
set -euo pipefail
cd "$(dirname "$0")/.."
total=${1:-1000000}
seed=${2:-$(( $(date +%s%N) & 0x7fffffffffff ))}
backend=${3:-openssl}
bin=${BUILD_DIR:-build/test}/tests/test_pool_sim
[ -x "$bin" ] || { echo "pool-sim: $bin is not built (scripts/test.sh builds it)" >&2; exit 2; }
jobs=$(nproc)
per=$(( (total + jobs - 1) / jobs ))
echo "pool-sim: $total scenarios on $backend from seed $seed, $jobs processes of $per"
pids=()
for ((i = 0; i < jobs; i++)); do
  "$bin" --backend "$backend" --scenarios "$per" --seed $(( seed + i * per )) \
    > "${TMPDIR:-/tmp}/pool-sim.$$.$i" 2>&1 &
  pids+=($!)
done
trap 'kill "${pids[@]}" 2>/dev/null || true' EXIT
rc=0
for ((i = 0; i < jobs; i++)); do
  wait "${pids[$i]}" || rc=1
  grep -E 'STATS|FAILED|replay' "${TMPDIR:-/tmp}/pool-sim.$$.$i" | sed "s/^/[$i] /"
  rm -f "${TMPDIR:-/tmp}/pool-sim.$$.$i"
done
trap - EXIT
exit $rc
