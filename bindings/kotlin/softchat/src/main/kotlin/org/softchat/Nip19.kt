package org.softchat

import org.softchat.internal.BlobReader
import org.softchat.internal.BlobWriter
import org.softchat.internal.NativeBridge

/** A decoded NIP-19 entity. */
sealed class Nip19Entity {
    class Npub(@get:JvmName("getPublicKey") val publicKey: PublicKey) : Nip19Entity()
    /** The secret key: the caller wipes it. */
    class Nsec(val secretKey: ByteArray) : Nip19Entity()
    class Note(@get:JvmName("getId") val id: EventId) : Nip19Entity()
    class Nprofile(@get:JvmName("getPublicKey") val publicKey: PublicKey, val relays: List<String>) : Nip19Entity()
    class Nevent(
        @get:JvmName("getId") val id: EventId,
        val relays: List<String>,
        @get:JvmName("getAuthor") val author: PublicKey?,
        val kind: Int?,
    ) : Nip19Entity()
    class Naddr(val identifier: String, @get:JvmName("getAuthor") val author: PublicKey, val kind: Int, val relays: List<String>) : Nip19Entity()
}

/**
 * NIP-19 bech32 entities (display and input only; never put them in events). Keys and ids
 * are [PublicKey] and [EventId]; the ByteArray forms take 32 bytes.
 */
object Nip19 {
    private const val NPUB = 1
    private const val NSEC = 2
    private const val NOTE = 3
    private const val NPROFILE = 4
    private const val NEVENT = 5
    private const val NADDR = 6

    @JvmStatic @JvmName("encodeNpub")
    fun encodeNpub(publicKey: PublicKey): String = text(enc(NPUB, publicKey.toHex()))

    @JvmStatic fun encodeNpub(publicKey: ByteArray): String = text(enc(NPUB, publicKey))

    /** The nsec of a secret key as ASCII bytes (a String could not be wiped): wipe it. */
    @JvmStatic fun encodeNsec(secretKey: ByteArray): ByteArray = enc(NSEC, secretKey)

    @JvmStatic @JvmName("encodeNote")
    fun encodeNote(id: EventId): String = text(enc(NOTE, id.toHex()))

    @JvmStatic fun encodeNote(id: ByteArray): String = text(enc(NOTE, id))

    @JvmStatic @JvmOverloads @JvmName("encodeNprofile")
    fun encodeNprofile(publicKey: PublicKey, relays: List<String> = emptyList()): String =
        text(enc(NPROFILE, publicKey.toHex(), relays = relays))

    @JvmStatic @JvmOverloads
    fun encodeNprofile(publicKey: ByteArray, relays: List<String> = emptyList()): String =
        text(enc(NPROFILE, publicKey, relays = relays))

    @JvmStatic @JvmOverloads @JvmName("encodeNevent")
    fun encodeNevent(id: EventId, relays: List<String> = emptyList(), author: PublicKey? = null, kind: Int? = null): String =
        text(enc(NEVENT, id.toHex(), author?.toHex(), kind, relays = relays))

    @JvmStatic @JvmOverloads
    fun encodeNevent(id: ByteArray, relays: List<String> = emptyList(), author: ByteArray? = null, kind: Int? = null): String =
        text(enc(NEVENT, id, author, kind, relays = relays))

    @JvmStatic @JvmOverloads @JvmName("encodeNaddr")
    fun encodeNaddr(identifier: String, author: PublicKey, kind: Int, relays: List<String> = emptyList()): String =
        naddr(identifier, author.toHex(), kind, relays)

    @JvmStatic @JvmOverloads
    fun encodeNaddr(identifier: String, author: ByteArray, kind: Int, relays: List<String> = emptyList()): String =
        naddr(identifier, author, kind, relays)

    private fun naddr(identifier: String, author: Any, kind: Int, relays: List<String>): String =
        text(NativeBridge.nip19Encode(NADDR, null, author, kind, true, identifier.toByteArray(Charsets.UTF_8), BlobWriter.strings(relays)))

    /** Decodes any entity (SC_ERR_BECH32, SC_ERR_TLV, ... when malformed). */
    @JvmStatic fun decode(text: String): Nip19Entity = decode(text.toByteArray(Charsets.ISO_8859_1))

    /** As [decode], after a NIP-21 "nostr:" prefix if there is one. */
    internal fun decodeEntity(text: String): Nip19Entity =
        decode(if (text.startsWith("nostr:")) text.substring(6) else text)

    /** As [decode] of ASCII bytes (an nsec the caller can wipe). */
    @JvmStatic fun decode(text: ByteArray): Nip19Entity {
        val blob = NativeBridge.nip19Decode(text)
        try {
            val r = BlobReader(blob)
            val type = r.u32()
            if (type == NSEC) return Nip19Entity.Nsec(r.bytes(32)) // never as a String
            val key = r.hex(32)
            val hasAuthor = r.u32() != 0
            val author = r.hex(32)
            val hasKind = r.u32() != 0
            val kind = r.u32()
            val identifier = r.string(r.u32())
            val relays = List(r.u32()) { r.string(r.u32()) }
            return when (type) {
                NPUB -> Nip19Entity.Npub(PublicKey.ofHex(key))
                NOTE -> Nip19Entity.Note(EventId.ofHex(key))
                NPROFILE -> Nip19Entity.Nprofile(PublicKey.ofHex(key), relays)
                NEVENT -> Nip19Entity.Nevent(EventId.ofHex(key), relays, if (hasAuthor) PublicKey.ofHex(author) else null, if (hasKind) kind else null)
                else -> Nip19Entity.Naddr(identifier, PublicKey.ofHex(author), kind, relays)
            }
        } finally {
            blob.fill(0)
        }
    }

    private fun enc(type: Int, key: Any, author: Any? = null, kind: Int? = null, relays: List<String> = emptyList()): ByteArray =
        NativeBridge.nip19Encode(type, key, author, kind ?: 0, kind != null, null, BlobWriter.strings(relays))

    private fun text(b: ByteArray): String = String(b, Charsets.US_ASCII)
}
