package org.softchat.internal

import org.softchat.SoftchatException
import java.util.concurrent.atomic.AtomicIntegerFieldUpdater

/**
 * A native object (identity, conversation) shared by any number of threads without a lock:
 * each call brackets its native use with [acquire]/[release], and [close] frees the native
 * memory once the last call in flight has released it. After close, [acquire] throws
 * SC_ERR_STATE. Nothing here takes a monitor, so a long call on one thread never blocks
 * another thread's call or the close (which returns at once; the free follows the last user).
 *
 * The handle is also its owner's registration with [NativeCleaner] (a [Cleanable]): an owner
 * never closed is closed by the cleaner once unreachable. So an owner costs itself and this
 * one object; the counters are fields updated in place (no atomic objects per handle).
 *
 * [release] takes the owner (the object whose cleaner closes this handle) and fences it
 * ([Reachability]): called in the finally block after the native call, it keeps the owner
 * reachable from the start of the call to its end, so the cleaner of a temporary owner
 * cannot close the handle mid-call (which would give a spurious SC_ERR_STATE).
 */
internal class NativeHandle(owner: Any, private val kind: Int, private val handle: Long) : Cleanable(owner) {
    @Volatile private var state = 0 // users in flight, plus CLOSED once closed
    @Volatile private var freed = 0

    fun acquire(): Long {
        while (true) {
            val s = state
            if (s and CLOSED != 0) throw SoftchatException(SoftchatException.SC_ERR_STATE, "SC_ERR_STATE")
            if (STATE.compareAndSet(this, s, s + 1)) return handle
        }
    }

    fun release(owner: Any) {
        if (STATE.decrementAndGet(this) == CLOSED) freeOnce()
        Reachability.fence(owner)
    }

    val isClosed: Boolean get() = state and CLOSED != 0

    fun close() {
        while (true) {
            val s = state
            if (s and CLOSED != 0) return
            if (STATE.compareAndSet(this, s, s or CLOSED)) {
                if (s == 0) freeOnce()
                return
            }
        }
    }

    /** The owner's close: off the cleaner's list, then closed. */
    fun closeOwner() {
        unregister()
        close()
    }

    override fun clean() = close()

    private fun freeOnce() {
        if (FREED.compareAndSet(this, 0, 1)) NativeBridge.free(kind, handle)
    }

    companion object {
        const val KIND_IDENTITY = 1
        const val KIND_CONVERSATION = 2
        const val KIND_SLOT = 3
        const val KIND_NEGENTROPY = 4
        private const val CLOSED = 1 shl 30
        private val STATE = AtomicIntegerFieldUpdater.newUpdater(NativeHandle::class.java, "state")
        private val FREED = AtomicIntegerFieldUpdater.newUpdater(NativeHandle::class.java, "freed")
    }
}
