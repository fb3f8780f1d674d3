// SecretBytes: private bytes (a key, decrypted text) in memory that wipe() or deinit zeroes.
import CSoftchat

/// Bytes that should not linger: a secret key, an nsec, decrypted text, a file key. They
/// live in one heap block of their own (never copied by Swift's copy-on-write), zeroed by
/// `wipe()` and when the object is freed. Reading them into an Array or String makes a copy
/// that Swift cannot wipe: use `withUnsafeBytes` where that matters. Any number of tasks may
/// read them at once; `wipe()` waits for readers in flight.
public final class SecretBytes: @unchecked Sendable, Equatable {
    private let lock = ReadWriteLock()
    private let block: UnsafeMutableRawBufferPointer
    private var wiped = false

    /// The length in bytes (0 once wiped).
    public var count: Int { lock.reading { wiped ? 0 : block.count } }

    /// A copy of bytes, which the caller then wipes if it can.
    public convenience init<C: Collection>(_ bytes: C) where C.Element == UInt8 {
        self.init(count: bytes.count) { _ = $0.initializeMemory(as: UInt8.self, from: bytes) }
    }

    /// count bytes written by fill.
    init(count: Int, fill: (UnsafeMutableRawBufferPointer) throws -> Void) rethrows {
        let b = UnsafeMutableRawBufferPointer.allocate(byteCount: max(count, 1), alignment: 16)
        b.initializeMemory(as: UInt8.self, repeating: 0)
        let used = UnsafeMutableRawBufferPointer(rebasing: b[0..<count])
        // filled before `block` is set: a throw here leaves the object uninitialised (no
        // deinit), so the block is wiped and freed here, once
        do {
            try fill(used)
        } catch {
            sc_mem_wipe(b.baseAddress, b.count)
            b.deallocate()
            throw error
        }
        block = used
    }

    deinit {
        sc_mem_wipe(block.baseAddress, block.count)
        UnsafeMutableRawBufferPointer(start: block.baseAddress, count: max(block.count, 1)).deallocate()
    }

    /// Reads the bytes in place (an empty buffer once wiped).
    public func withUnsafeBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try lock.reading { try body(wiped ? UnsafeRawBufferPointer(start: nil, count: 0) : UnsafeRawBufferPointer(block)) }
    }

    /// A copy as an Array (which Swift cannot wipe reliably).
    public var bytes: [UInt8] { withUnsafeBytes { Array($0) } }

    /// The bytes as UTF-8 text (a String cannot be wiped).
    public var text: String { withUnsafeBytes { String(decoding: $0, as: UTF8.self) } }

    /// Zeroes the bytes now; afterwards the object reads as empty.
    public func wipe() {
        lock.writing {
            sc_mem_wipe(block.baseAddress, block.count)
            wiped = true
        }
    }

    public var isWiped: Bool { lock.reading { wiped } }

    /// Equal contents, compared in constant time.
    public static func == (a: SecretBytes, b: SecretBytes) -> Bool {
        if a === b { return true }
        return a.withUnsafeBytes { x in
            b.withUnsafeBytes { y in
                x.count == y.count && sc_mem_ct_compare(x.baseAddress, y.baseAddress, x.count) == 0
            }
        }
    }
}
