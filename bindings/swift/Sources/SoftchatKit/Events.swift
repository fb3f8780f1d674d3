// NIP-01 events: signing, parsing with verification, BIP-340 signatures.
import CSoftchat

/// A signed NIP-01 event whose id and signature were verified (or just made): immutable.
public struct NostrEvent: Sendable, Hashable {
    public let id: EventId
    public let pubkey: PublicKey
    /// The 64-byte BIP-340 signature.
    public let sig: [UInt8]
    public let createdAt: Int64
    public let kind: Int
    public let tags: [[String]]
    public let content: String
    /// The JSON it was parsed from, or the library's serialisation of a signed event.
    public let json: String

    init(_ ev: sc_event, json: String) throws {
        id = try EventId(tupleBytes(ev.id))
        pubkey = try PublicKey(tupleBytes(ev.pubkey))
        sig = tupleBytes(ev.sig)
        createdAt = ev.created_at
        kind = Int(ev.kind)
        tags = readTags(ev)
        content = string(ev.content)
        self.json = json
    }

    /// Lowercase hex of the signature.
    public var sigHex: String { hexString(sig) }
}

/// An event's fields as a C event whose views point into mem.
func cEvent(kind: Int, createdAt: Int64, tags: [[String]], content: [UInt8], mem: CMemory) throws -> sc_event {
    guard (0...Int(SC_EVENT_KIND_MAX)).contains(kind) else { throw SoftchatError(SC_ERR_EVENT_RANGE) }
    var ev = sc_event()
    let (t, n) = mem.tags(tags)
    ev.kind = UInt32(kind)
    ev.created_at = createdAt
    ev.tags = t
    ev.n_tags = n
    ev.content = mem.str(content)
    ev.flags = UInt32(SC_EVENT_HAS_KIND | SC_EVENT_HAS_CREATED_AT | SC_EVENT_HAS_TAGS | SC_EVENT_HAS_CONTENT)
    return ev
}

/// A NostrEvent as a C event (for the pure functions that read one: NIP-40).
func cEvent(_ e: NostrEvent, mem: CMemory) throws -> sc_event {
    var ev = try cEvent(kind: e.kind, createdAt: e.createdAt, tags: e.tags, content: Array(e.content.utf8), mem: mem)
    setTuple(&ev.id, e.id.bytes)
    setTuple(&ev.pubkey, e.pubkey.bytes)
    setTuple(&ev.sig, e.sig)
    ev.flags |= UInt32(SC_EVENT_HAS_ID | SC_EVENT_HAS_PUBKEY | SC_EVENT_HAS_SIG)
    return ev
}

/// The JSON of a C event (SC_EVENT_JSON_OBJECT).
func eventJSON(_ ev: sc_event) throws -> String {
    var ev = ev
    return try readText { out, cap, len in sc_event_to_json(out, cap, len, &ev, UInt32(SC_EVENT_JSON_OBJECT)) }
}

/// Parses JSON into a C event whose views point into mem (optional: SC_EVENT_HAS_* that may
/// be absent), after the size cap.
func parseCEvent(_ json: [UInt8], optional: UInt32, maxBytes: Int, mem: CMemory) throws -> sc_event {
    guard json.count <= maxBytes else { throw SoftchatError.tooLarge }
    var ev = sc_event()
    var opts = sc_event_parse_opts()
    opts.max_input = max(json.count, 1)
    opts.optional = optional
    return try json.withUnsafeBufferPointer { j in
        try j.withMemoryRebound(to: CChar.self) { c in
            var need = 0
            let s = sc_event_parse(&ev, nil, 0, &need, c.baseAddress, c.count, &opts)
            if s != SC_OK && s != SC_ERR_BUFFER_TOO_SMALL { throw SoftchatError(s) }
            let arena = mem.raw(need)
            var used = 0
            try check(sc_event_parse(&ev, arena.baseAddress, arena.count, &used, c.baseAddress, c.count, &opts))
            return ev
        }
    }
}

extension Softchat {
    /// Signs a new event by `author` (id and BIP-340 signature; fresh aux randomness, or the
    /// 32 bytes given: signing the same fields with the same aux gives the same event).
    public func sign(kind: Int, createdAt: Int64, tags: [[String]] = [], content: String,
                     by author: Identity, aux: [UInt8]? = nil) throws -> NostrEvent {
        let mem = CMemory()
        var ev = try cEvent(kind: kind, createdAt: createdAt, tags: tags, content: Array(content.utf8), mem: mem)
        try author.use { id in
            if let aux {
                guard aux.count == Int(SC_AUX_RAND_BYTES) else { throw SoftchatError.arg }
                try check(sc_event_sign_with_rand(ctx, &ev, id, aux))
            } else {
                try check(sc_event_sign(ctx, &ev, id))
            }
        }
        return try NostrEvent(ev, json: eventJSON(ev))
    }

    /// Parses a signed event and verifies it: the id recomputed from the fields, then the
    /// signature. Hostile text gives the parser's status (`SC_ERR_JSON`, `SC_ERR_EVENT_FIELD`,
    /// `SC_ERR_UTF8`, ...), a forged one `SC_ERR_ID_MISMATCH` or `SC_ERR_INVALID_SIG`; over
    /// `limits.maxEventBytes`, `SC_ERR_TOO_LARGE` before anything is allocated.
    public func parseEvent(_ json: String) throws -> NostrEvent {
        let mem = CMemory()
        var ev = try parseCEvent(Array(json.utf8), optional: 0, maxBytes: limits.maxEventBytes, mem: mem)
        try check(sc_event_verify(ctx, &ev))
        return try NostrEvent(ev, json: json)
    }

    /// A BIP-340 signature of a 32-byte message (an event id) by `signer` (aux: 32 bytes, or
    /// nil for fresh randomness). Another message length is `SC_ERR_ARG`.
    public func signSchnorr(_ message: [UInt8], by signer: Identity, aux: [UInt8]? = nil) throws -> [UInt8] {
        guard message.count == Int(SC_SIGN_MSG_BYTES) else { throw SoftchatError.arg }
        var sig = [UInt8](repeating: 0, count: Int(SC_SIG_BYTES))
        try signer.use { id in
            if let aux {
                guard aux.count == Int(SC_AUX_RAND_BYTES) else { throw SoftchatError.arg }
                try check(sc_identity_sign_with_rand(ctx, &sig, id, message, aux))
            } else {
                try check(sc_identity_sign(ctx, &sig, id, message))
            }
        }
        return sig
    }

    /// Whether a 64-byte BIP-340 signature of a 32-byte message verifies under `key` (false
    /// also for a key not on the curve). Wrong lengths are `SC_ERR_ARG`.
    public func verifySchnorr(_ signature: [UInt8], message: [UInt8], key: PublicKey) throws -> Bool {
        guard signature.count == Int(SC_SIG_BYTES), message.count == Int(SC_SIGN_MSG_BYTES) else {
            throw SoftchatError.arg
        }
        let s = sc_identity_verify(ctx, signature, message, key.bytes)
        if s == SC_ERR_INVALID_SIG { return false }
        try check(s)
        return true
    }
}
