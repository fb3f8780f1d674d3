package org.softchat

import org.softchat.internal.NativeBridge
import java.io.IOException
import java.io.InputStream
import java.io.OutputStream

/** An encrypted attachment's parameters for a kind 15 message. [erase] wipes the key. */
class EncryptedAttachment internal constructor(
    val key: ByteArray,
    /** The 16-byte IV (decryption-nonce). */
    val iv: ByteArray,
    /** x: SHA-256 of ciphertext || tag (the uploaded blob). */
    val sha256: ByteArray,
    /** ox: SHA-256 of the plaintext. */
    val plaintextSha256: ByteArray,
    /** Bytes of ciphertext || tag. */
    val size: Long,
) {
    fun erase() = key.fill(0)
}

/** What decryption authenticated. */
class DecryptedAttachment internal constructor(val sha256: ByteArray, val plaintextSha256: ByteArray, val size: Long)

/**
 * Streaming AES-256-GCM attachments (NIP-17 kind 15). Each chunk crosses JNI once. A stream
 * holds one pooled context for its whole length.
 */
object Attachments {
    private const val CHUNK = 64 * 1024

    /**
     * Encrypts input to output under a fresh key and IV (from the CSPRNG) and returns them
     * with x, ox and the blob size. Stream failures are SC_ERR_IO (the cause attached).
     */
    @JvmStatic @JvmOverloads
    fun encrypt(input: InputStream, output: OutputStream, softchat: Softchat = Softchat.default()): EncryptedAttachment =
        softchat.withSlot { slot ->
            val key = ByteArray(32)
            val iv = ByteArray(16)
            val st = NativeBridge.fileEncInit(slot, key, iv)
            val inBuf = ByteArray(CHUNK)
            val outBuf = ByteArray(CHUNK + 15)
            try {
                var total = 0L
                while (true) {
                    val n = io { input.read(inBuf) }
                    if (n < 0) break
                    if (n == 0) continue
                    val w = NativeBridge.fileEncUpdate(st, inBuf, n, outBuf)
                    io { output.write(outBuf, 0, w) }
                    total += n
                }
                val meta = ByteArray(64)
                val w = NativeBridge.fileEncFinal(st, outBuf, meta)
                io { output.write(outBuf, 0, w) }
                EncryptedAttachment(key, iv, meta.copyOfRange(0, 32), meta.copyOfRange(32, 64), total + 16)
            } catch (e: Throwable) {
                key.fill(0)
                throw e
            } finally {
                NativeBridge.fileEncFree(st)
                inBuf.fill(0)
                outBuf.fill(0)
            }
        }

    /**
     * Decrypts a blob (ciphertext || tag) from input and writes the plaintext to output only
     * after the tag verified: nothing is written for a blob that does not authenticate
     * (SC_ERR_AUTH). Until then the plaintext is held in native memory (wiped), at most
     * [maxBytes]; a larger one is SC_ERR_TOO_LARGE.
     */
    @JvmStatic @JvmOverloads
    fun decrypt(
        input: InputStream,
        output: OutputStream,
        key: ByteArray,
        iv: ByteArray,
        maxBytes: Long = 64L shl 20,
        softchat: Softchat = Softchat.default(),
    ): DecryptedAttachment = softchat.withSlot { slot ->
        val st = NativeBridge.fileDecInit(slot, key, iv, maxBytes)
        val buf = ByteArray(CHUNK)
        try {
            while (true) {
                val n = io { input.read(buf) }
                if (n < 0) break
                if (n > 0) NativeBridge.fileDecUpdate(st, buf, n)
            }
            val meta = ByteArray(64)
            val len = NativeBridge.fileDecFinal(st, meta)
            var off = 0L
            while (off < len) {
                val n = minOf(CHUNK.toLong(), len - off).toInt()
                NativeBridge.fileDecRead(st, off, buf, n)
                io { output.write(buf, 0, n) }
                off += n
            }
            DecryptedAttachment(meta.copyOfRange(0, 32), meta.copyOfRange(32, 64), len + 16)
        } finally {
            NativeBridge.fileDecFree(st)
            buf.fill(0)
        }
    }

    private inline fun <T> io(block: () -> T): T = try {
        block()
    } catch (e: IOException) {
        throw SoftchatException(SoftchatException.SC_ERR_IO, null, e)
    }
}
