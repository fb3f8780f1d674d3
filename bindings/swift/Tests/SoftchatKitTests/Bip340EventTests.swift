// BIP-340 (the official CSV) and NIP-01 events (the nostr-tools corpus) through SoftchatKit.
import SoftchatKit
import XCTest

final class Bip340EventTests: XCTestCase {
    func testBip340Vectors() throws {
        let sc = try Softchat()
        var signed = 0, verified = 0, refused = 0
        for line in try TestData.lines("upstream/bip340.test-vectors.csv").dropFirst() {
            let f = line.split(separator: ",", omittingEmptySubsequences: false).map { String($0).lowercased() }
            guard f.count >= 7 else { continue }
            let (sec, pub, aux, msg, sig) = (f[1], f[2], f[3], TestData.hex(f[4]), TestData.hex(f[5]))
            let expect = f[6] == "true"
            if msg.count != 32 {
                // the library signs and verifies 32-byte messages (event ids) only: refused, said so
                expectStatus("SC_ERR_ARG", "index \(f[0])") { try sc.verifySchnorr(sig, message: msg, key: try PublicKey(hex: pub)) }
                refused += 1
                continue
            }
            if !sec.isEmpty {
                let id = try sc.importIdentity(TestData.hex(sec))
                XCTAssertEqual(id.publicKey.hex, pub, "index \(f[0])")
                XCTAssertEqual(try sc.signSchnorr(msg, by: id, aux: TestData.hex(aux)), sig, "index \(f[0])")
                signed += 1
            }
            // a public key that is not on the curve (or not below p) verifies nothing
            let key: PublicKey
            do { key = try PublicKey(hex: pub) } catch { XCTFail("index \(f[0]): \(error)"); continue }
            XCTAssertEqual(try sc.verifySchnorr(sig, message: msg, key: key), expect, "index \(f[0])")
            verified += 1
        }
        XCTAssertEqual(signed, 4)
        XCTAssertEqual(verified, 15)
        XCTAssertEqual(refused, 4)
    }

    func testNostrToolsEvents() throws {
        let sc = try Softchat()
        let d = try TestData.json("nostr-tools.events.json")
        let events = try XCTUnwrap(d["events"] as? [[String: Any]])
        for o in events {
            let ev = o["event"] as! [String: Any]
            let name = o["name"] as! String
            let parsed = try sc.parseEvent(o["json"] as! String)
            XCTAssertEqual(parsed.id.hex, ev["id"] as! String, name)
            XCTAssertEqual(parsed.sigHex, ev["sig"] as! String, name)
            XCTAssertEqual(parsed.content, ev["content"] as! String, name)
            XCTAssertEqual(parsed.kind, ev["kind"] as! Int, name)
            XCTAssertEqual(parsed.createdAt, Int64(ev["created_at"] as! Int), name)
            XCTAssertEqual(parsed.tags, ev["tags"] as! [[String]], name)
            // the same fields signed with the same aux: the same event, byte for byte
            let me = try sc.importIdentity(TestData.hex(o["sk"] as! String))
            let again = try sc.sign(kind: parsed.kind, createdAt: parsed.createdAt, tags: parsed.tags,
                                    content: parsed.content, by: me, aux: TestData.hex(o["aux"] as! String))
            XCTAssertEqual(again.json, o["json"] as! String, name)
            XCTAssertEqual(again, try sc.parseEvent(again.json))
            XCTAssertEqual(try PublicKey(npub: o["npub"] as! String), me.publicKey)
        }
        for alt in try XCTUnwrap(d["alternate_encodings"] as? [[String: Any]]) {
            for enc in alt["encodings"] as! [[String: Any]] {
                XCTAssertEqual(try sc.parseEvent(enc["json"] as! String).id.hex, alt["id"] as! String, enc["what"] as! String)
            }
        }
        let rejects = try XCTUnwrap(d["rejects"] as? [[String: Any]])
        for r in rejects {
            expectStatus(r["expect"] as! String, r["name"] as! String) { try sc.parseEvent(r["json"] as! String) }
        }
        XCTAssertGreaterThan(events.count, 5)
        XCTAssertGreaterThan(rejects.count, 5)
    }

    func testNip40() throws {
        let sc = try Softchat()
        let me = try sc.generateIdentity()
        let plain = try sc.sign(kind: 1, createdAt: 1_700_000_000, content: "x", by: me)
        XCTAssertNil(try Nip40.expiration(of: plain))
        XCTAssertFalse(try Nip40.isExpired(plain, at: Int64.max))
        let e = try sc.sign(kind: 1, createdAt: 1_700_000_000, tags: [["expiration", "1700000600"]], content: "x", by: me)
        XCTAssertEqual(try Nip40.expiration(of: e), 1_700_000_600)
        XCTAssertFalse(try Nip40.isExpired(e, at: 1_700_000_599))
        XCTAssertTrue(try Nip40.isExpired(e, at: 1_700_000_600))
        let bad = try sc.sign(kind: 1, createdAt: 0, tags: [["expiration", "soon"]], content: "", by: me)
        expectStatus("SC_ERR_EVENT_FIELD") { try Nip40.expiration(of: bad) }
    }
}
