package org.softchat

import kotlinx.coroutines.Dispatchers
import kotlinx.coroutines.async
import kotlinx.coroutines.awaitAll
import kotlinx.coroutines.runBlocking
import kotlinx.coroutines.withContext
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertTrue
import org.junit.jupiter.api.Test
import java.util.concurrent.CountDownLatch
import java.util.concurrent.Executors
import java.util.concurrent.TimeUnit
import java.util.concurrent.atomic.AtomicInteger

/**
 * Concurrent callers: shared identities and conversations used from many threads and
 * coroutines at once, through a pool smaller than the number of callers; an erase racing
 * with calls in flight; a long call that does not block the others.
 */
class ConcurrencyTest {
    @Test
    fun threadsShareIdentitiesThroughASmallPool() {
        Softchat.open(maxIdle = 2).use { sc ->
            val alice = sc.generateIdentity()
            val bob = sc.generateIdentity()
            val conv = alice.conversation(bob.publicKey)
            val pool = Executors.newFixedThreadPool(8)
            val failures = AtomicInteger()
            val done = AtomicInteger()
            val start = CountDownLatch(1)
            repeat(8) { t ->
                pool.execute {
                    start.await()
                    try {
                        repeat(150) { i ->
                            val text = "t$t m$i \uD83D\uDE00"
                            when (i % 5) {
                                0 -> check(bob.nip44Decrypt(alice.publicKey, alice.nip44Encrypt(bob.publicKey, text)) == text)
                                1 -> check(bob.nip44Decrypt(alice.publicKey, conv.encrypt(text)) == text)
                                2 -> check(sc.parseEvent(alice.sign(1, i.toLong(), listOf(listOf("t", "$t")), text).json).content == text)
                                3 -> bob.receive(alice.sendMessage(listOf(Receiver(bob.publicKey)), text, 1)[0].json).use { check(it.content == text) }
                                else -> check(bob.unwrap(alice.giftWrap(alice.rumor(1, 1, emptyList(), text), bob.publicKey)).rumor.content == text)
                            }
                            done.incrementAndGet()
                        }
                    } catch (e: Throwable) {
                        failures.incrementAndGet()
                        e.printStackTrace()
                    }
                }
            }
            start.countDown()
            pool.shutdown()
            assertTrue(pool.awaitTermination(120, TimeUnit.SECONDS))
            assertEquals(0, failures.get())
            assertEquals(8 * 150, done.get())
            conv.close()
            alice.close()
            bob.close()
        }
    }

    @Test
    fun coroutinesOnAnyDispatcher() = runBlocking {
        val sc = Softchat.default()
        val alice = sc.generateIdentity()
        val bob = sc.generateIdentity()
        val results = (0 until 400).map { i ->
            async(if (i % 2 == 0) Dispatchers.Default else Dispatchers.IO) {
                val p = alice.nip44Encrypt(bob.publicKey, "m$i")
                // resume on another dispatcher between the two halves of the exchange
                withContext(if (i % 2 == 0) Dispatchers.IO else Dispatchers.Default) { bob.nip44Decrypt(alice.publicKey, p) }
            }
        }.awaitAll()
        assertEquals((0 until 400).map { "m$it" }, results)
        alice.close()
        bob.close()
    }

    @Test
    fun eraseRacesWithCallsInFlight() {
        val sc = Softchat.default()
        repeat(20) {
            val alice = sc.generateIdentity()
            val bob = sc.generateIdentity()
            val pool = Executors.newFixedThreadPool(4)
            val unexpected = AtomicInteger()
            repeat(4) {
                pool.execute {
                    repeat(200) {
                        try {
                            alice.nip44Encrypt(bob.publicKey, "x")
                        } catch (e: SoftchatException) {
                            if (e.statusName != "SC_ERR_STATE") unexpected.incrementAndGet()
                        } catch (e: Throwable) {
                            unexpected.incrementAndGet()
                        }
                    }
                }
            }
            Thread.sleep(1)
            alice.erase() // in-flight calls finish; later ones see SC_ERR_STATE
            pool.shutdown()
            assertTrue(pool.awaitTermination(60, TimeUnit.SECONDS))
            assertEquals(0, unexpected.get())
            bob.close()
        }
    }

    @Test
    fun aLongCallDoesNotBlockOthers() {
        val sc = Softchat.default()
        sc.generateIdentity().use { alice ->
            sc.generateIdentity().use { bob ->
                val receivers = List(500) { sc.generateIdentity().use { id -> Receiver(id.publicKey) } }
                val longDone = CountDownLatch(1)
                var wraps = 0
                val t = Thread {
                    wraps = alice.sendMessage(receivers, "to five hundred", 1).size
                    longDone.countDown()
                }
                t.start()
                // while the 500-receiver send runs, short calls on the same identity go through
                var short = 0
                while (longDone.count > 0 && short < 10_000) {
                    check(bob.nip44Decrypt(alice.publicKey, alice.nip44Encrypt(bob.publicKey, "ping")) == "ping")
                    short++
                }
                t.join()
                assertEquals(501, wraps)
                assertTrue(short > 0, "short calls completed during the long one: $short")
            }
        }
    }
}
