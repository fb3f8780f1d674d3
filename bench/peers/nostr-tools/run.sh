#!/bin/sh
# Peer benchmark: nostr-tools (pure JS and nostr-wasm backends).
#   bench/peers/nostr-tools/run.sh OUT.json [--runs N] [--only OP[,OP...]] [--quick]
#   bench/peers/nostr-tools/run.sh --prepare META.json
# Installs the pinned packages (npm ci, from package-lock.json) and writes OUT.json in the
# softchat-bench/1 schema. Progress goes to stderr. Exits 3 with one line on stderr if
# the peer cannot be installed, 1 if a measurement failed. --prepare installs, writes the
# record without results to META.json and prints the peer's lanes (one per backend: label and
# worker command, tab-separated) for softchat-bench, which then measures them interleaved
# with its own processes (bench/runner.c).
set -u
here=$(cd "$(dirname "$0")" && pwd)
if [ $# -lt 1 ]; then
    echo "usage: $0 OUT.json [--runs N] [--only OP[,OP...]] [--quick]" >&2
    exit 2
fi
prepare=0
if [ "$1" = --prepare ] && [ $# -eq 2 ]; then
    prepare=1
    shift
fi
out=$1
shift
case $out in /*) ;; *) out=$(pwd)/$out ;; esac

if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then
    echo "nostr-tools: could not be installed: node/npm not found" >&2
    exit 3
fi
# @noble/* 2.x declare engines node >= 20.19.0
if ! node -e 'const [a, b] = process.versions.node.split(".").map(Number); process.exit(a > 20 || (a === 20 && b >= 19) ? 0 : 1)' 2>/dev/null; then
    echo "nostr-tools: could not be installed: node >= 20.19 required (found $(node --version))" >&2
    exit 3
fi

echo "nostr-tools: installing pinned packages (npm ci)..." >&2
log=$(mktemp)
if ! (cd "$here" && npm ci --no-audit --no-fund --loglevel=error) >"$log" 2>&1; then
    echo "nostr-tools: could not be installed: npm ci failed in $here (log: $log)" >&2
    exit 3
fi
rm -f "$log"

if [ "$prepare" = 1 ]; then
    exec node "$here/bench.mjs" --describe "$out"
fi
echo "nostr-tools: measuring ($(node --version))..." >&2
exec node "$here/bench.mjs" "$out" "$@"
