package org.softchat

import kotlinx.coroutines.channels.Channel
import kotlinx.coroutines.withTimeoutOrNull
import org.softchat.internal.BlobReader
import org.softchat.internal.Hex
import org.softchat.internal.NativeBridge
import org.softchat.internal.NativeHandle
import java.util.TreeSet
import java.util.concurrent.atomic.AtomicInteger
import kotlin.time.Duration
import kotlin.time.Duration.Companion.seconds

/**
 * What [RelayPool.reconcile] learned (NIP-77 Negentropy): the ids of the events matching the
 * filter that only the relay holds ([need]: fetch them) and those only the local set holds
 * ([have]: the relay lacks them), each once, sorted by id. [rounds]: the NEG-MSG exchanges.
 */
class SyncResult internal constructor(
    val relay: String,
    val need: List<EventId>,
    val have: List<EventId>,
    val rounds: Int,
) {
    override fun toString(): String = "$relay: need ${need.size}, have ${have.size} ($rounds rounds)"
}

/**
 * The relay does not speak NIP-77: no answer to NEG-OPEN within the deadline (relays that
 * ignore unknown messages), or a NOTICE about it instead of a NEG-MSG ([reason] says which).
 * Status SC_ERR_UNSUPPORTED. Fetch by REQ instead ([RelayPool.subscribe]).
 */
class SyncUnsupportedException internal constructor(val relay: String, val reason: String) :
    SoftchatException(SoftchatException.SC_ERR_UNSUPPORTED) {
    override fun toString(): String = "SyncUnsupportedException($relay: $reason)"
}

/**
 * The relay ended the reconciliation with NEG-ERR: [prefix] is its machine-readable word
 * ("blocked", "closed", "auth-required", ...; null without one) and [text] its whole
 * message. Status SC_ERR_NEGENTROPY.
 */
class SyncRefusedException internal constructor(val relay: String, val prefix: String?, val text: String) :
    SoftchatException(SoftchatException.SC_ERR_NEGENTROPY) {
    override fun toString(): String = "SyncRefusedException($relay: $text)"
}

/** The native reconciliation (bindings/kotlin/jni/negentropy.c), freed by [close] or, when
 *  never closed, by the cleaner. */
internal class NegentropyState(items: ByteArray, filter: String, val subId: String, frameLimit: Int, maxMessage: Int) :
    AutoCloseable {
    private val handle = NativeHandle(
        this, NativeHandle.KIND_NEGENTROPY,
        NativeBridge.negNew(items, filter.toByteArray(Charsets.UTF_8), subId.toByteArray(Charsets.UTF_8), frameLimit, maxMessage),
    )

    fun open(softchat: Softchat): String = use { h -> softchat.withSlot { String(NativeBridge.negOpen(it, h), Charsets.UTF_8) } }

    fun closeMessage(): String = use { h -> String(NativeBridge.negCloseMessage(h), Charsets.UTF_8) }

    fun receive(softchat: Softchat, text: String): ByteArray =
        use { h -> softchat.withSlot { NativeBridge.negReceive(it, h, text.toByteArray(Charsets.UTF_8)) } }

    private inline fun <T> use(block: (Long) -> T): T {
        val h = handle.acquire()
        try {
            return block(h)
        } finally {
            handle.release(this)
        }
    }

    override fun close() = handle.closeOwner()
}

/**
 * One NIP-77 reconciliation over its own connection through the pool's transport: the C pool
 * has no way to send a NEG-OPEN on its connections (it writes only what its sessions queue),
 * so a sync opens a second WebSocket to the relay for its length, as other clients do.
 */
internal class NegentropySync(
    private val softchat: Softchat,
    private val transport: RelayTransport,
    private val relay: String,
    private val options: SyncOptions,
    /** Who answers an "auth-required:" NEG-ERR (the pool's AUTH identity; null: nobody). */
    private val authIdentity: SoftchatIdentity?,
) {
    private sealed class In {
        object Opened : In()
        class Text(val text: String) : In()
        class Closed(val reason: String) : In()
    }

    private val inbox = Channel<In>(Channel.UNLIMITED)
    private val need = TreeSet<String>() // ordered, not hashed: the relay chooses these ids
    private val have = TreeSet<String>()
    private var rounds = 0
    private var answered = false
    private var challenge: String? = null
    private var authId: String? = null // the AUTH event sent on this connection

    suspend fun run(filter: Filter, local: Collection<Pair<Long, EventId>>): SyncResult {
        val state = NegentropyState(items(local), filter.toJson(), "sc-neg-" + next.incrementAndGet(), options.frameLimit, options.maxMessage)
        var conn: RelayTransport.Connection? = null
        try {
            conn = transport.connect(relay, object : RelayTransport.Listener {
                override fun onOpen() { inbox.trySend(In.Opened) }
                override fun onText(text: String) { inbox.trySend(In.Text(text)) }
                override fun onClosed(reason: String) { inbox.trySend(In.Closed(reason)) }
            })
            when (val first = withTimeoutOrNull(options.connectTimeout) { inbox.receive() }) {
                null -> throw SoftchatException(SoftchatException.SC_ERR_TIMEOUT)
                is In.Closed -> throw SoftchatException(SoftchatException.SC_ERR_IO)
                else -> {}
            }
            conn.send(state.open(softchat))
            while (true) {
                val wait = if (answered) options.roundTimeout else options.answerTimeout
                val m = withTimeoutOrNull(wait) { inbox.receive() }
                if (m == null) {
                    conn.send(state.closeMessage()) // a relay that was only slow stops too
                    if (!answered) throw SyncUnsupportedException(relay, "no answer to NEG-OPEN in $wait")
                    throw SoftchatException(SoftchatException.SC_ERR_TIMEOUT)
                }
                when (m) {
                    is In.Closed -> throw SoftchatException(SoftchatException.SC_ERR_IO)
                    is In.Text -> if (take(state, conn, m.text)) break
                    else -> {}
                }
            }
            return SyncResult(relay, need.map { EventId.ofHex(it) }, have.map { EventId.ofHex(it) }, rounds)
        } finally {
            conn?.close()
            state.close()
        }
    }

    /** One relay message; true once the reconciliation is complete. */
    private fun take(state: NegentropyState, conn: RelayTransport.Connection, text: String): Boolean {
        val blob = try {
            state.receive(softchat, text)
        } catch (e: SoftchatException) {
            if (e.status == SoftchatException.SC_ERR_RELAY_UNKNOWN) return false // a type no NIP here names
            throw e
        }
        val r = BlobReader(blob)
        when (val type = r.u32()) {
            NEG_MSG -> {
                answered = true
                rounds++
                val done = r.u32() != 0
                repeat(r.u32()) { add(have, r.hex(32)) }
                repeat(r.u32()) { add(need, r.hex(32)) }
                conn.send(r.string(r.u32())) // the next NEG-MSG, or NEG-CLOSE when done
                return done
            }
            else -> other(state, conn, type, r)
        }
        return false
    }

    /** NEG-ERR, NOTICE, AUTH, OK: an "auth-required:" NEG-ERR is answered with an AUTH once,
     *  and the reconciliation opened again when the relay accepts it. */
    private fun other(state: NegentropyState, conn: RelayTransport.Connection, type: Int, r: BlobReader) {
        val prefix = r.u32()
        val accepted = r.u32() != 0
        val okId = r.hex(32)
        val text = r.string(r.u32())
        when (type) {
            NEG_ERR -> {
                answered = true
                val c = challenge
                if (prefix != PREFIX_AUTH_REQUIRED || authIdentity == null || c == null || authId != null) {
                    throw SyncRefusedException(relay, prefixName(prefix), text)
                }
                val auth = authIdentity.sign(22242, System.currentTimeMillis() / 1000, listOf(listOf("relay", relay), listOf("challenge", c)), "")
                authId = auth.id.toHex()
                conn.send("[\"AUTH\"," + auth.json + "]")
            }
            OK -> if (okId == authId) {
                if (!accepted) throw SyncRefusedException(relay, prefixName(prefix), text)
                need.clear() // the reconciliation starts over
                have.clear()
                conn.send(state.open(softchat))
            }
            AUTH -> challenge = text
            NOTICE -> if (!answered && mentionsNegentropy(text)) throw SyncUnsupportedException(relay, "notice: $text")
        }
    }

    private fun add(set: TreeSet<String>, id: String) {
        set.add(id)
        if (set.size > options.maxIds) throw SoftchatException(SoftchatException.SC_ERR_TOO_LARGE)
    }

    companion object {
        private const val OK = 2 // SC_RELAY_OK
        private const val NOTICE = 5 // SC_RELAY_NOTICE
        private const val AUTH = 6 // SC_RELAY_AUTH
        private const val PREFIX_AUTH_REQUIRED = 10 // SC_RELAY_PREFIX_AUTH_REQUIRED
        private const val NEG_MSG = 8 // SC_RELAY_NEG_MSG
        private const val NEG_ERR = 9 // SC_RELAY_NEG_ERR
        private val next = AtomicInteger()

        private fun mentionsNegentropy(text: String): Boolean =
            text.contains("negentropy", ignoreCase = true) || text.contains("neg-", ignoreCase = true)

        /** The records as negentropy.c reads them: i64 created_at little-endian, then the id. */
        private fun items(local: Collection<Pair<Long, EventId>>): ByteArray {
            val out = ByteArray(40 * local.size)
            var o = 0
            for ((t, id) in local) {
                if (t < 0) throw SoftchatException(SoftchatException.SC_ERR_ARG)
                for (k in 0 until 8) out[o + k] = (t ushr (8 * k)).toByte()
                Hex.decodeInto(id.toHex(), out, o + 8)
                o += 40
            }
            return out
        }
    }
}

/**
 * The limits of a [RelayPool.reconcile]: a relay silent for [answerTimeout] after NEG-OPEN
 * lacks NIP-77 ([SyncUnsupportedException]); once it answered, a round without an answer for
 * [roundTimeout] is SC_ERR_TIMEOUT, and so is a connection not open after [connectTimeout]
 * (one that fails or is lost: SC_ERR_IO). [frameLimit]: the longest
 * Negentropy message this side writes (0: none; else at least 4096 bytes, the relay then
 * takes more rounds). [maxMessage]: the longest relay frame taken (bytes). [maxIds]: the most
 * ids either list may hold (SC_ERR_TOO_LARGE beyond: a relay listing without end).
 */
class SyncOptions @JvmOverloads constructor(
    val answerTimeout: Duration = 5.seconds,
    val roundTimeout: Duration = 30.seconds,
    val connectTimeout: Duration = 15.seconds,
    val frameLimit: Int = 0,
    val maxMessage: Int = 2 shl 20,
    val maxIds: Int = 1_000_000,
)
