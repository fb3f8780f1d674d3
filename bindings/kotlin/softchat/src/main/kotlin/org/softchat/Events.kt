package org.softchat

import org.softchat.internal.BlobReader

/**
 * A verified (or freshly signed) NIP-01 event: immutable. [json] is the text it was parsed
 * from, or the library's serialization of a signed event.
 */
class NostrEvent internal constructor(
    val id: String,
    val pubkey: String,
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
            val id = r.hex(32)
            val pubkey = r.hex(32)
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
    val id: String,
    val pubkey: String,
    val createdAt: Long,
    val kind: Int,
    val tags: List<List<String>>,
    val content: String,
) {
    internal companion object {
        fun decode(blob: ByteArray): Rumor = read(BlobReader(blob))

        fun read(r: BlobReader): Rumor {
            r.u32()
            val id = r.hex(32)
            val pubkey = r.hex(32)
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
    val sender: String,
    val wrapPubkey: String,
    val wrapId: String,
    val sealId: String,
    val wrapKind: Int,
    val wrapCreatedAt: Long,
    val sealCreatedAt: Long,
) {
    internal companion object {
        fun decode(blob: ByteArray): UnwrappedRumor {
            try {
                val r = BlobReader(blob)
                val sender = r.hex(32)
                val wp = r.hex(32)
                val wid = r.hex(32)
                val sid = r.hex(32)
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
class GiftWrap internal constructor(val recipient: String, val json: String) {
    internal companion object {
        fun decodeList(blob: ByteArray): List<GiftWrap> {
            val r = BlobReader(blob)
            val n = r.u32()
            val out = ArrayList<GiftWrap>(n)
            for (i in 0 until n) {
                val to = r.hex(32)
                out.add(GiftWrap(to, r.string(r.u32())))
            }
            return java.util.Collections.unmodifiableList(out)
        }
    }
}

/**
 * A received NIP-17 message (kind 14 chat or 15 file), after every check of the unwrap. The
 * text is kept as UTF-8 bytes that [close] wipes: [contentBytes] copies them, and [content]
 * makes a String (which cannot be wiped) on first use. Tags and the room are Strings.
 */
class PrivateMessage internal constructor(
    val sender: String,
    val kind: Int,
    val createdAt: Long,
    val rumorId: String,
    val tags: List<List<String>>,
    /** The sender, then each distinct p-tag public key (hex). */
    val room: List<String>,
    private val text: ByteArray,
    val wrapId: String,
) : AutoCloseable {
    /** The message text (a String: it cannot be wiped; see [contentBytes]). */
    val content: String by lazy { String(text, Charsets.UTF_8) }

    /** A copy of the text's UTF-8 bytes (the caller wipes it). */
    fun contentBytes(): ByteArray = text.copyOf()

    /** The subject tag, if any. */
    val subject: String? get() = tags.firstOrNull { it.size >= 2 && it[0] == "subject" }?.get(1)

    /** Wipes the held text bytes. */
    override fun close() = text.fill(0)

    internal companion object {
        fun decode(blob: ByteArray): PrivateMessage {
            try {
                val r = BlobReader(blob)
                val sender = r.hex(32)
                r.skip(32)
                val wrapId = r.hex(32)
                r.skip(32 + 4 + 16)
                r.u32()
                val id = r.hex(32)
                r.skip(32 + 64)
                val createdAt = r.i64()
                val kind = r.u32()
                val tags = r.tags()
                val text = r.bytes(r.u32())
                val n = r.u32()
                val room = List(n) { r.hex(32) }
                return PrivateMessage(sender, kind, createdAt, id, tags, room, text, wrapId)
            } finally {
                blob.fill(0)
            }
        }
    }
}
