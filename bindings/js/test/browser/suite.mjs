// Runs the package's cases in a browser context (a page or a Worker): loads the package
// from the server the runner started (the package's own dist/, which loads softchat.wasm
// beside it), fetches the vectors, and returns one result per case.
import * as lib from '/pkg/index.js';
import { cases } from '/test/cases.mjs';
import { hostile } from '/test/hostile.mjs';
import { interop } from '/test/interop.mjs';

async function vectors() {
  const j = async (p) => (await fetch(`/vectors/${p}`)).json();
  return {
    nip44: await j('upstream/nip44.vectors.json'),
    nip44ext: await j('upstream/nip44.extended-prefix.json'),
    bip340: await (await fetch('/vectors/upstream/bip340.test-vectors.csv')).text(),
    events: await j('nostr-tools.events.json'),
    nt44: await j('nostr-tools.nip44.json'),
    nip19: await j('upstream/nip19.vectors.json'),
    nip59: await j('upstream/nip59.spec-example.json'),
    nip17: await j('upstream/nip17.spec-example.json'),
    kind15: await j('upstream/nip17.kind15-aesgcm.json'),
  };
}

/** which: 'cases', 'hostile', 'interop' (a page only: it loads nostr-tools). */
export async function run(which) {
  const sc = await lib.Softchat.load();
  const counts = {};
  let list = [];
  if (which.includes('cases')) list = list.concat(cases(sc, lib, await vectors(), counts));
  if (which.includes('hostile')) list = list.concat(hostile(sc, lib));
  if (which.includes('interop')) list = list.concat(interop(sc, await import('/peers.js')));
  const results = [];
  for (const [name, fn] of list) {
    const t0 = performance.now();
    try {
      await fn();
      results.push({ name, ok: true, ms: performance.now() - t0 });
    } catch (e) {
      results.push({ name, ok: false, error: String(e && e.stack || e) });
    }
  }
  return { results, counts, heap: sc.heapBytes() };
}
