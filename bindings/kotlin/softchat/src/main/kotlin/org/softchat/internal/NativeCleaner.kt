package org.softchat.internal

import java.lang.ref.PhantomReference
import java.lang.ref.ReferenceQueue
import java.util.concurrent.ConcurrentHashMap

/**
 * Frees the native memory of an owner (identity, conversation, Softchat instance) that was
 * never closed, once the garbage collector finds it unreachable: the secret is wiped then
 * instead of never. Built on PhantomReference and one daemon thread, which every Android
 * release has (java.lang.ref.Cleaner needs API 33). Closing explicitly is still the rule:
 * a collection may come late or not at all.
 */
internal object NativeCleaner {
    private val queue = ReferenceQueue<Any>()
    private val live = ConcurrentHashMap<Ref, Boolean>()

    class Ref internal constructor(owner: Any, val action: () -> Unit) :
        PhantomReference<Any>(owner, queue) {
        /** The owner was closed: the action has run or will not be needed. */
        fun unregister() {
            live.remove(this)
            clear()
        }
    }

    init {
        val t = Thread({
            while (true) {
                try {
                    val r = queue.remove() as Ref
                    if (live.remove(r) != null) r.action()
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
    fun liveCount(): Int = live.size

    /** Runs [action] (which must not reference [owner]) after owner becomes unreachable. */
    fun register(owner: Any, action: () -> Unit): Ref {
        val r = Ref(owner, action)
        live[r] = true
        return r
    }
}
