// Attachments: AES-256-GCM blobs of kind 15 messages, streamed from FileHandles or AsyncSequences.
import CSoftchat
import Foundation

/// An encrypted attachment: its key and IV (a fresh pair for every file), and what the kind
/// 15 message carries about the blob (x = SHA-256 of the blob, ox = of the plaintext, size =
/// bytes of the blob).
public struct EncryptedAttachment: Sendable {
    public let key: SecretBytes
    public let iv: [UInt8]
    public let x: [UInt8]
    public let ox: [UInt8]
    public let size: UInt64
}

/// A decrypted attachment: the blob's and the plaintext's SHA-256 and the plaintext's size.
public struct DecryptedAttachment: Sendable {
    public let x: [UInt8]
    public let ox: [UInt8]
    public let size: UInt64
}

/// Bytes of one read or write of an attachment stream.
let attachmentChunk = 64 * 1024

/// One streaming encryption on a context (sc_file_enc), aborted and wiped unless finished.
final class AttachmentEncryptor {
    private let state = UnsafeMutablePointer<sc_file_enc>.allocate(capacity: 1)
    private let key: SecretBytes
    private let iv: [UInt8]
    private let out: UnsafeMutableRawBufferPointer

    init(_ sc: Softchat) throws {
        state.initialize(to: sc_file_enc())
        out = UnsafeMutableRawBufferPointer.allocate(byteCount: attachmentChunk + Int(SC_FILE_FINAL_BYTES), alignment: 16)
        var iv = [UInt8](repeating: 0, count: Int(SC_FILE_IV_BYTES))
        var s = SC_OK
        key = SecretBytes(count: Int(SC_FILE_KEY_BYTES)) { k in
            s = sc_file_keygen(sc.ctx, k.baseAddress!.assumingMemoryBound(to: UInt8.self), &iv)
        }
        self.iv = iv
        if s == SC_OK {
            s = key.withUnsafeBytes { k in
                sc_file_encrypt_init(sc.ctx, state, k.baseAddress!.assumingMemoryBound(to: UInt8.self), iv, iv.count)
            }
        }
        try check(s)
    }

    deinit {
        sc_file_encrypt_abort(state)
        state.deinitialize(count: 1)
        state.deallocate()
        sc_mem_wipe(out.baseAddress, out.count)
        out.deallocate()
    }

    /// The ciphertext of the next plaintext bytes (at most attachmentChunk at a time).
    func update(_ chunk: UnsafeRawBufferPointer) throws -> Data {
        var n = 0
        try check(sc_file_encrypt_update(state, out.baseAddress!.assumingMemoryBound(to: UInt8.self), out.count, &n,
                                         chunk.baseAddress?.assumingMemoryBound(to: UInt8.self), chunk.count))
        return Data(UnsafeRawBufferPointer(rebasing: out[0..<n]))
    }

    /// The last ciphertext bytes and the tag, and the attachment's parameters.
    func finish() throws -> (Data, EncryptedAttachment) {
        var n = 0
        var x = [UInt8](repeating: 0, count: 32)
        var ox = [UInt8](repeating: 0, count: 32)
        var size: UInt64 = 0
        try check(sc_file_encrypt_final(state, out.baseAddress!.assumingMemoryBound(to: UInt8.self), out.count, &n,
                                        &x, &ox, &size))
        return (Data(UnsafeRawBufferPointer(rebasing: out[0..<n])),
                EncryptedAttachment(key: key, iv: iv, x: x, ox: ox, size: size))
    }
}

/// The plaintext a decryption holds back until the tag verifies: grown by copy-and-wipe up
/// to a cap, wiped when discarded or delivered.
final class HeldPlaintext {
    private var buf = UnsafeMutableRawBufferPointer(start: nil, count: 0)
    private(set) var count = 0
    private let cap: Int
    var committed = false

    init(cap: Int) { self.cap = cap }

    deinit { wipe() }

    func append(_ data: UnsafePointer<UInt8>?, _ len: Int) -> sc_status {
        guard len > 0, let data else { return SC_OK }
        guard len <= cap - count else { return SC_ERR_TOO_LARGE }
        if count + len > buf.count {
            let grown = UnsafeMutableRawBufferPointer.allocate(byteCount: min(max(buf.count * 2, count + len, 64 * 1024), cap),
                                                               alignment: 16)
            if count > 0 { grown.copyMemory(from: UnsafeRawBufferPointer(rebasing: buf[0..<count])) }
            sc_mem_wipe(buf.baseAddress, buf.count)
            buf.deallocate()
            buf = grown
        }
        (buf.baseAddress! + count).copyMemory(from: data, byteCount: len)
        count += len
        return SC_OK
    }

    /// The held bytes, in chunks.
    func chunks() -> [UnsafeRawBufferPointer] {
        stride(from: 0, to: count, by: attachmentChunk).map { o in
            UnsafeRawBufferPointer(rebasing: buf[o..<min(o + attachmentChunk, count)])
        }
    }

    func wipe() {
        sc_mem_wipe(buf.baseAddress, buf.count)
        buf.deallocate()
        buf = UnsafeMutableRawBufferPointer(start: nil, count: 0)
        count = 0
    }
}

/// One streaming decryption on a context (sc_file_dec) into held plaintext.
final class AttachmentDecryptor {
    private let state = UnsafeMutablePointer<sc_file_dec>.allocate(capacity: 1)
    let held: HeldPlaintext
    private var finished = false

    init(_ sc: Softchat, key: SecretBytes, iv: [UInt8]) throws {
        state.initialize(to: sc_file_dec())
        held = HeldPlaintext(cap: sc.limits.maxAttachmentBytes)
        var sink = sc_file_sink()
        sink.user = Unmanaged.passUnretained(held).toOpaque()
        sink.write = { user, data, len in
            Unmanaged<HeldPlaintext>.fromOpaque(user!).takeUnretainedValue().append(data, len)
        }
        sink.commit = { user in
            Unmanaged<HeldPlaintext>.fromOpaque(user!).takeUnretainedValue().committed = true
            return SC_OK
        }
        sink.discard = { user in
            Unmanaged<HeldPlaintext>.fromOpaque(user!).takeUnretainedValue().wipe()
        }
        let s = try key.withUnsafeBytes { k -> sc_status in
            guard k.count == Int(SC_FILE_KEY_BYTES) else { throw SoftchatError.arg }
            return sc_file_decrypt_init(sc.ctx, state, k.baseAddress!.assumingMemoryBound(to: UInt8.self), iv, iv.count, &sink)
        }
        try check(s)
    }

    deinit {
        if !finished { sc_file_decrypt_abort(state) }
        state.deinitialize(count: 1)
        state.deallocate()
    }

    func update(_ chunk: UnsafeRawBufferPointer) throws {
        let s = sc_file_decrypt_update(state, chunk.baseAddress?.assumingMemoryBound(to: UInt8.self), chunk.count)
        if s != SC_OK { finished = true }
        try check(s)
    }

    func finish() throws -> DecryptedAttachment {
        var x = [UInt8](repeating: 0, count: 32)
        var ox = [UInt8](repeating: 0, count: 32)
        finished = true
        try check(sc_file_decrypt_final(state, &x, &ox))
        guard held.committed else { throw SoftchatError.state }
        return DecryptedAttachment(x: x, ox: ox, size: UInt64(held.count))
    }
}

/// Reads up to a chunk from a FileHandle (nil at the end), as SC_ERR_IO on failure.
private func readChunk(_ h: FileHandle) throws -> Data? {
    do {
        let d = try h.read(upToCount: attachmentChunk)
        return (d?.isEmpty ?? true) ? nil : d
    } catch {
        throw SoftchatError(SC_ERR_IO, detail: "\(error)")
    }
}

private func writeAll(_ h: FileHandle, _ d: Data) throws {
    do {
        try h.write(contentsOf: d)
    } catch {
        throw SoftchatError(SC_ERR_IO, detail: "\(error)")
    }
}

extension Softchat {
    /// Encrypts everything `input` holds into `output` under a fresh key and IV (blocking
    /// reads and writes, 64 KiB at a time). Stream failures are `SC_ERR_IO`.
    public func encryptAttachment(from input: FileHandle, to output: FileHandle) throws -> EncryptedAttachment {
        let enc = try AttachmentEncryptor(self)
        while var chunk = try readChunk(input) {
            defer { chunk.resetBytes(in: 0..<chunk.count) }
            try writeAll(output, try chunk.withUnsafeBytes { try enc.update($0) })
        }
        let (tail, a) = try enc.finish()
        try writeAll(output, tail)
        return a
    }

    /// Decrypts the blob `input` holds and writes the plaintext to `output` only once the
    /// tag has verified (`SC_ERR_AUTH` writes nothing). The plaintext is held in memory
    /// meanwhile, at most `limits.maxAttachmentBytes` (over it: `SC_ERR_TOO_LARGE`).
    public func decryptAttachment(from input: FileHandle, to output: FileHandle, key: SecretBytes,
                                  iv: [UInt8]) throws -> DecryptedAttachment {
        let dec = try AttachmentDecryptor(self, key: key, iv: iv)
        while let chunk = try readChunk(input) {
            try chunk.withUnsafeBytes { try dec.update($0) }
        }
        let result = try dec.finish()
        defer { dec.held.wipe() }
        for c in dec.held.chunks() { try writeAll(output, Data(c)) }
        return result
    }

    /// Encrypts a stream of plaintext chunks under a fresh key and IV, handing each piece of
    /// ciphertext to `sink` as it is made (an upload). Async because the source and the sink
    /// wait; the encryption itself runs in the calling task. Failures of either are rethrown.
    public func encryptAttachment<S: AsyncSequence>(
        _ source: S, to sink: (Data) async throws -> Void
    ) async throws -> EncryptedAttachment where S.Element: Sequence, S.Element.Element == UInt8 {
        let enc = try AttachmentEncryptor(self)
        for try await piece in source {
            var bytes = Array(piece)
            defer { bytes.withUnsafeMutableBytes { sc_mem_wipe($0.baseAddress, $0.count) } }
            var o = 0
            while o < bytes.count {
                let end = min(o + attachmentChunk, bytes.count)
                let c = try bytes.withUnsafeBytes { try enc.update(UnsafeRawBufferPointer(rebasing: $0[o..<end])) }
                try await sink(c)
                o = end
            }
        }
        let (tail, a) = try enc.finish()
        try await sink(tail)
        return a
    }

    /// Decrypts a stream of blob chunks (a download) and hands the plaintext to `sink` only
    /// once the tag has verified, in 64 KiB pieces; as the FileHandle form otherwise.
    public func decryptAttachment<S: AsyncSequence>(
        _ source: S, key: SecretBytes, iv: [UInt8], to sink: (Data) async throws -> Void
    ) async throws -> DecryptedAttachment where S.Element: Sequence, S.Element.Element == UInt8 {
        let dec = try AttachmentDecryptor(self, key: key, iv: iv)
        for try await piece in source {
            let bytes = Array(piece)
            try bytes.withUnsafeBytes { try dec.update($0) }
        }
        let result = try dec.finish()
        defer { dec.held.wipe() }
        for c in dec.held.chunks() { try await sink(Data(c)) }
        return result
    }
}
