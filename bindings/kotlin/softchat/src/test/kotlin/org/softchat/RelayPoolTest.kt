package org.softchat

import kotlinx.coroutines.CoroutineScope
import kotlinx.coroutines.Dispatchers
import kotlinx.coroutines.async
import kotlinx.coroutines.awaitAll
import kotlinx.coroutines.cancel
import kotlinx.coroutines.delay
import kotlinx.coroutines.flow.filterIsInstance
import kotlinx.coroutines.flow.first
import kotlinx.coroutines.flow.toList
import kotlinx.coroutines.launch
import kotlinx.coroutines.runBlocking
import kotlinx.coroutines.withTimeout
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertTrue
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.io.TempDir
import java.io.File
import java.util.Collections

/**
 * RelayPool against real relays on loopback (TestRelays: rust-nostr's relay builder and
 * nostr-relay from PyPI, as the ctest suite starts them) and a hostile one in this JVM.
 */
class RelayPoolTest {
    @TempDir lateinit var dir: File

    private val sc = Softchat.default()

    /** Quick retries and reconnects, so a restart is crossed in seconds. */
    private val quick = RelayPool.Options(okTimeoutMs = 5_000, retryMinMs = 200, retryMaxMs = 1_000, maxAttempts = 30,
        reconnectMinMs = 100, reconnectMaxMs = 1_000)

    private fun restart(kind: String) = runBlocking {
        val relay = TestRelays.Process(kind, TestRelays.freePort(), dir)
        relay.start()
        val alice = sc.generateIdentity()
        val bob = sc.generateIdentity()
        val a = RelayPool(options = quick)
        val b = RelayPool(options = quick)
        val got = Collections.synchronizedList(ArrayList<PrivateMessage>())
        val scope = CoroutineScope(Dispatchers.Default)
        val log = Collections.synchronizedList(ArrayList<String>())
        scope.launch { b.updates.collect { log.add("b " + it + " " + describe(it)) } }
        scope.launch { a.updates.collect { log.add("a " + it + " " + describe(it)) } }
        try {
            scope.launch { b.messages(bob, listOf(relay.url)).collect { got.add(it) } }
            delay(300)
            val inboxes = mapOf(bob.publicKey to listOf(relay.url))
            suspend fun send(i: Int) = a.sendMessage(alice, listOf(Receiver(bob.publicKey)), "m$i", inboxes, listOf(relay.url))
            for (i in 1..4) {
                val r = send(i)
                assertEquals(DeliveryOutcome.DELIVERED, r.outcome, "$kind: m$i: $r")
            }
            withTimeout(20_000) { while (got.size < 4) delay(20) }
            relay.stop() // down: what is sent now waits for it, and bob's subscription is lost
            val during = (5..7).map { i -> async { send(i) } }
            delay(700)
            relay.start() // the same port; the rust relay comes back empty, nostr-relay with its SQLite
            for (r in during.awaitAll()) assertEquals(DeliveryOutcome.DELIVERED, r.outcome, "$kind: across the restart: $r")
            val after = send(8)
            assertEquals(DeliveryOutcome.DELIVERED, after.outcome)
            withTimeout(30_000) { while (got.size < 8) delay(20) }
            delay(1_500) // a resumed REQ that sends old wraps again would show here
            val texts = got.map { it.content }.sorted()
            assertEquals((1..8).map { "m$it" }.sorted(), texts, "$kind: each message once, none lost")
            assertTrue(got.all { it.sender == alice.publicKey })
            assertEquals(8, got.map { it.rumorId }.toSet().size)
        } catch (e: Throwable) {
            System.err.println("got: " + got.map { it.content } + "\n" + log.joinToString("\n"))
            throw e
        } finally {
            scope.cancel()
            a.close()
            b.close()
            relay.stop()
            alice.close()
            bob.close()
        }
    }

    @Test
    fun `NIP-17 through the pool across a restart of the Rust relay, no loss, no duplicates`() = restart("rust")

    @Test
    fun `NIP-17 through the pool across a restart of nostr-relay, no loss, no duplicates`() = restart("python")

    @Test
    fun `a relay that requires AUTH refuses strangers and takes the identity the pool answers with`() = runBlocking {
        val relay = TestRelays.Process("rust", TestRelays.freePort(), dir, listOf("--auth"))
        relay.start()
        val alice = sc.generateIdentity()
        val bob = sc.generateIdentity()
        val stranger = RelayPool(options = RelayPool.Options(okTimeoutMs = 3_000, maxAttempts = 2, retryMinMs = 200))
        val a = RelayPool(options = quick)
        val b = RelayPool(options = quick)
        try {
            val note = alice.sign(1, System.currentTimeMillis() / 1000, emptyList(), "behind auth")
            val refused = withTimeout(20_000) { stranger.publish(note, listOf(relay.url)) }
            assertEquals(PublishOutcome.REFUSED, refused.single().outcome, refused.toString())
            assertEquals("auth-required", refused.single().prefix)
            a.authenticateAs(alice)
            b.authenticateAs(bob)
            val authed = async { a.updates.filterIsInstance<PoolUpdate.Authenticated>().first() }
            delay(200)
            val ok = withTimeout(20_000) { a.publish(note, listOf(relay.url)) }
            assertEquals(PublishOutcome.ACCEPTED, ok.single().outcome, ok.toString())
            assertEquals(relay.url, withTimeout(5_000) { authed.await() }.relay)
            val inboxes = mapOf(bob.publicKey to listOf(relay.url))
            val sent = withTimeout(20_000) { a.sendMessage(alice, listOf(Receiver(bob.publicKey)), "secret", inboxes, listOf(relay.url)) }
            assertEquals(DeliveryOutcome.DELIVERED, sent.outcome, sent.toString())
            val m = withTimeout(20_000) { b.messages(bob, listOf(relay.url)).first() }
            assertEquals("secret", m.content)
            assertEquals(alice.publicKey, m.sender)
        } finally {
            stranger.close()
            a.close()
            b.close()
            relay.stop()
        }
    }

    @Test
    fun `hostile relay messages are dropped with typed errors and never delivered`() = runBlocking {
        val me = sc.generateIdentity()
        val other = sc.generateIdentity()
        val signed = other.sign(1059, 1_700_000_000, listOf(listOf("p", me.publicKeyHex)), "x")
        val badSig = signed.sig.substring(0, 127) + (if (signed.sig.last() == '0') '1' else '0')
        val forged = signed.json.replace(signed.sig, badSig) // the id holds, the signature does not
        val sub = java.util.concurrent.atomic.AtomicReference<String>()
        val relay = HostileRelay { msg, send ->
            if (msg.startsWith("[\"REQ\"")) {
                val id = msg.substring(8, msg.indexOf('"', 8))
                sub.set(id)
                send("[\"NOTICE\",\"hello from a relay with manners\"]")
                send("{not json")
                Thread.sleep(1_200) // the pool reports drops at most once a second per relay
                send("[\"EVENT\",\"$id\",$forged]")
                Thread.sleep(1_200)
                send("[\"EVENT\",\"no-such-sub\",$forged]")
                send("[\"EOSE\",\"$id\"]")
            }
        }
        val pool = RelayPool(options = quick)
        try {
            val drops = async { pool.updates.filterIsInstance<PoolUpdate.Dropped>().toListUntil(3) }
            val notice = async { pool.updates.filterIsInstance<PoolUpdate.Notice>().first() }
            delay(200) // both collectors subscribed before anything is sent
            val delivered = withTimeout(20_000) {
                pool.subscribe(listOf(Filter(kinds = listOf(1059), p = listOf(me.publicKey))), listOf(relay.url), once = true).toList()
            }
            assertEquals(emptyList<RelayEvent>(), delivered, "nothing forged reaches the application")
            assertEquals("hello from a relay with manners", withTimeout(5_000) { notice.await() }.text)
            val errors = withTimeout(10_000) { drops.await() }.map { it.error.statusName }
            assertTrue(errors.contains("SC_ERR_JSON"), errors.toString())
            assertTrue(errors.contains("SC_ERR_INVALID_SIG"), errors.toString())
        } finally {
            pool.close()
            relay.close()
        }
    }

    @Test
    fun `closing the pool fails what waits with SC_ERR_STATE and a relay that is down counts as failed`() = runBlocking {
        val me = sc.generateIdentity()
        val down = "ws://127.0.0.1:" + TestRelays.freePort() // nothing listens there
        val note = me.sign(1, 1_700_000_000, emptyList(), "to nowhere")
        RelayPool(options = RelayPool.Options(maxAttempts = 2, retryMinMs = 100, retryMaxMs = 200, reconnectMinMs = 50, reconnectMaxMs = 100)).use { pool ->
            val r = withTimeout(20_000) { pool.publish(note, listOf(down)) }
            assertEquals(PublishOutcome.FAILED, r.single().outcome, r.toString())
        }
        val pool = RelayPool()
        val waiting = async { runCatching { pool.publish(note, listOf(down)) } }
        delay(300)
        pool.close()
        val e = withTimeout(5_000) { waiting.await() }.exceptionOrNull()
        assertTrue(e is SoftchatException && e.statusName == "SC_ERR_STATE", e.toString())
        TestData.expectStatus("SC_ERR_STATE", "a closed pool") { runBlocking { pool.publish(note, listOf(down)) } }
    }

    private fun describe(u: PoolUpdate): String = when (u) {
        is PoolUpdate.Published -> u.result.toString()
        is PoolUpdate.Disconnected -> u.reason
        is PoolUpdate.Dropped -> u.error.statusName
        is PoolUpdate.Notice -> u.text
        is PoolUpdate.Closed -> "${u.prefix} ${u.text}"
        else -> ""
    }

    private suspend fun <T> kotlinx.coroutines.flow.Flow<T>.toListUntil(n: Int): List<T> {
        val out = ArrayList<T>()
        try {
            withTimeout(8_000) { collect { out.add(it); if (out.size >= n) throw StopCollect() } }
        } catch (_: StopCollect) {
        } catch (_: kotlinx.coroutines.TimeoutCancellationException) {
        }
        return out
    }

    private class StopCollect : RuntimeException()
}
