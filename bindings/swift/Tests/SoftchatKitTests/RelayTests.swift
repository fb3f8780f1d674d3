// The relay client: a NIP-17 message through the pool and a real relay on loopback (the
// stage starts nostr-relay), and through an in-memory relay behind the transport hook.
import CSoftchat
import Foundation
import SoftchatKit
import XCTest

/// A relay in memory behind the transport hook: stores EVENTs (answering OK), answers REQ
/// with what it holds and EOSE, and forwards later events to open subscriptions. With
/// `requireAuth` it is a NIP-42 relay that serves authenticated users only: it sends a
/// challenge on each connection, refuses EVENT ("OK" false) and REQ ("CLOSED") with
/// "auth-required:" until the connection sent an AUTH event that sc_relay_auth_verify
/// accepts for its URL and that challenge.
actor MemoryRelay: RelayTransport {
    static let url = "ws://memory.invalid"
    private var events: [[String: Any]] = []
    private var subs: [(MemoryConnection, String)] = []
    private(set) var reachable = true
    private let requireAuth: Bool
    private var challenges: [ObjectIdentifier: String] = [:]
    private var authed: Set<ObjectIdentifier> = []
    /// The public keys (hex) of the AUTH events accepted, and the refused AUTH count.
    private(set) var authenticated: [String] = []
    private(set) var refusedAuths = 0

    init(requireAuth: Bool = false) { self.requireAuth = requireAuth }

    func setReachable(_ r: Bool) { reachable = r }

    nonisolated func connect(to url: String) async throws -> any RelayConnection {
        guard await reachable else { throw URLError(.cannotConnectToHost) }
        let c = MemoryConnection(self)
        await greet(c)
        return c
    }

    private func greet(_ c: MemoryConnection) {
        guard requireAuth else { return }
        let challenge = UUID().uuidString
        challenges[ObjectIdentifier(c)] = challenge
        c.push(["AUTH", challenge])
    }

    private func mayServe(_ c: MemoryConnection) -> Bool { !requireAuth || authed.contains(ObjectIdentifier(c)) }

    func take(_ text: String, from c: MemoryConnection) {
        guard let m = try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [Any], let type = m.first as? String else { return }
        switch type {
        case "AUTH":
            guard let ev = m[1] as? [String: Any], let id = ev["id"] as? String,
                  let data = try? JSONSerialization.data(withJSONObject: ev),
                  let challenge = challenges[ObjectIdentifier(c)] else { return }
            let s = verifyAuth(data, url: Self.url, challenge: challenge)
            if s == SC_OK {
                authed.insert(ObjectIdentifier(c))
                authenticated.append(ev["pubkey"] as? String ?? "")
                c.push(["OK", id, true, ""])
            } else {
                refusedAuths += 1
                c.push(["OK", id, false, "invalid: " + String(cString: sc_status_name(s))])
            }
        case "EVENT":
            let ev = m[1] as! [String: Any]
            guard mayServe(c) else {
                c.push(["OK", ev["id"]!, false, "auth-required: this relay serves authenticated users only"])
                return
            }
            events.append(ev)
            c.push(["OK", ev["id"]!, true, ""])
            for (s, id) in subs { s.push(["EVENT", id, ev]) }
        case "REQ":
            let id = m[1] as! String
            guard mayServe(c) else {
                c.push(["CLOSED", id, "auth-required: this relay serves authenticated users only"])
                return
            }
            for ev in events { c.push(["EVENT", id, ev]) }
            c.push(["EOSE", id])
            subs.append((c, id))
        default:
            break
        }
    }
}

/// Checks an AUTH event as a relay must, with the library (sc_relay_auth_verify).
func verifyAuth(_ json: Data, url: String, challenge: String) -> sc_status {
    var ctx: UnsafeMutablePointer<sc_ctx>?
    guard sc_ctx_new(&ctx, nil) == SC_OK, let ctx else { return SC_ERR_STATE }
    let j = [UInt8](json)
    var ev = sc_event()
    var opts = sc_event_parse_opts()
    opts.max_input = j.count
    let arena = UnsafeMutableRawBufferPointer.allocate(byteCount: max(sc_event_parse_arena_max(j.count), 1), alignment: 16)
    var used = 0
    let status = j.withUnsafeBufferPointer { jb in
        jb.withMemoryRebound(to: CChar.self) { c in
            let s = sc_event_parse(&ev, arena.baseAddress, arena.count, &used, c.baseAddress, c.count, &opts)
            guard s == SC_OK else { return s }
            return url.withCString { u in
                challenge.withCString { ch in
                    sc_relay_auth_verify(ctx, &ev, sc_str(ptr: u, len: strlen(u)), sc_str(ptr: ch, len: strlen(ch)),
                                         Int64(Date().timeIntervalSince1970), 0)
                }
            }
        }
    }
    arena.deallocate()
    sc_ctx_free(ctx)
    return status
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

    func testAnAuthRequiredRelayRefusesAClientThatDoesNotAuthenticate() async throws {
        let relay = MemoryRelay(requireAuth: true)
        let sc = try Softchat()
        let me = try sc.generateIdentity()
        let ev = try sc.sign(kind: 1, createdAt: Int64(Date().timeIntervalSince1970), content: "behind auth", by: me)
        // no AUTH follows the refusals: what waited for one ends after the OK timeout
        let client = try RelayClient(transport: relay, options: .init(okTimeoutMs: 200))
        let inbox = try await client.inbox(for: me.publicKey, relays: [MemoryRelay.url])
        let results = try await client.publish(ev.json, to: [MemoryRelay.url])
        XCTAssertEqual(results.map(\.outcome), [.refused], "\(results)")
        XCTAssertTrue(results.first?.message.hasPrefix("auth-required:") ?? false, "\(results)")
        var closed: String?
        for await d in inbox {
            if case .event = d { XCTFail("an event through an AUTH-required relay without AUTH") }
            if case .closed(let r, let message) = d {
                XCTAssertEqual(r, MemoryRelay.url)
                closed = message
                break
            }
        }
        await client.close()
        XCTAssertTrue(closed?.hasPrefix("auth-required:") ?? false, "\(String(describing: closed))")
        let authenticated = await relay.authenticated
        XCTAssertEqual(authenticated, [])
    }

    func testAuthenticateDeliversNip17ThroughAnAuthRequiredRelayOnce() async throws {
        let relay = MemoryRelay(requireAuth: true)
        let relays = [MemoryRelay.url]
        let sc = try Softchat()
        let alice = try sc.generateIdentity()
        let bob = try sc.generateIdentity()
        let sender = try RelayClient(transport: relay)
        let receiver = try RelayClient(transport: relay)
        try await sender.authenticate(as: alice)
        try await receiver.authenticate(as: bob)
        let inbox = try await receiver.inbox(for: bob.publicKey, relays: relays)
        func send(_ text: String) async throws -> [PublishResult] {
            var results: [PublishResult] = []
            for w in try sc.sendMessage(text, from: alice, to: [Receiver(bob.publicKey, relay: relays[0])],
                                        createdAt: Int64(Date().timeIntervalSince1970)) {
                results += try await sender.publish(w.json, to: relays)
            }
            return results
        }
        let first = try await send("one")
        XCTAssertEqual(first.map(\.outcome), [.accepted, .accepted], "\(first)")
        let watchdog = Task {
            try await Task.sleep(nanoseconds: 30_000_000_000)
            await receiver.close()
        }
        // every wrap for bob until the second message: the first comes once before it
        var texts: [String] = []
        for await d in inbox {
            guard case .event(let json, _) = d else { continue }
            let m = try sc.receive(json, for: bob)
            XCTAssertEqual(m.sender, alice.publicKey)
            texts.append(m.text)
            if texts.count == 1 {
                let second = try await send("two")
                XCTAssertEqual(second.map(\.outcome), [.accepted, .accepted], "\(second)")
            }
            if m.text == "two" { break }
        }
        watchdog.cancel()
        guard texts == ["one", "two"] else {
            await sender.close()
            await receiver.close()
            return XCTFail("bob's inbox through the AUTH-required relay: \(texts)")
        }
        // the relay sent the messages only after it accepted bob's AUTH: that update waits
        var authedRelay: String?
        for await u in receiver.authUpdates {
            if case .authenticated(let r) = u {
                authedRelay = r
                break
            }
        }
        await sender.close()
        await receiver.close()
        XCTAssertEqual(texts, ["one", "two"])
        XCTAssertEqual(authedRelay, MemoryRelay.url)
        let authenticated = Set(await relay.authenticated)
        XCTAssertEqual(authenticated, [alice.publicKey.hex, bob.publicKey.hex])
        let refusedAuths = await relay.refusedAuths
        XCTAssertEqual(refusedAuths, 0)
    }

    func testAuthenticateRefusesAnErasedIdentityAndHoldsASetOne() async throws {
        let sc = try Softchat()
        let gone = try sc.generateIdentity()
        gone.erase()
        let client = try RelayClient(transport: MemoryRelay(requireAuth: true))
        do {
            try await client.authenticate(as: gone)
            XCTFail("an erased identity set")
        } catch let e as SoftchatError {
            XCTAssertEqual(e.name, "SC_ERR_STATE")
        }
        let held = try sc.generateIdentity()
        try await client.authenticate(as: held)
        held.erase() // the client holds it: erased for every other use
        XCTAssertTrue(held.isErased)
        XCTAssertThrowsError(try held.exportSecret())
        try await client.authenticate(as: nil) // the last hold ends: the key is wiped now
        await client.close()
    }
}
