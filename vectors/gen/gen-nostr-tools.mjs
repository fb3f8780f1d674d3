// Generates the cross-implementation vectors vectors/nostr-tools.events.json and
// vectors/nostr-tools.nip44.json with nostr-tools (NIP-01 serialisation, ids, NIP-44 v2) and
// @noble/curves (BIP-340 signatures with explicit aux randomness), at the exact versions
// pinned in package.json / package-lock.json.
//
//   cd vectors/gen && npm ci && node gen-nostr-tools.mjs
//
// Every "random" value is derived from a label: det(label) = sha256(label), and longer byte
// streams are sha256(label || u32be(counter)) blocks. A case's inputs depend only on its own
// label, so adding a case never changes another one, and a rerun is byte-identical.
//
// Everything written is checked against nostr-tools before it is written: each event
// verifies with verifyEvent, each alternate encoding JSON.parses back to the same event, each
// payload decrypts with nip44.decrypt, and each reject is refused by nostr-tools where
// nostr-tools refuses it (where it does not, the case says so in `nostr_tools`).

import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { schnorr } from '@noble/curves/secp256k1.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { hmac } from '@noble/hashes/hmac.js';
import { expand as hkdfExpand } from '@noble/hashes/hkdf.js';
import { bytesToHex, hexToBytes, concatBytes } from '@noble/hashes/utils.js';
import { chacha20 } from '@noble/ciphers/chacha.js';
import { finalizeEvent, getEventHash, getPublicKey, serializeEvent, verifyEvent } from 'nostr-tools/pure';
import { v2 as nip44 } from 'nostr-tools/nip44';
import * as nip19 from 'nostr-tools/nip19';

const here = dirname(fileURLToPath(import.meta.url));
const outDir = join(here, '..');
// The versions actually loaded (package.json of each, read from node_modules).
const versions = Object.fromEntries(['nostr-tools', '@noble/curves', '@noble/hashes', '@noble/ciphers'].map((p) =>
  [p, JSON.parse(readFileSync(join(here, 'node_modules', p, 'package.json'), 'utf8')).version]));

const enc = new TextEncoder();
const dec = new TextDecoder('utf-8', { fatal: true });
const utf8 = (s) => enc.encode(s);
const hex = (b) => bytesToHex(b);
const sha256hex = (b) => hex(sha256(b));

function fail(msg) {
  throw new Error('gen-nostr-tools: ' + msg);
}
function check(cond, msg) {
  if (!cond) fail(msg);
}

// ---- deterministic bytes ------------------------------------------------------------------

const det = (label) => sha256(utf8(label));

function stream(label) {
  let ctr = 0;
  let buf = new Uint8Array(0);
  let pos = 0;
  return {
    bytes(n) {
      const out = new Uint8Array(n);
      for (let i = 0; i < n; i++) {
        if (pos === buf.length) {
          const c = new Uint8Array(4);
          new DataView(c.buffer).setUint32(0, ctr++, false);
          buf = sha256(concatBytes(utf8(label), c));
          pos = 0;
        }
        out[i] = buf[pos++];
      }
      return out;
    },
    // Uniform in [0, n) for n <= 2^32 (rejection sampling).
    below(n) {
      const lim = Math.floor(0x100000000 / n) * n;
      for (;;) {
        const v = new DataView(this.bytes(4).buffer).getUint32(0, false);
        if (v < lim) return v % n;
      }
    },
  };
}

const N = BigInt('0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141');

// A valid secret key from a label: sha256(label), re-hashed in the (never observed) case that
// it is 0 or >= n.
function secretKey(label) {
  let k = det(label);
  for (let i = 0; ; i++) {
    const v = BigInt('0x' + hex(k));
    if (v > 0n && v < N) return k;
    k = det(label + '/' + i);
  }
}

// ---- output formatting --------------------------------------------------------------------

// A stable layout: top-level keys one per line, arrays of cases one case per line (each case
// compact JSON.stringify). JSON.stringify escapes exactly like the canonical form, so the
// files hold raw UTF-8 and never a lone surrogate.
function layout(doc) {
  const parts = [];
  const keys = Object.keys(doc);
  keys.forEach((k, i) => {
    const v = doc[k];
    const tail = i + 1 < keys.length ? ',' : '';
    if (Array.isArray(v) && v.length > 0) {
      parts.push(` ${JSON.stringify(k)}: [\n` + v.map((x) => '  ' + JSON.stringify(x)).join(',\n') + `\n ]${tail}`);
    } else {
      parts.push(` ${JSON.stringify(k)}: ${JSON.stringify(v)}${tail}`);
    }
  });
  return '{\n' + parts.join('\n') + '\n}\n';
}

function writeDoc(name, doc) {
  const text = layout(doc);
  check(JSON.stringify(JSON.parse(text)) === JSON.stringify(doc), name + ': layout changed the data');
  writeFileSync(join(outDir, name), text);
  console.log(`${name}: ${Buffer.byteLength(text)} bytes, sha256 ${sha256hex(utf8(text))}`);
}

// =========================================================================================
// NIP-01 events
// =========================================================================================

const C0 = Array.from({ length: 32 }, (_, i) => String.fromCharCode(i));
const ALL_C0 = C0.join('');

// Content of exactly `len` UTF-8 bytes mixing 1-, 2-, 3- and 4-byte characters.
function mixedText(label, len) {
  const alphabet = ['a', 'Z', '0', ' ', '"', '\\', '/', '\n', '\t', '\u0000', '\u007f', 'é', 'ß', 'Ж',
    'ع', '\u0301', '€', '\u2028', '\u2029', '中', '\ufeff', '\ufffd', '😀', '🦄', '\u{10ffff}', '\u{1f1fa}'];
  const r = stream(label);
  let s = '';
  let n = 0;
  while (n < len) {
    let ch = alphabet[r.below(alphabet.length)];
    let b = utf8(ch).length;
    if (n + b > len) {
      ch = 'x';
      b = 1;
    }
    s += ch;
    n += b;
  }
  return s;
}

// The valid events: [name, what it covers, template]. Templates are {kind, created_at, tags,
// content}; keys and aux come from the name.
function eventTemplates() {
  const t = [];
  const add = (name, note, kind, created_at, tags, content) => t.push({ name, note, tpl: { kind, created_at, tags, content } });

  add('empty', 'empty content, no tags, created_at 0', 1, 0, [], '');
  add('kind0-metadata', 'kind 0 with JSON in content', 0, 1700000000, [],
    JSON.stringify({ name: 'alice', about: 'line1\nline2 "quoted" \\ back/slash', picture: 'https://example.com/a.png?x=1&y=<2>' }));
  add('kind65535', 'largest kind', 65535, 1700000001, [['d', 'x']], 'max kind');
  add('created-at-max-safe', 'created_at = 2^53-1 (JS safe integer max)', 1, Number.MAX_SAFE_INTEGER, [], 'far future');
  add('created-at-2^32', 'created_at = 2^32 (needs 64 bits)', 1, 4294967296, [], 'after 2106');
  add('all-c0-content', 'every C0 control U+0000..U+001F in content', 1, 1700000002, [], 'C0:' + ALL_C0 + ':end');
  add('all-c0-tags', 'every C0 control in one tag element and as a tag name', 1, 1700000003, [[ALL_C0, ALL_C0], ['c0', ALL_C0]], '');
  for (let i = 0; i < 32; i++) {
    const h = i.toString(16).padStart(2, '0');
    add(`c0-${h}`, `U+00${h.toUpperCase()} alone, at the start, middle and end of content and in a tag`, 1, 1700001000 + i,
      [['t', C0[i]], [C0[i] + 'x' + C0[i]]], C0[i] + 'a' + C0[i] + 'b' + C0[i]);
  }
  add('del-slash-quote-backslash', "DEL, '/', '\"' and '\\\\' verbatim or short-escaped", 1, 1700000004,
    [['r', 'https://example.com/path/'], ['q', '"\\/\u007f']], 'a/b "c" \\d\\ \u007f </script> \\u0041 \\n');
  add('u2028-u2029', 'U+2028 and U+2029 verbatim (not escaped)', 1, 1700000005, [['t', '\u2028\u2029']], 'line\u2028sep para\u2029sep');
  add('astral-emoji', 'astral characters (surrogate pairs in JS), ZWJ sequences, flags', 1, 1700000006,
    [['emoji', '🦄', '👨‍👩‍👧‍👦'], ['flag', '🇺🇦🏳️‍🌈']], '🦄 unicorn 👍🏽 thumbs 🇯🇵 𝔘𝔫𝔦𝔠𝔬𝔡𝔢 𐍈 \u{10ffff} \u{1f600}');
  add('combining', 'combining marks, NFD vs NFC, zalgo', 1, 1700000007, [['n', 'e\u0301', '\u00e9']],
    'cafe\u0301 caf\u00e9 Z\u0351\u036b\u0343\u036a\u0302\u036b\u033d\u034f\u0334\u0319\u0324\u031e\u0349\u035a\u032f\u031e\u0320\u034dA\u036b\u0357\u0334\u0362\u0335\u031c\u0330\u0354L\u0368\u0367\u0369\u0358\u0320G\u0311\u0357\u030e\u0305\u035b\u0341\u0334\u033b\u0348\u034d\u0354\u0339O');
  add('rtl', 'Arabic and Hebrew, RTL override U+202E, bidi isolates', 1, 1700000008, [['lang', 'ar'], ['t', 'שָׁלוֹם']],
    'مرحبا بالعالم \u202Eevil.exe\u202C \u2067isolate\u2069 עברית');
  add('bmp-edges', 'UTF-8 length edges U+0080 U+07FF U+0800 U+FFFF U+10000 U+10FFFF, BOM, U+FFFD, noncharacters', 1, 1700000009,
    [['e', '\u0080\u07ff\u0800\ud7ff\ue000\uffff']], '\u0080|\u07ff|\u0800|\ud7ff|\ue000|\ufffd|\ufeff|\ufffe|\uffff|\u{10000}|\u{10ffff}');
  add('long-100k', '100 KiB of mixed content', 1, 1700000010, [['t', 'long']], mixedText('events/long-100k/content', 100 * 1024));
  add('empty-strings', 'empty strings as tag name and value', 1, 1700000011, [[''], ['', ''], ['e', ''], ['p', '', '', '']], '');
  add('one-element-tags', 'one-element tags', 1, 1700000012, [['a'], ['b'], ['t']], 'one');
  add('many-tags', '600 tags', 1, 1700000013, Array.from({ length: 600 }, (_, i) => ['p', hex(det('events/many-tags/' + i))]), 'many tags');
  add('wide-tag', 'one tag of 300 elements', 1, 1700000014, [Array.from({ length: 300 }, (_, i) => 'v' + i)], 'wide');
  add('json-in-content', 'content that is itself JSON with escapes', 1, 1700000015, [],
    '{"id":"x","tags":[["e","\\u0000"]],"content":"\\"\\\\"}\n[0,"",0,0,[],""]');
  add('escape-lookalikes', 'literal backslash sequences that look like escapes', 1, 1700000016, [['x', '\\u0000', '\\"', '\\\\']],
    '\\u0041 \\ud83e\\udd84 \\/ \\b \\f \\n \\r \\t \\x00 \\');
  add('whitespace-only', 'Unicode spaces: NBSP, ideographic, zero-width', 1, 1700000017, [['t', ' ']],
    ' \u00a0\u1680\u2000\u200a\u200b\u202f\u205f\u3000\u200c\u200d ');
  add('html-chars', "'<', '>', '&', \"'\" verbatim (Go's encoding/json would escape them)", 1, 1700000018,
    [['html', '<a href="x">&amp;</a>']], "<script>alert('x')</script> & &amp; > <");
  add('kind-3-contacts', 'kind 3 with relay hints and petnames', 3, 1700000019,
    [['p', hex(det('events/kind3/p1')), 'wss://relay.example.com/', 'alice'], ['p', hex(det('events/kind3/p2')), '', 'bob \u{1f600}']], '');
  add('kind-1059-like', 'gift-wrap-like kind 1059 with a NIP-44-looking payload', 1059, 1700000020,
    [['p', hex(det('events/k1059/p'))]], 'Ag' + 'A'.repeat(130) + '==');
  add('kind-30023', 'addressable kind with d tag and markdown', 30023, 1700000021,
    [['d', 'my-article'], ['title', 'Title: "quoted"'], ['published_at', '1700000000']], '# Heading\n\n* item\n\n```c\nint main(void) { return 0; }\n```\n');
  add('numbers-in-strings', 'numeric-looking strings', 1, 1700000022, [['amount', '1e3', '-0', '0.10', '9007199254740993']], '1e308');
  add('mixed-8k', '8 KiB of mixed characters in content and tags', 1, 1700000023,
    [['m', mixedText('events/mixed-8k/tag', 1000)]], mixedText('events/mixed-8k/content', 8192));
  return t;
}

// The nostr-tools object form, keys in the order our SC_EVENT_JSON_OBJECT writes them.
function orderedEvent(e) {
  return { id: e.id, pubkey: e.pubkey, created_at: e.created_at, kind: e.kind, tags: e.tags, content: e.content, sig: e.sig };
}

function signEvent(name, tpl) {
  const sk = secretKey('events/' + name + '/sk');
  const aux = det('events/' + name + '/aux');
  const ev = { kind: tpl.kind, created_at: tpl.created_at, tags: tpl.tags, content: tpl.content, pubkey: getPublicKey(sk) };
  const id = getEventHash(ev);
  const sig = hex(schnorr.sign(hexToBytes(id), sk, aux));
  const full = orderedEvent({ ...ev, id, sig });
  check(verifyEvent({ ...full }), name + ': nostr-tools does not verify it');
  // finalizeEvent signs with fresh aux, so only pubkey and id can be compared with it.
  const fin = finalizeEvent({ kind: tpl.kind, created_at: tpl.created_at, tags: tpl.tags, content: tpl.content }, sk);
  check(fin.id === id && fin.pubkey === full.pubkey, name + ': finalizeEvent disagrees on id/pubkey');
  check(schnorr.verify(hexToBytes(sig), hexToBytes(id), hexToBytes(full.pubkey)), name + ': noble does not verify');
  return { sk, aux, event: full };
}

// ---- a configurable JSON writer for alternate encodings ----------------------------------

function escapeString(s, o) {
  let out = '"';
  for (const ch of s) { // iterates code points
    const cp = ch.codePointAt(0);
    const u4 = (v) => '\\u' + (o.upperHex ? v.toString(16).toUpperCase() : v.toString(16)).padStart(4, '0');
    if (ch === '"') out += '\\"';
    else if (ch === '\\') out += '\\\\';
    else if (ch === '/' && o.escapeSlash) out += '\\/';
    else if (cp < 0x20) {
      const short = { 8: '\\b', 9: '\\t', 10: '\\n', 12: '\\f', 13: '\\r' }[cp];
      out += short && !o.longControls ? short : u4(cp);
    } else if (o.escapeAsciiLetters && /[A-Za-z]/.test(ch)) out += u4(cp);
    else if (cp >= 0x80 && o.escapeNonAscii) {
      if (cp >= 0x10000) {
        const v = cp - 0x10000;
        out += u4(0xd800 + (v >> 10)) + u4(0xdc00 + (v & 0x3ff));
      } else out += u4(cp);
    } else out += ch;
  }
  return out + '"';
}

function writeJson(v, o, depth = 0) {
  const ws = o.ws || '';
  const nl = o.pretty ? '\n' + '  '.repeat(depth + 1) : '';
  const end = o.pretty ? '\n' + '  '.repeat(depth) : '';
  if (typeof v === 'string') return escapeString(v, o);
  if (v instanceof RawNumber) return v.text;
  if (typeof v === 'number' || typeof v === 'boolean' || v === null) return JSON.stringify(v);
  if (Array.isArray(v)) {
    if (v.length === 0) return '[' + ws + ']';
    return '[' + ws + nl + v.map((x) => writeJson(x, o, depth + 1)).join(ws + ',' + ws + nl) + ws + end + ']';
  }
  const keys = o.order ? o.order.filter((k) => k in v).concat(Object.keys(v).filter((k) => !o.order.includes(k))) : Object.keys(v);
  if (keys.length === 0) return '{' + ws + '}';
  return '{' + ws + nl + keys.map((k) => escapeString(k, o.escapeKeys ? o : {}) + ws + ':' + ws + writeJson(v[k], o, depth + 1)).join(ws + ',' + ws + nl) + ws + end + '}';
}

// A number written exactly as given (exponent forms, which JSON.stringify never writes).
class RawNumber {
  constructor(text) {
    this.text = text;
  }
}

// Unknown fields of every JSON type (skipped by a conforming parser, and by nostr-tools).
const EXTRAS = {
  extra_string: 'x\u0000"\\\ud83e\udd84',
  extra_number: new RawNumber('-1.25E-2'),
  extra_exponent: new RawNumber('6.02e+23'),
  extra_zero: new RawNumber('-0'),
  extra_int: 18446744073709551616,
  extra_true: true,
  extra_false: false,
  extra_null: null,
  extra_object: { id: 'not-the-id', nested: { deeper: [1, [2, [3, { sig: 'no' }]]] }, empty: {} },
  extra_array: [[], {}, '', 0, null, ['tags']],
  relays: ['wss://relay.example.com'],
  seen_on: [],
};

function alternates(e) {
  const order = ['id', 'pubkey', 'created_at', 'kind', 'tags', 'content', 'sig'];
  const rev = order.slice().reverse();
  const alt = [];
  const add = (what, text) => alt.push({ what, json: text });
  add('keys reversed', writeJson(e, { order: rev }));
  add('keys sorted alphabetically', writeJson(e, { order: order.slice().sort() }));
  add('spaces around every token', writeJson(e, { order, ws: ' ' }));
  add('pretty-printed with newlines and indentation, CRLF and tabs around', '\r\n\t ' + writeJson(e, { order, pretty: true }).replace(/\n/g, '\r\n') + ' \t\r\n');
  add('ASCII letters as \\uXXXX escapes (lowercase hex), in keys too', writeJson(e, { order, escapeAsciiLetters: true, escapeKeys: true }));
  add('ASCII letters as \\uXXXX escapes (uppercase hex)', writeJson(e, { order, escapeAsciiLetters: true, upperHex: true }));
  add("'/' as \\/", writeJson(e, { order, escapeSlash: true }));
  add('all non-ASCII as \\uXXXX, astral as surrogate pairs', writeJson(e, { order, escapeNonAscii: true }));
  add('controls as \\u00XX instead of the short escapes', writeJson(e, { order, longControls: true, upperHex: true }));
  add('unknown fields of every JSON type, first', writeJson({ ...EXTRAS, ...e }, { order: Object.keys(EXTRAS).concat(order) }));
  add('unknown fields of every JSON type, interleaved, pretty', writeJson(
    { extra_array: EXTRAS.extra_array, id: e.id, extra_object: EXTRAS.extra_object, pubkey: e.pubkey, extra_null: null,
      created_at: e.created_at, extra_number: EXTRAS.extra_number, kind: e.kind, extra_true: true, tags: e.tags,
      extra_false: false, content: e.content, extra_string: EXTRAS.extra_string, sig: e.sig, extra_int: EXTRAS.extra_int },
    { pretty: true }));
  add('everything at once: reordered, spaced, escaped', writeJson({ zzz: [{}], ...e, aaa: { b: [null] } },
    { order: ['sig', 'zzz', 'content', 'tags', 'kind', 'aaa', 'created_at', 'pubkey', 'id'], ws: ' ', escapeSlash: true, escapeNonAscii: true, escapeAsciiLetters: true, longControls: true }));
  for (const a of alt) {
    const back = JSON.parse(a.json);
    const same = orderedEvent(back);
    check(JSON.stringify(same) === JSON.stringify(e), 'alternate "' + a.what + '" does not parse back to the event');
    check(verifyEvent(same), 'alternate "' + a.what + '" does not verify in nostr-tools');
  }
  return alt;
}

// ---- rejects --------------------------------------------------------------------------------

// Each reject: {name, json, stage, expect, nostr_tools}. stage "parse": sc_event_parse must
// fail with `expect`. stage "verify": it parses (all seven fields) and sc_event_verify fails
// with `expect`. nostr_tools records what nostr-tools does with JSON.parse + verifyEvent:
// "rejects", or "accepts" where our rule is stricter, or "cannot-parse" when JSON.parse throws.
function rejects(base) {
  const r = [];
  const e = base.event;
  const J = (o) => JSON.stringify(o);
  const splice = (text, from, to) => {
    check(text.includes(from), 'splice: "' + from + '" not found');
    return text.replace(from, to);
  };
  const std = J(e);
  const ntOf = (json) => {
    let o;
    try {
      o = JSON.parse(json);
    } catch {
      return 'cannot-parse';
    }
    try {
      return verifyEvent(o) ? 'accepts' : 'rejects';
    } catch {
      return 'rejects';
    }
  };
  const add = (name, json, stage, expect, ntWant) => {
    const nt = ntOf(json);
    if (ntWant !== undefined) check(nt === ntWant, `reject ${name}: nostr-tools says ${nt}, expected ${ntWant}`);
    r.push({ name, json, stage, expect, nostr_tools: nt });
  };
  // Events nostr-tools would sign and accept, outside our ranges: sign them for real, so the
  // only reason to refuse is the range rule.
  const signedAs = (label, tweak) => {
    const sk = secretKey('rejects/' + label + '/sk');
    const ev = { kind: 1, created_at: 1700000000, tags: [], content: label, pubkey: getPublicKey(sk), ...tweak };
    const id = getEventHash(ev);
    const sig = hex(schnorr.sign(hexToBytes(id), sk, det('rejects/' + label + '/aux')));
    return J(orderedEvent({ ...ev, id, sig }));
  };
  const flipHex = (h, i) => h.slice(0, i) + (h[i] === '0' ? '1' : '0') + h.slice(i + 1);

  add('tampered-content', J({ ...e, content: e.content + '!' }), 'verify', 'SC_ERR_ID_MISMATCH', 'rejects');
  add('tampered-content-escape', J({ ...e, content: e.content + '\u0000' }), 'verify', 'SC_ERR_ID_MISMATCH', 'rejects');
  add('tampered-created-at', J({ ...e, created_at: e.created_at + 1 }), 'verify', 'SC_ERR_ID_MISMATCH', 'rejects');
  add('tampered-kind', J({ ...e, kind: e.kind + 1 }), 'verify', 'SC_ERR_ID_MISMATCH', 'rejects');
  add('tampered-tag', J({ ...e, tags: e.tags.concat([['t', 'x']]) }), 'verify', 'SC_ERR_ID_MISMATCH', 'rejects');
  add('tampered-pubkey', J({ ...e, pubkey: flipHex(e.pubkey, 63) }), 'verify', 'SC_ERR_ID_MISMATCH', 'rejects');
  add('tampered-id', J({ ...e, id: flipHex(e.id, 0) }), 'verify', 'SC_ERR_ID_MISMATCH', 'rejects');
  add('tampered-sig-r', J({ ...e, sig: flipHex(e.sig, 10) }), 'verify', 'SC_ERR_INVALID_SIG', 'rejects');
  add('tampered-sig-s', J({ ...e, sig: flipHex(e.sig, 127) }), 'verify', 'SC_ERR_INVALID_SIG', 'rejects');
  add('sig-all-zero', J({ ...e, sig: '0'.repeat(128) }), 'verify', 'SC_ERR_INVALID_SIG', 'rejects');
  add('sig-s-is-n', J({ ...e, sig: e.sig.slice(0, 64) + N.toString(16) }), 'verify', 'SC_ERR_INVALID_SIG', 'rejects');
  {
    // An id that matches its fields, signed by another key: the id check passes, the
    // signature check fails.
    const other = secretKey('rejects/other-signer/sk');
    const sig = hex(schnorr.sign(hexToBytes(e.id), other, det('rejects/other-signer/aux')));
    add('sig-by-other-key', J({ ...e, sig }), 'verify', 'SC_ERR_INVALID_SIG', 'rejects');
  }
  {
    // A pubkey that is not on the curve (x^3+7 not a square), with its id recomputed.
    const bad = 'eefdea4cdb677750a420fee807eacf21eb9898ae79b9768766e4faa04a2d4a34';
    const ev = { ...e, pubkey: bad };
    ev.id = getEventHash(ev);
    add('pubkey-not-on-curve', J(ev), 'verify', 'SC_ERR_INVALID_SIG', 'rejects');
    const ev2 = { ...e, pubkey: 'f'.repeat(64) };
    ev2.id = getEventHash(ev2);
    add('pubkey-x-ge-p', J(ev2), 'verify', 'SC_ERR_INVALID_SIG', 'rejects');
  }
  add('uppercase-id', J({ ...e, id: e.id.toUpperCase() }), 'parse', 'SC_ERR_EVENT_FIELD', 'rejects');
  add('uppercase-pubkey', J({ ...e, pubkey: e.pubkey.toUpperCase() }), 'parse', 'SC_ERR_EVENT_FIELD', 'rejects');
  add('uppercase-sig', J({ ...e, sig: e.sig.toUpperCase() }), 'parse', 'SC_ERR_EVENT_FIELD', 'accepts');
  add('id-63-chars', J({ ...e, id: e.id.slice(1) }), 'parse', 'SC_ERR_EVENT_FIELD', 'rejects');
  add('id-65-chars', J({ ...e, id: e.id + '0' }), 'parse', 'SC_ERR_EVENT_FIELD', 'rejects');
  add('pubkey-non-hex', J({ ...e, pubkey: 'g' + e.pubkey.slice(1) }), 'parse', 'SC_ERR_EVENT_FIELD', 'rejects');
  add('sig-126-chars', J({ ...e, sig: e.sig.slice(2) }), 'parse', 'SC_ERR_EVENT_FIELD', 'rejects');
  add('kind-65536', signedAs('kind-65536', { kind: 65536 }), 'parse', 'SC_ERR_EVENT_RANGE', 'accepts');
  add('kind-2^32', signedAs('kind-2^32', { kind: 4294967296 }), 'parse', 'SC_ERR_EVENT_RANGE', 'accepts');
  add('kind-negative', signedAs('kind-negative', { kind: -1 }), 'parse', 'SC_ERR_EVENT_RANGE', 'accepts');
  add('created-at-negative', signedAs('created-at-negative', { created_at: -1 }), 'parse', 'SC_ERR_EVENT_RANGE', 'accepts');
  add('created-at-fractional', signedAs('created-at-fractional', { created_at: 1700000000.5 }), 'parse', 'SC_ERR_EVENT_RANGE', 'accepts');
  {
    // 1.7e9 in exponent form: JSON.parse reads 1700000000, and the id is that of the
    // integer, so nostr-tools accepts it; our parser refuses exponent forms.
    const ok = signedAs('created-at-exponent', {});
    add('created-at-exponent', splice(ok, '"created_at":1700000000', '"created_at":1.7e9'), 'parse', 'SC_ERR_EVENT_RANGE', 'accepts');
    add('created-at-fraction-zero', splice(ok, '"created_at":1700000000', '"created_at":1700000000.0'), 'parse', 'SC_ERR_EVENT_RANGE', 'accepts');
  }
  add('created-at-beyond-int64', splice(std, `"created_at":${e.created_at}`, '"created_at":9223372036854775808'), 'parse', 'SC_ERR_EVENT_RANGE', 'rejects');
  add('created-at-string', J({ ...e, created_at: String(e.created_at) }), 'parse', 'SC_ERR_EVENT_FIELD', 'rejects');
  add('kind-string', J({ ...e, kind: String(e.kind) }), 'parse', 'SC_ERR_EVENT_FIELD', 'rejects');
  add('kind-null', J({ ...e, kind: null }), 'parse', 'SC_ERR_EVENT_FIELD', 'rejects');
  add('content-number', J({ ...e, content: 1 }), 'parse', 'SC_ERR_EVENT_FIELD', 'rejects');
  add('content-null', J({ ...e, content: null }), 'parse', 'SC_ERR_EVENT_FIELD', 'rejects');
  add('tags-object', J({ ...e, tags: {} }), 'parse', 'SC_ERR_EVENT_FIELD', 'rejects');
  add('tags-string', J({ ...e, tags: 'e' }), 'parse', 'SC_ERR_EVENT_FIELD', 'rejects');
  add('tags-null', J({ ...e, tags: null }), 'parse', 'SC_ERR_EVENT_FIELD', 'rejects');
  add('tag-not-array', J({ ...e, tags: ['e'] }), 'parse', 'SC_ERR_EVENT_FIELD', 'rejects');
  add('tag-element-number', J({ ...e, tags: [['e', 1]] }), 'parse', 'SC_ERR_EVENT_FIELD', 'rejects');
  add('tag-element-null', J({ ...e, tags: [['e', null]] }), 'parse', 'SC_ERR_EVENT_FIELD', 'rejects');
  add('tag-element-array', J({ ...e, tags: [['e', ['x']]] }), 'parse', 'SC_ERR_EVENT_FIELD', 'rejects');
  add('tag-element-object', J({ ...e, tags: [[{}]] }), 'parse', 'SC_ERR_EVENT_FIELD', 'rejects');
  add('tag-empty', signedAs('tag-empty', { tags: [[]] }), 'parse', 'SC_ERR_EVENT_FIELD', 'accepts');
  for (const f of ['id', 'pubkey', 'created_at', 'kind', 'tags', 'content', 'sig']) {
    const o = { ...e };
    delete o[f];
    add('missing-' + f.replace('_', '-'), J(o), 'parse', 'SC_ERR_EVENT_FIELD', 'rejects');
  }
  add('duplicate-content', splice(std, '"content":', '"content":"dup","content":'), 'parse', 'SC_ERR_EVENT_FIELD');
  add('duplicate-id', splice(std, '"id":', `"id":"${e.id}","id":`), 'parse', 'SC_ERR_EVENT_FIELD');
  add('duplicate-kind-escaped-key', splice(std, '"kind":', `"ki\\u006ed":${e.kind},"kind":`), 'parse', 'SC_ERR_EVENT_FIELD');
  add('lone-high-surrogate', splice(std, '"content":"', '"content":"\\ud800'), 'parse', 'SC_ERR_UTF8');
  add('lone-low-surrogate', splice(std, '"content":"', '"content":"\\udc00'), 'parse', 'SC_ERR_UTF8');
  add('high-surrogate-then-letter', splice(std, '"content":"', '"content":"\\ud83e\\u0041'), 'parse', 'SC_ERR_UTF8');
  add('high-surrogate-at-end', splice(std, `"content":${J(e.content)}`, `"content":${J(e.content).slice(0, -1)}\\ud83e"`), 'parse', 'SC_ERR_UTF8');
  add('reversed-surrogate-pair', splice(std, '"content":"', '"content":"\\udd84\\ud83e'), 'parse', 'SC_ERR_UTF8');
  add('lone-surrogate-in-tag', J({ ...e, tags: [['t', 'PLACEHOLDER']] }).replace('PLACEHOLDER', '\\udfff'), 'parse', 'SC_ERR_UTF8');
  // Valid JSON that is not an object: not a syntax error but a value of the wrong type.
  add('top-level-array', '[' + std + ']', 'parse', 'SC_ERR_EVENT_FIELD', 'rejects');
  add('top-level-string', J(std), 'parse', 'SC_ERR_EVENT_FIELD', 'rejects');
  add('top-level-number', '1', 'parse', 'SC_ERR_EVENT_FIELD', 'rejects');
  add('top-level-null', 'null', 'parse', 'SC_ERR_EVENT_FIELD', 'rejects');
  add('empty-object', '{}', 'parse', 'SC_ERR_EVENT_FIELD', 'rejects');
  add('trailing-comma', std.slice(0, -1) + ',}', 'parse', 'SC_ERR_JSON', 'cannot-parse');
  add('trailing-garbage', std + 'x', 'parse', 'SC_ERR_JSON', 'cannot-parse');
  add('two-objects', std + std, 'parse', 'SC_ERR_JSON', 'cannot-parse');
  add('single-quotes', std.replace('"content"', "'content'"), 'parse', 'SC_ERR_JSON', 'cannot-parse');
  add('unterminated', std.slice(0, -1), 'parse', 'SC_ERR_JSON', 'cannot-parse');
  add('raw-newline-in-string', splice(std, '"content":"', '"content":"\n'), 'parse', 'SC_ERR_JSON', 'cannot-parse');
  add('bad-escape', splice(std, '"content":"', '"content":"\\x41'), 'parse', 'SC_ERR_JSON', 'cannot-parse');
  add('short-unicode-escape', splice(std, '"content":"', '"content":"\\u41"'), 'parse', 'SC_ERR_JSON', 'cannot-parse');
  add('empty-text', '', 'parse', 'SC_ERR_JSON', 'cannot-parse');
  return r;
}

function genEvents() {
  const events = [];
  const byName = {};
  for (const { name, note, tpl } of eventTemplates()) {
    const { sk, aux, event } = signEvent(name, tpl);
    const serialized = serializeEvent(event);
    check(sha256hex(utf8(serialized)) === event.id, name + ': id is not sha256(serialized)');
    const c = {
      name,
      note,
      sk: hex(sk),
      npub: nip19.npubEncode(event.pubkey),
      aux: hex(aux),
      event,
      json: JSON.stringify(event),
      serialized,
      id: event.id,
      sig: event.sig,
    };
    events.push(c);
    byName[name] = c;
  }
  const altFor = ['kind0-metadata', 'all-c0-content', 'all-c0-tags', 'del-slash-quote-backslash', 'u2028-u2029',
    'astral-emoji', 'combining', 'rtl', 'bmp-edges', 'empty-strings', 'escape-lookalikes', 'created-at-max-safe', 'kind65535'];
  const alternate_encodings = altFor.map((n) => ({ name: n, id: byName[n].id, encodings: alternates(byName[n].event) }));
  const rej = rejects(byName['del-slash-quote-backslash']).concat(
    rejects(byName['astral-emoji']).filter((x) => x.stage === 'verify').map((x) => ({ ...x, name: 'astral-' + x.name })));

  writeDoc('nostr-tools.events.json', {
    description: 'NIP-01 events serialised, hashed and verified by nostr-tools, signed by @noble/curves schnorr.sign(id, sk, aux). ' +
      'events[]: json is JSON.stringify of the event with keys in the order id,pubkey,created_at,kind,tags,content,sig; ' +
      'serialized is serializeEvent (the bytes whose sha256 is id). alternate_encodings[]: other valid JSON texts of the same event ' +
      '(each must parse to the same id and verify). rejects[]: stage "parse" = sc_event_parse fails with expect; stage "verify" = ' +
      'it parses and sc_event_verify fails with expect; nostr_tools = what JSON.parse + verifyEvent does with it.',
    generator: 'vectors/gen/gen-nostr-tools.mjs',
    versions,
    events,
    alternate_encodings,
    rejects: rej,
  });
  return events;
}

// =========================================================================================
// NIP-44 v2
// =========================================================================================

function calcPaddedLen(len) {
  const v = nip44.utils.calcPaddedLen(len);
  return v;
}

// Plaintext of exactly len UTF-8 bytes from a seeded stream: mostly ASCII with 2-, 3- and
// 4-byte characters mixed in (nostr-tools encrypts strings, so it must be valid UTF-8).
function seededPlaintext(label, len) {
  const multi = ['é', 'Ж', 'ع', '€', '中', '\u2028', '\ufffd', '😀', '🦄', '\u{10ffff}'];
  const r = stream(label);
  let s = '';
  let n = 0;
  while (n < len) {
    let ch;
    if (r.below(4) === 0) ch = multi[r.below(multi.length)];
    else ch = String.fromCharCode(0x20 + r.below(95));
    if (n + utf8(ch).length > len) ch = String.fromCharCode(0x61 + r.below(26));
    s += ch;
    n += utf8(ch).length;
  }
  return s;
}

// The long-plaintext generator the C test reproduces: PATTERN repeated floor(len/97) times,
// then the first len mod 97 bytes of FILLER (ASCII, so every cut is valid UTF-8).
const PATTERN = 'softchat🦄nip44 "pad" \\ é€中 ' + '\u2028' + 'x'.repeat(10);
const PATTERN_BYTES = utf8(PATTERN.padEnd(PATTERN.length + (97 - utf8(PATTERN).length), '-'));
check(PATTERN_BYTES.length === 97, 'pattern is not 97 bytes');
const FILLER = Array.from({ length: 96 }, (_, i) => String.fromCharCode(0x21 + (i % 94))).join('');

function patternPlaintext(len) {
  const k = Math.floor(len / 97);
  const out = new Uint8Array(len);
  for (let i = 0; i < k; i++) out.set(PATTERN_BYTES, i * 97);
  out.set(utf8(FILLER.slice(0, len - k * 97)), k * 97);
  return dec.decode(out);
}

function messageKeys(ck, nonce) {
  const k = hkdfExpand(sha256, ck, nonce, 76);
  return { key: k.subarray(0, 32), nonce: k.subarray(32, 44), hmac: k.subarray(44, 76) };
}

// A payload with a valid MAC over an arbitrary padded buffer: how bad padding is reached.
function sealPadded(ck, nonce, padded) {
  const mk = messageKeys(ck, nonce);
  const ct = chacha20(mk.key, mk.nonce, padded);
  const mac = hmac(sha256, mk.hmac, concatBytes(nonce, ct));
  return Buffer.from(concatBytes(new Uint8Array([2]), nonce, ct, mac)).toString('base64');
}

function genNip44() {
  // Conversation keys from fixed key pairs, both directions.
  const conversation_keys = [];
  for (let i = 0; i < 8; i++) {
    const sec1 = secretKey(`nip44/ck/${i}/sec1`);
    const sec2 = secretKey(`nip44/ck/${i}/sec2`);
    const pub1 = getPublicKey(sec1);
    const pub2 = getPublicKey(sec2);
    const ck = nip44.utils.getConversationKey(sec1, pub2);
    check(hex(ck) === hex(nip44.utils.getConversationKey(sec2, pub1)), 'conversation key is not symmetric');
    conversation_keys.push({ sec1: hex(sec1), pub1, sec2: hex(sec2), pub2, conversation_key: hex(ck) });
  }

  // Lengths: every padding boundary b (each value calc_padded_len takes up to 65536) with b-1,
  // b, b+1; 1..40; seeded random lengths; and a few extended-prefix lengths.
  const bounds = [];
  for (let len = 1; len <= 65536; len++) {
    const p = calcPaddedLen(len);
    if (p === len) bounds.push(len);
  }
  const lens = new Set();
  for (const b of bounds) for (const l of [b - 1, b, b + 1]) if (l >= 1 && l <= 65535) lens.add(l);
  for (let l = 1; l <= 40; l++) lens.add(l);
  for (const l of [50, 100, 1000, 1024, 1025]) lens.add(l);
  const rl = stream('nip44/random-lengths');
  for (let i = 0; i < 12; i++) lens.add(1 + rl.below(65535));
  for (let i = 0; i < 8; i++) lens.add(41 + rl.below(1000));
  const extended = [65536, 65537, 81920, 81921, 100000];
  const all = [...lens].sort((a, b) => a - b).concat(extended);

  const encrypt = [];
  all.forEach((len) => {
    const kp = conversation_keys[len % conversation_keys.length];
    const ck = hexToBytes(kp.conversation_key);
    const nonce = det(`nip44/encrypt/${len}/nonce`);
    const long = len > 1024;
    const pt = long ? patternPlaintext(len) : seededPlaintext(`nip44/encrypt/${len}/plaintext`, len);
    const ptBytes = utf8(pt);
    check(ptBytes.length === len, 'plaintext length ' + ptBytes.length + ' != ' + len);
    const payload = nip44.encrypt(pt, ck, nonce);
    check(nip44.decrypt(payload, ck) === pt, 'nostr-tools does not decrypt its own payload at ' + len);
    const c = {
      len,
      padded_len: calcPaddedLen(len),
      prefix: len >= 65536 ? 'extended' : 'u16',
      conversation_key: kp.conversation_key,
      nonce: hex(nonce),
    };
    if (long) {
      c.plaintext_gen = 'pattern';
      c.plaintext_sha256 = sha256hex(ptBytes);
      c.payload_len = payload.length;
      c.payload_sha256 = sha256hex(utf8(payload));
    } else {
      c.plaintext = hex(ptBytes);
      c.payload = payload;
    }
    encrypt.push(c);
  });

  // Rejects: payloads nostr-tools made, then tampered; and payloads with a valid MAC over a
  // bad padded buffer (the only way to reach the padding checks).
  const rejects = [];
  const base = encrypt.find((c) => c.len === 100);
  const ck = hexToBytes(base.conversation_key);
  const p = base.payload;
  const raw = Buffer.from(p, 'base64');
  const b64 = (buf) => Buffer.from(buf).toString('base64');
  const rawWith = (i, v) => {
    const b = Buffer.from(raw);
    b[i] = v;
    return b64(b);
  };
  const ntRejects = (payload) => {
    try {
      nip44.decrypt(payload, ck);
      return null;
    } catch (err) {
      return err.message;
    }
  };
  const add = (name, payload, expect, ntMustReject = true) => {
    const nt = ntRejects(payload);
    if (ntMustReject) check(nt !== null, `nip44 reject ${name}: nostr-tools accepts it`);
    rejects.push({ name, conversation_key: base.conversation_key, payload, expect, nostr_tools_error: nt });
  };
  add('mac-first-byte-flipped', rawWith(raw.length - 32, raw[raw.length - 32] ^ 1), 'SC_ERR_MAC');
  add('mac-last-byte-flipped', rawWith(raw.length - 1, raw[raw.length - 1] ^ 0x80), 'SC_ERR_MAC');
  add('ciphertext-first-byte-flipped', rawWith(33, raw[33] ^ 1), 'SC_ERR_MAC');
  add('ciphertext-last-byte-flipped', rawWith(raw.length - 33, raw[raw.length - 33] ^ 0x40), 'SC_ERR_MAC');
  add('nonce-byte-flipped', rawWith(1, raw[1] ^ 1), 'SC_ERR_MAC');
  add('version-byte-1', rawWith(0, 1), 'SC_ERR_VERSION');
  add('version-byte-0', rawWith(0, 0), 'SC_ERR_VERSION');
  add('version-byte-3', rawWith(0, 3), 'SC_ERR_VERSION');
  add('version-byte-255', rawWith(0, 255), 'SC_ERR_VERSION');
  add('hash-prefix', '#' + p.slice(1), 'SC_ERR_VERSION');
  add('hash-prefix-prepended', '#' + p, 'SC_ERR_VERSION');
  add('empty', '', 'SC_ERR_VERSION');
  add('truncated-4-chars', p.slice(0, -4), 'SC_ERR_MAC');
  add('truncated-1-char', p.slice(0, -1), 'SC_ERR_BASE64');
  add('truncated-to-131-chars', p.slice(0, 131), 'SC_ERR_PAYLOAD_SIZE');
  add('truncated-to-100-chars', p.slice(0, 100), 'SC_ERR_PAYLOAD_SIZE');
  {
    // A payload whose base64 ends in '=' (raw length 67 + padded_len, not a multiple of 3).
    const padded = encrypt.find((c) => c.len === 50).payload;
    check(padded.endsWith('='), 'the len-50 payload has no base64 padding');
    add('base64-padding-stripped', padded.replace(/=+$/, ''), 'SC_ERR_BASE64');
    add('base64-padding-doubled', padded + '=', 'SC_ERR_BASE64');
  }
  add('non-base64-char-bang', p.slice(0, 50) + '!' + p.slice(51), 'SC_ERR_BASE64');
  add('non-base64-char-space', p.slice(0, 50) + ' ' + p.slice(51), 'SC_ERR_BASE64');
  add('non-base64-char-url-safe-dash', p.slice(0, 60) + '-' + p.slice(61), 'SC_ERR_BASE64');
  add('non-base64-char-url-safe-underscore', p.slice(0, 70) + '_' + p.slice(71), 'SC_ERR_BASE64');
  add('padding-char-inside', p.slice(0, 80) + '=' + p.slice(81), 'SC_ERR_BASE64');
  add('non-ascii-char', p.slice(0, 40) + '\u00e9' + p.slice(41), 'SC_ERR_BASE64');
  add('appended-garbage', p + 'AAAA', 'SC_ERR_MAC');
  {
    // Exactly 99 decoded bytes (132 chars) whose MAC cannot match.
    const short = Buffer.alloc(99);
    short[0] = 2;
    add('minimal-size-zero-mac', b64(short), 'SC_ERR_MAC');
    const tiny = Buffer.alloc(98);
    tiny[0] = 2;
    add('decoded-98-bytes', b64(tiny), 'SC_ERR_PAYLOAD_SIZE');
  }
  {
    // Valid MAC, bad padding. nonce from a label; padded buffers built by hand.
    const nonce = det('nip44/rejects/padding/nonce');
    const padded = (prefix, body, total) => {
      const b = new Uint8Array(total);
      b.set(prefix, 0);
      b.set(body, prefix.length);
      return b;
    };
    const body = utf8('hello');
    add('padding-length-zero', sealPadded(ck, nonce, padded([0, 0, 0, 0, 0, 0], body, 34)), 'SC_ERR_PADDING');
    add('padding-len-exceeds-buffer', sealPadded(ck, nonce, padded([0, 57], body, 34)), 'SC_ERR_PADDING');
    add('padding-wrong-padded-size', sealPadded(ck, nonce, padded([0, 5], body, 66)), 'SC_ERR_PADDING');
    add('padding-one-long', sealPadded(ck, nonce, padded([0, 5], body, 35)), 'SC_ERR_PADDING');
    add('padding-one-short', sealPadded(ck, nonce, padded([0, 40], new Uint8Array(40).fill(0x61), 65)), 'SC_ERR_PADDING');
    add('padding-extended-prefix-small-len', sealPadded(ck, nonce, padded([0, 0, 0, 0, 0, 5], body, 38)), 'SC_ERR_PADDING');
    add('padding-extended-prefix-65535', sealPadded(ck, nonce, padded([0, 0, 0, 0, 0xff, 0xff], new Uint8Array(0), 6 + 65536)), 'SC_ERR_PADDING');
    add('padding-extended-len-exceeds-buffer', sealPadded(ck, nonce, padded([0, 0, 0, 1, 0, 0], body, 38)), 'SC_ERR_PADDING');
    // The control: the same construction with a correct buffer decrypts (in nostr-tools and here).
    const good = sealPadded(ck, nonce, padded([0, 5], body, 34));
    check(nip44.decrypt(good, ck) === 'hello', 'the padding control does not decrypt');
    rejects.push({ name: 'control-valid-hand-padded', conversation_key: base.conversation_key, payload: good, expect: 'SC_OK', plaintext: hex(body), nostr_tools_error: null });
    // Padding bytes need not be zero (the spec does not require it): nostr-tools accepts.
    const junk = padded([0, 5], body, 34);
    junk.fill(0xaa, 7);
    const junkPayload = sealPadded(ck, nonce, junk);
    check(nip44.decrypt(junkPayload, ck) === 'hello', 'nonzero padding is refused by nostr-tools');
    rejects.push({ name: 'control-nonzero-padding-bytes', conversation_key: base.conversation_key, payload: junkPayload, expect: 'SC_OK', plaintext: hex(body), nostr_tools_error: null });
  }

  writeDoc('nostr-tools.nip44.json', {
    description: 'NIP-44 v2 payloads made by nostr-tools nip44.v2.encrypt(plaintext, conversation_key, nonce). ' +
      'conversation_keys[]: getConversationKey(sec1, pub2) == getConversationKey(sec2, pub1). encrypt[]: plaintext/payload are given ' +
      'in full (plaintext as UTF-8 hex) for len <= 1024; longer ones give plaintext_gen "pattern" (see pattern) with plaintext_sha256, ' +
      'payload_len and payload_sha256 (sha256 of the base64 text). prefix "extended" rows (len >= 65536) use the 6-byte length ' +
      'prefix. rejects[]: sc_nip44_decrypt must fail with expect (SC_OK rows are controls that must decrypt to plaintext); ' +
      'nostr_tools_error is what nostr-tools threw.',
    generator: 'vectors/gen/gen-nostr-tools.mjs',
    versions,
    pattern: {
      description: 'plaintext_gen "pattern": pattern_hex repeated floor(len / 97) times, then the first (len mod 97) bytes of filler (ASCII)',
      pattern_hex: hex(PATTERN_BYTES),
      filler: FILLER,
    },
    padding_boundaries: bounds,
    conversation_keys,
    encrypt,
    rejects,
  });
}

genEvents();
genNip44();
