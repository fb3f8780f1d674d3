// The relay client: a NIP-17 message through the pool and a real relay on loopback (the
// stage starts nostr-relay), and through an in-memory relay behind the transport hook.
import Foundation
import SoftchatKit
import XCTest

/// A relay in memory behind the transport hook: stores EVENTs (answering OK), answers REQ
/// with what it holds and EOSE, and forwards later events to open subscriptions.
actor MemoryRelay: RelayTransport {
    private var events: [[String: Any]] = []
    private var subs: [(MemoryConnection, String)] = []
    private(set) var reachable = true

    func setReachable(_ r: Bool) { reachable = r }

    nonisolated func connect(to url: String) async throws -> any RelayConnection {
        guard await reachable else { throw URLError(.cannotConnectToHost) }
        return MemoryConnection(self)
    }

    func take(_ text: String, from c: MemoryConnection) {
        guard let m = try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [Any], let type = m.first as? String else { return }
        switch type {
        case "EVENT":
            let ev = m[1] as! [String: Any]
            events.append(ev)
            c.push(["OK", ev["id"]!, true, ""])
            for (s, id) in subs { s.push(["EVENT", id, ev]) }
        case "REQ":
            let id = m[1] as! String
            for ev in events { c.push(["EVENT", id, ev]) }
            c.push(["EOSE", id])
            subs.append((c, id))
        default:
            break
        }
    }
}

final class MemoryConnection: RelayConnection, @unchecked Sendable {
    private let relay: MemoryRelay
    private let inbox: AsyncStream<String>
    private let sink: AsyncStream<String>.Continuation

    init(_ relay: MemoryRelay) {
        self.relay = relay
        (inbox, sink) = AsyncStream<String>.makeStream()
    }

    func push(_ message: [Any]) {
        sink.yield(String(decoding: try! JSONSerialization.data(withJSONObject: message), as: UTF8.self))
    }

    func send(_ text: String) async throws { await relay.take(text, from: self) }

    func receive() async throws -> String? {
        var it = inbox.makeAsyncIterator()
        return await it.next()
    }

    func close() { sink.finish() }
}

final class RelayTests: XCTestCase {
    /// Sends a NIP-17 message from alice to bob through two clients on relays, and returns
    /// what bob's inbox opened (nil when nothing came within 30 s).
    private func exchange(over relays: [String], transport: any RelayTransport) async throws -> (PrivateMessage?, [[PublishResult]]) {
        let sc = try Softchat()
        let alice = try sc.generateIdentity()
        let bob = try sc.generateIdentity()
        let sender = try RelayClient(transport: transport)
        let receiver = try RelayClient(transport: transport)
        let inbox = try await receiver.inbox(for: bob.publicKey, relays: relays)
        let wraps = try sc.sendMessage("hello over the relay", from: alice, to: [Receiver(bob.publicKey, relay: relays[0])],
                                       createdAt: Int64(Date().timeIntervalSince1970))
        var results: [[PublishResult]] = []
        for w in wraps { results.append(try await sender.publish(w.json, to: relays)) }
        let watchdog = Task {
            try await Task.sleep(nanoseconds: 30_000_000_000)
            await receiver.close()
        }
        var got: PrivateMessage?
        for await d in inbox {
            if case .event(let json, _) = d {
                got = try sc.receive(json, for: bob)
                break
            }
        }
        watchdog.cancel()
        await sender.close()
        await receiver.close()
        XCTAssertEqual(got?.sender, alice.publicKey)
        return (got, results)
    }

    func testNip17ThroughThePoolAndARealRelay() async throws {
        let env = ProcessInfo.processInfo.environment
        guard let url = env["SOFTCHAT_TEST_RELAY"] else {
            if env["SOFTCHAT_TEST_RELAY_REQUIRED"] == "1" { XCTFail("SOFTCHAT_TEST_RELAY is required and not set") }
            throw XCTSkip("no relay on loopback: SOFTCHAT_TEST_RELAY is not set (scripts/test-platforms.sh swift starts nostr-relay)")
        }
        // Does Foundation's WebSocket reach the relay?
        var failure: Error?
        do {
            try await URLSessionRelayTransport().connect(to: url).close()
        } catch {
            failure = error
        }
        #if os(Linux)
        if let failure {
            // Swift 6.0.3's FoundationNetworking (libcurl 8.14, Debian trixie) fails every ws://
            // connection with NSURLErrorUnknown, a relay's and a bare WebSocket echo server's
            // alike (docs/platforms.md, "Swift"). The exchange through the pool is proven here
            // behind the transport hook (testNip17ThroughThePoolAndAnInMemoryRelay); this test
            // runs in full once Foundation connects.
            throw XCTSkip("Foundation's URLSessionWebSocketTask cannot connect on Linux here: \(failure)")
        }
        #endif
        XCTAssertNil(failure)
        let (got, results) = try await exchange(over: [url], transport: URLSessionRelayTransport())
        XCTAssertEqual(got?.text, "hello over the relay")
        XCTAssertEqual(results.flatMap { $0 }.map(\.outcome), [.accepted, .accepted], "\(results)")
    }

    func testNip17ThroughThePoolAndAnInMemoryRelay() async throws {
        let relay = MemoryRelay()
        let (got, results) = try await exchange(over: ["ws://memory.invalid"], transport: relay)
        XCTAssertEqual(got?.text, "hello over the relay")
        XCTAssertEqual(results.flatMap { $0 }.map(\.outcome), [.accepted, .accepted])
        XCTAssertEqual(results.first?.first?.relay, "ws://memory.invalid")
    }

    func testUnreachableRelayFailsThePublish() async throws {
        let relay = MemoryRelay()
        await relay.setReachable(false)
        let sc = try Softchat()
        let me = try sc.generateIdentity()
        let ev = try sc.sign(kind: 1, createdAt: Int64(Date().timeIntervalSince1970), content: "x", by: me)
        let client = try RelayClient(transport: relay, options: .init(maxAttempts: 2, retryMinMs: 50, retryMaxMs: 100))
        let results = try await client.publish(ev.json, to: ["ws://down.invalid"])
        await client.close()
        XCTAssertEqual(results.map(\.outcome), [.failed])
        XCTAssertEqual(results.first?.attempts, 2)
        do {
            _ = try await client.publish("{not json", to: ["ws://down.invalid"])
            XCTFail("junk published")
        } catch let e as SoftchatError {
            XCTAssertEqual(e.name, "SC_ERR_JSON")
        }
    }
}
