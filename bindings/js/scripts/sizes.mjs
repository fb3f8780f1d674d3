// Prints the package's sizes as JSON: the wasm module and the JavaScript of dist/ (the ES
// module files an app loads; the CommonJS bundle, the same code again, and .d.ts excluded),
// raw and gzip (level 9, file by file), bytes.
//   node bindings/js/scripts/sizes.mjs DIST
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

const dir = process.argv[2] ?? 'dist';
const size = (names) => {
  let raw = 0;
  let gz = 0;
  for (const n of names) {
    const b = readFileSync(join(dir, n));
    raw += b.length;
    gz += gzipSync(b, { level: 9 }).length;
  }
  return { raw, gzip: gz };
};
const js = readdirSync(dir).filter((n) => n.endsWith('.js'));
const wasm = size(['softchat.wasm']);
const jsz = size(js);
console.log(JSON.stringify({
  wasm, js: jsz, total: { raw: wasm.raw + jsz.raw, gzip: wasm.gzip + jsz.gzip },
  budgetGzip: 250000, withinBudget: wasm.gzip + jsz.gzip <= 250000,
}, null, 1));
