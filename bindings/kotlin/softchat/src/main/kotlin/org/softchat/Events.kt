package org.softchat

import org.softchat.internal.BlobReader
import org.softchat.internal.BlobWriter
import org.softchat.internal.NativeBridge

/**
 * A verified (or freshly signed) NIP-01 event: immutable. [json] is the text it was parsed
 * from, or the library's serialization of a signed event.
 */
class NostrEvent internal constructor(
    @get:JvmName("getId") val id: EventId,
    @get:JvmName("getPubkey") val pubkey: PublicKey,
    val sig: String,
    val createdAt: Long,
    val kind: Int,
    val tags: List<List<String>>,
    val content: String,
    val json: String,
) {
    override fun toString(): String = json

    internal companion object {
        fun decode(blob: ByteArray, json: String?): NostrEvent {
            val r = BlobReader(blob)
            r.u32() // flags: a verified event has all seven
            val id = EventId.ofHex(r.hex(32))
            val pubkey = PublicKey.ofHex(r.hex(32))
            val sig = r.hex(64)
            val createdAt = r.i64()
            val kind = r.u32()
            val tags = r.tags()
            val content = r.string(r.u32())
            return NostrEvent(id, pubkey, sig, createdAt, kind, tags, content, json ?: r.string(r.u32()))
        }

        fun decodeSigned(blob: ByteArray): NostrEvent = decode(blob, null)
    }
}

/** A rumor: an unsigned event with its id (NIP-59). Immutable. */
class Rumor internal constructor(
    @get:JvmName("getId") val id: EventId,
    @get:JvmName("getPubkey") val pubkey: PublicKey,
    val createdAt: Long,
    val kind: Int,
    val tags: List<List<String>>,
    val content: String,
) {
    internal companion object {
        fun decode(blob: ByteArray): Rumor = read(BlobReader(blob))

        fun read(r: BlobReader): Rumor {
            r.u32()
            val id = EventId.ofHex(r.hex(32))
            val pubkey = PublicKey.ofHex(r.hex(32))
            r.skip(64)
            val createdAt = r.i64()
            val kind = r.u32()
            val tags = r.tags()
            return Rumor(id, pubkey, createdAt, kind, tags, r.string(r.u32()))
        }
    }
}

/** What unwrap authenticated: the rumor, its real author and the outer layers. */
class UnwrappedRumor internal constructor(
    val rumor: Rumor,
    /** The seal's signer, equal to the rumor's pubkey: the real author. */
    @get:JvmName("getSender") val sender: PublicKey,
    /** The wrap's one-time key. */
    @get:JvmName("getWrapPubkey") val wrapPubkey: PublicKey,
    @get:JvmName("getWrapId") val wrapId: EventId,
    @get:JvmName("getSealId") val sealId: EventId,
    val wrapKind: Int,
    val wrapCreatedAt: Long,
    val sealCreatedAt: Long,
) {
    internal companion object {
        fun decode(blob: ByteArray): UnwrappedRumor {
            try {
                val r = BlobReader(blob)
                val sender = PublicKey.ofHex(r.hex(32))
                val wp = PublicKey.ofHex(r.hex(32))
                val wid = EventId.ofHex(r.hex(32))
                val sid = EventId.ofHex(r.hex(32))
                val wk = r.u32()
                val wc = r.i64()
                val sc = r.i64()
                return UnwrappedRumor(Rumor.read(r), sender, wp, wid, sid, wk, wc, sc)
            } finally {
                blob.fill(0) // the private rumor's bytes
            }
        }
    }
}

/** One gift wrap of a NIP-17 message: its recipient and its JSON, ready for a relay. */
class GiftWrap internal constructor(@get:JvmName("getRecipient") val recipient: PublicKey, val json: String) {
    internal companion object {
        fun decodeList(blob: ByteArray): List<GiftWrap> {
            val r = BlobReader(blob)
            val n = r.u32()
            val out = ArrayList<GiftWrap>(n)
            for (i in 0 until n) {
                val to = PublicKey.ofHex(r.hex(32))
                out.add(GiftWrap(to, r.string(r.u32())))
            }
            return java.util.Collections.unmodifiableList(out)
        }
    }
}

/**
 * A received NIP-17 message (kind 14 chat or 15 file), after every check of the unwrap. The
 * text is kept as UTF-8 bytes that [close] wipes: [contentBytes] copies them, and [content]
 * makes a String (which cannot be wiped) on first use. Tags are Strings. A kind 15 message's
 * content is the file's URL, and [file] reads its parameters.
 */
class PrivateMessage internal constructor(
    private val sc: Softchat,
    /** The seal's signer: the real author. */
    @get:JvmName("getSender") val sender: PublicKey,
    val kind: Int,
    val createdAt: Long,
    @get:JvmName("getRumorId") val rumorId: EventId,
    val tags: List<List<String>>,
    /** The sender, then each distinct p-tag public key. */
    val room: List<PublicKey>,
    private val text: ByteArray,
    @get:JvmName("getWrapId") val wrapId: EventId,
) : AutoCloseable {
    /**
     * The attachment of a kind 15 message, read by the library's parser (every required
     * tag, an "aes-gcm" algorithm, hex of the right lengths): SC_ERR_MESSAGE when they are
     * missing or malformed. null for a kind 14 message. The result holds the file key: close
     * it after use.
     */
    fun file(): FileMessage? {
        if (kind != 15) return null
        val t = BlobWriter.tags(tags)
        return FileMessage.decode(sc.withSlot { NativeBridge.fileParse(it, t, text) })
    }

    /** The message text (a String: it cannot be wiped; see [contentBytes]). */
    val content: String by lazy { String(text, Charsets.UTF_8) }

    /** A copy of the text's UTF-8 bytes (the caller wipes it). */
    fun contentBytes(): ByteArray = text.copyOf()

    /** The subject tag, if any. */
    val subject: String? get() = tags.firstOrNull { it.size >= 2 && it[0] == "subject" }?.get(1)

    /** Wipes the held text bytes. */
    override fun close() = text.fill(0)

    internal companion object {
        fun decode(sc: Softchat, blob: ByteArray): PrivateMessage {
            try {
                val r = BlobReader(blob)
                val sender = PublicKey.ofHex(r.hex(32))
                r.skip(32)
                val wrapId = EventId.ofHex(r.hex(32))
                r.skip(32 + 4 + 16)
                r.u32()
                val id = EventId.ofHex(r.hex(32))
                r.skip(32 + 64)
                val createdAt = r.i64()
                val kind = r.u32()
                val tags = r.tags()
                val text = r.bytes(r.u32())
                val n = r.u32()
                val room = List(n) { PublicKey.ofHex(r.hex(32)) }
                return PrivateMessage(sc, sender, kind, createdAt, id, tags, room, text, wrapId)
            } finally {
                blob.fill(0)
            }
        }
    }
}
