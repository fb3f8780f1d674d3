// Loads one implementation's workload by name, in Node or in a page (the page passes its
// own module loader: the bundled peers and the package served by the runner).
import * as W from './workloads.mjs';

export const IMPLS = ['softchat', 'nostr-tools', 'nostr-tools-wasm', 'rust-nostr'];

/** load(what): 'softchat' -> [lib, native], 'nostr-tools' -> the peers module, 'rust-nostr'. */
export async function make(name, load) {
  switch (name) {
    case 'softchat': { const [lib, native] = await load('softchat'); return W.softchat(lib, native); }
    case 'nostr-tools': return W.nostrTools(await load('nostr-tools'));
    case 'nostr-tools-wasm': return W.nostrToolsWasm(await load('nostr-tools'));
    case 'rust-nostr': return W.rustNostr(await load('rust-nostr'));
    default: throw new Error(`unknown implementation ${name}`);
  }
}
