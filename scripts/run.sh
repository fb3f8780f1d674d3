#!/usr/bin/env bash
# The main job, from a fresh Debian machine: install what is missing, then the performance
# audit (scripts/audit), which builds (its table of builds: scripts/audit/builds.py), runs the
# self-test and the conformance suites, measures every operation and floor with softchat-bench
# beside the other builds and the peers, runs the JVM benchmarks and the footprint, and
# writes audit/report.md with its charts and the raw records (docs/benchmarks.md, "The audit").
# Usage: scripts/run.sh [OUT_DIR] [options]   (default OUT_DIR: audit; --help lists the options)
#   --quick: a first answer in about three minutes instead: the headline table of our default
#   build against rust-nostr and nostr-tools, with verdicts (audit/quick/quick.md).
#   SOFTCHAT_AUDIT_CLOCK=cpu: time samples with each thread's CPU time (a shared machine;
#   docs/benchmarks.md, "The measurement contract"); default auto (cpu on a busy machine).
set -euo pipefail
cd "$(dirname "$0")/.."

scripts/setup.sh --with-tools

# The charts need matplotlib: Debian's python3 has it (python3-matplotlib), another python3
# first on PATH may not.
py=python3
"$py" -c 'import matplotlib' 2>/dev/null || py=/usr/bin/python3
exec "$py" scripts/audit "$@"
