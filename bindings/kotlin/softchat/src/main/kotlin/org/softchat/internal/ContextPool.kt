package org.softchat.internal

import java.util.concurrent.atomic.AtomicLongArray

/**
 * The native contexts of one Softchat instance. A native context (sc_ctx) serves one thread
 * at a time, so each facade call takes a context from the pool for the length of its one
 * native call and puts it back: any number of threads and coroutines may call at once; each
 * gets its own context, and none waits for another (an empty pool makes a new context, ~100
 * µs once). At most [maxIdle] contexts stay pooled between calls; one returned to a full pool
 * is freed (wiped). The pool is a fixed array of slots claimed by compare-and-set: no lock,
 * and no allocation per call.
 */
internal class ContextPool(private val backend: ByteArray?, private val maxIdle: Int) {
    private val slots = AtomicLongArray(maxIdle)
    @Volatile private var closed = false

    fun acquire(): Long {
        val n = maxIdle
        val start = (Thread.currentThread().id.toInt() and 0x7fffffff) % n
        for (k in 0 until n) {
            val i = (start + k) % n
            val h = slots.get(i)
            if (h != 0L && slots.compareAndSet(i, h, 0L)) return h
        }
        return NativeBridge.slotNew(backend)
    }

    fun release(h: Long) {
        if (!closed) {
            val n = maxIdle
            val start = (Thread.currentThread().id.toInt() and 0x7fffffff) % n
            for (k in 0 until n) {
                val i = (start + k) % n
                if (slots.get(i) == 0L && slots.compareAndSet(i, 0L, h)) {
                    if (closed) drain() // a close raced with this release
                    return
                }
            }
        }
        NativeBridge.slotFree(h)
    }

    /** Frees every pooled context; contexts in use are freed when their call returns. */
    fun close() {
        closed = true
        drain()
    }

    private fun drain() {
        for (i in 0 until maxIdle) {
            val h = slots.getAndSet(i, 0L)
            if (h != 0L) NativeBridge.slotFree(h)
        }
    }
}
