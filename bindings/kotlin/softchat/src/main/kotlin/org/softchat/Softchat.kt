package org.softchat

import org.softchat.internal.ContextPool
import org.softchat.internal.NativeBridge
import org.softchat.internal.NativeCleaner
import org.softchat.internal.Reachability

/**
 * The SDK's entry point: one crypto backend of libsoftchat and a pool of its native contexts.
 *
 * Threads. Every method of the facade may be called from any thread or coroutine dispatcher,
 * concurrently. A native context serves one thread at a time, so each call borrows a context
 * from this instance's pool for its one native call and returns it: concurrent callers never
 * share a context and never wait for each other (no monitor is held during a call). The pool
 * keeps up to [maxIdle] contexts between calls. Calls are short, CPU-bound and blocking (no
 * I/O, except the attachment streams you pass); from a coroutine call them on
 * Dispatchers.Default (or IO for attachments).
 *
 * Lifetime. [default] lives as long as the process. An instance from [open] is closed with
 * [close] (it frees its pooled contexts; calls in flight finish first); identities made by it
 * stay usable until it is closed. An instance never closed is freed by the cleaner when it
 * becomes unreachable.
 */
class Softchat private constructor(backend: String?, val limits: Limits, maxIdle: Int) :
    AutoCloseable {

    /**
     * Caps on what is received, applied before anything is allocated: larger inputs give
     * SC_ERR_TOO_LARGE. Each is at least 1 (else SC_ERR_ARG). What this SDK builds (signed
     * events, rumors, gift wraps, messages) has its own fixed cap of 1 MiB of tags + content.
     */
    class Limits(
        /** A NIP-01 event's JSON (parseEvent). */
        val maxEventBytes: Int = 1 shl 20,
        /** A gift wrap's JSON (unwrap, receive): what the app accepts from a relay. */
        val maxWrapBytes: Int = 1 shl 20,
        /** A NIP-44 payload, in characters (the library's default is 1 MiB). */
        val maxNip44Payload: Int = 1 shl 20,
    ) {
        init {
            if (maxEventBytes < 1 || maxWrapBytes < 1 || maxNip44Payload < 1) {
                throw SoftchatException(SoftchatException.SC_ERR_ARG)
            }
        }
    }

    internal val pool = ContextPool(backend?.toByteArray(Charsets.UTF_8), maxIdle)
    @Volatile internal var closed = false

    /** The bound backend's name ("openssl", "mbedtls", ...). */
    val backend: String = run {
        val s = pool.acquire() // fails here for an unknown backend
        try {
            String(NativeBridge.slotBackend(s), Charsets.UTF_8)
        } finally {
            pool.release(s)
        }
    }

    private val cleanerRef = pool.let { p -> NativeCleaner.register(this) { p.close() } }

    /**
     * Runs block with a native context of this instance (one thread at a time). The fence
     * keeps this instance reachable until the context is back, so the cleaner of a temporary
     * instance cannot close its pool mid-call.
     */
    internal inline fun <T> withSlot(block: (Long) -> T): T {
        if (closed) throw SoftchatException(SoftchatException.SC_ERR_STATE)
        val s = pool.acquire()
        try {
            return block(s)
        } finally {
            pool.release(s)
            Reachability.fence(this)
        }
    }

    /** Imports a 32-byte secret key; the caller wipes its array afterwards. */
    fun importIdentity(secret: ByteArray): SoftchatIdentity {
        val pub = ByteArray(32)
        val h = withSlot { NativeBridge.identityImport(it, secret, pub) }
        return SoftchatIdentity(this, h, pub)
    }

    /** A new identity from the backend's CSPRNG. */
    fun generateIdentity(): SoftchatIdentity {
        val pub = ByteArray(32)
        val h = withSlot { NativeBridge.identityGenerate(it, pub) }
        return SoftchatIdentity(this, h, pub)
    }

    /**
     * Parses a signed NIP-01 event and verifies it: the id is recomputed from the fields and
     * the BIP-340 signature checked. Throws with the failing check's status (SC_ERR_JSON,
     * SC_ERR_EVENT_FIELD, SC_ERR_ID_MISMATCH, SC_ERR_INVALID_SIG, SC_ERR_TOO_LARGE, ...).
     */
    fun parseEvent(json: String): NostrEvent = parseEvent(json.toByteArray(Charsets.UTF_8), json)

    /** As [parseEvent] of the UTF-8 bytes of an event. */
    fun parseEvent(json: ByteArray): NostrEvent = parseEvent(json, null)

    private fun parseEvent(bytes: ByteArray, text: String?): NostrEvent {
        val blob = withSlot { NativeBridge.eventParseVerify(it, bytes, limits.maxEventBytes) }
        return NostrEvent.decode(blob, text ?: String(bytes, Charsets.UTF_8))
    }

    /** BIP-340 verification of sig (64 bytes) over a 32-byte message by an x-only key. */
    @JvmName("verifySchnorr")
    fun verifySchnorr(sig: ByteArray, msg: ByteArray, publicKey: PublicKey): Boolean =
        withSlot { NativeBridge.schnorrVerify(it, sig, msg, publicKey.toHex()) }

    /** As [verifySchnorr] with the key as 32 bytes. */
    fun verifySchnorr(sig: ByteArray, msg: ByteArray, publicKey: ByteArray): Boolean =
        withSlot { NativeBridge.schnorrVerify(it, sig, msg, publicKey) }

    /** Frees the pooled contexts; later calls on this instance give SC_ERR_STATE. */
    override fun close() {
        if (this === defaultInstance) return // the shared instance lives with the process
        closed = true
        cleanerRef.unregister()
        pool.close()
    }

    companion object {
        private val defaultInstance: Softchat by lazy { Softchat(null, Limits(), defaultIdle()) }

        private fun defaultIdle(): Int = maxOf(2, Runtime.getRuntime().availableProcessors() * 2)

        /** The process-wide instance on the default backend (never closed); Softchat.getDefault() from Java. */
        @JvmStatic @JvmName("getDefault") fun default(): Softchat = defaultInstance

        /**
         * An instance on the named compiled backend (null: the default); SC_ERR_NOT_FOUND for
         * an unknown name.
         */
        @JvmStatic @JvmOverloads
        fun open(backend: String? = null, limits: Limits = Limits(), maxIdle: Int = defaultIdle()): Softchat =
            Softchat(backend, limits, maxOf(1, maxIdle))

        /** The compiled backends, the default first. */
        @JvmStatic fun backends(): List<String> =
            String(NativeBridge.backends(), Charsets.UTF_8).split('\u0000').filter { it.isNotEmpty() }

        /** The library version ("1.1.0"). */
        @JvmStatic fun version(): String = String(NativeBridge.version(), Charsets.UTF_8)

        /** The stable name of a status code. */
        @JvmStatic fun statusName(code: Int): String = String(NativeBridge.statusName(code), Charsets.US_ASCII)
    }
}
