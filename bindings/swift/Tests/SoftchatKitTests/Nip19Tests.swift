// NIP-19 (vectors/upstream/nip19.vectors.json) through SoftchatKit.
import SoftchatKit
import XCTest

final class Nip19Tests: XCTestCase {
    func testVectors() throws {
        let cases = try XCTUnwrap(TestData.json("upstream/nip19.vectors.json")["cases"] as? [[String: Any]])
        var valid = 0, invalid = 0
        for c in cases {
            let s = c["bech32"] as! String
            guard c["valid"] as! Bool else {
                expectSoftchatError(c["why"] as? String ?? s) { try Nip19.decode(s) }
                invalid += 1
                continue
            }
            let e = try Nip19.decode(s)
            if let hex = c["hex"] as? String {
                switch e {
                case .npub(let k): XCTAssertEqual(k.hex, hex)
                case .note(let id): XCTAssertEqual(id.hex, hex)
                case .nsec(let sec): XCTAssertEqual(TestData.hexString(sec.bytes), hex)
                default: XCTFail("\(s): \(e)")
                }
            }
            if let tlv = c["tlv"] as? [[String: Any]] {
                let relays = tlv.filter { $0["type"] as! Int == 1 }.map { $0["value"] as! String }
                switch e {
                case .nprofile(let k, let r):
                    XCTAssertEqual(k.hex, tlv[0]["value"] as! String)
                    XCTAssertEqual(r, relays)
                case .nevent(let id, let r, _, _):
                    XCTAssertEqual(id.hex, tlv[0]["value"] as! String)
                    XCTAssertEqual(r, relays)
                case .naddr(let identifier, _, _, let r):
                    XCTAssertEqual(identifier, tlv[0]["value"] as! String)
                    XCTAssertEqual(r, relays)
                default: XCTFail("\(s): \(e)")
                }
            }
            // encoding what was decoded gives an entity that decodes the same
            XCTAssertEqual(try Nip19.decode(try Nip19.encode(e)), e, s)
            if case .npub = e { XCTAssertEqual(try Nip19.encode(e), s.lowercased()) }
            valid += 1
        }
        XCTAssertEqual(valid, 9)
        XCTAssertEqual(invalid, 2)
    }

    func testIdentityNsecAndTypedKeys() throws {
        let sc = try Softchat()
        let me = try sc.generateIdentity()
        let nsec = try Nip19.nsec(of: me)
        XCTAssertEqual(nsec.count, 63)
        XCTAssertTrue(nsec.text.hasPrefix("nsec1"))
        let again = try sc.importIdentity(nsec: nsec.text)
        XCTAssertEqual(again.publicKey, me.publicKey)
        XCTAssertEqual(try PublicKey(npub: me.publicKey.npub), me.publicKey)
        nsec.wipe()
        XCTAssertTrue(nsec.isWiped)
        XCTAssertEqual(nsec.count, 0)
        expectStatus("SC_ERR_ARG") { try PublicKey(npub: try EventId(me.publicKey.bytes).note) }
        let addr = Nip19Entity.naddr(identifier: "", author: me.publicKey, kind: 30023, relays: ["wss://r.example"])
        XCTAssertEqual(try Nip19.decode(try Nip19.encode(addr)), addr)
        expectStatus("SC_ERR_ARG") { try Nip19.encode(.nprofile(me.publicKey, relays: Array(repeating: "wss://r", count: 17))) }
    }
}
