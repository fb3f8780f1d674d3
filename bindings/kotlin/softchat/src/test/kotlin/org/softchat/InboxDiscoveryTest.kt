package org.softchat

import kotlinx.coroutines.CoroutineScope
import kotlinx.coroutines.Dispatchers
import kotlinx.coroutines.cancel
import kotlinx.coroutines.delay
import kotlinx.coroutines.launch
import kotlinx.coroutines.runBlocking
import kotlinx.coroutines.withTimeout
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertSame
import org.junit.jupiter.api.Assertions.assertTrue
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.io.TempDir
import java.io.File
import java.util.Collections

/**
 * RelayPool.inboxes and the sendMessage that routes by it, against the relays on loopback
 * (TestRelays: rust-nostr's relay builder and nostr-relay): kind 10050 lists published, discovered through the library's directory, a
 * message sent by them and received once; users without a list get the typed no-inbox outcome.
 */
class InboxDiscoveryTest {
    @TempDir lateinit var dir: File

    private val sc = Softchat.default()

    @Test
    fun `inboxes are discovered from kind 10050 lists on the Rust relay and a message is routed by them`() = discover("rust")

    @Test
    fun `inboxes are discovered from kind 10050 lists on nostr-relay and a message is routed by them`() = discover("python")

    private fun discover(kind: String) = runBlocking {
        val relay = TestRelays.Process(kind, TestRelays.freePort(), dir)
        relay.start()
        val alice = sc.generateIdentity()
        val bob = sc.generateIdentity()
        val carol = sc.generateIdentity() // only a NIP-65 list
        val dave = sc.generateIdentity() // no list at all
        val a = RelayPool()
        val b = RelayPool()
        val got = Collections.synchronizedList(ArrayList<PrivateMessage>())
        val scope = CoroutineScope(Dispatchers.Default)
        try {
            val now = System.currentTimeMillis() / 1000
            val url = relay.url
            val lists = listOf(
                alice.sign(10050, now, listOf(listOf("relay", url), listOf("relay", url)), ""), // a repeat is left out
                bob.sign(10050, now, listOf(listOf("relay", url.replace("ws://", "WS://") + "/")), ""), // normalised
                carol.sign(10002, now, listOf(listOf("r", url, "read"), listOf("r", "wss://write.example", "write")), ""),
            )
            for (e in lists) {
                val r = withTimeout(20_000) { a.publish(e, listOf(url)) }
                assertEquals(PublishOutcome.ACCEPTED, r.single().outcome, r.toString())
            }

            val users = listOf(alice.publicKey, bob.publicKey, carol.publicKey, dave.publicKey)
            val found = withTimeout(20_000) { b.inboxes(users, listOf(url)) }
            assertEquals(users.toSet(), found.keys)
            for (u in listOf(alice, bob)) {
                val inbox = found.getValue(u.publicKey)
                assertTrue(inbox is Inbox.Relays, inbox.toString())
                inbox as Inbox.Relays
                assertEquals(listOf(url), inbox.relays)
                assertEquals(InboxSource.DM_RELAYS, inbox.source)
            }
            assertSame(Inbox.Missing, found.getValue(carol.publicKey), "a NIP-65 list is no inbox without the fallback")
            assertSame(Inbox.Missing, found.getValue(dave.publicKey))
            assertEquals("SC_ERR_NO_INBOX", Inbox.Missing.error().statusName)

            val fallback = withTimeout(20_000) { b.inboxes(listOf(carol.publicKey, dave.publicKey), listOf(url), fallbackToRead = true) }
            val c = fallback.getValue(carol.publicKey)
            assertTrue(c is Inbox.Relays && c.source == InboxSource.NIP65_READ && c.relays == listOf(url), c.toString())
            assertSame(Inbox.Missing, fallback.getValue(dave.publicKey), "no list: no fallback either")

            val bobInbox = (found.getValue(bob.publicKey) as Inbox.Relays).relays
            scope.launch { b.messages(bob, bobInbox).collect { got.add(it) } }
            delay(300)
            val sent = withTimeout(30_000) { a.sendMessage(alice, listOf(Receiver(bob.publicKey)), "routed", listOf(url)) }
            assertEquals(DeliveryOutcome.DELIVERED, sent.outcome, sent.toString())
            assertEquals(setOf(alice.publicKey, bob.publicKey), sent.receivers.map { it.publicKey }.toSet())
            assertTrue(sent.receivers.all { r -> r.relays.map { it.relay } == listOf(url) }, sent.toString())
            withTimeout(20_000) { while (got.isEmpty()) delay(20) }
            delay(1_000) // a second copy would show here
            assertEquals(listOf("routed"), got.map { it.content })
            assertEquals(alice.publicKey, got.single().sender)

            for (to in listOf(carol, dave)) {
                TestData.expectStatus("SC_ERR_NO_INBOX", "a receiver without a kind 10050 list") {
                    runBlocking { a.sendMessage(alice, listOf(Receiver(to.publicKey)), "not sent", listOf(url)) }
                }
            }
            val viaRead = withTimeout(30_000) {
                a.sendMessage(alice, listOf(Receiver(carol.publicKey)), "read relays", listOf(url), fallbackToRead = true)
            }
            assertEquals(DeliveryOutcome.DELIVERED, viaRead.outcome, viaRead.toString())
        } finally {
            scope.cancel()
            a.close()
            b.close()
            relay.stop()
            listOf(alice, bob, carol, dave).forEach { it.close() }
        }
    }

    @Test
    fun `no user asks nothing and no bootstrap relay is SC_ERR_EMPTY`() = runBlocking {
        val me = sc.generateIdentity()
        RelayPool().use { pool ->
            assertEquals(emptyMap<PublicKey, Inbox>(), pool.inboxes(emptyList(), listOf("ws://127.0.0.1:1")))
            TestData.expectStatus("SC_ERR_EMPTY", "no bootstrap relay") { runBlocking { pool.inboxes(listOf(me.publicKey), emptyList()) } }
        }
        me.close()
    }
}
