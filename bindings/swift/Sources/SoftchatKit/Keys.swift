// PublicKey and EventId: typed 32-byte values with their hex and NIP-19 forms.
import CSoftchat

/// Lowercase hex of bytes (the library's encoder).
func hexString(_ bytes: [UInt8]) -> String {
    var out = [CChar](repeating: 0, count: bytes.count * 2)
    var len = 0
    let s = out.withUnsafeMutableBufferPointer { o in
        sc_hex_encode(o.baseAddress, o.count, &len, bytes, bytes.count)
    }
    precondition(s == SC_OK && len == out.count, "sc_hex_encode into an exact buffer")
    return String(decoding: out.map { UInt8(bitPattern: $0) }, as: UTF8.self)
}

/// Exactly n bytes from 2n hex characters (either case).
func hexBytes(_ hex: String, count n: Int) throws -> [UInt8] {
    var out = [UInt8](repeating: 0, count: n)
    let h = Array(hex.utf8)
    let s = h.withUnsafeBufferPointer { hp in
        hp.withMemoryRebound(to: CChar.self) { c in
            sc_hex_decode_fixed(&out, n, c.baseAddress, c.count, UInt32(SC_HEX_ANY_CASE))
        }
    }
    try check(s)
    return out
}

/// A 32-byte value with a length check.
func fixed32<C: Collection>(_ bytes: C) throws -> [UInt8] where C.Element == UInt8 {
    guard bytes.count == 32 else { throw SoftchatError.arg }
    return Array(bytes)
}

/// A BIP-340 x-only public key (32 bytes). Whether it lies on the curve is checked where it
/// is used (`SC_ERR_INVALID_KEY`).
public struct PublicKey: Sendable, Hashable, CustomStringConvertible {
    /// The 32 bytes.
    public let bytes: [UInt8]

    /// From 32 bytes (`SC_ERR_ARG` for another length).
    public init<C: Collection>(_ bytes: C) throws where C.Element == UInt8 {
        self.bytes = try fixed32(bytes)
    }

    /// From 64 hex characters, either case (`SC_ERR_ENCODING` otherwise).
    public init(hex: String) throws {
        bytes = try hexBytes(hex, count: 32)
    }

    /// From an npub (`SC_ERR_BECH32`, `SC_ERR_TLV`; another entity is `SC_ERR_ARG`).
    public init(npub: String) throws {
        guard case .npub(let k) = try Nip19.decode(npub) else { throw SoftchatError.arg }
        self = k
    }

    /// Lowercase hex, as in events.
    public var hex: String { hexString(bytes) }

    /// The NIP-19 npub.
    public var npub: String { (try? Nip19.encode(.npub(self))) ?? "" }

    public var description: String { hex }
}

/// A NIP-01 event id (32 bytes: the SHA-256 of the event's canonical serialisation).
public struct EventId: Sendable, Hashable, CustomStringConvertible {
    /// The 32 bytes.
    public let bytes: [UInt8]

    /// From 32 bytes (`SC_ERR_ARG` for another length).
    public init<C: Collection>(_ bytes: C) throws where C.Element == UInt8 {
        self.bytes = try fixed32(bytes)
    }

    /// From 64 hex characters, either case (`SC_ERR_ENCODING` otherwise).
    public init(hex: String) throws {
        bytes = try hexBytes(hex, count: 32)
    }

    /// Lowercase hex, as in events.
    public var hex: String { hexString(bytes) }

    /// The NIP-19 note.
    public var note: String { (try? Nip19.encode(.note(self))) ?? "" }

    public var description: String { hex }
}
