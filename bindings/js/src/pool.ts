// The relay pool over the platform's WebSockets: one socket per relay, opened when the pool
// asks (SC_POOL_U_CONNECT) and closed when it says so. The pool (api/softchat/pool.h) keeps
// all the protocol state: routing, retries with backoff, per-relay results, deduplication
// across relays, EOSE across relays with a deadline, resume points and the cursor, AUTH by
// policy, tolerance of relays that deviate; this class moves frames and runs its timer.
import { Caps, Core } from './core.js';
import { Status } from './errors.js';
import type { Identity } from './identity.js';
import { textBound } from './native.js';
import type { Filter } from './relay.js';
import type { NostrEvent } from './types.js';

/** How a publish ended on one relay. */
export interface PoolPublishResult {
  relay: string;
  result: 'accepted' | 'refused' | 'failed';
  /** the relay's words, or the pool's ("no OK within 10000 ms") */
  reason: string;
  attempts: number;
}

export interface PoolSubscriptionHandlers {
  /** an event delivered for the first time (across all the subscription's relays) */
  onEvent(event: NostrEvent, relay: string): void;
  /** every relay sent EOSE, is down, or timed out */
  onEose?(): void;
  /** a relay ended the subscription there (it goes on elsewhere) */
  onClosed?(relay: string, reason: string): void;
}

export interface PoolSubscribeOptions {
  /** seconds a resume point goes back (gift wraps: 172800) */
  resumeSlack?: number;
  /** a connected relay without EOSE after this long counts as done [10000] */
  eoseTimeoutMs?: number;
  /** close after EOSE (a fetch) */
  once?: boolean;
  /** keep a cursor of this many delivered ids (0: none); see RelayPool.cursor */
  cursorIds?: number;
  /** resume from a cursor saved before (RelayPool.cursor's bytes) */
  cursor?: Uint8Array;
}

export interface RelayPoolOptions {
  maxRelays?: number;
  maxSubscriptions?: number;
  maxPublishes?: number;
  okTimeoutMs?: number;
  maxAttempts?: number;
  retryMinMs?: number;
  retryMaxMs?: number;
  backoffMinMs?: number;
  backoffMaxMs?: number;
  /** NIP-42: answer challenges once something was refused (default), at once, or never */
  auth?: 'on-demand' | 'always' | 'never';
  /** the identity AUTH answers sign with (kept alive by the pool while set) */
  identity?: Identity;
  WebSocket?: new (url: string) => PoolSocket;
  onNotice?(relay: string, message: string): void;
  /** messages a relay sent that could not be used (malformed, forged, unmatched) */
  onDropped?(relay: string, count: number, statusName: string): void;
  onAuth?(relay: string, result: 'challenge' | 'authenticated' | 'refused', text: string): void;
}

interface PoolSocket {
  readyState: number;
  send(data: string): void;
  close(): void;
  onopen: ((ev: unknown) => void) | null;
  onclose: ((ev: unknown) => void) | null;
  onerror: ((ev: unknown) => void) | null;
  onmessage: ((ev: { data: unknown }) => void) | null;
}

const K = { NONE: 0, CONNECT: 1, DISCONNECT: 2, EVENT: 3, EOSE: 4, CLOSED: 5, PUBLISHED: 6, DONE: 7, AUTH: 8, AUTHED: 9, AUTH_REFUSED: 10, NOTICE: 11, DROPPED: 12 };
const RESULTS = ['pending', 'accepted', 'refused', 'failed'] as const;
const AUTH = { 'on-demand': 0, always: 1, never: 2 } as const;
const decoder = new TextDecoder();
const encoder = new TextEncoder();

export class RelayPool {
  #c: Core;
  #h: number;
  #o: RelayPoolOptions;
  #relays = new Map<string, number>();
  #sockets = new Map<number, PoolSocket>();
  #subs = new Map<number, { handlers: PoolSubscriptionHandlers; once: boolean }>();
  #pubs = new Map<number, { results: PoolPublishResult[]; done: (r: PoolPublishResult[]) => void }>();
  #timer: ReturnType<typeof setTimeout> | null = null;
  #pumping = false;

  /** @internal */
  constructor(c: Core, o: RelayPoolOptions = {}) {
    this.#c = c;
    this.#o = o;
    const v = [o.maxRelays, o.maxSubscriptions, o.maxPublishes, 0, 0, o.okTimeoutMs, o.maxAttempts,
      o.retryMinMs, o.retryMaxMs, AUTH[o.auth ?? 'on-demand'], o.backoffMinMs, o.backoffMaxMs]
      .map((x, i) => (x === undefined ? 0 : c.time(x, `option ${i}`)));
    if (AUTH[o.auth ?? 'on-demand'] === undefined) {
      throw c.fail(-7, 'auth must be on-demand, always or never'); // SC_ERR_FLAGS
    }
    const opts = new Uint8Array(new Uint32Array(v).buffer);
    const n = c.n;
    const inp = c.in.begin(opts.length);
    try {
      n.check(n.x.scw_pool_new(n.w, inp.bytes(opts)));
      this.#h = n.resU32(0);
    } finally {
      n.done();
    }
    c.track(this, this.#h, (h) => c.n.x.scw_pool_free(h));
    if (o.identity) {
      n.check(n.x.scw_pool_auth_identity(this.#h, o.identity.handle()));
    }
  }

  private handle(): number {
    if (this.#h === 0) {
      throw this.#c.fail(Status.STATE, 'the pool was disposed');
    }
    this.#c.live();
    return this.#h;
  }

  /** Adds a relay (normalised; adding it again finds it). It connects only while it has
   *  something to do. Returns the normalised URL. */
  addRelay(url: string): string {
    const c = this.#c;
    const u = c.text(url, 'url', 4096);
    const h = this.handle();
    const n = c.n;
    const inp = c.in.begin(textBound(u));
    const [p, l] = inp.text(u);
    n.check(n.x.scw_pool_relay_add(n.w, h, p, l));
    const r = n.resU32(0);
    const norm = [...this.#relays].find(([, v]) => v === r)?.[0];
    if (norm !== undefined) {
      return norm;
    }
    this.#relays.set(u, r);
    return u;
  }

  removeRelay(url: string): void {
    const r = this.relay(url);
    this.#c.n.check(this.#c.n.x.scw_pool_relay_remove(this.handle(), r));
    this.pump();
  }

  private relay(url: string): number {
    const r = this.#relays.get(url) ?? this.#relays.get(this.addRelay(url));
    if (r === undefined) {
      throw this.#c.fail(-5, `unknown relay ${url}`); // SC_ERR_NOT_FOUND
    }
    return r;
  }

  private urlOf(relay: number): string {
    for (const [u, r] of this.#relays) {
      if (r === relay) {
        return u;
      }
    }
    return '';
  }

  private relayList(urls: unknown): Uint8Array {
    if (!Array.isArray(urls) || urls.length === 0) {
      throw this.#c.fail(Status.ARG, 'relays must be a non-empty array of URLs');
    }
    return new Uint8Array(new Uint32Array(urls.map((u) => this.relay(u as string))).buffer);
  }

  /** Publishes a signed event to relays; resolves when it ended on every one of them. */
  publish(event: NostrEvent | string, relays: string[]): Promise<PoolPublishResult[]> {
    const c = this.#c;
    const json = typeof event === 'string' ? c.text(event, 'event', Caps.json) : c.json(event, 'event');
    const rl = this.relayList(relays);
    const h = this.handle();
    const n = c.n;
    const inp = c.in.begin(textBound(json) + rl.length + 8);
    let pub: number;
    try {
      const [p, l] = inp.text(json);
      n.check(n.x.scw_pool_publish(n.w, h, p, l, inp.bytes(rl), rl.length / 4));
      pub = n.resU32(0);
    } finally {
      n.done();
    }
    const done = new Promise<PoolPublishResult[]>((resolve) => this.#pubs.set(pub, { results: [], done: resolve }));
    this.pump();
    return done;
  }

  /** Opens (or replaces) a subscription on relays. Returns its handle for unsubscribe and
   *  cursor. */
  subscribe(id: string, filters: Filter[], relays: string[], handlers: PoolSubscriptionHandlers,
    opts: PoolSubscribeOptions = {}): number {
    const c = this.#c;
    const sid = c.text(id, 'subscription id', 64);
    if (!Array.isArray(filters)) {
      throw c.fail(Status.ARG, 'filters must be an array');
    }
    const parts = filters.map((f) => encoder.encode(c.json(f, 'filter')));
    const blob = new Uint8Array(4 + parts.reduce((a, p) => a + 4 + p.length, 0));
    const dv = new DataView(blob.buffer);
    dv.setUint32(0, parts.length, true);
    let off = 4;
    for (const p of parts) {
      dv.setUint32(off, p.length, true);
      blob.set(p, off + 4);
      off += 4 + p.length;
    }
    const rl = this.relayList(relays);
    const saved = opts.cursor !== undefined ? c.bytes(opts.cursor, 'cursor') : new Uint8Array(0);
    const o = new Uint8Array(new Uint32Array([c.time(opts.resumeSlack ?? 0, 'resumeSlack'),
      c.time(opts.eoseTimeoutMs ?? 0, 'eoseTimeoutMs'), opts.once ? 1 : 0,
      c.time(opts.cursorIds ?? (opts.cursor ? 4096 : 0), 'cursorIds')]).buffer);
    const h = this.handle();
    const n = c.n;
    const inp = c.in.begin(textBound(sid) + blob.length + rl.length + o.length + saved.length + 40);
    let sub: number;
    try {
      const [p, l] = inp.text(sid);
      n.check(n.x.scw_pool_subscribe(n.w, h, p, l, inp.bytes(blob), blob.length, inp.bytes(rl),
        rl.length / 4, inp.bytes(o), inp.bytes(saved), saved.length));
      sub = n.resU32(0);
    } finally {
      n.done();
    }
    this.#subs.set(sub, { handlers, once: opts.once === true });
    this.pump();
    return sub;
  }

  unsubscribe(sub: number): void {
    this.#c.n.check(this.#c.n.x.scw_pool_unsubscribe(this.handle(), sub));
    this.#subs.delete(sub);
    this.pump();
  }

  /** The subscription's cursor as bytes (save them with what was done with its events). */
  cursor(sub: number): Uint8Array {
    const n = this.#c.n;
    try {
      n.check(n.x.scw_pool_cursor_save(n.w, this.handle(), sub));
      return n.out().slice();
    } finally {
      n.done();
    }
  }

  /** Reports every update due, then sends what every connected relay has queued, then sets
   *  the timer to the pool's next wakeup. */
  private pump(): void {
    if (this.#pumping || this.#h === 0) {
      return;
    }
    this.#pumping = true;
    try {
      while (this.#h !== 0 && this.pollOne()) {
        // one update per round
      }
      for (const [r, ws] of this.#sockets) {
        if (ws.readyState === 1) {
          this.flush(r, ws);
        }
      }
      this.schedule();
    } finally {
      this.#pumping = false;
    }
  }

  private flush(relay: number, ws: PoolSocket): void {
    const n = this.#c.n;
    for (;;) {
      let msg: string;
      try {
        n.check(n.x.scw_pool_next(n.w, this.#h, relay));
        msg = n.outText();
      } finally {
        n.done();
      }
      if (msg.length === 0) {
        return;
      }
      ws.send(msg);
    }
  }

  private schedule(): void {
    if (this.#timer !== null) {
      clearTimeout(this.#timer);
      this.#timer = null;
    }
    if (this.#h === 0) {
      return;
    }
    const at = this.#c.n.x.scw_pool_wakeup(this.#h);
    if (at >= 0) {
      this.#timer = setTimeout(() => {
        this.#timer = null;
        this.pump();
      }, Math.min(Math.max(0, at - Date.now()), 0x7fffffff));
    }
  }

  /** One update: false when there is none. */
  private pollOne(): boolean {
    const n = this.#c.n;
    let u: { kind: number; relay: number; sub: number; pub: number; result: number; attempts: number; status: number; count: number; url: string; subId: string; text: string; json: string };
    try {
      n.check(n.x.scw_pool_poll(n.w, this.#h, Date.now()));
      const out = n.out();
      const lens = [68, 72, 76, 80].map((o) => n.resU32(o));
      const str: string[] = [];
      let off = 0;
      for (const l of lens) {
        str.push(decoder.decode(out.subarray(off, off + l)));
        off += l;
      }
      u = { kind: n.resU32(0), relay: n.resU32(4), sub: n.resU32(8), pub: n.resU32(12), result: n.resU32(16),
        attempts: n.resU32(20), status: n.resU32(28) | 0, count: n.resU32(32), url: str[0]!, subId: str[1]!,
        text: str[2]!, json: str[3]! };
    } finally {
      n.done();
    }
    if (u.kind === K.NONE) {
      return false;
    }
    this.dispatch(u);
    return true;
  }

  private dispatch(u: { kind: number; relay: number; sub: number; pub: number; result: number; attempts: number; status: number; count: number; url: string; text: string; json: string }): void {
    const url = u.url || this.urlOf(u.relay);
    switch (u.kind) {
      case K.CONNECT: this.open(u.relay, url); break;
      case K.DISCONNECT: {
        const ws = this.#sockets.get(u.relay);
        this.#sockets.delete(u.relay);
        ws?.close();
        break;
      }
      case K.EVENT: this.#subs.get(u.sub)?.handlers.onEvent(JSON.parse(u.json) as NostrEvent, url); break;
      case K.EOSE: {
        const s = this.#subs.get(u.sub);
        if (s?.once) {
          this.#subs.delete(u.sub);
          this.#c.n.x.scw_pool_unsubscribe(this.#h, u.sub);
        }
        s?.handlers.onEose?.();
        break;
      }
      case K.CLOSED: this.#subs.get(u.sub)?.handlers.onClosed?.(url, u.text); break;
      case K.PUBLISHED:
        this.#pubs.get(u.pub)?.results.push({ relay: url, result: RESULTS[u.result] as PoolPublishResult['result'], reason: u.text, attempts: u.attempts });
        break;
      case K.DONE: {
        const p = this.#pubs.get(u.pub);
        this.#pubs.delete(u.pub);
        p?.done(p.results);
        break;
      }
      case K.AUTH: this.#o.onAuth?.(url, 'challenge', u.text); break;
      case K.AUTHED: this.#o.onAuth?.(url, 'authenticated', u.text); break;
      case K.AUTH_REFUSED: this.#o.onAuth?.(url, 'refused', u.text); break;
      case K.NOTICE: this.#o.onNotice?.(url, u.text); break;
      case K.DROPPED: this.#o.onDropped?.(url, u.count, this.#c.n.statusName(u.status)); break;
      default: break;
    }
  }

  private open(relay: number, url: string): void {
    const Ctor = this.#o.WebSocket ?? (globalThis as { WebSocket?: new (u: string) => PoolSocket }).WebSocket;
    const n = this.#c.n;
    let ws: PoolSocket;
    try {
      if (!Ctor) {
        throw new Error('no WebSocket');
      }
      ws = new Ctor(url);
    } catch {
      n.x.scw_pool_disconnected(this.#h, relay, Date.now());
      return;
    }
    this.#sockets.set(relay, ws);
    ws.onopen = () => {
      if (this.#h !== 0 && this.#sockets.get(relay) === ws) {
        n.check(n.x.scw_pool_connected(this.#h, relay, Date.now()));
        this.pump();
      }
    };
    ws.onmessage = (ev) => {
      if (this.#h === 0 || this.#sockets.get(relay) !== ws) {
        return;
      }
      const d = ev.data;
      const text = typeof d === 'string' ? d : decoder.decode(d as Uint8Array);
      const inp = this.#c.in.begin(textBound(text));
      const [p, l] = inp.text(text);
      n.x.scw_pool_receive(n.w, this.#h, relay, p, l, Date.now()); // a refusal is a DROPPED update
      this.pump();
    };
    ws.onerror = () => undefined;
    ws.onclose = () => {
      if (this.#h !== 0 && this.#sockets.get(relay) === ws) {
        this.#sockets.delete(relay);
        n.x.scw_pool_disconnected(this.#h, relay, Date.now());
        this.pump();
      }
    };
  }

  /** Closes every socket and frees the pool (publishes in flight are abandoned). */
  dispose(): void {
    if (this.#h !== 0) {
      if (this.#timer !== null) {
        clearTimeout(this.#timer);
      }
      const sockets = [...this.#sockets.values()];
      this.#sockets.clear();
      for (const ws of sockets) {
        ws.close();
      }
      this.#c.untrack(this, this.#h);
      this.#h = 0;
    }
  }

  [Symbol.dispose](): void {
    this.dispose();
  }
}

