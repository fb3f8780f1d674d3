package org.softchat

/** A NIP-01 filter for [RelayPool.subscribe] (an empty list is left out of the JSON). */
class Filter @JvmOverloads constructor(
    val kinds: List<Int> = emptyList(),
    val authors: List<PublicKey> = emptyList(),
    /** #p: events tagging these keys. */
    val p: List<PublicKey> = emptyList(),
    /** #e: events tagging these ids. */
    val e: List<EventId> = emptyList(),
    val since: Long? = null,
    val until: Long? = null,
    val limit: Int? = null,
    /** Events with these ids (a fetch by id, as [RelayPool.catchUp] does). */
    val ids: List<EventId> = emptyList(),
) {
    /** The filter object as the pool's parser reads it. */
    fun toJson(): String {
        val parts = ArrayList<String>()
        if (ids.isNotEmpty()) parts.add("\"ids\":[" + ids.joinToString(",") { "\"${it.toHex()}\"" } + "]")
        if (kinds.isNotEmpty()) parts.add("\"kinds\":[" + kinds.joinToString(",") + "]")
        if (authors.isNotEmpty()) parts.add("\"authors\":[" + authors.joinToString(",") { "\"${it.toHex()}\"" } + "]")
        if (p.isNotEmpty()) parts.add("\"#p\":[" + p.joinToString(",") { "\"${it.toHex()}\"" } + "]")
        if (e.isNotEmpty()) parts.add("\"#e\":[" + e.joinToString(",") { "\"${it.toHex()}\"" } + "]")
        since?.let { parts.add("\"since\":$it") }
        until?.let { parts.add("\"until\":$it") }
        limit?.let { parts.add("\"limit\":$it") }
        return "{" + parts.joinToString(",") + "}"
    }

    /** This filter with [ids] instead of its own and no limit. */
    fun withIds(ids: List<EventId>): Filter = Filter(kinds, authors, p, e, since, until, null, ids)

    override fun toString(): String = toJson()
}

/** How a publish ended on one relay (sc_pool_result). */
enum class PublishOutcome { PENDING, ACCEPTED, REFUSED, FAILED }

/** A publish's end on one relay: the relay's own words ([text], with its [prefix] such as
 *  "auth-required" or "blocked"), or the pool's ("no OK within 10000 ms"). */
class PublishResult internal constructor(
    val relay: String,
    val outcome: PublishOutcome,
    val attempts: Int,
    val prefix: String?,
    val text: String,
) {
    override fun toString(): String = "$relay: $outcome after $attempts ($text)"
}

/** An event a subscription delivered: verified, matched, first of its id on the subscription. */
class RelayEvent internal constructor(val event: NostrEvent, val relay: String, val subscriptionId: String)

/** How one receiver of a NIP-17 message stands ([DeliveryReport]). */
class ReceiverDelivery internal constructor(
    @get:JvmName("getPublicKey") val publicKey: PublicKey,
    val outcome: DeliveryOutcome,
    val relays: List<PublishResult>,
)

/** The delivery of a NIP-17 message (sc_delivery): delivered once every receiver's wrap was
 *  accepted by one of its inbox relays; failed when a receiver's relays all refused or failed. */
enum class DeliveryOutcome { PENDING, DELIVERED, FAILED }

class DeliveryReport internal constructor(val outcome: DeliveryOutcome, val receivers: List<ReceiverDelivery>) {
    override fun toString(): String = "$outcome: " + receivers.joinToString("; ") { "${it.publicKey.toHex().take(8)} ${it.outcome} ${it.relays}" }
}

/** Where a user's inbox relays came from (sc_inbox_source). */
enum class InboxSource {
    NONE,
    /** Its kind 10050 list (NIP-17 DM relays). */
    DM_RELAYS,
    /** Its kind 10002 list's read relays (NIP-65), taken only when asked for. */
    NIP65_READ,
    /** Its kind 10002 list's write relays (NIP-65). */
    NIP65_WRITE,
}

/** A user's inbox as [RelayPool.inboxes] found it (sc_inboxes_get). */
sealed class Inbox {
    /** The relays to send the user's gift wraps to, normalised, in the list's order. */
    class Relays internal constructor(val relays: List<String>, val source: InboxSource) : Inbox() {
        override fun toString(): String = "$source $relays"
    }

    /** No kind 10050 list with a relay was found (and no fallback was asked for, or none was
     *  there): NIP-17 says the user is not ready for DMs. The library's SC_ERR_NO_INBOX. */
    object Missing : Inbox() {
        const val STATUS = SoftchatException.SC_ERR_NO_INBOX

        /** The typed error a send to this user fails with. */
        fun error(): SoftchatException = SoftchatException(STATUS)

        override fun toString(): String = "SC_ERR_NO_INBOX"
    }
}

/** What the pool says besides events and publish results (RelayPool.updates). */
sealed class PoolUpdate {
    abstract val relay: String

    class Connecting internal constructor(override val relay: String) : PoolUpdate()
    class Connected internal constructor(override val relay: String) : PoolUpdate()
    class Disconnected internal constructor(override val relay: String, val reason: String) : PoolUpdate()
    /** Every relay of the subscription sent EOSE, is down or timed out. */
    class EndOfStored internal constructor(override val relay: String, val subscriptionId: String) : PoolUpdate()
    class Closed internal constructor(override val relay: String, val subscriptionId: String, val prefix: String?, val text: String) : PoolUpdate()
    class Published internal constructor(override val relay: String, val eventId: EventId, val result: PublishResult) : PoolUpdate()
    /** NIP-42: the relay's challenge (the pool answers it by its policy). */
    class AuthChallenge internal constructor(override val relay: String, val challenge: String) : PoolUpdate()
    class Authenticated internal constructor(override val relay: String) : PoolUpdate()
    /** The relay refused the AUTH, or it could not be signed ([status]: SC_OK when the relay refused). */
    class AuthRefused internal constructor(override val relay: String, val prefix: String?, val text: String, val status: Int) : PoolUpdate()
    class Notice internal constructor(override val relay: String, val text: String) : PoolUpdate()
    /**
     * Messages from the relay that could not be used (malformed, over a limit, a forged or
     * unmatched event, an unknown subscription): [count] since the last report, [error] the
     * last one's status (SC_ERR_JSON, SC_ERR_INVALID_SIG, SC_ERR_TOO_LARGE, ...).
     */
    class Dropped internal constructor(override val relay: String, val count: Int, val error: SoftchatException) : PoolUpdate()
    /** A gift wrap a message subscription delivered that did not open for its identity
     *  (SC_ERR_WRAP_SIG, SC_ERR_WRAP_DECRYPT, SC_ERR_MESSAGE, ...). */
    class Undeliverable internal constructor(override val relay: String, val wrapId: EventId, val error: SoftchatException) : PoolUpdate()
    /** A COUNT, NEG-MSG or NEG-ERR for the application. */
    class Other internal constructor(override val relay: String, val text: String) : PoolUpdate()

    override fun toString(): String = javaClass.simpleName + "(" + relay + ")"
}

private val PREFIXES = arrayOf(null, "other", "duplicate", "pow", "blocked", "rate-limited", "invalid",
    "restricted", "mute", "error", "auth-required", "closed")

internal fun prefixName(p: Int): String? = PREFIXES.getOrNull(p)

/** One update of the pool as bindings/kotlin/jni/pool_io.c writes it (update_out). */
internal class PoolUpdateBlob(blob: ByteArray) {
    val kind: Int
    val relay: Int
    val url: String
    val sub: Int
    val subId: String
    val pub: Int
    val delivery: Long
    val deliveryFinished: Boolean
    val eventIdHex: String
    val result: Int
    val attempts: Int
    val prefixName: String?
    val text: String
    val status: Int
    val count: Int
    val eventJson: String
    val event: NostrEvent?

    init {
        val r = org.softchat.internal.BlobReader(blob)
        kind = r.u32()
        relay = r.u32()
        url = r.string(r.u32())
        sub = r.u32()
        subId = r.string(r.u32())
        pub = r.u32()
        delivery = r.i64()
        deliveryFinished = r.u32() != 0
        eventIdHex = r.hex(32)
        result = r.u32()
        attempts = r.u32()
        prefixName = prefixName(r.u32())
        text = r.string(r.u32())
        status = r.u32()
        count = r.u32()
        eventJson = r.string(r.u32())
        val eb = r.u32()
        event = if (eb > 0) NostrEvent.decode(r.bytes(eb), eventJson) else null
    }
}

/** inboxesGet's answer (bindings/kotlin/jni/inboxes.c): u32 source, u32 n, u32 len + URL each. */
internal fun decodeInbox(blob: ByteArray?): Inbox {
    if (blob == null) return Inbox.Missing
    val r = org.softchat.internal.BlobReader(blob)
    val source = InboxSource.values()[r.u32()]
    return Inbox.Relays(List(r.u32()) { r.string(r.u32()) }, source)
}

internal fun decodeDeliveryReport(blob: ByteArray): DeliveryReport {
    val r = org.softchat.internal.BlobReader(blob)
    val outcome = DeliveryOutcome.values()[r.u32()]
    val receivers = List(r.u32()) {
        val key = PublicKey.ofHex(r.hex(32))
        val o = DeliveryOutcome.values()[r.u32()]
        val relays = List(r.u32()) {
            val url = r.string(r.u32())
            val res = PublishOutcome.values()[r.u32()]
            val attempts = r.u32()
            val prefix = prefixName(r.u32())
            PublishResult(url, res, attempts, prefix, r.string(r.u32()))
        }
        ReceiverDelivery(key, o, relays)
    }
    return DeliveryReport(outcome, receivers)
}
