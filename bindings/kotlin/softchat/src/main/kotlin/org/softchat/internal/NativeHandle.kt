package org.softchat.internal

import org.softchat.SoftchatException
import java.util.concurrent.atomic.AtomicInteger

/**
 * A native object (identity, conversation) shared by any number of threads without a lock:
 * each call brackets its native use with [acquire]/[release], and [close] frees the native
 * memory once the last call in flight has released it. After close, [acquire] throws
 * SC_ERR_STATE. Nothing here takes a monitor, so a long call on one thread never blocks
 * another thread's call or the close (which returns at once; the free follows the last user).
 *
 * [release] takes the owner (the object whose cleaner closes this handle) and fences it
 * ([Reachability]): called in the finally block after the native call, it keeps the owner
 * reachable from the start of the call to its end, so the cleaner of a temporary owner
 * cannot close the handle mid-call (which would give a spurious SC_ERR_STATE).
 */
internal class NativeHandle(private val kind: Int, private val handle: Long) {
    private val state = AtomicInteger(0) // users in flight, plus CLOSED once closed
    private val freed = AtomicInteger(0)

    fun acquire(): Long {
        while (true) {
            val s = state.get()
            if (s and CLOSED != 0) throw SoftchatException(SoftchatException.SC_ERR_STATE, "SC_ERR_STATE")
            if (state.compareAndSet(s, s + 1)) return handle
        }
    }

    fun release(owner: Any) {
        if (state.decrementAndGet() == CLOSED) freeOnce()
        Reachability.fence(owner)
    }

    val isClosed: Boolean get() = state.get() and CLOSED != 0

    fun close() {
        while (true) {
            val s = state.get()
            if (s and CLOSED != 0) return
            if (state.compareAndSet(s, s or CLOSED)) {
                if (s == 0) freeOnce()
                return
            }
        }
    }

    private fun freeOnce() {
        if (freed.compareAndSet(0, 1)) NativeBridge.free(kind, handle)
    }

    companion object {
        const val KIND_IDENTITY = 1
        const val KIND_CONVERSATION = 2
        const val KIND_SLOT = 3
        private const val CLOSED = 1 shl 30
    }
}
