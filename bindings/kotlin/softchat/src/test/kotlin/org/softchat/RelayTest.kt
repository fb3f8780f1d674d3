package org.softchat

import kotlinx.coroutines.CoroutineStart
import kotlinx.coroutines.async
import kotlinx.coroutines.flow.first
import kotlinx.coroutines.flow.take
import kotlinx.coroutines.flow.toList
import kotlinx.coroutines.runBlocking
import kotlinx.coroutines.withTimeout
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertTrue
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.io.TempDir
import java.io.File

/**
 * Relay, one relay on its own, against rust-nostr's relay builder on loopback requiring
 * NIP-42 AUTH and refusing kind 7: publish answered by OK (accepted after the AUTH, refused
 * with the relay's prefix, refused auth-required for an identity that does not authenticate),
 * fetch, a live subscription, and catch-up.
 */
class RelayTest {
    @TempDir lateinit var dir: File

    private val sc = Softchat.default()

    @Test
    fun `one relay on its own - publish with OK, AUTH, fetch, a live subscription, catch-up`() = runBlocking<Unit> {
        val server = TestRelays.Process("rust", TestRelays.freePort(), dir, listOf("--auth", "--reject-kind", "7"))
        server.start()
        val alice = sc.generateIdentity()
        val bob = sc.generateIdentity()
        val a = Relay(server.url)
        val b = Relay(server.url)
        val stranger = Relay(server.url, options = RelayPool.Options(maxRelays = 1, okTimeoutMs = 2_000)) // no AUTH comes: refused sooner
        try {
            val authenticated = async(start = CoroutineStart.UNDISPATCHED) {
                withTimeout(30_000) { a.updates.first { it is PoolUpdate.Authenticated } }
            }
            a.authenticateAs(alice)
            b.authenticateAs(bob)
            val now = System.currentTimeMillis() / 1000
            val note = alice.sign(1, now, emptyList(), "hello")
            val ok = withTimeout(30_000) { a.publish(note) }
            assertEquals(PublishOutcome.ACCEPTED, ok.outcome, ok.toString())
            assertEquals(server.url, authenticated.await().relay.removeSuffix("/"))

            val refused = withTimeout(30_000) { a.publish(alice.sign(7, now, emptyList(), "+")) }
            assertEquals(PublishOutcome.REFUSED, refused.outcome, refused.toString())
            assertEquals("blocked", refused.prefix)

            val unknown = withTimeout(30_000) { stranger.publish(sc.generateIdentity().sign(1, now, emptyList(), "who")) }
            assertEquals(PublishOutcome.REFUSED, unknown.outcome, unknown.toString())
            assertEquals("auth-required", unknown.prefix)

            val fetched = withTimeout(30_000) { b.fetch(listOf(Filter(authors = listOf(alice.publicKey)))) }
            assertEquals(listOf(note.id), fetched.map { it.id })

            val eose = async(start = CoroutineStart.UNDISPATCHED) {
                b.updates.first { it is PoolUpdate.EndOfStored && it.subscriptionId == "live" }
            }
            val live = async { withTimeout(30_000) { b.subscribe(listOf(Filter(kinds = listOf(1), authors = listOf(alice.publicKey))), "live").take(2).toList() } }
            withTimeout(30_000) { eose.await() }
            val second = alice.sign(1, now + 1, emptyList(), "again")
            assertEquals(PublishOutcome.ACCEPTED, withTimeout(30_000) { a.publish(second) }.outcome)
            assertEquals(listOf(note.id, second.id), live.await().map { it.id })

            val caught = withTimeout(30_000) { b.catchUp(Filter(authors = listOf(alice.publicKey)), listOf(note.createdAt to note.id)).toList() }
            assertEquals(listOf(second.id), caught.map { it.id })
            assertTrue(caught.single().content == "again")
        } finally {
            a.close()
            b.close()
            stranger.close()
            server.stop()
        }
    }
}
