// @rust-nostr/nostr-sdk 0.43 for a page, bundled by esbuild (bindings/js/bench/run.mjs) with its wasm,
// which the package ships inside its JavaScript. It is CommonJS: its module.exports is the
// default export here.
import rn from '@rust-nostr/nostr-sdk';

export default rn;
