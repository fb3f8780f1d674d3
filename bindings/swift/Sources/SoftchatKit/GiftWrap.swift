// NIP-59: rumors, gift wraps and authenticated unwrapping.
import CSoftchat
import Foundation

/// An unsigned event with its id (NIP-59): what a seal carries. Its fields are Strings,
/// which cannot be wiped: for private messages use NIP-17 `sendMessage` / `receive`.
public struct Rumor: Sendable, Hashable {
    public let id: EventId
    public let pubkey: PublicKey
    public let createdAt: Int64
    public let kind: Int
    public let tags: [[String]]
    public let content: String
    /// The rumor's JSON (with its id, without a signature).
    public let json: String

    init(_ ev: sc_event) throws {
        id = try EventId(tupleBytes(ev.id))
        pubkey = try PublicKey(tupleBytes(ev.pubkey))
        createdAt = ev.created_at
        kind = Int(ev.kind)
        tags = readTags(ev)
        content = string(ev.content)
        json = try eventJSON(ev)
    }

    /// As a C rumor whose views point into mem.
    func cEvent(_ mem: CMemory) throws -> sc_event {
        var ev = try SoftchatKit.cEvent(kind: kind, createdAt: createdAt, tags: tags, content: Array(content.utf8), mem: mem)
        setTuple(&ev.id, id.bytes)
        setTuple(&ev.pubkey, pubkey.bytes)
        ev.flags |= UInt32(SC_EVENT_HAS_ID | SC_EVENT_HAS_PUBKEY)
        return ev
    }
}

/// What unwrapping authenticated: the rumor and the facts of the outer layers.
public struct UnwrappedRumor: Sendable, Hashable {
    public let rumor: Rumor
    /// The seal's signer: the real author (equal to the rumor's pubkey).
    public let sender: PublicKey
    /// The gift wrap's one-time key.
    public let wrapPubkey: PublicKey
    public let wrapId: EventId
    public let sealId: EventId
    /// 1059, or 21059 for an ephemeral wrap.
    public let wrapKind: Int
    public let wrapCreatedAt: Int64
    public let sealCreatedAt: Int64
}

/// The facts unwrap learned about the outer layers.
struct WrapFacts {
    let sender: PublicKey, wrapPubkey: PublicKey, wrapId: EventId, sealId: EventId
    let wrapKind: Int, wrapCreatedAt: Int64, sealCreatedAt: Int64

    init(_ i: sc_nip59_info) throws {
        sender = try PublicKey(tupleBytes(i.sender))
        wrapPubkey = try PublicKey(tupleBytes(i.wrap_pubkey))
        wrapId = try EventId(tupleBytes(i.wrap_id))
        sealId = try EventId(tupleBytes(i.seal_id))
        wrapKind = Int(i.wrap_kind)
        wrapCreatedAt = i.wrap_created_at
        sealCreatedAt = i.seal_created_at
    }
}

/// Options of a gift wrap, and of each wrap of a NIP-17 message.
public struct WrapOptions: Sendable, Hashable {
    /// Kind 21059 instead of 1059.
    public var ephemeral: Bool
    /// Allow rumor or seal JSON of 65536 bytes and more (unreadable by u16-only receivers).
    public var extended: Bool
    /// Relay hint for the wrap's p tag (a gift wrap; the sender's copy of a message).
    public var relay: String?
    /// When set (> 0): a NIP-40 expiration tag on the wrap and the seal.
    public var expiration: Int64
    /// The expiration on the wrap only (the seal's tags stay [] as NIP-59 asks).
    public var expirationOnWrapOnly: Bool
    /// The current time in seconds; nil reads the clock.
    public var now: Int64?

    public init(ephemeral: Bool = false, extended: Bool = false, relay: String? = nil,
                expiration: Int64 = 0, expirationOnWrapOnly: Bool = false, now: Int64? = nil) {
        self.ephemeral = ephemeral
        self.extended = extended
        self.relay = relay
        self.expiration = expiration
        self.expirationOnWrapOnly = expirationOnWrapOnly
        self.now = now
    }

    func c(_ mem: CMemory) -> sc_nip59_opts {
        var o = sc_nip59_opts()
        if ephemeral { o.flags |= UInt32(SC_NIP59_EPHEMERAL) }
        if extended { o.flags |= UInt32(SC_NIP44_EXTENDED) }
        if expirationOnWrapOnly { o.flags |= UInt32(SC_NIP59_EXPIRATION_WRAP_ONLY) }
        o.relay = mem.str(relay ?? "")
        o.expiration = expiration
        o.now = now ?? unixNow()
        return o
    }
}

/// The clock, in unix seconds.
func unixNow() -> Int64 { Int64(Date().timeIntervalSince1970) }

extension Softchat {
    /// A rumor (an unsigned event with its id) by `author`.
    public func rumor(kind: Int, createdAt: Int64, tags: [[String]] = [], content: String,
                      by author: Identity) throws -> Rumor {
        let mem = CMemory()
        var ev = try cEvent(kind: kind, createdAt: createdAt, tags: tags, content: Array(content.utf8), mem: mem)
        try author.use { _ in try check(sc_nip59_rumor(ctx, &ev, author.publicKey.bytes)) }
        return try Rumor(ev)
    }

    /// Seals `rumor` (by `author`) and gift-wraps it for `recipient`: the wrap's JSON.
    public func giftWrap(_ rumor: Rumor, from author: Identity, to recipient: PublicKey,
                         options: WrapOptions = WrapOptions()) throws -> String {
        let mem = CMemory()
        var ev = try rumor.cEvent(mem)
        var opts = options.c(mem)
        let scratchCap = sc_nip59_wrap_scratch_max(&ev, &opts)
        let outCap = sc_nip59_wrap_max(&ev, &opts)
        let scratch = mem.raw(scratchCap)
        return try author.use { id in
            try readText(capacity: outCap) { out, cap, n in
                sc_nip59_wrap(ctx, out, cap, n, scratch.baseAddress, scratchCap, &ev, id, recipient.bytes, &opts)
            }
        }
    }

    /// Unwraps and authenticates a gift wrap addressed to `me` (every check, each with its
    /// status: `SC_ERR_WRAP_SIG`, `SC_ERR_SEAL_SIG`, `SC_ERR_RUMOR_AUTHOR`, ...), with NIP-40
    /// at `now` (nil: the clock): an expired wrap or seal is `SC_ERR_WRAP_EXPIRED` /
    /// `SC_ERR_SEAL_EXPIRED`. Over `limits.maxWrapBytes`: `SC_ERR_TOO_LARGE`.
    public func unwrap(_ json: String, for me: Identity, now: Int64? = nil) throws -> UnwrappedRumor {
        let w = Array(json.utf8)
        guard w.count <= limits.maxWrapBytes else { throw SoftchatError.tooLarge }
        let mem = CMemory()
        var ev = sc_event()
        var info = sc_nip59_info()
        let t = now ?? unixNow()
        try me.use { id in
            try withArena(mem, sc_nip59_unwrap_arena_max(w.count)) { arena, cap, used in
                sc_nip59_unwrap_at(ctx, &ev, &info, arena, cap, used, w, w.count, id, t)
            }
        }
        let f = try WrapFacts(info)
        return UnwrappedRumor(rumor: try Rumor(ev), sender: f.sender, wrapPubkey: f.wrapPubkey, wrapId: f.wrapId,
                              sealId: f.sealId, wrapKind: f.wrapKind, wrapCreatedAt: f.wrapCreatedAt,
                              sealCreatedAt: f.sealCreatedAt)
    }
}

/// A text output of a known capacity (0, the size functions' "invalid": the call with no
/// room then says why).
func readText(capacity: Int, _ call: (UnsafeMutablePointer<CChar>, Int, UnsafeMutablePointer<Int>) -> sc_status) throws -> String {
    let mem = CMemory()
    let out = mem.raw(capacity)
    var n = 0
    try check(call(out.baseAddress!.assumingMemoryBound(to: CChar.self), capacity, &n))
    return String(decoding: UnsafeRawBufferPointer(rebasing: out[0..<n]), as: UTF8.self)
}

/// Runs an unwrap-like call with an arena from mem of the given bound, once more with the
/// need it reports if that fell short.
func withArena(_ mem: CMemory, _ bound: Int,
               _ call: (UnsafeMutableRawPointer, Int, UnsafeMutablePointer<Int>) -> sc_status) throws {
    guard bound > 0 else { throw SoftchatError.tooLarge }
    var arena = mem.raw(bound)
    var used = 0
    var s = call(arena.baseAddress!, arena.count, &used)
    if s == SC_ERR_BUFFER_TOO_SMALL && used > arena.count {
        arena = mem.raw(used)
        s = call(arena.baseAddress!, arena.count, &used)
    }
    try check(s)
}
