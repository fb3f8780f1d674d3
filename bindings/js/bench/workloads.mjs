// The benchmark rows of the web audit, one function per implementation, the same code in
// Node and in a Chromium page: each returns { row: () => void | Promise } after checking
// its own results once (a round trip, a verification) outside the timed loop.
// Rows (shared by every peer that has them):
//   nip44_encrypt_{32,1024,64000}, nip44_decrypt_{32,1024,64000}  full NIP-44 (ECDH per call)
//   sign_event          a kind 1 event, 32 B content, two tags
//   parse_verify_event  JSON text of a signed event -> verified object (16 authors in turn)
//   gift_wrap           a rumor from a template, sealed and gift-wrapped to one recipient
//   unwrap              a gift wrap's JSON text -> the authenticated rumor (16 wraps in turn)
// and, for softchat only, boundary_{32,64000}: what crossing into wasm costs per call (the
// copy in, one call, the copy out, the wipe), without the crypto.

export const SIZES = [32, 1024, 64000];
export const ROWS = [
  ...SIZES.map((n) => `nip44_encrypt_${n}`), ...SIZES.map((n) => `nip44_decrypt_${n}`),
  'sign_event', 'parse_verify_event', 'gift_wrap', 'unwrap', 'boundary_32', 'boundary_64000',
];

const text = (n) => 'abcdefghijklmnopqrstuvwxyz0123456789 ✓'.repeat(Math.ceil(n / 38)).slice(0, n);
const utf8 = (s) => new TextEncoder().encode(s).length;
const plain = (n) => { let s = text(n); while (utf8(s) > n) s = s.slice(0, -1); return s.padEnd(s.length + n - utf8(s), 'x'); };
const check = (c, what) => { if (!c) throw new Error(`bench check failed: ${what}`); };
const now = () => Math.floor(Date.now() / 1000);
const template = () => ({ kind: 1, created_at: now(), tags: [['t', 'bench'], ['p', 'ab'.repeat(32)]], content: plain(32) });

/** softchat: the package's API (lib: its exports; native: dist/native.js for the boundary). */
export async function softchat(lib, native) {
  const sc = await lib.Softchat.load();
  const me = sc.generateIdentity();
  const peers = Array.from({ length: 16 }, () => sc.generateIdentity());
  const rows = {};
  for (const n of SIZES) {
    const pt = plain(n);
    const payload = peers[0].nip44Encrypt(me.publicKey, pt);
    check(me.nip44Decrypt(peers[0].publicKeyHex, payload) === pt, 'nip44');
    rows[`nip44_encrypt_${n}`] = () => me.nip44Encrypt(peers[0].publicKeyHex, pt);
    rows[`nip44_decrypt_${n}`] = () => me.nip44Decrypt(peers[0].publicKeyHex, payload);
  }
  rows.sign_event = () => me.sign(template());
  const events = peers.map((p) => JSON.stringify(p.sign(template())));
  let i = 0;
  rows.parse_verify_event = () => sc.parseEvent(events[i++ & 15]);
  rows.gift_wrap = () => me.giftWrap(me.rumor(template()), peers[1].publicKeyHex).json;
  const wraps = peers.map((p) => p.giftWrap(p.rumor(template()), me.publicKey).json);
  check(me.unwrap(wraps[3]).sender === peers[3].publicKeyHex, 'unwrap');
  rows.unwrap = () => me.unwrap(wraps[i++ & 15]).rumor;
  // the boundary alone: the same Inputs writer and result reader the API uses, around the
  // cheapest export (scw_done), with a result of the size a NIP-44 payload would have
  const n = await native.Native.load();
  const inp = new native.Inputs(n);
  const dec = new TextDecoder();
  for (const size of [32, 64000]) {
    const s = plain(size);
    const outLen = Math.ceil((size + 99) / 3) * 4;
    rows[`boundary_${size}`] = () => {
      inp.begin(native.textBound(s));
      const [p] = inp.text(s);
      n.x.scw_done(n.w);
      const r = dec.decode(n.mem().subarray(p, p + outLen));
      inp.wipe();
      return r;
    };
  }
  return { rows, info: { version: sc.version, backend: sc.backend, secp256k1: sc.secp256k1 }, heap: () => sc.heapInUse() };
}

/** nostr-tools 2.25, pure JavaScript (@noble). */
export async function nostrTools(nt) {
  const { pure, nip44, nip59 } = nt;
  const sk = pure.generateSecretKey();
  const pub = pure.getPublicKey(sk);
  const peers = Array.from({ length: 16 }, () => pure.generateSecretKey());
  const peerPub = peers.map((p) => pure.getPublicKey(p));
  const rows = {};
  for (const n of SIZES) {
    const pt = plain(n);
    const payload = nip44.v2.encrypt(pt, nip44.v2.utils.getConversationKey(peers[0], pub));
    check(nip44.v2.decrypt(payload, nip44.v2.utils.getConversationKey(sk, peerPub[0])) === pt, 'nip44');
    rows[`nip44_encrypt_${n}`] = () => nip44.v2.encrypt(pt, nip44.v2.utils.getConversationKey(sk, peerPub[0]));
    rows[`nip44_decrypt_${n}`] = () => nip44.v2.decrypt(payload, nip44.v2.utils.getConversationKey(sk, peerPub[0]));
  }
  rows.sign_event = () => pure.finalizeEvent(template(), sk);
  const events = peers.map((p) => JSON.stringify(pure.finalizeEvent(template(), p)));
  let i = 0;
  rows.parse_verify_event = () => { const e = JSON.parse(events[i++ & 15]); if (!pure.verifyEvent(e)) throw new Error('verify'); return e; };
  rows.gift_wrap = () => JSON.stringify(nip59.wrapEvent(template(), sk, peerPub[1]));
  const wraps = peers.map((p) => JSON.stringify(nip59.wrapEvent(template(), p, pub)));
  check(nip59.unwrapEvent(JSON.parse(wraps[3]), sk).pubkey === peerPub[3], 'unwrap');
  rows.unwrap = () => nip59.unwrapEvent(JSON.parse(wraps[i++ & 15]), sk);
  return { rows, info: { variant: 'pure' } };
}

/** nostr-tools 2.25 with nostr-wasm (its wasm variant: signing and verification in wasm;
 *  NIP-44 and NIP-59 stay pure JavaScript there, so only those two rows differ). */
export async function nostrToolsWasm(nt) {
  const { wasm } = nt;
  wasm.setNostrWasm(await nt.initNostrWasm());
  const sk = wasm.generateSecretKey();
  const peers = Array.from({ length: 16 }, () => wasm.generateSecretKey());
  const rows = {};
  rows.sign_event = () => wasm.finalizeEvent(template(), sk);
  const events = peers.map((p) => JSON.stringify(wasm.finalizeEvent(template(), p)));
  check(wasm.verifyEvent(JSON.parse(events[0])), 'verify');
  let i = 0;
  rows.parse_verify_event = () => { const e = JSON.parse(events[i++ & 15]); if (!wasm.verifyEvent(e)) throw new Error('verify'); return e; };
  return { rows, info: { variant: 'nostr-wasm' } };
}

/** @rust-nostr/nostr-sdk 0.43 (wasm-bindgen). */
export async function rustNostr(rn) {
  await rn.loadWasmAsync();
  const keys = rn.Keys.generate();
  const signer = rn.NostrSigner.keys(keys);
  const peers = Array.from({ length: 16 }, () => rn.Keys.generate());
  const rows = {};
  for (const n of SIZES) {
    const pt = plain(n);
    const payload = rn.nip44Encrypt(peers[0].secretKey, keys.publicKey, pt, rn.NIP44Version.V2);
    check(rn.nip44Decrypt(keys.secretKey, peers[0].publicKey, payload) === pt, 'nip44');
    rows[`nip44_encrypt_${n}`] = () => rn.nip44Encrypt(keys.secretKey, peers[0].publicKey, pt, rn.NIP44Version.V2);
    rows[`nip44_decrypt_${n}`] = () => rn.nip44Decrypt(keys.secretKey, peers[0].publicKey, payload);
  }
  const build = () => {
    const t = template();
    return new rn.EventBuilder(new rn.Kind(1), t.content)
      .tags(t.tags.map((x) => rn.Tag.parse(x))).customCreatedAt(rn.Timestamp.fromSecs(t.created_at));
  };
  rows.sign_event = () => build().signWithKeys(keys).asJson();
  const events = peers.map((p) => build().signWithKeys(p).asJson());
  let i = 0;
  rows.parse_verify_event = () => { const e = rn.Event.fromJson(events[i++ & 15]); if (!e.verify()) throw new Error('verify'); return e; };
  const rumor = () => build().build(keys.publicKey);
  rows.gift_wrap = async () => (await rn.EventBuilder.giftWrap(signer, peers[1].publicKey, rumor())).asJson();
  const wraps = [];
  for (const p of peers) {
    wraps.push((await rn.EventBuilder.giftWrap(rn.NostrSigner.keys(p), keys.publicKey, build().build(p.publicKey))).asJson());
  }
  const u = await rn.UnwrappedGift.fromGiftWrap(signer, rn.Event.fromJson(wraps[3]));
  check(u.sender.toHex() === peers[3].publicKey.toHex(), 'unwrap');
  rows.unwrap = async () => (await rn.UnwrappedGift.fromGiftWrap(signer, rn.Event.fromJson(wraps[i++ & 15]))).rumor;
  return { rows, info: { variant: 'wasm-bindgen' } };
}

/** Times each row: warm-up, then batches of calls sized to ~budgetMs / 5 each, five
 *  batches; returns the median ns per call of the batches. heap(): the wasm heap in use
 *  before and after (softchat only). */
export async function measure(impl, budgetMs, only) {
  const out = {};
  for (const [row, fn] of Object.entries(impl.rows)) {
    if (only && !only.includes(row)) continue;
    const h0 = impl.heap?.();
    let n = 1;
    let t = 0;
    for (;;) { // calibrate: a batch of at least budget/5 ms
      const t0 = performance.now();
      for (let k = 0; k < n; k++) await fn();
      t = performance.now() - t0;
      if (t >= budgetMs / 5 || n >= 1 << 20) break;
      n = Math.min(n * 4, Math.ceil((n * budgetMs) / 5 / Math.max(t, 0.01)));
    }
    const per = [];
    for (let b = 0; b < 5; b++) {
      const t0 = performance.now();
      for (let k = 0; k < n; k++) await fn();
      per.push(((performance.now() - t0) * 1e6) / n);
    }
    per.sort((a, b) => a - b);
    out[row] = { ns: per[2], calls: n * 5, heapGrowth: h0 === undefined ? undefined : impl.heap() - h0 };
  }
  return out;
}
