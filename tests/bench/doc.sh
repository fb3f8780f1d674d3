#!/bin/sh
# docs/benchmarks.md quotes softchat-bench's help in the first code block of "## The tool":
# fail when the quote and the binary differ. Usage: doc.sh SOFTCHAT_BENCH DOCS/benchmarks.md
set -eu
bench=$1
doc=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
awk '/^## The tool$/ { tool = 1; next }
     tool && /^```$/ { if (inside) exit; inside = 1; next }
     inside { print }' "$doc" > "$tmp/quoted"
"$bench" --help > "$tmp/help"
if ! diff -u "$tmp/quoted" "$tmp/help"; then
  echo "docs/benchmarks.md: the quoted help of softchat-bench is stale (diff above)" >&2
  exit 1
fi
echo "docs/benchmarks.md quotes the help of softchat-bench verbatim ($(wc -l < "$tmp/help") lines)"
