// NIP-17: private messages (kind 14 chat, kind 15 file) sent and received as gift wraps.
import CSoftchat

/// A NIP-17 receiver: a public key and an optional relay hint for its wrap's p tag.
public struct Receiver: Sendable, Hashable {
    public let publicKey: PublicKey
    public let relay: String?

    public init(_ publicKey: PublicKey, relay: String? = nil) {
        self.publicKey = publicKey
        self.relay = relay
    }
}

/// One gift wrap of a message: whom it is for, and its JSON (publish it to their relays).
public struct GiftWrap: Sendable, Hashable {
    public let recipient: PublicKey
    public let json: String
}

/// The attachment of a kind 15 message: where the encrypted blob is and how to open it.
public struct FileMessage: Sendable {
    /// Where ciphertext||tag is stored.
    public var url: String
    /// The MIME type of the plaintext.
    public var fileType: String
    /// The AES-256-GCM key (32 bytes).
    public var key: SecretBytes
    /// The IV (12 or 16 bytes; 16 from `encryptAttachment`).
    public var iv: [UInt8]
    /// SHA-256 of the blob and of the plaintext.
    public var x: [UInt8]
    public var ox: [UInt8]?
    /// Bytes of the blob (0: not given).
    public var size: UInt64
    public var dim: String?
    public var blurhash: String?
    public var thumb: String?
    public var fallbacks: [String]

    public init(url: String, fileType: String, key: SecretBytes, iv: [UInt8], x: [UInt8], ox: [UInt8]? = nil,
                size: UInt64 = 0, dim: String? = nil, blurhash: String? = nil, thumb: String? = nil,
                fallbacks: [String] = []) {
        self.url = url
        self.fileType = fileType
        self.key = key
        self.iv = iv
        self.x = x
        self.ox = ox
        self.size = size
        self.dim = dim
        self.blurhash = blurhash
        self.thumb = thumb
        self.fallbacks = fallbacks
    }

    /// The message of an attachment encrypted by `encryptAttachment` and uploaded to url.
    public init(url: String, fileType: String, attachment: EncryptedAttachment) {
        self.init(url: url, fileType: fileType, key: attachment.key, iv: attachment.iv, x: attachment.x,
                  ox: attachment.ox, size: attachment.size)
    }

    func c(_ mem: CMemory) throws -> sc_nip17_file {
        var f = sc_nip17_file()
        f.url = mem.str(url)
        f.file_type = mem.str(fileType)
        guard key.count == 32, (Int(SC_NIP17_NONCE_MIN)...Int(SC_NIP17_NONCE_MAX)).contains(iv.count),
              x.count == 32, ox.map({ $0.count == 32 }) ?? true else { throw SoftchatError.arg }
        key.withUnsafeBytes { setTuple(&f.key, raw: $0) }
        withUnsafeMutableBytes(of: &f.nonce) { $0.copyBytes(from: iv) }
        f.nonce_len = iv.count
        setTuple(&f.x, x)
        if let ox {
            setTuple(&f.ox, ox)
            f.has_ox = 1
        }
        f.size = size
        f.dim = mem.str(dim ?? "")
        f.blurhash = mem.str(blurhash ?? "")
        f.thumb = mem.str(thumb ?? "")
        if !fallbacks.isEmpty {
            let list = mem.array(sc_str(ptr: nil, len: 0), count: fallbacks.count)
            for (i, u) in fallbacks.enumerated() { list[i] = mem.str(u) }
            f.fallbacks = UnsafePointer(list)
            f.n_fallbacks = fallbacks.count
        }
        return f
    }

    init(_ rumor: inout sc_event) throws {
        var f = sc_nip17_file()
        defer { withUnsafeMutableBytes(of: &f) { sc_mem_wipe($0.baseAddress, $0.count) } }
        var n = 0
        var s = sc_nip17_file_parse(&f, nil, 0, &n, &rumor)
        var list = [sc_str](repeating: sc_str(ptr: nil, len: 0), count: n)
        if s == SC_ERR_BUFFER_TOO_SMALL { s = sc_nip17_file_parse(&f, &list, n, &n, &rumor) }
        try check(s)
        url = string(f.url)
        fileType = string(f.file_type)
        key = withUnsafeBytes(of: f.key) { SecretBytes($0) }
        iv = withUnsafeBytes(of: f.nonce) { Array($0.prefix(f.nonce_len)) }
        x = tupleBytes(f.x)
        ox = f.has_ox != 0 ? tupleBytes(f.ox) : nil
        size = f.size
        let opt = { (s: sc_str) in s.len > 0 ? string(s) : nil }
        dim = opt(f.dim)
        blurhash = opt(f.blurhash)
        thumb = opt(f.thumb)
        fallbacks = list.prefix(n).map(string)
    }
}

/// A received NIP-17 message, authenticated through every layer.
public struct PrivateMessage: Sendable {
    /// The seal's signer: the real author.
    public let sender: PublicKey
    /// 14 (chat) or 15 (file).
    public let kind: Int
    public let createdAt: Int64
    public let rumorId: EventId
    public let tags: [[String]]
    /// The room: the sender, then each distinct p tag, in order.
    public let room: [PublicKey]
    /// The text as UTF-8 bytes, which `content.wipe()` zeroes (kind 15: the blob's URL).
    public let content: SecretBytes
    /// Kind 15: the attachment's parameters.
    public let file: FileMessage?
    /// The gift wrap's kind (1059 or 21059) and id.
    public let wrapKind: Int
    public let wrapId: EventId

    /// The text as a String (which cannot be wiped).
    public var text: String { content.text }

    /// The value of the subject tag, if any (the room's title).
    public var subject: String? { tags.first { $0.count >= 2 && $0[0] == "subject" }?[1] }
}

extension Softchat {
    /// Sends a kind 14 chat message: one gift wrap per distinct receiver (in order, each
    /// with its relay hint), then the sender's own copy unless the sender is a receiver.
    public func sendMessage(_ text: String, from me: Identity, to receivers: [Receiver], createdAt: Int64,
                            subject: String? = nil, replyTo: EventId? = nil,
                            options: WrapOptions = WrapOptions()) throws -> [GiftWrap] {
        var b = Array(text.utf8)
        defer { b.withUnsafeMutableBytes { sc_mem_wipe($0.baseAddress, $0.count) } }
        return try sendMessage(bytes: b, from: me, to: receivers, createdAt: createdAt, subject: subject,
                               replyTo: replyTo, options: options)
    }

    /// As `sendMessage(_:from:to:createdAt:subject:replyTo:options:)` with the text as
    /// UTF-8 bytes.
    public func sendMessage(bytes: [UInt8], from me: Identity, to receivers: [Receiver], createdAt: Int64,
                            subject: String? = nil, replyTo: EventId? = nil,
                            options: WrapOptions = WrapOptions()) throws -> [GiftWrap] {
        let mem = CMemory()
        var m = chat(receivers, createdAt: createdAt, subject: subject, replyTo: replyTo, mem: mem)
        m.content = mem.str(bytes)
        return try me.use { id in
            let cap = sc_nip17_chat_rumor_buf_max(&m)
            let buf = mem.raw(cap)
            var rumor = sc_event()
            try check(sc_nip17_chat_rumor(ctx, &rumor, buf.baseAddress, cap, &m, me.publicKey.bytes))
            return try send(&rumor, id, me.publicKey, options, mem)
        }
    }

    /// Sends a kind 15 file message (the attachment's parameters as tags), wrapped as
    /// `sendMessage` wraps a chat message.
    public func sendFile(_ file: FileMessage, from me: Identity, to receivers: [Receiver], createdAt: Int64,
                         subject: String? = nil, replyTo: EventId? = nil,
                         options: WrapOptions = WrapOptions()) throws -> [GiftWrap] {
        let mem = CMemory()
        var m = chat(receivers, createdAt: createdAt, subject: subject, replyTo: replyTo, mem: mem)
        var f = try file.c(mem)
        defer { withUnsafeMutableBytes(of: &f) { sc_mem_wipe($0.baseAddress, $0.count) } }
        return try me.use { id in
            let cap = sc_nip17_file_rumor_buf_max(&m, &f)
            let buf = mem.raw(cap)
            var rumor = sc_event()
            try check(sc_nip17_file_rumor(ctx, &rumor, buf.baseAddress, cap, &m, &f, me.publicKey.bytes))
            return try send(&rumor, id, me.publicKey, options, mem)
        }
    }

    private func chat(_ receivers: [Receiver], createdAt: Int64, subject: String?, replyTo: EventId?,
                      mem: CMemory) -> sc_nip17_chat {
        var m = sc_nip17_chat()
        let peers = mem.array(sc_nip17_peer(), count: receivers.count)
        for (i, r) in receivers.enumerated() {
            setTuple(&peers[i].pubkey, r.publicKey.bytes)
            peers[i].relay = mem.str(r.relay ?? "")
        }
        m.to = receivers.isEmpty ? nil : UnsafePointer(peers)
        m.n_to = receivers.count
        if let replyTo {
            let p = mem.array(UInt8(0), count: 32)
            p.update(from: replyTo.bytes, count: 32)
            m.reply_to = UnsafePointer(p)
        }
        if let subject { m.subject = mem.presentStr(subject) }
        m.created_at = createdAt
        return m
    }

    private func send(_ rumor: inout sc_event, _ id: UnsafePointer<sc_identity>, _ sender: PublicKey,
                      _ options: WrapOptions, _ mem: CMemory) throws -> [GiftWrap] {
        var opts = options.c(mem)
        let count = sc_nip17_send_wraps_len(&rumor, sender.bytes)
        let outCap = sc_nip17_send_max(&rumor, sender.bytes, &opts)
        let scratchCap = sc_nip17_send_scratch_max(&rumor, sender.bytes, &opts)
        let out = mem.raw(outCap)
        let scratch = mem.raw(scratchCap)
        let wraps = mem.array(sc_nip17_wrap(), count: count)
        var outLen = 0
        var n = 0
        try check(sc_nip17_send(ctx, out.baseAddress?.assumingMemoryBound(to: CChar.self), outCap, &outLen,
                                wraps, count, &n, scratch.baseAddress, scratchCap, &rumor, id, &opts))
        return try (0..<n).map { i in
            let w = wraps[i]
            return GiftWrap(recipient: try PublicKey(tupleBytes(w.recipient)),
                            json: String(decoding: UnsafeRawBufferPointer(rebasing: out[w.offset..<w.offset + w.len]), as: UTF8.self))
        }
    }

    /// Receives a NIP-17 gift wrap for `me`: every unwrap check, a kind 14 or 15 rumor with
    /// valid p tags (`SC_ERR_MESSAGE` otherwise), its room; NIP-40 at `now` (nil: the clock)
    /// as for `unwrap`.
    public func receive(_ json: String, for me: Identity, now: Int64? = nil) throws -> PrivateMessage {
        let w = Array(json.utf8)
        guard w.count <= limits.maxWrapBytes else { throw SoftchatError.tooLarge }
        let mem = CMemory()
        var msg = sc_nip17_received()
        let t = now ?? unixNow()
        try me.use { id in
            try withArena(mem, sc_nip17_receive_arena_max(w.count)) { arena, cap, used in
                sc_nip17_receive_at(ctx, &msg, arena, cap, used, w, w.count, id, t)
            }
        }
        let f = try WrapFacts(msg.wrap)
        let room = try (0..<msg.n_room).map { i in try PublicKey(withUnsafeBytes(of: msg.room[i]) { Array($0) }) }
        let c = msg.rumor.content
        return PrivateMessage(
            sender: f.sender, kind: Int(msg.rumor.kind), createdAt: msg.rumor.created_at,
            rumorId: try EventId(tupleBytes(msg.rumor.id)), tags: readTags(msg.rumor), room: room,
            content: SecretBytes(UnsafeRawBufferPointer(start: c.ptr, count: c.len)),
            file: msg.rumor.kind == SC_NIP17_KIND_FILE ? try FileMessage(&msg.rumor) : nil,
            wrapKind: f.wrapKind, wrapId: f.wrapId)
    }
}
