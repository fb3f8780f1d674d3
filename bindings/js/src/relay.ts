// A session with one relay over the platform's WebSocket (browsers, workers, Node >= 22's
// global WebSocket, or the constructor given: e.g. the `ws` package's on Node 20). The
// protocol state (subscriptions, publishes awaiting OK, AUTH, the resume point after a
// reconnect, backoff) is the library's session (api/softchat/relay.h); this class owns the
// socket and the timers, and verifies nothing itself: every EVENT is parsed, verified and
// matched against its subscription's filters in wasm before a handler sees it.
import { Caps, Core, toHex } from './core.js';
import { Status } from './errors.js';
import type { Identity } from './identity.js';
import { textBound } from './native.js';
import type { NostrEvent } from './types.js';

/** A NIP-01 filter. */
export interface Filter {
  ids?: string[];
  authors?: string[];
  kinds?: number[];
  since?: number;
  until?: number;
  limit?: number;
  [tag: `#${string}`]: string[] | undefined;
}

export interface SubscriptionHandlers {
  onEvent(event: NostrEvent): void;
  onEose?(): void;
  /** the relay ended the subscription (it is gone) */
  onClosed?(reason: string): void;
}

export interface PublishResult {
  accepted: boolean;
  /** the relay's message after its prefix ("duplicate: ...", "blocked: ...") */
  reason: string;
}

interface WebSocketLike {
  readyState: number;
  send(data: string): void;
  close(): void;
  onopen: ((ev: unknown) => void) | null;
  onclose: ((ev: unknown) => void) | null;
  onerror: ((ev: unknown) => void) | null;
  onmessage: ((ev: { data: unknown }) => void) | null;
}

export interface RelaySessionOptions {
  /** open subscriptions at once (default 16) */
  maxSubscriptions?: number;
  /** publishes awaiting OK (default 64) */
  maxPending?: number;
  /** seconds a resumed REQ's since goes back (gift wraps are backdated: 172800) */
  resumeSlack?: number;
  /** answers NIP-42 AUTH challenges */
  identity?: Identity;
  /** the WebSocket constructor (default: globalThis.WebSocket) */
  WebSocket?: new (url: string) => WebSocketLike;
  /** reconnect with the session's backoff after the socket closed (default true) */
  reconnect?: boolean;
  onNotice?(message: string): void;
  /** a relay message dropped (malformed, a bad signature, an unknown subscription) */
  onError?(error: Error): void;
  onOpen?(): void;
  onClose?(): void;
}

const U = { EVENT: 1, EOSE: 2, CLOSED: 3, ACCEPTED: 4, REJECTED: 5, AUTH_CHALLENGE: 6, AUTHENTICATED: 8, NOTICE: 10 };
const decoder = new TextDecoder();
const encoder = new TextEncoder();

export class RelaySession {
  readonly url: string;
  #c: Core;
  #h: number;
  #o: RelaySessionOptions;
  #ws: WebSocketLike | null = null;
  #timer: ReturnType<typeof setTimeout> | null = null;
  #closed = false;
  #subs = new Map<string, SubscriptionHandlers>();
  #pubs = new Map<string, (r: PublishResult) => void>();

  /** @internal */
  constructor(c: Core, url: string, o: RelaySessionOptions = {}) {
    this.#c = c;
    this.url = c.text(url, 'url', 4096);
    this.#o = o;
    const n = c.n;
    const inp = c.in.begin(textBound(url));
    try {
      const [p, l] = inp.text(url);
      n.check(n.x.scw_relay_new(n.w, p, l, o.maxSubscriptions ?? 16, o.maxPending ?? 64,
        c.time(o.resumeSlack ?? 0, 'resumeSlack')));
      this.#h = n.resU32(0);
    } finally {
      n.done();
    }
    c.track(this, this.#h, (h) => c.n.x.scw_relay_free(h));
  }

  private handle(): number {
    if (this.#h === 0) {
      throw this.#c.fail(Status.STATE, 'the session was disposed');
    }
    this.#c.live();
    return this.#h;
  }

  /** Publishes awaiting the relay's OK. */
  get pending(): number {
    return this.#c.n.x.scw_relay_pending(this.handle());
  }

  get connected(): boolean {
    return this.#ws !== null && this.#ws.readyState === 1;
  }

  /** Opens the socket (and reopens it after a close, with backoff, until close()). */
  connect(): void {
    this.handle();
    this.#closed = false;
    const Ctor = this.#o.WebSocket ?? (globalThis as { WebSocket?: new (u: string) => WebSocketLike }).WebSocket;
    if (!Ctor) {
      throw this.#c.fail(-82, 'no WebSocket here: pass options.WebSocket'); // SC_ERR_UNSUPPORTED
    }
    const ws = new Ctor(this.url);
    this.#ws = ws;
    ws.onopen = () => {
      const n = this.#c.n;
      n.check(n.x.scw_relay_connected(this.#h, Date.now()));
      this.#o.onOpen?.();
      this.pump();
    };
    ws.onmessage = (ev) => {
      const d = ev.data;
      this.receive(typeof d === 'string' ? d : decoder.decode(d as Uint8Array));
    };
    ws.onerror = () => undefined; // a close follows
    ws.onclose = () => this.closed(ws);
  }

  private closed(ws: WebSocketLike): void {
    if (this.#ws !== ws || this.#h === 0) {
      return;
    }
    this.#ws = null;
    const n = this.#c.n;
    let at = Date.now();
    try {
      n.check(n.x.scw_relay_disconnected(n.w, this.#h, Date.now()));
      at = n.resF64(0);
    } catch {
      // a socket that never opened: the session was not connected
    } finally {
      n.done();
    }
    this.#o.onClose?.();
    if (!this.#closed && this.#o.reconnect !== false) {
      this.#timer = setTimeout(() => {
        this.#timer = null;
        if (!this.#closed && this.#h !== 0) {
          this.connect();
        }
      }, Math.max(0, at - Date.now()));
    }
  }

  /** Closes the socket; no reconnect. Subscriptions and pending publishes stay in the
   *  session and go out again on the next connect(). */
  close(): void {
    this.#closed = true;
    if (this.#timer !== null) {
      clearTimeout(this.#timer);
      this.#timer = null;
    }
    const ws = this.#ws;
    if (ws) {
      ws.close();
      this.closed(ws);
    }
  }

  /** Opens (or replaces) a subscription; the REQ goes out now or on connect. */
  subscribe(id: string, filters: Filter[], handlers: SubscriptionHandlers): void {
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
    if (blob.length > Caps.json) {
      throw c.fail(Status.TOO_LARGE, 'filters');
    }
    const h = this.handle();
    const n = c.n;
    const inp = c.in.begin(textBound(sid) + blob.length + 8);
    const [p, l] = inp.text(sid);
    n.check(n.x.scw_relay_subscribe(h, p, l, inp.bytes(blob), blob.length));
    this.#subs.set(sid, handlers);
    this.pump();
  }

  unsubscribe(id: string): void {
    const c = this.#c;
    const sid = c.text(id, 'subscription id', 64);
    const h = this.handle();
    const n = c.n;
    const inp = c.in.begin(textBound(sid));
    const [p, l] = inp.text(sid);
    n.check(n.x.scw_relay_unsubscribe(h, p, l));
    this.#subs.delete(sid);
    this.pump();
  }

  /** Publishes a signed event (verified first); resolves with the relay's OK. It stays
   *  pending across reconnects until the relay answers. */
  publish(event: NostrEvent | string): Promise<PublishResult> {
    const c = this.#c;
    const json = typeof event === 'string' ? c.text(event, 'event', Caps.json) : c.json(event, 'event');
    const h = this.handle();
    const n = c.n;
    const inp = c.in.begin(textBound(json));
    try {
      const [p, l] = inp.text(json);
      n.check(n.x.scw_relay_publish(n.w, h, p, l));
    } finally {
      n.done();
    }
    const id = (typeof event === 'string' ? (JSON.parse(event) as NostrEvent) : event).id;
    const done = new Promise<PublishResult>((res) => this.#pubs.set(id, res));
    this.pump();
    return done;
  }

  /** Sends what the session has queued. */
  private pump(): void {
    const ws = this.#ws;
    if (!ws || ws.readyState !== 1 || this.#h === 0) {
      return;
    }
    const n = this.#c.n;
    for (;;) {
      let msg: string;
      try {
        n.check(n.x.scw_relay_next(n.w, this.#h));
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

  /** One text frame from the relay. */
  private receive(text: string): void {
    if (this.#h === 0) {
      return;
    }
    const c = this.#c;
    const n = c.n;
    let kind = 0;
    let sub = '';
    let id = '';
    let body = '';
    try {
      const s = c.text(text, 'relay message', Caps.json);
      const inp = c.in.begin(textBound(s));
      const [p, l] = inp.text(s);
      n.check(n.x.scw_relay_handle(n.w, this.#h, p, l));
      kind = n.resU32(0);
      sub = decoder.decode(n.res(8, Math.min(n.resU32(4), 64)));
      id = toHex(n.res(72, 32));
      body = kind === U.EVENT || kind === U.NOTICE || kind === U.CLOSED || kind === U.REJECTED ? n.outText() : '';
    } catch (e) {
      this.#o.onError?.(e as Error);
      return;
    } finally {
      n.done();
    }
    this.dispatch(kind, sub, id, body);
    this.pump();
  }

  private dispatch(kind: number, sub: string, id: string, body: string): void {
    switch (kind) {
      case U.EVENT:
        this.#subs.get(sub)?.onEvent(JSON.parse(body) as NostrEvent);
        break;
      case U.EOSE:
        this.#subs.get(sub)?.onEose?.();
        break;
      case U.CLOSED: {
        const hs = this.#subs.get(sub);
        this.#subs.delete(sub);
        hs?.onClosed?.(body);
        break;
      }
      case U.ACCEPTED:
      case U.REJECTED: {
        const res = this.#pubs.get(id);
        this.#pubs.delete(id);
        res?.({ accepted: kind === U.ACCEPTED, reason: body });
        break;
      }
      case U.AUTH_CHALLENGE:
        this.auth();
        break;
      case U.NOTICE:
        this.#o.onNotice?.(body);
        break;
      default:
        break;
    }
  }

  private auth(): void {
    const who = this.#o.identity;
    const ws = this.#ws;
    if (!who || !ws) {
      return;
    }
    const n = this.#c.n;
    try {
      n.check(n.x.scw_relay_auth(n.w, this.#h, who.handle(), Math.floor(Date.now() / 1000)));
      ws.send(n.outText());
    } catch (e) {
      this.#o.onError?.(e as Error);
    } finally {
      n.done();
    }
  }

  /** Closes the socket and frees the session. */
  dispose(): void {
    if (this.#h !== 0) {
      this.close();
      this.#c.untrack(this, this.#h);
      this.#h = 0;
    }
  }

  [Symbol.dispose](): void {
    this.dispose();
  }
}
