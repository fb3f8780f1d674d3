// Identities (a secret key in wasm memory), held NIP-44 conversations, and what an identity
// does: NIP-44, NIP-01 signing, NIP-59 gift wraps and NIP-17 messages.
import { Caps, Core, toHex } from './core.js';
import { Status } from './errors.js';
import { textBound } from './native.js';
import type {
  EventTemplate, FileMessage, GiftWrap, Key, MessageOptions, NostrEvent, ReceivedFile, Receiver,
  Rumor, UnwrappedRumor, WrapInfo, WrapOptions,
} from './types.js';

const NIP44_EXTENDED = 1;
const NIP59_EPHEMERAL = 0x100;
const NIP59_EXPIRATION_WRAP_ONLY = 0x200;
const decoder = new TextDecoder();

/** NIP-44 options. */
export interface Nip44Options {
  /** allow the 6-byte extended length prefix for plaintexts of 65536 bytes or more */
  extended?: boolean;
  /** a fixed 32-byte nonce (test vectors only; default: the CSPRNG) */
  nonce?: Uint8Array;
}

export interface DecryptOptions {
  /** the longest payload accepted, in characters (default 1 MiB) */
  maxPayload?: number;
}

/** Which native object a call runs on: a held conversation, or an identity and a peer. */
interface Via {
  conv: number;
  id: number;
  peer?: Uint8Array;
}

function nip44Encrypt(c: Core, via: Via, pt: unknown, opts?: Nip44Options): string {
  const text = typeof pt === 'string';
  const body = text ? c.text(pt, 'plaintext', Caps.plaintext) : c.bytes(pt, 'plaintext');
  const nonce = opts?.nonce !== undefined ? c.bytes(opts.nonce, 'nonce', 32) : undefined;
  const n = c.n;
  const inp = c.in.begin(48 + (text ? textBound(body as string) : (body as Uint8Array).length) + 40);
  try {
    const pp = via.peer ? inp.bytes(via.peer) : 0;
    const np = nonce ? inp.bytes(nonce) : 0;
    const [p, l] = text ? inp.text(body as string) : [inp.bytes(body as Uint8Array), (body as Uint8Array).length];
    n.check(n.x.scw_nip44_encrypt(n.w, via.conv, via.id, pp, p, l, opts?.extended ? NIP44_EXTENDED : 0, np));
    return n.outText();
  } finally {
    inp.wipe();
    n.done();
  }
}

function nip44Decrypt<T>(c: Core, via: Via, payload: unknown, opts: DecryptOptions | undefined,
  read: (b: Uint8Array) => T): T {
  const max = opts?.maxPayload ?? Caps.json;
  const s = c.text(payload, 'payload', Math.max(max, 0));
  const n = c.n;
  const inp = c.in.begin(48 + s.length + 8);
  try {
    const pp = via.peer ? inp.bytes(via.peer) : 0;
    const [p, l] = inp.text(s);
    n.check(n.x.scw_nip44_decrypt(n.w, via.conv, via.id, pp, p, l, max));
    return read(n.out());
  } finally {
    inp.wipe();
    n.done();
  }
}

const asText = (b: Uint8Array): string => decoder.decode(b);
const asBytes = (b: Uint8Array): Uint8Array => b.slice();

/** A NIP-44 conversation key held in wasm memory (for many messages with one peer). */
export class Nip44Conversation {
  #c: Core;
  #h: number;

  /** @internal */
  constructor(c: Core, h: number) {
    this.#c = c;
    this.#h = h;
    c.track(this, h, (x) => c.n.x.scw_conv_free(x));
  }

  private via(): Via {
    if (this.#h === 0) {
      throw this.#c.fail(Status.STATE, 'the conversation was disposed');
    }
    this.#c.live();
    return { conv: this.#h, id: 0 };
  }

  get disposed(): boolean {
    return this.#h === 0;
  }

  encrypt(plaintext: string | Uint8Array, opts?: { extended?: boolean }): string {
    return nip44Encrypt(this.#c, this.via(), plaintext, opts);
  }

  decrypt(payload: string, opts?: DecryptOptions): string {
    return nip44Decrypt(this.#c, this.via(), payload, opts, asText);
  }

  /** The plaintext as bytes (the caller wipes them). */
  decryptBytes(payload: string, opts?: DecryptOptions): Uint8Array {
    return nip44Decrypt(this.#c, this.via(), payload, opts, asBytes);
  }

  /** Wipes and frees the key. Idempotent. */
  dispose(): void {
    if (this.#h !== 0) {
      this.#c.untrack(this, this.#h);
      this.#h = 0;
    }
  }

  [Symbol.dispose](): void {
    this.dispose();
  }
}

class Wrap implements GiftWrap {
  readonly recipient: string;
  readonly json: string;
  #event?: NostrEvent;

  constructor(recipient: string, json: string) {
    this.recipient = recipient;
    this.json = json;
  }

  get event(): NostrEvent {
    return (this.#event ??= JSON.parse(this.json) as NostrEvent);
  }

  toJSON(): NostrEvent {
    return this.event;
  }
}

/** A received NIP-17 message (kind 14 chat or kind 15 file). Its text is kept as bytes,
 *  wiped by dispose(); `content` makes a string (which cannot be wiped) when read. */
export class PrivateMessage implements WrapInfo {
  readonly kind: number;
  readonly createdAt: number;
  readonly rumorId: string;
  readonly tags: string[][];
  readonly subject: string | undefined;
  /** the sender, then each distinct p tag pubkey */
  readonly room: string[];
  readonly sender: string;
  readonly wrapPubkey: string;
  readonly wrapId: string;
  readonly sealId: string;
  readonly wrapKind: number;
  readonly wrapCreatedAt: number;
  readonly sealCreatedAt: number;
  /** kind 15: the attachment (its key and IV as bytes) */
  readonly file: ReceivedFile | undefined;
  #text: Uint8Array;

  /** @internal */
  constructor(rumor: Rumor, text: Uint8Array, room: string[], info: WrapInfo, file?: ReceivedFile) {
    this.kind = rumor.kind;
    this.createdAt = rumor.created_at;
    this.rumorId = rumor.id;
    this.tags = rumor.tags;
    this.subject = rumor.tags.find((t) => t[0] === 'subject')?.[1];
    this.room = room;
    this.sender = info.sender;
    this.wrapPubkey = info.wrapPubkey;
    this.wrapId = info.wrapId;
    this.sealId = info.sealId;
    this.wrapKind = info.wrapKind;
    this.wrapCreatedAt = info.wrapCreatedAt;
    this.sealCreatedAt = info.sealCreatedAt;
    this.file = file;
    this.#text = text;
  }

  /** The text (kind 14) or the file's URL (kind 15) as a string. */
  get content(): string {
    return this.file ? this.file.url : decoder.decode(this.#text);
  }

  /** The text's UTF-8 bytes, held by the message (wiped by dispose()). */
  contentBytes(): Uint8Array {
    return this.#text;
  }

  /** Wipes the held text and, for kind 15, the key and IV. */
  dispose(): void {
    this.#text.fill(0);
    this.file?.key.fill(0);
    this.file?.iv.fill(0);
  }

  [Symbol.dispose](): void {
    this.dispose();
  }
}

function wrapFlags(o?: WrapOptions, extended?: boolean): number {
  return (o?.ephemeral ? NIP59_EPHEMERAL : 0) | (o?.extended || extended ? NIP44_EXTENDED : 0) |
    (o?.expirationWrapOnly ? NIP59_EXPIRATION_WRAP_ONLY : 0);
}

function readInfo(c: Core): WrapInfo {
  const n = c.n;
  return {
    sender: toHex(n.res(0, 32)),
    wrapPubkey: toHex(n.res(32, 32)),
    wrapId: toHex(n.res(64, 32)),
    sealId: toHex(n.res(96, 32)),
    wrapCreatedAt: n.resF64(128),
    sealCreatedAt: n.resF64(136),
    wrapKind: n.resU32(144),
  };
}

/** A Nostr identity: its secret key lives in wasm memory (wiped by dispose()), its x-only
 *  public key is cached. */
export class Identity {
  #c: Core;
  #h: number;
  #pub: Uint8Array;
  /** the x-only public key, lowercase hex */
  readonly publicKeyHex: string;

  /** @internal */
  constructor(c: Core, h: number, pub: Uint8Array) {
    this.#c = c;
    this.#h = h;
    this.#pub = pub;
    this.publicKeyHex = toHex(pub);
    c.track(this, h, (x) => c.n.x.scw_identity_free(x));
  }

  /** the x-only public key (a copy) */
  get publicKey(): Uint8Array {
    return this.#pub.slice();
  }

  get disposed(): boolean {
    return this.#h === 0;
  }

  /** @internal the native handle; SC_ERR_STATE once disposed */
  handle(): number {
    if (this.#h === 0) {
      throw this.#c.fail(Status.STATE, 'the identity was disposed');
    }
    this.#c.live();
    return this.#h;
  }

  /** Wipes and frees the secret key. Idempotent; later calls fail with SC_ERR_STATE. */
  dispose(): void {
    if (this.#h !== 0) {
      this.#c.untrack(this, this.#h);
      this.#h = 0;
    }
  }

  [Symbol.dispose](): void {
    this.dispose();
  }

  /** The 32-byte secret key (a copy the caller wipes). */
  exportSecret(): Uint8Array {
    const n = this.#c.n;
    try {
      n.check(n.x.scw_identity_secret(n.w, this.handle()));
      return n.res(0, 32);
    } finally {
      n.done();
    }
  }

  /** BIP-340 signature of a 32-byte message; aux: 32 bytes (default: the CSPRNG). */
  signSchnorr(msg: Uint8Array, aux?: Uint8Array): Uint8Array {
    const c = this.#c;
    const m = c.bytes(msg, 'msg', 32);
    const a = aux !== undefined ? c.bytes(aux, 'aux', 32) : undefined;
    const h = this.handle();
    const inp = c.in.begin(64);
    const n = c.n;
    try {
      const mp = inp.bytes(m);
      const ap = a ? inp.bytes(a) : 0;
      n.check(n.x.scw_schnorr_sign(n.w, h, mp, ap));
      return n.res(0, 64);
    } finally {
      inp.wipe();
      n.done();
    }
  }

  private via(peer: Key): Via {
    const p = this.#c.key(peer, 'peer');
    return { conv: 0, id: this.handle(), peer: p };
  }

  /** NIP-44 v2 payload of plaintext for peer (a string, or bytes the caller wipes). */
  nip44Encrypt(peer: Key, plaintext: string | Uint8Array, opts?: Nip44Options): string {
    return nip44Encrypt(this.#c, this.via(peer), plaintext, opts);
  }

  nip44Decrypt(peer: Key, payload: string, opts?: DecryptOptions): string {
    return nip44Decrypt(this.#c, this.via(peer), payload, opts, asText);
  }

  /** The plaintext as bytes (the caller wipes them). */
  nip44DecryptBytes(peer: Key, payload: string, opts?: DecryptOptions): Uint8Array {
    return nip44Decrypt(this.#c, this.via(peer), payload, opts, asBytes);
  }

  /** A held conversation with peer: the key is derived once and kept in wasm memory. */
  conversation(peer: Key): Nip44Conversation {
    const c = this.#c;
    const v = this.via(peer);
    const n = c.n;
    const inp = c.in.begin(32);
    try {
      const pp = inp.bytes(v.peer!);
      n.check(n.x.scw_conv_new(n.w, v.id, pp, 0));
      return new Nip44Conversation(c, n.resU32(0));
    } finally {
      n.done();
    }
  }

  private eventCall(t: unknown, what: string, extra: number,
    call: (p: number, l: number, x: number) => number): string {
    const c = this.#c;
    if (typeof t !== 'object' || t === null) {
      throw c.fail(Status.ARG, `${what} must be an object`);
    }
    const o = t as EventTemplate;
    const json = c.json({
      kind: o.kind, created_at: o.created_at ?? c.now(), tags: o.tags ?? [], content: o.content,
    }, what);
    const n = c.n;
    const inp = c.in.begin(textBound(json) + extra);
    try {
      const [p, l] = inp.text(json);
      n.check(call(p, l, inp.bytes(new Uint8Array(0))));
      return n.outText();
    } finally {
      inp.wipe();
      n.done();
    }
  }

  /** Signs an event (NIP-01): id, pubkey and sig set. aux: BIP-340 aux (vectors). */
  sign(template: EventTemplate, opts?: { aux?: Uint8Array }): NostrEvent {
    const c = this.#c;
    const aux = opts?.aux !== undefined ? c.bytes(opts.aux, 'aux', 32) : undefined;
    const h = this.handle();
    const n = c.n;
    return JSON.parse(this.eventCall(template, 'event', 40, (p, l, x) => {
      if (aux) {
        n.mem().set(aux, x);
      }
      return n.x.scw_event_sign(n.w, h, p, l, aux ? x : 0);
    })) as NostrEvent;
  }

  /** The rumor (NIP-59) of template by this identity: id and pubkey, no signature. */
  rumor(template: EventTemplate): Rumor {
    const n = this.#c.n;
    const pub = this.#pub;
    this.handle();
    return JSON.parse(this.eventCall(template, 'rumor', 40, (p, l, x) => {
      n.mem().set(pub, x);
      return n.x.scw_rumor(n.w, x, p, l);
    })) as Rumor;
  }

  private wrapOpts(o: WrapOptions | undefined): { relay: string; exp: number; now: number } {
    const c = this.#c;
    return {
      relay: o?.relay !== undefined ? c.text(o.relay, 'relay', 256) : '',
      exp: o?.expiration !== undefined ? c.time(o.expiration, 'expiration') : 0,
      now: o?.now !== undefined ? c.time(o.now, 'now') : c.now(),
    };
  }

  /** Seals and gift-wraps a rumor (NIP-59) from this identity to recipient. */
  giftWrap(rumor: Rumor, recipient: Key, opts?: WrapOptions): GiftWrap {
    const c = this.#c;
    const r = c.key(recipient, 'recipient');
    const json = c.json(rumor, 'rumor');
    const o = this.wrapOpts(opts);
    const h = this.handle();
    const n = c.n;
    const inp = c.in.begin(textBound(json) + textBound(o.relay) + 40);
    try {
      const rp = inp.bytes(r);
      const [p, l] = inp.text(json);
      const [hp, hl] = inp.text(o.relay);
      n.check(n.x.scw_nip59_wrap(n.w, h, rp, p, l, wrapFlags(opts), hp, hl, o.exp, o.now));
      return new Wrap(toHex(r), n.outText());
    } finally {
      inp.wipe();
      n.done();
    }
  }

  private received(json: unknown, now: number | undefined,
    call: (h: number, p: number, l: number, t: number) => number): void {
    const c = this.#c;
    const s = c.text(json, 'gift wrap', Caps.json);
    const t = now !== undefined ? c.time(now, 'now') : c.now();
    const h = this.handle();
    const inp = c.in.begin(textBound(s));
    const [p, l] = inp.text(s);
    c.n.check(call(h, p, l, t));
  }

  /** Opens a gift wrap addressed to this identity (every NIP-59 check; NIP-40 at now). */
  unwrap(json: string, opts?: { now?: number }): UnwrappedRumor {
    const n = this.#c.n;
    try {
      this.received(json, opts?.now, (h, p, l, t) => n.x.scw_nip59_unwrap(n.w, h, p, l, t));
      return { rumor: JSON.parse(n.outText()) as Rumor, ...readInfo(this.#c) };
    } finally {
      this.#c.in.wipe();
      n.done();
    }
  }

  private send(to: unknown, kind: number, text: string | Uint8Array, url: string,
    file: FileMessage | undefined, opts: MessageOptions | undefined): GiftWrap[] {
    const c = this.#c;
    const spec = { kind, created_at: opts?.createdAt ?? c.now(), content: url, tags: specTags(c, to, kind, file, opts) };
    const json = c.json(spec, 'message');
    const o = this.wrapOpts(opts);
    const key = file ? c.bytes(file.key, 'file key', 32) : undefined;
    const iv = file ? c.bytes(file.iv, 'file iv', undefined, 32) : undefined;
    const h = this.handle();
    const n = c.n;
    const tl = typeof text === 'string' ? textBound(text) : text.length;
    const inp = c.in.begin(textBound(json) + tl + textBound(o.relay) + 96);
    try {
      const [p, l] = inp.text(json);
      const [tp, tlen] = typeof text === 'string' ? inp.text(text) : [inp.bytes(text), text.length];
      const kp = key ? inp.bytes(key) : 0;
      const ip = iv ? inp.bytes(iv) : 0;
      const [hp, hl] = inp.text(o.relay);
      n.check(n.x.scw_nip17_send(n.w, h, p, l, tp, tlen, kp, ip, iv ? iv.length : 0,
        wrapFlags(opts), hp, hl, o.exp, o.now));
      return readWraps(n.out());
    } finally {
      inp.wipe();
      n.done();
    }
  }

  /** A NIP-17 kind 14 message: one gift wrap per distinct receiver, then the sender's copy.
   *  content: a string, or UTF-8 bytes the caller wipes. */
  sendMessage(to: Receiver[], content: string | Uint8Array, opts?: MessageOptions): GiftWrap[] {
    const c = this.#c;
    const text = typeof content === 'string' ? c.text(content, 'content', Caps.json)
      : c.bytes(content, 'content', undefined, Caps.json);
    return this.send(to, 14, text, '', undefined, opts);
  }

  /** A NIP-17 kind 15 file message for an attachment encrypted with Attachments. */
  sendFile(to: Receiver[], file: FileMessage, opts?: MessageOptions): GiftWrap[] {
    const c = this.#c;
    if (typeof file !== 'object' || file === null) {
      throw c.fail(Status.ARG, 'file must be an object');
    }
    return this.send(to, 15, '', c.text(file.url, 'url', 8192), file, opts);
  }

  /** Receives a NIP-17 message wrapped for this identity (NIP-40 at now: an expired wrap or
   *  seal fails with SC_ERR_WRAP_EXPIRED / SC_ERR_SEAL_EXPIRED). */
  receive(json: string, opts?: { now?: number }): PrivateMessage {
    const c = this.#c;
    const n = c.n;
    try {
      this.received(json, opts?.now, (h, p, l, t) => n.x.scw_nip17_receive(n.w, h, p, l, t));
      const out = n.out();
      const jl = n.resU32(148);
      const nr = n.resU32(152);
      const cl = n.resU32(156);
      const rumor = JSON.parse(decoder.decode(out.subarray(0, jl))) as Rumor;
      const text = out.slice(jl, jl + cl);
      const room: string[] = [];
      for (let i = 0; i < nr; i++) {
        room.push(toHex(out.subarray(jl + cl + 32 * i, jl + cl + 32 * i + 32)));
      }
      let file: ReceivedFile | undefined;
      if (rumor.kind === 15) {
        const ivLen = n.resU32(224);
        file = {
          url: decoder.decode(text), fileType: rumor.tags.find((t) => t[0] === 'file-type')?.[1] ?? '',
          key: n.res(160, 32), iv: n.res(192, ivLen),
        };
        text.fill(0);
      }
      return new PrivateMessage(rumor, file ? new Uint8Array(0) : text, room, readInfo(c), file);
    } finally {
      c.in.wipe();
      n.done();
    }
  }
}

/** The tags of a NIP-17 spec event (nip17.c reads them back into its structures). */
function specTags(c: Core, to: unknown, kind: number, file: FileMessage | undefined,
  o: MessageOptions | undefined): string[][] {
  if (!Array.isArray(to)) {
    throw c.fail(Status.ARG, 'receivers must be an array');
  }
  const tags: string[][] = [];
  for (const r of to as Receiver[]) {
    if (typeof r !== 'object' || r === null) {
      throw c.fail(Status.ARG, 'a receiver must be an object');
    }
    const t = ['p', toHex(c.key(r.pubkey, 'receiver'))];
    if (r.relay !== undefined) {
      t.push(c.text(r.relay, 'relay', 256));
    }
    tags.push(t);
  }
  if (o?.replyTo !== undefined) {
    const t = ['e', toHex(c.key(o.replyTo, 'replyTo'))];
    if (o.replyRelay !== undefined) {
      t.push(c.text(o.replyRelay, 'replyRelay', 256));
    }
    tags.push(t);
  }
  if (o?.subject !== undefined) {
    tags.push(['subject', c.text(o.subject, 'subject', Caps.json)]);
  }
  for (const q of o?.quotes ?? []) {
    const t = ['q', c.text(q.target, 'quote', 512), q.relay ?? ''];
    if (q.author !== undefined) {
      t.push(q.author);
    }
    tags.push(t);
  }
  if (kind === 15 && file) {
    tags.push(['file-type', c.text(file.fileType, 'fileType', 256)], ['x', toHex(c.key(file.x, 'x'))]);
    if (file.ox !== undefined) {
      tags.push(['ox', toHex(c.key(file.ox, 'ox'))]);
    }
    if (file.size !== undefined) {
      tags.push(['size', String(c.time(file.size, 'size'))]);
    }
    for (const [k, v] of [['dim', file.dim], ['blurhash', file.blurhash], ['thumb', file.thumb]] as const) {
      if (v !== undefined) {
        tags.push([k, c.text(v, k, 8192)]);
      }
    }
    for (const f of file.fallbacks ?? []) {
      tags.push(['fallback', c.text(f, 'fallback', 8192)]);
    }
  }
  return tags;
}

/** The wraps of scw_nip17_send: per wrap recipient[32], u32 length, JSON. */
function readWraps(out: Uint8Array): GiftWrap[] {
  const wraps: GiftWrap[] = [];
  const dv = new DataView(out.buffer, out.byteOffset, out.byteLength);
  for (let off = 0; off < out.length;) {
    const len = dv.getUint32(off + 32, true);
    wraps.push(new Wrap(toHex(out.subarray(off, off + 32)), decoder.decode(out.subarray(off + 36, off + 36 + len))));
    off += 36 + len;
  }
  return wraps;
}

