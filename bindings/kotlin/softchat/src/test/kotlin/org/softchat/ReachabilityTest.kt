package org.softchat

import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertNull
import org.junit.jupiter.api.Assertions.assertTrue
import org.junit.jupiter.api.Test
import org.softchat.internal.NativeCleaner
import org.softchat.internal.Reachability
import java.util.concurrent.atomic.AtomicBoolean
import java.util.concurrent.atomic.AtomicInteger

/**
 * Owners stay reachable while their own calls run: a temporary identity, conversation or
 * Softchat instance, never closed, is used while another thread keeps collecting, and every
 * call must complete with the right result (the cleaner closing a handle mid-call would be
 * SC_ERR_STATE). A stress test: it passes with the fences, but the JIT need not drop `this`
 * early in any given run, so without them it may pass too.
 */
class ReachabilityTest {
    @Test
    fun theFenceIsChosenOnceAndTheFallbackHoldsNothing() {
        // JVM 9+ has Reference.reachabilityFence (the test JVM is at least 11)
        assertTrue(Reachability.usesReferenceFence)
        val threads = List(4) { t ->
            Thread {
                repeat(10_000) { Reachability.volatileFence(ByteArray(1 + t)) }
            }
        }
        threads.forEach { it.start() }
        threads.forEach { it.join() }
        Reachability.volatileFence(Any())
        assertNull(Reachability.held(), "the fallback keeps no owner alive after its fence")
    }

    @Test
    fun temporariesStayReachableThroughTheirCalls() {
        val sc = Softchat.default()
        val peer = sc.generateIdentity()
        val me = sc.generateIdentity()
        val secret = me.exportSecret()
        val ev = me.sign(1, 1, emptyList(), "temporary instances")
        val stop = AtomicBoolean(false)
        val collections = AtomicInteger()
        val collector = Thread {
            while (!stop.get()) {
                System.gc()
                collections.incrementAndGet()
                Thread.sleep(2)
            }
        }
        val before = NativeCleaner.liveCount()
        var temporaries = 0
        collector.start()
        try {
            for (i in 0 until 1500) {
                val text = "m$i"
                // an identity used only for its one call: `this` is dead after the call starts
                val p = sc.importIdentity(secret).nip44Encrypt(peer.publicKey, text)
                assertEquals(text, peer.nip44Decrypt(me.publicKey, p), "identity temporary $i")
                // a conversation likewise, both ways
                val q = me.conversation(peer.publicKey).encrypt(text)
                assertEquals(text, peer.conversation(me.publicKey).decrypt(q), "conversation temporary $i")
                temporaries += 3
                if (i % 50 == 0) { // a Softchat instance (its own pool of contexts)
                    assertEquals(ev.id, Softchat.open(maxIdle = 1).parseEvent(ev.json).id, "instance temporary $i")
                    temporaries++
                }
            }
        } finally {
            stop.set(true)
            collector.join()
            secret.fill(0)
            me.close()
            peer.close()
        }
        // not asserted (collection is up to the JVM), but shown when the test runs
        println("ReachabilityTest: $temporaries temporaries, ${collections.get()} collections, " +
            "${maxOf(0, before + temporaries - NativeCleaner.liveCount())} cleaned during the run")
    }
}
