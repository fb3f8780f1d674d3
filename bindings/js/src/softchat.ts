// The entry point: one wasm instance, and what needs no identity (parsing and verifying
// events, NIP-19, NIP-40, raw BIP-340, NIP-44 with a given key) or makes one.
import { Caps, Core, fromHex, toHex } from './core.js';
import { Status } from './errors.js';
import { Identity, Nip44Conversation } from './identity.js';
import { Native, textBound, type WasmSource } from './native.js';
import type { NostrEvent } from './types.js';
import { Nip19 } from './nip19.js';
import { Attachments } from './attachments.js';
import { Negentropy, type NegentropyItem } from './negentropy.js';
import { RelaySession, type RelaySessionOptions } from './relay.js';
import { RelayPool, type RelayPoolOptions } from './pool.js';

export interface LoadOptions {
  /** the module: bytes, a compiled module, a URL or a Response (default: the package's own
   *  softchat.wasm, next to this file) */
  wasm?: WasmSource;
}

/** One instance of the library (its own wasm memory). Load once per page or worker. */
export class Softchat {
  #c: Core;
  readonly nip19: Nip19;
  readonly attachments: Attachments;

  private constructor(c: Core) {
    this.#c = c;
    this.nip19 = new Nip19(c);
    this.attachments = new Attachments(c);
  }

  static async load(opts?: LoadOptions): Promise<Softchat> {
    return new Softchat(new Core(await Native.load(opts?.wasm)));
  }

  /** the library version */
  get version(): string {
    return this.#c.n.cstr(this.#c.n.x.scw_version());
  }

  /** the crypto backend the module was built with */
  get backend(): string {
    return this.#c.n.cstr(this.#c.n.x.scw_backend(this.#c.n.w));
  }

  /** the libsecp256k1 build inside */
  get secp256k1(): string {
    return this.#c.n.cstr(this.#c.n.x.scw_version_secp256k1());
  }

  /** The stable name of a status code ("SC_ERR_MAC"). */
  statusName(code: number): string {
    return this.#c.n.statusName(code);
  }

  /** Bytes of wasm memory (it grows, never shrinks): for leak checks. */
  heapBytes(): number {
    return this.#c.n.heapBytes();
  }

  /** Bytes of the wasm heap in use (malloc'd, not freed): for leak checks. */
  heapInUse(): number {
    return this.#c.n.x.scw_heap_used();
  }

  /** Imports a 32-byte secret key (copied into wasm memory: the caller wipes its array). */
  importIdentity(secret: Uint8Array): Identity {
    const c = this.#c;
    c.live();
    const k = c.bytes(secret, 'secret', 32);
    const n = c.n;
    const inp = c.in.begin(32);
    try {
      const p = inp.bytes(k);
      n.check(n.x.scw_identity_new(n.w, p)); // wipes p
      return new Identity(c, n.resU32(0), n.res(4, 32));
    } finally {
      inp.wipe();
      n.done();
    }
  }

  /** A new identity from the CSPRNG. */
  generateIdentity(): Identity {
    const c = this.#c;
    c.live();
    const n = c.n;
    try {
      n.check(n.x.scw_identity_new(n.w, 0));
      return new Identity(c, n.resU32(0), n.res(4, 32));
    } finally {
      n.done();
    }
  }

  /** Imports the secret key of an nsec given as ASCII bytes (the caller wipes them). */
  importNsec(nsec: Uint8Array): Identity {
    const key = this.nip19.decodeSecret(nsec);
    try {
      return this.importIdentity(key);
    } finally {
      key.fill(0);
    }
  }

  /** Parses a signed event (JSON text, or an object) and verifies its id and signature;
   *  returns it as the library wrote it back (canonical field order). */
  parseEvent(json: string | NostrEvent): NostrEvent {
    const c = this.#c;
    c.live();
    const s = typeof json === 'string' ? c.text(json, 'event', Caps.json) : c.json(json, 'event');
    const n = c.n;
    const inp = c.in.begin(textBound(s));
    try {
      const [p, l] = inp.text(s);
      n.check(n.x.scw_event_verify(n.w, p, l));
      return JSON.parse(n.outText()) as NostrEvent;
    } finally {
      n.done();
    }
  }

  /** Whether the event verifies (id and signature); false instead of the typed error. */
  verifyEvent(event: string | NostrEvent): boolean {
    try {
      this.parseEvent(event);
      return true;
    } catch (e) {
      if ((e as { statusName?: string }).statusName !== undefined) {
        return false;
      }
      throw e;
    }
  }

  /** BIP-340: whether sig (64 bytes) over msg (32) verifies under the x-only pub (32). */
  verifySchnorr(sig: Uint8Array, msg: Uint8Array, pub: Uint8Array | string): boolean {
    const c = this.#c;
    c.live();
    const s = c.bytes(sig, 'sig', 64);
    const m = c.bytes(msg, 'msg', 32);
    const k = c.key(pub, 'pub');
    const n = c.n;
    const inp = c.in.begin(128);
    const st = n.x.scw_schnorr_verify(n.w, inp.bytes(s), inp.bytes(m), inp.bytes(k));
    if (st === 0) {
      return true;
    }
    if (st === -29) { // SC_ERR_INVALID_SIG
      return false;
    }
    throw n.error(st);
  }

  /** A held NIP-44 conversation from a 32-byte conversation key (copied into wasm memory:
   *  the caller wipes its array). */
  conversationFromKey(ck: Uint8Array): Nip44Conversation {
    const c = this.#c;
    c.live();
    const k = c.bytes(ck, 'conversation key', 32);
    const n = c.n;
    const inp = c.in.begin(32);
    try {
      n.check(n.x.scw_conv_new(n.w, 0, 0, inp.bytes(k)));
      return new Nip44Conversation(c, n.resU32(0));
    } finally {
      inp.wipe();
      n.done();
    }
  }

  /** NIP-44 with a conversation key and a fixed nonce (the official vectors). */
  nip44EncryptWithKey(ck: Uint8Array, nonce: Uint8Array, plaintext: string | Uint8Array,
    opts?: { extended?: boolean }): string {
    const c = this.#c;
    c.live();
    const k = c.bytes(ck, 'conversation key', 32);
    const no = c.bytes(nonce, 'nonce', 32);
    const text = typeof plaintext === 'string';
    const body = text ? c.text(plaintext, 'plaintext', Caps.plaintext) : c.bytes(plaintext, 'plaintext');
    const n = c.n;
    const inp = c.in.begin(80 + (text ? textBound(body as string) : (body as Uint8Array).length));
    try {
      const kp = inp.bytes(k);
      const np = inp.bytes(no);
      const [p, l] = text ? inp.text(body as string) : [inp.bytes(body as Uint8Array), (body as Uint8Array).length];
      n.check(n.x.scw_nip44_encrypt_key(n.w, kp, np, p, l, opts?.extended ? 1 : 0));
      return n.outText();
    } finally {
      inp.wipe();
      n.done();
    }
  }

  /** NIP-40: the event's expiration (unix seconds), or undefined without one. */
  expiration(event: string | object): number | undefined {
    const e = this.nip40(event, -1);
    return e === 0 ? undefined : e;
  }

  /** NIP-40: whether the event has expired at now (default: the clock). */
  isExpired(event: string | object, now?: number): boolean {
    const c = this.#c;
    const t = now !== undefined ? c.time(now, 'now') : c.now();
    try {
      this.nip40(event, t);
      return false;
    } catch (e) {
      if ((e as { statusName?: string }).statusName === 'SC_ERR_EXPIRED') {
        return true;
      }
      throw e;
    }
  }

  private nip40(event: string | object, now: number): number {
    const c = this.#c;
    c.live();
    const s = typeof event === 'string' ? c.text(event, 'event', Caps.json) : c.json(event, 'event');
    const n = c.n;
    const inp = c.in.begin(textBound(s));
    try {
      const [p, l] = inp.text(s);
      const st = n.x.scw_nip40(n.w, p, l, now);
      const exp = n.resF64(0);
      n.check(st);
      return exp;
    } finally {
      n.done();
    }
  }

  /** A Negentropy (NIP-77) reconciliation over the caller's records (copied and sorted). */
  negentropy(items: NegentropyItem[], opts?: { frameLimit?: number }): Negentropy {
    this.#c.live();
    return new Negentropy(this.#c, items, opts?.frameLimit ?? 0);
  }

  /** A session with one relay over the platform's WebSocket (see RelaySession). */
  relay(url: string, opts?: RelaySessionOptions): RelaySession {
    this.#c.live();
    return new RelaySession(this.#c, url, opts);
  }

  /** A pool of relays over the platform's WebSockets (see RelayPool). */
  pool(opts?: RelayPoolOptions): RelayPool {
    this.#c.live();
    return new RelayPool(this.#c, opts);
  }

  /** Wipes and frees every native object of this instance still alive (identities,
   *  conversations, streams, reconciliations, sessions, pools: they fail with SC_ERR_STATE
   *  from then on), then the library state. The wasm memory goes when the instance is
   *  collected. */
  dispose(): void {
    this.#c.close();
  }

  [Symbol.dispose](): void {
    this.dispose();
  }
}

export { toHex, fromHex, Status };
