package org.softchat

import org.softchat.internal.BlobReader
import org.softchat.internal.BlobWriter
import java.io.InputStream
import java.io.OutputStream

/**
 * The attachment of a NIP-17 kind 15 file message: where the encrypted blob (AES-256-GCM
 * ciphertext || tag) is stored and how to decrypt and check it. Sent with
 * [SoftchatIdentity.sendFile] (made from an [EncryptedAttachment] by [of]); read from a
 * received message by [PrivateMessage.file]. It holds the file key: [close] wipes it.
 */
class FileMessage(
    /** The blob's URL (the rumor's content). */
    val url: String,
    /** The plaintext's MIME type (file-type). */
    val fileType: String,
    /** The AES-256 key (decryption-key): wiped by [close]. */
    val key: ByteArray,
    /** The IV (decryption-nonce), 12 to 32 bytes; 16 from [Attachments.encrypt]. */
    val nonce: ByteArray,
    /** x: SHA-256 of the blob (ciphertext || tag). */
    val sha256: ByteArray,
    /** ox: SHA-256 of the plaintext, or null. */
    val plaintextSha256: ByteArray? = null,
    /** Bytes of the blob; 0 when not given. */
    val size: Long = 0,
    /** "<width>x<height>" of an image or video, or null. */
    val dim: String? = null,
    val blurhash: String? = null,
    /** A thumbnail's URL, or null. */
    val thumb: String? = null,
    /** Further URLs of the same blob. */
    val fallbacks: List<String> = emptyList(),
) : AutoCloseable {
    /** The decryption-nonce tag as it was written (a received message only; else null). */
    var nonceText: String? = null
        private set

    /**
     * Decrypts the blob read from input and writes the plaintext to output only once its tag
     * verified ([Attachments.decrypt] with this key and nonce): SC_ERR_AUTH and nothing
     * written for a blob that does not authenticate. Compare the result's sha256 with
     * [sha256] to know it is the blob the sender uploaded.
     */
    @JvmOverloads
    fun decrypt(input: InputStream, output: OutputStream, maxBytes: Long = 64L shl 20, softchat: Softchat = Softchat.default()): DecryptedAttachment =
        Attachments.decrypt(input, output, key, nonce, maxBytes, softchat)

    /** Wipes the key. */
    override fun close() = key.fill(0)

    /** The blob of bindings/kotlin/jni/scj.h (scj_file_read); it holds the key: wipe it. */
    internal fun encode(): ByteArray {
        if (key.size != 32 || sha256.size != 32 || (plaintextSha256 != null && plaintextSha256.size != 32) ||
            nonce.size > 32 || size < 0
        ) {
            throw SoftchatException(SoftchatException.SC_ERR_ARG)
        }
        val strs = listOf(url, fileType, dim ?: "", blurhash ?: "", thumb ?: "").map { it.toByteArray(Charsets.UTF_8) }
        val fb = fallbacks.map { it.toByteArray(Charsets.UTF_8) }
        val out = ByteArray(strs.sumOf { 4 + it.size } + 32 + 4 + nonce.size + 32 + 4 + 32 + 8 + 4 + fb.sumOf { 4 + it.size })
        var o = put(out, 0, strs[0])
        o = put(out, o, strs[1])
        o = raw(out, o, key)
        o = BlobWriter.put(out, o, nonce.size)
        o = raw(out, o, nonce)
        o = raw(out, o, sha256)
        o = BlobWriter.put(out, o, if (plaintextSha256 != null) 1 else 0)
        o = if (plaintextSha256 != null) raw(out, o, plaintextSha256) else o + 32
        o = BlobWriter.put(out, o, size.toInt())
        o = BlobWriter.put(out, o, (size ushr 32).toInt())
        for (i in 2..4) o = put(out, o, strs[i])
        o = BlobWriter.put(out, o, fb.size)
        for (f in fb) o = put(out, o, f)
        return out
    }

    companion object {
        /**
         * The file message of an attachment encrypted with [Attachments.encrypt] and uploaded
         * to [url]: its key (copied; erase the attachment as before), IV, x, ox and size.
         */
        @JvmStatic @JvmOverloads
        fun of(
            attachment: EncryptedAttachment,
            url: String,
            fileType: String,
            dim: String? = null,
            blurhash: String? = null,
            thumb: String? = null,
            fallbacks: List<String> = emptyList(),
        ): FileMessage = FileMessage(
            url, fileType, attachment.key.copyOf(), attachment.iv.copyOf(), attachment.sha256.copyOf(),
            attachment.plaintextSha256.copyOf(), attachment.size, dim, blurhash, thumb, fallbacks,
        )

        private fun put(out: ByteArray, o: Int, b: ByteArray): Int = raw(out, BlobWriter.put(out, o, b.size), b)

        private fun raw(out: ByteArray, o: Int, b: ByteArray): Int {
            System.arraycopy(b, 0, out, o, b.size)
            return o + b.size
        }

        private fun opt(s: String): String? = s.ifEmpty { null }

        /** The blob of nip17_file.c's file_out; wiped here (it holds the key). */
        internal fun decode(blob: ByteArray): FileMessage {
            try {
                val r = BlobReader(blob)
                val url = r.string(r.u32())
                val type = r.string(r.u32())
                val key = r.bytes(32)
                val nonce = r.bytes(r.u32())
                val nonceText = r.string(r.u32())
                val x = r.bytes(32)
                val hasOx = r.u32() != 0
                val ox = r.bytes(32)
                val size = r.i64()
                val dim = opt(r.string(r.u32()))
                val blurhash = opt(r.string(r.u32()))
                val thumb = opt(r.string(r.u32()))
                val fallbacks = List(r.u32()) { r.string(r.u32()) }
                val f = FileMessage(url, type, key, nonce, x, if (hasOx) ox else null, size, dim, blurhash, thumb, fallbacks)
                f.nonceText = nonceText
                return f
            } finally {
                blob.fill(0)
            }
        }
    }
}
