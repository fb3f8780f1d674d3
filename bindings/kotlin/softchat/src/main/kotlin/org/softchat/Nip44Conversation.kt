package org.softchat

import org.softchat.internal.NativeBridge
import org.softchat.internal.NativeHandle

/**
 * A held NIP-44 conversation: the conversation key of (identity, peer), derived once and kept
 * in native memory for many messages. Read-only: any number of threads may use it at once.
 * [close] wipes the key (a conversation never closed is wiped by the cleaner).
 */
class Nip44Conversation internal constructor(private val sc: Softchat, handle: Long) : AutoCloseable {
    private val h = NativeHandle(this, NativeHandle.KIND_CONVERSATION, handle)

    fun encrypt(plaintext: String): String {
        val p = plaintext.toByteArray(Charsets.UTF_8)
        try {
            return encrypt(p)
        } finally {
            p.fill(0)
        }
    }

    @JvmOverloads
    fun encrypt(plaintext: ByteArray, extended: Boolean = false): String {
        val c = h.acquire()
        try {
            return sc.withSlot { NativeBridge.convEncrypt(it, c, plaintext, if (extended) 1 else 0) }
        } finally {
            h.release(this)
        }
    }

    fun decrypt(payload: String): String {
        val b = decryptBytes(payload)
        try {
            return String(b, Charsets.UTF_8)
        } finally {
            b.fill(0)
        }
    }

    /** The plaintext bytes; the caller wipes them. */
    fun decryptBytes(payload: String): ByteArray {
        val p = payload.toByteArray(Charsets.ISO_8859_1)
        val c = h.acquire()
        try {
            return sc.withSlot { NativeBridge.convDecrypt(it, c, p, sc.limits.maxNip44Payload) }
        } finally {
            h.release(this)
        }
    }

    override fun close() = h.closeOwner()

    companion object {
        /** A conversation over a conversation key obtained elsewhere (32 bytes; test vectors). */
        @JvmStatic @JvmOverloads
        fun fromKey(key: ByteArray, softchat: Softchat = Softchat.default()): Nip44Conversation =
            Nip44Conversation(softchat, NativeBridge.convFromKey(key))
    }
}
