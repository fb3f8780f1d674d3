#!/usr/bin/env bash
# Builds the libFuzzer targets (clang, -fsanitize=fuzzer,address,undefined, in their own build
# directory) and runs each for SECONDS (default 60), one after the other, then prints a table:
# executions, executions per second, coverage (cov: edges, ft: features, from libFuzzer's
# final status line) and corpus size per target. A crash, a broken invariant, a leak or a
# sanitizer report fails the run: the input is kept as BUILD/crashes/<target>/crash-* (make it
# a regression: tests/fuzz/regressions/<target>/, see docs/fuzzing.md).
# Usage: scripts/fuzz.sh [SECONDS] [TARGET...]   (targets: event nip44 nip59 nip19 file base64
#        diff relay negentropy nip17 nip49 nip98; default all)
# Environment: FUZZ_BUILD (build dir, default build/fuzz), FUZZ_RUNS (stop each target after
#   this many executions, or SECONDS, whichever comes first), FUZZ_NO_BUILD=1 (reuse the build
#   and its seeds: lets two runs share one build, e.g. one per core),
#   FUZZ_FRESH=1 (start from the seeds only: ignore the corpus earlier runs kept).
set -euo pipefail
cd "$(dirname "$0")/.."

secs=${1:-60}
[ $# -gt 0 ] && shift
all=(event nip44 nip59 nip19 file base64 diff relay negentropy nip17 nip49 nip98)
targets=("$@")
[ ${#targets[@]} -eq 0 ] && targets=("${all[@]}")
build=${FUZZ_BUILD:-build/fuzz}
for t in "${targets[@]}"; do
  [[ " ${all[*]} " == *" $t "* ]] || { echo "fuzz: unknown target '$t' (${all[*]})" >&2; exit 2; }
done

cc=$(command -v clang || true)
if [ -z "$cc" ]; then
  echo "fuzz: clang not found (scripts/setup.sh --with-tools installs clang and libFuzzer)" >&2
  exit 2
fi

san="-fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer"
if [ "${FUZZ_NO_BUILD:-0}" != 1 ]; then
  cmake -S . -B "$build" -G Ninja -DCMAKE_C_COMPILER="$cc" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
        -DSOFTCHAT_WERROR=ON -DSOFTCHAT_FUZZ=ON -DSOFTCHAT_BUILD_CLI=OFF \
        -DSOFTCHAT_BUILD_BENCH=OFF -DSOFTCHAT_INSTALL=OFF -DSOFTCHAT_BUILD_JNI=OFF \
        -DSOFTCHAT_BUILD_CTIME_TESTS=OFF -DCMAKE_C_FLAGS="$san" >/dev/null
  cmake --build "$build" --target fuzz_targets
  python3 tests/fuzz/seeds.py --out "$build/seeds" >/dev/null
elif [ ! -d "$build/seeds" ]; then
  python3 tests/fuzz/seeds.py --out "$build/seeds" >/dev/null
fi

export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1:symbolize=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}

rows=()
failed=()
for t in "${targets[@]}"; do
  bin="$build/tests/fuzz_$t"
  corpus="$build/corpus/$t"
  crashes="$build/crashes/$t"
  log="$build/logs/$t.log"
  [ "${FUZZ_FRESH:-0}" = 1 ] && rm -rf "$corpus"
  mkdir -p "$corpus" "$crashes" "$(dirname "$log")"
  limit=(-max_total_time="$secs")
  [ -n "${FUZZ_RUNS:-}" ] && limit+=(-runs="$FUZZ_RUNS")
  echo "fuzz: $t (${secs} s${FUZZ_RUNS:+ or $FUZZ_RUNS runs, whichever comes first}), log $log"
  set +e
  "$bin" "${limit[@]}" -print_final_stats=1 -rss_limit_mb=2560 -timeout=25 \
         -artifact_prefix="$crashes/" "$corpus" "$build/seeds/$t" >"$log" 2>&1
  rc=$?
  set -e
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -1)
  last=$(grep -E '^#[0-9]+' "$log" | grep -E ' cov: ' | tail -1 || true)
  cov=$(sed -n 's/.* cov: \([0-9]*\).*/\1/p' <<<"$last")
  ft=$(sed -n 's/.* ft: \([0-9]*\).*/\1/p' <<<"$last")
  files=$(find "$corpus" -type f | wc -l)
  rows+=("$(printf '%-7s %12s %9s %7s %7s %7s' "$t" "${execs:-?}" "${rate:-?}" "${cov:-?}" \
            "${ft:-?}" "$files")")
  if [ $rc -ne 0 ]; then
    failed+=("$t")
    echo "fuzz: $t FAILED (exit $rc): see $log and $crashes/" >&2
    grep -E 'ERROR|INVARIANT|SUMMARY|deadly|Test unit written' "$log" | head -20 >&2 || true
  fi
done

printf '\n%-7s %12s %9s %7s %7s %7s\n' target execs exec/s cov ft corpus
printf '%s\n' "${rows[@]}"
if [ ${#failed[@]} -ne 0 ]; then
  echo "fuzz: FAILED: ${failed[*]}" >&2
  exit 1
fi
echo "fuzz: ${#targets[@]} targets, no crash"
