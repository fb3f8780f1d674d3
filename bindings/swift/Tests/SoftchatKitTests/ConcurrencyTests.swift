// Concurrency: tasks of a task group, each with a context of its own, sharing identities and
// a conversation (Sendable); erase() racing with calls in flight.
import SoftchatKit
import XCTest

final class ConcurrencyTests: XCTestCase {
    func testTaskGroupWithOneContextPerTask() async throws {
        let setup = try Softchat()
        let alice = try setup.generateIdentity()
        let bob = try setup.generateIdentity()
        let conv = try setup.conversation(alice, with: bob.publicKey)
        let rounds = 40
        let done = try await withThrowingTaskGroup(of: Int.self) { group in
            for t in 0..<8 {
                group.addTask {
                    let sc = try Softchat() // this task's own context
                    var n = 0
                    for i in 0..<rounds {
                        let text = "task \(t) message \(i)"
                        let p = try sc.nip44Encrypt(text, from: alice, to: bob.publicKey)
                        XCTAssertEqual(try sc.nip44Decrypt(p, to: bob, from: alice.publicKey), text)
                        XCTAssertEqual(try conv.decrypt(try conv.encrypt(text, using: sc), using: sc), text)
                        if i % 8 == 0 {
                            let w = try sc.sendMessage(text, from: alice, to: [Receiver(bob.publicKey)], createdAt: Int64(i))
                            XCTAssertEqual(try sc.receive(w[0].json, for: bob).text, text)
                            let ev = try sc.sign(kind: 1, createdAt: Int64(i), content: text, by: bob)
                            XCTAssertEqual(try sc.parseEvent(ev.json), ev)
                        }
                        n += 1
                    }
                    return n
                }
            }
            return try await group.reduce(0, +)
        }
        XCTAssertEqual(done, 8 * rounds)
    }

    func testEraseRacingWithCallsInFlight() async throws {
        let setup = try Softchat()
        let me = try setup.generateIdentity()
        let peer = try setup.generateIdentity().publicKey
        let outcomes = try await withThrowingTaskGroup(of: (ok: Int, state: Int).self) { group in
            for _ in 0..<4 {
                group.addTask {
                    let sc = try Softchat()
                    var ok = 0, state = 0
                    for _ in 0..<300 {
                        do {
                            _ = try sc.nip44Encrypt("x", from: me, to: peer)
                            ok += 1
                        } catch let e as SoftchatError where e.name == "SC_ERR_STATE" {
                            state += 1
                        }
                    }
                    return (ok, state)
                }
            }
            group.addTask {
                try await Task.sleep(nanoseconds: 2_000_000)
                me.erase()
                return (0, 0)
            }
            return try await group.reduce(into: (ok: 0, state: 0)) { $0.ok += $1.ok; $0.state += $1.state }
        }
        // every call either ran on the whole key or was refused: none failed otherwise
        XCTAssertEqual(outcomes.ok + outcomes.state, 1200)
        XCTAssertTrue(me.isErased)
        expectStatus("SC_ERR_STATE") { try setup.nip44Encrypt("x", from: me, to: peer) }
    }
}
