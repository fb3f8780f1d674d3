package org.softchat

import org.softchat.internal.BlobReader
import org.softchat.internal.BlobWriter
import org.softchat.internal.NativeBridge

/** A decoded NIP-19 entity. */
sealed class Nip19Entity {
    class Npub(val publicKey: ByteArray) : Nip19Entity()
    /** The secret key: the caller wipes it. */
    class Nsec(val secretKey: ByteArray) : Nip19Entity()
    class Note(val id: ByteArray) : Nip19Entity()
    class Nprofile(val publicKey: ByteArray, val relays: List<String>) : Nip19Entity()
    class Nevent(val id: ByteArray, val relays: List<String>, val author: ByteArray?, val kind: Int?) : Nip19Entity()
    class Naddr(val identifier: String, val author: ByteArray, val kind: Int, val relays: List<String>) : Nip19Entity()
}

/** NIP-19 bech32 entities (display and input only; never put them in events). */
object Nip19 {
    private const val NPUB = 1
    private const val NSEC = 2
    private const val NOTE = 3
    private const val NPROFILE = 4
    private const val NEVENT = 5
    private const val NADDR = 6

    @JvmStatic fun encodeNpub(publicKey: ByteArray): String = text(enc(NPUB, publicKey))

    /** The nsec of a secret key as ASCII bytes (a String could not be wiped): wipe it. */
    @JvmStatic fun encodeNsec(secretKey: ByteArray): ByteArray = enc(NSEC, secretKey)

    @JvmStatic fun encodeNote(id: ByteArray): String = text(enc(NOTE, id))

    @JvmStatic @JvmOverloads
    fun encodeNprofile(publicKey: ByteArray, relays: List<String> = emptyList()): String =
        text(enc(NPROFILE, publicKey, relays = relays))

    @JvmStatic @JvmOverloads
    fun encodeNevent(id: ByteArray, relays: List<String> = emptyList(), author: ByteArray? = null, kind: Int? = null): String =
        text(enc(NEVENT, id, author, kind, relays = relays))

    @JvmStatic @JvmOverloads
    fun encodeNaddr(identifier: String, author: ByteArray, kind: Int, relays: List<String> = emptyList()): String =
        text(NativeBridge.nip19Encode(NADDR, null, author, kind, true, identifier.toByteArray(Charsets.UTF_8), BlobWriter.strings(relays)))

    /** Decodes any entity (SC_ERR_BECH32, SC_ERR_TLV, ... when malformed). */
    @JvmStatic fun decode(text: String): Nip19Entity = decode(text.toByteArray(Charsets.ISO_8859_1))

    /** As [decode] of ASCII bytes (an nsec the caller can wipe). */
    @JvmStatic fun decode(text: ByteArray): Nip19Entity {
        val blob = NativeBridge.nip19Decode(text)
        try {
            val r = BlobReader(blob)
            val type = r.u32()
            val key = r.bytes(32)
            val hasAuthor = r.u32() != 0
            val author = r.bytes(32)
            val hasKind = r.u32() != 0
            val kind = r.u32()
            val identifier = r.string(r.u32())
            val relays = List(r.u32()) { r.string(r.u32()) }
            return when (type) {
                NPUB -> Nip19Entity.Npub(key)
                NSEC -> Nip19Entity.Nsec(key)
                NOTE -> Nip19Entity.Note(key)
                NPROFILE -> Nip19Entity.Nprofile(key, relays)
                NEVENT -> Nip19Entity.Nevent(key, relays, if (hasAuthor) author else null, if (hasKind) kind else null)
                else -> Nip19Entity.Naddr(identifier, author, kind, relays)
            }
        } finally {
            blob.fill(0)
        }
    }

    private fun enc(type: Int, key: ByteArray, author: ByteArray? = null, kind: Int? = null, relays: List<String> = emptyList()): ByteArray =
        NativeBridge.nip19Encode(type, key, author, kind ?: 0, kind != null, null, BlobWriter.strings(relays))

    private fun text(b: ByteArray): String = String(b, Charsets.US_ASCII)
}
