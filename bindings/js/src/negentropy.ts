// Negentropy (NIP-77) set reconciliation: messages as bytes (hex them for NEG-OPEN /
// NEG-MSG), what each side lacks as hex ids.
import { Core, fromHex, toHex } from './core.js';
import { Status } from './errors.js';

/** A record: the event's created_at and its id. */
export interface NegentropyItem {
  createdAt: number;
  id: Uint8Array | string;
}

export interface ReconcileResult {
  /** the next message to send, or null when the reconciliation is complete */
  reply: Uint8Array | null;
  /** ids only this side has */
  have: string[];
  /** ids only the peer has */
  need: string[];
}

export class Negentropy {
  #c: Core;
  #h: number;

  /** @internal */
  constructor(c: Core, items: NegentropyItem[], frameLimit: number) {
    this.#c = c;
    if (!Array.isArray(items)) {
      throw c.fail(Status.ARG, 'items must be an array');
    }
    const recs = new Uint8Array(40 * items.length);
    const dv = new DataView(recs.buffer);
    items.forEach((it, i) => {
      const t = c.time(it?.createdAt, 'createdAt');
      dv.setUint32(40 * i, t % 0x100000000, true);
      dv.setUint32(40 * i + 4, Math.floor(t / 0x100000000), true);
      recs.set(c.key(it.id, 'id'), 40 * i + 8);
    });
    const n = c.n;
    const inp = c.in.begin(recs.length + 8);
    try {
      n.check(n.x.scw_neg_new(n.w, inp.bytes(recs), items.length, c.time(frameLimit, 'frameLimit')));
      this.#h = n.resU32(0);
    } finally {
      n.done();
    }
    c.track(this, this.#h, (h) => c.n.x.scw_neg_free(h));
  }

  private handle(): number {
    if (this.#h === 0) {
      throw this.#c.fail(Status.STATE, 'the reconciliation was disposed');
    }
    this.#c.live();
    return this.#h;
  }

  /** The first message (NEG-OPEN); this side is then the initiator. */
  initiate(): Uint8Array {
    const h = this.handle();
    const n = this.#c.n;
    try {
      n.check(n.x.scw_neg_initiate(n.w, h));
      return n.out().slice();
    } finally {
      n.done();
    }
  }

  /** Processes the peer's message (bytes or hex). A responder always has a reply. */
  reconcile(msg: Uint8Array | string): ReconcileResult {
    const c = this.#c;
    const m = typeof msg === 'string' ? fromHex(msg) : c.bytes(msg, 'message');
    if (m === null) {
      throw c.fail(-20, 'message must be hex'); // SC_ERR_ENCODING
    }
    const h = this.handle();
    const n = c.n;
    const inp = c.in.begin(m.length + 8);
    try {
      n.check(n.x.scw_neg_reconcile(n.w, h, inp.bytes(m), m.length));
      const out = n.out();
      const dv = new DataView(out.buffer, out.byteOffset, out.byteLength);
      const rl = dv.getUint32(0, true);
      const reply = rl > 0 ? out.slice(4, 4 + rl) : null;
      let off = 4 + rl;
      const ids = (): string[] => {
        const k = dv.getUint32(off, true);
        const r: string[] = [];
        for (let i = 0; i < k; i++) {
          r.push(toHex(out.subarray(off + 4 + 32 * i, off + 36 + 32 * i)));
        }
        off += 4 + 32 * k;
        return r;
      };
      const have = ids();
      const need = ids();
      return { reply, have, need };
    } finally {
      n.done();
    }
  }

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
