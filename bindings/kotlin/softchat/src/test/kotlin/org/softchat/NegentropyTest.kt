package org.softchat

import kotlinx.coroutines.flow.toList
import kotlinx.coroutines.runBlocking
import kotlinx.coroutines.withTimeout
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertNull
import org.junit.jupiter.api.Assertions.assertTrue
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.assertThrows
import org.junit.jupiter.api.io.TempDir
import java.io.File
import kotlin.time.Duration.Companion.seconds

/**
 * RelayPool.reconcile and catchUp (NIP-77 Negentropy through libsoftchat): against the Rust
 * relay on loopback (NIP-77 by the `negentropy` crate) the exact differences both ways and a
 * catch-up that fetches exactly the missing events; against nostr-relay (no NIP-77) the typed
 * unsupported outcome within the deadline; against a scripted relay the typed errors of a
 * hostile exchange.
 */
class NegentropyTest {
    @TempDir lateinit var dir: File

    private val sc = Softchat.default()

    @Test
    fun `reconcile finds the differences both ways and catchUp fetches exactly the missing events`() = runBlocking<Unit> {
        val relay = TestRelays.Process("rust", TestRelays.freePort(), dir)
        relay.start()
        val alice = sc.generateIdentity()
        val pool = RelayPool()
        try {
            val now = System.currentTimeMillis() / 1000
            val published = (0 until 60).map { alice.sign(1, now - it, emptyList(), "note $it") }
            for (e in published) {
                val r = withTimeout(20_000) { pool.publish(e, listOf(relay.url)) }
                assertEquals(PublishOutcome.ACCEPTED, r.single().outcome, r.toString())
            }
            val onlyHere = (0 until 5).map { alice.sign(1, now - 100 - it, emptyList(), "local $it") }
            val missing = published.filterIndexed { i, _ -> i % 3 == 0 } // 20 of 60
            val local = published.filterIndexed { i, _ -> i % 3 != 0 } + onlyHere
            val filter = Filter(kinds = listOf(1), authors = listOf(alice.publicKey))

            val found = withTimeout(30_000) { pool.reconcileEvents(relay.url, filter, local + local.take(3)) }
            assertEquals(missing.map { it.id.toHex() }.sorted(), found.need.map { it.toHex() })
            assertEquals(onlyHere.map { it.id.toHex() }.sorted(), found.have.map { it.toHex() })
            assertTrue(found.rounds >= 1, found.toString())

            val fetched = withTimeout(30_000) { pool.catchUp(relay.url, filter, local.map { it.createdAt to it.id }).toList() }
            assertEquals(missing.map { it.id }.toSet(), fetched.map { it.event.id }.toSet())
            assertEquals(missing.size, fetched.size, "each missing event once")
            for (e in fetched) {
                val sent = missing.first { it.id == e.event.id }
                assertEquals(sent.content to sent.sig, e.event.content to e.event.sig)
                assertEquals(relay.url, e.relay)
            }

            // nothing local: every event is needed; the whole set local: nothing differs
            val all = withTimeout(30_000) { pool.reconcile(relay.url, filter, emptyList()) }
            assertEquals(published.map { it.id.toHex() }.sorted(), all.need.map { it.toHex() })
            assertTrue(all.have.isEmpty())
            val same = withTimeout(30_000) { pool.reconcileEvents(relay.url, filter, published) }
            assertTrue(same.need.isEmpty() && same.have.isEmpty(), same.toString())
            // a frame limit: 2000 records only here (arbitrary ids) take several rounds, and
            // the differences are still exact, each once
            val rnd = java.util.Random(7)
            val fake = (0 until 2000).map { (now - 500 - rnd.nextInt(100_000)) to EventId.fromBytes(ByteArray(32).also { b -> rnd.nextBytes(b) }) }
            val limited = withTimeout(60_000) {
                pool.reconcile(relay.url, filter, local.map { it.createdAt to it.id } + fake, SyncOptions(frameLimit = 4096))
            }
            assertTrue(limited.rounds > 1, limited.toString())
            assertEquals(missing.map { it.id.toHex() }.sorted(), limited.need.map { it.toHex() })
            assertEquals((onlyHere.map { it.id } + fake.map { it.second }).map { it.toHex() }.sorted(), limited.have.map { it.toHex() })
            // more ids than the caller allows: SC_ERR_TOO_LARGE, not a list without end
            val cap = assertThrows<SoftchatException> {
                runBlocking { withTimeout(30_000) { pool.reconcile(relay.url, filter, emptyList(), SyncOptions(maxIds = 10)) } }
            }
            assertEquals("SC_ERR_TOO_LARGE", cap.statusName)
            // another author's filter: the relay holds none of them, all of ours are "have"
            val bob = sc.generateIdentity()
            val other = withTimeout(30_000) { pool.reconcileEvents(relay.url, Filter(authors = listOf(bob.publicKey)), onlyHere) }
            assertTrue(other.need.isEmpty())
            assertEquals(onlyHere.map { it.id.toHex() }.sorted(), other.have.map { it.toHex() })
        } finally {
            pool.close()
            relay.stop()
        }
    }

    @Test
    fun `a relay without NIP-77 gives SyncUnsupportedException within the deadline`() = runBlocking<Unit> {
        val relay = TestRelays.Process("python", TestRelays.freePort(), dir)
        relay.start()
        val pool = RelayPool()
        try {
            val alice = sc.generateIdentity()
            val e = alice.sign(1, System.currentTimeMillis() / 1000, emptyList(), "hello")
            assertEquals(PublishOutcome.ACCEPTED, withTimeout(20_000) { pool.publish(e, listOf(relay.url)) }.single().outcome)
            val start = System.nanoTime()
            val x = assertThrows<SyncUnsupportedException> {
                runBlocking {
                    withTimeout(20_000) {
                        pool.reconcile(relay.url, Filter(kinds = listOf(1)), emptyList(), SyncOptions(answerTimeout = 2.seconds))
                    }
                }
            }
            val ms = (System.nanoTime() - start) / 1_000_000
            assertTrue(ms < 8_000, "unsupported after $ms ms")
            assertEquals(SoftchatException.SC_ERR_UNSUPPORTED, x.status)
            assertEquals("SC_ERR_UNSUPPORTED", x.statusName)
            assertEquals(relay.url, x.relay)
            // catchUp fails the same way
            assertThrows<SyncUnsupportedException> {
                runBlocking { pool.catchUp(relay.url, Filter(kinds = listOf(1)), emptyList(), SyncOptions(answerTimeout = 1.seconds)).toList() }
            }
        } finally {
            pool.close()
            relay.stop()
        }
    }

    /** A relay that answers NEG-OPEN with [reply] (given the subscription id). */
    private fun scripted(reply: (String) -> String): HostileRelay = HostileRelay { msg, send ->
        val m = Regex("^\\[\"NEG-OPEN\",\"([^\"]+)\"").find(msg)
        if (m != null) send(reply(m.groupValues[1]))
    }

    private fun failure(reply: (String) -> String): SoftchatException {
        scripted(reply).use { relay ->
            RelayPool().use { pool ->
                return assertThrows {
                    runBlocking {
                        withTimeout(20_000) {
                            pool.reconcile(relay.url, Filter(kinds = listOf(1)), emptyList(), SyncOptions(answerTimeout = 5.seconds))
                        }
                    }
                }
            }
        }
    }

    @Test
    fun `a hostile NEG-MSG gives a typed error`() {
        assertEquals("SC_ERR_RELAY_MESSAGE", failure { id -> "[\"NEG-MSG\",\"$id\",\"zz\"]" }.statusName, "not hex")
        assertEquals("SC_ERR_RELAY_MESSAGE", failure { id -> "[\"NEG-MSG\",\"$id\",\"6\"]" }.statusName, "odd hex")
        assertEquals("SC_ERR_RELAY_MESSAGE", failure { id -> "[\"NEG-MSG\",\"$id\",\"61AB\"]" }.statusName, "uppercase hex")
        assertEquals("SC_ERR_SUBSCRIPTION", failure { _ -> "[\"NEG-MSG\",\"someone-else\",\"61\"]" }.statusName, "another sub id")
        assertEquals("SC_ERR_NEGENTROPY", failure { id -> "[\"NEG-MSG\",\"$id\",\"610102\"]" }.statusName, "a malformed payload")
        assertEquals("SC_ERR_NEG_VERSION", failure { id -> "[\"NEG-MSG\",\"$id\",\"62\"]" }.statusName, "another version")
        assertEquals("SC_ERR_JSON", failure { _ -> "[\"NEG-MSG\"," }.statusName, "cut JSON")
    }

    @Test
    fun `NEG-ERR and a NOTICE about Negentropy are typed outcomes`() {
        val refused = failure { id -> "[\"NEG-ERR\",\"$id\",\"blocked: too many records\"]" }
        assertTrue(refused is SyncRefusedException, refused.toString())
        refused as SyncRefusedException
        assertEquals("blocked", refused.prefix)
        assertEquals("blocked: too many records", refused.text)
        assertEquals("SC_ERR_NEGENTROPY", refused.statusName)

        val closed = failure { id -> "[\"NEG-ERR\",\"$id\",\"closed: shutting down\"]" } as SyncRefusedException
        assertEquals("closed", closed.prefix)

        val notice = failure { _ -> "[\"NOTICE\",\"ERROR: unknown message type NEG-OPEN\"]" }
        assertTrue(notice is SyncUnsupportedException, notice.toString())

        // an unrelated NOTICE is no answer: the deadline decides
        val start = System.nanoTime()
        val silent = scripted { _ -> "[\"NOTICE\",\"welcome\"]" }.use { relay ->
            RelayPool().use { pool ->
                assertThrows<SyncUnsupportedException> {
                    runBlocking { pool.reconcile(relay.url, Filter(kinds = listOf(1)), emptyList(), SyncOptions(answerTimeout = 1.seconds)) }
                }
            }
        }
        assertTrue((System.nanoTime() - start) / 1_000_000 in 900..6_000)
        assertTrue(silent.reason.startsWith("no answer to NEG-OPEN"), silent.reason)
    }

    /** A relay that requires AUTH for NEG-OPEN: a challenge and NEG-ERR "auth-required:" until
     *  an AUTH for its challenge came (answered OK [accept]), then an empty reconciliation. */
    private fun authRelay(accept: Boolean, auths: MutableList<NostrEvent>) = HostileRelay { msg, send ->
        val open = Regex("^\\[\"NEG-OPEN\",\"([^\"]+)\"").find(msg)
        if (open != null) {
            val id = open.groupValues[1]
            if (auths.isEmpty()) {
                send("[\"AUTH\",\"chal-1\"]")
                send("[\"NEG-ERR\",\"$id\",\"auth-required: sign in first\"]")
            } else {
                send("[\"NEG-MSG\",\"$id\",\"61\"]") // no ranges: nothing differs
            }
        } else if (msg.startsWith("[\"AUTH\",")) {
            val ev = sc.parseEvent(msg.substring(8, msg.length - 1)) // verified
            auths.add(ev)
            val ok = accept && ev.kind == 22242 && listOf("challenge", "chal-1") in ev.tags
            send("[\"OK\",\"${ev.id}\",$ok,\"${if (ok) "" else "restricted: not you"}\"]")
        }
    }

    @Test
    fun `an auth-required NEG-ERR is answered with AUTH and the reconciliation opened again`() = runBlocking<Unit> {
        val alice = sc.generateIdentity()
        val auths = java.util.Collections.synchronizedList(ArrayList<NostrEvent>())
        authRelay(true, auths).use { relay ->
            RelayPool().use { pool ->
                pool.authenticateAs(alice)
                val r = withTimeout(20_000) { pool.reconcile(relay.url, Filter(kinds = listOf(1)), emptyList()) }
                assertTrue(r.need.isEmpty() && r.have.isEmpty() && r.rounds == 1, r.toString())
                val auth = auths.single()
                assertEquals(alice.publicKey, auth.pubkey)
                assertTrue(listOf("relay", relay.url) in auth.tags, auth.json)
            }
        }
        // no identity: the NEG-ERR is the answer
        auths.clear()
        authRelay(true, auths).use { relay ->
            RelayPool().use { pool ->
                val x = assertThrows<SyncRefusedException> { runBlocking { pool.reconcile(relay.url, Filter(kinds = listOf(1)), emptyList()) } }
                assertEquals("auth-required", x.prefix)
                assertTrue(auths.isEmpty())
            }
        }
        // the relay refuses the AUTH: its OK's prefix
        authRelay(false, auths).use { relay ->
            RelayPool().use { pool ->
                pool.authenticateAs(alice)
                val x = assertThrows<SyncRefusedException> { runBlocking { pool.reconcile(relay.url, Filter(kinds = listOf(1)), emptyList()) } }
                assertEquals("restricted", x.prefix)
            }
        }
    }

    @Test
    fun `bad local records are refused before anything is sent`() {
        var seen: String? = null
        HostileRelay { msg, _ -> seen = msg }.use { relay ->
            RelayPool().use { pool ->
                val x = assertThrows<SoftchatException> {
                    runBlocking { pool.reconcile(relay.url, Filter(kinds = listOf(1)), listOf(-1L to EventId.ofHex("00".repeat(32)))) }
                }
                assertEquals("SC_ERR_ARG", x.statusName)
                val y = assertThrows<SoftchatException> {
                    runBlocking { pool.reconcile(relay.url, Filter(kinds = listOf(70000)), emptyList()) }
                }
                assertEquals("SC_ERR_FILTER", y.statusName)
            }
        }
        assertNull(seen)
    }
}
