// NIP-44 v2: payloads between an identity and a peer, and held conversations.
import CSoftchat

/// The output buffer of a NIP-44 encryption: the payload text.
private func nip44Text(_ len: Int, _ call: (UnsafeMutablePointer<CChar>, Int, UnsafeMutablePointer<Int>) -> sc_status) throws -> String {
    let need = sc_nip44_encrypt_len(len)
    guard need > 0 else { throw SoftchatError(len == 0 ? SC_ERR_EMPTY : SC_ERR_TOO_LARGE) }
    let mem = CMemory()
    let out = mem.raw(need)
    var n = 0
    try check(call(out.baseAddress!.assumingMemoryBound(to: CChar.self), need, &n))
    return String(decoding: UnsafeRawBufferPointer(rebasing: out[0..<n]), as: UTF8.self)
}

/// A NIP-44 decryption into SecretBytes (the plaintext written only after the MAC passed).
private func nip44Open(_ payload: String, _ call: (UnsafeMutablePointer<UInt8>?, Int, UnsafeMutablePointer<Int>, UnsafePointer<CChar>?, Int) -> sc_status) throws -> SecretBytes {
    var p = Array(payload.utf8)
    defer { p.withUnsafeMutableBytes { sc_mem_wipe($0.baseAddress, $0.count) } }
    return try p.withUnsafeBufferPointer { pb in
        try pb.withMemoryRebound(to: CChar.self) { c in
            // the checks before decoding (version, size cap, length) run on an empty buffer
            var need = 0
            var s = call(nil, 0, &need, c.baseAddress, c.count)
            if s != SC_ERR_BUFFER_TOO_SMALL { throw SoftchatError(s == SC_OK ? SC_ERR_STATE : s) }
            let mem = CMemory()
            let out = mem.raw(need)
            var n = 0
            s = call(out.baseAddress!.assumingMemoryBound(to: UInt8.self), need, &n, c.baseAddress, c.count)
            try check(s)
            return SecretBytes(UnsafeRawBufferPointer(rebasing: out[0..<n]))
        }
    }
}

extension Softchat {
    /// The NIP-44 v2 payload of UTF-8 text from `me` to `peer` (1 to 65535 bytes).
    public func nip44Encrypt(_ text: String, from me: Identity, to peer: PublicKey) throws -> String {
        var b = Array(text.utf8)
        defer { b.withUnsafeMutableBytes { sc_mem_wipe($0.baseAddress, $0.count) } }
        return try nip44Encrypt(bytes: b, from: me, to: peer)
    }

    /// The NIP-44 v2 payload of bytes; `extended` allows 65536 bytes and more (the 6-byte
    /// length prefix, which u16-only decoders cannot read; without it `SC_ERR_POLICY`).
    public func nip44Encrypt(bytes: [UInt8], from me: Identity, to peer: PublicKey, extended: Bool = false) throws -> String {
        try me.use { id in
            try nip44Text(bytes.count) { out, cap, n in
                sc_nip44_encrypt_to(ctx, out, cap, n, id, peer.bytes, bytes, bytes.count, extended ? UInt32(SC_NIP44_EXTENDED) : 0)
            }
        }
    }

    /// Authenticates and decrypts a payload from `peer` to `me`, as UTF-8 text.
    public func nip44Decrypt(_ payload: String, to me: Identity, from peer: PublicKey) throws -> String {
        let b = try nip44DecryptBytes(payload, to: me, from: peer)
        defer { b.wipe() }
        return b.text
    }

    /// Authenticates and decrypts a payload from `peer` to `me`: the plaintext as bytes the
    /// caller can wipe. Failures in the spec's order: `SC_ERR_VERSION`, `SC_ERR_TOO_LARGE`,
    /// `SC_ERR_PAYLOAD_SIZE`, `SC_ERR_BASE64`, `SC_ERR_MAC`, `SC_ERR_PADDING`.
    public func nip44DecryptBytes(_ payload: String, to me: Identity, from peer: PublicKey) throws -> SecretBytes {
        try me.use { id in
            try nip44Open(payload) { out, cap, n, p, len in
                sc_nip44_decrypt_from(ctx, out, cap, n, id, peer.bytes, p, len, limits.maxNip44Payload)
            }
        }
    }

    /// A held conversation between `me` and `peer`: the conversation key derived once.
    public func conversation(_ me: Identity, with peer: PublicKey) throws -> Nip44Conversation {
        try me.use { id in
            try Nip44Conversation { conv in sc_nip44_conversation_init(ctx, conv, id, peer.bytes) }
        }
    }
}

/// The NIP-44 v2 primitives over a conversation key held by the caller: for test vectors and
/// keys kept elsewhere. Apps use identities and `Nip44Conversation`, which keep the key out
/// of Swift memory.
public enum Nip44 {
    /// The padded length of a plaintext of `length` bytes (calc_padded_len of the spec); 0
    /// outside 1...2^32-1.
    public static func paddedLength(_ length: UInt64) -> UInt64 { sc_nip44_padded_len(length) }

    /// conversation_key(secret, peer) (`SC_ERR_INVALID_KEY` for a secret 0 or ≥ n or a peer
    /// not on the curve).
    public static func conversationKey(secret: [UInt8], peer: PublicKey, using sc: Softchat) throws -> SecretBytes {
        guard secret.count == 32 else { throw SoftchatError.arg }
        return try SecretBytes(count: Int(SC_NIP44_KEY_BYTES)) { k in
            try check(sc_nip44_conversation_key(sc.ctx, k.baseAddress!.assumingMemoryBound(to: UInt8.self), secret, peer.bytes))
        }
    }

    /// The payload of bytes under a conversation key with an explicit 32-byte nonce: for
    /// vectors only (a nonce must never be used twice under one key).
    public static func encrypt(bytes: [UInt8], conversationKey: SecretBytes, nonce: [UInt8],
                               using sc: Softchat, extended: Bool = false) throws -> String {
        guard nonce.count == Int(SC_NIP44_NONCE_BYTES) else { throw SoftchatError.arg }
        return try conversationKey.withUnsafeBytes { k in
            guard k.count == Int(SC_NIP44_KEY_BYTES) else { throw SoftchatError.arg }
            return try nip44Text(bytes.count) { out, cap, n in
                sc_nip44_encrypt_with_rand(sc.ctx, out, cap, n, k.baseAddress!.assumingMemoryBound(to: UInt8.self),
                                           nonce, bytes, bytes.count, extended ? UInt32(SC_NIP44_EXTENDED) : 0)
            }
        }
    }

    /// Authenticates and decrypts a payload under a conversation key.
    public static func decrypt(_ payload: String, conversationKey: SecretBytes, using sc: Softchat) throws -> SecretBytes {
        try conversationKey.withUnsafeBytes { k in
            guard k.count == Int(SC_NIP44_KEY_BYTES) else { throw SoftchatError.arg }
            return try nip44Open(payload) { out, cap, n, p, len in
                sc_nip44_decrypt(sc.ctx, out, cap, n, k.baseAddress!.assumingMemoryBound(to: UInt8.self), p, len, sc.limits.maxNip44Payload)
            }
        }
    }
}

/// A held NIP-44 conversation: the conversation key of (my secret, the peer's public key),
/// in memory of its own, for many messages. Read-only after it is made, so `Sendable`: any
/// number of tasks may encrypt and decrypt at once, each with its own context. `erase()`
/// wipes the key (after the calls in flight); later calls throw `SC_ERR_STATE`.
public final class Nip44Conversation: @unchecked Sendable {
    private let lock = ReadWriteLock()
    private var raw: UnsafeMutablePointer<sc_nip44_conversation>?

    init(_ initialise: (UnsafeMutablePointer<sc_nip44_conversation>) -> sc_status) throws {
        let p = UnsafeMutablePointer<sc_nip44_conversation>.allocate(capacity: 1)
        p.initialize(to: sc_nip44_conversation())
        let s = initialise(p)
        if s != SC_OK {
            Nip44Conversation.free(p)
            throw SoftchatError(s)
        }
        raw = p
    }

    /// A conversation over a 32-byte conversation key obtained elsewhere (a vector).
    public convenience init(key: [UInt8]) throws {
        guard key.count == Int(SC_NIP44_KEY_BYTES) else { throw SoftchatError.arg }
        try self.init { sc_nip44_conversation_init_key($0, key) }
    }

    deinit {
        if let raw { Nip44Conversation.free(raw) }
    }

    private static func free(_ p: UnsafeMutablePointer<sc_nip44_conversation>) {
        sc_nip44_conversation_clear(p)
        p.deinitialize(count: 1)
        p.deallocate()
    }

    private func use<T>(_ body: (UnsafePointer<sc_nip44_conversation>) throws -> T) throws -> T {
        try lock.reading {
            guard let raw else { throw SoftchatError.state }
            return try body(raw)
        }
    }

    /// Wipes the key; later calls throw `SC_ERR_STATE`.
    public func erase() {
        lock.writing {
            if let raw { Nip44Conversation.free(raw) }
            raw = nil
        }
    }

    public var isErased: Bool { lock.reading { raw == nil } }

    /// The payload of UTF-8 text.
    public func encrypt(_ text: String, using sc: Softchat) throws -> String {
        var b = Array(text.utf8)
        defer { b.withUnsafeMutableBytes { sc_mem_wipe($0.baseAddress, $0.count) } }
        return try encrypt(bytes: b, using: sc)
    }

    /// The payload of bytes (`extended`: see `Softchat.nip44Encrypt(bytes:from:to:extended:)`).
    public func encrypt(bytes: [UInt8], using sc: Softchat, extended: Bool = false) throws -> String {
        try use { conv in
            try nip44Text(bytes.count) { out, cap, n in
                sc_nip44_conversation_encrypt(sc.ctx, out, cap, n, conv, bytes, bytes.count, extended ? UInt32(SC_NIP44_EXTENDED) : 0)
            }
        }
    }

    /// Authenticates and decrypts a payload, as UTF-8 text.
    public func decrypt(_ payload: String, using sc: Softchat) throws -> String {
        let b = try decryptBytes(payload, using: sc)
        defer { b.wipe() }
        return b.text
    }

    /// Authenticates and decrypts a payload: bytes the caller can wipe.
    public func decryptBytes(_ payload: String, using sc: Softchat) throws -> SecretBytes {
        try use { conv in
            try nip44Open(payload) { out, cap, n, p, len in
                sc_nip44_conversation_decrypt(sc.ctx, out, cap, n, conv, p, len, sc.limits.maxNip44Payload)
            }
        }
    }
}
