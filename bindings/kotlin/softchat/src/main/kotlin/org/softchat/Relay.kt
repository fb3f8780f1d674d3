package org.softchat

import kotlinx.coroutines.flow.Flow
import kotlinx.coroutines.flow.SharedFlow
import kotlinx.coroutines.flow.map
import kotlinx.coroutines.flow.toList

/**
 * One relay on its own: the per-relay session of api/softchat/relay.h (subscriptions by id,
 * EVENT answered by OK, NIP-42 AUTH, reconnects with backoff and resume) as the library's
 * pool runs it for a single relay. It is a [RelayPool] of this one relay, so it behaves as
 * the pool does for each of its relays: events are verified and matched before they are
 * delivered, once each; a publish is retried until the relay answers OK or the attempts run
 * out; the connection opens when a subscription or a publish needs it and is left idle
 * otherwise (there is no separate connect: the first [subscribe] or [publish] connects).
 * [updates] reports the connection, EOSE, CLOSED, notices and AUTH.
 */
class Relay @JvmOverloads constructor(
    url: String,
    softchat: Softchat = Softchat.default(),
    transport: RelayTransport = JdkWebSocketTransport(),
    options: RelayPool.Options = RelayPool.Options(maxRelays = 1),
) : AutoCloseable {
    /** The relay's URL as given. */
    val url: String = url

    private val pool = RelayPool(softchat, transport, options)

    /** Connections, EOSE, CLOSED, notices, AUTH, publish results and dropped messages. */
    val updates: SharedFlow<PoolUpdate> get() = pool.updates

    /** The events matching filters, verified, each once; [once]: the flow ends at EOSE.
     *  [subscriptionId]: the REQ's id (null: one of the pool's). */
    @JvmOverloads
    fun subscribe(filters: List<Filter>, subscriptionId: String? = null, resumeSlack: Long = 0, once: Boolean = false): Flow<NostrEvent> {
        val flow = if (subscriptionId == null) {
            pool.subscribe(filters, listOf(url), resumeSlack = resumeSlack, once = once)
        } else {
            pool.subscribe(filters, listOf(url), subscriptionId, resumeSlack, once)
        }
        return flow.map { it.event }
    }

    /** The stored events matching filters (a subscription ended at EOSE). */
    suspend fun fetch(filters: List<Filter>): List<NostrEvent> = subscribe(filters, once = true).toList()

    /** Publishes a signed event; returns once the relay answered OK (accepted or refused
     *  with its prefix and text) or the attempts ran out (FAILED). */
    suspend fun publish(event: NostrEvent): PublishResult = pool.publish(event, listOf(url)).single()

    /** The identity the relay's NIP-42 challenges are answered with ([RelayPool.Options.auth]). */
    suspend fun authenticateAs(identity: SoftchatIdentity?) = pool.authenticateAs(identity)

    /** [RelayPool.reconcile] with this relay. */
    @JvmOverloads
    suspend fun reconcile(filter: Filter, have: Collection<Pair<Long, EventId>>, options: SyncOptions = SyncOptions()): SyncResult =
        pool.reconcile(url, filter, have, options)

    /** [RelayPool.catchUp] from this relay. */
    @JvmOverloads
    fun catchUp(filter: Filter, have: Collection<Pair<Long, EventId>>, options: SyncOptions = SyncOptions()): Flow<NostrEvent> =
        pool.catchUp(url, filter, have, options).map { it.event }

    /** Closes the connection and wipes the session. */
    override fun close() = pool.close()
}
