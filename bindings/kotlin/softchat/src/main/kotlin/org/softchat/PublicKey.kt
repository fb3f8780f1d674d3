package org.softchat

import org.softchat.internal.Hex

/**
 * An x-only public key (BIP-340, 32 bytes), as every call of the facade takes and returns
 * one. A value class over its lowercase hex: it costs no object beyond that String, two are
 * equal when their keys are, and it crosses JNI as the String itself (decoded in native
 * code). [parse] takes 64 hex digits of either case, an npub, an nprofile (its relays
 * dropped) or a NIP-21 `nostr:` URI of either; whether the key is a point of the curve is
 * checked where it is used (SC_ERR_INVALID_KEY).
 *
 * From Java a PublicKey is its hex String: members of this type appear with String types
 * (PublicKey.parse returns the normalized hex).
 */
@JvmInline
value class PublicKey private constructor(private val hex: String) {
    /** The lowercase hex (64 digits). */
    fun toHex(): String = hex

    /** The 32 bytes, in a new array. */
    fun toBytes(): ByteArray = Hex.decode(hex)!!

    /** The NIP-19 npub (for display and input; events carry the hex). */
    fun toNpub(): String = Nip19.encodeNpub(this)

    override fun toString(): String = hex

    companion object {
        /**
         * A key from text: 64 hex digits, npub1..., nprofile1... or nostr:npub1... /
         * nostr:nprofile1.... SC_ERR_ENCODING for 64 characters that are not all hex
         * digits, the NIP-19 statuses (SC_ERR_BECH32, SC_ERR_TLV) for anything else that is
         * not a well-formed entity, SC_ERR_BECH32 for an entity of another kind (a note, an
         * nsec).
         */
        @JvmStatic @JvmName("parse")
        fun parse(text: String): PublicKey = PublicKey(
            Hex.parse32(text) ?: when (val e = Nip19.decodeEntity(text)) {
                is Nip19Entity.Npub -> e.publicKey.hex
                is Nip19Entity.Nprofile -> e.publicKey.hex
                is Nip19Entity.Nsec -> {
                    e.secretKey.fill(0)
                    throw SoftchatException(SoftchatException.SC_ERR_BECH32)
                }
                else -> throw SoftchatException(SoftchatException.SC_ERR_BECH32)
            },
        )

        /** A key from its 32 bytes (SC_ERR_ARG for another length). */
        @JvmStatic @JvmName("fromBytes")
        fun fromBytes(bytes: ByteArray): PublicKey {
            if (bytes.size != 32) throw SoftchatException(SoftchatException.SC_ERR_ARG)
            return PublicKey(Hex.encode(bytes))
        }

        /** A key from hex the library wrote (lowercase, 64 digits): no check. */
        internal fun ofHex(lowerHex: String): PublicKey = PublicKey(lowerHex)
    }
}
