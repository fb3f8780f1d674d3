// Attachments over FileHandles and AsyncSequences: round trips, tampering, caps, failing streams.
import Foundation
import SoftchatKit
import XCTest

/// Temporary files as the FileHandles of one call: input holds `data`, output is read back.
enum Pipe {
    static func run<T>(_ data: Data, _ body: (FileHandle, FileHandle) throws -> T) throws -> (result: T, output: Data) {
        let dir = FileManager.default.temporaryDirectory
        let inURL = dir.appendingPathComponent("softchatkit-in-\(UUID().uuidString)")
        let outURL = dir.appendingPathComponent("softchatkit-out-\(UUID().uuidString)")
        defer {
            try? FileManager.default.removeItem(at: inURL)
            try? FileManager.default.removeItem(at: outURL)
        }
        try data.write(to: inURL)
        guard FileManager.default.createFile(atPath: outURL.path, contents: nil) else { throw CocoaError(.fileWriteUnknown) }
        let input = try FileHandle(forReadingFrom: inURL)
        let output = try FileHandle(forWritingTo: outURL)
        let r: T
        do {
            defer {
                try? input.close()
                try? output.close()
            }
            r = try body(input, output)
        }
        return (r, try Data(contentsOf: outURL))
    }
}

/// An AsyncSequence of chunks of data (a download or a picker's stream).
struct Chunks: AsyncSequence, Sendable {
    typealias Element = [UInt8]
    let data: [UInt8]
    let size: Int
    var failAt: Int? = nil

    struct SourceFailed: Error {}

    struct AsyncIterator: AsyncIteratorProtocol {
        let c: Chunks
        var o = 0
        mutating func next() async throws -> [UInt8]? {
            if let f = c.failAt, o >= f { throw SourceFailed() }
            guard o < c.data.count else { return nil }
            let end = Swift.min(o + c.size, c.data.count)
            defer { o = end }
            return Array(c.data[o..<end])
        }
    }

    func makeAsyncIterator() -> AsyncIterator { AsyncIterator(c: self) }
}

final class AttachmentTests: XCTestCase {
    func testFileHandleRoundTripAndTampering() throws {
        let sc = try Softchat()
        let plain = Data((0..<150_001).map { UInt8(truncatingIfNeeded: $0 * 31) })
        let (enc, blob) = try Pipe.run(plain) { try sc.encryptAttachment(from: $0, to: $1) }
        XCTAssertEqual(blob.count, plain.count + 16)
        XCTAssertEqual(enc.iv.count, 16)
        XCTAssertEqual(TestData.sha256(Array(blob)), TestData.hexString(enc.x))
        XCTAssertEqual(TestData.sha256(Array(plain)), TestData.hexString(enc.ox))
        let (dec, out) = try Pipe.run(blob) { try sc.decryptAttachment(from: $0, to: $1, key: enc.key, iv: enc.iv) }
        XCTAssertEqual(out, plain)
        XCTAssertEqual(dec.x, enc.x)
        XCTAssertEqual(dec.size, UInt64(plain.count))
        // a flipped bit anywhere (first byte, middle, tag): SC_ERR_AUTH and nothing written
        for i in [0, blob.count / 2, blob.count - 1] {
            var bad = blob
            bad[i] ^= 0x01
            let (status, written) = try Pipe.run(bad) { input, output -> String? in
                expectSoftchatError("byte \(i)") { try sc.decryptAttachment(from: input, to: output, key: enc.key, iv: enc.iv) }
            }
            XCTAssertEqual(status, "SC_ERR_AUTH", "byte \(i)")
            XCTAssertEqual(written, Data(), "byte \(i): nothing written")
        }
        // the plaintext cap, before the tag
        let small = try Softchat(limits: .init(maxAttachmentBytes: 1000))
        expectStatus("SC_ERR_TOO_LARGE") { try Pipe.run(blob) { try small.decryptAttachment(from: $0, to: $1, key: enc.key, iv: enc.iv) } }
        expectStatus("SC_ERR_ARG") { try Pipe.run(blob) { try sc.decryptAttachment(from: $0, to: $1, key: enc.key, iv: [1, 2, 3]) } }
        // a stream that fails (writing to a handle opened for reading): SC_ERR_IO
        expectStatus("SC_ERR_IO") { try Pipe.run(plain) { input, _ in try sc.encryptAttachment(from: input, to: input) } }
    }

    func testAsyncSequenceRoundTrip() async throws {
        let sc = try Softchat()
        let plain = (0..<300_000).map { UInt8(truncatingIfNeeded: $0 ^ ($0 >> 8)) }
        var blob = Data()
        let enc = try await sc.encryptAttachment(Chunks(data: plain, size: 70_001)) { blob.append($0) }
        XCTAssertEqual(blob.count, plain.count + 16)
        var out = Data()
        let dec = try await sc.decryptAttachment(Chunks(data: Array(blob), size: 4097), key: enc.key, iv: enc.iv) { out.append($0) }
        XCTAssertEqual(Array(out), plain)
        XCTAssertEqual(dec.ox, enc.ox)
        // a failing source ends the decryption with its error and delivers nothing
        var delivered = 0
        do {
            _ = try await sc.decryptAttachment(Chunks(data: Array(blob), size: 4097, failAt: 8194), key: enc.key, iv: enc.iv) { delivered += $0.count }
            XCTFail("the source failed")
        } catch is Chunks.SourceFailed {}
        XCTAssertEqual(delivered, 0)
        // the context serves the next stream
        var tampered = Array(blob)
        tampered[10] ^= 0x80
        do {
            _ = try await sc.decryptAttachment(Chunks(data: tampered, size: 1000), key: enc.key, iv: enc.iv) { delivered += $0.count }
            XCTFail("tampered")
        } catch let e as SoftchatError {
            XCTAssertEqual(e.name, "SC_ERR_AUTH")
        }
        XCTAssertEqual(delivered, 0)
    }
}
