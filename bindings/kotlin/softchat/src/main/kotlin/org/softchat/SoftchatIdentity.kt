package org.softchat

import org.softchat.internal.BlobWriter
import org.softchat.internal.Hex
import org.softchat.internal.NativeBridge
import org.softchat.internal.NativeHandle

/**
 * A Nostr identity: a secp256k1 secret key held in native memory (never in a Java array
 * after import) with its x-only public key, cached once at import. Read-only after import:
 * any number of threads may use it at once. [erase] (or [close]) wipes the secret; an
 * identity never erased is wiped by the cleaner once unreachable. After erase every call
 * gives SC_ERR_STATE; calls in flight finish first.
 *
 * Text and secrets: a String cannot be wiped, so every call that takes or returns private
 * text also has a ByteArray form (UTF-8) that the caller can wipe with fill(0).
 */
class SoftchatIdentity internal constructor(
    private val sc: Softchat,
    handle: Long,
    private val pub: ByteArray,
) : AutoCloseable {
    private val h = NativeHandle(this, NativeHandle.KIND_IDENTITY, handle)

    /** The x-only public key (its hex made once, on first use). */
    @get:JvmName("getPublicKey")
    val publicKey: PublicKey get() = PublicKey.ofHex(publicKeyHex)

    /** The x-only public key, lowercase hex (made once, on first use). */
    val publicKeyHex: String get() = hexCache ?: Hex.encode(pub).also { hexCache = it }

    @Volatile private var hexCache: String? = null

    /** A copy of the 32-byte x-only public key. */
    fun publicKeyBytes(): ByteArray = pub.copyOf()

    internal fun pubRef(): ByteArray = pub

    /** The secret key (32 bytes, for a backup or an nsec): the caller wipes it. */
    fun exportSecret(): ByteArray {
        val out = ByteArray(32)
        val id = h.acquire()
        try {
            NativeBridge.identitySecret(id, out)
        } finally {
            h.release(this)
        }
        return out
    }

    // ---- NIP-44 v2 -------------------------------------------------------------------------

    /** NIP-44 v2 payload of UTF-8 text for peer; 1..65535 bytes. */
    @JvmName("nip44Encrypt")
    fun nip44Encrypt(peer: PublicKey, plaintext: String): String = encryptText(peer.toHex(), plaintext)

    /** As [nip44Encrypt] with the peer's key as 32 bytes. */
    fun nip44Encrypt(peer: ByteArray, plaintext: String): String = encryptText(peer, plaintext)

    /** NIP-44 v2 payload of bytes; [extended] allows 65536+ bytes (the 6-byte prefix). */
    @JvmOverloads @JvmName("nip44Encrypt")
    fun nip44Encrypt(peer: PublicKey, plaintext: ByteArray, extended: Boolean = false): String =
        encryptTo(peer.toHex(), plaintext, extended)

    /** As [nip44Encrypt] with the peer's key as 32 bytes. */
    @JvmOverloads
    fun nip44Encrypt(peer: ByteArray, plaintext: ByteArray, extended: Boolean = false): String =
        encryptTo(peer, plaintext, extended)

    private fun encryptText(peer: Any, plaintext: String): String {
        val p = plaintext.toByteArray(Charsets.UTF_8)
        try {
            return encryptTo(peer, p, false)
        } finally {
            p.fill(0)
        }
    }

    /** peer: a PublicKey's hex or 32 bytes (NativeBridge takes either). */
    private fun encryptTo(peer: Any, plaintext: ByteArray, extended: Boolean): String {
        val id = h.acquire()
        try {
            return sc.withSlot { NativeBridge.nip44EncryptTo(it, id, peer, plaintext, if (extended) 1 else 0) }
        } finally {
            h.release(this)
        }
    }

    /** Authenticates and decrypts a payload from peer, as UTF-8 text. */
    @JvmName("nip44Decrypt")
    fun nip44Decrypt(peer: PublicKey, payload: String): String = text(decryptFrom(peer.toHex(), payload))

    /** As [nip44Decrypt] with the peer's key as 32 bytes. */
    fun nip44Decrypt(peer: ByteArray, payload: String): String = text(decryptFrom(peer, payload))

    /** Authenticates and decrypts a payload from peer; the caller wipes the result. */
    @JvmName("nip44DecryptBytes")
    fun nip44DecryptBytes(peer: PublicKey, payload: String): ByteArray = decryptFrom(peer.toHex(), payload)

    /** As [nip44DecryptBytes] with the peer's key as 32 bytes. */
    fun nip44DecryptBytes(peer: ByteArray, payload: String): ByteArray = decryptFrom(peer, payload)

    private fun text(b: ByteArray): String {
        try {
            return String(b, Charsets.UTF_8)
        } finally {
            b.fill(0)
        }
    }

    private fun decryptFrom(peer: Any, payload: String): ByteArray {
        val p = payload.toByteArray(Charsets.ISO_8859_1) // non-Latin-1 becomes '?': SC_ERR_BASE64
        val id = h.acquire()
        try {
            return sc.withSlot { NativeBridge.nip44DecryptFrom(it, id, peer, p, sc.limits.maxNip44Payload) }
        } finally {
            h.release(this)
        }
    }

    /** A held conversation with peer: the conversation key derived once, for many messages. */
    @JvmName("conversation")
    fun conversation(peer: PublicKey): Nip44Conversation = conversationWith(peer.toHex())

    /** As [conversation] with the peer's key as 32 bytes. */
    fun conversation(peer: ByteArray): Nip44Conversation = conversationWith(peer)

    private fun conversationWith(peer: Any): Nip44Conversation {
        val id = h.acquire()
        try {
            return Nip44Conversation(sc, sc.withSlot { NativeBridge.convNew(it, id, peer) })
        } finally {
            h.release(this)
        }
    }

    // ---- NIP-01 ----------------------------------------------------------------------------

    /** Signs a new event (id and BIP-340 signature with fresh aux randomness). */
    fun sign(kind: Int, createdAt: Long, tags: List<List<String>>, content: String): NostrEvent =
        signWith(kind, createdAt, tags, content, null)

    internal fun signWith(kind: Int, createdAt: Long, tags: List<List<String>>, content: String, aux: ByteArray?): NostrEvent {
        val t = BlobWriter.tags(tags)
        val c = content.toByteArray(Charsets.UTF_8)
        val id = h.acquire()
        try {
            return NostrEvent.decodeSigned(sc.withSlot { NativeBridge.eventSign(it, id, kind, createdAt, t, c, aux) })
        } finally {
            h.release(this)
        }
    }

    /** BIP-340 signature over a 32-byte message (aux: 32 bytes, or null for fresh randomness). */
    @JvmOverloads
    fun signSchnorr(msg: ByteArray, aux: ByteArray? = null): ByteArray {
        val id = h.acquire()
        try {
            return sc.withSlot { NativeBridge.schnorrSign(it, id, msg, aux) }
        } finally {
            h.release(this)
        }
    }

    // ---- NIP-59 ----------------------------------------------------------------------------

    /** A rumor (unsigned event with its id) by this identity. */
    fun rumor(kind: Int, createdAt: Long, tags: List<List<String>>, content: String): Rumor {
        val t = BlobWriter.tags(tags)
        val c = content.toByteArray(Charsets.UTF_8)
        h.acquire() // an erased identity makes no rumor either (SC_ERR_STATE)
        try {
            return Rumor.decode(sc.withSlot { NativeBridge.eventRumor(it, pub, kind, createdAt, t, c) })
        } finally {
            h.release(this)
            c.fill(0)
        }
    }

    /** Seals and gift-wraps rumor (by this identity) for recipient: the wrap's JSON. */
    @JvmOverloads @JvmName("giftWrap")
    fun giftWrap(rumor: Rumor, recipient: PublicKey, options: WrapOptions = WrapOptions()): String =
        wrapFor(rumor, recipient.toHex(), options)

    /** As [giftWrap] with the recipient's key as 32 bytes. */
    @JvmOverloads
    fun giftWrap(rumor: Rumor, recipient: ByteArray, options: WrapOptions = WrapOptions()): String =
        wrapFor(rumor, recipient, options)

    private fun wrapFor(rumor: Rumor, recipient: Any, options: WrapOptions): String {
        if (rumor.pubkey.toHex() != publicKeyHex) throw SoftchatException(SoftchatException.SC_ERR_RUMOR_AUTHOR)
        val t = BlobWriter.tags(rumor.tags)
        val c = rumor.content.toByteArray(Charsets.UTF_8)
        val relay = options.relay?.toByteArray(Charsets.UTF_8)
        val id = h.acquire()
        try {
            val out = sc.withSlot {
                NativeBridge.giftWrap(it, id, rumor.kind, rumor.createdAt, t, c, recipient, options.flags(), relay, options.expiration, options.now)
            }
            return String(out, Charsets.UTF_8)
        } finally {
            h.release(this)
            c.fill(0)
        }
    }

    /**
     * Unwraps and authenticates a gift wrap addressed to this identity (every check), and
     * applies NIP-40 at time [now] (unix seconds; 0 reads the clock): an expired wrap or seal
     * throws SC_ERR_WRAP_EXPIRED / SC_ERR_SEAL_EXPIRED, so a disappearing message is not
     * shown after its time.
     */
    @JvmOverloads
    fun unwrap(giftWrapJson: String, now: Long = 0): UnwrappedRumor {
        val w = giftWrapJson.toByteArray(Charsets.UTF_8)
        val t = clock(now)
        val id = h.acquire()
        try {
            return UnwrappedRumor.decode(sc.withSlot { NativeBridge.unwrap(it, id, w, sc.limits.maxWrapBytes, t) })
        } finally {
            h.release(this)
        }
    }

    // ---- NIP-17 ----------------------------------------------------------------------------

    /**
     * A kind 14 chat message to the receivers: one gift wrap per distinct receiver (in order),
     * then the sender's own copy (unless the sender is a receiver). [replyTo]: the id of the
     * message answered (an e tag).
     */
    @JvmOverloads @JvmName("sendMessage")
    fun sendMessage(
        to: List<Receiver>,
        content: String,
        createdAt: Long,
        subject: String? = null,
        replyTo: EventId? = null,
        options: WrapOptions = WrapOptions(),
    ): List<GiftWrap> {
        val c = content.toByteArray(Charsets.UTF_8)
        try {
            return sendMessage(to, c, createdAt, subject, replyTo, options)
        } finally {
            c.fill(0)
        }
    }

    /** As [sendMessage] with the text as UTF-8 bytes (which the caller can wipe). */
    @JvmName("sendMessage")
    fun sendMessage(
        to: List<Receiver>,
        content: ByteArray,
        createdAt: Long,
        subject: String?,
        replyTo: EventId?,
        options: WrapOptions,
    ): List<GiftWrap> = send(to, content, false, createdAt, subject, replyTo, options)

    /**
     * A kind 15 file message to the receivers (NIP-17): the encrypted file's URL and
     * parameters ([FileMessage.of] an [EncryptedAttachment]) as the rumor's content and tags,
     * wrapped as [sendMessage] wraps a chat message. SC_ERR_MESSAGE for an empty URL or file
     * type.
     */
    @JvmOverloads @JvmName("sendFile")
    fun sendFile(
        to: List<Receiver>,
        file: FileMessage,
        createdAt: Long,
        subject: String? = null,
        replyTo: EventId? = null,
        options: WrapOptions = WrapOptions(),
    ): List<GiftWrap> {
        val blob = file.encode()
        try {
            return send(to, blob, true, createdAt, subject, replyTo, options)
        } finally {
            blob.fill(0) // it held the file key
        }
    }

    private fun send(
        to: List<Receiver>,
        content: ByteArray,
        file: Boolean,
        createdAt: Long,
        subject: String?,
        replyTo: EventId?,
        options: WrapOptions,
    ): List<GiftWrap> {
        val peers = Receiver.encode(to)
        val s = subject?.toByteArray(Charsets.UTF_8)
        val relay = options.relay?.toByteArray(Charsets.UTF_8)
        val reply = replyTo?.toHex()
        val id = h.acquire()
        try {
            return GiftWrap.decodeList(sc.withSlot {
                if (file) {
                    NativeBridge.sendFile(it, id, peers, content, createdAt, s, reply, options.flags(), relay, options.expiration, options.now)
                } else {
                    NativeBridge.send(it, id, peers, content, createdAt, s, reply, options.flags(), relay, options.expiration, options.now)
                }
            })
        } finally {
            h.release(this)
        }
    }

    /**
     * Receives a NIP-17 gift wrap: every unwrap check, a kind 14 or 15 rumor, its room; NIP-40
     * at time [now] as for [unwrap] (an expired message throws).
     */
    @JvmOverloads
    fun receive(giftWrapJson: String, now: Long = 0): PrivateMessage {
        val w = giftWrapJson.toByteArray(Charsets.UTF_8)
        val t = clock(now)
        val id = h.acquire()
        try {
            return PrivateMessage.decode(sc, sc.withSlot { NativeBridge.receive(it, id, w, sc.limits.maxWrapBytes, t) })
        } finally {
            h.release(this)
        }
    }

    /** now, or the clock for 0 (a negative now reaches the library: SC_ERR_ARG). */
    private fun clock(now: Long): Long = if (now == 0L) System.currentTimeMillis() / 1000 else now

    /** The native identity held for a long user (a relay pool's AUTH): [releaseNative] ends
     *  the hold; an erase meanwhile frees it only then. */
    internal fun holdNative(): Long = h.acquire()

    internal fun releaseNative() = h.release(this)

    /** Wipes the secret key; later calls give SC_ERR_STATE. */
    fun erase() = h.closeOwner()

    val isErased: Boolean get() = h.isClosed

    override fun close() = erase()
}

/** A NIP-17 receiver: x-only public key and an optional relay hint for its wrap's p tag. */
class Receiver(@get:JvmName("getPublicKey") val publicKey: PublicKey, val relay: String? = null) {
    /** A receiver by the 32 bytes of its key (SC_ERR_ARG for another length). */
    @JvmOverloads constructor(publicKey: ByteArray, relay: String? = null) : this(PublicKey.fromBytes(publicKey), relay)

    internal companion object {
        fun encode(list: List<Receiver>): ByteArray {
            val relays = list.map { it.relay?.toByteArray(Charsets.UTF_8) }
            var size = 4
            for (i in list.indices) size += 36 + (relays[i]?.size ?: 0)
            val out = ByteArray(size)
            var o = BlobWriter.put(out, 0, list.size)
            for (i in list.indices) {
                Hex.decodeInto(list[i].publicKey.toHex(), out, o)
                o += 32
                val r = relays[i]
                o = BlobWriter.put(out, o, r?.size ?: 0)
                if (r != null) {
                    System.arraycopy(r, 0, out, o, r.size)
                    o += r.size
                }
            }
            return out
        }
    }
}

/** Options of a gift wrap (NIP-59) and of each wrap of a NIP-17 message. */
class WrapOptions @JvmOverloads constructor(
    /** Kind 21059 instead of 1059. */
    val ephemeral: Boolean = false,
    /** Allow rumor or seal JSON of 65536+ bytes (unreadable by u16-only receivers). */
    val extended: Boolean = false,
    /** Relay hint for the wrap's p tag (gift wrap; the sender's copy of a message). */
    val relay: String? = null,
    /** > 0: an expiration tag on seal and wrap. */
    val expiration: Long = 0,
    /** The current time in seconds; 0 reads the clock. */
    val now: Long = 0,
) {
    internal fun flags(): Int = (if (ephemeral) 0x100 else 0) or (if (extended) 1 else 0)
}
