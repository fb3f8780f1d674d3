package org.softchat.internal

/**
 * Keeps an owner (an identity, conversation or Softchat instance, whose native memory
 * [NativeCleaner] frees once it is unreachable) reachable until the end of a native call.
 * Without a fence the JIT may treat `this` as dead as soon as only its handle is still
 * needed, so for a temporary such as `sc.importIdentity(s).nip44Encrypt(...)` the cleaner
 * could close the handle while the call runs. Every call that uses an owner's handle ends
 * with [fence] on the owner ([NativeHandle.release], [org.softchat.Softchat.withSlot]).
 *
 * java.lang.ref.Reference.reachabilityFence where it exists (JVM 9+, Android API 28+);
 * otherwise a volatile write of the reference, which no compiler may drop and which needs
 * the reference live at that point. Which one is decided once, when this object initialises.
 */
internal object Reachability {
    /** Reference.reachabilityFence exists on this runtime. */
    @JvmField val usesReferenceFence: Boolean = probe()

    @Volatile private var sink: Any? = null

    /** Keeps ref reachable up to this call. */
    @JvmStatic fun fence(ref: Any?) {
        if (usesReferenceFence) ReferenceFence.fence(ref) else volatileFence(ref)
    }

    /** The fallback (runtimes without Reference.reachabilityFence; tested on any). */
    @JvmStatic fun volatileFence(ref: Any?) {
        sink = ref
        // hold nothing afterwards; the volatile read between the two writes keeps them two
        // (another thread may have written in between: then that thread clears its own)
        if (sink === ref) sink = null
    }

    /** What the fallback still holds (for tests: nothing once every fence returned). */
    internal fun held(): Any? = sink

    private fun probe(): Boolean = try {
        java.lang.ref.Reference::class.java.getMethod("reachabilityFence", Any::class.java)
        true
    } catch (_: Throwable) {
        false
    }
}

/**
 * The one call site of Reference.reachabilityFence, alone in its class: a runtime without
 * the method (Android before API 28) never runs it, and verifying or resolving it there
 * touches no other class.
 */
private object ReferenceFence {
    @JvmStatic fun fence(ref: Any?) = java.lang.ref.Reference.reachabilityFence(ref)
}
