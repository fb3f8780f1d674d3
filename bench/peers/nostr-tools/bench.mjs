// Peer benchmark: nostr-tools, in two configurations, under the softchat measurement contract.
//
//   node bench.mjs OUT.json [--runs N] [--only OP[,OP...]] [--quick]
//       runs every measurement in its own worker process (this script re-executed), backends
//       alternating A B A B across the runs, and writes OUT.json (schema softchat-bench/1).
//   node bench.mjs --worker BACKEND INDEX WARMUP_NS MIN_SAMPLE_NS SAMPLES
//       measures one operation and prints one tab-separated line:
//       median_ns  p95_ns  allocs_per_call  rss_kb  iters  samples
//   node bench.mjs --worker-op BACKEND NAME BYTES THREADS WARMUP_NS MIN_SAMPLE_NS SAMPLES
//       the same for the operation named as in softchat-bench's table ("unsupported" when
//       this peer has no such row), for softchat-bench's runner, which interleaves these
//       workers with its own (bench/runner.c)
//   node bench.mjs --describe META.json
//       writes the record without results and prints one lane per backend (label, then the
//       worker command, tab-separated)
//
// Backends: "nostr-tools" (the default pure-JS backend, nostr-tools/pure on @noble/*) and
// "nostr-tools-wasm" (nostr-tools/wasm with nostr-wasm: libsecp256k1 compiled to WebAssembly
// behind getPublicKey/finalizeEvent/verifyEvent). nostr-tools' nip44, nip59 and nip17 modules
// bundle their own copy of the pure backend and take no backend parameter, so the wasm
// configuration only changes the operations listed with both backends below.
//
// Contract (bench/harness.c): warm-up ~100 ms, inner loop calibrated so one sample lasts at
// least 1 ms, at least 20 samples, per-call median and nearest-rank p95 (ceil(0.95 n));
// 3 independent processes per configuration; the row is the median of the run medians and
// the median of the run p95s. Allocations are not counted (null); rss_kb is the worker's
// VmHWM.

import { spawnSync } from 'node:child_process'
import { readFileSync, writeFileSync } from 'node:fs'
import { cpus, machine } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const HERE = dirname(fileURLToPath(import.meta.url))
const SELF = fileURLToPath(import.meta.url)
const BACKENDS = ['nostr-tools', 'nostr-tools-wasm']
const BATCH = 1000

// The plaintext/content generator of bench/ops_common.c (bench_fill): xorshift32 over a
// seeded state, one lowercase letter per byte.
function benchFill(n, seed) {
  let x = (Math.imul(seed, 2654435761 | 0) + 1) >>> 0
  const out = new Array(n)
  for (let i = 0; i < n; i++) {
    x = (x ^ (x << 13)) >>> 0
    x = (x ^ (x >>> 17)) >>> 0
    x = (x ^ (x << 5)) >>> 0
    out[i] = String.fromCharCode(97 + (x % 26))
  }
  return out.join('')
}

function key(byte) {
  return new Uint8Array(32).fill(byte)
}

// The signing/verifying primitives of one backend.
async function loadBackend(name) {
  const pure = await import('nostr-tools/pure')
  if (name === 'nostr-tools') {
    return {
      getPublicKey: pure.getPublicKey,
      finalizeEvent: pure.finalizeEvent,
      verifyEvent: pure.verifyEvent,
      verifiedSymbol: pure.verifiedSymbol,
    }
  }
  if (name === 'nostr-tools-wasm') {
    const wasm = await import('nostr-tools/wasm')
    const { initNostrWasm } = await import('nostr-wasm')
    wasm.setNostrWasm(await initNostrWasm())
    return {
      getPublicKey: wasm.getPublicKey,
      finalizeEvent: wasm.finalizeEvent,
      verifyEvent: wasm.verifyEvent,
      verifiedSymbol: wasm.verifiedSymbol,
    }
  }
  throw new Error(`unknown backend ${name}`)
}

function check(ok, what) {
  if (!ok) throw new Error(`${what}: unexpected result`)
}

// A kind-1 event template: fixed created_at, no tags.
function note(content, createdAt) {
  return { kind: 1, created_at: createdAt, tags: [], content }
}

// ---------------------------------------------------------------------------------------
// Operations. setup(be) returns run(n), which performs the operation n times.

async function nip44Setup(bytes) {
  const { v2 } = await import('nostr-tools/nip44')
  const pure = await import('nostr-tools/pure')
  const sec = key(0x11)
  const peerPub = pure.getPublicKey(key(0x22))
  const ck = v2.utils.getConversationKey(sec, peerPub)
  const plain = benchFill(bytes, 44)
  const payload = v2.encrypt(plain, ck)
  check(v2.decrypt(payload, ck) === plain, 'nip44 round trip')
  return { v2, sec, peerPub, ck, plain, payload }
}

const nip44Ops = (bytes) => [
  {
    name: 'nip44_encrypt',
    bytes,
    backends: ['nostr-tools'],
    async setup() {
      const { v2, sec, peerPub, plain } = await nip44Setup(bytes)
      const { getConversationKey } = v2.utils
      return (n) => {
        let out
        for (let i = 0; i < n; i++) out = v2.encrypt(plain, getConversationKey(sec, peerPub))
        return out
      }
    },
  },
  {
    name: 'nip44_decrypt',
    bytes,
    backends: ['nostr-tools'],
    async setup() {
      const { v2, sec, peerPub, payload } = await nip44Setup(bytes)
      const { getConversationKey } = v2.utils
      return (n) => {
        let out
        for (let i = 0; i < n; i++) out = v2.decrypt(payload, getConversationKey(sec, peerPub))
        check(out.length === bytes, 'nip44 decrypt')
        return out
      }
    },
  },
  {
    name: 'nip44_encrypt_held',
    bytes,
    backends: ['nostr-tools'],
    async setup() {
      const { v2, ck, plain } = await nip44Setup(bytes)
      return (n) => {
        let out
        for (let i = 0; i < n; i++) out = v2.encrypt(plain, ck)
        return out
      }
    },
  },
  {
    name: 'nip44_decrypt_held',
    bytes,
    backends: ['nostr-tools'],
    async setup() {
      const { v2, ck, payload } = await nip44Setup(bytes)
      return (n) => {
        let out
        for (let i = 0; i < n; i++) out = v2.decrypt(payload, ck)
        check(out.length === bytes, 'nip44 decrypt')
        return out
      }
    },
  },
]

// The k-th key of a family: 31 bytes of `byte`, then k (the secrets bench/ops_*.c use).
function familyKey(byte, k) {
  const sk = key(byte)
  sk[31] = k
  return sk
}

// Signed kind-1 events as bench/ops_event.c makes them (event i by author i % 64 of family
// 0x33, created_at 1700000000 + i, 32 bytes of content), as JSON.
async function signedEvents(count) {
  const pure = await import('nostr-tools/pure')
  const out = []
  for (let i = 0; i < count; i++) {
    out.push(JSON.stringify(pure.finalizeEvent(note(benchFill(32, 1000 + i), 1700000000 + i), familyKey(0x33, i % 64))))
  }
  return out
}

const MSG_CONTENT = benchFill(15, 59)

// The kind-14 rumor template of bench/ops_msg.c: 15 bytes of content and one p tag.
function rumorTemplate(to) {
  return { kind: 14, created_at: 1700000000, tags: [['p', to]], content: MSG_CONTENT }
}

const OPS = [
  {
    name: 'import_identity',
    bytes: 32,
    backends: BACKENDS,
    async setup(be) {
      const sec = key(0x11)
      return (n) => {
        let pk
        for (let i = 0; i < n; i++) pk = be.getPublicKey(sec)
        check(pk.length === 64, 'getPublicKey')
        return pk
      }
    },
  },
  ...nip44Ops(32),
  ...nip44Ops(1024),
  ...nip44Ops(64000),
  {
    name: 'sign_event',
    bytes: 32,
    backends: BACKENDS,
    async setup(be) {
      const sk = key(0x33)
      const content = benchFill(32, 7)
      return (n) => {
        let ev
        for (let i = 0; i < n; i++) ev = be.finalizeEvent(note(content, 1700000000), sk)
        check(ev.sig.length === 128, 'finalizeEvent')
        return ev
      }
    },
  },
  {
    name: 'parse_verify_event',
    bytes: 374,
    backends: BACKENDS,
    async setup(be) {
      const json = await signedEvents(16) // 16 events by 16 authors, in turn
      check(json.every((j) => Buffer.byteLength(j) === 374), 'event JSON is 374 bytes')
      // JSON.parse makes a fresh object each call, so nostr-tools' per-object verification
      // cache never answers.
      let next = 0
      return (n) => {
        for (let i = 0; i < n; i++) {
          const j = json[next]
          next = (next + 1) % json.length
          if (!be.verifyEvent(JSON.parse(j))) throw new Error('verifyEvent failed')
        }
      }
    },
  },
  {
    name: 'nip59_rumor',
    bytes: 15,
    backends: ['nostr-tools'],
    async setup() {
      const nip59 = await import('nostr-tools/nip59')
      const pure = await import('nostr-tools/pure')
      const sk = familyKey(0x51, 0)
      const bob = pure.getPublicKey(familyKey(0x52, 0))
      return (n) => {
        let r
        for (let i = 0; i < n; i++) r = nip59.createRumor(rumorTemplate(bob), sk)
        check(r.id.length === 64, 'createRumor')
        return r
      }
    },
  },
  {
    name: 'nip17_message',
    bytes: 15,
    backends: ['nostr-tools'],
    async setup() {
      const nip17 = await import('nostr-tools/nip17')
      const pure = await import('nostr-tools/pure')
      const sk = familyKey(0x51, 0)
      const to = Array.from({ length: 16 }, (_, k) => ({ publicKey: pure.getPublicKey(familyKey(0x52, k)) }))
      let next = 0
      return (n) => {
        let w
        for (let i = 0; i < n; i++) {
          w = nip17.wrapEvent(sk, to[next], MSG_CONTENT)
          next = (next + 1) % to.length
        }
        check(w.kind === 1059, 'nip17.wrapEvent')
        return w
      }
    },
  },
  {
    name: 'gift_wrap',
    bytes: 15,
    backends: ['nostr-tools'],
    async setup() {
      const nip59 = await import('nostr-tools/nip59')
      const pure = await import('nostr-tools/pure')
      const sk = familyKey(0x51, 0)
      const bob = pure.getPublicKey(familyKey(0x52, 0))
      const to = Array.from({ length: 16 }, (_, k) => pure.getPublicKey(familyKey(0x52, k)))
      let next = 0
      return (n) => {
        let w
        for (let i = 0; i < n; i++) {
          w = nip59.wrapEvent(rumorTemplate(bob), sk, to[next])
          next = (next + 1) % to.length
        }
        check(w.kind === 1059, 'nip59.wrapEvent')
        return w
      }
    },
  },
  {
    name: 'unwrap',
    bytes: 15,
    backends: ['nostr-tools'],
    async setup() {
      const nip59 = await import('nostr-tools/nip59')
      const pure = await import('nostr-tools/pure')
      const me = familyKey(0x52, 0)
      const mePub = pure.getPublicKey(me)
      // 16 wraps from 16 senders, as JSON text (parsed in each call, as received)
      const wraps = Array.from({ length: 16 }, (_, k) =>
        JSON.stringify(nip59.wrapEvent(rumorTemplate(mePub), familyKey(0x51, k), mePub)),
      )
      let next = 0
      return (n) => {
        let r
        for (let i = 0; i < n; i++) {
          r = nip59.unwrapEvent(JSON.parse(wraps[next]), me)
          next = (next + 1) % wraps.length
        }
        check(r.content === MSG_CONTENT, 'nip59.unwrapEvent')
        return r
      }
    },
  },
  {
    name: 'verify_batch',
    bytes: BATCH,
    backends: BACKENDS,
    perItem: BATCH,
    async setup(be) {
      const events = (await signedEvents(BATCH)).map((j) => JSON.parse(j))
      const sym = be.verifiedSymbol
      // nostr-tools remembers a verification result on the event object; clearing it before
      // each call makes every call verify, as for events freshly received.
      return (n) => {
        for (let k = 0; k < n; k++) {
          for (let i = 0; i < BATCH; i++) {
            const ev = events[i]
            ev[sym] = undefined
            if (!be.verifyEvent(ev)) throw new Error('verifyEvent failed')
          }
        }
      }
    },
  },
]

// ---------------------------------------------------------------------------------------
// Measurement (bench/harness.c)

const now = () => process.hrtime.bigint()

function quantiles(v) {
  v.sort((a, b) => a - b)
  const n = v.length
  const median = n % 2 ? v[(n - 1) / 2] : (v[n / 2 - 1] + v[n / 2]) / 2
  const rank = Math.ceil((95 * n) / 100)
  return { median, p95: v[rank === 0 ? 0 : rank - 1] }
}

function measure(run, perItem, params) {
  const samples = Math.max(20, params.samples)
  const sample = (n) => {
    const t0 = now()
    run(n)
    return Number(now() - t0) + 1
  }
  const start = now()
  while (Number(now() - start) < params.warmupNs) sample(1)
  let n = 1
  for (;;) {
    const t = sample(n)
    if (t >= params.minSampleNs) break
    n = t * 4 < params.minSampleNs ? n * 4 : n * 2
  }
  const perCall = []
  for (let i = 0; i < samples; i++) perCall.push(sample(n) / (n * (perItem || 1)))
  const q = quantiles(perCall)
  return { median: q.median, p95: q.p95, iters: n, samples }
}

function peakRssKb() {
  const m = /^VmHWM:\s*(\d+)/m.exec(readFileSync('/proc/self/status', 'utf8'))
  return m ? Number(m[1]) : Math.round(process.memoryUsage().rss / 1024)
}

async function worker(args) {
  const [backend, index, warm, minSample, samples] = args
  const op = OPS[Number(index)]
  if (!op || !op.backends.includes(backend)) throw new Error('no such operation/backend')
  const be = await loadBackend(backend)
  const run = await op.setup(be)
  const r = measure(run, op.perItem, {
    warmupNs: Number(warm),
    minSampleNs: Number(minSample),
    samples: Number(samples),
  })
  process.stdout.write(
    `${r.median.toFixed(1)}\t${r.p95.toFixed(1)}\t-1\t${peakRssKb()}\t${r.iters}\t${r.samples}\twall\n`,
  )
}

// --worker-op BACKEND NAME BYTES THREADS WARMUP_NS MIN_SAMPLE_NS SAMPLES [wall|cpu]
// Node has no per-thread CPU clock (process.cpuUsage counts V8's helper threads too), so a
// "cpu" request is timed with the wall clock, and the line says "wall".
async function workerOp(args) {
  const [backend, name, bytes, threads, warm, minSample, samples] = args
  const index = OPS.findIndex((o) => o.name === name && o.bytes === Number(bytes) && o.backends.includes(backend))
  if (index < 0 || Number(threads) !== 1) {
    process.stdout.write('unsupported\n')
    return
  }
  await worker([backend, String(index), warm, minSample, samples])
}

// ---------------------------------------------------------------------------------------
// Runner (bench/runner.c)

function median(v) {
  const s = [...v].sort((a, b) => a - b)
  const n = s.length
  return n % 2 ? s[(n - 1) / 2] : (s[n / 2 - 1] + s[n / 2]) / 2
}

const round1 = (x) => Math.round(x * 10) / 10

function spawnWorker(backend, index, params) {
  const r = spawnSync(
    process.execPath,
    [SELF, '--worker', backend, String(index), String(params.warmupNs), String(params.minSampleNs), String(params.samples)],
    { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 1 << 20 },
  )
  if (r.status !== 0) {
    process.stderr.write(`\nworker ${backend} ${OPS[index].name}/${OPS[index].bytes} failed: ${(r.stderr || '').trim().split('\n').slice(-3).join(' | ')}\n`)
    return null
  }
  const f = r.stdout.trim().split('\t')
  if (f.length < 6) return null
  return {
    median_ns: round1(Number(f[0])),
    p95_ns: round1(Number(f[1])),
    allocations: null,
    rss_kb: Number(f[3]),
    iterations: Number(f[4]),
    samples: Number(f[5]),
  }
}

function pkgVersion(name) {
  try {
    return JSON.parse(readFileSync(join(HERE, 'node_modules', name, 'package.json'), 'utf8')).version
  } catch {
    return 'unknown'
  }
}

function cpuModel() {
  try {
    const m = /^model name\s*:\s*(.*)$/m.exec(readFileSync('/proc/cpuinfo', 'utf8'))
    if (m) return m[1].trim()
  } catch {}
  return cpus()[0]?.model ?? 'unknown'
}

const UNSUPPORTED = [
  { operation: 'attachment_encrypt', reason: 'nostr-tools has no encrypted-attachment (NIP-17 kind 15 file encryption) API' },
  { operation: 'attachment_decrypt', reason: 'nostr-tools has no encrypted-attachment (NIP-17 kind 15 file encryption) API' },
  {
    operation: 'verify_batch',
    threads: cpus().length,
    reason: 'nostr-tools is single-threaded JavaScript with no parallel verification API (worker_threads would be our code, not the peer\'s); measured on 1 thread only',
  },
]

const NOTES = [
  'Two configurations: "nostr-tools" is the default pure-JS backend (nostr-tools/pure on @noble/curves, @noble/hashes, @noble/ciphers); "nostr-tools-wasm" is nostr-tools/wasm with nostr-wasm (libsecp256k1 in WebAssembly), set up with setNostrWasm(await initNostrWasm()).',
  'nostr-tools/wasm exports only generateSecretKey, getPublicKey, finalizeEvent and verifyEvent (no getEventHash); nip44, nip59 and nip17 bundle their own copy of the pure backend and take no backend parameter, so only import_identity, sign_event, parse_verify_event and verify_batch differ between the two configurations and only those have nostr-tools-wasm rows; every other operation runs the same JavaScript in both, and its "nostr-tools" row stands for both.',
  'import_identity: getPublicKey(sk) (x-only public key as hex; nostr-tools keeps no keypair object).',
  'nip44_encrypt/decrypt: nip44.v2.utils.getConversationKey(sk, peerPubHex) then nip44.v2.encrypt(text, key) (fresh 32-byte nonce from crypto.getRandomValues, base64 output) / nip44.v2.decrypt(payload, key) (returns a string); _held variants reuse the conversation key. Plaintext is ASCII, so bytes == characters.',
  'sign_event: finalizeEvent({kind:1, created_at:1700000000, tags:[], content}, sk) on a fresh template each call; the pure backend derives the public key from sk and hashes the event twice inside finalizeEvent, the wasm backend derives the keypair and hashes once.',
  'parse_verify_event: JSON.parse of the 374-byte text + verifyEvent (id recomputed and compared, BIP-340 signature), cycling through 16 events by 16 authors; a fresh object per call, so the per-object verification cache never answers.',
  'verify_batch: 1000 distinct parsed events; the per-object verification cache (event[verifiedSymbol]) is cleared before each verifyEvent so that every call verifies; time reported per event.',
  'nip59_rumor: nip59.createRumor({kind:14, created_at, tags:[["p", receiver]], content}, sk): it derives the public key from sk (a scalar multiplication) on every call, then computes the id.',
  'gift_wrap: nip59.wrapEvent(template with one p tag, senderSk, receiverPub), to 16 receivers in turn, = createRumor (pubkey derivation + id) + createSeal (conversation key, NIP-44, sign) + createWrap (one-time key, conversation key, NIP-44, sign); nostr-tools derives the sender public key again inside each finalizeEvent.',
  'nip17_message: nip17.wrapEvent(senderSk, {publicKey: receiver}, message): one kind-14 rumor with a ["p", receiver] tag, sealed and gift-wrapped for the receiver only (no copy for the sender), to 16 receivers in turn.',
  'unwrap: nip59.unwrapEvent(JSON.parse(wrap text), recipientSk), cycling through 16 wraps from 16 senders. It checks wrap kind == 1059; does NOT verify the wrap id or signature; decrypts the seal; checks seal kind == 13; verifies the seal (verifyEvent: id recomputed + BIP-340 signature); decrypts the rumor; checks rumor.pubkey == seal.pubkey; does NOT recompute or check the rumor id and does not reject a rumor carrying a sig.',
  'Results are JavaScript objects/strings as the API returns them (no JSON serialization of wraps unless the API does it).',
  'Timing: process.hrtime.bigint(); JIT warm-up is covered by the ~100 ms warm-up; garbage-collection pauses fall inside the samples they happen in (they are part of the peer\'s cost and mostly show in p95).',
  'allocations: null (not measured: the V8 heap offers no per-call allocation count comparable to malloc counts). rss_kb: the worker process\'s VmHWM (includes the Node.js runtime, about 60 MB for the lightest operations).',
]

async function main(argv) {
  let out = null
  let runs = 3
  let only = null
  let quick = false
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--runs') runs = Number(argv[++i])
    else if (argv[i] === '--only') only = new Set(argv[++i].split(','))
    else if (argv[i] === '--quick') quick = true
    else if (!out) out = argv[i]
    else throw new Error(`unexpected argument ${argv[i]}`)
  }
  if (!out) {
    process.stderr.write('usage: node bench.mjs OUT.json [--runs N] [--only OP[,OP...]] [--quick]\n')
    process.exit(2)
  }
  if (quick) runs = 1
  const params = { warmupNs: quick ? 10_000_000 : 100_000_000, minSampleNs: 1_000_000, samples: 20 }
  const plan = OPS.map((op, index) => ({ op, index })).filter(({ op }) => !only || only.has(op.name))
  const steps = plan.reduce((s, { op }) => s + op.backends.length * runs, 0)
  const results = []
  let step = 0
  let failed = 0
  for (const { op, index } of plan) {
    const rows = op.backends.map((backend) => ({
      backend,
      operation: op.name,
      bytes: op.bytes,
      threads: 1,
      floor: false,
      runs: [],
      failed: false,
    }))
    for (let r = 0; r < runs; r++) {
      for (const row of rows) {
        process.stderr.write(`\r[${++step}/${steps}] ${row.backend.padEnd(17)} ${op.name.padEnd(20)} ${String(op.bytes).padStart(7)} B  run ${r + 1}/${runs}   `)
        const run = spawnWorker(row.backend, index, params)
        if (run) row.runs.push(run)
        else row.failed = true
      }
    }
    for (const row of rows) {
      const res = {
        backend: row.backend,
        operation: row.operation,
        bytes: row.bytes,
        threads: row.threads,
        floor: false,
      }
      if (row.failed || row.runs.length === 0) {
        failed++
        Object.assign(res, { failed: true, median_ns: null, p95_ns: null, allocations: null })
      } else {
        Object.assign(res, {
          median_ns: round1(median(row.runs.map((x) => x.median_ns))),
          p95_ns: round1(median(row.runs.map((x) => x.p95_ns))),
          allocations: null,
          rss_kb: Math.round(median(row.runs.map((x) => x.rss_kb))),
        })
      }
      res.runs = row.runs
      results.push(res)
    }
  }
  process.stderr.write(`\r${' '.repeat(78)}\r`)
  const doc = record(runs, results)
  writeFileSync(out, JSON.stringify(doc, null, 1) + '\n')
  for (const r of results) {
    const fmt = (ns) => (ns == null ? '-' : ns < 1e3 ? `${ns.toFixed(0)} ns` : ns < 1e6 ? `${(ns / 1e3).toFixed(2)} us` : `${(ns / 1e6).toFixed(2)} ms`)
    process.stderr.write(`${r.backend.padEnd(17)} ${r.operation.padEnd(20)} ${String(r.bytes).padStart(7)} ${String(r.threads).padStart(3)} ${fmt(r.median_ns).padStart(11)} ${fmt(r.p95_ns).padStart(11)} ${String(r.rss_kb ?? '-').padStart(8)}${r.failed ? '  FAILED' : ''}\n`)
  }
  if (failed) {
    process.stderr.write(`${failed} row(s) failed\n`)
    process.exit(1)
  }
}

// --describe META.json
function describe(args) {
  writeFileSync(args[0], JSON.stringify(record(0, []), null, 1) + '\n')
  for (const b of BACKENDS) process.stdout.write(`${b}\t${process.execPath}\t${SELF}\t--worker-op\t${b}\n`)
}

function record(runs, results) {
  return {
    schema: 'softchat-bench/1',
    revision: `nostr-tools@${pkgVersion('nostr-tools')}`,
    machine: { cpu: cpuModel(), cores: cpus().length, arch: machine() },
    libraries: {
      'nostr-tools': pkgVersion('nostr-tools'),
      'nostr-wasm': pkgVersion('nostr-wasm'),
      '@noble/curves': pkgVersion('@noble/curves'),
      '@noble/hashes': pkgVersion('@noble/hashes'),
      '@noble/ciphers': pkgVersion('@noble/ciphers'),
      '@scure/base': pkgVersion('@scure/base'),
      node: process.version,
      v8: process.versions.v8,
    },
    command: 'bench/peers/nostr-tools/run.sh',
    runs,
    unsupported: UNSUPPORTED,
    notes: NOTES,
    results,
  }
}

const argv = process.argv.slice(2)
const modes = { '--worker': worker, '--worker-op': workerOp, '--describe': describe }
const mode = modes[argv[0]]
Promise.resolve()
  .then(() => (mode ? mode(argv.slice(1)) : main(argv)))
  .catch((e) => {
    process.stderr.write(`${e.stack || e}\n`)
    process.exit(1)
  })
