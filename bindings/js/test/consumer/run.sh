#!/usr/bin/env bash
# Installs the packed tarball into an empty folder (no other dependency: nothing is
# fetched) and runs the ESM example, the CommonJS one and the TypeScript example compiled
# with tsc --strict (the package's pinned TypeScript) against it.
#   bindings/js/test/consumer/run.sh TARBALL
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
pkg=$(cd "$here/../.." && pwd)
tarball=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
dir=$(mktemp -d "${TMPDIR:-/tmp}/softchat-consumer-XXXXXX")
trap 'rm -rf "$dir"' EXIT
cd "$dir"
printf '{ "name": "consumer", "private": true, "type": "module" }\n' >package.json
npm install --no-audit --no-fund --offline --no-package-lock "$tarball" >/dev/null
cp "$here/example.mjs" "$here/example.cjs" "$here/example.ts" .
passed=0
failed=0
run() { if "$@"; then passed=$((passed + 1)); else failed=$((failed + 1)); fi; }
run node example.mjs
run node example.cjs
cat >tsconfig.json <<'JSON'
{ "compilerOptions": { "strict": true, "target": "es2022", "module": "nodenext",
  "moduleResolution": "nodenext", "lib": ["es2022", "dom", "esnext.disposable"], "types": [],
  "outDir": "out" }, "files": ["example.ts"] }
JSON
run sh -c "node '$pkg/node_modules/typescript/bin/tsc' -p tsconfig.json && node out/example.js"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
