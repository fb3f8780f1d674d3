// The package's tests, written once for every place they run: Node (node:test, test/node.test.mjs),
// a Chromium page and a Chromium Worker (test/browser/). Each case gets the loaded Softchat,
// the package's exports and the vector files (the host reads or fetches them) and throws on
// failure. Vectors: vectors/upstream (the official NIP-44 and BIP-340 ones, the NIP specs'
// examples) and the repo's own (vectors/nostr-tools.*.json, the kind 15 AES-GCM cases).

const te = new TextEncoder();
const td = new TextDecoder();

export function hex(b) {
  return Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('');
}

export function unhex(s) {
  const b = new Uint8Array(s.length / 2);
  for (let i = 0; i < b.length; i++) b[i] = parseInt(s.substr(2 * i, 2), 16);
  return b;
}

export async function sha256(b) {
  return hex(new Uint8Array(await crypto.subtle.digest('SHA-256', typeof b === 'string' ? te.encode(b) : b)));
}

export function eq(a, b, what) {
  const x = typeof a === 'object' ? JSON.stringify(a) : a;
  const y = typeof b === 'object' ? JSON.stringify(b) : b;
  if (x !== y) throw new Error(`${what}: got ${String(x).slice(0, 200)}, want ${String(y).slice(0, 200)}`);
}

/** Equality of JSON values regardless of key order. */
export function same(a, b, what) {
  const norm = (v) => (Array.isArray(v) ? v.map(norm) : v && typeof v === 'object'
    ? Object.fromEntries(Object.keys(v).sort().map((k) => [k, norm(v[k])])) : v);
  eq(JSON.stringify(norm(a)), JSON.stringify(norm(b)), what);
}

export function ok(v, what) {
  if (!v) throw new Error(what);
}

/** fn must throw the package's SoftchatError with that status name. */
export async function fails(fn, name, what, SoftchatError) {
  let err;
  try {
    await fn();
  } catch (e) {
    err = e;
  }
  if (!err) throw new Error(`${what}: no error, want ${name}`);
  if (SoftchatError && !(err instanceof SoftchatError)) throw new Error(`${what}: ${err} is not a SoftchatError`);
  if (name && err.statusName !== name) throw new Error(`${what}: ${err.statusName ?? err}, want ${name}`);
}

function pattern(nt, len) {
  const p = unhex(nt.pattern.pattern_hex);
  const f = te.encode(nt.pattern.filler);
  const out = new Uint8Array(len);
  const whole = Math.floor(len / 97);
  for (let i = 0; i < whole; i++) out.set(p, 97 * i);
  out.set(f.subarray(0, len % 97), 97 * whole);
  return out;
}

async function readAll(rs) {
  const parts = [];
  const r = rs.getReader();
  for (;;) {
    const { done, value } = await r.read();
    if (done) break;
    parts.push(value);
  }
  const n = parts.reduce((a, p) => a + p.length, 0);
  const out = new Uint8Array(n);
  let o = 0;
  for (const p of parts) { out.set(p, o); o += p.length; }
  return out;
}

function streamOf(bytes, chunk = 7) {
  let off = 0;
  return new ReadableStream({
    pull(c) {
      if (off >= bytes.length) { c.close(); return; }
      c.enqueue(bytes.slice(off, off + chunk));
      off += chunk;
    },
  });
}

/** [name, async fn] pairs. counts: filled with how many vectors each group ran. */
export function cases(sc, lib, data, counts = {}) {
  const { SoftchatError } = lib;
  const F = (fn, name, what) => fails(fn, name, what, SoftchatError);
  const count = (k, n = 1) => { counts[k] = (counts[k] ?? 0) + n; };
  const v2 = data.nip44.v2;
  const pubOf = (sec) => { const id = sc.importIdentity(unhex(sec)); const p = id.publicKeyHex; id.dispose(); return p; };
  const list = [];
  const t = (name, fn) => list.push([name, fn]);

  t('nip44: official conversation keys (identity and held key agree)', () => {
    for (const v of v2.valid.get_conversation_key) {
      const me = sc.importIdentity(unhex(v.sec1));
      const conv = me.conversation(v.pub2);
      const held = sc.conversationFromKey(unhex(v.conversation_key));
      eq(held.decrypt(conv.encrypt('k')), 'k', `conversation key ${v.conversation_key}`);
      count('nip44.conversation_key');
    }
  });
  t('nip44: official encrypt/decrypt (fixed nonces, both ways)', () => {
    for (const v of v2.valid.encrypt_decrypt) {
      eq(sc.nip44EncryptWithKey(unhex(v.conversation_key), unhex(v.nonce), v.plaintext), v.payload, 'payload');
      const a = sc.importIdentity(unhex(v.sec1));
      const b = sc.importIdentity(unhex(v.sec2));
      eq(a.nip44Encrypt(b.publicKey, v.plaintext, { nonce: unhex(v.nonce) }), v.payload, 'identity payload');
      eq(b.nip44Decrypt(a.publicKey, v.payload), v.plaintext, 'decrypt');
      eq(td.decode(b.conversation(a.publicKeyHex).decryptBytes(v.payload)), v.plaintext, 'held decryptBytes');
      count('nip44.encrypt_decrypt');
    }
  });
  t('nip44: official long messages and the extended prefix', async () => {
    for (const v of v2.valid.encrypt_decrypt_long_msg) {
      const pt = v.pattern.repeat(v.repeat);
      const p = sc.nip44EncryptWithKey(unhex(v.conversation_key), unhex(v.nonce), pt);
      eq(await sha256(pt), v.plaintext_sha256, 'plaintext');
      eq(await sha256(p), v.payload_sha256, 'payload');
      const c = sc.conversationFromKey(unhex(v.conversation_key));
      eq(c.decrypt(p), pt, 'round trip');
      count('nip44.long');
    }
    for (const v of data.nip44ext.valid) {
      const pt = v.pattern.repeat(v.repeat);
      const p = sc.nip44EncryptWithKey(unhex(v.conversation_key), unhex(v.nonce), pt, { extended: true });
      eq(p.length, v.payload_b64_len, 'extended payload length');
      const c = sc.conversationFromKey(unhex(v.conversation_key));
      eq(c.decrypt(p, { maxPayload: p.length }), pt, 'extended round trip');
      count('nip44.extended');
    }
  });
  t('nip44: official invalid lengths, keys and payloads', async () => {
    const c = sc.conversationFromKey(new Uint8Array(32).fill(1));
    for (const len of v2.invalid.encrypt_msg_lengths) {
      await F(() => c.encrypt('x'.repeat(len)), undefined, `length ${len}`);
      count('nip44.invalid');
    }
    for (const v of v2.invalid.get_conversation_key) {
      await F(() => { const me = sc.importIdentity(unhex(v.sec1)); me.conversation(v.pub2); }, undefined, v.note);
      count('nip44.invalid');
    }
    for (const v of v2.invalid.decrypt) {
      await F(() => sc.conversationFromKey(unhex(v.conversation_key)).decrypt(v.payload), undefined, v.note);
      count('nip44.invalid');
    }
    for (const v of data.nip44ext.invalid_decrypt) {
      await F(() => sc.conversationFromKey(unhex(v.conversation_key)).decrypt(v.payload), undefined, v.note);
      count('nip44.invalid');
    }
  });
  t('nip44: the repo corpus from nostr-tools (payloads, symmetric keys, each reject status)', async () => {
    const nt = data.nt44;
    for (const v of nt.conversation_keys) {
      const a = sc.importIdentity(unhex(v.sec1));
      const b = sc.importIdentity(unhex(v.sec2));
      eq(b.nip44Decrypt(a.publicKey, a.nip44Encrypt(v.pub2, 'sym')), 'sym', 'symmetric');
      count('repo.nip44');
    }
    for (const v of nt.encrypt) {
      const pt = v.plaintext !== undefined ? unhex(v.plaintext) : pattern(nt, v.len);
      const p = sc.nip44EncryptWithKey(unhex(v.conversation_key), unhex(v.nonce), pt, { extended: v.prefix === 'extended' });
      if (v.payload !== undefined) eq(p, v.payload, `payload len ${v.len}`);
      else eq(await sha256(p), v.payload_sha256, `payload sha len ${v.len}`);
      count('repo.nip44');
    }
    for (const v of nt.rejects) {
      const c = sc.conversationFromKey(unhex(v.conversation_key));
      if (v.expect === 'SC_OK') c.decrypt(v.payload);
      else await F(() => c.decrypt(v.payload), v.expect, v.name);
      count('repo.nip44');
    }
  });
  t('bip340: official vectors (signatures with their aux, verification results)', () => {
    const rows = data.bip340.trim().split('\n').slice(1).map((l) => l.split(','));
    for (const [i, sk, pk, aux, msg, sig, result] of rows) {
      if (msg.length !== 64) { count('bip340.not32'); continue; } // the library signs 32-byte messages
      if (sk) {
        const id = sc.importIdentity(unhex(sk));
        eq(id.publicKeyHex, pk.toLowerCase(), `vector ${i} public key`);
        eq(hex(id.signSchnorr(unhex(msg), unhex(aux))).toUpperCase(), sig, `vector ${i} signature`);
      }
      eq(sc.verifySchnorr(unhex(sig), unhex(msg), unhex(pk)), result === 'TRUE', `vector ${i} verify`);
      count('bip340');
    }
  });
  t('events: the nostr-tools corpus (parse, byte-identical signing, encodings, rejects)', async () => {
    const ev = data.events;
    for (const v of ev.events) {
      eq(sc.parseEvent(v.json), v.event, `${v.name} parse`);
      const id = sc.importIdentity(unhex(v.sk));
      const { kind, created_at, tags, content } = v.event;
      eq(id.sign({ kind, created_at, tags, content }, { aux: unhex(v.aux) }), v.event, `${v.name} sign`);
      count('repo.events');
    }
    for (const v of ev.alternate_encodings) {
      for (const e of v.encodings) { eq(sc.parseEvent(e.json).id, v.id, `${v.name} ${e.what}`); count('repo.events'); }
    }
    for (const v of ev.rejects) {
      await F(() => sc.parseEvent(v.json), v.expect, v.name);
      count('repo.events');
    }
  });
  t('nip19: vectors (decode, encode back, every invalid one refused)', async () => {
    for (const v of data.nip19.cases) {
      if (v.valid === false) { await F(() => v.hrp === 'nsec' ? sc.nip19.decodeSecret(v.bech32) : sc.nip19.decode(v.bech32), undefined, v.why); count('nip19'); continue; }
      if (v.hrp === 'nsec') {
        eq(hex(sc.nip19.decodeSecret(v.bech32)), v.hex, 'nsec');
        const id = sc.importNsec(te.encode(v.bech32));
        eq(td.decode(sc.nip19.nsec(id)), v.bech32.toLowerCase(), 'nsec encode');
      } else if (v.hrp === 'npub' || v.hrp === 'note') {
        const e = sc.nip19.decode(v.bech32);
        eq(e.pubkey ?? e.id, v.hex, v.bech32);
        eq(v.hrp === 'npub' ? sc.nip19.npub(v.hex) : sc.nip19.note(v.hex), v.bech32.toLowerCase(), 'encode');
      } else {
        const e = sc.nip19.decode(v.bech32);
        const again = e.type === 'nprofile' ? sc.nip19.nprofile(e) : e.type === 'nevent' ? sc.nip19.nevent(e) : sc.nip19.naddr(e);
        eq(again, v.bech32.toLowerCase(), `${v.hrp} round trip`);
      }
      count('nip19');
    }
  });
  t('nip59: the spec example unwraps to its rumor', () => {
    const x = data.nip59;
    const r = sc.importIdentity(unhex(x.keys.recipient_sec));
    const u = r.unwrap(JSON.stringify(x.wrap), { now: x.wrap.created_at });
    same(u.rumor, x.rumor, 'rumor');
    eq(u.sender, x.keys.author_pub, 'sender');
    eq(u.wrapId, x.wrap.id, 'wrap id');
    count('nip59.spec');
  });
  t('nip17: the spec example (receiver and sender copy)', () => {
    const x = data.nip17;
    for (const w of x.wraps) {
      const me = sc.importIdentity(unhex(w.recipient === 'receiver' ? x.keys.receiver_sec : x.keys.sender_sec));
      const m = me.receive(JSON.stringify(w.wrap), { now: w.wrap.created_at });
      eq(m.content, w.rumor.content, 'content');
      eq(m.sender, x.keys.sender_pub, 'sender');
      eq(m.room, [x.keys.sender_pub, x.keys.receiver_pub], 'room');
      eq(m.kind, 14, 'kind');
      count('nip17.spec');
    }
  });
  t('nip17: kind 14 and 15 round trips, NIP-40, tampered wraps', async () => {
    const a = sc.generateIdentity();
    const b = sc.generateIdentity();
    const now = Math.floor(Date.now() / 1000);
    const ws = a.sendMessage([{ pubkey: b.publicKey, relay: 'wss://b.example' }], te.encode('héllo ✓'), { subject: 'topic', replyTo: 'ab'.repeat(32) });
    eq(ws.length, 2, 'receiver and sender copy');
    eq(ws[1].recipient, a.publicKeyHex, 'self copy last');
    const m = b.receive(ws[0].json);
    eq(m.content, 'héllo ✓', 'content');
    eq(td.decode(m.contentBytes()), 'héllo ✓', 'bytes');
    eq(m.subject, 'topic', 'subject');
    ok(m.tags.some((tg) => tg[0] === 'e' && tg[1] === 'ab'.repeat(32)), 'reply tag');
    m.dispose();
    eq(m.contentBytes().every((x) => x === 0), true, 'wiped by dispose');
    eq(a.receive(ws[1].json).content, 'héllo ✓', 'sender copy');
    await F(() => a.receive(ws[0].json), 'SC_ERR_WRAP_DECRYPT', 'not for a');
    const exp = a.sendMessage([{ pubkey: b.publicKey }], 'gone', { expiration: now + 60 });
    eq(b.receive(exp[0].json, { now }).content, 'gone', 'before expiry');
    await F(() => b.receive(exp[0].json, { now: now + 61 }), 'SC_ERR_WRAP_EXPIRED', 'expired');
    const w = JSON.parse(ws[0].json);
    await F(() => b.receive(JSON.stringify({ ...w, id: 'cd'.repeat(32) })), 'SC_ERR_WRAP_ID', 'id');
    await F(() => b.receive(JSON.stringify({ ...w, kind: 1 })), 'SC_ERR_WRAP_KIND', 'kind');
    await F(() => b.receive(JSON.stringify({ ...w, sig: w.sig.replace(/^./, (c) => (c === '0' ? '1' : '0')) })), 'SC_ERR_WRAP_SIG', 'sig');
    const notChat = a.giftWrap(a.rumor({ kind: 1, content: 'x', tags: [['p', b.publicKeyHex]] }), b.publicKey);
    await F(() => b.receive(notChat.json), 'SC_ERR_MESSAGE', 'kind 1 is not NIP-17');
    eq(b.unwrap(notChat.json).rumor.content, 'x', 'but unwraps');
    const file = await sc.attachments.encrypt(te.encode('attachment body'));
    const fw = a.sendFile([{ pubkey: b.publicKey }], { url: 'https://files.example/x', fileType: 'text/plain', key: file.key, iv: file.iv, x: file.x, ox: file.ox, size: file.size, dim: '1x1' });
    const fm = b.receive(fw[0].json);
    eq(fm.kind, 15, 'kind 15');
    eq(fm.content, 'https://files.example/x', 'url');
    ok(!fm.tags.some((tg) => tg[0] === 'decryption-key'), 'no key string in the tags');
    eq(hex(fm.file.key), hex(file.key), 'key bytes');
    eq(td.decode(await sc.attachments.decrypt(file.blob, fm.file.key, fm.file.iv)), 'attachment body', 'file');
    count('nip17.roundtrip');
  });
  t('attachments: kind 15 AES-GCM vectors, streams, tag before release, size cap', async () => {
    for (const v of data.kind15.cases) {
      // the legacy variant: the IV is the 32 ASCII bytes of the nonce tag's hex
      const iv = v.nonce !== undefined ? unhex(v.nonce) : te.encode(v.nonce_tag_value);
      const pt = await readAll(streamOf(unhex(v.encrypted_blob)).pipeThrough(sc.attachments.decryptStream(unhex(v.key), iv)));
      eq(hex(pt), v.plaintext, v.note ?? 'kind 15 vector');
      count('kind15');
    }
    const body = new Uint8Array(200000).map((_, i) => (i * 7) & 255);
    const enc = sc.attachments.encryptStream();
    const blob = await readAll(streamOf(body, 65000).pipeThrough(enc));
    const r = await enc.result;
    eq(r.size, blob.length, 'size');
    eq(r.x, await sha256(blob), 'x');
    eq(r.ox, await sha256(body), 'ox');
    eq(hex(await readAll(streamOf(blob, 4096).pipeThrough(sc.attachments.decryptStream(r.key, r.iv)))), hex(body), 'round trip');
    for (const at of [0, 1000, blob.length - 17, blob.length - 1]) {
      const bad = blob.slice();
      bad[at] ^= 1;
      const seen = [];
      const ds = sc.attachments.decryptStream(r.key, r.iv);
      const sink = new WritableStream({ write(c) { seen.push(c); } });
      await F(() => streamOf(bad, 5000).pipeThrough(ds).pipeTo(sink), 'SC_ERR_AUTH', `bit ${at}`);
      eq(seen.length, 0, `nothing released (bit ${at})`);
    }
    await F(() => sc.attachments.decrypt(blob, r.key, r.iv, { maxBytes: 1000 }), 'SC_ERR_TOO_LARGE', 'cap');
    count('attachments');
  });
  t('negentropy: two sides learn what each lacks', () => {
    const mk = (ids) => ids.map((k, i) => ({ createdAt: 1000 + i, id: k.repeat(64) }));
    const a = sc.negentropy(mk(['1', '2', '3', '4']));
    const b = sc.negentropy(mk(['1', '2', '5', '4']));
    let msg = a.initiate();
    const have = [];
    const need = [];
    for (let round = 0; msg && round < 10; round++) {
      const reply = b.reconcile(msg).reply;
      const r = a.reconcile(reply);
      have.push(...r.have);
      need.push(...r.need);
      msg = r.reply;
    }
    eq(have, ['3'.repeat(64)], 'have');
    eq(need, ['5'.repeat(64)], 'need');
    count('negentropy');
  });
  t('identities: dispose, Symbol.dispose, exportSecret, disposed objects and instances', async () => {
    const sk = unhex(data.events.events[0].sk);
    const id = sc.importIdentity(sk);
    eq(hex(id.exportSecret()), hex(sk), 'export');
    const conv = id.conversation(id.publicKey);
    id.dispose();
    id.dispose();
    ok(id.disposed, 'disposed');
    await F(() => id.sign({ kind: 1, content: '' }), 'SC_ERR_STATE', 'sign after dispose');
    await F(() => id.nip44Encrypt(id.publicKey, 'x'), 'SC_ERR_STATE', 'encrypt after dispose');
    eq(conv.decrypt(conv.encrypt('still held')), 'still held', 'a conversation outlives its identity');
    conv[Symbol.dispose]();
    await F(() => conv.encrypt('x'), 'SC_ERR_STATE', 'conversation after dispose');
    const scoped = sc.importIdentity(sk);
    scoped[Symbol.dispose]();
    ok(scoped.disposed, 'Symbol.dispose disposes');
    const other = await lib.Softchat.load();
    const left = other.importIdentity(sk);
    const heldConv = left.conversation(left.publicKey);
    other.dispose();
    await F(() => left.exportSecret(), 'SC_ERR_STATE', 'an identity of a disposed instance');
    await F(() => heldConv.encrypt('x'), 'SC_ERR_STATE', 'a conversation of a disposed instance');
    left.dispose();
    heldConv.dispose();
    count('lifetimes');
  });
  return list;
}

/** The relay end-to-end used by the browser and Node tests: b subscribes, a sends. */
export async function relayExchange(sc, url, sender, receiver, text, opts = {}) {
  const got = new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('no message within 20 s')), 20000);
    const s = sc.relay(url, opts);
    s.subscribe('inbox', [{ kinds: [1059], '#p': [receiver.publicKeyHex] }], {
      onEvent(ev) {
        try {
          const m = receiver.receive(JSON.stringify(ev));
          clearTimeout(timer);
          s.dispose();
          resolve(m.content);
        } catch (e) { /* another wrap: keep waiting */ }
      },
    });
    s.connect();
  });
  const pub = sc.relay(url, opts);
  pub.connect();
  const wraps = sender.sendMessage([{ pubkey: receiver.publicKey }], text);
  const results = await Promise.all(wraps.map((w) => pub.publish(w.event)));
  pub.dispose();
  ok(results.every((r) => r.accepted), `published: ${JSON.stringify(results)}`);
  return got;
}
