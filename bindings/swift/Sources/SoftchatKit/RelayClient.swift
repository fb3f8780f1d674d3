// RelayClient: the library's relay pool driven over WebSockets, as an actor.
import CSoftchat
import Foundation

/// How a publish ended on one relay.
public struct PublishResult: Sendable, Hashable {
    public enum Outcome: Sendable, Hashable {
        /// OK true, or false with "duplicate:".
        case accepted
        /// OK false for a reason retrying does not change ("blocked:", "invalid:", ...).
        case refused
        /// No usable answer after the pool's attempts, or the relay could not be reached.
        case failed
    }

    /// The relay's normalised URL.
    public let relay: String
    public let outcome: Outcome
    /// The relay's words (or the pool's, e.g. "no OK within 10000 ms").
    public let message: String
    public let attempts: Int
}

/// What a subscription delivers.
public enum RelayDelivery: Sendable, Hashable {
    /// An event (verified and matched by the pool, delivered once across relays): its JSON
    /// as the relay sent it, and the relay that delivered it first.
    case event(json: String, relay: String)
    /// Every relay of the subscription sent EOSE, is down, or timed out.
    case endOfStoredEvents
    /// A relay ended the subscription there (it goes on elsewhere).
    case closed(relay: String, message: String)
}

/// A NIP-42 AUTH step on one relay (`RelayClient.authUpdates`).
public enum RelayAuthUpdate: Sendable, Hashable {
    /// The relay sent a challenge; the client answers it by its `Options.auth` policy with
    /// the identity of `authenticate(as:)`.
    case challenge(relay: String)
    /// The relay accepted the AUTH: what waited for it goes out again.
    case authenticated(relay: String)
    /// The relay refused the AUTH (its words), or the client could not sign it (`status`:
    /// the library's status name; "SC_OK" when the relay refused).
    case refused(relay: String, message: String, status: String)
}

/// A client of many relays: libsoftchat's relay pool (routing, retries, deduplication, EOSE
/// across relays, reconnects with resume) driven over a `RelayTransport`, by default
/// Foundation's `URLSessionWebSocketTask`. It is an actor: it owns a context of its own and
/// the pool, and every call waits for the network, hence `async`. It verifies every event a
/// relay sends before delivering it. It answers NIP-42 AUTH challenges with the identity given
/// to `authenticate(as:)`, by the `Options.auth` policy.
public actor RelayClient {
    private let native: PoolMemory
    private var sc: Softchat { native.sc }
    private var pool: UnsafeMutablePointer<sc_pool> { native.pool }
    private let transport: any RelayTransport
    private var links: [UInt32: Link] = [:]
    private var publishes: [UInt32: Publish] = [:]
    private var subs: [UInt32: Subscription] = [:]
    private var timer: Task<Void, Never>?
    private var generation = 0
    private let authSink: AsyncStream<RelayAuthUpdate>.Continuation

    /// The AUTH steps of every relay (the newest 64 are kept until read); it ends when the
    /// client is freed.
    public nonisolated let authUpdates: AsyncStream<RelayAuthUpdate>

    private struct Link {
        let connection: any RelayConnection
        let writer: AsyncStream<String>.Continuation
        let generation: Int
    }

    private final class Publish {
        let memory: CMemory
        var results: [PublishResult] = []
        var finished = false
        var waiter: CheckedContinuation<[PublishResult], Never>?
        init(_ m: CMemory) { memory = m }
    }

    private struct Subscription {
        let memory: CMemory
        let sink: AsyncStream<RelayDelivery>.Continuation
        let once: Bool
    }

    /// When the client answers a relay's AUTH challenge with the identity of
    /// `authenticate(as:)`: once a REQ or an EVENT was refused "auth-required:" there
    /// (`onDemand`, the default), at the first challenge (`always`), or never (`never`).
    public enum AuthPolicy: Sendable, Hashable {
        case onDemand, always, never
    }

    /// The pool's retry and AUTH policies (0: the pool's default, in brackets).
    public struct Options: Sendable {
        /// Attempts per relay before a publish fails there [5].
        public var maxAttempts: UInt32
        /// The first retry delay, doubling up to `retryMaxMs` [1000, 60000].
        public var retryMinMs: UInt32
        public var retryMaxMs: UInt32
        /// An EVENT not answered within this time is a failed attempt [10000].
        /// An EVENT or REQ waiting for an AUTH that no accepted AUTH followed within this
        /// time ends there "auth-required:" too.
        public var okTimeoutMs: UInt32
        /// When AUTH challenges are answered [onDemand].
        public var auth: AuthPolicy

        public init(maxAttempts: UInt32 = 0, retryMinMs: UInt32 = 0, retryMaxMs: UInt32 = 0, okTimeoutMs: UInt32 = 0,
                    auth: AuthPolicy = .onDemand) {
            self.maxAttempts = maxAttempts
            self.retryMinMs = retryMinMs
            self.retryMaxMs = retryMaxMs
            self.okTimeoutMs = okTimeoutMs
            self.auth = auth
        }
    }

    /// A client with its own context on `backend` (nil: the default) and a pool of default
    /// size (16 relays, 8 subscriptions, 64 publishes in flight). Call `close()` when done:
    /// open connections keep the client alive.
    public init(transport: any RelayTransport = URLSessionRelayTransport(), backend: String? = nil,
                options: Options = Options()) throws {
        native = try PoolMemory(backend: backend, options: options)
        self.transport = transport
        (authUpdates, authSink) = AsyncStream<RelayAuthUpdate>.makeStream(bufferingPolicy: .bufferingNewest(64))
    }

    deinit {
        authSink.finish()
    }

    /// The identity the client answers NIP-42 AUTH challenges with, by `Options.auth` (nil:
    /// none; challenges are then left unanswered and what a relay refused "auth-required:"
    /// ends so). The client holds the identity while it is set: an `erase()` meanwhile
    /// wipes the key only once it is replaced or the client is freed. A challenge already
    /// waiting is answered now. Throws `SC_ERR_STATE` for an erased identity.
    public func authenticate(as identity: Identity?) throws {
        try native.authenticate(as: identity)
        pump()
    }

    /// Publishes a signed event (its JSON: a gift wrap, a NostrEvent's `json`) to `relays`
    /// and returns how it ended on each, once it ended on all (accepted, refused with the
    /// relay's reason, or failed after the pool's retries).
    public func publish(_ eventJSON: String, to relays: [String]) async throws -> [PublishResult] {
        let m = CMemory()
        let ev = m.array(sc_event(), count: 1)
        ev.pointee = try parseCEvent(Array(eventJSON.utf8), optional: 0, maxBytes: 1 << 20, mem: m)
        let handles = try relayHandles(relays, m)
        var pub: UInt32 = 0
        try check(sc_pool_publish(pool, &pub, ev, handles.0, handles.1, nil))
        let p = Publish(m)
        publishes[pub] = p
        pump()
        if p.finished { return p.results }
        // set before this task suspends: the closure runs on the actor
        return await withCheckedContinuation { k in p.waiter = k }
    }

    /// Opens a subscription `id` with filters (NIP-01 filter objects as JSON) on `relays`.
    /// Events come once across relays; after a reconnect each relay resumes from the newest
    /// event it delivered, less `resumeSlack` seconds (gift wraps: two days, 172800). With
    /// `once`, the subscription closes after the end of stored events (a fetch).
    public func subscribe(id: String, filters: [String], relays: [String], resumeSlack: Int64 = 0,
                          once: Bool = false) throws -> AsyncStream<RelayDelivery> {
        let m = CMemory()
        let fs = m.array(sc_relay_filter(), count: max(filters.count, 1))
        for (i, f) in filters.enumerated() { fs[i] = try parseFilter(f, m) }
        let handles = try relayHandles(relays, m)
        var opts = sc_pool_sub_opts()
        opts.resume_slack = resumeSlack
        if once { opts.flags = UInt32(SC_POOL_SUB_ONCE) }
        let idStr = m.str(id)
        var sub: UInt32 = 0
        try check(sc_pool_subscribe(pool, &sub, idStr, fs, filters.count, handles.0, handles.1, &opts))
        let (stream, sink) = AsyncStream<RelayDelivery>.makeStream()
        subs[sub]?.sink.finish()
        subs[sub] = Subscription(memory: m, sink: sink, once: once)
        pump()
        return stream
    }

    /// The gift wraps addressed to `key` (kinds 1059 and 21059 with its p tag) on `relays`,
    /// resuming two days back after a reconnect (wraps are backdated). Open each with
    /// `Softchat.receive(_:for:)`.
    public func inbox(for key: PublicKey, relays: [String], once: Bool = false) throws -> AsyncStream<RelayDelivery> {
        try subscribe(id: "inbox-" + String(key.hex.prefix(16)),
                      filters: ["{\"kinds\":[1059,21059],\"#p\":[\"\(key.hex)\"]}"], relays: relays,
                      resumeSlack: Int64(SC_POOL_SLACK_GIFT_WRAP), once: once)
    }

    /// Closes every connection and ends every subscription.
    public func close() {
        for (_, s) in subs { s.sink.finish() }
        subs.removeAll()
        for (relay, l) in links {
            l.writer.finish()
            l.connection.close()
            _ = sc_pool_relay_remove(pool, relay)
        }
        links.removeAll()
        pump()
    }

    // ---- the pool's loop -------------------------------------------------------------------

    private func relayHandles(_ urls: [String], _ m: CMemory) throws -> (UnsafePointer<UInt32>, Int) {
        let h = m.array(UInt32(0), count: urls.count)
        for (i, u) in urls.enumerated() {
            try check(sc_pool_relay_add(pool, &h[i], m.str(u)))
        }
        return (UnsafePointer(h), urls.count)
    }

    private func parseFilter(_ json: String, _ m: CMemory) throws -> sc_relay_filter {
        let j = Array(json.utf8)
        var f = sc_relay_filter()
        let arena = m.raw(sc_relay_filter_parse_arena_max(j.count))
        var used = 0
        try j.withUnsafeBufferPointer { b in
            try b.withMemoryRebound(to: CChar.self) { c in
                try check(sc_relay_filter_parse(&f, arena.baseAddress, arena.count, &used, c.baseAddress, c.count))
            }
        }
        return f
    }

    private static func nowMs() -> Int64 { Int64(Date().timeIntervalSince1970 * 1000) }

    /// Reports every update due, sends what the pool queued, and sets the timer for the next.
    private func pump() {
        var rounds = 0
        repeat {
            var u = sc_pool_update()
            while sc_pool_poll(pool, sc.ctx, Self.nowMs(), &u) == SC_OK && u.kind != SC_POOL_U_NONE {
                handle(u)
                u = sc_pool_update()
            }
            flush()
            rounds += 1
        } while sc_pool_wakeup(pool) == 0 && rounds < 64
        schedule()
    }

    private func schedule() {
        timer?.cancel()
        let at = sc_pool_wakeup(pool)
        guard at != Int64.max else { return }
        let delay = UInt64(max(at - Self.nowMs(), 1)) * 1_000_000
        timer = Task { [weak self] in
            try? await Task.sleep(nanoseconds: delay)
            if !Task.isCancelled { await self?.pump() }
        }
    }

    private func handle(_ u: sc_pool_update) {
        switch u.kind {
        case SC_POOL_U_CONNECT:
            let relay = u.relay, url = string(u.url)
            Task { await self.open(relay, url) }
        case SC_POOL_U_DISCONNECT:
            if let l = links.removeValue(forKey: u.relay) {
                l.writer.finish()
                l.connection.close()
            }
        case SC_POOL_U_EVENT:
            subs[u.sub]?.sink.yield(.event(json: string(u.event_json), relay: string(u.url)))
        case SC_POOL_U_EOSE:
            if let s = subs[u.sub] {
                s.sink.yield(.endOfStoredEvents)
                if s.once {
                    s.sink.finish()
                    subs[u.sub] = nil
                }
            }
        case SC_POOL_U_CLOSED:
            subs[u.sub]?.sink.yield(.closed(relay: string(u.url), message: string(u.text)))
        case SC_POOL_U_PUBLISHED:
            let outcome: PublishResult.Outcome = u.result == SC_POOL_ACCEPTED ? .accepted
                : u.result == SC_POOL_REFUSED ? .refused : .failed
            publishes[u.pub]?.results.append(PublishResult(relay: string(u.url), outcome: outcome,
                                                           message: string(u.text), attempts: Int(u.attempts)))
        case SC_POOL_U_PUBLISH_DONE:
            if let p = publishes.removeValue(forKey: u.pub) {
                p.finished = true
                p.waiter?.resume(returning: p.results)
                p.waiter = nil
            }
        case SC_POOL_U_AUTH:
            authSink.yield(.challenge(relay: string(u.url)))
        case SC_POOL_U_AUTHENTICATED:
            authSink.yield(.authenticated(relay: string(u.url)))
        case SC_POOL_U_AUTH_REFUSED:
            authSink.yield(.refused(relay: string(u.url), message: string(u.text),
                                    status: String(cString: sc_status_name(u.status))))
        default:
            break // notices, drops, COUNT and NEG
        }
    }

    /// Sends what the pool queued for each connected relay, in order.
    private func flush() {
        for (relay, l) in links {
            while true {
                let n = sc_pool_next_len(pool, relay)
                if n == 0 { break }
                let m = CMemory()
                let out = m.raw(n)
                var len = 0
                guard sc_pool_next(pool, relay, out.baseAddress!.assumingMemoryBound(to: CChar.self), n, &len) == SC_OK,
                      len > 0 else { break }
                l.writer.yield(String(decoding: UnsafeRawBufferPointer(rebasing: out[0..<len]), as: UTF8.self))
            }
        }
    }

    private func open(_ relay: UInt32, _ url: String) async {
        do {
            let c = try await transport.connect(to: url)
            // the relay may have been removed (close()) while the socket opened
            guard sc_pool_connected(pool, relay, Self.nowMs()) == SC_OK else {
                c.close()
                pump()
                return
            }
            generation += 1
            let gen = generation
            let (stream, writer) = AsyncStream<String>.makeStream()
            links[relay] = Link(connection: c, writer: writer, generation: gen)
            Task {
                do {
                    for await text in stream { try await c.send(text) }
                } catch {
                    self.lost(relay, gen)
                }
            }
            Task {
                do {
                    while let text = try await c.receive() { self.deliver(relay, gen, text) }
                } catch {}
                self.lost(relay, gen)
            }
        } catch {
            _ = sc_pool_disconnected(pool, relay, Self.nowMs())
        }
        pump()
    }

    private func lost(_ relay: UInt32, _ gen: Int) {
        guard let l = links[relay], l.generation == gen else { return }
        links[relay] = nil
        l.writer.finish()
        l.connection.close()
        _ = sc_pool_disconnected(pool, relay, Self.nowMs())
        pump()
    }

    private func deliver(_ relay: UInt32, _ gen: Int, _ text: String) {
        guard let l = links[relay], l.generation == gen else { return }
        let n = text.utf8.count
        guard n <= sc_pool_message_max(pool) else { return }
        // the updates of this message point into its text and the arena: pump() reports
        // them before both are freed
        let m = CMemory()
        let t = m.str(Array(text.utf8))
        let arena = m.raw(sc_pool_receive_arena_max(n))
        _ = sc_pool_receive(pool, sc.ctx, relay, t.ptr, t.len, Self.nowMs(), arena.baseAddress!, arena.count)
        pump()
    }
}

/// The pool's memory, the client's own context and the identity the pool answers AUTH with:
/// freed (and wiped) with the client, the pool before the identity it references is let go.
private final class PoolMemory {
    let sc: Softchat
    let mem: UnsafeMutableRawBufferPointer
    let pool: UnsafeMutablePointer<sc_pool>
    private var authIdentity: Identity?

    init(backend: String?, options: RelayClient.Options) throws {
        sc = try Softchat(backend: backend)
        var opts = sc_pool_opts()
        switch options.auth {
        case .onDemand: opts.auth = UInt32(SC_POOL_AUTH_ON_DEMAND)
        case .always: opts.auth = UInt32(SC_POOL_AUTH_ALWAYS)
        case .never: opts.auth = UInt32(SC_POOL_AUTH_NEVER)
        }
        opts.max_attempts = options.maxAttempts
        opts.retry_min_ms = options.retryMinMs
        opts.retry_max_ms = options.retryMaxMs
        opts.ok_timeout_ms = options.okTimeoutMs
        let need = sc_pool_mem_max(&opts)
        mem = .allocate(byteCount: max(need, 1), alignment: 16)
        pool = .allocate(capacity: 1)
        pool.initialize(to: sc_pool())
        try check(sc_pool_init(pool, mem.baseAddress, need, &opts))
    }

    /// Sets the pool's AUTH identity, holding the new one before the old one is let go.
    func authenticate(as identity: Identity?) throws {
        let who = try identity?.hold()
        let s = sc_pool_auth_identity(pool, who)
        if s != SC_OK {
            identity?.release()
            throw SoftchatError(s)
        }
        authIdentity?.release()
        authIdentity = identity
    }

    deinit {
        sc_pool_clear(pool)
        authIdentity?.release()
        pool.deinitialize(count: 1)
        pool.deallocate()
        sc_mem_wipe(mem.baseAddress, mem.count)
        mem.deallocate()
    }
}
