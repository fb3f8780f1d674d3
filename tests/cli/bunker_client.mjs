// cli.bunker's nostr-tools client: nostr-tools' own BunkerSigner (the pinned copy the
// interop-node.setup fixture installs) connects to `softchat bunker` over a relay, from the
// URI the bunker printed, and uses it: first a client that never connects asks for a
// sign_event of the granted kind (must be refused: "not connected"); then connect, ping,
// get_public_key, sign_event of a granted kind (verified), nip44_encrypt (decrypted here with
// the third party's key) and a sign_event of a kind not granted (must be refused). Prints one "ok N name" line per check; any failure
// throws (exit 1).
//   node --experimental-websocket bunker_client.mjs --modules DIR --uri URI --user HEX
//        --granted-kind N --refused-kind N
import { pathToFileURL } from 'node:url';
import path from 'node:path';
import assert from 'node:assert/strict';

const args = Object.fromEntries(
  process.argv.slice(2).reduce((acc, v, i, a) => (i % 2 === 0 ? [...acc, [v.slice(2), a[i + 1]]] : acc), []));
const lib = (p) => import(pathToFileURL(path.join(args.modules, 'node_modules/nostr-tools/lib/esm', p)).href);
const pure = await lib('pure.js');
const nip44 = await lib('nip44.js');
const nip46 = await lib('nip46.js');

let passed = 0;
function ok(name) {
  passed++;
  console.log(`ok ${passed} ${name}`);
}

const within = (p, what) => Promise.race([p, new Promise((_, reject) =>
  setTimeout(() => reject(new Error(`${what}: no answer within 20 s`)), 20000))]);

const bp = await nip46.parseBunkerInput(args.uri);
assert.ok(bp, 'parseBunkerInput read the bunker URI');
const stranger = nip46.BunkerSigner.fromBunker(pure.generateSecretKey(), bp);
try {
  await assert.rejects(within(stranger.signEvent({ kind: Number(args['granted-kind']),
    content: 'not connected', tags: [], created_at: Math.floor(Date.now() / 1000) }),
  'sign_event without connect'), (e) => typeof e === 'string' && e.includes('not connected'));
  ok('a client that never connected: sign_event refused, "not connected"');
} finally {
  await stranger.close();
  stranger.pool.close(bp.relays);
}
const signer = nip46.BunkerSigner.fromBunker(pure.generateSecretKey(), bp);
try {
  await within(signer.connect(), 'connect');
  ok('connect with the URI secret');
  await within(signer.ping(), 'ping');
  ok('ping');
  assert.equal(await within(signer.getPublicKey(), 'get_public_key'), args.user);
  ok('get_public_key is the user key');
  const kind = Number(args['granted-kind']);
  const signed = await within(signer.signEvent({ kind, content: 'sealed', tags: [],
    created_at: Math.floor(Date.now() / 1000) }), 'sign_event');
  assert.equal(signed.pubkey, args.user);
  assert.equal(signed.kind, kind);
  assert.ok(pure.verifyEvent(signed));
  ok(`sign_event kind ${kind}: signed by the user key, verified`);
  const thirdSk = pure.generateSecretKey();
  const payload = await within(signer.nip44Encrypt(pure.getPublicKey(thirdSk), 'hi there'),
    'nip44_encrypt');
  assert.equal(nip44.decrypt(payload, nip44.getConversationKey(thirdSk, args.user)), 'hi there');
  ok('nip44_encrypt: the third party decrypts it');
  const refused = Number(args['refused-kind']);
  await assert.rejects(within(signer.signEvent({ kind: refused, content: 'no', tags: [],
    created_at: Math.floor(Date.now() / 1000) }), 'sign_event (refused)'),
  (e) => typeof e === 'string' && e.length > 0);
  ok(`sign_event kind ${refused}: refused with an error`);
} finally {
  await signer.close();
  signer.pool.close(bp.relays);
}
console.log(`${passed} passed`);
process.exit(0);
