package org.softchat.internal

import java.lang.ref.PhantomReference
import java.lang.ref.ReferenceQueue

/**
 * Frees the native memory of an owner (identity, conversation, Softchat instance) that was
 * never closed, once the garbage collector finds it unreachable: the secret is wiped then
 * instead of never. Built on PhantomReference and one daemon thread, which every Android
 * release has (java.lang.ref.Cleaner needs API 33). Closing explicitly is still the rule:
 * a collection may come late or not at all.
 *
 * Each registration is one object, a [Cleanable] (a PhantomReference of the owner that is
 * also the owner's native handle, [NativeHandle]): the registered ones are kept reachable
 * by an intrusive doubly linked list, as java.lang.ref.Cleaner keeps its own, so registering
 * and unregistering allocate nothing more. The list's lock is held for a few field writes.
 */
internal object NativeCleaner {
    internal val queue = ReferenceQueue<Any>()
    private val lock = Any()
    private var head: Cleanable? = null
    private var count = 0

    init {
        val t = Thread({
            while (true) {
                try {
                    val c = queue.remove() as Cleanable
                    if (remove(c)) c.clean()
                } catch (_: InterruptedException) {
                    // keep cleaning: the thread lives as long as the process
                } catch (_: Throwable) {
                    // a failing action must not stop the others
                }
            }
        }, "softchat-cleaner")
        t.isDaemon = true
        t.start()
    }

    /** Owners registered and neither closed nor collected yet (for tests). */
    fun liveCount(): Int = synchronized(lock) { count }

    internal fun add(c: Cleanable) {
        synchronized(lock) {
            val h = head
            c.next = h
            if (h != null) h.prev = c
            head = c
            count++
        }
    }

    /** Takes c off the list; false when it was not on it (cleaned or unregistered before). */
    internal fun remove(c: Cleanable): Boolean {
        synchronized(lock) {
            if (c.next === c) return false // off the list
            val p = c.prev
            val n = c.next
            if (p != null) p.next = n else head = n
            if (n != null) n.prev = p
            c.prev = null
            c.next = c
            count--
            return true
        }
    }

    /** Runs [action] (which must not reference [owner]) after owner becomes unreachable. */
    fun register(owner: Any, action: () -> Unit): Cleanable = object : Cleanable(owner) {
        override fun clean() = action()
    }
}

/**
 * A registration of [NativeCleaner]: a PhantomReference of its owner, on the cleaner's list
 * from construction until [unregister] or until the owner is found unreachable, when the
 * cleaner thread calls [clean]. It must not hold its owner.
 */
internal abstract class Cleanable(owner: Any) : PhantomReference<Any>(owner, NativeCleaner.queue) {
    internal var prev: Cleanable? = null
    internal var next: Cleanable? = null

    init {
        NativeCleaner.add(this)
    }

    /** What to do once the owner is unreachable (on the cleaner thread). */
    abstract fun clean()

    /** The owner was closed: the action has run or will not be needed. */
    fun unregister() {
        NativeCleaner.remove(this)
        clear()
    }
}
