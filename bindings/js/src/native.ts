// The boundary: loads softchat.wasm from the package, answers its few imports, and moves
// bytes in and out of its memory. One copy in (TextEncoder.encodeInto or one set()) and one
// copy out (one TextDecoder pass or one slice) per call; scw.h describes the C side.
import { SoftchatError, Status } from './errors.js';

/** The functions softchat.wasm exports (bindings/js/wasm/exports.h). */
export interface Exports {
  memory: WebAssembly.Memory;
  _initialize(): void;
  malloc(n: number): number;
  free(p: number): void;
  scw_new(): number;
  scw_init(w: number): number;
  scw_free(w: number): void;
  scw_in(w: number, n: number): number;
  scw_done(w: number): void;
  scw_version(): number;
  scw_version_secp256k1(): number;
  scw_status_name(code: number): number;
  scw_backend(w: number): number;
  scw_heap_used(): number;
  scw_identity_new(w: number, sec: number): number;
  scw_identity_free(id: number): void;
  scw_identity_secret(w: number, id: number): number;
  scw_schnorr_sign(w: number, id: number, msg: number, aux: number): number;
  scw_schnorr_verify(w: number, sig: number, msg: number, pub: number): number;
  scw_conv_new(w: number, id: number, peer: number, ck: number): number;
  scw_conv_free(c: number): void;
  scw_nip44_encrypt(w: number, c: number, id: number, peer: number, pt: number, len: number,
    flags: number, nonce: number): number;
  scw_nip44_encrypt_key(w: number, ck: number, nonce: number, pt: number, len: number,
    flags: number): number;
  scw_nip44_decrypt(w: number, c: number, id: number, peer: number, payload: number,
    len: number, max: number): number;
  scw_event_sign(w: number, id: number, json: number, len: number, aux: number): number;
  scw_event_verify(w: number, json: number, len: number): number;
  scw_rumor(w: number, author: number, json: number, len: number): number;
  scw_nip40(w: number, json: number, len: number, now: number): number;
  scw_nip59_wrap(w: number, id: number, recipient: number, json: number, len: number,
    flags: number, relay: number, rlen: number, expiration: number, now: number): number;
  scw_nip59_unwrap(w: number, id: number, json: number, len: number, now: number): number;
  scw_nip17_send(w: number, id: number, json: number, len: number, text: number, tlen: number,
    key: number, iv: number, ivLen: number, flags: number, relay: number, rlen: number,
    expiration: number, now: number): number;
  scw_nip17_receive(w: number, id: number, json: number, len: number, now: number): number;
  scw_nip19_encode(w: number, type: number, key: number, author: number, kind: number,
    ident: number, ilen: number, relays: number, rlen: number): number;
  scw_nip19_decode(w: number, s: number, len: number): number;
  scw_fenc_new(w: number): number;
  scw_fenc_update(w: number, f: number, p: number, len: number): number;
  scw_fenc_final(w: number, f: number): number;
  scw_fenc_free(f: number): void;
  scw_fdec_new(w: number, key: number, iv: number, ivLen: number, max: number): number;
  scw_fdec_update(f: number, p: number, len: number): number;
  scw_fdec_final(w: number, f: number): number;
  scw_fdec_free(f: number): void;
  scw_neg_new(w: number, recs: number, n: number, frameLimit: number): number;
  scw_neg_free(g: number): void;
  scw_neg_initiate(w: number, g: number): number;
  scw_neg_reconcile(w: number, g: number, msg: number, len: number): number;
  scw_relay_new(w: number, url: number, len: number, maxSubs: number, maxPending: number,
    resumeSlack: number): number;
  scw_relay_free(r: number): void;
  scw_relay_connected(r: number, nowMs: number): number;
  scw_relay_disconnected(w: number, r: number, nowMs: number): number;
  scw_relay_subscribe(r: number, id: number, len: number, blob: number, blen: number): number;
  scw_relay_unsubscribe(r: number, id: number, len: number): number;
  scw_relay_publish(w: number, r: number, json: number, len: number): number;
  scw_relay_pending(r: number): number;
  scw_relay_next(w: number, r: number): number;
  scw_relay_handle(w: number, r: number, json: number, len: number): number;
  scw_relay_auth(w: number, r: number, id: number, now: number): number;
  scw_pool_new(w: number, opts: number): number;
  scw_pool_free(g: number): void;
  scw_pool_relay_add(w: number, g: number, url: number, len: number): number;
  scw_pool_relay_remove(g: number, relay: number): number;
  scw_pool_connected(g: number, relay: number, nowMs: number): number;
  scw_pool_disconnected(g: number, relay: number, nowMs: number): number;
  scw_pool_next(w: number, g: number, relay: number): number;
  scw_pool_receive(w: number, g: number, relay: number, text: number, len: number, nowMs: number): number;
  scw_pool_poll(w: number, g: number, nowMs: number): number;
  scw_pool_wakeup(g: number): number;
  scw_pool_auth_identity(g: number, id: number): number;
  scw_pool_publish(w: number, g: number, json: number, len: number, relays: number, n: number): number;
  scw_pool_subscribe(w: number, g: number, id: number, len: number, blob: number, blen: number,
    relays: number, n: number, opts: number, saved: number, slen: number): number;
  scw_pool_unsubscribe(g: number, sub: number): number;
  scw_pool_cursor_save(w: number, g: number, sub: number): number;
}

/** Where the module comes from: by default the package's own softchat.wasm. */
export type WasmSource = BufferSource | WebAssembly.Module | URL | string | Response;

const KEEP = 256 * 1024; // SCW_KEEP_BYTES
const encoder = new TextEncoder();
const decoder = new TextDecoder();
const cryptoApi: Crypto | undefined = (globalThis as { crypto?: Crypto }).crypto;

async function wasmModule(src?: WasmSource): Promise<WebAssembly.Module> {
  if (src instanceof WebAssembly.Module) {
    return src;
  }
  if (src === undefined || src instanceof URL || typeof src === 'string') {
    const url = src === undefined ? new URL('./softchat.wasm', import.meta.url) : new URL(src);
    if (url.protocol === 'file:') {
      // Node (and Deno) read the file the package ships; no network, no fetch of a file URL
      const fsName = 'node:fs/promises';
      const fs = (await import(/* @vite-ignore */ /* webpackIgnore: true */ fsName)) as {
        readFile(u: URL): Promise<Uint8Array<ArrayBuffer>>;
      };
      return WebAssembly.compile(await fs.readFile(url));
    }
    src = await fetch(url);
  }
  if (typeof Response !== 'undefined' && src instanceof Response) {
    if (!src.ok) {
      throw new SoftchatError(Status.IO, 'SC_ERR_IO', `softchat.wasm: HTTP ${src.status}`);
    }
    const type = src.headers.get('content-type') ?? '';
    if (type.startsWith('application/wasm') && WebAssembly.compileStreaming) {
      return WebAssembly.compileStreaming(src);
    }
    return WebAssembly.compile(await src.arrayBuffer());
  }
  return WebAssembly.compile(src as BufferSource);
}

/** One instance of softchat.wasm, its state (scw) and the helpers that cross into it. */
export class Native {
  readonly x: Exports;
  readonly w: number;
  private u8: Uint8Array;
  private dv: DataView;
  private names = new Map<number, string>();

  private constructor(x: Exports) {
    this.x = x;
    this.u8 = new Uint8Array(x.memory.buffer);
    this.dv = new DataView(x.memory.buffer);
    const w = x.scw_new();
    if (w === 0) {
      throw new SoftchatError(Status.NOMEM, 'SC_ERR_NOMEM');
    }
    const st = x.scw_init(w);
    if (st !== 0) {
      x.scw_free(w);
      throw this.error(st);
    }
    this.w = w;
  }

  static async load(src?: WasmSource): Promise<Native> {
    const mod = await wasmModule(src);
    let native: Native | undefined;
    let memory: WebAssembly.Memory | undefined;
    const view = () => new Uint8Array(memory!.buffer);
    const imports = {
      env: {
        getentropy(p: number, n: number): number {
          if (!cryptoApi || n > 256) {
            return -1;
          }
          cryptoApi.getRandomValues(view().subarray(p, p + n));
          return 0;
        },
        emscripten_notify_memory_growth(): void {
          native?.refresh();
        },
      },
      wasi_snapshot_preview1: {
        clock_time_get(_id: number, _precision: bigint, out: number): number {
          // only time(NULL) in nip59_wrap.c when now is 0, which the package never passes
          new DataView(memory!.buffer).setBigUint64(out, BigInt(Date.now()) * 1000000n, true);
          return 0;
        },
        fd_write(): number {
          return 8; // EBADF: the library never prints
        },
        fd_close(): number {
          return 8;
        },
        fd_seek(): number {
          return 8;
        },
        proc_exit(code: number): never {
          throw new SoftchatError(-84, 'SC_ERR_INTERNAL', `softchat.wasm exited (${code})`);
        },
      },
    };
    const instance = await WebAssembly.instantiate(mod, imports);
    const x = instance.exports as unknown as Exports;
    memory = x.memory;
    x._initialize();
    native = new Native(x);
    return native;
  }

  refresh(): void {
    this.u8 = new Uint8Array(this.x.memory.buffer);
    this.dv = new DataView(this.x.memory.buffer);
  }

  /** The bytes of wasm memory (views are renewed after the memory grew). */
  mem(): Uint8Array {
    if (this.u8.byteLength === 0 || this.u8.buffer !== this.x.memory.buffer) {
      this.refresh();
    }
    return this.u8;
  }

  data(): DataView {
    this.mem();
    return this.dv;
  }

  /** The size of wasm memory in bytes (it only grows). */
  heapBytes(): number {
    return this.x.memory.buffer.byteLength;
  }

  statusName(code: number): string {
    let n = this.names.get(code);
    if (n === undefined) {
      n = this.cstr(this.x.scw_status_name(code));
      this.names.set(code, n);
    }
    return n;
  }

  error(status: number, detail?: string): SoftchatError {
    return new SoftchatError(status, this.statusName(status), detail);
  }

  cstr(p: number): string {
    const m = this.mem();
    let e = p;
    while (m[e] !== 0) {
      e++;
    }
    return decoder.decode(m.subarray(p, e));
  }

  /** The input buffer, at least n bytes: its address. */
  input(n: number): number {
    const d = this.data();
    if (n > d.getUint32(this.w + 12, true)) {
      if (this.x.scw_in(this.w, n) === 0) {
        throw this.error(Status.NOMEM);
      }
      return this.data().getUint32(this.w + 8, true);
    }
    return d.getUint32(this.w + 8, true);
  }

  /** Ends a call: scw_done wipes the scratch, output and res bytes it used. */
  done(): void {
    this.x.scw_done(this.w);
  }

  check(st: number): void {
    if (st !== 0) {
      throw this.error(st);
    }
  }

  /** The result of the call: a view (valid until the next call). */
  out(): Uint8Array {
    const d = this.data();
    const p = d.getUint32(this.w, true);
    return this.u8.subarray(p, p + d.getUint32(this.w + 4, true));
  }

  outText(): string {
    return decoder.decode(this.out());
  }

  /** res[off..off + n) copied out. */
  res(off: number, n: number): Uint8Array {
    const p = this.w + 16 + off;
    return this.mem().slice(p, p + n);
  }

  resU32(off: number): number {
    return this.data().getUint32(this.w + 16 + off, true);
  }

  resF64(off: number): number {
    return this.data().getFloat64(this.w + 16 + off, true);
  }

  /** Zeroes wasm memory (an input that held a secret). */
  wipe(p: number, n: number): void {
    this.mem().fill(0, p, p + n);
  }
}

/** Lays out one call's inputs in the input buffer: reserve the total first, then write. */
export class Inputs {
  private n: Native;
  private base = 0;
  private off = 0;
  private cap = 0;

  constructor(n: Native) {
    this.n = n;
  }

  begin(total: number): this {
    this.base = this.n.input(total);
    this.off = 0;
    this.cap = total;
    return this;
  }

  bytes(b: Uint8Array): number {
    const p = this.base + this.off;
    this.n.mem().set(b, p);
    this.off += (b.length + 7) & ~7;
    return p;
  }

  /** UTF-8 of s (reserve 3 bytes per UTF-16 unit): [address, length]. */
  text(s: string): [number, number] {
    const p = this.base + this.off;
    const r = encoder.encodeInto(s, this.n.mem().subarray(p, this.base + this.cap));
    this.off += (r.written! + 7) & ~7;
    return [p, r.written!];
  }

  /** Zeroes what was written (inputs that held secrets or private text). */
  wipe(): void {
    this.n.wipe(this.base, this.off);
    if (this.cap > KEEP) {
      this.off = 0;
    }
  }
}

/** Bytes the UTF-8 of s may take. */
export function textBound(s: string): number {
  return s.length * 3 + 8;
}
