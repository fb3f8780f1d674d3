package org.softchat.internal

/** Reads the blobs of bindings/kotlin/jni/blob.h: little-endian u32 and i64, raw bytes. */
internal class BlobReader(private val b: ByteArray, private var off: Int = 0) {
    fun u32(): Int {
        val o = off
        off = o + 4
        return (b[o].toInt() and 0xff) or ((b[o + 1].toInt() and 0xff) shl 8) or
            ((b[o + 2].toInt() and 0xff) shl 16) or ((b[o + 3].toInt() and 0xff) shl 24)
    }

    fun i64(): Long {
        val lo = u32().toLong() and 0xffffffffL
        val hi = u32().toLong()
        return lo or (hi shl 32)
    }

    fun bytes(n: Int): ByteArray {
        val r = b.copyOfRange(off, off + n)
        off += n
        return r
    }

    fun hex(n: Int): String {
        val r = Hex.encode(b, off, n)
        off += n
        return r
    }

    fun string(n: Int): String {
        val r = String(b, off, n, Charsets.UTF_8)
        off += n
        return r
    }

    fun skip(n: Int) {
        off += n
    }

    val offset: Int get() = off

    /** Tags: u32 n_tags, per tag u32 n_items, per item u32 len + UTF-8. */
    fun tags(): List<List<String>> {
        val n = u32()
        if (n == 0) return emptyList()
        val out = ArrayList<List<String>>(n)
        for (i in 0 until n) {
            val m = u32()
            val tag = ArrayList<String>(m)
            for (j in 0 until m) tag.add(string(u32()))
            out.add(java.util.Collections.unmodifiableList(tag))
        }
        return java.util.Collections.unmodifiableList(out)
    }
}

/** Writes the input blobs (tags, relays, peers). */
internal object BlobWriter {
    fun tags(tags: List<List<String>>): ByteArray? {
        if (tags.isEmpty()) return null
        val enc = arrayOfNulls<ByteArray>(tags.sumOf { it.size })
        var size = 4
        var k = 0
        for (t in tags) {
            size += 4
            for (s in t) {
                val e = s.toByteArray(Charsets.UTF_8)
                enc[k++] = e
                size += 4 + e.size
            }
        }
        val out = ByteArray(size)
        var o = put(out, 0, tags.size)
        k = 0
        for (t in tags) {
            o = put(out, o, t.size)
            for (i in t.indices) {
                val e = enc[k++]!!
                o = put(out, o, e.size)
                System.arraycopy(e, 0, out, o, e.size)
                o += e.size
            }
        }
        return out
    }

    /** u32 n, per string u32 len + UTF-8. */
    fun strings(list: List<String>): ByteArray? {
        if (list.isEmpty()) return null
        val enc = list.map { it.toByteArray(Charsets.UTF_8) }
        val out = ByteArray(4 + enc.sumOf { 4 + it.size })
        var o = put(out, 0, enc.size)
        for (e in enc) {
            o = put(out, o, e.size)
            System.arraycopy(e, 0, out, o, e.size)
            o += e.size
        }
        return out
    }

    fun put(b: ByteArray, o: Int, v: Int): Int {
        b[o] = v.toByte()
        b[o + 1] = (v ushr 8).toByte()
        b[o + 2] = (v ushr 16).toByte()
        b[o + 3] = (v ushr 24).toByte()
        return o + 4
    }
}

/** Lowercase hex (no JDK 17 HexFormat: the facade also compiles for Android). */
internal object Hex {
    private val DIGITS = "0123456789abcdef".toCharArray()

    fun encode(b: ByteArray, off: Int = 0, n: Int = b.size): String {
        val c = CharArray(2 * n)
        for (i in 0 until n) {
            val v = b[off + i].toInt() and 0xff
            c[2 * i] = DIGITS[v ushr 4]
            c[2 * i + 1] = DIGITS[v and 15]
        }
        return String(c)
    }

    /**
     * 64 hex digits of either case as lowercase hex; null for text of another length;
     * SC_ERR_ENCODING for 64 characters that are not all hex digits.
     */
    fun parse32(s: String): String? {
        if (s.length != 64) return null
        for (c in s) {
            if (Character.digit(c, 16) < 0 || c.code > 0x7f) throw org.softchat.SoftchatException(org.softchat.SoftchatException.SC_ERR_ENCODING)
        }
        return s.lowercase(java.util.Locale.ROOT)
    }

    /** Writes the 32 bytes of 64 hex digits (checked by the caller) into out at off. */
    fun decodeInto(s: String, out: ByteArray, off: Int) {
        for (i in 0 until 32) {
            out[off + i] = ((Character.digit(s[2 * i], 16) shl 4) or Character.digit(s[2 * i + 1], 16)).toByte()
        }
    }

    /** Decodes hex of either case; null when malformed. */
    fun decode(s: String): ByteArray? {
        if (s.length % 2 != 0) return null
        val out = ByteArray(s.length / 2)
        for (i in out.indices) {
            val h = Character.digit(s[2 * i], 16)
            val l = Character.digit(s[2 * i + 1], 16)
            if (h < 0 || l < 0) return null
            out[i] = ((h shl 4) or l).toByte()
        }
        return out
    }
}
