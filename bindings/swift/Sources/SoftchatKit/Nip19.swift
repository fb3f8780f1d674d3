// NIP-19: bech32 entities (npub, nsec, note, nprofile, nevent, naddr).
import CSoftchat

/// A decoded NIP-19 entity. An nsec is secret: it comes as `SecretBytes`.
public enum Nip19Entity: Sendable, Equatable {
    case npub(PublicKey)
    case nsec(SecretBytes)
    case note(EventId)
    case nprofile(PublicKey, relays: [String])
    case nevent(EventId, relays: [String], author: PublicKey?, kind: Int?)
    case naddr(identifier: String, author: PublicKey, kind: Int, relays: [String])
}

/// NIP-19 encoding and decoding (display and input only: never put these strings in events).
public enum Nip19 {
    /// Encodes an entity as lowercase bech32. An nsec is better made with `nsec(of:)`, whose
    /// result can be wiped. Invalid fields (over 16 relays, a relay outside printable ASCII,
    /// a kind over 2^32-1) are `SC_ERR_ARG`.
    public static func encode(_ entity: Nip19Entity) throws -> String {
        let mem = CMemory()
        var e = try cEntity(entity, mem: mem)
        defer { withUnsafeMutableBytes(of: &e) { sc_mem_wipe($0.baseAddress, $0.count) } }
        return try readText { out, cap, n in sc_nip19_encode(out, cap, n, &e) }
    }

    /// The nsec of an identity, as ASCII bytes the caller can wipe.
    public static func nsec(of identity: Identity) throws -> SecretBytes {
        let secret = try identity.exportSecret()
        defer { secret.wipe() }
        var e = sc_nip19_entity()
        defer { withUnsafeMutableBytes(of: &e) { sc_mem_wipe($0.baseAddress, $0.count) } }
        e.type = SC_NIP19_NSEC
        secret.withUnsafeBytes { setTuple(&e.key, raw: $0) }
        return try SecretBytes(count: Int(SC_NIP19_NSEC_LEN)) { out in
            var n = 0
            try check(sc_nip19_encode(out.baseAddress!.assumingMemoryBound(to: CChar.self), out.count, &n, &e))
        }
    }

    /// Decodes a bech32 entity (`SC_ERR_BECH32`, `SC_ERR_TLV`, `SC_ERR_UTF8`, `SC_ERR_TOO_LARGE`).
    /// Upper case is accepted; a "nostr:" prefix is not (strip it first).
    public static func decode(_ text: String) throws -> Nip19Entity {
        let s = Array(text.utf8)
        guard s.count <= Int(SC_NIP19_MAX_CHARS) else { throw SoftchatError(SC_ERR_BECH32) }
        var e = sc_nip19_entity()
        var scratch = [UInt8](repeating: 0, count: Int(SC_NIP19_DECODE_SCRATCH_MAX))
        defer {
            withUnsafeMutableBytes(of: &e) { sc_mem_wipe($0.baseAddress, $0.count) }
            scratch.withUnsafeMutableBytes { sc_mem_wipe($0.baseAddress, $0.count) }
        }
        var used = 0
        let st = s.withUnsafeBufferPointer { b in
            b.withMemoryRebound(to: CChar.self) { c in
                sc_nip19_decode(&e, &scratch, scratch.count, &used, c.baseAddress, c.count)
            }
        }
        try check(st)
        return try swiftEntity(e)
    }

    private static func relays(_ e: sc_nip19_entity) -> [String] {
        withUnsafeBytes(of: e.relays) { raw in
            let r = raw.bindMemory(to: sc_str.self)
            return (0..<e.n_relays).map { string(r[$0]) }
        }
    }

    private static func swiftEntity(_ e: sc_nip19_entity) throws -> Nip19Entity {
        let key = tupleBytes(e.key)
        switch e.type {
        case SC_NIP19_NPUB: return .npub(try PublicKey(key))
        case SC_NIP19_NSEC: return .nsec(SecretBytes(key))
        case SC_NIP19_NOTE: return .note(try EventId(key))
        case SC_NIP19_NPROFILE: return .nprofile(try PublicKey(key), relays: relays(e))
        case SC_NIP19_NEVENT:
            return .nevent(try EventId(key), relays: relays(e),
                           author: e.has_author != 0 ? try PublicKey(tupleBytes(e.author)) : nil,
                           kind: e.has_kind != 0 ? Int(e.kind) : nil)
        case SC_NIP19_NADDR:
            return .naddr(identifier: string(e.identifier), author: try PublicKey(tupleBytes(e.author)),
                          kind: Int(e.kind), relays: relays(e))
        default: throw SoftchatError(SC_ERR_BECH32)
        }
    }

    private static func setRelays(_ e: inout sc_nip19_entity, _ list: [String], _ mem: CMemory) throws {
        guard list.count <= Int(SC_NIP19_MAX_RELAYS) else { throw SoftchatError.arg }
        withUnsafeMutableBytes(of: &e.relays) { raw in
            let r = raw.bindMemory(to: sc_str.self)
            for (i, url) in list.enumerated() { r[i] = mem.presentStr(url) }
        }
        e.n_relays = list.count
    }

    private static func kind(_ k: Int) throws -> UInt32 {
        guard let v = UInt32(exactly: k) else { throw SoftchatError.arg }
        return v
    }

    private static func cEntity(_ entity: Nip19Entity, mem: CMemory) throws -> sc_nip19_entity {
        var e = sc_nip19_entity()
        switch entity {
        case .npub(let k):
            e.type = SC_NIP19_NPUB
            setTuple(&e.key, k.bytes)
        case .nsec(let s):
            e.type = SC_NIP19_NSEC
            guard s.count == 32 else { throw SoftchatError.arg }
            s.withUnsafeBytes { setTuple(&e.key, raw: $0) }
        case .note(let id):
            e.type = SC_NIP19_NOTE
            setTuple(&e.key, id.bytes)
        case .nprofile(let k, let relays):
            e.type = SC_NIP19_NPROFILE
            setTuple(&e.key, k.bytes)
            try setRelays(&e, relays, mem)
        case .nevent(let id, let relays, let author, let k):
            e.type = SC_NIP19_NEVENT
            setTuple(&e.key, id.bytes)
            try setRelays(&e, relays, mem)
            if let author {
                setTuple(&e.author, author.bytes)
                e.has_author = 1
            }
            if let k {
                e.kind = try kind(k)
                e.has_kind = 1
            }
        case .naddr(let identifier, let author, let k, let relays):
            e.type = SC_NIP19_NADDR
            e.identifier = mem.presentStr(identifier)
            setTuple(&e.author, author.bytes)
            e.has_author = 1
            e.kind = try kind(k)
            e.has_kind = 1
            try setRelays(&e, relays, mem)
        }
        return e
    }
}
