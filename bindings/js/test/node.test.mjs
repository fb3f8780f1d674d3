// The shared cases (test/cases.mjs), the hostile-input checks (test/hostile.mjs) and the
// nostr-tools interop (test/interop.mjs) in Node, through the built package (dist/), with
// node:test.
import { test } from 'node:test';
import { readFileSync } from 'node:fs';
import * as lib from '../dist/index.js';
import { cases } from './cases.mjs';
import { hostile } from './hostile.mjs';
import { interop } from './interop.mjs';
import * as pure from 'nostr-tools/pure';
import * as nip44 from 'nostr-tools/nip44';
import * as nip59 from 'nostr-tools/nip59';
import * as nip17 from 'nostr-tools/nip17';
import * as nip19 from 'nostr-tools/nip19';

export function loadVectors(root) {
  const j = (p) => JSON.parse(readFileSync(new URL(p, root), 'utf8'));
  return {
    nip44: j('upstream/nip44.vectors.json'),
    nip44ext: j('upstream/nip44.extended-prefix.json'),
    bip340: readFileSync(new URL('upstream/bip340.test-vectors.csv', root), 'utf8'),
    events: j('nostr-tools.events.json'),
    nt44: j('nostr-tools.nip44.json'),
    nip19: j('upstream/nip19.vectors.json'),
    nip59: j('upstream/nip59.spec-example.json'),
    nip17: j('upstream/nip17.spec-example.json'),
    kind15: j('upstream/nip17.kind15-aesgcm.json'),
  };
}

const data = loadVectors(new URL('../../../vectors/', import.meta.url));
const sc = await lib.Softchat.load();
const counts = {};
for (const [name, fn] of cases(sc, lib, data, counts)) {
  test(name, fn);
}
for (const [name, fn] of hostile(sc, lib)) {
  test(name, fn);
}
for (const [name, fn] of interop(sc, { pure, nip44, nip59, nip17, nip19 })) {
  test(name, fn);
}
test('vector counts', () => {
  console.log(`# vectors run: ${JSON.stringify(counts)}`);
});
