// The web section of the audit report from bindings/js/bench/run.mjs's JSON records:
//   node bindings/js/bench/report.mjs RECORDS.json [--targets TARGETS.json] [> build/js/bench/web.md]
// (--targets also writes the targets as JSON: [{ target, runtime, met, atMedian, detail }]:
// met when the whole interval meets it, atMedian when its median does; for the audit's
// summary)
// Per runtime and row: each implementation's median time; per peer, the paired verdict of
// the benchmark contract: the median of the per-pair ratios softchat / peer with a
// distribution-free confidence interval (order statistics of the ratios, >= 95 % for >= 9
// pairs); "faster" when the whole interval lies below 1, "slower" when above, else "no
// difference shown". Then the targets, met or missed, the package's sizes, the boundary's
// cost and the wasm heap's growth per call.
import { readFileSync, writeFileSync } from 'node:fs';

const { meta, records } = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const PEERS = ['nostr-tools', 'nostr-tools-wasm', 'rust-nostr'];
const TEN_X = ['nip44_encrypt_32', 'sign_event', 'parse_verify_event', 'gift_wrap', 'unwrap'];
const median = (xs) => { const s = [...xs].sort((a, b) => a - b); const m = s.length >> 1; return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2; };
const us = (ns) => (ns >= 1e6 ? `${(ns / 1e6).toFixed(2)} ms` : `${(ns / 1e3).toFixed(ns < 1e4 ? 2 : 1)} µs`);
const kb = (b) => `${(b / 1000).toFixed(1)} KB`;

function binomTail(n, k) { // P(B <= k), B ~ Bin(n, 1/2)
  let c = 1;
  let s = 0;
  for (let i = 0; i <= k; i++) { s += c; c = (c * (n - i)) / (i + 1); }
  return s / 2 ** n;
}

/** The median ratio and its interval: [r_(k), r_(n+1-k)] with P(B <= k-1) <= 2.5 %. */
export function pairedVerdict(ratios) {
  const r = [...ratios].sort((a, b) => a - b);
  const n = r.length;
  let k = 0;
  while (binomTail(n, k) <= 0.025) k++;
  if (k === 0) return { n, median: median(r), lo: NaN, hi: NaN, verdict: 'too few pairs', coverage: 0 };
  const lo = r[k - 1];
  const hi = r[n - k];
  return { n, median: median(r), lo, hi, coverage: 1 - 2 * binomTail(n, k - 1),
    verdict: hi < 1 ? 'faster' : lo > 1 ? 'slower' : 'no difference shown' };
}

const runtimes = [...new Set(records.map((r) => r.runtime))];
const rowsOf = (impl) => [...new Set(records.filter((r) => r.impl === impl).flatMap((r) => Object.keys(r.rows)))];
const ours = rowsOf('softchat').filter((r) => !r.startsWith('boundary_'));
const ns = (impl, rt, row) => records.filter((r) => r.impl === impl && r.runtime === rt && r.rows[row]).map((r) => ({ pair: r.pair, ns: r.rows[row].ns }));
const lines = [];
const say = (s = '') => lines.push(s);
const targets = [];
const target = (t, runtime, met, detail, atMedian = met) => {
  targets.push({ target: t, runtime, met, atMedian, detail });
  const word = met ? 'met' : atMedian ? 'met at the median only' : 'missed';
  say(`| ${t} | ${runtime} | ${word}${detail ? `: ${detail}` : ''} |`);
};
const verdicts = {};

say('## Web (bindings/js)');
say();
say(`Taken ${meta.date} with bindings/js/bench/run.mjs (${meta.pairs} pairs, ${meta.budgetMs} ms per row and sample${meta.smoke ? ', smoke profile' : ''}), ` +
  `Node ${meta.node}, ${meta.chromium ? `Chromium ${meta.chromium} (headless)` : 'no browser'}, ${meta.cores} cores; ` +
  `load average ${meta.loadBefore.map((x) => x.toFixed(1)).join(' ')} before and ${meta.loadAfter.map((x) => x.toFixed(1)).join(' ')} after. ` +
  `Peers: nostr-tools ${meta.peers['nostr-tools']} (pure JavaScript; and with nostr-wasm ${meta.peers['nostr-wasm']}, which replaces signing and verification only), ` +
  `@rust-nostr/nostr-sdk ${meta.peers['@rust-nostr/nostr-sdk']} (wasm-bindgen).`);
if (Math.max(...meta.loadBefore, ...meta.loadAfter) > meta.cores) {
  say();
  say(`**Taken under load** (the load average exceeded the ${meta.cores} cores): absolute times are inflated and noisy; the paired ratios are what to read, and a quiet machine should confirm them.`);
}
for (const rt of runtimes) {
  say();
  say(`### ${rt === 'node' ? 'Node' : 'Chromium'}: medians`);
  say();
  say(`| row | softchat | ${PEERS.join(' | ')} |`);
  say(`|---|---:|${PEERS.map(() => '---:').join('|')}|`);
  for (const row of ours) {
    const cell = (impl) => { const x = ns(impl, rt, row); return x.length ? us(median(x.map((v) => v.ns))) : '—'; };
    say(`| ${row} | ${cell('softchat')} | ${PEERS.map(cell).join(' | ')} |`);
  }
  say();
  say(`### ${rt === 'node' ? 'Node' : 'Chromium'}: paired verdicts (softchat / peer; < 1 is faster)`);
  say();
  say('| row | peer | pairs | median ratio | interval | speed-up | verdict |');
  say('|---|---|---:|---:|---|---:|---|');
  for (const row of ours) {
    for (const peer of PEERS) {
      const a = new Map(ns('softchat', rt, row).map((v) => [v.pair, v.ns]));
      const ratios = ns(peer, rt, row).filter((v) => a.has(v.pair)).map((v) => a.get(v.pair) / v.ns);
      if (ratios.length === 0) continue;
      const v = pairedVerdict(ratios);
      verdicts[`${rt}/${row}/${peer}`] = v;
      say(`| ${row} | ${peer} | ${v.n} | ${v.median.toFixed(3)} | ${v.lo.toFixed(3)}–${v.hi.toFixed(3)} (${(v.coverage * 100).toFixed(1)} %) | ${(1 / v.median).toFixed(1)}× | ${v.verdict} |`);
    }
  }
}
say();
say('### Targets');
say();
say('| target | runtime | result |');
say('|---|---|---|');
for (const rt of runtimes) {
  for (const row of TEN_X) {
    const v = verdicts[`${rt}/${row}/nostr-tools`];
    if (!v) continue;
    target(`≥ 10× nostr-tools on ${row}`, rt, v.hi <= 0.1,
      `${(1 / v.median).toFixed(1)}×, interval ${(1 / v.hi).toFixed(1)}–${(1 / v.lo).toFixed(1)}×`, v.median <= 0.1);
  }
  for (const row of ours) {
    const v = verdicts[`${rt}/${row}/rust-nostr`];
    if (!v) continue;
    target(`not slower than rust-nostr on ${row}`, rt, v.verdict !== 'slower', `${v.verdict}, ratio ${v.median.toFixed(2)}`);
  }
}
const z = meta.sizes;
target('wasm + JS ≤ 250 KB gzip', '—', z.total.gzip <= 250000, `${kb(z.total.gzip)} (wasm ${kb(z.wasm.raw)} raw / ${kb(z.wasm.gzip)} gzip, JS ${kb(z.js.raw)} / ${kb(z.js.gzip)})`);
const growth = records.filter((r) => r.impl === 'softchat').flatMap((r) => Object.entries(r.rows).map(([row, x]) => [row, x.heapGrowth, x.calls]));
const grew = growth.filter(([, g]) => g !== 0 && g !== undefined);
target('no wasm heap growth per call', 'both', grew.length === 0, grew.length === 0
  ? `0 bytes after every row of every sample (${growth.reduce((a, [, , c]) => a + c, 0)} calls)`
  : grew.map(([r, g, c]) => `${r} +${g} B over ${c} calls`).join(', '));
say();
say('### The boundary');
say();
say('A call copies its inputs once into wasm memory (TextEncoder.encodeInto for text, one set() for bytes) and its result out once (one TextDecoder pass, or one slice), and wipes the input bytes it wrote; the crypto runs on wasm memory in place. Measured without the crypto (the same writer and reader around the cheapest export):');
say();
say('| size | ' + runtimes.join(' | ') + ' |');
say('|---|' + runtimes.map(() => '---:').join('|') + '|');
for (const row of ['boundary_32', 'boundary_64000']) {
  say(`| ${row.split('_')[1]} B in, its NIP-44 payload's size out | ${runtimes.map((rt) => { const x = ns('softchat', rt, row); return x.length ? us(median(x.map((v) => v.ns))) : '—'; }).join(' | ')} |`);
}
process.stdout.write(lines.join('\n') + '\n');
const ti = process.argv.indexOf('--targets');
if (ti > 0) {
  writeFileSync(process.argv[ti + 1], JSON.stringify(targets, null, 1));
}
