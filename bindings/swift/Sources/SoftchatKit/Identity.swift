// Identity: a secret key in native memory, its cached public key, wiped by erase() and deinit.
import CSoftchat

/// A Nostr identity: a secp256k1 secret key held in memory of its own (never in a Swift
/// array after import) with its x-only public key, computed once at import.
///
/// Read-only after import, so `Sendable`: any number of tasks may use it at once, each with
/// its own `Softchat` context (api/softchat/identity.h). `erase()` wipes the key and frees it
/// once the calls in flight return; every later use throws `SC_ERR_STATE`. An identity never
/// erased is wiped when it is freed.
public final class Identity: @unchecked Sendable {
    private let lock = ReadWriteLock()
    private var raw: UnsafeMutablePointer<sc_identity>?
    /// Set by erase(); the key is freed then, or by the last release() of a hold.
    private var erased = false
    private var holds = 0

    /// The x-only public key (cached at import; still readable after erase()).
    public let publicKey: PublicKey

    fileprivate init(raw: UnsafeMutablePointer<sc_identity>) throws {
        var pub = [UInt8](repeating: 0, count: 32)
        let s = sc_identity_pubkey(&pub, raw)
        if s != SC_OK {
            Identity.free(raw)
            throw SoftchatError(s)
        }
        self.raw = raw
        publicKey = try PublicKey(pub)
    }

    deinit {
        if let raw { Identity.free(raw) }
    }

    private static func allocate() -> UnsafeMutablePointer<sc_identity> {
        let p = UnsafeMutablePointer<sc_identity>.allocate(capacity: 1)
        p.initialize(to: sc_identity())
        return p
    }

    private static func free(_ p: UnsafeMutablePointer<sc_identity>) {
        sc_identity_clear(p)
        p.deinitialize(count: 1)
        p.deallocate()
    }

    /// Runs body with the native identity, or throws SC_ERR_STATE once erased.
    func use<T>(_ body: (UnsafePointer<sc_identity>) throws -> T) throws -> T {
        try lock.reading {
            guard let raw, !erased else { throw SoftchatError.state }
            return try body(raw)
        }
    }

    /// The native identity held for a long user (a relay client's AUTH, which the pool
    /// references while set): it stays valid until release(); an erase() meanwhile makes
    /// every other use throw and frees the key at the last release(). Throws SC_ERR_STATE
    /// once erased.
    func hold() throws -> UnsafePointer<sc_identity> {
        try lock.writing {
            guard let raw, !erased else { throw SoftchatError.state }
            holds += 1
            return UnsafePointer(raw)
        }
    }

    /// Ends a hold() (the pointer it returned is not used after this).
    func release() {
        lock.writing {
            holds -= 1
            if holds == 0, erased, let raw {
                Identity.free(raw)
                self.raw = nil
            }
        }
    }

    /// Wipes the secret key; calls in flight finish first, later ones throw `SC_ERR_STATE`.
    /// A relay client authenticating with it (`RelayClient.authenticate(as:)`) holds it:
    /// the key is wiped once that client lets it go.
    public func erase() {
        lock.writing {
            erased = true
            if holds == 0, let raw {
                Identity.free(raw)
                self.raw = nil
            }
        }
    }

    /// Whether erase() has run.
    public var isErased: Bool { lock.reading { erased } }

    /// The 32-byte secret key, for a backup (or `Nip19.nsec(of:)` for display).
    public func exportSecret() throws -> SecretBytes {
        try use { id in
            try SecretBytes(count: 32) { out in
                try check(sc_identity_seckey(out.baseAddress!.assumingMemoryBound(to: UInt8.self), id))
            }
        }
    }

    static func imported(_ ctx: UnsafeMutablePointer<sc_ctx>, _ secret: UnsafeRawBufferPointer) throws -> Identity {
        guard secret.count == 32, let base = secret.baseAddress else { throw SoftchatError.arg }
        let p = allocate()
        let s = sc_identity_import(ctx, p, base.assumingMemoryBound(to: UInt8.self))
        if s != SC_OK {
            free(p)
            throw SoftchatError(s)
        }
        return try Identity(raw: p)
    }

    static func generated(_ ctx: UnsafeMutablePointer<sc_ctx>) throws -> Identity {
        let p = allocate()
        let s = sc_identity_generate(ctx, p)
        if s != SC_OK {
            free(p)
            throw SoftchatError(s)
        }
        return try Identity(raw: p)
    }
}

extension Softchat {
    /// Imports a 32-byte secret key (`SC_ERR_INVALID_KEY` for 0 or ≥ n, `SC_ERR_ARG` for
    /// another length). The key is copied; the caller wipes its own copy.
    public func importIdentity(_ secret: [UInt8]) throws -> Identity {
        try secret.withUnsafeBytes { try Identity.imported(ctx, $0) }
    }

    /// Imports a secret key held as `SecretBytes`.
    public func importIdentity(_ secret: SecretBytes) throws -> Identity {
        try secret.withUnsafeBytes { try Identity.imported(ctx, $0) }
    }

    /// Imports an nsec (NIP-19; `SC_ERR_BECH32`, another entity `SC_ERR_ARG`).
    public func importIdentity(nsec: String) throws -> Identity {
        guard case .nsec(let secret) = try Nip19.decode(nsec) else { throw SoftchatError.arg }
        defer { secret.wipe() }
        return try importIdentity(secret)
    }

    /// A new identity from the context's random generator.
    public func generateIdentity() throws -> Identity {
        try Identity.generated(ctx)
    }
}
