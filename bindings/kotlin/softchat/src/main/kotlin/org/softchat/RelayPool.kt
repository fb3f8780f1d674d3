package org.softchat

import kotlinx.coroutines.CompletableDeferred
import kotlinx.coroutines.CoroutineScope
import kotlinx.coroutines.SupervisorJob
import kotlinx.coroutines.asCoroutineDispatcher
import kotlinx.coroutines.cancel
import kotlinx.coroutines.channels.BufferOverflow
import kotlinx.coroutines.channels.Channel
import kotlinx.coroutines.channels.SendChannel
import kotlinx.coroutines.channels.awaitClose
import kotlinx.coroutines.flow.Flow
import kotlinx.coroutines.flow.MutableSharedFlow
import kotlinx.coroutines.flow.SharedFlow
import kotlinx.coroutines.flow.asSharedFlow
import kotlinx.coroutines.flow.buffer
import kotlinx.coroutines.flow.callbackFlow
import kotlinx.coroutines.flow.emitAll
import kotlinx.coroutines.flow.flow
import kotlinx.coroutines.flow.mapNotNull
import kotlinx.coroutines.launch
import kotlinx.coroutines.withContext
import kotlinx.coroutines.withTimeoutOrNull
import org.softchat.internal.BlobWriter
import org.softchat.internal.Hex
import org.softchat.internal.NativeBridge
import org.softchat.internal.NativeCleaner
import java.util.concurrent.Executors
import java.util.concurrent.atomic.AtomicInteger
import kotlin.time.Duration
import kotlin.time.Duration.Companion.seconds

/**
 * Relays from Kotlin: libsoftchat's relay pool (api/softchat/pool.h, sans-IO: routing,
 * retries until OK, deduplication, resume after reconnects with backdating slack, NIP-42
 * AUTH, the tolerance real relays need) driven by one loop thread over a [RelayTransport]
 * (WebSockets: [JdkWebSocketTransport] by default; on Android one over the app's client).
 *
 * - [subscribe]: a cold Flow of the events a subscription delivers, each once, verified;
 *   collecting opens the subscription on its relays, cancelling closes it.
 * - [publish]: suspends until every relay settled and returns each relay's result.
 * - [messages] and [sendMessage]: NIP-17 on top: the gift wraps addressed to an identity on
 *   its inbox relays, received and opened; a message routed to each receiver's inbox relays
 *   with a delivery record (api/softchat/delivery.h) that says, per receiver and relay, how
 *   it went.
 * - [reconcile] and [catchUp]: NIP-77 Negentropy with one relay, the ids each side lacks,
 *   then the missing events fetched.
 * - [inboxes]: inbox discovery, the receivers' kind 10050 lists fetched from bootstrap
 *   relays into the library's directory; [sendMessage] with bootstrap relays routes by them.
 * - [authenticateAs]: the identity the pool answers NIP-42 challenges with ([Options.auth]).
 * - [updates]: connections, EOSE, CLOSED, notices, AUTH, and dropped relay messages with
 *   their typed error.
 *
 * The pool lives on its own thread ("softchat-relay-pool"); every method may be called from
 * any thread or coroutine. Relays are connected while they have something to do and
 * reconnected with backoff. [close] stops the loop, closes the sockets and wipes the pool.
 */
class RelayPool @JvmOverloads constructor(
    private val softchat: Softchat = Softchat.default(),
    private val transport: RelayTransport = JdkWebSocketTransport(),
    val options: Options = Options(),
) : AutoCloseable {

    /** Who answers a relay's AUTH challenge: the pool with [authenticateAs]'s identity once
     *  something was refused "auth-required:" (ON_DEMAND), at the first challenge (ALWAYS),
     *  or never by itself (NEVER). */
    enum class Auth { ON_DEMAND, ALWAYS, NEVER }

    /** The pool's sizes and timers (sc_pool_opts; 0 takes the library's default). */
    class Options @JvmOverloads constructor(
        val maxRelays: Int = 16,
        val maxSubscriptions: Int = 8,
        val maxPublishes: Int = 64,
        val auth: Auth = Auth.ON_DEMAND,
        /** An EVENT without OK after this long is an attempt that failed. */
        val okTimeoutMs: Int = 10_000,
        val retryMinMs: Int = 1_000,
        val retryMaxMs: Int = 60_000,
        /** The longest EVENT message taken (bytes); longer ones are dropped. */
        val maxEventMessage: Int = 1 shl 20,
        /** Attempts per relay before a publish fails there (a connection that fails counts). */
        val maxAttempts: Int = 5,
        /** A lost relay is reconnected after a delay doubling from this... */
        val reconnectMinMs: Int = 500,
        /** ...up to this. */
        val reconnectMaxMs: Int = 30_000,
    ) {
        internal fun toArray() = intArrayOf(
            maxRelays, maxSubscriptions, maxPublishes, auth.ordinal, okTimeoutMs, retryMinMs, retryMaxMs,
            maxEventMessage, maxAttempts, reconnectMinMs, reconnectMaxMs,
        )
    }

    private val handle = NativeBridge.poolNew(options.toArray())
    private val slot = try {
        NativeBridge.slotNew(softchat.backend.toByteArray(Charsets.UTF_8)) // the loop's own context
    } catch (e: Throwable) {
        NativeBridge.poolFree(handle)
        throw e
    }
    private val executor = Executors.newSingleThreadExecutor { r -> Thread(r, "softchat-relay-pool").apply { isDaemon = true } }
    private val loop = executor.asCoroutineDispatcher()
    private val scope = CoroutineScope(SupervisorJob() + loop)
    private val inputs = Channel<Input>(Channel.UNLIMITED)
    private val updatesFlow = MutableSharedFlow<PoolUpdate>(extraBufferCapacity = 1024, onBufferOverflow = BufferOverflow.DROP_OLDEST)
    private val cleanerRef = NativeCleaner.register(this, freer(handle, slot, executor))
    @Volatile private var closed = false
    @Volatile private var loopThread: Thread? = null

    // loop-thread state
    private val links = HashMap<Int, Link>()
    private val subs = HashMap<Int, Sub>()
    private val pubs = HashMap<Int, Pub>()
    private val deliveries = HashMap<Long, CompletableDeferred<DeliveryReport>>()
    @Volatile private var authIdentity: SoftchatIdentity? = null // read by reconcile too
    private var authHandle = 0L

    /** A relay's connection: [token] names the current one (a callback of an older one, or
     *  one that came before connect returned, is told apart by it). */
    private class Link(val url: String) {
        var conn: RelayTransport.Connection? = null
        var token: Any? = null
        var open = false
    }

    private class Sub(val id: String, val out: SendChannel<RelayEvent>, val once: Boolean)

    private class Pub(val done: CompletableDeferred<List<PublishResult>>) {
        val results = ArrayList<PublishResult>()
    }

    private sealed class Input {
        object Wake : Input()
        class Opened(val relay: Int, val token: Any) : Input()
        class Text(val relay: Int, val token: Any, val text: String) : Input()
        class Closed(val relay: Int, val token: Any, val reason: String) : Input()
    }

    /** Connections, EOSE, CLOSED, notices, AUTH, publish results and dropped messages. */
    val updates: SharedFlow<PoolUpdate> = updatesFlow.asSharedFlow()

    init {
        scope.launch { run() }
    }

    /**
     * The events matching filters on relays, each delivered once (the first relay to send it
     * wins), verified. [resumeSlack]: seconds a resume after a reconnect reaches back
     * (gift wraps: [GIFT_WRAP_SLACK]). [once]: the flow ends at EOSE (a fetch).
     */
    @JvmOverloads
    fun subscribe(
        filters: List<Filter>,
        relays: List<String>,
        subscriptionId: String = "sc-" + nextId.incrementAndGet(),
        resumeSlack: Long = 0,
        once: Boolean = false,
    ): Flow<RelayEvent> = subscription(subscriptionId, once) {
        val blob = BlobWriter.strings(filters.map { it.toJson() }) ?: throw SoftchatException(SoftchatException.SC_ERR_EMPTY)
        NativeBridge.poolSubscribe(
            handle, subscriptionId.toByteArray(Charsets.UTF_8), blob, relayHandles(relays),
            resumeSlack, 0, if (once) SUB_ONCE else 0,
        )
    }

    /** The flow of a subscription that [open] makes on the loop thread (its handle). */
    private fun subscription(subscriptionId: String, once: Boolean, open: () -> Int): Flow<RelayEvent> = callbackFlow {
        checkOpen()
        val sub = withContext(loop) {
            val h = open()
            subs[h] = Sub(subscriptionId, channel, once)
            h
        }
        wake()
        awaitClose {
            scope.launch {
                if (subs[sub]?.out === channel) {
                    subs.remove(sub)
                    if (!closed) runCatching { NativeBridge.poolUnsubscribe(handle, sub) }
                }
            }
            wake()
        }
    }.buffer(Channel.UNLIMITED)

    /** Publishes a signed event to relays; returns when every relay settled, with its result. */
    suspend fun publish(event: NostrEvent, relays: List<String>): List<PublishResult> {
        checkOpen()
        val p = Pub(CompletableDeferred())
        withContext(loop) {
            val h = NativeBridge.poolPublish(handle, event.json.toByteArray(Charsets.UTF_8), relayHandles(relays))
            pubs[h] = p
        }
        wake()
        return p.done.await()
    }

    /**
     * The NIP-17 messages addressed to me on its inbox relays, received and opened (every
     * check of [SoftchatIdentity.receive]); a wrap that does not open is reported as
     * [PoolUpdate.Undeliverable] with its typed error and skipped. Resumes after reconnects
     * with the gift wraps' two days of backdating; duplicates across relays and resumes are
     * dropped by the pool.
     */
    @JvmOverloads
    fun messages(me: SoftchatIdentity, inboxRelays: List<String>, since: Long? = null): Flow<PrivateMessage> =
        subscribe(listOf(Filter(kinds = listOf(1059), p = listOf(me.publicKey), since = since)), inboxRelays,
            resumeSlack = GIFT_WRAP_SLACK)
            .mapNotNull { e ->
                try {
                    me.receive(e.event.json)
                } catch (x: SoftchatException) {
                    updatesFlow.tryEmit(PoolUpdate.Undeliverable(e.relay, e.event.id, x))
                    null
                }
            }

    /**
     * Sends a NIP-17 chat message: one gift wrap per receiver (and the sender's own copy),
     * each published to that receiver's inbox relays ([inboxes]: its kind 10050 list; the
     * sender's copy goes to [myInboxes]), tracked by a delivery record. Returns when every
     * publish settled: DELIVERED when each receiver's wrap was accepted by one of its relays.
     * SC_ERR_NO_INBOX for a receiver without inbox relays (NIP-17: not ready for DMs).
     */
    @JvmOverloads
    suspend fun sendMessage(
        me: SoftchatIdentity,
        to: List<Receiver>,
        text: String,
        inboxes: Map<PublicKey, List<String>>,
        myInboxes: List<String>,
        createdAt: Long = System.currentTimeMillis() / 1000,
        subject: String? = null,
        replyTo: EventId? = null,
    ): DeliveryReport {
        checkOpen()
        val wraps = me.sendMessage(to, text, createdAt, subject, replyTo)
        val routes = wraps.map { w ->
            val r = if (w.recipient == me.publicKey) myInboxes else inboxes[w.recipient].orEmpty()
            if (r.isEmpty()) throw SoftchatException(SC_ERR_NO_INBOX)
            r
        }
        val done = CompletableDeferred<DeliveryReport>()
        withContext(loop) {
            deliveries[NativeBridge.deliveryNew(handle, wrapsBlob(wraps), routesBlob(routes))] = done
        }
        wake()
        return done.await()
    }

    /**
     * Inbox discovery (api/softchat/delivery.h, sc_inboxes): one subscription on [bootstrap]
     * relays with the filter of sc_inboxes_filter (kinds 10050 and 10002 by [users]), ended at
     * EOSE from every relay or after [timeout]; every list received goes to the library's
     * directory, which keeps the newest of each kind per user and normalises the URLs. Answers
     * each user: [Inbox.Relays] with its kind 10050 relays, or [Inbox.Missing]
     * (SC_ERR_NO_INBOX: NIP-17 says not to send). [fallbackToRead] (SC_INBOXES_FALLBACK_READ)
     * takes a user's NIP-65 read relays when it has no kind 10050 list: an explicit choice,
     * never a default. A list that does not parse is reported as [PoolUpdate.Dropped] and
     * skipped; what arrived before the timeout is answered from.
     */
    suspend fun inboxes(
        users: List<PublicKey>,
        bootstrap: List<String>,
        timeout: Duration = 10.seconds,
        fallbackToRead: Boolean = false,
    ): Map<PublicKey, Inbox> {
        checkOpen()
        val distinct = users.distinct()
        if (distinct.isEmpty()) return emptyMap()
        if (bootstrap.isEmpty()) throw SoftchatException(SoftchatException.SC_ERR_EMPTY)
        val keys = ByteArray(32 * distinct.size)
        distinct.forEachIndexed { i, u -> Hex.decodeInto(u.toHex(), keys, 32 * i) }
        val ms = timeout.inWholeMilliseconds.coerceIn(1, Int.MAX_VALUE.toLong()).toInt()
        val id = "sc-inbox-" + nextId.incrementAndGet()
        val dir = NativeBridge.inboxesNew(distinct.size, INBOX_MAX_RELAYS, INBOX_MAX_URL)
        try {
            withTimeoutOrNull(timeout) {
                subscription(id, once = true) {
                    NativeBridge.poolSubscribeInboxes(handle, id.toByteArray(Charsets.UTF_8), keys, relayHandles(bootstrap), ms, SUB_ONCE)
                }.collect { e ->
                    try {
                        NativeBridge.inboxesAdd(dir, e.event.json.toByteArray(Charsets.UTF_8))
                    } catch (x: SoftchatException) {
                        updatesFlow.tryEmit(PoolUpdate.Dropped(e.relay, 1, x))
                    }
                }
            }
            val flags = if (fallbackToRead) INBOXES_FALLBACK_READ else 0
            return distinct.associateWith { decodeInbox(NativeBridge.inboxesGet(dir, it.toHex(), flags)) }
        } finally {
            NativeBridge.inboxesFree(dir)
        }
    }

    /**
     * Sends a NIP-17 chat message routed by discovered inboxes: [inboxes] of the receivers and
     * of me on [bootstrap], then [sendMessage] with them. Nothing is published when a receiver
     * (or me, for the sender's copy) has no inbox list: SC_ERR_NO_INBOX, unless
     * [fallbackToRead] and the user's NIP-65 read relays are known.
     */
    suspend fun sendMessage(
        me: SoftchatIdentity,
        to: List<Receiver>,
        text: String,
        bootstrap: List<String>,
        fallbackToRead: Boolean = false,
        timeout: Duration = 10.seconds,
        createdAt: Long = System.currentTimeMillis() / 1000,
        subject: String? = null,
        replyTo: EventId? = null,
    ): DeliveryReport {
        val found = inboxes(to.map { it.publicKey } + me.publicKey, bootstrap, timeout, fallbackToRead)
        val relays = found.mapValues { (_, inbox) -> (inbox as? Inbox.Relays ?: throw Inbox.Missing.error()).relays }
        return sendMessage(me, to, text, relays, relays.getValue(me.publicKey), createdAt, subject, replyTo)
    }

    /**
     * NIP-77 Negentropy with [relay] over the events matching [filter]: which of them only the
     * relay holds ([SyncResult.need]) and which only [have] holds ([SyncResult.have]), the
     * local set given as (created_at, id) pairs (repeats count once). Only ids move; the
     * reconciliation runs in libsoftchat (api/softchat/negentropy.h, every relay message
     * parsed strictly) over a connection of its own through this pool's transport (the
     * pool's connections carry only what its sessions queue), closed when it returns.
     * A NEG-ERR "auth-required:" is answered with a NIP-42 AUTH as [authenticateAs]'s
     * identity (unless [Options.auth] is NEVER), and the reconciliation opened again once the
     * relay accepts it.
     * Throws [SyncUnsupportedException] when the relay lacks NIP-77 (silent for
     * [SyncOptions.answerTimeout] after NEG-OPEN, or a NOTICE about it), [SyncRefusedException]
     * for a NEG-ERR, and SoftchatException for a hostile or broken exchange: SC_ERR_RELAY_MESSAGE
     * (a NEG-MSG that is not lowercase hex, a malformed message), SC_ERR_SUBSCRIPTION (a NEG-MSG
     * of another subscription id), SC_ERR_NEGENTROPY / SC_ERR_NEG_VERSION (a payload the
     * protocol refuses), SC_ERR_TIMEOUT, SC_ERR_IO (the connection failed or was lost),
     * SC_ERR_TOO_LARGE (over [SyncOptions.maxIds] ids or [SyncOptions.maxMessage] bytes).
     */
    @JvmOverloads
    suspend fun reconcile(
        relay: String,
        filter: Filter,
        have: Collection<Pair<Long, EventId>>,
        options: SyncOptions = SyncOptions(),
    ): SyncResult {
        checkOpen()
        val auth = if (this.options.auth == Auth.NEVER) null else authIdentity
        return NegentropySync(softchat, transport, relay, options, auth).run(filter, have)
    }

    /** [reconcile] with the local set given as events. */
    @JvmOverloads
    suspend fun reconcileEvents(relay: String, filter: Filter, have: Collection<NostrEvent>, options: SyncOptions = SyncOptions()): SyncResult =
        reconcile(relay, filter, have.map { it.createdAt to it.id }, options)

    /**
     * Catch-up from [relay]: [reconcile], then the events it holds and [have] lacks, fetched by
     * id on this pool ([subscribe] of [filter] with the ids, [batch] ids per REQ, each ended at
     * EOSE), each verified and matched by the library and delivered once. The flow fails with
     * [reconcile]'s exceptions ([SyncUnsupportedException]: fetch by [subscribe] instead).
     */
    @JvmOverloads
    fun catchUp(
        relay: String,
        filter: Filter,
        have: Collection<Pair<Long, EventId>>,
        options: SyncOptions = SyncOptions(),
        batch: Int = 500,
    ): Flow<RelayEvent> = flow {
        require(batch > 0) { "batch must be positive" }
        val found = reconcile(relay, filter, have, options)
        for (ids in found.need.chunked(batch)) {
            emitAll(subscribe(listOf(filter.withIds(ids)), listOf(relay), once = true))
        }
    }

    /** The identity the pool answers NIP-42 challenges with (null: none). The identity
     *  stays usable by the pool until another is set or the pool closes. */
    suspend fun authenticateAs(identity: SoftchatIdentity?) {
        checkOpen()
        withContext(loop) {
            val h = identity?.holdNative() ?: 0L
            NativeBridge.poolAuthIdentity(handle, h)
            authIdentity?.releaseNative()
            authIdentity = identity
            authHandle = h
        }
        wake()
    }

    // ---- the loop -----------------------------------------------------------------------

    /** SC_ERR_STATE once closed. */
    private fun checkOpen() {
        if (closed) throw SoftchatException(SoftchatException.SC_ERR_STATE)
    }

    private fun wake() {
        inputs.trySend(Input.Wake)
    }

    private fun now(): Long = System.currentTimeMillis()

    private suspend fun run() {
        loopThread = Thread.currentThread()
        var again = 0
        while (!closed) {
            try {
                drain()
            } catch (e: kotlinx.coroutines.CancellationException) {
                throw e
            } catch (e: Exception) {
                updatesFlow.tryEmit(PoolUpdate.Notice("", "pool: $e")) // never stop the loop
            }
            val wake = NativeBridge.poolWakeup(handle)
            // 0: an update may be waiting; poll again, but never spin on it
            val wait = if (wake == 0L) (if (again++ < 2) 0L else 1L) else wake.also { again = 0 }
            val input = when {
                wait == 0L -> inputs.tryReceive().getOrNull()
                wait == Long.MAX_VALUE -> inputs.receive()
                wake == 0L -> withTimeoutOrNull(1L) { inputs.receive() }
                else -> withTimeoutOrNull(maxOf(1L, wait - now())) { inputs.receive() }
            }
            if (input != null) {
                try {
                    take(input)
                } catch (e: kotlinx.coroutines.CancellationException) {
                    throw e
                } catch (e: Exception) {
                    updatesFlow.tryEmit(PoolUpdate.Notice("", "pool: $e"))
                }
            }
        }
    }

    private fun take(input: Input) {
        when (input) {
            is Input.Wake -> {}
            is Input.Opened -> links[input.relay]?.takeIf { it.token === input.token }?.let {
                it.open = true
                NativeBridge.poolConnected(handle, input.relay, now())
                updatesFlow.tryEmit(PoolUpdate.Connected(it.url))
            }
            is Input.Text -> links[input.relay]?.takeIf { it.token === input.token && it.open }?.let {
                try {
                    NativeBridge.poolReceive(slot, handle, input.relay, input.text.toByteArray(Charsets.UTF_8), now())
                } catch (e: SoftchatException) {
                    if (e.status != SoftchatException.SC_ERR_TOO_LARGE) throw e
                    updatesFlow.tryEmit(PoolUpdate.Dropped(it.url, 1, e))
                }
            }
            is Input.Closed -> links[input.relay]?.takeIf { it.token === input.token }?.let {
                it.conn = null
                it.token = null
                it.open = false
                NativeBridge.poolDisconnected(handle, input.relay, now())
                updatesFlow.tryEmit(PoolUpdate.Disconnected(it.url, input.reason))
            }
        }
    }

    /** Reports every update, then sends what each open relay has queued. */
    private fun drain() {
        while (true) {
            val blob = NativeBridge.poolPoll(slot, handle, now()) ?: break
            dispatch(PoolUpdateBlob(blob))
        }
        for ((r, l) in links) {
            val c = l.conn ?: continue
            if (!l.open) continue
            while (true) {
                val out = NativeBridge.poolNext(handle, r) ?: break
                c.send(String(out, Charsets.UTF_8))
            }
        }
    }

    private fun dispatch(u: PoolUpdateBlob) {
        when (u.kind) {
            U_CONNECT -> connect(u.relay, u.url)
            U_DISCONNECT -> links.remove(u.relay)?.conn?.close()
            U_EVENT -> subs[u.sub]?.out?.trySend(RelayEvent(u.event!!, u.url, u.subId))
            U_EOSE -> {
                updatesFlow.tryEmit(PoolUpdate.EndOfStored(u.url, u.subId))
                subs[u.sub]?.takeIf { it.once }?.let {
                    subs.remove(u.sub)
                    it.out.close()
                    NativeBridge.poolUnsubscribe(handle, u.sub) // the pool ended it: its filters are freed
                }
            }
            U_CLOSED -> updatesFlow.tryEmit(PoolUpdate.Closed(u.url, u.subId, u.prefixName, u.text))
            U_PUBLISHED -> published(u)
            U_PUBLISH_DONE -> publishDone(u)
            U_AUTH -> updatesFlow.tryEmit(PoolUpdate.AuthChallenge(u.url, u.text))
            U_AUTHENTICATED -> updatesFlow.tryEmit(PoolUpdate.Authenticated(u.url))
            U_AUTH_REFUSED -> updatesFlow.tryEmit(PoolUpdate.AuthRefused(u.url, u.prefixName, u.text, u.status))
            U_NOTICE -> updatesFlow.tryEmit(PoolUpdate.Notice(u.url, u.text))
            U_DROPPED -> updatesFlow.tryEmit(PoolUpdate.Dropped(u.url, u.count, SoftchatException(u.status)))
            U_OTHER -> updatesFlow.tryEmit(PoolUpdate.Other(u.url, u.eventJson))
        }
    }

    private fun connect(relay: Int, url: String) {
        val l = links.getOrPut(relay) { Link(url) }
        updatesFlow.tryEmit(PoolUpdate.Connecting(url))
        val token = Any()
        val listener = object : RelayTransport.Listener {
            override fun onOpen() { inputs.trySend(Input.Opened(relay, token)) }
            override fun onText(text: String) { inputs.trySend(Input.Text(relay, token, text)) }
            override fun onClosed(reason: String) { inputs.trySend(Input.Closed(relay, token, reason)) }
        }
        l.token = token
        l.open = false
        l.conn = null
        try {
            l.conn = transport.connect(url, listener)
        } catch (e: Exception) { // a transport that refuses at once: the pool counts a failure
            inputs.trySend(Input.Closed(relay, token, "connect failed: ${e.message}"))
        }
    }

    private fun published(u: PoolUpdateBlob) {
        val r = PublishResult(u.url, PublishOutcome.values()[u.result], u.attempts, u.prefixName, u.text)
        updatesFlow.tryEmit(PoolUpdate.Published(u.url, EventId.ofHex(u.eventIdHex), r))
        if (u.delivery == 0L) pubs[u.pub]?.results?.add(r)
    }

    private fun publishDone(u: PoolUpdateBlob) {
        if (u.delivery == 0L) {
            pubs.remove(u.pub)?.let { it.done.complete(it.results) }
            return
        }
        if (!u.deliveryFinished) return
        val report = decodeDeliveryReport(NativeBridge.deliveryResult(handle, u.delivery))
        NativeBridge.deliveryFree(handle, u.delivery)
        deliveries.remove(u.delivery)?.complete(report)
    }

    private fun relayHandles(urls: List<String>): IntArray =
        IntArray(urls.size) { NativeBridge.poolRelayAdd(handle, urls[it].toByteArray(Charsets.UTF_8)) }

    /** Stops the loop, closes every socket, fails what waits, wipes the pool. */
    override fun close() {
        if (closed) return
        closed = true
        cleanerRef.unregister()
        val stop = Runnable {
            scope.cancel()
            val gone = SoftchatException(SoftchatException.SC_ERR_STATE)
            links.values.forEach { it.conn?.close() }
            subs.values.forEach { it.out.close() }
            pubs.values.forEach { it.done.completeExceptionally(gone) }
            deliveries.values.forEach { it.completeExceptionally(gone) }
            authIdentity?.releaseNative()
            authIdentity = null
            NativeBridge.poolFree(handle)
            NativeBridge.slotFree(slot)
        }
        if (Thread.currentThread() === loopThread) stop.run() else executor.submit(stop).get()
        executor.shutdown()
    }

    companion object {
        /** Seconds NIP-59 backdates a gift wrap: a resume reaches back this far. */
        const val GIFT_WRAP_SLACK = 172_800L

        private const val SC_ERR_NO_INBOX = SoftchatException.SC_ERR_NO_INBOX
        private const val SUB_ONCE = 1 // SC_POOL_SUB_ONCE
        private const val INBOXES_FALLBACK_READ = 1 // SC_INBOXES_FALLBACK_READ
        /** A user's list keeps its first 16 relays of up to 256 bytes each. */
        private const val INBOX_MAX_RELAYS = 16
        private const val INBOX_MAX_URL = 256
        private val nextId = AtomicInteger()

        /** The inbox relays of a kind 10050 event (NIP-17: ["relay", url] tags, in order). */
        @JvmStatic
        fun inboxRelays(list: NostrEvent): List<String> {
            if (list.kind != 10050) throw SoftchatException(SoftchatException.SC_ERR_MESSAGE)
            return list.tags.filter { it.size >= 2 && it[0] == "relay" && it[1].isNotEmpty() }.map { it[1] }
        }

        private fun freer(handle: Long, slot: Long, executor: java.util.concurrent.ExecutorService): () -> Unit = {
            executor.shutdownNow()
            NativeBridge.poolFree(handle)
            NativeBridge.slotFree(slot)
        }

        private fun wrapsBlob(wraps: List<GiftWrap>): ByteArray {
            val json = wraps.map { it.json.toByteArray(Charsets.UTF_8) }
            val out = ByteArray(4 + json.sumOf { 36 + it.size })
            var o = BlobWriter.put(out, 0, wraps.size)
            for (i in wraps.indices) {
                Hex.decodeInto(wraps[i].recipient.toHex(), out, o)
                o = BlobWriter.put(out, o + 32, json[i].size)
                System.arraycopy(json[i], 0, out, o, json[i].size)
                o += json[i].size
            }
            return out
        }

        private fun routesBlob(routes: List<List<String>>): ByteArray {
            val parts = ArrayList<ByteArray>()
            for (r in routes) parts.add(BlobWriter.strings(r)!!)
            val out = ByteArray(4 + parts.sumOf { it.size })
            var o = BlobWriter.put(out, 0, routes.size)
            for (p in parts) {
                System.arraycopy(p, 0, out, o, p.size)
                o += p.size
            }
            return out
        }

        internal const val U_CONNECT = 1
        internal const val U_DISCONNECT = 2
        internal const val U_EVENT = 3
        internal const val U_EOSE = 4
        internal const val U_CLOSED = 5
        internal const val U_PUBLISHED = 6
        internal const val U_PUBLISH_DONE = 7
        internal const val U_AUTH = 8
        internal const val U_AUTHENTICATED = 9
        internal const val U_AUTH_REFUSED = 10
        internal const val U_NOTICE = 11
        internal const val U_DROPPED = 12
        internal const val U_OTHER = 13
    }
}
