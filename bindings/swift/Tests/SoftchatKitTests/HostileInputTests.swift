// Hostile and wrong inputs give SoftchatError with their status; an erased identity or
// conversation refuses every use.
import Foundation
import SoftchatKit
import XCTest

final class HostileInputTests: XCTestCase {
    func testHostileInputs() throws {
        let sc = try Softchat(limits: .init(maxEventBytes: 4096, maxWrapBytes: 8192))
        let me = try sc.generateIdentity()
        let peer = try sc.generateIdentity().publicKey
        // keys, ids, hex, bech32
        expectStatus("SC_ERR_ARG") { try sc.importIdentity([UInt8](repeating: 1, count: 31)) }
        expectStatus("SC_ERR_INVALID_KEY") { try sc.importIdentity([UInt8](repeating: 0, count: 32)) }
        expectStatus("SC_ERR_INVALID_KEY") { try sc.importIdentity([UInt8](repeating: 0xff, count: 32)) }
        expectStatus("SC_ERR_ARG") { try PublicKey([UInt8](repeating: 1, count: 33)) }
        expectStatus("SC_ERR_ENCODING") { try PublicKey(hex: "zz" + String(repeating: "0", count: 62)) }
        expectStatus("SC_ERR_ENCODING") { try EventId(hex: "abc") }
        expectStatus("SC_ERR_BECH32") { try PublicKey(npub: "npub1qqqqqq") }
        expectStatus("SC_ERR_BECH32") { try Nip19.decode(String(repeating: "q", count: 6000)) }
        expectStatus("SC_ERR_BECH32") { try sc.importIdentity(nsec: "nostr:nsec1xyz") }
        expectStatus("SC_ERR_NOT_FOUND") { try Softchat(backend: "no-such-backend") }
        // events: syntax, fields, caps (before anything is allocated for the text)
        expectStatus("SC_ERR_JSON") { try sc.parseEvent("{") }
        expectStatus("SC_ERR_JSON") { try sc.parseEvent("") }
        expectStatus("SC_ERR_EVENT_FIELD") { try sc.parseEvent("{}") }
        expectStatus("SC_ERR_EVENT_FIELD") { try sc.parseEvent("[1,2,3]") }
        expectStatus("SC_ERR_TOO_LARGE") { try sc.parseEvent(String(repeating: " ", count: 4097)) }
        expectStatus("SC_ERR_EVENT_RANGE") { try sc.sign(kind: 70000, createdAt: 0, content: "", by: me) }
        expectStatus("SC_ERR_EVENT_RANGE") { try sc.sign(kind: 1, createdAt: -1, content: "", by: me) }
        expectStatus("SC_ERR_EVENT_FIELD") { try sc.sign(kind: 1, createdAt: 0, tags: [[]], content: "", by: me) }
        let good = try sc.sign(kind: 1, createdAt: 1, content: "hello", by: me)
        expectStatus("SC_ERR_ID_MISMATCH") { try sc.parseEvent(good.json.replacingOccurrences(of: "hello", with: "jello")) }
        expectStatus("SC_ERR_ARG") { try sc.signSchnorr([1, 2, 3], by: me) }
        expectStatus("SC_ERR_ARG") { try sc.verifySchnorr([0], message: [UInt8](repeating: 0, count: 32), key: peer) }
        // NIP-44 payloads
        expectStatus("SC_ERR_VERSION") { try sc.nip44Decrypt("", to: me, from: peer) }
        expectStatus("SC_ERR_VERSION") { try sc.nip44Decrypt("#abc", to: me, from: peer) }
        expectStatus("SC_ERR_PAYLOAD_SIZE") { try sc.nip44Decrypt("Ag==", to: me, from: peer) }
        expectStatus("SC_ERR_BASE64") { try sc.nip44Decrypt(String(repeating: "!", count: 200), to: me, from: peer) }
        expectStatus("SC_ERR_TOO_LARGE") { try sc.nip44Decrypt(String(repeating: "A", count: 2 << 20), to: me, from: peer) }
        let payload = try sc.nip44Encrypt("secret", from: me, to: peer)
        let third = try sc.generateIdentity()
        expectStatus("SC_ERR_MAC") { try sc.nip44Decrypt(payload, to: third, from: peer) }
        let offCurve = try PublicKey(hex: String(repeating: "f", count: 64))
        expectStatus("SC_ERR_INVALID_KEY") { try sc.nip44Encrypt("x", from: me, to: offCurve) }
        expectStatus("SC_ERR_EMPTY") { try sc.nip44Encrypt("", from: me, to: peer) }
        // gift wraps: junk, caps, a wrap that is an ordinary event, receivers
        expectStatus("SC_ERR_TOO_LARGE") { try sc.receive(String(repeating: "x", count: 8193), for: me) }
        expectStatus("SC_ERR_JSON") { try sc.receive("not json", for: me) }
        expectStatus("SC_ERR_WRAP_KIND") { try sc.unwrap(good.json, for: me) }
        expectStatus("SC_ERR_MESSAGE") { try sc.sendMessage("hi", from: me, to: [], createdAt: 1) }
        expectStatus("SC_ERR_INVALID_KEY") { try sc.sendMessage("hi", from: me, to: [Receiver(offCurve)], createdAt: 1) }
        expectStatus("SC_ERR_UTF8") { try sc.sendMessage(bytes: [0xff, 0xfe], from: me, to: [Receiver(peer)], createdAt: 1) }
        // a file message with a key of the wrong size
        let bad = FileMessage(url: "u", fileType: "t", key: SecretBytes([1, 2]), iv: [UInt8](repeating: 0, count: 16),
                              x: [UInt8](repeating: 0, count: 32))
        expectStatus("SC_ERR_ARG") { try sc.sendFile(bad, from: me, to: [Receiver(peer)], createdAt: 1) }
    }

    func testErasedIdentityAndConversationRefuseUse() throws {
        let sc = try Softchat()
        let me = try sc.generateIdentity()
        let peer = try sc.generateIdentity()
        let conv = try sc.conversation(me, with: peer.publicKey)
        let payload = try conv.encrypt("before", using: sc)
        let wrap = try sc.sendMessage("m", from: peer, to: [Receiver(me.publicKey)], createdAt: 1)[0].json
        let pub = me.publicKey
        me.erase()
        XCTAssertTrue(me.isErased)
        XCTAssertEqual(me.publicKey, pub, "the public key stays readable")
        expectStatus("SC_ERR_STATE") { try me.exportSecret() }
        expectStatus("SC_ERR_STATE") { try Nip19.nsec(of: me) }
        expectStatus("SC_ERR_STATE") { try sc.sign(kind: 1, createdAt: 0, content: "", by: me) }
        expectStatus("SC_ERR_STATE") { try sc.signSchnorr([UInt8](repeating: 0, count: 32), by: me) }
        expectStatus("SC_ERR_STATE") { try sc.nip44Encrypt("x", from: me, to: peer.publicKey) }
        expectStatus("SC_ERR_STATE") { try sc.nip44Decrypt(payload, to: me, from: peer.publicKey) }
        expectStatus("SC_ERR_STATE") { try sc.conversation(me, with: peer.publicKey) }
        expectStatus("SC_ERR_STATE") { try sc.rumor(kind: 1, createdAt: 0, content: "", by: me) }
        expectStatus("SC_ERR_STATE") { try sc.sendMessage("x", from: me, to: [Receiver(peer.publicKey)], createdAt: 1) }
        expectStatus("SC_ERR_STATE") { try sc.receive(wrap, for: me) }
        expectStatus("SC_ERR_STATE") { try sc.unwrap(wrap, for: me) }
        me.erase() // twice is fine
        // a conversation outlives its identity's erase (it holds its own key) until erased itself
        XCTAssertEqual(try conv.decrypt(payload, using: sc), "before")
        conv.erase()
        expectStatus("SC_ERR_STATE") { try conv.decrypt(payload, using: sc) }
        expectStatus("SC_ERR_STATE") { try conv.encrypt("x", using: sc) }
    }
}
