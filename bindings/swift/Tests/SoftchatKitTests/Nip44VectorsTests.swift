// The official NIP-44 v2 vectors (vectors/upstream/nip44.vectors.json) through SoftchatKit.
import SoftchatKit
import XCTest

final class Nip44VectorsTests: XCTestCase {
    private var v2: [String: Any] = [:]

    override func setUpWithError() throws {
        v2 = try XCTUnwrap(TestData.json("upstream/nip44.vectors.json")["v2"] as? [String: Any])
    }

    private func group(_ validity: String, _ name: String) throws -> [[String: Any]] {
        let g = try XCTUnwrap(v2[validity] as? [String: Any])
        return try XCTUnwrap(g[name] as? [[String: Any]])
    }

    func testConversationKeys() throws {
        let sc = try Softchat()
        let valid = try group("valid", "get_conversation_key")
        for v in valid {
            let sec = TestData.hex(v["sec1"] as! String)
            let pub = try PublicKey(hex: v["pub2"] as! String)
            let ck = try Nip44.conversationKey(secret: sec, peer: pub, using: sc)
            XCTAssertEqual(TestData.hexString(ck.bytes), v["conversation_key"] as! String)
        }
        let invalid = try group("invalid", "get_conversation_key")
        for v in invalid {
            let sec = TestData.hex(v["sec1"] as! String)
            let pub = try PublicKey(hex: v["pub2"] as! String)
            expectStatus("SC_ERR_INVALID_KEY", v["note"] as! String) { try Nip44.conversationKey(secret: sec, peer: pub, using: sc) }
            // the same failure through an identity and a held conversation
            let name = expectSoftchatError(v["note"] as! String) { () throws -> Nip44Conversation in
                let me = try sc.importIdentity(sec)
                return try sc.conversation(me, with: pub)
            }
            XCTAssertEqual(name, "SC_ERR_INVALID_KEY")
        }
        XCTAssertGreaterThan(valid.count, 30)
        XCTAssertGreaterThan(invalid.count, 5)
    }

    func testPaddedLengths() throws {
        for pair in try XCTUnwrap(v2["valid"] as? [String: Any])["calc_padded_len"] as! [[UInt64]] {
            XCTAssertEqual(Nip44.paddedLength(pair[0]), pair[1])
        }
    }

    func testEncryptDecrypt() throws {
        let sc = try Softchat()
        let cases = try group("valid", "encrypt_decrypt")
        for v in cases {
            let sec1 = TestData.hex(v["sec1"] as! String)
            let sec2 = TestData.hex(v["sec2"] as! String)
            let pt = v["plaintext"] as! String
            let payload = v["payload"] as! String
            let ck = try Nip44.conversationKey(secret: sec1, peer: try sc.importIdentity(sec2).publicKey, using: sc)
            XCTAssertEqual(TestData.hexString(ck.bytes), v["conversation_key"] as! String)
            let made = try Nip44.encrypt(bytes: Array(pt.utf8), conversationKey: ck, nonce: TestData.hex(v["nonce"] as! String), using: sc)
            XCTAssertEqual(made, payload)
            XCTAssertEqual(try Nip44.decrypt(payload, conversationKey: ck, using: sc).text, pt)
            // both ways between identities, and through held conversations
            let a = try sc.importIdentity(sec1)
            let b = try sc.importIdentity(sec2)
            XCTAssertEqual(try sc.nip44Decrypt(payload, to: b, from: a.publicKey), pt)
            XCTAssertEqual(try sc.nip44Decrypt(payload, to: a, from: b.publicKey), pt)
            XCTAssertEqual(try sc.conversation(b, with: a.publicKey).decrypt(payload, using: sc), pt)
            let fresh = try sc.nip44Encrypt(pt, from: a, to: b.publicKey)
            XCTAssertNotEqual(fresh, payload, "a fresh nonce")
            XCTAssertEqual(try sc.conversation(b, with: a.publicKey).decrypt(fresh, using: sc), pt)
        }
        XCTAssertGreaterThanOrEqual(cases.count, 10)
    }

    func testLongMessages() throws {
        let sc = try Softchat()
        for v in try group("valid", "encrypt_decrypt_long_msg") {
            let pt = Array(String(repeating: v["pattern"] as! String, count: v["repeat"] as! Int).utf8)
            XCTAssertEqual(TestData.sha256(pt), v["plaintext_sha256"] as! String)
            let ck = SecretBytes(TestData.hex(v["conversation_key"] as! String))
            let payload = try Nip44.encrypt(bytes: pt, conversationKey: ck, nonce: TestData.hex(v["nonce"] as! String), using: sc)
            XCTAssertEqual(TestData.sha256(Array(payload.utf8)), v["payload_sha256"] as! String)
            XCTAssertEqual(try Nip44.decrypt(payload, conversationKey: ck, using: sc).bytes, pt)
        }
    }

    func testInvalidLengthsAndPayloads() throws {
        let sc = try Softchat()
        let me = try sc.generateIdentity()
        let peer = try sc.generateIdentity().publicKey
        let lengths = try XCTUnwrap(v2["invalid"] as? [String: Any])["encrypt_msg_lengths"] as! [Int]
        for n in lengths {
            let name = expectSoftchatError("length \(n)") { try sc.nip44Encrypt(bytes: [UInt8](repeating: 0x61, count: n), from: me, to: peer) }
            XCTAssertEqual(name, n == 0 ? "SC_ERR_EMPTY" : "SC_ERR_POLICY", "length \(n)")
        }
        var names: Set<String> = []
        let cases = try group("invalid", "decrypt")
        for v in cases {
            let ck = SecretBytes(TestData.hex(v["conversation_key"] as! String))
            if let n = expectSoftchatError(v["note"] as! String, { try Nip44.decrypt(v["payload"] as! String, conversationKey: ck, using: sc) }) {
                names.insert(n)
            }
        }
        XCTAssertTrue(names.contains("SC_ERR_MAC") && names.contains("SC_ERR_PADDING") && names.contains("SC_ERR_VERSION"), "\(names)")
    }
}
