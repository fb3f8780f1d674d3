// Hostile input through the API: huge strings, lone UTF-16 surrogates, values of the wrong
// type, disposed objects. Each must give a SoftchatError with its status (never another
// exception, never a dead module), and 100,000 failing calls must leave the wasm heap as it
// was (malloc'd bytes and memory size). Run in Node and in Chromium like test/cases.mjs.
import { eq, fails, ok } from './cases.mjs';

export const HOSTILE_CALLS = 100000;

export function hostile(sc, lib) {
  const F = (fn, name, what) => fails(fn, name, what, lib.SoftchatError);
  const list = [];
  const t = (name, fn) => list.push([name, fn]);
  const huge = 'x'.repeat(8 * 1024 * 1024);
  const lone = ['a\ud800b', '\udc00', 'end\ud83d', '\udfff\ud800'];
  const wrong = [undefined, null, 42, 1.5, true, {}, [], () => 1, Symbol('s'), 10n, new Uint16Array(32)];

  t('hostile: huge strings are SC_ERR_TOO_LARGE before wasm memory is taken', async () => {
    const id = sc.generateIdentity();
    const heap = sc.heapBytes();
    await F(() => sc.parseEvent(huge), 'SC_ERR_TOO_LARGE', 'event');
    await F(() => id.receive(huge), 'SC_ERR_TOO_LARGE', 'wrap');
    await F(() => id.unwrap(huge), 'SC_ERR_TOO_LARGE', 'unwrap');
    await F(() => id.nip44Decrypt(id.publicKey, huge), 'SC_ERR_TOO_LARGE', 'payload');
    await F(() => id.sign({ kind: 1, content: huge }), 'SC_ERR_TOO_LARGE', 'content');
    await F(() => id.sendMessage([{ pubkey: id.publicKey }], huge), 'SC_ERR_TOO_LARGE', 'message');
    await F(() => sc.nip19.decode(huge), 'SC_ERR_TOO_LARGE', 'nip19');
    await F(() => id.nip44Encrypt(id.publicKey, 'y'.repeat(17 * 1024 * 1024)), 'SC_ERR_TOO_LARGE', 'plaintext');
    eq(sc.heapBytes(), heap, 'wasm memory did not grow');
    id.dispose();
  });
  t('hostile: lone surrogates are SC_ERR_UTF8 (never silently replaced)', async () => {
    const id = sc.generateIdentity();
    for (const s of lone) {
      await F(() => id.nip44Encrypt(id.publicKey, s), 'SC_ERR_UTF8', `plaintext ${escape(s)}`);
      await F(() => id.sign({ kind: 1, content: s }), undefined, `content ${escape(s)}`);
      await F(() => id.sign({ kind: 1, content: '', tags: [['t', s]] }), undefined, `tag ${escape(s)}`);
      await F(() => id.sendMessage([{ pubkey: id.publicKey }], s), 'SC_ERR_UTF8', `message ${escape(s)}`);
      await F(() => id.sendMessage([{ pubkey: id.publicKey, relay: s }], 'x'), 'SC_ERR_UTF8', `relay ${escape(s)}`);
      await F(() => sc.parseEvent(s), 'SC_ERR_UTF8', `event text ${escape(s)}`);
      await F(() => sc.nip19.decode(s), 'SC_ERR_UTF8', `nip19 ${escape(s)}`);
      await F(() => id.receive(s), 'SC_ERR_UTF8', `wrap ${escape(s)}`);
    }
    id.dispose();
  });
  t('hostile: values of the wrong type are SoftchatErrors', async () => {
    const id = sc.generateIdentity();
    for (const v of wrong) {
      const what = typeof v;
      await F(() => sc.importIdentity(v), 'SC_ERR_ARG', `import ${what}`);
      await F(() => id.nip44Encrypt(v, 'x'), 'SC_ERR_ARG', `peer ${what}`);
      if (typeof v !== 'object' || v === null) await F(() => id.nip44Encrypt(id.publicKey, v), 'SC_ERR_ARG', `plaintext ${what}`);
      await F(() => id.nip44Decrypt(id.publicKey, v), 'SC_ERR_ARG', `payload ${what}`);
      await F(() => id.receive(v), 'SC_ERR_ARG', `wrap ${what}`);
      await F(() => id.sign(v), undefined, `template ${what}`);
      if (v !== 42) await F(() => id.sign({ kind: v, content: 'x' }), undefined, `kind ${what}`);
      if (v !== undefined && v !== null && !Array.isArray(v)) await F(() => id.sign({ kind: 1, content: 'x', tags: v }), undefined, `tags ${what}`);
      await F(() => id.sendMessage(v, 'x'), undefined, `receivers ${what}`);
      await F(() => sc.verifySchnorr(v, v, v), 'SC_ERR_ARG', `verify ${what}`);
      await F(() => sc.nip19.decode(v), 'SC_ERR_ARG', `nip19 ${what}`);
      if (!Array.isArray(v)) await F(() => sc.negentropy(v), undefined, `negentropy ${what}`);
      await F(() => sc.attachments.decryptStream(v, v), 'SC_ERR_ARG', `attachment key ${what}`);
    }
    await F(() => id.nip44Encrypt(id.publicKey, new Uint8Array(0)), undefined, 'empty plaintext');
    await F(() => sc.importIdentity(new Uint8Array(31)), 'SC_ERR_ARG', 'short key');
    await F(() => sc.importIdentity(new Uint8Array(32)), 'SC_ERR_INVALID_KEY', 'zero key');
    await F(() => id.nip44Encrypt('zz'.repeat(32), 'x'), 'SC_ERR_ARG', 'peer not hex');
    await F(() => id.sign({ kind: 70000, content: '' }), 'SC_ERR_EVENT_RANGE', 'kind range');
    id.dispose();
  });
  t('hostile: relay sessions and pools refuse bad input with the typed error', async () => {
    const pool = sc.pool({ WebSocket: class { constructor() { throw new Error('no sockets in this test'); } } });
    await F(() => pool.addRelay('http://not-a-relay'), 'SC_ERR_ENCODING', 'scheme');
    await F(() => pool.addRelay(42), 'SC_ERR_ARG', 'url type');
    await F(() => pool.subscribe('s', [{ kinds: ['x'] }], ['wss://r.example'], { onEvent() {} }), 'SC_ERR_FILTER', 'filter');
    await F(() => pool.subscribe('s', 'nope', ['wss://r.example'], { onEvent() {} }), 'SC_ERR_ARG', 'filters type');
    await F(() => pool.subscribe('x'.repeat(65), [{}], ['wss://r.example'], { onEvent() {} }), 'SC_ERR_TOO_LARGE', 'sub id');
    await F(() => pool.publish({ kind: 1 }, ['wss://r.example']), 'SC_ERR_EVENT_FIELD', 'unsigned event');
    await F(() => pool.publish('{}', []), 'SC_ERR_ARG', 'no relay');
    await F(() => sc.pool({ auth: 'sometimes' }), undefined, 'auth policy');
    const s = sc.relay('ws://127.0.0.1:1');
    await F(() => s.subscribe('s', [{ ids: ['zz'] }], { onEvent() {} }), 'SC_ERR_FILTER', 'session filter');
    s.dispose();
    pool.dispose();
    await F(() => pool.addRelay('wss://r.example'), 'SC_ERR_STATE', 'disposed pool');
    await F(() => s.subscribe('s', [{}], { onEvent() {} }), 'SC_ERR_STATE', 'disposed session');
  });
  t('hostile: disposed objects are SC_ERR_STATE', async () => {
    const id = sc.generateIdentity();
    const conv = id.conversation(id.publicKey);
    const neg = sc.negentropy([]);
    id.dispose();
    conv.dispose();
    neg.dispose();
    await F(() => id.exportSecret(), 'SC_ERR_STATE', 'identity');
    await F(() => id.receive('{}'), 'SC_ERR_STATE', 'identity receive');
    await F(() => id.conversation(id.publicKey), 'SC_ERR_STATE', 'identity conversation');
    await F(() => conv.decrypt('AA'), 'SC_ERR_STATE', 'conversation');
    await F(() => neg.initiate(), 'SC_ERR_STATE', 'negentropy');
    ok(id.publicKeyHex.length === 64, 'the public key stays readable');
  });
  t(`hostile: ${HOSTILE_CALLS} failing calls leave the wasm heap as it was`, async () => {
    const id = sc.generateIdentity();
    const other = sc.generateIdentity();
    const wrap = id.sendMessage([{ pubkey: other.publicKey }], 'x')[0].json;
    const badWrap = wrap.replace(/"sig":"./, (m) => m.slice(0, -1) + (m.endsWith('0"') ? '1' : '0'));
    // cheap failures in the loop; the costly ones (a wrap that fails after ECDH and
    // decryption, a bad signature) every 500th call
    const conv = id.conversation(other.publicKey);
    const costly = [() => id.receive(wrap), () => other.receive(badWrap), () => id.nip44Decrypt(other.publicKey, 'AAAA')];
    const calls = [
      () => sc.parseEvent('{"id":1}'),
      () => conv.decrypt('AAAA'),
      () => sc.nip19.decode('npub1xxxx'),
      () => id.nip44Encrypt(other.publicKey, 'a\ud800'),
      () => sc.importIdentity(new Uint8Array(32)),
      () => id.sign({ kind: -1, content: '' }),
      () => sc.verifySchnorr(new Uint8Array(63), new Uint8Array(32), new Uint8Array(32)),
      () => { throw new lib.SoftchatError(-1, 'SC_ERR_ARG'); },
    ];
    for (const c of [...calls, ...costly]) { try { c(); } catch { /* warm up */ } }
    const used = sc.heapInUse();
    const mem = sc.heapBytes();
    let failed = 0;
    for (let i = 0; i < HOSTILE_CALLS; i++) {
      try {
        (i % 500 === 0 ? costly[(i / 500) % costly.length] : calls[i % calls.length])();
      } catch (e) {
        if (!(e instanceof lib.SoftchatError)) throw e;
        failed++;
      }
    }
    ok(failed >= HOSTILE_CALLS * 0.9, `calls failed with the typed error: ${failed}`);
    eq(sc.heapInUse(), used, 'malloc\'d bytes after the calls');
    eq(sc.heapBytes(), mem, 'wasm memory size after the calls');
    eq(other.receive(wrap).content, 'x', 'the module still works');
    conv.dispose();
    id.dispose();
    other.dispose();
  });
  return list;
}
