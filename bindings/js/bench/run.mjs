// The web audit's benchmark runner: softchat (this package) against nostr-tools 2.25 (pure
// JavaScript, and its nostr-wasm variant) and @rust-nostr/nostr-sdk 0.43 on the rows they
// share (bindings/js/bench/workloads.mjs), in Node and in headless Chromium, under the benchmark
// contract: every sample is a separate process (Node) or a separate page (Chromium), the
// implementations interleaved pair by pair (their order rotates), medians and a paired
// verdict (report.mjs). Writes JSON records; report.mjs turns them into the markdown section.
//   node bindings/js/bench/run.mjs [--out FILE] [--pairs N] [--budget MS]
//        [--runtimes node,chromium] [--impls softchat,nostr-tools,nostr-tools-wasm,rust-nostr]
// Defaults: 9 pairs, 400 ms per row and sample (--smoke: 9 pairs, 60 ms). Needs the built
// package (bindings/js/build.sh) and /usr/bin/chromium.
import { execFile } from 'node:child_process';
import { readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { bundlePeers, launch } from '../test/browser/chromium.mjs';
import { serve } from '../test/browser/serve.mjs';
import { IMPLS } from './impls.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const pkg = resolve(here, '..');
const repo = resolve(pkg, '../..');
const argv = process.argv;
const arg = (k, d) => { const i = argv.indexOf(k); return i > 0 ? argv[i + 1] : d; };
const smoke = argv.includes('--smoke');
const out = resolve(arg('--out', join(repo, 'build/js/bench/web-bench.json')));
const pairs = Number(arg('--pairs', 9));
const budget = Number(arg('--budget', smoke ? 60 : 400));
const runtimes = arg('--runtimes', 'node,chromium').split(',');
const impls = arg('--impls', IMPLS.join(',')).split(',');
const run = promisify(execFile);

async function nodeSample(impl) {
  const { stdout } = await run(process.execPath, [join(here, 'node-sample.mjs'), impl, String(budget)],
    { cwd: pkg, maxBuffer: 1 << 24, timeout: 600000 });
  return JSON.parse(stdout);
}

async function pageSample(ctx, base, impl) {
  const page = await ctx.newPage();
  try {
    await page.goto(`${base}/bench/page.html`);
    await page.waitForFunction(() => window.ready === true);
    return await page.evaluate(([n, b]) => window.sample(n, b), [impl, budget]);
  } finally {
    await page.close();
  }
}

async function main() {
  if (pairs < 9) console.error('bench: fewer than 9 pairs: the verdict needs at least 9');
  mkdirSync(dirname(out), { recursive: true });
  const build = join(repo, 'build/js/bench');
  mkdirSync(build, { recursive: true });
  const stops = [];
  const records = [];
  const meta = {
    date: new Date().toISOString(), node: process.version, cores: cpus().length, smoke, pairs, budgetMs: budget,
    loadBefore: loadavg(), sizes: JSON.parse(readFileSync(join(pkg, 'dist/sizes.json'), 'utf8')),
    peers: Object.fromEntries(['nostr-tools', 'nostr-wasm', '@rust-nostr/nostr-sdk'].map((n) => [n,
      JSON.parse(readFileSync(join(pkg, 'node_modules', n, 'package.json'), 'utf8')).version])),
  };
  try {
    let ctx;
    let base;
    if (runtimes.includes('chromium')) {
      await bundlePeers(pkg, join(build, 'peers.js'));
      const esbuild = await import('esbuild');
      await esbuild.build({ entryPoints: [join(here, 'rust-nostr.mjs')], bundle: true, format: 'esm', platform: 'browser',
        outfile: join(build, 'rust-nostr.js'), logLevel: 'warning', absWorkingDir: pkg });
      const srv = await serve({ '/pkg/': join(pkg, 'dist'), '/bench/': here, '/peers.js': join(build, 'peers.js'),
        '/rust-nostr.js': join(build, 'rust-nostr.js') });
      stops.push(srv.close);
      const browser = await launch();
      stops.push(browser.close);
      ctx = browser.ctx;
      base = srv.url;
      meta.chromium = browser.ctx.browser()?.version() ?? 'chromium';
    }
    for (let p = 0; p < pairs; p++) {
      const order = impls.map((_, i) => impls[(i + p) % impls.length]);
      for (const impl of order) {
        for (const rt of runtimes) {
          const t0 = Date.now();
          const s = rt === 'node' ? await nodeSample(impl) : await pageSample(ctx, base, impl);
          records.push({ pair: p, impl, runtime: rt, load: loadavg()[0], info: s.info, rows: s.rows });
          console.error(`bench: pair ${p + 1}/${pairs} ${impl} in ${rt}: ${Date.now() - t0} ms`);
        }
      }
    }
  } finally {
    for (const stop of stops.reverse()) await stop().catch(() => undefined);
  }
  meta.loadAfter = loadavg();
  writeFileSync(out, JSON.stringify({ meta, records }, null, 1));
  console.error(`bench: ${records.length} samples in ${out}`);
}

main().catch((e) => { console.error(e); process.exitCode = 1; });
