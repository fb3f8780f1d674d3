// nip46.interop-node: libsoftchat's NIP-46 against nostr-tools (the pinned copy that the
// interop-node.setup fixture installs). nostr-tools makes requests exactly as its BunkerSigner
// does (nip44 encrypt of {id, method, params}, finalizeEvent of a kind 24133 event p-tagging
// the bunker); tests/nip46/nip46_peer.c plays the bunker; nostr-tools verifies and decrypts
// each response and checks its result. URIs go both ways: toBunkerURL and
// createNostrConnectURI parsed by libsoftchat, libsoftchat's bunker:// read by
// parseBunkerInput.
//   node interop.mjs --peer PATH --backend NAME --modules DIR (DIR: the fixture's folder)
import { spawnSync } from 'node:child_process';
import { pathToFileURL } from 'node:url';
import path from 'node:path';
import assert from 'node:assert/strict';

const args = Object.fromEntries(
  process.argv.slice(2).reduce((acc, v, i, a) => (i % 2 === 0 ? [...acc, [v.slice(2), a[i + 1]]] : acc), []));
const lib = (p) => import(pathToFileURL(path.join(args.modules, 'node_modules/nostr-tools/lib/esm', p)).href);
const pure = await lib('pure.js');
const nip44 = await lib('nip44.js');
const nip46 = await lib('nip46.js');
const bytesToHex = (b) => Buffer.from(b).toString('hex');

function peer(cmd, input) {
  const r = spawnSync(args.peer, [args.backend, ...cmd], { input, encoding: 'utf8' });
  assert.equal(r.status, 0, `nip46_peer ${cmd[0]}: ${r.stderr}`);
  return r.stdout;
}

let passed = 0;
function ok(name) {
  passed++;
  console.log(`ok ${passed} ${name}`);
}

// ---- URIs ----------------------------------------------------------------------------------
const bunkerSk = pure.generateSecretKey(), userSk = pure.generateSecretKey();
const clientSk = pure.generateSecretKey(), thirdSk = pure.generateSecretKey();
const bunkerPk = pure.getPublicKey(bunkerSk), userPk = pure.getPublicKey(userSk);
const clientPk = pure.getPublicKey(clientSk), thirdPk = pure.getPublicKey(thirdSk);

{
  const url = nip46.toBunkerURL({ pubkey: bunkerPk, relays: ['wss://a.example', 'wss://b.example/x?y=1'],
    secret: 'se cret+/&' });
  const got = peer(['uri-parse', url]).split('\n');
  assert.deepEqual(got.slice(0, 5), ['kind=bunker', `pubkey=${bunkerPk}`, 'relay=wss://a.example',
    'relay=wss://b.example/x?y=1', 'secret=se cret+/&']);
  ok('toBunkerURL read by sc_nip46_uri_parse');
}
{
  const uri = nip46.createNostrConnectURI({ clientPubkey: clientPk, relays: ['wss://r.example'],
    secret: 's3', perms: ['sign_event:14', 'nip44_encrypt'], name: 'My App é',
    url: 'https://app.example', image: 'https://app.example/i.png' });
  const got = peer(['uri-parse', uri]).trim().split('\n');
  assert.deepEqual(got, ['kind=nostrconnect', `pubkey=${clientPk}`, 'relay=wss://r.example',
    'secret=s3', 'perms=sign_event:14,nip44_encrypt', 'name=My App é', 'url=https://app.example',
    'image=https://app.example/i.png']);
  ok('createNostrConnectURI read by sc_nip46_uri_parse');
}
{
  const uri = peer(['uri-build', bunkerPk, 'a b+c', 'wss://a.example', 'wss://b.example']).trim();
  const bp = await nip46.parseBunkerInput(uri);
  assert.ok(bp, `parseBunkerInput refused ${uri}`);
  assert.equal(bp.pubkey, bunkerPk);
  assert.deepEqual(bp.relays, ['wss://a.example', 'wss://b.example']);
  assert.equal(bp.secret, 'a b+c');
  ok('sc_nip46_uri_build read by parseBunkerInput');
}

// ---- requests from nostr-tools, answered by libsoftchat's bunker ----------------------------
const conv = nip44.getConversationKey(clientSk, bunkerPk);
let serial = 0;
function request(method, params) {
  const id = `it-${++serial}`;
  const ev = pure.finalizeEvent({ kind: 24133, tags: [['p', bunkerPk]],
    content: nip44.encrypt(JSON.stringify({ id, method, params }), conv),
    created_at: Math.floor(Date.now() / 1000) }, clientSk);
  return { id, json: JSON.stringify(ev) };
}
const calls = [
  ['connect', [bunkerPk, 'wrong']],
  ['connect', [bunkerPk, 'the-secret']],
  ['ping', []],
  ['get_public_key', []],
  ['sign_event', [JSON.stringify({ kind: 1, content: 'from nostr-tools "quoted" é', tags: [['t', 'x']],
    created_at: 1700000000 })]],
  ['sign_event', [JSON.stringify({ kind: 4, content: 'x', tags: [], created_at: 1700000000 })]],
  ['nip44_encrypt', [thirdPk, 'to the third party ✓']],
  ['nip44_decrypt', [thirdPk, nip44.encrypt('from the third party ✓',
    nip44.getConversationKey(thirdSk, userPk))]],
  ['nip04_encrypt', [thirdPk, 'no']],
  ['switch_relays', []],
];
const reqs = calls.map(([m, p]) => request(m, p));
const lines = peer(['bunker', bytesToHex(bunkerSk), bytesToHex(userSk),
  'connect,ping,get_public_key,sign_event:1,nip44_encrypt,nip44_decrypt', 'the-secret'],
  reqs.map((r) => r.json).join('\n') + '\n').trim().split('\n');
assert.equal(lines.length, reqs.length);
const answers = lines.map((line, i) => {
  const ev = JSON.parse(line);
  assert.ok(pure.verifyEvent(ev), `response ${i} does not verify`);
  assert.equal(ev.kind, 24133);
  assert.equal(ev.pubkey, bunkerPk);
  assert.deepEqual(ev.tags, [['p', clientPk]]);
  const rpc = JSON.parse(nip44.decrypt(ev.content, conv));
  assert.equal(rpc.id, reqs[i].id);
  return rpc;
});
assert.equal(answers[0].error, 'invalid secret');
assert.equal(answers[1].result, 'ack');
assert.equal(answers[2].result, 'pong');
assert.equal(answers[3].result, userPk);
ok('connect (wrong and right secret), ping, get_public_key');
{
  const signed = JSON.parse(answers[4].result);
  assert.ok(pure.verifyEvent(signed));
  assert.equal(signed.pubkey, userPk);
  assert.equal(signed.content, 'from nostr-tools "quoted" é');
  assert.deepEqual(signed.tags, [['t', 'x']]);
  assert.equal(answers[5].error, 'permission denied');
  ok('sign_event: signed by the user key, verified by nostr-tools; another kind refused');
}
assert.equal(nip44.decrypt(answers[6].result, nip44.getConversationKey(thirdSk, userPk)),
  'to the third party ✓');
assert.equal(answers[7].result, 'from the third party ✓');
ok('nip44_encrypt and nip44_decrypt through the bunker');
assert.match(answers[8].error, /nip04 is not supported/);
ok('nip04_encrypt refused with a reason');
assert.equal(JSON.parse(answers[9].result), null);
ok('switch_relays answered null (keep the relays), as BunkerSigner.switchRelays reads it');
{
  const other = pure.finalizeEvent({ kind: 24133, tags: [['p', thirdPk]], content: 'x',
    created_at: 1700000000 }, clientSk);
  const out = peer(['bunker', bytesToHex(bunkerSk), bytesToHex(userSk), 'ping', '-'],
    JSON.stringify(other) + '\n').trim();
  assert.equal(out, 'refused SC_ERR_NIP46_SENDER');
  ok('a request for another bunker is not opened');
}
console.log(`nip46 interop: ${passed} passed`);
