// NIP-59 and NIP-17 through SoftchatKit: the spec examples, an exchange between two
// identities, expirations, kind 15 with an attachment, tampered wraps.
import Foundation
import SoftchatKit
import XCTest

final class MessagingTests: XCTestCase {
    private func text(_ o: Any) throws -> String {
        String(decoding: try JSONSerialization.data(withJSONObject: o), as: UTF8.self)
    }

    func testSpecExamples() throws {
        let sc = try Softchat()
        let d17 = try TestData.json("upstream/nip17.spec-example.json")
        let keys = d17["keys"] as! [String: String]
        let sender = try sc.importIdentity(TestData.hex(keys["sender_sec"]!))
        let receiver = try sc.importIdentity(TestData.hex(keys["receiver_sec"]!))
        XCTAssertEqual(sender.publicKey.hex, keys["sender_pub"])
        XCTAssertEqual(try sc.importIdentity(nsec: keys["receiver_nsec"]!).publicKey, receiver.publicKey)
        for w in d17["wraps"] as! [[String: Any]] {
            let me = (w["recipient"] as! String) == "receiver" ? receiver : sender
            let msg = try sc.receive(try text(w["wrap"]!), for: me)
            XCTAssertEqual(msg.text, "Hola, que tal?")
            XCTAssertEqual(msg.sender, sender.publicKey)
            XCTAssertEqual(msg.kind, 14)
            XCTAssertEqual(msg.room, [sender.publicKey, receiver.publicKey])
            let rumor = try XCTUnwrap(w["rumor"] as? [String: Any])
            XCTAssertEqual(msg.rumorId.hex, rumor["id"] as! String)
            // the wrap is not for the other party
            let other = me === receiver ? sender : receiver
            expectStatus("SC_ERR_WRAP_DECRYPT") { try sc.receive(try self.text(w["wrap"]!), for: other) }
        }
        let d59 = try TestData.json("upstream/nip59.spec-example.json")
        let k59 = d59["keys"] as! [String: String]
        let recipient = try sc.importIdentity(TestData.hex(k59["recipient_sec"]!))
        let u = try sc.unwrap(try text(d59["wrap"]!), for: recipient)
        XCTAssertEqual(u.rumor.content, "Are you going to the party tonight?")
        XCTAssertEqual(u.sender.hex, k59["author_pub"])
        XCTAssertEqual(u.wrapKind, 1059)
        // a kind 1 rumor is no NIP-17 message
        expectStatus("SC_ERR_MESSAGE") { try sc.receive(try self.text(d59["wrap"]!), for: recipient) }
    }

    func testExchangeBetweenTwoIdentities() throws {
        let sc = try Softchat()
        let alice = try sc.generateIdentity()
        let bob = try sc.generateIdentity()
        let wraps = try sc.sendMessage("¿Vienes a las 8? 🎉", from: alice, to: [Receiver(bob.publicKey, relay: "wss://bob.example")],
                                       createdAt: 1_750_000_000, subject: "dinner")
        XCTAssertEqual(wraps.map(\.recipient), [bob.publicKey, alice.publicKey])
        let got = try sc.receive(wraps[0].json, for: bob)
        XCTAssertEqual(got.text, "¿Vienes a las 8? 🎉")
        XCTAssertEqual(got.sender, alice.publicKey)
        XCTAssertEqual(got.subject, "dinner")
        XCTAssertEqual(got.createdAt, 1_750_000_000)
        XCTAssertEqual(got.room, [alice.publicKey, bob.publicKey])
        XCTAssertTrue(got.tags.contains(["p", bob.publicKey.hex, "wss://bob.example"]))
        // the sender's own copy reads the same; bob cannot read it
        let mine = try sc.receive(wraps[1].json, for: alice)
        XCTAssertEqual(mine.rumorId, got.rumorId)
        expectStatus("SC_ERR_WRAP_DECRYPT") { try sc.receive(wraps[1].json, for: bob) }
        // bob replies in the same room
        let reply = try sc.sendMessage(bytes: Array("yes".utf8), from: bob, to: [Receiver(alice.publicKey)],
                                       createdAt: 1_750_000_060, replyTo: got.rumorId)
        let r = try sc.receive(reply[0].json, for: alice)
        XCTAssertEqual(r.text, "yes")
        XCTAssertTrue(r.tags.contains(["e", got.rumorId.hex]))
        r.content.wipe()
        XCTAssertEqual(r.content.count, 0)
        // a rumor wrapped by hand unwraps with every fact
        let rumor = try sc.rumor(kind: 1, createdAt: 5, tags: [["t", "x"]], content: "plain", by: alice)
        let w = try sc.giftWrap(rumor, from: alice, to: bob.publicKey, options: WrapOptions(ephemeral: true))
        let u = try sc.unwrap(w, for: bob)
        XCTAssertEqual(u.rumor, rumor)
        XCTAssertEqual(u.wrapKind, 21059)
        XCTAssertEqual(u.sender, alice.publicKey)
        XCTAssertNotEqual(u.wrapPubkey, alice.publicKey)
        expectStatus("SC_ERR_RUMOR_AUTHOR") { try sc.giftWrap(rumor, from: bob, to: alice.publicKey) }
    }

    func testExpiration() throws {
        let sc = try Softchat()
        let a = try sc.generateIdentity()
        let b = try sc.generateIdentity()
        let now: Int64 = 1_750_000_000
        let wraps = try sc.sendMessage("gone soon", from: a, to: [Receiver(b.publicKey)], createdAt: now,
                                       options: WrapOptions(expiration: now + 60, now: now))
        XCTAssertEqual(try sc.receive(wraps[0].json, for: b, now: now + 59).text, "gone soon")
        expectStatus("SC_ERR_WRAP_EXPIRED") { try sc.receive(wraps[0].json, for: b, now: now + 60) }
        let wrapOnly = try sc.sendMessage("x", from: a, to: [Receiver(b.publicKey)], createdAt: now,
                                          options: WrapOptions(expiration: now + 60, expirationOnWrapOnly: true, now: now))
        expectStatus("SC_ERR_WRAP_EXPIRED") { try sc.unwrap(wrapOnly[0].json, for: b, now: now + 61) }
        XCTAssertEqual(try sc.parseEvent(wrapOnly[0].json).tags.first { $0[0] == "expiration" }, ["expiration", "\(now + 60)"])
        expectStatus("SC_ERR_ARG") { try sc.receive(wraps[0].json, for: b, now: -1) }
    }

    func testTamperedWraps() throws {
        let sc = try Softchat()
        let a = try sc.generateIdentity()
        let b = try sc.generateIdentity()
        let wrap = try sc.sendMessage("hi", from: a, to: [Receiver(b.publicKey)], createdAt: 1)[0].json
        var o = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(wrap.utf8)) as? [String: Any])
        o["kind"] = 1
        expectStatus("SC_ERR_WRAP_KIND") { try sc.receive(try self.text(o), for: b) }
        o["kind"] = 1059
        o["created_at"] = (o["created_at"] as! Int) + 1
        expectStatus("SC_ERR_WRAP_ID") { try sc.receive(try self.text(o), for: b) }
        let sig = o["sig"] as! String
        o = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(wrap.utf8)) as? [String: Any])
        o["sig"] = String(sig.prefix(127)) + (sig.hasSuffix("0") ? "1" : "0")
        expectStatus("SC_ERR_WRAP_SIG") { try sc.receive(try self.text(o), for: b) }
        expectStatus("SC_ERR_JSON") { try sc.receive(String(wrap.dropLast()), for: b) }
    }

    func testFileMessageWithAttachment() throws {
        let sc = try Softchat()
        let a = try sc.generateIdentity()
        let b = try sc.generateIdentity()
        let photo = Data((0..<200_000).map { UInt8(truncatingIfNeeded: $0 &* 7) })
        let blob = try Pipe.run(photo) { input, output in try sc.encryptAttachment(from: input, to: output) }
        let enc = blob.result
        XCTAssertEqual(enc.size, UInt64(photo.count + 16))
        let msg = FileMessage(url: "https://files.example/abc", fileType: "image/jpeg", attachment: enc)
        let wraps = try sc.sendFile(msg, from: a, to: [Receiver(b.publicKey)], createdAt: 1_750_000_000)
        let got = try sc.receive(wraps[0].json, for: b)
        XCTAssertEqual(got.kind, 15)
        let file = try XCTUnwrap(got.file)
        XCTAssertEqual(file.url, "https://files.example/abc")
        XCTAssertEqual(file.fileType, "image/jpeg")
        XCTAssertEqual(file.key, enc.key)
        XCTAssertEqual(file.iv, enc.iv)
        XCTAssertEqual(file.x, enc.x)
        XCTAssertEqual(file.size, enc.size)
        let opened = try Pipe.run(blob.output) { input, output in
            try sc.decryptAttachment(from: input, to: output, key: file.key, iv: file.iv)
        }
        XCTAssertEqual(opened.output, photo)
        XCTAssertEqual(opened.result.ox, enc.ox)
    }
}
