package org.softchat

import org.softchat.internal.Hex

/**
 * An event id (32 bytes: the SHA-256 of the event's canonical serialization), as every call
 * of the facade takes and returns one: a value class over its lowercase hex, like
 * [PublicKey]. [parse] takes 64 hex digits of either case, a note, an nevent (its relays,
 * author and kind dropped) or a NIP-21 `nostr:` URI of either.
 *
 * From Java an EventId is its hex String.
 */
@JvmInline
value class EventId private constructor(private val hex: String) {
    /** The lowercase hex (64 digits). */
    fun toHex(): String = hex

    /** The 32 bytes, in a new array. */
    fun toBytes(): ByteArray = Hex.decode(hex)!!

    /** The NIP-19 note. */
    fun toNote(): String = Nip19.encodeNote(this)

    override fun toString(): String = hex

    companion object {
        /**
         * An id from text: 64 hex digits, note1..., nevent1... or nostr:note1... /
         * nostr:nevent1.... Failures as for [PublicKey.parse] (an npub is
         * an entity of another kind).
         */
        @JvmStatic @JvmName("parse")
        fun parse(text: String): EventId = EventId(
            Hex.parse32(text) ?: when (val e = Nip19.decodeEntity(text)) {
                is Nip19Entity.Note -> e.id.hex
                is Nip19Entity.Nevent -> e.id.hex
                is Nip19Entity.Nsec -> {
                    e.secretKey.fill(0)
                    throw SoftchatException(SoftchatException.SC_ERR_BECH32)
                }
                else -> throw SoftchatException(SoftchatException.SC_ERR_BECH32)
            },
        )

        /** An id from its 32 bytes (SC_ERR_ARG for another length). */
        @JvmStatic @JvmName("fromBytes")
        fun fromBytes(bytes: ByteArray): EventId {
            if (bytes.size != 32) throw SoftchatException(SoftchatException.SC_ERR_ARG)
            return EventId(Hex.encode(bytes))
        }

        internal fun ofHex(lowerHex: String): EventId = EventId(lowerHex)
    }
}
