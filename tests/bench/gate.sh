#!/usr/bin/env bash
# The regression gate on fixed result files (tests/bench/*.json): each case must give its exit
# status (0 pass, 1 regression) and name the regressing row. Usage: gate.sh SOFTCHAT_BENCH
set -u
bench=$1
dir=$(cd "$(dirname "$0")" && pwd)
fail=0

expect() { # expected-status label args...
  local want=$1 label=$2
  shift 2
  out=$("$bench" compare "$@" --no-retry 2>&1)
  got=$?
  if [ "$got" -ne "$want" ]; then
    echo "FAIL $label: exit $got, expected $want"
    echo "$out"
    fail=1
  else
    echo "ok   $label (exit $got)"
  fi
}

expect 0 "unchanged within 10%" "$dir/base.json" "$dir/same.json"
expect 1 "median +13%" "$dir/base.json" "$dir/slower.json"
expect 1 "p95 +18%" "$dir/base.json" "$dir/p95.json"
expect 1 "0 -> 1 allocation per call" "$dir/base.json" "$dir/allocs.json"
expect 0 "median +13% under 3x the runner variation" "$dir/base.json" "$dir/slower.json" \
       --variation "$dir/variation.json"
# footprint: +90 KB (+150%) and +120 KB (+4%) each miss one bound; +300 KB (+10%) fails
expect 0 "artifact growth under 100 KiB or under 5%" "$dir/base.json" "$dir/same.json" \
       --footprint "$dir/footprint-base.tsv" "$dir/footprint-small-growth.tsv"
expect 1 "artifact growth over 5% and 100 KiB" "$dir/base.json" "$dir/same.json" \
       --footprint "$dir/footprint-base.tsv" "$dir/footprint-growth.tsv"
expect 2 "missing file" "$dir/base.json" "$dir/does-not-exist.json"
# the re-run executes only this tool's run command: a record naming anything else is not run
out=$("$bench" compare "$dir/base.json" "$dir/foreign-command.json" 2>&1)
got=$?
if [ "$got" -ne 1 ] || ! printf '%s\n' "$out" | grep -q 'the re-run could not be done'; then
  echo "FAIL foreign command in CURRENT: exit $got, expected 1 without a re-run"
  echo "$out"
  fail=1
else
  echo "ok   foreign command in CURRENT is not re-run (exit $got)"
fi
"$bench" compare "$dir/base.json" "$dir/slower.json" --no-retry | grep -q '| sign_event | 32 | .*REGRESSION' ||
  { echo "FAIL: the regressing row is not marked"; fail=1; }
exit $fail
