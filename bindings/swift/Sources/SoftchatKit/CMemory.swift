// CMemory: the memory a call lends to C (strings, tag arrays, arenas), wiped and freed with it.
import CSoftchat

/// Blocks of memory handed to one or a few library calls: copies of Swift strings and bytes
/// as sc_str views, sc_tag and sc_str arrays, arenas and output buffers. Every block is wiped
/// before it is freed, so private text copied in (a message, a rumor) does not outlive the
/// call in freed memory. Not shared: one owner, one task.
final class CMemory {
    private var blocks: [UnsafeMutableRawBufferPointer] = []

    init() {}

    deinit {
        for b in blocks {
            sc_mem_wipe(b.baseAddress, b.count)
            b.deallocate()
        }
    }

    /// count zero-filled bytes (at least 1, so the pointer is never NULL), 16-byte aligned.
    func raw(_ count: Int) -> UnsafeMutableRawBufferPointer {
        let b = UnsafeMutableRawBufferPointer.allocate(byteCount: max(count, 1), alignment: 16)
        b.initializeMemory(as: UInt8.self, repeating: 0)
        blocks.append(b)
        return UnsafeMutableRawBufferPointer(rebasing: b[0..<count])
    }

    /// A copy of bytes as an sc_str (NULL and 0 when empty, the library's "absent").
    func str<C: Collection>(_ bytes: C) -> sc_str where C.Element == UInt8 {
        if bytes.isEmpty { return sc_str(ptr: nil, len: 0) }
        let b = raw(bytes.count)
        _ = b.initializeMemory(as: UInt8.self, from: bytes)
        return sc_str(ptr: b.baseAddress!.assumingMemoryBound(to: CChar.self), len: bytes.count)
    }

    /// A copy of s as UTF-8.
    func str(_ s: String) -> sc_str { str(Array(s.utf8)) }

    /// A copy of s that is present even when empty (a non-NULL pointer with length 0).
    func presentStr(_ s: String) -> sc_str {
        let u = Array(s.utf8)
        let b = raw(u.count)
        _ = b.initializeMemory(as: UInt8.self, from: u)
        return sc_str(ptr: b.baseAddress!.assumingMemoryBound(to: CChar.self), len: u.count)
    }

    /// An array of count values of T, each initialised to value.
    func array<T>(_ value: T, count: Int) -> UnsafeMutablePointer<T> {
        let b = raw(MemoryLayout<T>.stride * max(count, 1))
        let p = b.baseAddress!.bindMemory(to: T.self, capacity: max(count, 1))
        p.initialize(repeating: value, count: max(count, 1))
        return p
    }

    /// tags as an sc_tag array (NULL and 0 when there are none).
    func tags(_ tags: [[String]]) -> (UnsafePointer<sc_tag>?, Int) {
        if tags.isEmpty { return (nil, 0) }
        let out = array(sc_tag(items: nil, n_items: 0), count: tags.count)
        for (i, tag) in tags.enumerated() {
            let items = array(sc_str(ptr: nil, len: 0), count: tag.count)
            for (j, item) in tag.enumerated() { items[j] = presentStr(item) }
            out[i] = sc_tag(items: tag.isEmpty ? nil : UnsafePointer(items), n_items: tag.count)
        }
        return (UnsafePointer(out), tags.count)
    }
}

/// The text of an sc_str view (invalid UTF-8 becomes U+FFFD; the library has checked it).
func string(_ s: sc_str) -> String {
    guard let p = s.ptr, s.len > 0 else { return "" }
    return String(decoding: UnsafeRawBufferPointer(start: p, count: s.len), as: UTF8.self)
}

/// The bytes of an sc_str view.
func bytes(_ s: sc_str) -> [UInt8] {
    guard let p = s.ptr, s.len > 0 else { return [] }
    return Array(UnsafeRawBufferPointer(start: p, count: s.len))
}

/// The tags of an event as Swift strings.
func readTags(_ ev: sc_event) -> [[String]] {
    guard let t = ev.tags else { return [] }
    return (0..<ev.n_tags).map { i in
        let tag = t[i]
        return (0..<tag.n_items).map { j in string(tag.items[j]) }
    }
}

/// The bytes of a fixed-size C array (a tuple imported from C).
func tupleBytes<T>(_ value: T) -> [UInt8] {
    withUnsafeBytes(of: value) { Array($0) }
}

/// Copies bytes into a fixed-size C array (a tuple imported from C) of the same size (the
/// callers have checked the length).
func setTuple<T>(_ value: inout T, _ bytes: [UInt8]) {
    bytes.withUnsafeBytes { setTuple(&value, raw: $0) }
}

/// As setTuple, from memory that is not an Array (a secret's own block).
func setTuple<T>(_ value: inout T, raw bytes: UnsafeRawBufferPointer) {
    withUnsafeMutableBytes(of: &value) { dst in
        precondition(dst.count == bytes.count, "a fixed-size field of the wrong length")
        dst.copyMemory(from: bytes)
    }
}

/// A call that fills a text buffer: asks for the size, then writes (rule 4 of common.h).
func readText(_ call: (UnsafeMutablePointer<CChar>?, Int, UnsafeMutablePointer<Int>) -> sc_status) throws -> String {
    var need = 0
    let s = call(nil, 0, &need)
    if s == SC_OK { return "" }
    if s != SC_ERR_BUFFER_TOO_SMALL { throw SoftchatError(s) }
    let mem = CMemory()
    let buf = mem.raw(need)
    var len = 0
    try check(call(buf.baseAddress!.assumingMemoryBound(to: CChar.self), need, &len))
    return String(decoding: UnsafeRawBufferPointer(rebasing: buf[0..<len]), as: UTF8.self)
}
