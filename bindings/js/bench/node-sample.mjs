// One sample in a Node process of its own: node bindings/js/bench/node-sample.mjs IMPL BUDGET_MS
// prints { info, rows } as JSON (rows: row -> { ns, calls, heapGrowth }).
import { make } from './impls.mjs';
import { measure } from './workloads.mjs';

const [name, budget] = process.argv.slice(2);
const load = async (what) => {
  if (what === 'softchat') return [await import('../dist/index.js'), await import('../dist/native.js')];
  if (what === 'rust-nostr') return import('@rust-nostr/nostr-sdk');
  const [pure, nip44, nip59, wasm, nw] = await Promise.all([import('nostr-tools/pure'),
    import('nostr-tools/nip44'), import('nostr-tools/nip59'), import('nostr-tools/wasm'), import('nostr-wasm')]);
  return { pure, nip44, nip59, wasm, initNostrWasm: nw.initNostrWasm };
};
const impl = await make(name, load);
const rows = await measure(impl, Number(budget));
process.stdout.write(JSON.stringify({ info: impl.info, rows }));
