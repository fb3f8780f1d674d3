// Shared helpers of the SoftchatKit tests: the repository's vector files, hex, status checks.
import CSoftchat
import Foundation
import SoftchatKit
import XCTest

enum TestData {
    /// vectors/ at the top of the repository.
    static let vectors = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("vectors")

    static func json(_ name: String) throws -> [String: Any] {
        let d = try Data(contentsOf: vectors.appendingPathComponent(name))
        return try XCTUnwrap(JSONSerialization.jsonObject(with: d) as? [String: Any])
    }

    static func lines(_ name: String) throws -> [String] {
        try String(contentsOf: vectors.appendingPathComponent(name), encoding: .utf8)
            .split(whereSeparator: \.isNewline).map(String.init)
    }

    static func hex(_ s: String) -> [UInt8] {
        var out: [UInt8] = []
        var it = s.utf8.makeIterator()
        while let a = it.next(), let b = it.next() {
            out.append(UInt8(String(decoding: [a, b], as: UTF8.self), radix: 16)!)
        }
        return out
    }

    static func hexString(_ b: [UInt8]) -> String { b.map { String(format: "%02x", $0) }.joined() }

    /// SHA-256 by the library's hash (the vectors give long payloads as hashes).
    static func sha256(_ b: [UInt8]) -> String {
        var ctx: UnsafeMutablePointer<sc_ctx>? = nil
        precondition(sc_ctx_new(&ctx, nil) == SC_OK)
        defer { sc_ctx_free(ctx) }
        var out = [UInt8](repeating: 0, count: 32)
        precondition(sc_crypto_sha256(ctx!, &out, b, b.count) == SC_OK)
        return hexString(out)
    }
}

/// Asserts that body throws the SoftchatError named `name` (e.g. "SC_ERR_MAC").
func expectStatus<T>(_ name: String, _ what: @autoclosure () -> String = "",
                     file: StaticString = #filePath, line: UInt = #line, _ body: () throws -> T) {
    do {
        _ = try body()
        XCTFail("expected \(name), got success \(what())", file: file, line: line)
    } catch let e as SoftchatError {
        XCTAssertEqual(e.name, name, what(), file: file, line: line)
    } catch {
        XCTFail("expected SoftchatError \(name), got \(error) \(what())", file: file, line: line)
    }
}

/// Asserts that body throws some SoftchatError (and nothing else); returns its name.
@discardableResult
func expectSoftchatError<T>(_ what: @autoclosure () -> String = "", file: StaticString = #filePath, line: UInt = #line,
                            _ body: () throws -> T) -> String? {
    do {
        _ = try body()
        XCTFail("expected a SoftchatError, got success \(what())", file: file, line: line)
    } catch let e as SoftchatError {
        return e.name
    } catch {
        XCTFail("expected a SoftchatError, got \(error) \(what())", file: file, line: line)
    }
    return nil
}
