package org.softchat

import org.softchat.internal.NativeBridge

/**
 * Run by RobustnessTest in a JVM of its own with a small heap. Each round fills the heap
 * until even the smallest array cannot be allocated, then calls a native function that
 * throws (nip19Decode of text that is not bech32: nothing is allocated on the Java side
 * before native code throws), and prints what it caught once the heap is released:
 * `round N CLASS STATUS_NAME FULL` (round 0 runs with memory to spare, for the real status).
 */
object OutOfMemoryChild {
    @Volatile private var hoard: Array<Any?>? = null

    @JvmStatic
    fun main(args: Array<String>) {
        val rounds = if (args.isNotEmpty()) args[0].toInt() else 5
        val bad = "npub1notbech32".toByteArray(Charsets.US_ASCII)
        for (round in 0..rounds) {
            val full = round > 0 && fill()
            var caught: Throwable? = null
            try {
                NativeBridge.nip19Decode(bad)
            } catch (t: Throwable) {
                caught = t
            }
            hoard = null
            val name = (caught as? SoftchatException)?.statusName ?: "-"
            println("round $round ${caught?.javaClass?.name} $name $full")
        }
    }

    /**
     * Links arrays into [hoard] until one of a single element fails: true then. The handler
     * does arithmetic only: a call there (even Math.max) is resolved on first use, which
     * needs heap that is no longer there.
     */
    private fun fill(): Boolean {
        var size = 1 shl 16
        while (true) {
            try {
                val a = arrayOfNulls<Any?>(size)
                a[0] = hoard
                hoard = a
            } catch (_: OutOfMemoryError) {
                if (size == 1) return true
                size = if (size >= 4) size / 4 else 1
            }
        }
    }
}
