// Attachments (AES-256-GCM, NIP-17 kind 15) as WHATWG streams. Decryption releases nothing
// before the tag verified: the plaintext waits in wasm memory (up to maxBytes) and the
// readable side gets it only after the last chunk authenticated; a blob that fails gives an
// errored stream (SC_ERR_AUTH) and no byte.
import { Core, toHex } from './core.js';
import { Status } from './errors.js';

const CHUNK = 64 * 1024;

/** The result of an encryption: the fresh key and IV (for the kind 15 message; wipe them
 *  when sent), x = sha256(blob), ox = sha256(plaintext), and the blob's size. */
export interface EncryptedAttachment {
  key: Uint8Array;
  iv: Uint8Array;
  x: string;
  ox: string;
  size: number;
}

export interface DecryptedAttachment {
  x: string;
  ox: string;
}

/** A TransformStream plus the promise of what the stream learned when it finished. */
export type AttachmentStream<T> = TransformStream<Uint8Array, Uint8Array> & { result: Promise<T> };

export class Attachments {
  #c: Core;

  /** @internal */
  constructor(c: Core) {
    this.#c = c;
  }

  private feed(chunk: unknown, each: (p: number, l: number) => void): void {
    const c = this.#c;
    const b = c.bytes(chunk, 'chunk', undefined, Number.MAX_SAFE_INTEGER);
    for (let off = 0; off < b.length; off += CHUNK) {
      const part = b.subarray(off, Math.min(off + CHUNK, b.length));
      const inp = c.in.begin(part.length + 8);
      try {
        each(inp.bytes(part), part.length);
      } finally {
        inp.wipe();
      }
    }
  }

  /** Encrypts a stream under a fresh key and IV: the readable side is the blob
   *  (ciphertext, then the tag). */
  encryptStream(): AttachmentStream<EncryptedAttachment> {
    const c = this.#c;
    c.live();
    const n = c.n;
    let h = 0;
    let key: Uint8Array;
    let iv: Uint8Array;
    try {
      n.check(n.x.scw_fenc_new(n.w));
      h = n.resU32(0);
      key = n.res(4, 32);
      iv = n.res(36, 16);
    } finally {
      n.done();
    }
    c.track(key, h, (x) => n.x.scw_fenc_free(x));
    const free = () => {
      if (h !== 0) {
        c.untrack(key, h);
        h = 0;
      }
    };
    let settle!: (v: EncryptedAttachment) => void;
    let fail!: (e: unknown) => void;
    const result = new Promise<EncryptedAttachment>((res, rej) => { settle = res; fail = rej; });
    result.catch(() => undefined);
    const ts = new TransformStream<Uint8Array, Uint8Array>({
      transform: (chunk, ctl) => {
        try {
          this.feed(chunk, (p, l) => {
            try {
              n.check(n.x.scw_fenc_update(n.w, h, p, l));
              if (n.out().length > 0) {
                ctl.enqueue(n.out().slice());
              }
            } finally {
              n.done();
            }
          });
        } catch (e) {
          free();
          fail(e);
          throw e;
        }
      },
      flush: (ctl) => {
        try {
          n.check(n.x.scw_fenc_final(n.w, h));
          ctl.enqueue(n.out().slice());
          settle({ key, iv, x: toHex(n.res(0, 32)), ox: toHex(n.res(32, 32)), size: n.resF64(64) });
        } catch (e) {
          fail(e);
          throw e;
        } finally {
          n.done();
          free();
        }
      },
    });
    return Object.assign(ts, { result });
  }

  /** Decrypts a blob stream under key and iv (12, 16, or the 32-byte legacy IV), holding at
   *  most maxBytes of plaintext (default 64 MiB): the readable side gets the plaintext only
   *  after the tag verified. key is copied into wasm memory (the caller wipes its array). */
  decryptStream(key: Uint8Array, iv: Uint8Array, opts?: { maxBytes?: number }): AttachmentStream<DecryptedAttachment> {
    const c = this.#c;
    c.live();
    const k = c.bytes(key, 'key', 32);
    const v = c.bytes(iv, 'iv', undefined, 32);
    const max = opts?.maxBytes !== undefined ? c.time(opts.maxBytes, 'maxBytes') : 64 * 1024 * 1024;
    const n = c.n;
    let h = 0;
    const inp = c.in.begin(80);
    try {
      n.check(n.x.scw_fdec_new(n.w, inp.bytes(k), inp.bytes(v), v.length, max));
      h = n.resU32(0);
    } finally {
      inp.wipe();
      n.done();
    }
    const owner = {};
    c.track(owner, h, (x) => n.x.scw_fdec_free(x));
    const free = () => {
      if (h !== 0) {
        c.untrack(owner, h);
        h = 0;
      }
    };
    let settle!: (v: DecryptedAttachment) => void;
    let fail!: (e: unknown) => void;
    const result = new Promise<DecryptedAttachment>((res, rej) => { settle = res; fail = rej; });
    result.catch(() => undefined);
    const ts = new TransformStream<Uint8Array, Uint8Array>({
      transform: (chunk) => {
        try {
          if (h === 0) {
            throw c.fail(Status.STATE, 'the decryption ended');
          }
          this.feed(chunk, (p, l) => n.check(n.x.scw_fdec_update(h, p, l)));
        } catch (e) {
          free();
          fail(e);
          throw e;
        }
      },
      flush: (ctl) => {
        try {
          n.check(n.x.scw_fdec_final(n.w, h));
          const p = n.resU32(0);
          const len = n.resU32(4);
          const x = toHex(n.res(8, 32));
          const ox = toHex(n.res(40, 32));
          for (let off = 0; off < len; off += CHUNK) {
            ctl.enqueue(n.mem().slice(p + off, p + Math.min(off + CHUNK, len)));
          }
          settle({ x, ox });
        } catch (e) {
          fail(e);
          throw e;
        } finally {
          n.done();
          free();
        }
      },
    });
    return Object.assign(ts, { result });
  }

  /** Encrypts bytes at once: the blob and the attachment's parameters. */
  async encrypt(data: Uint8Array): Promise<EncryptedAttachment & { blob: Uint8Array }> {
    const s = this.encryptStream();
    const blob = await collect(new Blob([data as BlobPart]).stream().pipeThrough(s));
    return { ...(await s.result), blob };
  }

  /** Decrypts a blob at once: the plaintext (after the tag verified). */
  async decrypt(blob: Uint8Array, key: Uint8Array, iv: Uint8Array, opts?: { maxBytes?: number }): Promise<Uint8Array> {
    const s = this.decryptStream(key, iv, opts);
    return collect(new Blob([blob as BlobPart]).stream().pipeThrough(s));
  }
}

async function collect(rs: ReadableStream<Uint8Array>): Promise<Uint8Array> {
  const parts: Uint8Array[] = [];
  let total = 0;
  const r = rs.getReader();
  for (;;) {
    const { done, value } = await r.read();
    if (done) {
      break;
    }
    parts.push(value);
    total += value.length;
  }
  const out = new Uint8Array(total);
  let off = 0;
  for (const p of parts) {
    out.set(p, off);
    off += p.length;
    p.fill(0);
  }
  return out;
}
