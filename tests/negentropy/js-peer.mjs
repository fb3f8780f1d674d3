// A Negentropy peer over nostr-tools' nip77 module (npm), for tests/negentropy/cross.py.
// Usage: node js-peer.mjs --role initiator --items FILE [--frame-limit N]
// nostr-tools implements the initiator side of NIP-77 (its reconcile() answers an id list
// by reporting have/need itself rather than replying with its own ids, which is what a
// responder must do), so only --role initiator is offered. Line protocol as the other
// peers: "MSG <hex>" out first, then every "MSG <hex>" in is answered with HAVE/NEED lines
// and "MSG <hex>" or "DONE". nostr-tools has no "no limit": 0 maps to 2^31.
import { readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { pathToFileURL } from 'node:url';
import path from 'node:path';

const args = process.argv.slice(2);
const opt = (name) => { const i = args.indexOf(name); return i >= 0 ? args[i + 1] : undefined; };
const role = opt('--role');
const itemsPath = opt('--items');
const limit = Number(opt('--frame-limit') || '0');
const modules = opt('--node-modules');
if (role !== 'initiator' || !itemsPath) {
  console.log('ERR usage: --role initiator --items FILE [--frame-limit N] [--node-modules DIR]');
  process.exit(1);
}
let nip77;
if (modules) {
  // the package's own ESM build of the module (its export map offers no require path)
  nip77 = await import(pathToFileURL(
    path.join(path.resolve(modules), 'nostr-tools', 'lib', 'esm', 'nip77.js')).href);
} else {
  nip77 = await import('nostr-tools/nip77');
}
const { Negentropy, NegentropyStorageVector } = nip77;

const storage = new NegentropyStorageVector();
for (const line of readFileSync(itemsPath, 'utf8').split('\n')) {
  if (!line) continue;
  const [ts, id] = line.split(' ');
  storage.insert(Number(ts), id);
}
storage.seal();
const neg = new Negentropy(storage, limit === 0 ? 2 ** 31 : limit);
const out = [];
const flush = () => { if (out.length) { process.stdout.write(out.join('\n') + '\n'); out.length = 0; } };
out.push('MSG ' + neg.initiate());
flush();
const rl = createInterface({ input: process.stdin, crlfDelay: Infinity });
for await (const line of rl) {
  // no process.exit() below: on a pipe, stdout is written asynchronously and exit would cut
  // it short; leaving the loop lets node drain it
  if (!line.startsWith('MSG ')) { out.push('ERR expected MSG'); process.exitCode = 1; break; }
  let reply;
  try {
    reply = neg.reconcile(line.slice(4),
      (id) => out.push('HAVE ' + id),
      (id) => out.push('NEED ' + id));
  } catch (e) {
    out.push('ERR ' + e.message); process.exitCode = 1; break;
  }
  if (reply === null) { out.push('DONE'); break; }
  out.push('MSG ' + reply);
  flush();
}
flush();
rl.close();
