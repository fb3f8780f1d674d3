// Cross-implementation checks of the softchat CLI against nostr-tools (the exact version of
// package-lock.json) and node's built-in AES-256-GCM, for one backend:
//
//   node interop.mjs --cli PATH/TO/softchat --backend NAME [--wrap "valgrind -q ..."]
//
// --wrap runs every CLI invocation under a command prefix (split at spaces), e.g. valgrind.
// Run it from a folder where `npm ci` installed package-lock.json (tests/interop-node/suite.cmake
// does that in the build tree). Four categories, each case printed, counts at the end:
//   a  gift wraps and NIP-17 messages made by nostr-tools, opened by the CLI
//   b  gift wraps and NIP-17 messages made by the CLI, opened by nostr-tools
//   c  gift wraps broken at one layer, built here with nostr-tools' primitives, refused by the
//      CLI with the token of that layer
//   d  kind 15 attachments: CLI blobs opened by node's AES-256-GCM and node blobs (12- and
//      16-byte IVs, the legacy ASCII IV) opened by the CLI; tampered blobs refused, no output
//   e  NIP-98 HTTP auth both ways: headers signed by the CLI accepted by nip98.validateToken /
//      validateEvent (with a body), tokens made by nip98.getToken accepted by `nip98 verify`,
//      and nostr-tools-signed events failing one check refused with its token
//   f  NIP-49 both ways: nip49.encrypt strings (passwords not in NFKC among them) opened by
//      `nip49 decrypt`, CLI strings opened by nip49.decrypt (on backends with scrypt)
// Exit 0 when every case passed, 1 otherwise (2 on a setup error).

import { spawnSync } from 'node:child_process';
import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isDeepStrictEqual } from 'node:util';

import * as nip17 from 'nostr-tools/nip17';
import * as nip49 from 'nostr-tools/nip49';
import * as nip98 from 'nostr-tools/nip98';
import * as nip59 from 'nostr-tools/nip59';
import { v2 as nip44 } from 'nostr-tools/nip44';
import { finalizeEvent, generateSecretKey, getEventHash, getPublicKey, verifyEvent } from 'nostr-tools/pure';

const PINNED = '2.25.2'; // the nostr-tools of vectors/gen/package.json
const MIB = 1024 * 1024;

// ---- command line and setup ---------------------------------------------------------------

function arg(name, optional = false) {
  const i = process.argv.indexOf(name);
  if (optional && i < 0) return null;
  if (i < 0 || i + 1 >= process.argv.length) {
    console.error(`usage: node interop.mjs --cli PATH --backend NAME (missing ${name})`);
    process.exit(2);
  }
  return process.argv[i + 1];
}

const CLI = arg('--cli');
const BACKEND = arg('--backend');
const WRAP = (arg('--wrap', true) || '').split(' ').filter((w) => w !== '');
const here = dirname(fileURLToPath(import.meta.url));
const loaded = JSON.parse(readFileSync(join(here, 'node_modules', 'nostr-tools', 'package.json'), 'utf8')).version;
if (loaded !== PINNED) {
  console.error(`FAIL: nostr-tools ${loaded} is installed here, the test pins ${PINNED}: run npm ci`);
  process.exit(2);
}
const work = mkdtempSync(join(tmpdir(), 'softchat-interop-'));
process.on('exit', () => rmSync(work, { recursive: true, force: true }));

// ---- helpers -------------------------------------------------------------------------------

const hex = (b) => Buffer.from(b).toString('hex');
const sha256 = (b) => createHash('sha256').update(b).digest('hex');
const nowSec = () => Math.floor(Date.now() / 1000);

class Failure extends Error {}
function check(cond, msg) {
  if (!cond) throw new Failure(msg);
}
function same(got, want, what) {
  check(isDeepStrictEqual(got, want), `${what}: got ${JSON.stringify(got)?.slice(0, 400)}, ` +
    `expected ${JSON.stringify(want)?.slice(0, 400)}`);
}

function cli(args, input = '') {
  const argv = [...WRAP, CLI, '--backend', BACKEND, ...args];
  const r = spawnSync(argv[0], argv.slice(1), { input, maxBuffer: 512 * MIB });
  if (r.error) throw r.error;
  return { rc: r.status, signal: r.signal, out: r.stdout, err: r.stderr.toString() };
}
function describe(r) {
  return `rc=${r.rc}${r.signal ? ' signal=' + r.signal : ''} stdout=${JSON.stringify(r.out.toString().slice(0, 200))} ` +
    `stderr=${JSON.stringify(r.err.slice(0, 400))}`;
}
function expectOk(r, what) {
  check(r.rc === 0 && r.err === '', `${what}: expected exit 0 and a quiet stderr: ${describe(r)}`);
}
function expectInvalid(r, needle, what) {
  const lines = r.err.split('\n').filter((l) => l !== '');
  check(r.rc === 1 && r.out.length === 0 && lines.length === 1 && lines[0].includes(needle),
    `${what}: expected exit 1, nothing on stdout and one stderr line with ${JSON.stringify(needle)}: ${describe(r)}`);
}
function lines(r) {
  return r.out.toString().split('\n').filter((l) => l !== '');
}

let keyFiles = 0;
const keyPaths = new Map();
function keyFile(sk) {
  const h = hex(sk);
  if (!keyPaths.has(h)) {
    const p = join(work, `key-${keyFiles++}`);
    writeFileSync(p, h + '\n', { mode: 0o600 });
    keyPaths.set(h, p);
  }
  return keyPaths.get(h);
}

let dirs = 0;
function freshDir() {
  const d = join(work, `files-${dirs++}`);
  mkdirSync(d);
  return d;
}
const listing = (d) => readdirSync(d).sort();

// The rumor fields the CLI prints, in its order.
const RUMOR_KEYS = ['id', 'pubkey', 'created_at', 'kind', 'tags', 'content'];
function rumorView(ev) {
  return Object.fromEntries(RUMOR_KEYS.map((k) => [k, ev[k]]));
}
// The NIP-17 room of a rumor: the author, then each distinct p-tagged key, in order.
function roomOf(rumor) {
  const room = [rumor.pubkey];
  for (const t of rumor.tags) {
    if (t[0] === 'p' && !room.includes(t[1])) room.push(t[1]);
  }
  return room;
}
function messageOf(rumor) {
  return {
    from: rumor.pubkey, room: roomOf(rumor), kind: rumor.kind, id: rumor.id,
    created_at: rumor.created_at, content: rumor.content, tags: rumor.tags,
  };
}

const unwrapCli = (sk, wrap) => cli(['nip59', 'unwrap', '--sec-file', keyFile(sk)], wrap);
const receiveCli = (sk, stream) => cli(['nip17', 'receive', '--sec-file', keyFile(sk)], stream);

// ---- bookkeeping ---------------------------------------------------------------------------

const CATEGORIES = {
  a: 'a: nostr-tools -> softchat (nip59.wrapEvent, nip17.wrapEvent/wrapManyEvents)',
  b: 'b: softchat -> nostr-tools (nip59/nip17 unwrapEvent)',
  c: 'c: forged layers refused with their token',
  d: 'd: kind 15 attachments with node AES-256-GCM',
  e: 'e: NIP-98 HTTP auth (nip98.getToken / validateToken) both ways',
  f: 'f: NIP-49 ncryptsec (nip49.encrypt / decrypt) both ways',
};
const counts = Object.fromEntries(Object.keys(CATEGORIES).map((c) => [c, { pass: 0, fail: 0, skip: 0 }]));
const failures = [];

function kase(cat, name, fn) {
  const start = Date.now();
  try {
    fn();
    counts[cat].pass++;
    console.log(`ok   [${BACKEND}] ${cat} / ${name} (${((Date.now() - start) / 1000).toFixed(1)}s)`);
  } catch (e) {
    counts[cat].fail++;
    const msg = e instanceof Failure ? e.message : (e.stack || String(e));
    failures.push(`${cat} / ${name}: ${msg}`);
    console.log(`FAIL [${BACKEND}] ${cat} / ${name}: ${msg}`);
  }
}
// kase for a check that awaits nostr-tools (its nip98 functions are async).
async function kaseAsync(cat, name, fn) {
  const start = Date.now();
  try {
    await fn();
    counts[cat].pass++;
    console.log(`ok   [${BACKEND}] ${cat} / ${name} (${((Date.now() - start) / 1000).toFixed(1)}s)`);
  } catch (e) {
    counts[cat].fail++;
    const msg = e instanceof Failure ? e.message : (e.stack || String(e));
    failures.push(`${cat} / ${name}: ${msg}`);
    console.log(`FAIL [${BACKEND}] ${cat} / ${name}: ${msg}`);
  }
}
async function rejects(promise) {
  try {
    await promise;
    return false;
  } catch {
    return true;
  }
}
function skip(cat, name, why, n = 1) {
  counts[cat].skip += n;
  console.log(`SKIP [${BACKEND}] ${cat} / ${name}: ${why}`);
}

// ---- keys and texts ------------------------------------------------------------------------

const alice = generateSecretKey();
const bob = generateSecretKey();
const carol = generateSecretKey();
const mallory = generateSecretKey();
const [alicePk, bobPk, carolPk] = [alice, bob, carol].map((k) => getPublicKey(k));

const TEXTS = [
  ['ascii', 'hello there'],
  ['escapes and unicode', 'h\u00e9llo \u{1F984} "q" \\ \n\r\t\b\f \u0000\u0001\u001f / \u2028\u2029 \u007f <>&'],
  ['empty', ''],
  ['json inside', '{"kind":1,"tags":[["p","x"]],"content":"}"}'],
  ['30000 bytes', 'x'.repeat(29990) + '\u00e9\u{1F984}!'],
];
const TAGS = [['t', 'x'], ['e', 'ab'.repeat(32), 'wss://relay.example', ''], ['q', '\u00e9"\\\n'], ['single']];

// ---- a: made by nostr-tools, opened by the CLI ----------------------------------------------

function categoryA() {
  TEXTS.forEach(([label, text], i) => {
    kase('a', `nip59.wrapEvent kind 1 (${label}) -> nip59 unwrap`, () => {
      const w = nip59.wrapEvent({ kind: 1, content: text, tags: TAGS, created_at: 1700000000 + i }, alice, bobPk);
      const want = nip59.unwrapEvent(w, bob);
      const r = unwrapCli(bob, JSON.stringify(w));
      expectOk(r, 'unwrap');
      const got = JSON.parse(r.out.toString());
      same(Object.keys(got), RUMOR_KEYS, 'rumor fields');
      same(got, rumorView(want), 'rumor');
      check(got.pubkey === alicePk && got.id === getEventHash(got), 'author or id');
      expectInvalid(unwrapCli(alice, JSON.stringify(w)), 'wrap-decrypt', 'a third party');
    });
  });

  kase('a', 'nip59.wrapManyEvents (sender copy first) -> each recipient unwraps its own', () => {
    const ws = nip59.wrapManyEvents({ kind: 14, content: 'many', tags: [['p', bobPk], ['p', carolPk]] }, alice, [bobPk, carolPk]);
    check(ws.length === 3, `expected 3 wraps, got ${ws.length}`);
    [[alice, ws[0]], [bob, ws[1]], [carol, ws[2]]].forEach(([sk, w]) => {
      const r = unwrapCli(sk, JSON.stringify(w));
      expectOk(r, 'unwrap');
      same(JSON.parse(r.out.toString()), rumorView(nip59.unwrapEvent(w, sk)), 'rumor');
    });
  });

  TEXTS.filter(([label]) => label !== 'empty').forEach(([label, text]) => {
    kase('a', `nip17.wrapEvent with subject and reply (${label}) -> nip17 receive`, () => {
      const w = nip17.wrapEvent(alice, { publicKey: bobPk, relayUrl: 'wss://inbox.example' }, text, 'Plans \u00e9',
        { eventId: 'cd'.repeat(32), relayUrl: 'wss://r.example' });
      const rumor = nip17.unwrapEvent(w, bob);
      const r = receiveCli(bob, JSON.stringify(w));
      expectOk(r, 'receive');
      const got = lines(r).map((l) => JSON.parse(l));
      same(got, [messageOf(rumor)], 'message');
      same(got[0].room, [alicePk, bobPk], 'room');
      same(Object.keys(got[0]), ['from', 'room', 'kind', 'id', 'created_at', 'content', 'tags'], 'fields');
      const u = unwrapCli(bob, JSON.stringify(w));
      expectOk(u, 'unwrap');
      same(JSON.parse(u.out.toString()), rumorView(rumor), 'nip59 unwrap of a NIP-17 wrap');
    });
  });

  kase('a', 'nip17.wrapManyEvents to 2 (with the sender copy) -> each receives its message', () => {
    const ws = nip17.wrapManyEvents(alice, [{ publicKey: bobPk }, { publicKey: carolPk }], 'group hello', 'Group');
    check(ws.length === 3, `expected 3 wraps (sender copy first), got ${ws.length}`);
    const stream = ws.map((w) => JSON.stringify(w)).join('\n');
    [[alice, 0], [bob, 1], [carol, 2]].forEach(([sk, own]) => {
      const r = receiveCli(sk, stream);
      const errs = r.err.split('\n').filter((l) => l !== '');
      check(r.rc === 1 && errs.length === 2 && errs.every((l) => l.includes(': wrap-decrypt: ')),
        `the two wraps for others are skipped as wrap-decrypt: ${describe(r)}`);
      const got = lines(r).map((l) => JSON.parse(l));
      // nostr-tools builds one rumor per recipient, p-tagging that recipient only
      same(got, [messageOf(nip17.unwrapEvent(ws[own], sk))], 'message');
      check(got[0].from === alicePk && got[0].content === 'group hello', 'sender and content');
      expectOk(receiveCli(sk, JSON.stringify(ws[own])), 'its own wrap alone');
    });
  });
}

// ---- b: made by the CLI, opened by nostr-tools ----------------------------------------------

function openByHand(w, sk) {
  // nostr-tools' unwrapEvent takes kind 1059 only: the ephemeral kind is opened step by step
  const seal = JSON.parse(nip44.decrypt(w.content, nip44.utils.getConversationKey(sk, w.pubkey)));
  check(verifyEvent(seal) && seal.kind === 13, 'the seal verifies and is kind 13');
  const rumor = JSON.parse(nip44.decrypt(seal.content, nip44.utils.getConversationKey(sk, seal.pubkey)));
  check(rumor.pubkey === seal.pubkey, 'rumor author is the seal signer');
  return rumor;
}

function checkWrap(w, toPk, kind) {
  const now = nowSec();
  check(w.kind === kind, `wrap kind ${w.kind}, expected ${kind}`);
  same(w.tags, [['p', toPk]], 'wrap tags');
  check(verifyEvent(w), 'nostr-tools verifies the wrap (id and signature)');
  check(w.pubkey !== alicePk, 'the wrap is signed by a one-time key');
  check(w.created_at <= now + 5 && w.created_at >= now - 2 * 86400 - 5, `wrap created_at ${w.created_at}`);
}

function categoryB() {
  TEXTS.forEach(([label, text], i) => {
    kase('b', `nip59 wrap kind 1 (${label}) -> nip59.unwrapEvent`, () => {
      const t = { kind: 1, content: text, tags: TAGS, created_at: 1600000000 + i };
      const r = cli(['nip59', 'wrap', '--sec-file', keyFile(alice), '--to', bobPk], JSON.stringify(t));
      expectOk(r, 'wrap');
      const w = JSON.parse(r.out.toString());
      checkWrap(w, bobPk, 1059);
      const rumor = nip59.unwrapEvent(w, bob);
      check(!('sig' in rumor), 'the rumor carries no sig');
      same(rumorView(rumor), rumorView({ ...t, pubkey: alicePk, id: rumor.id }), 'rumor');
      check(rumor.id === getEventHash(rumor), 'rumor id is its NIP-01 id');
    });
  });

  kase('b', 'nip59 wrap --ephemeral (kind 21059) -> opened with nostr-tools nip44 and verifyEvent', () => {
    const t = { kind: 14, content: 'now', tags: [['p', bobPk]] };
    const r = cli(['nip59', 'wrap', '--sec-file', keyFile(alice), '--to', bobPk, '--ephemeral'], JSON.stringify(t));
    expectOk(r, 'wrap');
    const w = JSON.parse(r.out.toString());
    checkWrap(w, bobPk, 21059);
    const rumor = openByHand(w, bob);
    check(rumor.content === 'now' && rumor.id === getEventHash(rumor), 'rumor');
  });

  TEXTS.forEach(([label, text]) => {
    kase('b', `nip17 send to 2 with subject and reply (${label}) -> nip17.unwrapEvent, sender copy too`, () => {
      const reply = 'ef'.repeat(32);
      const r = cli(['nip17', 'send', '--sec-file', keyFile(alice), '--to', `${bobPk},${carolPk}`,
        '--subject', 'Trip \u{1F984}', '--reply', reply], text);
      expectOk(r, 'send');
      const ws = lines(r).map((l) => JSON.parse(l));
      check(ws.length === 3, `expected 3 wraps (bob, carol, then the sender), got ${ws.length}`);
      const rumors = [[bob, bobPk], [carol, carolPk], [alice, alicePk]].map(([sk, pk], i) => {
        checkWrap(ws[i], pk, 1059);
        return nip17.unwrapEvent(ws[i], sk);
      });
      same(rumors[1], rumors[0], 'carol\'s rumor');
      same(rumors[2], rumors[0], 'the sender copy');
      const m = rumors[0];
      check(m.kind === 14 && m.pubkey === alicePk && m.content === text, 'kind, author, content');
      same(m.tags, [['p', bobPk], ['p', carolPk], ['e', reply], ['subject', 'Trip \u{1F984}']], 'tags');
      check(m.id === getEventHash(m) && !('sig' in m), 'rumor id, no sig');
      check(Math.abs(m.created_at - nowSec()) < 10, 'created_at is now');
    });
  });
}

// ---- c: forged layers ----------------------------------------------------------------------

const ck = (sk, pk) => nip44.utils.getConversationKey(sk, pk);

function rumorOf(sk, fields = {}) {
  const r = { created_at: 1700000000, kind: 14, tags: [['p', bobPk]], content: 'forged', ...fields, pubkey: getPublicKey(sk) };
  r.id = getEventHash(r);
  return r;
}
function sealOf(signSk, text, toPk, { kind = 13, encSk = signSk } = {}) {
  return finalizeEvent({ kind, tags: [], created_at: nowSec() - 1000, content: nip44.encrypt(text, ck(encSk, toPk)) }, signSk);
}
function wrapOf(text, toPk, { kind = 1059, encPk = toPk } = {}) {
  const k = generateSecretKey();
  return finalizeEvent({ kind, tags: [['p', toPk]], created_at: nowSec() - 2000, content: nip44.encrypt(text, ck(k, encPk)) }, k);
}
const plain = (o) => JSON.parse(JSON.stringify(o)); // drops nostr-tools' verified marker
const flipHex = (h, i) => h.slice(0, i) + (h[i] === '0' ? '1' : '0') + h.slice(i + 1);
function flipB64(s) {
  const i = Math.floor(s.length / 2);
  return s.slice(0, i) + (s[i] === 'A' ? 'B' : 'A') + s.slice(i + 1);
}

function forgeries() {
  const good = rumorOf(alice);
  const goodSeal = () => sealOf(alice, JSON.stringify(good), bobPk);
  const cases = [];
  const add = (token, how, wrap) => cases.push({ token, how, wrap: JSON.stringify(wrap) });

  add('wrap-kind', 'wrap of kind 1', wrapOf(JSON.stringify(goodSeal()), bobPk, { kind: 1 }));
  const wid = plain(wrapOf(JSON.stringify(goodSeal()), bobPk));
  wid.created_at += 1;
  add('wrap-id', 'wrap created_at changed after signing', wid);
  const wsig = plain(wrapOf(JSON.stringify(goodSeal()), bobPk));
  wsig.sig = flipHex(wsig.sig, 10);
  add('wrap-sig', 'wrap signature altered', wsig);
  add('wrap-decrypt', 'wrap encrypted for carol, p-tagged for bob', wrapOf(JSON.stringify(goodSeal()), bobPk, { encPk: carolPk }));
  add('wrap-decrypt', 'wrap for carol given to bob', wrapOf(JSON.stringify(goodSeal()), carolPk));
  add('seal-json', 'wrap content is not an event', wrapOf('not a seal', bobPk));
  add('seal-kind', 'seal of kind 14', wrapOf(JSON.stringify(sealOf(alice, JSON.stringify(good), bobPk, { kind: 14 })), bobPk));
  const sid = plain(goodSeal());
  sid.created_at += 1;
  add('seal-id', 'seal created_at changed after signing', wrapOf(JSON.stringify(sid), bobPk));
  const ssig = plain(goodSeal());
  ssig.sig = flipHex(ssig.sig, 20);
  add('seal-sig', 'seal signature altered', wrapOf(JSON.stringify(ssig), bobPk));
  const tampered = plain(goodSeal());
  const resigned = finalizeEvent({ kind: 13, tags: [], created_at: tampered.created_at, content: flipB64(tampered.content) }, alice);
  add('seal-decrypt', 'seal content tampered (and the seal signed again)', wrapOf(JSON.stringify(resigned), bobPk));
  add('seal-decrypt', 'seal content encrypted for another key', wrapOf(JSON.stringify(sealOf(alice, JSON.stringify(good), bobPk, { encSk: mallory })), bobPk));
  add('rumor-json', 'seal content is not an event', wrapOf(JSON.stringify(sealOf(alice, 'not a rumor', bobPk)), bobPk));
  const signedRumor = plain(finalizeEvent({ kind: 14, tags: [['p', bobPk]], content: 'signed', created_at: 1700000000 }, alice));
  add('rumor-signed', 'a signed event as the rumor', wrapOf(JSON.stringify(sealOf(alice, JSON.stringify(signedRumor), bobPk)), bobPk));
  add('rumor-author', 'seal signed by mallory around alice\'s rumor', wrapOf(JSON.stringify(sealOf(mallory, JSON.stringify(good), bobPk)), bobPk));
  const badId = { ...good, id: flipHex(good.id, 63) };
  add('rumor-id', 'rumor id altered', wrapOf(JSON.stringify(sealOf(alice, JSON.stringify(badId), bobPk)), bobPk));
  const noId = { ...good };
  delete noId.id;
  add('rumor-id', 'rumor without id', wrapOf(JSON.stringify(sealOf(alice, JSON.stringify(noId), bobPk)), bobPk));
  return { good, cases };
}

function categoryC() {
  let f;
  kase('c', 'the forging helpers make a valid wrap (control)', () => {
    f = forgeries();
    const w = wrapOf(JSON.stringify(sealOf(alice, JSON.stringify(f.good), bobPk)), bobPk);
    const r = unwrapCli(bob, JSON.stringify(w));
    expectOk(r, 'unwrap');
    same(JSON.parse(r.out.toString()), rumorView(f.good), 'rumor');
    same(nip59.unwrapEvent(plain(w), bob), f.good, 'nostr-tools opens it too');
  });
  if (!f) return;
  for (const c of f.cases) {
    kase('c', `${c.token}: ${c.how} (nip59 unwrap)`, () => {
      expectInvalid(unwrapCli(bob, c.wrap), `cannot unwrap: ${c.token}: `, c.token);
    });
  }
  kase('c', 'all forgeries in one nip17 receive stream between two good messages', () => {
    const first = JSON.stringify(nip17.wrapEvent(alice, { publicKey: bobPk }, 'first'));
    const last = JSON.stringify(nip17.wrapEvent(carol, { publicKey: bobPk }, 'last'));
    const r = receiveCli(bob, [first, ...f.cases.map((c) => c.wrap), last].join('\n'));
    check(r.rc === 1, `expected exit 1: ${describe(r)}`);
    same(lines(r).map((l) => JSON.parse(l).content), ['first', 'last'], 'the good messages');
    const errs = r.err.split('\n').filter((l) => l !== '');
    check(errs.length === f.cases.length, `one stderr line per forgery: ${r.err}`);
    f.cases.forEach((c, i) => check(errs[i].startsWith(`softchat: wrap ${i + 2}: ${c.token}: `),
      `line ${i + 1}: ${errs[i]} (expected ${c.token})`));
  });
}

// ---- d: attachments --------------------------------------------------------------------------

const SIZES = [1, 15, 16, 17, 4095, 65536 + 3, MIB, 3 * MIB + 7, 6 * MIB];

function gcmEncrypt(key, iv, pt) {
  const c = createCipheriv('aes-256-gcm', key, iv);
  return Buffer.concat([c.update(pt), c.final(), c.getAuthTag()]);
}
function gcmDecrypt(key, iv, blob) {
  const d = createDecipheriv('aes-256-gcm', key, iv);
  d.setAuthTag(blob.subarray(blob.length - 16));
  return Buffer.concat([d.update(blob.subarray(0, blob.length - 16)), d.final()]);
}

// Decrypting each tampered blob fails with exit 1 and leaves the folder as it was.
function expectTamperRefused(dir, blob, keyHex, nonceHex) {
  const variants = [];
  if (blob.length > 16) {
    const b = Buffer.from(blob);
    b[Math.floor((blob.length - 16) / 2)] ^= 0x01;
    variants.push(['flipped ciphertext byte', b]);
  }
  const t = Buffer.from(blob);
  t[t.length - 1] ^= 0x80;
  variants.push(['flipped tag byte', t]);
  variants.push(['truncated by one byte', blob.subarray(0, blob.length - 1)]);
  for (const [name, bad] of variants) {
    const src = join(dir, 'bad.bin');
    writeFileSync(src, bad);
    const before = listing(dir);
    const r = cli(['file', 'decrypt', '--key', keyHex, '--nonce', nonceHex, src, join(dir, 'out.bin')]);
    expectInvalid(r, 'auth', name);
    same(listing(dir), before, `${name}: the folder afterwards (no OUT, no temporary file)`);
    rmSync(src);
  }
}

function categoryD() {
  const probe = cli(['file', 'encrypt', '/nonexistent-in', '/nonexistent-out']);
  if (probe.err.includes('SC_ERR_UNSUPPORTED')) {
    kase('d', 'this backend has no streaming AES-256-GCM: file commands exit 2 with the reason', () => {
      check(probe.rc === 2 && probe.out.length === 0 && probe.err.includes('streaming AES-256-GCM'), describe(probe));
      const r = cli(['file', 'decrypt', '--key', '00'.repeat(32), '--nonce', '00'.repeat(16), '/nonexistent-in', '/nonexistent-out']);
      check(r.rc === 2 && r.err.includes('SC_ERR_UNSUPPORTED'), describe(r));
    });
    skip('d', 'blob exchange with node', `backend ${BACKEND} lacks streaming AES-256-GCM`, SIZES.length * 3 + 1);
    return;
  }
  for (const size of SIZES) {
    kase('d', `softchat file encrypt ${size} B -> node aes-256-gcm; x, ox, size tags`, () => {
      const dir = freshDir();
      const pt = randomBytes(size);
      writeFileSync(join(dir, 'in'), pt);
      const r = cli(['file', 'encrypt', join(dir, 'in'), join(dir, 'blob'), '--mime', 'image/png']);
      expectOk(r, 'encrypt');
      const tags = JSON.parse(r.out.toString());
      const blob = readFileSync(join(dir, 'blob'));
      check(tags['file-type'] === 'image/png' && tags['encryption-algorithm'] === 'aes-gcm', 'type, algorithm');
      check(/^[0-9a-f]{64}$/.test(tags['decryption-key']) && /^[0-9a-f]{32}$/.test(tags['decryption-nonce']), 'key, nonce');
      check(tags.x === sha256(blob) && tags.ox === sha256(pt) && tags.size === String(blob.length) &&
        blob.length === size + 16, 'x, ox, size');
      const back = gcmDecrypt(Buffer.from(tags['decryption-key'], 'hex'), Buffer.from(tags['decryption-nonce'], 'hex'), blob);
      check(back.equals(pt), 'node decrypts the blob to the plaintext');
      if (size === 17 || size === MIB) expectTamperRefused(dir, blob, tags['decryption-key'], tags['decryption-nonce']);
    });
    for (const ivLen of [12, 16]) {
      kase('d', `node aes-256-gcm ${ivLen}-byte IV, ${size} B -> softchat file decrypt`, () => {
        const dir = freshDir();
        const pt = randomBytes(size);
        const key = randomBytes(32);
        const iv = randomBytes(ivLen);
        const blob = gcmEncrypt(key, iv, pt);
        writeFileSync(join(dir, 'blob'), blob);
        const keyPath = join(dir, 'key');
        writeFileSync(keyPath, hex(key) + '\n', { mode: 0o600 });
        const r = cli(['file', 'decrypt', '--key-file', keyPath, '--nonce', hex(iv), join(dir, 'blob'), join(dir, 'out')]);
        expectOk(r, 'decrypt');
        check(r.out.length === 0, 'nothing on stdout');
        check(readFileSync(join(dir, 'out')).equals(pt), 'the plaintext');
        if (size === 1 || size === 3 * MIB + 7) expectTamperRefused(dir, blob, hex(key), hex(iv));
      });
    }
  }
  kase('d', 'node blob under the legacy IV (the 32 ASCII hex characters) -> softchat file decrypt', () => {
    const dir = freshDir();
    const pt = randomBytes(100000);
    const key = randomBytes(32);
    const nonceHex = hex(randomBytes(16));
    const blob = gcmEncrypt(key, Buffer.from(nonceHex, 'ascii'), pt);
    writeFileSync(join(dir, 'blob'), blob);
    const r = cli(['file', 'decrypt', '--key', hex(key), '--nonce', nonceHex, join(dir, 'blob'), join(dir, 'out')]);
    expectOk(r, 'decrypt');
    check(readFileSync(join(dir, 'out')).equals(pt), 'the plaintext');
    expectTamperRefused(dir, blob, hex(key), nonceHex);
  });
}

// ---- e: NIP-98 HTTP auth ------------------------------------------------------------------

const AUTH_URL = 'https://media.example/api/v1/upload?name=a%20b&size=3';
// nostr-tools hashes a body as the SHA-256 of JSON.stringify(body): a body file holding exactly
// that text gives both sides the same hash
const BODY = { name: 'a b', size: 3, tags: ['\u00e9', 'x'] };

async function categoryE() {
  const bodyPath = join(work, 'body.json');
  writeFileSync(bodyPath, JSON.stringify(BODY));
  const signCli = (method, extra = []) => cli(['nip98', 'sign', '--sec-file', keyFile(alice), '--url', AUTH_URL,
    '--method', method, ...extra]);
  const verifyCli = (header, method, extra = []) => cli(['nip98', 'verify', '--url', AUTH_URL, '--method', method,
    ...extra], header);

  await kaseAsync('e', 'CLI nip98 sign -> nip98.validateToken (and a wrong URL or method refused)', async () => {
    const r = signCli('GET');
    expectOk(r, 'sign');
    const header = r.out.toString().trim();
    check(header.startsWith('Nostr '), 'the scheme');
    check(await nip98.validateToken(header, AUTH_URL, 'GET') === true, 'validateToken');
    check(await nip98.validateToken(header, AUTH_URL, 'get') === true, 'validateToken, method in lower case');
    check(await rejects(nip98.validateToken(header, AUTH_URL + 'x', 'GET')), 'another URL is refused');
    check(await rejects(nip98.validateToken(header, AUTH_URL, 'POST')), 'another method is refused');
    const ev = await nip98.unpackEventFromToken(header);
    check(ev.pubkey === alicePk && verifyEvent(ev), 'the signer');
  });

  await kaseAsync('e', 'CLI nip98 sign --payload-file -> nip98.validateEvent with the body', async () => {
    const r = signCli('POST', ['--payload-file', bodyPath]);
    expectOk(r, 'sign');
    const ev = await nip98.unpackEventFromToken(r.out.toString().trim());
    check(await nip98.validateEvent(ev, AUTH_URL, 'POST', BODY) === true, 'validateEvent with the body');
    check(await rejects(nip98.validateEvent(ev, AUTH_URL, 'POST', { ...BODY, size: 4 })), 'another body is refused');
    same(ev.tags.find((t) => t[0] === 'payload')[1], nip98.hashPayload(BODY), 'the payload tag');
  });

  await kaseAsync('e', 'nip98.getToken -> CLI nip98 verify (with and without a body)', async () => {
    const sign = (e) => finalizeEvent(e, bob);
    const get = await nip98.getToken(AUTH_URL, 'GET', sign, true);
    const r = verifyCli(get, 'GET');
    expectOk(r, 'verify');
    const ev = JSON.parse(r.out.toString());
    check(ev.pubkey === bobPk && ev.kind === 27235, 'the signer and kind');
    const post = await nip98.getToken(AUTH_URL, 'POST', sign, true, BODY);
    expectOk(verifyCli(post, 'POST', ['--payload-file', bodyPath]), 'verify with the body');
    writeFileSync(join(work, 'other-body.json'), JSON.stringify({ ...BODY, size: 4 }));
    expectInvalid(verifyCli(post, 'POST', ['--payload-file', join(work, 'other-body.json')]), 'nip98-payload',
      'another body');
    expectInvalid(verifyCli(get, 'DELETE'), 'nip98-method', 'another method');
    // getToken without the scheme gives the bare token; an Authorization value needs "Nostr "
    const bare = await nip98.getToken(AUTH_URL, 'GET', sign, false);
    expectInvalid(verifyCli(bare, 'GET'), 'nip98-scheme', 'a token without its scheme');
    expectOk(verifyCli('Nostr ' + bare, 'GET'), 'the same token with the scheme');
  });

  await kaseAsync('e', 'events nostr-tools signed that fail one check: refused with its token', async () => {
    const tags = [['u', AUTH_URL], ['method', 'GET']];
    const token = (t) => 'Nostr ' + Buffer.from(JSON.stringify(finalizeEvent(t, carol))).toString('base64');
    const now = nowSec();
    expectOk(verifyCli(token({ kind: 27235, created_at: now, tags, content: '' }), 'GET'), 'the control');
    expectInvalid(verifyCli(token({ kind: 1, created_at: now, tags, content: '' }), 'GET'), 'nip98-kind', 'kind 1');
    expectInvalid(verifyCli(token({ kind: 27235, created_at: now - 3600, tags, content: '' }), 'GET'),
      'nip98-time', 'an hour old');
    expectInvalid(verifyCli(token({ kind: 27235, created_at: now, tags: [['url', AUTH_URL], ['method', 'GET']],
      content: '' }), 'GET'), 'nip98-url', 'the old tag name');
    const forged = finalizeEvent({ kind: 27235, created_at: now, tags, content: '' }, carol);
    forged.tags = [['u', AUTH_URL + '&admin=1'], ['method', 'GET']];
    expectInvalid(cli(['nip98', 'verify', '--url', AUTH_URL + '&admin=1', '--method', 'GET'],
      'Nostr ' + Buffer.from(JSON.stringify(forged)).toString('base64')), 'id-mismatch', 'a tag changed after signing');
  });
}

// ---- f: NIP-49 ncryptsec -------------------------------------------------------------------

const PASSWORDS = [
  ['ascii', 'correct horse battery staple'],
  ['NIP-49 example (not NFKC)', '\u212b\u2126\u1e9b\u0323'],
  ['ligature and full width (not NFKC)', '\ufb01 \uff21\uff22'],
  ['emoji', '\u{1f511} key'],
];

function categoryF() {
  const b = cli(['backends', '--backend', BACKEND]);
  if (!b.out.toString().split('\n').includes('  + scrypt')) {
    skip('f', 'both ways', `backend ${BACKEND} has no scrypt (softchat backends says why)`, 2 * PASSWORDS.length);
    return;
  }
  // a CLI built without a Unicode normaliser (SOFTCHAT_CLI_NFKC=OFF: the cross presets) takes
  // ASCII passwords only and must refuse the others, saying so
  const version = cli(['--version']).out.toString();
  const nfkc = !version.includes('normaliser: none');
  const ascii = (pw) => /^[\x00-\x7f]*$/.test(pw);
  const pwFile = (pw) => {
    const p = join(work, `pw-${dirs++}`);
    writeFileSync(p, pw, { mode: 0o600 });
    return p;
  };
  PASSWORDS.forEach(([label, pw], i) => {
    if (!nfkc && !ascii(pw)) {
      kase('f', `${label}: refused by a CLI without a normaliser, both ways`, () => {
        const text = nip49.encrypt(generateSecretKey(), pw, 4, 2);
        expectInvalid(cli(['nip49', 'decrypt', '--password-file', pwFile(pw)], text), 'cannot be normalised',
          'decrypt');
        expectInvalid(cli(['nip49', 'encrypt', '--sec-file', keyFile(generateSecretKey()), '--password-file',
          pwFile(pw), '--log-n', '4']), 'cannot be normalised', 'encrypt');
      });
      return;
    }
    kase('f', `nip49.encrypt (${label}, log_n ${4 + i}) -> CLI nip49 decrypt`, () => {
      const sk = generateSecretKey();
      const text = nip49.encrypt(sk, pw, 4 + i, i % 3);
      const r = cli(['nip49', 'decrypt', '--password-file', pwFile(pw)], text);
      expectOk(r, 'decrypt');
      same(r.out.toString(), hex(sk) + '\n', 'the key');
      const ins = cli(['nip49', 'inspect', text]);
      expectOk(ins, 'inspect');
      same(JSON.parse(ins.out.toString()).log_n, 4 + i, 'log_n');
      expectInvalid(cli(['nip49', 'decrypt', '--password-file', pwFile(pw + 'x')], text), 'wrong password',
        'a wrong password');
    });
    kase('f', `CLI nip49 encrypt (${label}) -> nip49.decrypt`, () => {
      const sk = generateSecretKey();
      const r = cli(['nip49', 'encrypt', '--sec-file', keyFile(sk), '--password-file', pwFile(pw), '--log-n', '5']);
      expectOk(r, 'encrypt');
      same(hex(nip49.decrypt(r.out.toString().trim(), pw)), hex(sk), 'the key');
    });
  });
}

// ---- run -----------------------------------------------------------------------------------

console.log(`interop-node: ${CLI} on backend ${BACKEND}; nostr-tools ${loaded}; node ${process.version}` +
  (WRAP.length > 0 ? `; every CLI run wrapped in: ${WRAP.join(' ')}` : ''));
categoryA();
categoryB();
categoryC();
categoryD();
await categoryE();
categoryF();

let pass = 0;
let fail = 0;
let skipped = 0;
console.log('');
for (const [c, title] of Object.entries(CATEGORIES)) {
  const n = counts[c];
  pass += n.pass;
  fail += n.fail;
  skipped += n.skip;
  console.log(`[${BACKEND}] ${title}: ${n.pass + n.fail + n.skip} cases: ${n.pass} passed, ${n.fail} failed, ${n.skip} skipped`);
}
if (failures.length > 0) {
  console.log(`\n${failures.length} FAILED:`);
  for (const f of failures) console.log('  ' + f);
}
console.log(`${pass} passed, ${fail} failed, ${skipped} skipped`);
process.exitCode = fail > 0 ? 1 : 0;
