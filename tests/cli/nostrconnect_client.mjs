// cli.bunker's nostrconnect:// client: nostr-tools' own BunkerSigner (the pinned copy the
// interop-node.setup fixture installs) starts the pairing. It makes a client key and a
// nostrconnect:// URI (createNostrConnectURI, with a secret) for the relay, prints the URI as
// its first line, and waits (BunkerSigner.fromURI) for a remote signer's connect response
// carrying that secret; the test hands the URI to `softchat bunker --connect`. Then, without a
// connect request of its own: get_public_key (the user key), sign_event of the granted kind
// (verified, signed by the user key). Prints one "ok N name" line per check; any failure
// throws (exit 1).
//   node --experimental-websocket nostrconnect_client.mjs --modules DIR --relay URL
//        --user HEX --granted-kind N
import { pathToFileURL } from 'node:url';
import path from 'node:path';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';

const args = Object.fromEntries(
  process.argv.slice(2).reduce((acc, v, i, a) => (i % 2 === 0 ? [...acc, [v.slice(2), a[i + 1]]] : acc), []));
const lib = (p) => import(pathToFileURL(path.join(args.modules, 'node_modules/nostr-tools/lib/esm', p)).href);
const pure = await lib('pure.js');
const nip46 = await lib('nip46.js');

let passed = 0;
function ok(name) {
  passed++;
  console.log(`ok ${passed} ${name}`);
}

const within = (p, what) => Promise.race([p, new Promise((_, reject) =>
  setTimeout(() => reject(new Error(`${what}: no answer within 20 s`)), 20000))]);

const sk = pure.generateSecretKey();
const uri = nip46.createNostrConnectURI({
  clientPubkey: pure.getPublicKey(sk), relays: [args.relay],
  secret: randomBytes(8).toString('hex'), name: 'softchat test client',
});
const pairing = nip46.BunkerSigner.fromURI(sk, uri, {}, 30000);
console.log(uri); // the test starts the bunker with it now
const signer = await pairing;
try {
  ok('paired: the remote signer answered the URI\'s secret');
  assert.equal(await within(signer.getPublicKey(), 'get_public_key'), args.user);
  ok('get_public_key is the user key, without a connect request');
  const kind = Number(args['granted-kind']);
  const signed = await within(signer.signEvent({ kind, content: 'paired', tags: [],
    created_at: Math.floor(Date.now() / 1000) }), 'sign_event');
  assert.equal(signed.pubkey, args.user);
  assert.ok(pure.verifyEvent(signed));
  ok(`sign_event kind ${kind}: signed by the user key, verified`);
} finally {
  await signer.close();
  signer.pool.close([args.relay]);
}
console.log(`${passed} passed`);
process.exit(0);
