// Softchat: one libsoftchat context (one backend), used by one task at a time.
import CSoftchat

/// A libsoftchat context: one crypto backend and its per-context state. Every operation that
/// computes runs through a context (`try sc.sign(...)`, `try sc.nip44Encrypt(...)`).
///
/// A context serves one thread at a time (api/softchat/ctx.h), so `Softchat` is deliberately
/// not `Sendable`: the compiler keeps each context inside the task that made it. Make one per
/// task (about 100 µs; they are independent) and share the `Sendable` values between tasks:
/// identities, conversations, keys, events. The calls are short, CPU-bound and synchronous;
/// none is `async`.
public final class Softchat {
    let ctx: UnsafeMutablePointer<sc_ctx>
    /// The caps applied before anything is allocated for an input.
    public let limits: Limits

    /// Caps on what the context accepts from outside, checked before any memory is sized
    /// for the input (`SC_ERR_TOO_LARGE`).
    public struct Limits: Sendable {
        /// The largest event JSON `parseEvent` reads, in bytes.
        public var maxEventBytes: Int
        /// The largest gift wrap JSON `unwrap` and `receive` read, in bytes.
        public var maxWrapBytes: Int
        /// The longest NIP-44 payload decrypted, in characters (0: the library's 1 MiB).
        public var maxNip44Payload: Int
        /// The most plaintext an attachment decryption holds back until its tag verifies.
        public var maxAttachmentBytes: Int

        public init(maxEventBytes: Int = 1 << 20, maxWrapBytes: Int = 1 << 20,
                    maxNip44Payload: Int = 0, maxAttachmentBytes: Int = 64 << 20) {
            self.maxEventBytes = maxEventBytes
            self.maxWrapBytes = maxWrapBytes
            self.maxNip44Payload = maxNip44Payload
            self.maxAttachmentBytes = maxAttachmentBytes
        }
    }

    /// A context on the named backend ("openssl", "mbedtls", ...; nil: the default).
    /// Throws `SC_ERR_NOT_FOUND` for a backend not compiled in.
    public init(backend: String? = nil, limits: Limits = Limits()) throws {
        var p: UnsafeMutablePointer<sc_ctx>? = nil
        let s: sc_status
        if let backend {
            s = backend.withCString { sc_ctx_new(&p, $0) }
        } else {
            s = sc_ctx_new(&p, nil)
        }
        try check(s)
        guard let p else { throw SoftchatError.state }
        ctx = p
        self.limits = limits
    }

    deinit {
        sc_ctx_free(ctx)
    }

    /// The name of the bound backend.
    public var backend: String {
        guard let b = sc_ctx_backend(ctx) else { return "" }
        return String(cString: b.pointee.name)
    }

    /// libsoftchat's version, e.g. "1.1.0".
    public static var version: String { String(cString: sc_version()) }

    /// The backends compiled into the library, the default first.
    public static var backends: [String] {
        (0..<sc_backend_count()).compactMap { i in sc_backend_at(i).map { String(cString: $0.pointee.name) } }
    }

    /// The status name of a numeric status, e.g. "SC_ERR_MAC".
    public static func statusName(_ status: Int32) -> String {
        String(cString: sc_status_name(sc_status(rawValue: status)))
    }
}

@available(*, unavailable, message: "a context serves one task at a time: make one per task")
extension Softchat: Sendable {}
