// The peers the browser tests and benchmarks load in a page: nostr-tools 2.25 (pure JS, and
// its nostr-wasm variant), bundled by esbuild into one ES module (test/browser/run.mjs).
export * as pure from 'nostr-tools/pure';
export * as nip44 from 'nostr-tools/nip44';
export * as nip59 from 'nostr-tools/nip59';
export * as nip17 from 'nostr-tools/nip17';
export * as nip19 from 'nostr-tools/nip19';
export * as wasm from 'nostr-tools/wasm';
export { initNostrWasm } from 'nostr-wasm';
