// The package in headless Chromium: the cases and the hostile-input checks in a page and in
// a module Worker, interop with nostr-tools in the page, an end-to-end NIP-17 exchange
// between two pages through a real relay on loopback, and one through relay pools (a Node
// sender, a page receiver, two relays and a dead one: test/pool-e2e.mjs). Every server and browser it starts is
// stopped, with what it spawned, on success and on failure.
//   node test/browser/run.mjs --pkg DIR --relay NOSTR_RELAY_BIN [--out DIR]
// DIR: the package to test (its dist/, or the unpacked npm tarball's package/dist).
// Prints one line per case and "N passed, N failed"; exits 1 on any failure.
import { mkdir } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundlePeers, launch } from './chromium.mjs';
import { startRelay } from './relay.mjs';
import { serve } from './serve.mjs';
import { createServer } from 'node:net';
import WebSocket from 'ws';
import * as lib from '../../dist/index.js';
import { send } from '../pool-e2e.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const pkgRoot = resolve(here, '../..');
const repo = resolve(pkgRoot, '../..');
const arg = (k, d) => { const i = process.argv.indexOf(k); return i > 0 ? process.argv[i + 1] : d; };
const pkg = resolve(arg('--pkg', join(pkgRoot, 'dist')));
const relayBin = arg('--relay');
const out = resolve(arg('--out', join(repo, 'build/js/browser')));

let passed = 0;
let failed = 0;
const report = (where, r) => {
  if (r.ok) passed++; else failed++;
  console.log(`${r.ok ? 'ok' : 'not ok'} - [${where}] ${r.name}${r.ok ? '' : `\n  ${r.error.replace(/\n/g, '\n  ')}`}`);
};

async function suites(ctx, base) {
  const page = await ctx.newPage();
  page.on('pageerror', (e) => console.log(`# page error: ${e}`));
  await page.goto(`${base}/test/browser/page.html`);
  await page.waitForFunction(() => window.ready === true);
  const inPage = await page.evaluate(() => window.runSuite(['cases', 'hostile', 'interop']));
  for (const r of inPage.results) report('page', r);
  console.log(`# page vectors: ${JSON.stringify(inPage.counts)}`);
  const inWorker = await page.evaluate(() => window.runWorker(['cases', 'hostile']));
  if (inWorker.error) report('worker', { name: 'load', ok: false, error: inWorker.error });
  for (const r of inWorker.results ?? []) report('worker', r);
  await page.close();
}

/** Two pages, one identity each: the receiver subscribes to its inbox on the relay, the
 *  sender sends a NIP-17 message there; only the package is used. */
async function endToEnd(ctx, base, relayUrl) {
  const name = 'NIP-17 message between two pages through nostr-relay on loopback';
  try {
    const [rx, tx] = [await ctx.newPage(), await ctx.newPage()];
    for (const p of [rx, tx]) {
      await p.goto(`${base}/test/browser/page.html`);
      await p.waitForFunction(() => window.ready === true);
    }
    const receiver = await rx.evaluate(async (url) => {
      const { Softchat } = await import('/pkg/index.js');
      const sc = await Softchat.load();
      const me = sc.generateIdentity();
      window.got = new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error('no message within 30 s')), 30000);
        const s = sc.relay(url);
        s.subscribe('inbox', [{ kinds: [1059], '#p': [me.publicKeyHex] }], {
          onEvent(ev) {
            const m = me.receive(JSON.stringify(ev));
            clearTimeout(timer);
            s.dispose();
            resolve({ content: m.content, sender: m.sender });
          },
        });
        s.connect();
      });
      return me.publicKeyHex;
    }, relayUrl);
    const sent = await tx.evaluate(async ([url, to]) => {
      const { Softchat } = await import('/pkg/index.js');
      const sc = await Softchat.load();
      const me = sc.generateIdentity();
      const s = sc.relay(url);
      s.connect();
      const wraps = me.sendMessage([{ pubkey: to }], 'hello through a real relay ✓');
      const acks = await Promise.all(wraps.map((w) => s.publish(w.event)));
      s.dispose();
      return { sender: me.publicKeyHex, acks };
    }, [relayUrl, receiver]);
    if (!sent.acks.every((a) => a.accepted)) throw new Error(`publish refused: ${JSON.stringify(sent.acks)}`);
    const got = await rx.evaluate(() => window.got);
    if (got.content !== 'hello through a real relay ✓' || got.sender !== sent.sender) {
      throw new Error(`received ${JSON.stringify(got)}`);
    }
    report('e2e', { name, ok: true });
  } catch (e) {
    report('e2e', { name, ok: false, error: String(e && e.stack || e) });
  }
}

/** The pool: a sender in Node through two live relays and a dead one, a receiver's pool in
 *  a page on the two live ones (test/pool-e2e.mjs). */
async function poolEndToEnd(ctx, base, urls, dead) {
  const name = 'NIP-17 through relay pools: Node sender, page receiver, two relays and a dead one';
  try {
    const page = await ctx.newPage();
    await page.goto(`${base}/test/browser/page.html`);
    await page.waitForFunction(() => window.ready === true);
    const to = await page.evaluate(async (u) => (await import('/test/pool-e2e.mjs')).startReceiver(u), urls);
    const sent = await send(lib, WebSocket, [...urls, dead], to, 'hello through the pool ✓');
    for (const r of sent.results) {
      const by = Object.fromEntries(r.map((x) => [x.relay, x.result]));
      if (by[urls[0]] !== 'accepted' || by[urls[1]] !== 'accepted' || by[dead] !== 'failed') {
        throw new Error(`publish results ${JSON.stringify(r)}`);
      }
    }
    const got = await page.evaluate(() => window.poolGot);
    if (got.content !== 'hello through the pool ✓' || got.sender !== sent.sender || got.deliveries !== 1) {
      throw new Error(`received ${JSON.stringify({ ...got, cursor: got.cursor.length })}`);
    }
    const again = await page.evaluate((c) => window.poolAgain(c), got.cursor);
    if (again !== 0) throw new Error(`a pool resumed from the cursor delivered ${again} events again`);
    await page.close();
    report('e2e', { name, ok: true });
  } catch (e) {
    report('e2e', { name, ok: false, error: String(e && e.stack || e) });
  }
}

function deadUrl() {
  return new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const p = s.address().port;
      s.close(() => resolve(`ws://127.0.0.1:${p}`));
    });
  });
}

async function main() {
  await mkdir(out, { recursive: true });
  const peers = join(out, 'peers.js');
  await bundlePeers(pkgRoot, peers);
  const stops = [];
  try {
    const srv = await serve({ '/pkg/': pkg, '/test/': join(pkgRoot, 'test'), '/vectors/': join(repo, 'vectors'), '/peers.js': peers });
    stops.push(srv.close);
    const browser = await launch();
    stops.push(browser.close);
    await suites(browser.ctx, srv.url);
    if (!relayBin) {
      report('e2e', { name: 'end-to-end', ok: false, error: 'no relay: pass --relay PATH/TO/nostr-relay' });
    } else {
      const relay = await startRelay(relayBin);
      stops.push(relay.stop);
      const second = await startRelay(relayBin);
      stops.push(second.stop);
      await endToEnd(browser.ctx, srv.url, relay.url);
      await poolEndToEnd(browser.ctx, srv.url, [relay.url, second.url], await deadUrl());
    }
  } finally {
    for (const stop of stops.reverse()) {
      await stop().catch((e) => console.log(`# cleanup: ${e}`));
    }
  }
  console.log(`${passed} passed, ${failed} failed`);
  process.exitCode = failed === 0 && passed > 0 ? 1 - 1 : 1;
}

for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => process.exit(130));
main().catch((e) => { console.error(e); process.exitCode = 1; });
