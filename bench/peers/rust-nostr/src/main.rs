//! Peer benchmark: the rust-nostr `nostr` crate under the softchat measurement contract.
//!
//!   peer-bench OUT.json [--runs N] [--only OP[,OP...]] [--quick]
//!       runs every measurement in its own worker process (this binary re-executed) and
//!       writes OUT.json (schema softchat-bench/1).
//!   peer-bench --worker INDEX WARMUP_NS MIN_SAMPLE_NS SAMPLES
//!       measures one operation and prints one tab-separated line:
//!       median_ns  p95_ns  allocs_per_call  rss_kb  iters  samples
//!
//! Contract (bench/harness.c): warm-up ~100 ms, inner loop calibrated so one sample lasts at
//! least 1 ms, at least 20 samples, per-call median and nearest-rank p95 (ceil(0.95 n));
//! 3 independent processes per configuration; the row is the median of the run medians and
//! the median of the run p95s. Allocations are not counted (null); rss_kb is the worker's
//! VmHWM.

use std::fmt::Write as _;
use std::hint::black_box;
use std::process::{Command, ExitCode, Stdio};
use std::time::Instant;

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD as BASE64;
use nostr::nips::nip44::v2::{self, ConversationKey};
use nostr::prelude::*;

const BACKEND: &str = "rust-nostr";
const BATCH: usize = 1000;
const CREATED_AT: u64 = 1_700_000_000;

/// Versions resolved in Cargo.lock at build time, and what build.rs found.
const CARGO_LOCK: &str = include_str!("../Cargo.lock");
const RUSTC_VERSION: &str = env!("PEER_RUSTC_VERSION");
const LIBSECP256K1_VERSION: &str = env!("PEER_LIBSECP256K1_VERSION");

type Run = Box<dyn FnMut(u64) -> Result<(), String>>;

/// One operation: setup returns the closure that performs it n times.
struct Op {
    name: &'static str,
    bytes: usize,
    per_item: usize,
    threads: usize, // 0: every online core
    setup: fn(usize) -> Result<Run, String>,
}

fn err<E: std::fmt::Display>(e: E) -> String {
    e.to_string()
}

/// The content generator of bench/ops_common.c (bench_fill): xorshift32 over a seeded
/// state, one lowercase letter per byte.
fn bench_fill(n: usize, seed: u32) -> String {
    let mut x: u32 = seed.wrapping_mul(2_654_435_761).wrapping_add(1);
    let mut s = String::with_capacity(n);
    for _ in 0..n {
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        s.push((b'a' + (x % 26) as u8) as char);
    }
    s
}

fn keys(byte: u8) -> Result<Keys, String> {
    Ok(Keys::new(SecretKey::from_slice(&[byte; 32]).map_err(err)?))
}

/// The k-th key of a family: 31 bytes of `byte`, then k (bench/ops_*.c use the same secrets,
/// so both sides meet the same public keys).
fn family_key(byte: u8, k: usize) -> Result<Keys, String> {
    let mut sec = [byte; 32];
    sec[31] = k as u8;
    Ok(Keys::new(SecretKey::from_slice(&sec).map_err(err)?))
}

fn cores() -> usize {
    std::thread::available_parallelism().map(|n| n.get()).unwrap_or(1)
}

/// Keys (and inputs built from them) rotate through ROTATE of each: more than the 8 lifted
/// keys libsoftchat's curve adapter keeps, so neither side meets a key it has lifted before
/// (this crate keeps none). The `_warm` rows repeat one key instead.
const ROTATE: usize = 16;

/// What Keys::sign_event does (id, then a BIP-340 signature with 32 bytes of OS-RNG aux,
/// then Event::new), without the verification UnsignedEvent::add_signature adds after it:
/// the signing libsoftchat does.
fn sign_unverified(keys: &Keys, unsigned: UnsignedEvent) -> Event {
    let id: EventId = unsigned.id.unwrap_or_else(|| unsigned.compute_id());
    let sig = keys.sign_schnorr(id.as_bytes());
    Event::new(id, unsigned.pubkey, unsigned.created_at, unsigned.kind, unsigned.tags, unsigned.content, sig)
}

/// nip59's tweaked_timestamp (private in the crate): now minus 0..2 days from the OS RNG.
fn tweaked_timestamp() -> Result<Timestamp, String> {
    let mut r = [0u8; 8];
    getrandom::fill(&mut r).map_err(err)?;
    let secs = u64::from_le_bytes(r) % 172_800;
    Ok(Timestamp::from_secs(Timestamp::now().as_secs().saturating_sub(secs)))
}

/// GiftWrapBuilder::finalize step by step with the crate's own pieces (ensure_id, nip44::encrypt,
/// the seal and wrap builders, Keys::generate, Tag::public_key, the tweaked timestamps), each
/// signature made by sign_unverified: the crate's gift wrap without its two verifications.
fn gift_wrap_unverified(sender: &Keys, receiver: &PublicKey, mut rumor: UnsignedEvent) -> Result<Event, String> {
    rumor.ensure_id();
    let content = nip44::encrypt(sender.secret_key(), receiver, rumor.as_json(), nip44::Version::V2).map_err(err)?;
    let seal = EventBuilder::new(Kind::Seal, content)
        .custom_created_at(tweaked_timestamp()?)
        .finalize_unsigned(sender.public_key());
    let seal = sign_unverified(sender, seal);
    let one_time = Keys::generate();
    let content = nip44::encrypt(one_time.secret_key(), receiver, seal.as_json(), nip44::Version::V2).map_err(err)?;
    let wrap = EventBuilder::new(Kind::GiftWrap, content)
        .tag(Tag::public_key(*receiver))
        .custom_created_at(tweaked_timestamp()?)
        .finalize_unsigned(one_time.public_key());
    Ok(sign_unverified(&one_time, wrap))
}

// ---------------------------------------------------------------------------------------
// Operations

fn setup_import(_: usize) -> Result<Run, String> {
    let sec = [0x11u8; 32];
    Ok(Box::new(move |n| {
        for _ in 0..n {
            let k = Keys::new(SecretKey::from_slice(black_box(&sec)).map_err(err)?);
            black_box(k.public_key());
        }
        Ok(())
    }))
}

/// NIP-44 between me (0x11) and ROTATE peers (family 0x22), or one peer (`peers` = 1).
struct Nip44Fixture {
    me: Keys,
    peers: Vec<PublicKey>,
    ck: ConversationKey, // with peers[0]
    plain: String,
    payloads: Vec<String>, // payloads[k] from peers[k]
}

fn nip44_fixture(bytes: usize, peers: usize) -> Result<Nip44Fixture, String> {
    let me = keys(0x11)?;
    let peers = (0..peers).map(|k| family_key(0x22, k).map(|p| p.public_key())).collect::<Result<Vec<_>, _>>()?;
    let ck = ConversationKey::derive(me.secret_key(), &peers[0]).map_err(err)?;
    let plain = bench_fill(bytes, 44);
    let mut payloads = Vec::with_capacity(peers.len());
    for p in &peers {
        let payload = nip44::encrypt(me.secret_key(), p, &plain, nip44::Version::V2).map_err(err)?;
        if nip44::decrypt(me.secret_key(), p, &payload).map_err(err)? != plain {
            return Err("nip44 round trip".into());
        }
        payloads.push(payload);
    }
    Ok(Nip44Fixture { me, peers, ck, plain, payloads })
}

fn nip44_encrypt_run(bytes: usize, peers: usize) -> Result<Run, String> {
    let f = nip44_fixture(bytes, peers)?;
    let mut next = 0;
    Ok(Box::new(move |n| {
        for _ in 0..n {
            let k = next;
            next = (next + 1) % f.peers.len();
            let p = nip44::encrypt(f.me.secret_key(), &f.peers[k], &f.plain, nip44::Version::V2)
                .map_err(err)?;
            black_box(p);
        }
        Ok(())
    }))
}

/// nip44::decrypt_to_bytes: nip44::decrypt without its final String::from_utf8 (libsoftchat
/// returns bytes and leaves the UTF-8 check to the caller).
fn nip44_decrypt_run(bytes: usize, peers: usize) -> Result<Run, String> {
    let f = nip44_fixture(bytes, peers)?;
    let mut next = 0;
    Ok(Box::new(move |n| {
        for _ in 0..n {
            let k = next;
            next = (next + 1) % f.peers.len();
            let p = nip44::decrypt_to_bytes(f.me.secret_key(), &f.peers[k], &f.payloads[k]).map_err(err)?;
            if p.len() != bytes {
                return Err("nip44 decrypt".into());
            }
            black_box(p);
        }
        Ok(())
    }))
}

fn setup_nip44_encrypt(bytes: usize) -> Result<Run, String> {
    nip44_encrypt_run(bytes, ROTATE)
}

fn setup_nip44_decrypt(bytes: usize) -> Result<Run, String> {
    nip44_decrypt_run(bytes, ROTATE)
}

fn setup_nip44_encrypt_warm(bytes: usize) -> Result<Run, String> {
    nip44_encrypt_run(bytes, 1)
}

fn setup_nip44_decrypt_warm(bytes: usize) -> Result<Run, String> {
    nip44_decrypt_run(bytes, 1)
}

/// The held-key encrypt: the crate's v2::encrypt_to_bytes_with_nonce under a precomputed
/// ConversationKey, with what nip44::encrypt adds around it (a fresh 32-byte nonce from the
/// OS RNG, base64 with the same base64 crate and engine).
fn setup_nip44_encrypt_held(bytes: usize) -> Result<Run, String> {
    let f = nip44_fixture(bytes, 1)?;
    Ok(Box::new(move |n| {
        for _ in 0..n {
            let mut nonce = [0u8; 32];
            getrandom::fill(&mut nonce).map_err(err)?;
            let raw = v2::encrypt_to_bytes_with_nonce(&f.ck, f.plain.as_bytes(), nonce)
                .map_err(err)?;
            black_box(BASE64.encode(raw));
        }
        Ok(())
    }))
}

/// The held-key decrypt: base64 decode and v2::decrypt_to_bytes under the precomputed key.
fn setup_nip44_decrypt_held(bytes: usize) -> Result<Run, String> {
    let f = nip44_fixture(bytes, 1)?;
    Ok(Box::new(move |n| {
        for _ in 0..n {
            let raw = BASE64.decode(f.payloads[0].as_bytes()).map_err(err)?;
            let p = v2::decrypt_to_bytes(&f.ck, &raw).map_err(err)?;
            if p.len() != bytes {
                return Err("nip44 decrypt".into());
            }
            black_box(p);
        }
        Ok(())
    }))
}

fn text_note(content: &str) -> EventBuilder {
    EventBuilder::new(Kind::TextNote, content).custom_created_at(Timestamp::from_secs(CREATED_AT))
}

fn setup_sign(_: usize) -> Result<Run, String> {
    let k = family_key(0x33, 0)?;
    let content = bench_fill(32, 7);
    Ok(Box::new(move |n| {
        for _ in 0..n {
            let ev = sign_unverified(&k, text_note(&content).finalize_unsigned(k.public_key()));
            black_box(ev);
        }
        Ok(())
    }))
}

/// The crate's signing as shipped: EventBuilder::finalize(&keys), which verifies the new
/// signature (a reference row: libsoftchat has no such operation).
fn setup_sign_verified(_: usize) -> Result<Run, String> {
    let k = family_key(0x33, 0)?;
    let content = bench_fill(32, 7);
    Ok(Box::new(move |n| {
        for _ in 0..n {
            black_box(text_note(&content).finalize(&k).map_err(err)?);
        }
        Ok(())
    }))
}

/// Signed kind-1 events as bench/ops_event.c makes them: event i by author i % 64 (family
/// 0x33), created_at 1700000000 + i, 32 bytes of content.
const AUTHORS: usize = 64;

fn signed_events(count: usize) -> Result<Vec<Event>, String> {
    let authors = (0..AUTHORS).map(|k| family_key(0x33, k)).collect::<Result<Vec<_>, _>>()?;
    (0..count)
        .map(|i| {
            EventBuilder::new(Kind::TextNote, bench_fill(32, 1000 + i as u32))
                .custom_created_at(Timestamp::from_secs(CREATED_AT + i as u64))
                .finalize(&authors[i % AUTHORS])
                .map_err(err)
        })
        .collect()
}

/// Event::from_json + event.verify() over ROTATE events by ROTATE authors in turn.
fn setup_parse_verify(bytes: usize) -> Result<Run, String> {
    let json: Vec<String> = signed_events(ROTATE)?.iter().map(|e| e.as_json()).collect();
    if let Some(j) = json.iter().find(|j| j.len() != bytes) {
        return Err(format!("event JSON is {} bytes, not {bytes}", j.len()));
    }
    let mut next = 0;
    Ok(Box::new(move |n| {
        for _ in 0..n {
            let k = next;
            next = (next + 1) % json.len();
            let ev = Event::from_json(black_box(json[k].as_bytes())).map_err(err)?;
            ev.verify().map_err(err)?;
            black_box(ev);
        }
        Ok(())
    }))
}

/// Alice (family 0x51, key 0) writes to bob (family 0x52, key 0).
fn message_content() -> String {
    bench_fill(15, 59)
}

/// The kind-14 rumor of bench/ops_msg.c: 15 bytes of content and one p tag.
fn rumor(author: PublicKey, to: PublicKey) -> UnsignedEvent {
    EventBuilder::new(Kind::PrivateDirectMessage, message_content())
        .tag(Tag::public_key(to))
        .custom_created_at(Timestamp::from_secs(CREATED_AT))
        .finalize_unsigned(author)
}

fn setup_rumor(_: usize) -> Result<Run, String> {
    let alice = family_key(0x51, 0)?.public_key();
    let bob = family_key(0x52, 0)?.public_key();
    let content = message_content();
    Ok(Box::new(move |n| {
        for _ in 0..n {
            let mut r = EventBuilder::new(Kind::PrivateDirectMessage, content.clone())
                .tag(Tag::public_key(bob))
                .custom_created_at(Timestamp::from_secs(CREATED_AT))
                .finalize_unsigned(alice);
            r.ensure_id();
            black_box(r);
        }
        Ok(())
    }))
}

fn receivers(count: usize) -> Result<Vec<PublicKey>, String> {
    (0..count).map(|k| family_key(0x52, k).map(|p| p.public_key())).collect()
}

/// A chat message to one receiver (the receivers rotate unless `count` is 1): nip17's rumor
/// (kind 14, content, ['p', receiver]) then the gift wrap; `verified` uses the crate's
/// PrivateDirectMessageBuilder::finalize as shipped (both signatures verified).
fn nip17_run(count: usize, verified: bool) -> Result<Run, String> {
    let sender = family_key(0x51, 0)?;
    let to = receivers(count)?;
    let content = message_content();
    let mut next = 0;
    Ok(Box::new(move |n| {
        for _ in 0..n {
            let k = next;
            next = (next + 1) % to.len();
            let w = if verified {
                PrivateDirectMessageBuilder::new(to[k], content.clone()).finalize(&sender).map_err(err)?
            } else {
                let r = EventBuilder::new(Kind::PrivateDirectMessage, content.clone())
                    .tag(Tag::public_key(to[k]))
                    .finalize_unsigned(sender.public_key());
                gift_wrap_unverified(&sender, &to[k], r)?
            };
            if w.kind != Kind::GiftWrap {
                return Err("private message".into());
            }
            black_box(w);
        }
        Ok(())
    }))
}

fn setup_nip17(_: usize) -> Result<Run, String> {
    nip17_run(ROTATE, false)
}

fn setup_nip17_warm(_: usize) -> Result<Run, String> {
    nip17_run(1, false)
}

fn setup_nip17_verified(_: usize) -> Result<Run, String> {
    nip17_run(ROTATE, true)
}

/// The prebuilt rumor (id not yet computed: the seal step computes it) wrapped for one
/// receiver (rotating unless `count` is 1).
fn gift_wrap_run(count: usize, verified: bool) -> Result<Run, String> {
    let sender = family_key(0x51, 0)?;
    let to = receivers(count)?;
    let r = rumor(sender.public_key(), family_key(0x52, 0)?.public_key());
    let mut next = 0;
    Ok(Box::new(move |n| {
        for _ in 0..n {
            let k = next;
            next = (next + 1) % to.len();
            let w = if verified {
                GiftWrapBuilder::new(to[k], r.clone()).finalize(&sender).map_err(err)?
            } else {
                gift_wrap_unverified(&sender, &to[k], r.clone())?
            };
            black_box(w);
        }
        Ok(())
    }))
}

fn setup_gift_wrap(_: usize) -> Result<Run, String> {
    gift_wrap_run(ROTATE, false)
}

fn setup_gift_wrap_warm(_: usize) -> Result<Run, String> {
    gift_wrap_run(1, false)
}

fn setup_gift_wrap_verified(_: usize) -> Result<Run, String> {
    gift_wrap_run(ROTATE, true)
}

/// ROTATE gift wraps to bob as JSON text, each with its own one-time key; from ROTATE
/// senders in turn, or (`senders` = 1) all from alice. Each call parses the wrap
/// (Event::from_json) and unwraps it (UnwrappedGift::from_gift_wrap).
fn unwrap_run(senders: usize) -> Result<Run, String> {
    let me = family_key(0x52, 0)?;
    let from = (0..senders).map(|k| family_key(0x51, k)).collect::<Result<Vec<_>, _>>()?;
    let mut wraps = Vec::with_capacity(ROTATE);
    for k in 0..ROTATE {
        let s = &from[k % senders];
        let w = GiftWrapBuilder::new(me.public_key(), rumor(s.public_key(), me.public_key()))
            .finalize(s)
            .map_err(err)?;
        wraps.push((w.as_json(), s.public_key()));
    }
    let content = message_content();
    let mut next = 0;
    Ok(Box::new(move |n| {
        for _ in 0..n {
            let (json, sender) = &wraps[next];
            next = (next + 1) % wraps.len();
            let wrap = Event::from_json(black_box(json.as_bytes())).map_err(err)?;
            let g = UnwrappedGift::from_gift_wrap(&me, &wrap).map_err(err)?;
            if g.rumor.content != content || g.sender != *sender {
                return Err("unwrap".into());
            }
            black_box(g);
        }
        Ok(())
    }))
}

fn setup_unwrap(_: usize) -> Result<Run, String> {
    unwrap_run(ROTATE)
}

fn setup_unwrap_warm(_: usize) -> Result<Run, String> {
    unwrap_run(1)
}

fn verify_batch_setup(threads: usize) -> Result<Run, String> {
    let events = signed_events(BATCH)?
        .into_iter()
        .map(|e| Event::from_json(e.as_json()).map_err(err))
        .collect::<Result<Vec<Event>, String>>()?;
    let threads = if threads == 0 { cores() } else { threads };
    Ok(Box::new(move |n| {
        for _ in 0..n {
            if threads <= 1 {
                for e in &events {
                    e.verify().map_err(err)?;
                }
            } else {
                // one slice per thread, threads spawned per batch (as the C harness does)
                let ok = std::thread::scope(|s| {
                    let handles: Vec<_> = (0..threads)
                        .map(|t| {
                            let slice = &events[BATCH * t / threads..BATCH * (t + 1) / threads];
                            s.spawn(move || slice.iter().all(|e| e.verify().is_ok()))
                        })
                        .collect();
                    handles.into_iter().all(|h| h.join().unwrap_or(false))
                });
                if !ok {
                    return Err("verify failed".into());
                }
            }
        }
        Ok(())
    }))
}

fn setup_batch1(_: usize) -> Result<Run, String> {
    verify_batch_setup(1)
}

fn setup_batchn(_: usize) -> Result<Run, String> {
    verify_batch_setup(0)
}

fn op(name: &'static str, bytes: usize, setup: fn(usize) -> Result<Run, String>) -> Op {
    Op { name, bytes, per_item: 0, threads: 1, setup }
}

fn ops() -> Vec<Op> {
    let mut v = vec![op("import_identity", 32, setup_import)];
    for bytes in [32, 1024, 64000] {
        v.push(op("nip44_encrypt", bytes, setup_nip44_encrypt));
        v.push(op("nip44_decrypt", bytes, setup_nip44_decrypt));
        v.push(op("nip44_encrypt_held", bytes, setup_nip44_encrypt_held));
        v.push(op("nip44_decrypt_held", bytes, setup_nip44_decrypt_held));
    }
    v.extend([
        op("sign_event", 32, setup_sign),
        op("parse_verify_event", 374, setup_parse_verify),
        Op { name: "verify_batch", bytes: BATCH, per_item: BATCH, threads: 1, setup: setup_batch1 },
        Op { name: "verify_batch", bytes: BATCH, per_item: BATCH, threads: 0, setup: setup_batchn },
        op("nip59_rumor", 15, setup_rumor),
        op("nip17_message", 15, setup_nip17),
        op("gift_wrap", 15, setup_gift_wrap),
        op("unwrap", 15, setup_unwrap),
    ]);
    for bytes in [32, 1024, 64000] {
        v.push(op("nip44_encrypt_warm", bytes, setup_nip44_encrypt_warm));
        v.push(op("nip44_decrypt_warm", bytes, setup_nip44_decrypt_warm));
    }
    v.extend([
        op("nip17_message_warm", 15, setup_nip17_warm),
        op("gift_wrap_warm", 15, setup_gift_wrap_warm),
        op("unwrap_warm", 15, setup_unwrap_warm),
        op("sign_event_verified", 32, setup_sign_verified),
        op("nip17_message_verified", 15, setup_nip17_verified),
        op("gift_wrap_verified", 15, setup_gift_wrap_verified),
    ]);
    v
}

// ---------------------------------------------------------------------------------------
// Measurement (bench/harness.c)

#[derive(Clone, Copy)]
struct Params {
    warmup_ns: u64,
    min_sample_ns: u64,
    samples: usize,
    cpu_clock: bool, // time samples with the thread's CPU time (softchat-bench --clock cpu)
}

/// The measuring thread's CPU time in ns (CLOCK_THREAD_CPUTIME_ID), as bench/harness.c.
fn thread_cpu_ns() -> u64 {
    let mut t = libc::timespec { tv_sec: 0, tv_nsec: 0 };
    // SAFETY: clock_gettime writes the timespec it is given
    unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut t) };
    t.tv_sec as u64 * 1_000_000_000 + t.tv_nsec as u64
}

struct Measured {
    median_ns: f64,
    p95_ns: f64,
    iters: u64,
    samples: usize,
}

/// Median and nearest-rank 95th percentile; sorts v.
fn quantiles(v: &mut [f64]) -> (f64, f64) {
    v.sort_by(|a, b| a.total_cmp(b));
    let n = v.len();
    let median = if n % 2 == 1 { v[n / 2] } else { (v[n / 2 - 1] + v[n / 2]) / 2.0 };
    let rank = (95 * n).div_ceil(100);
    (median, v[rank.saturating_sub(1)])
}

fn measure(run: &mut Run, per_item: usize, p: &Params) -> Result<Measured, String> {
    let samples = p.samples.max(20);
    let cpu = p.cpu_clock;
    let mut sample = |n: u64| -> Result<u64, String> {
        if cpu {
            let t0 = thread_cpu_ns();
            run(n)?;
            return Ok(thread_cpu_ns() - t0 + 1);
        }
        let t0 = Instant::now();
        run(n)?;
        Ok(t0.elapsed().as_nanos() as u64 + 1)
    };
    let start = Instant::now();
    while (start.elapsed().as_nanos() as u64) < p.warmup_ns {
        sample(1)?;
    }
    let mut n: u64 = 1;
    loop {
        let t = sample(n)?;
        if t >= p.min_sample_ns {
            break;
        }
        n = if t * 4 < p.min_sample_ns { n * 4 } else { n * 2 };
    }
    let div = (n * per_item.max(1) as u64) as f64;
    let mut per_call = Vec::with_capacity(samples);
    for _ in 0..samples {
        per_call.push(sample(n)? as f64 / div);
    }
    let (median_ns, p95_ns) = quantiles(&mut per_call);
    Ok(Measured { median_ns, p95_ns, iters: n, samples })
}

/// Peak resident set of this process (VmHWM), in KiB; -1 if unknown.
fn peak_rss_kb() -> i64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find_map(|l| l.strip_prefix("VmHWM:"))
                .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        })
        .unwrap_or(-1)
}

/// The row's thread count as recorded (0 in the table: every online core).
fn threads_of(op: &Op) -> usize {
    if op.threads == 0 { cores() } else { op.threads }
}

fn measure_and_print(op: &Op, p: &Params) -> Result<(), String> {
    let mut run = (op.setup)(op.bytes)?;
    // one thread's CPU time cannot time a parallel batch: those rows keep the wall clock
    let p = Params { cpu_clock: p.cpu_clock && threads_of(op) == 1, ..*p };
    let m = measure(&mut run, op.per_item, &p)?;
    println!(
        "{:.1}\t{:.1}\t-1\t{}\t{}\t{}\t{}",
        m.median_ns,
        m.p95_ns,
        peak_rss_kb(),
        m.iters,
        m.samples,
        if p.cpu_clock { "cpu" } else { "wall" }
    );
    Ok(())
}

/// --worker INDEX WARMUP_NS MIN_SAMPLE_NS SAMPLES (this program's own runner).
fn worker(args: &[String]) -> Result<(), String> {
    if args.len() != 4 {
        return Err("worker: INDEX WARMUP_NS MIN_SAMPLE_NS SAMPLES".into());
    }
    let num = |s: &String| s.parse::<u64>().map_err(err);
    let all = ops();
    let op = all.get(num(&args[0])? as usize).ok_or("no such operation")?;
    let p = Params { warmup_ns: num(&args[1])?, min_sample_ns: num(&args[2])?, samples: num(&args[3])? as usize, cpu_clock: false };
    measure_and_print(op, &p)
}

/// --worker-op NAME BYTES THREADS WARMUP_NS MIN_SAMPLE_NS SAMPLES [wall|cpu]: the operation named as in
/// softchat-bench's table, for softchat-bench's runner, which interleaves these workers with
/// its own (bench/runner.c). Prints "unsupported" for an operation this peer does not have.
fn worker_op(args: &[String]) -> Result<(), String> {
    if args.len() != 6 && args.len() != 7 {
        return Err("worker-op: NAME BYTES THREADS WARMUP_NS MIN_SAMPLE_NS SAMPLES [wall|cpu]".into());
    }
    let cpu_clock = match args.get(6).map(String::as_str) {
        None | Some("wall") => false,
        Some("cpu") => true,
        Some(c) => return Err(format!("unknown clock {c}")),
    };
    let num = |s: &String| s.parse::<u64>().map_err(err);
    let (bytes, threads) = (num(&args[1])? as usize, num(&args[2])? as usize);
    let p = Params { warmup_ns: num(&args[3])?, min_sample_ns: num(&args[4])?, samples: num(&args[5])? as usize, cpu_clock };
    let all = ops();
    match all.iter().find(|o| o.name == args[0] && o.bytes == bytes && threads_of(o) == threads) {
        Some(op) => measure_and_print(op, &p),
        None => {
            println!("unsupported");
            Ok(())
        }
    }
}

// ---------------------------------------------------------------------------------------
// Runner (bench/runner.c) and the result file

struct RunRec {
    median_ns: f64,
    p95_ns: f64,
    rss_kb: i64,
    iters: u64,
    samples: u64,
}

fn spawn_worker(index: usize, p: &Params) -> Option<RunRec> {
    let exe = std::env::current_exe().ok()?;
    let out = Command::new(exe)
        .args(["--worker", &index.to_string(), &p.warmup_ns.to_string(), &p.min_sample_ns.to_string(), &p.samples.to_string()])
        .stdin(Stdio::null())
        .stderr(Stdio::inherit())
        .output()
        .ok()?;
    if !out.status.success() {
        return None;
    }
    let line = String::from_utf8_lossy(&out.stdout);
    let f: Vec<&str> = line.trim().split('\t').collect();
    if f.len() < 6 {
        return None;
    }
    Some(RunRec {
        median_ns: f[0].parse().ok()?,
        p95_ns: f[1].parse().ok()?,
        rss_kb: f[3].parse().ok()?,
        iters: f[4].parse().ok()?,
        samples: f[5].parse().ok()?,
    })
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(|a, b| a.total_cmp(b));
    let n = v.len();
    if n % 2 == 1 { v[n / 2] } else { (v[n / 2 - 1] + v[n / 2]) / 2.0 }
}

fn json_str(s: &str) -> String {
    let mut o = String::with_capacity(s.len() + 2);
    o.push('"');
    for c in s.chars() {
        match c {
            '"' => o.push_str("\\\""),
            '\\' => o.push_str("\\\\"),
            '\n' => o.push_str("\\n"),
            c if (c as u32) < 0x20 => {
                let _ = write!(o, "\\u{:04x}", c as u32);
            }
            c => o.push(c),
        }
    }
    o.push('"');
    o
}

/// The version of a package in Cargo.lock (the first entry of that name).
fn locked(name: &str) -> String {
    let needle = format!("name = \"{name}\"\nversion = \"");
    CARGO_LOCK
        .find(&needle)
        .and_then(|i| CARGO_LOCK[i + needle.len()..].split('"').next())
        .unwrap_or("unknown")
        .to_string()
}

/// The version of a dependency of the nostr crate as locked (the lock file also lists
/// versions pulled only by features that are not enabled).
fn nostr_dep(name: &str) -> String {
    let block = CARGO_LOCK
        .find("name = \"nostr\"\n")
        .map(|i| &CARGO_LOCK[i..])
        .and_then(|b| b.split("\n\n").next())
        .unwrap_or("");
    for line in block.lines() {
        let entry = line.trim().trim_end_matches(',').trim_matches('"');
        if let Some(v) = entry.strip_prefix(name).and_then(|r| r.strip_prefix(' ')) {
            return v.to_string();
        }
        if entry == name {
            return locked(name);
        }
    }
    "unknown".into()
}

fn cpu_model() -> String {
    std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("model name"))
                .and_then(|l| l.split_once(':'))
                .map(|(_, v)| v.trim().to_string())
        })
        .unwrap_or_else(|| "unknown".into())
}

fn fmt_ns(ns: f64) -> String {
    if ns < 1e3 {
        format!("{ns:.0} ns")
    } else if ns < 1e6 {
        format!("{:.2} us", ns / 1e3)
    } else {
        format!("{:.2} ms", ns / 1e6)
    }
}

const NOTES: &[&str] = &[
    "Crate features: default-features = false, [\"std\", \"nip44\", \"nip59\", \"rand\", \"os-rng\"] (nip17 needs nip59 + os-rng; no separate nip17 feature). Release profile: cargo defaults (opt-level 3, no LTO), no target-cpu flags.",
    "secp256k1: the secp256k1 crate over secp256k1-sys, which compiles its bundled libsecp256k1 C sources with cc: -O3, no assembly (USE_ASM_X86_64 is never defined), ECMULT_WINDOW_SIZE 15, ECMULT_GEN_PREC_BITS 4 (secp256k1-sys build.rs); one global context (Secp256k1::new(), randomized with an OS seed) used by every call. It keeps no lifted public keys: every verification and ECDH parses (lifts) its public key.",
    "SHA-256 / HMAC-SHA256 / HKDF (event ids, NIP-44 keys and MAC): bitcoin_hashes (rust-bitcoin), with runtime-detected SHA-NI on x86; ChaCha20: RustCrypto chacha20 (runtime-detected AVX2/SSE2); base64: the base64 crate; random nonces/aux/one-time keys: OS RNG (getrandom) per call.",
    "Equal work with libsoftchat's rows: the same secret keys, contents, tags and timestamps; keys rotate through 16 of each (more than the 8 lifted keys libsoftchat's curve adapter keeps) in nip44_encrypt/decrypt (16 peers), nip17_message and gift_wrap (16 receivers), unwrap (16 wraps from 16 senders) and parse_verify_event (16 events by 16 authors); the _warm rows repeat one peer, receiver or sender (this crate has no cache, so its _warm rows only show the same work on one key).",
    "Signing: the crate's Keys::sign_event makes the id and a BIP-340 signature (32 bytes of OS-RNG aux) and then UnsignedEvent::add_signature VERIFIES the new signature. The sign_event, gift_wrap and nip17_message rows sign without that verification, as libsoftchat does: compute_id + Keys::sign_schnorr + Event::new (what sign_event does before add_signature). The _verified rows are the crate's API as shipped (EventBuilder::finalize, GiftWrapBuilder::finalize, PrivateDirectMessageBuilder::finalize), reference rows with no libsoftchat counterpart.",
    "import_identity: Keys::new(SecretKey::from_slice(32 bytes)): builds the secp256k1 Keypair and the x-only public key.",
    "nip44_encrypt: nip44::encrypt(&sk, &peer, text, Version::V2): derives the ConversationKey (ECDH + HKDF-extract), draws the nonce from the OS RNG, base64-encodes. nip44_decrypt: nip44::decrypt_to_bytes(&sk, &peer, payload), which is nip44::decrypt without its final String::from_utf8 (libsoftchat returns bytes and does not check UTF-8 there either).",
    "nip44_encrypt_held/decrypt_held: the crate exposes the held-key layer as nip44::v2::encrypt_to_bytes_with_nonce(&ConversationKey, bytes, nonce) / v2::decrypt_to_bytes(&ConversationKey, raw) (raw bytes, caller-supplied nonce); the benchmark adds exactly what nip44::encrypt/decrypt_to_bytes add around them: a 32-byte nonce from getrandom and base64 STANDARD encode/decode with the crate's own base64 0.22.",
    "sign_event: EventBuilder::new(Kind::TextNote, 32 bytes).custom_created_at(1700000000).finalize_unsigned(pk), then the id and the signature as above (no verification).",
    "parse_verify_event: Event::from_json(374-byte text) (serde_json, hex decoding of id/pubkey/sig) + event.verify() (id recomputed and compared, BIP-340 verification), cycling through 16 events by 16 authors.",
    "nip59_rumor: EventBuilder::new(Kind::PrivateDirectMessage, 15 bytes).tag(Tag::public_key(receiver)).custom_created_at(..).finalize_unsigned(pubkey) + ensure_id() (the public key is an input: no derivation; one p tag, as libsoftchat's rumor).",
    "gift_wrap: the steps of GiftWrapBuilder::finalize (the 0.45 form of EventBuilder::gift_wrap) with the crate's own pieces: rumor id computed (ensure_id), seal = NIP-44 under conv(sender, receiver) + sign, one-time Keys::generate(), wrap = NIP-44 under conv(one-time, receiver) + ['p', receiver] + sign; seal and wrap created_at tweaked by up to 2 days from the OS RNG (as the crate's private tweaked_timestamp). The rumor is the nip59_rumor one (one p tag).",
    "nip17_message: nip17's rumor (kind 14, the message, ['p', receiver], as PrivateDirectMessageBuilder makes it), then the gift_wrap steps above, for the receiver only.",
    "unwrap: Event::from_json(wrap JSON text) + UnwrappedGift::from_gift_wrap(&my_keys, &wrap). It checks wrap kind == 1059; VERIFIES the wrap (id recomputed + BIP-340 signature); decrypts the seal; parses it as an Event and VERIFIES the seal (id + signature); does NOT check that the seal kind is 13; decrypts the rumor and parses it as an UnsignedEvent (unknown fields such as a sig are ignored); checks rumor.pubkey == seal.pubkey; does NOT recompute or check the rumor id.",
    "verify_batch: 1000 distinct parsed Events by 64 authors, event.verify() each (id + signature), time per event; threads = 1, and threads = all online cores with std::thread::scope (one contiguous slice per thread, threads spawned per batch as the C harness does), all sharing the crate's global secp256k1 context.",
    "allocations: null (not measured). rss_kb: the worker process's VmHWM.",
];

/// The record without its results: everything but "results":[...]}, ending with "notes".
fn header(runs: usize) -> String {
    let nostr_v = locked("nostr");
    let sys_v = locked("secp256k1-sys");
    let mut doc = String::new();
    let _ = write!(
        doc,
        "{{\"schema\":\"softchat-bench/1\",\"revision\":{},\"machine\":{{\"cpu\":{},\"cores\":{},\"arch\":{}}},",
        json_str(&format!("nostr@{nostr_v}")),
        json_str(&cpu_model()),
        cores(),
        json_str(std::env::consts::ARCH)
    );
    let _ = write!(
        doc,
        "\"libraries\":{{\"nostr\":{},\"rustc\":{},\"libsecp256k1\":{},\"secp256k1\":{},\"secp256k1-sys\":{},\"bitcoin_hashes\":{},\"chacha20\":{},\"base64\":{},\"serde_json\":{},\"sha256_hmac\":{},\"chacha20_impl\":{}}},",
        json_str(&nostr_v),
        json_str(RUSTC_VERSION),
        json_str(&format!("{LIBSECP256K1_VERSION} (bundled by secp256k1-sys {sys_v})")),
        json_str(&nostr_dep("secp256k1")),
        json_str(&sys_v),
        json_str(&nostr_dep("bitcoin_hashes")),
        json_str(&nostr_dep("chacha20")),
        json_str(&nostr_dep("base64")),
        json_str(&nostr_dep("serde_json")),
        json_str(&format!("bitcoin_hashes {} (rust-bitcoin), not RustCrypto", nostr_dep("bitcoin_hashes"))),
        json_str(&format!("RustCrypto chacha20 {}", nostr_dep("chacha20"))),
    );
    let _ = write!(doc, "\"command\":{},\"runs\":{runs},", json_str("bench/peers/rust-nostr/run.sh"));
    doc.push_str("\"unsupported\":[");
    for (j, (op, why)) in [
        ("attachment_encrypt", "the nostr crate has no encrypted-attachment (NIP-17 kind 15 file encryption) API"),
        ("attachment_decrypt", "the nostr crate has no encrypted-attachment (NIP-17 kind 15 file encryption) API"),
    ]
    .iter()
    .enumerate()
    {
        let _ = write!(doc, "{}{{\"operation\":{},\"reason\":{}}}", if j > 0 { "," } else { "" }, json_str(op), json_str(why));
    }
    doc.push_str("],\"notes\":[");
    for (j, n) in NOTES.iter().enumerate() {
        let _ = write!(doc, "{}\n{}", if j > 0 { "," } else { "" }, json_str(n));
    }
    doc
}

/// --describe META.json: the record with no results (softchat-bench adds the rows it
/// measured with --worker-op). Prints the lane: the label, then the worker command.
fn describe(args: &[String]) -> Result<(), String> {
    let out = args.first().ok_or("--describe META.json")?;
    let mut doc = header(0);
    doc.push_str("],\"results\":[]}\n");
    std::fs::write(out, doc).map_err(|e| format!("{out}: {e}"))?;
    let exe = std::env::current_exe().map_err(err)?;
    println!("{BACKEND}\t{}\t--worker-op", exe.display());
    Ok(())
}

fn main_run(args: &[String]) -> Result<bool, String> {
    let mut out: Option<String> = None;
    let mut runs: usize = 3;
    let mut only: Option<Vec<String>> = None;
    let mut quick = false;
    let mut it = args.iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "--runs" => runs = it.next().ok_or("--runs N")?.parse().map_err(err)?,
            "--only" => only = Some(it.next().ok_or("--only OPS")?.split(',').map(String::from).collect()),
            "--quick" => quick = true,
            _ if out.is_none() => out = Some(a.clone()),
            _ => return Err(format!("unexpected argument {a}")),
        }
    }
    let out = out.ok_or("usage: peer-bench OUT.json [--runs N] [--only OP[,OP...]] [--quick]")?;
    if quick {
        runs = 1;
    }
    let runs = runs.clamp(1, 16);
    let p = Params { warmup_ns: if quick { 10_000_000 } else { 100_000_000 }, min_sample_ns: 1_000_000, samples: 20, cpu_clock: false };
    let all = ops();
    let plan: Vec<usize> = (0..all.len())
        .filter(|&i| only.as_ref().is_none_or(|o| o.iter().any(|n| n == all[i].name)))
        .collect();
    let steps = plan.len() * runs;
    let mut step = 0;
    let mut failed = 0;
    let mut results = String::new();
    let mut table = String::new();
    for (k, &i) in plan.iter().enumerate() {
        let op = &all[i];
        let threads = threads_of(op);
        let mut recs = Vec::new();
        let mut bad = false;
        for r in 0..runs {
            step += 1;
            eprint!("\r[{step}/{steps}] {BACKEND:<12} {:<20} {:>7} B  thr {threads}  run {}/{runs}   ", op.name, op.bytes, r + 1);
            match spawn_worker(i, &p) {
                Some(rec) => recs.push(rec),
                None => bad = true,
            }
        }
        let _ = write!(
            results,
            "{}\n{{\"backend\":{},\"operation\":{},\"bytes\":{},\"threads\":{},\"floor\":false",
            if k > 0 { "," } else { "" },
            json_str(BACKEND),
            json_str(op.name),
            op.bytes,
            threads
        );
        if bad || recs.is_empty() {
            failed += 1;
            results.push_str(",\"failed\":true,\"median_ns\":null,\"p95_ns\":null,\"allocations\":null");
            let _ = writeln!(table, "{BACKEND:<12} {:<20} {:>7} {:>3}  FAILED", op.name, op.bytes, threads);
        } else {
            let m = median(recs.iter().map(|r| r.median_ns).collect());
            let q = median(recs.iter().map(|r| r.p95_ns).collect());
            let rss = median(recs.iter().map(|r| r.rss_kb as f64).collect()) as i64;
            let _ = write!(results, ",\"median_ns\":{m:.1},\"p95_ns\":{q:.1},\"allocations\":null,\"rss_kb\":{rss}");
            let _ = writeln!(table, "{BACKEND:<12} {:<20} {:>7} {:>3} {:>11} {:>11} {:>8}", op.name, op.bytes, threads, fmt_ns(m), fmt_ns(q), rss);
        }
        results.push_str(",\"runs\":[");
        for (j, r) in recs.iter().enumerate() {
            let _ = write!(
                results,
                "{}{{\"median_ns\":{:.1},\"p95_ns\":{:.1},\"allocations\":null,\"rss_kb\":{},\"iterations\":{},\"samples\":{}}}",
                if j > 0 { "," } else { "" },
                r.median_ns,
                r.p95_ns,
                r.rss_kb,
                r.iters,
                r.samples
            );
        }
        results.push_str("]}");
    }
    eprint!("\r{:78}\r", "");

    let mut doc = header(runs);
    doc.push_str("],\"results\":[");
    doc.push_str(&results);
    doc.push_str("\n]}\n");
    std::fs::write(&out, doc).map_err(|e| format!("{out}: {e}"))?;
    eprint!("{table}");
    if failed > 0 {
        eprintln!("{failed} row(s) failed");
    }
    Ok(failed == 0)
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mode = args.first().map(String::as_str);
    if let Some(m @ ("--worker" | "--worker-op" | "--describe")) = mode {
        let r = match m {
            "--worker" => worker(&args[1..]),
            "--worker-op" => worker_op(&args[1..]),
            _ => describe(&args[1..]),
        };
        return match r {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => {
                eprintln!("peer-bench {m}: {e}");
                ExitCode::FAILURE
            }
        };
    }
    match main_run(&args) {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::FAILURE,
        Err(e) => {
            eprintln!("peer-bench: {e}");
            ExitCode::from(2)
        }
    }
}
