// What every object of one Softchat instance shares: the wasm instance, the input writer,
// the clock, and the FinalizationRegistry that frees native objects nobody disposed.
import { SoftchatError, Status } from './errors.js';
import { Inputs, Native } from './native.js';

type Freer = (h: number) => void;

/** The inputs' caps, checked before any wasm memory is taken. */
export const Caps = Object.freeze({
  /** events, gift wraps and relay messages the library parses (the C side's SCW_MAX_INPUT) */
  json: 1024 * 1024,
  /** NIP-44 plaintexts (the extended prefix reaches 2^32 - 1; a browser rarely wants that) */
  plaintext: 16 * 1024 * 1024,
});

const wellFormed = (s: string): boolean =>
  typeof (s as { isWellFormed?: () => boolean }).isWellFormed === 'function'
    ? (s as unknown as { isWellFormed(): boolean }).isWellFormed()
    : !/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/.test(s);

export class Core {
  readonly n: Native;
  readonly in: Inputs;
  private registry: FinalizationRegistry<number>;
  /** every native object not yet freed, by handle: close() wipes and frees them all */
  private objects = new Map<number, Freer>();
  private closed = false;

  constructor(n: Native) {
    this.n = n;
    this.in = new Inputs(n);
    this.registry = new FinalizationRegistry((h) => this.release(h));
  }

  /** Registers a native object: freed when `owner` is collected undisposed, or when the
   *  instance is disposed. */
  track(owner: object, h: number, free: Freer): void {
    this.objects.set(h, free);
    this.registry.register(owner, h, owner);
  }

  /** Frees a tracked object now (its owner's dispose). */
  untrack(owner: object, h: number): void {
    this.registry.unregister(owner);
    this.release(h);
  }

  private release(h: number): void {
    const free = this.objects.get(h);
    if (free !== undefined) {
      this.objects.delete(h);
      if (!this.closed) {
        free(h);
      }
    }
  }

  get disposed(): boolean {
    return this.closed;
  }

  /** Wipes and frees every native object still alive (identities' keys, conversation keys,
   *  streams, sessions, pools), then the instance's own state. */
  close(): void {
    if (!this.closed) {
      for (const [h, free] of this.objects) {
        free(h);
      }
      this.objects.clear();
      this.closed = true;
      this.n.x.scw_free(this.n.w);
    }
  }

  live(): void {
    if (this.closed) {
      throw this.fail(Status.STATE, 'the Softchat instance was disposed');
    }
  }

  fail(status: number, detail?: string): SoftchatError {
    return this.n.error(status, detail);
  }

  /** A string argument: the type, the cap (in UTF-16 units, before encoding) and no lone
   *  surrogate (which TextEncoder would silently replace). */
  text(v: unknown, what: string, max: number): string {
    if (typeof v !== 'string') {
      throw this.fail(Status.ARG, `${what} must be a string`);
    }
    if (v.length > max) {
      throw this.fail(Status.TOO_LARGE, `${what} is over ${max}`);
    }
    if (!wellFormed(v)) {
      throw this.fail(Status.UTF8, `${what} has a lone surrogate`);
    }
    return v;
  }

  bytes(v: unknown, what: string, len?: number, max = Caps.plaintext): Uint8Array {
    if (!(v instanceof Uint8Array)) {
      throw this.fail(Status.ARG, `${what} must be a Uint8Array`);
    }
    if (len !== undefined && v.length !== len) {
      throw this.fail(Status.ARG, `${what} must be ${len} bytes`);
    }
    if (v.length > max) {
      throw this.fail(Status.TOO_LARGE, `${what} is over ${max} bytes`);
    }
    return v;
  }

  /** A 32-byte public key or id: bytes, or 64 hex characters. */
  key(v: unknown, what: string): Uint8Array {
    if (typeof v === 'string') {
      const b = fromHex(v);
      if (b === null || b.length !== 32) {
        throw this.fail(Status.ARG, `${what} must be 32 bytes or 64 hex characters`);
      }
      return b;
    }
    return this.bytes(v, what, 32);
  }

  /** JSON.stringify that fails with the package's error (BigInt, cycles). */
  json(v: unknown, what: string): string {
    let s: string | undefined;
    try {
      s = JSON.stringify(v);
    } catch {
      throw this.fail(Status.ARG, `${what} cannot be written as JSON`);
    }
    if (typeof s !== 'string') {
      throw this.fail(Status.ARG, `${what} must be an object`);
    }
    return this.text(s, what, Caps.json);
  }

  /** The current time, unix seconds. */
  now(): number {
    return Math.floor(Date.now() / 1000);
  }

  time(v: unknown, what: string): number {
    if (typeof v !== 'number' || !Number.isSafeInteger(v) || v < 0) {
      throw this.fail(Status.ARG, `${what} must be a non-negative integer`);
    }
    return v;
  }
}

const HEX = '0123456789abcdef';
const HEXES: string[] = Array.from({ length: 256 }, (_, i) => HEX[i >> 4]! + HEX[i & 15]!);

/** Lowercase hex of b. */
export function toHex(b: Uint8Array): string {
  let s = '';
  for (let i = 0; i < b.length; i++) {
    s += HEXES[b[i]!];
  }
  return s;
}

/** Bytes of a hex string (either case), or null. */
export function fromHex(s: string): Uint8Array | null {
  if (s.length % 2 !== 0 || !/^[0-9a-fA-F]*$/.test(s)) {
    return null;
  }
  const b = new Uint8Array(s.length / 2);
  for (let i = 0; i < b.length; i++) {
    b[i] = parseInt(s.substr(2 * i, 2), 16);
  }
  return b;
}
