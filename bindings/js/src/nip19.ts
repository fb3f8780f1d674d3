// NIP-19 bech32 entities. An nsec is a secret: it crosses as ASCII bytes the caller wipes,
// never as a string.
import { Core, toHex } from './core.js';
import { Status } from './errors.js';
import type { Identity } from './identity.js';
import type { Key } from './types.js';
import { textBound } from './native.js';

const TYPES = ['', 'npub', 'nsec', 'note', 'nprofile', 'nevent', 'naddr'] as const;
const decoder = new TextDecoder();
const encoder = new TextEncoder();

/** A decoded entity (what the type carries; hex for keys and ids). */
export type Nip19Entity =
  | { type: 'npub'; pubkey: string }
  | { type: 'note'; id: string }
  | { type: 'nprofile'; pubkey: string; relays: string[] }
  | { type: 'nevent'; id: string; relays: string[]; author?: string; kind?: number }
  | { type: 'naddr'; identifier: string; pubkey: string; kind: number; relays: string[] };

export class Nip19 {
  #c: Core;

  /** @internal */
  constructor(c: Core) {
    this.#c = c;
  }

  private encode(type: number, key: Uint8Array | null, author: Uint8Array | null, kind: number,
    identifier: string, relays: string[] | undefined): string {
    return decoder.decode(this.encodeRaw(type, key, author, kind, identifier, relays));
  }

  /** The bech32 text as ASCII bytes (a copy of the result: never a JS string). */
  private encodeRaw(type: number, key: Uint8Array | null, author: Uint8Array | null, kind: number,
    identifier: string, relays: string[] | undefined): Uint8Array {
    const c = this.#c;
    c.live();
    if (relays !== undefined && !Array.isArray(relays)) {
      throw c.fail(Status.ARG, 'relays must be an array');
    }
    const rs = (relays ?? []).map((r) => encoder.encode(c.text(r, 'relay', 255)));
    const blob = new Uint8Array(4 + rs.reduce((a, r) => a + 4 + r.length, 0));
    const dv = new DataView(blob.buffer);
    dv.setUint32(0, rs.length, true);
    let off = 4;
    for (const r of rs) {
      dv.setUint32(off, r.length, true);
      blob.set(r, off + 4);
      off += 4 + r.length;
    }
    const id = c.text(identifier, 'identifier', 255);
    const n = c.n;
    const inp = c.in.begin(96 + blob.length + id.length * 3 + 8);
    try {
      const kp = key ? inp.bytes(key) : 0;
      const ap = author ? inp.bytes(author) : 0;
      const bp = inp.bytes(blob);
      const [ip, il] = inp.text(id);
      n.check(n.x.scw_nip19_encode(n.w, type, kp, ap, kind, ip, il, bp, blob.length));
      return n.out().slice();
    } finally {
      inp.wipe();
      n.done();
    }
  }

  npub(pubkey: Key): string {
    return this.encode(1, this.#c.key(pubkey, 'pubkey'), null, -1, '', undefined);
  }

  note(id: Key): string {
    return this.encode(3, this.#c.key(id, 'id'), null, -1, '', undefined);
  }

  nprofile(p: { pubkey: Key; relays?: string[] }): string {
    return this.encode(4, this.#c.key(p.pubkey, 'pubkey'), null, -1, '', p.relays);
  }

  nevent(e: { id: Key; relays?: string[]; author?: Key; kind?: number }): string {
    const c = this.#c;
    return this.encode(5, c.key(e.id, 'id'), e.author !== undefined ? c.key(e.author, 'author') : null,
      e.kind !== undefined ? c.time(e.kind, 'kind') : -1, '', e.relays);
  }

  naddr(a: { identifier: string; pubkey: Key; kind: number; relays?: string[] }): string {
    const c = this.#c;
    return this.encode(6, null, c.key(a.pubkey, 'pubkey'), c.time(a.kind, 'kind'), a.identifier, a.relays);
  }

  /** The nsec of an identity as ASCII bytes (the caller wipes them). */
  nsec(identity: Identity): Uint8Array {
    const sec = identity.exportSecret();
    try {
      return this.encodeRaw(2, sec, null, -1, '', undefined);
    } finally {
      sec.fill(0);
    }
  }

  private decodeRaw<T>(s: string | Uint8Array, read: (type: number) => T): T {
    const c = this.#c;
    c.live();
    const v = typeof s === 'string' ? c.text(s, 'entity', 5000) : c.bytes(s, 'entity', undefined, 5000);
    const n = c.n;
    const inp = c.in.begin(typeof v === 'string' ? textBound(v) : v.length + 8);
    try {
      const [p, l] = typeof v === 'string' ? inp.text(v) : [inp.bytes(v), v.length];
      n.check(n.x.scw_nip19_decode(n.w, p, l));
      return read(n.resU32(0));
    } finally {
      inp.wipe();
      n.done();
    }
  }

  /** Decodes an npub, note, nprofile, nevent or naddr (an nsec: decodeSecret). */
  decode(s: string | Uint8Array): Nip19Entity {
    const n = this.#c.n;
    return this.decodeRaw(s, (type) => {
      const key = toHex(n.res(4, 32));
      const out = n.out();
      const dv = new DataView(out.buffer, out.byteOffset, out.byteLength);
      const il = dv.getUint32(0, true);
      const identifier = decoder.decode(out.subarray(4, 4 + il));
      const relays: string[] = [];
      let off = 4 + il;
      const nr = dv.getUint32(off, true);
      off += 4;
      for (let i = 0; i < nr; i++) {
        const l = dv.getUint32(off, true);
        relays.push(decoder.decode(out.subarray(off + 4, off + 4 + l)));
        off += 4 + l;
      }
      const author = n.resU32(68) ? toHex(n.res(36, 32)) : undefined;
      const kind = n.resU32(76) ? n.resU32(72) : undefined;
      switch (TYPES[type]) {
        case 'npub': return { type: 'npub', pubkey: key };
        case 'note': return { type: 'note', id: key };
        case 'nprofile': return { type: 'nprofile', pubkey: key, relays };
        case 'nevent': return { type: 'nevent', id: key, relays, ...(author ? { author } : {}), ...(kind !== undefined ? { kind } : {}) };
        case 'naddr': return { type: 'naddr', identifier, pubkey: author!, kind: kind!, relays };
        default: throw this.#c.fail(Status.ARG, 'an nsec: use decodeSecret');
      }
    });
  }

  /** The 32-byte secret key of an nsec (the caller wipes it). */
  decodeSecret(nsec: string | Uint8Array): Uint8Array {
    const n = this.#c.n;
    return this.decodeRaw(nsec, (type) => {
      if (type !== 2) {
        throw this.#c.fail(Status.ARG, 'not an nsec');
      }
      return n.res(4, 32);
    });
  }
}
