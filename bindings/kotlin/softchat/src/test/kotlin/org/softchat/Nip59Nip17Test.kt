package org.softchat

import com.google.gson.JsonParser
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Test
import org.softchat.TestData.expectStatus
import org.softchat.TestData.hex
import org.softchat.TestData.invoke

/** NIP-59 and NIP-17: the spec examples, round trips, and tampered wraps. */
class Nip59Nip17Test {
    private val sc = Softchat.default()

    @Test
    fun nip59SpecExample() {
        val d = TestData.json("upstream/nip59.spec-example.json")
        val keys = d.getAsJsonObject("keys")
        val wrap = d.getAsJsonObject("wrap").toString()
        sc.importIdentity(hex(keys("recipient_sec"))).use { me ->
            val u = me.unwrap(wrap)
            val rumor = d.getAsJsonObject("rumor")
            assertEquals(EventId.parse(rumor("id")), u.rumor.id)
            assertEquals(rumor("content"), u.rumor.content)
            assertEquals(PublicKey.parse(keys("author_pub")), u.sender)
            assertEquals(keys("ephemeral_pub"), u.wrapPubkey.toHex())
            assertEquals(d.getAsJsonObject("seal")("id"), u.sealId.toHex())
            assertEquals(1059, u.wrapKind)
            // tampered content: the wrap id no longer matches
            val t = JsonParser.parseString(wrap).asJsonObject
            val c = t("content")
            t.addProperty("content", c.substring(0, 10) + (if (c[10] == 'A') 'B' else 'A') + c.substring(11))
            expectStatus("SC_ERR_WRAP_ID", "tampered wrap content") { me.unwrap(t.toString()) }
            val k = JsonParser.parseString(wrap).asJsonObject
            k.addProperty("kind", 1)
            expectStatus("SC_ERR_WRAP_KIND", "wrong kind") { me.unwrap(k.toString()) }
            expectStatus("SC_ERR_JSON", "not JSON") { me.unwrap("{\"kind\":1059,") }
        }
        sc.importIdentity(hex(keys("author_sec"))).use { other ->
            expectStatus("SC_ERR_WRAP_DECRYPT", "not the recipient") { other.unwrap(wrap) }
        }
    }

    @Test
    fun nip59RoundTrip() {
        sc.generateIdentity().use { alice ->
            sc.generateIdentity().use { bob ->
                val r = alice.rumor(1, 1700000000, listOf(listOf("t", "x")), "secret \uD83D\uDE00")
                val w = alice.giftWrap(r, bob.publicKey, WrapOptions(relay = "wss://relay.example", now = 1700000500))
                val u = bob.unwrap(w)
                assertEquals(r.id, u.rumor.id)
                assertEquals(r.content, u.rumor.content)
                assertEquals(alice.publicKey, u.sender)
                expectStatus("SC_ERR_RUMOR_AUTHOR", "someone else's rumor") { bob.giftWrap(r, alice.publicKey) }
                val eph = alice.giftWrap(r, bob.publicKey, WrapOptions(ephemeral = true))
                assertEquals(21059, bob.unwrap(eph).wrapKind)
            }
        }
    }

    @Test
    fun nip17SpecExample() {
        val d = TestData.json("upstream/nip17.spec-example.json")
        val keys = d.getAsJsonObject("keys")
        for (e in d.getAsJsonArray("wraps")) {
            val o = e.asJsonObject
            val sec = keys(if (o("recipient") == "receiver") "receiver_sec" else "sender_sec")
            sc.importIdentity(hex(sec)).use { me ->
                me.receive(o.getAsJsonObject("wrap").toString()).use { m ->
                    assertEquals("Hola, que tal?", m.content)
                    assertEquals(PublicKey.parse(keys("sender_pub")), m.sender)
                    assertEquals(o.getAsJsonObject("rumor")("id"), m.rumorId.toHex())
                    assertEquals(14, m.kind)
                    assertEquals(listOf(keys("sender_pub"), keys("receiver_pub")), m.room.map { it.toHex() })
                }
            }
        }
    }

    @Test
    fun nip17SendAndReceive() {
        sc.generateIdentity().use { alice ->
            sc.generateIdentity().use { bob ->
                sc.generateIdentity().use { carol ->
                    val wraps = alice.sendMessage(
                        listOf(Receiver(bob.publicKey, "wss://bob"), Receiver(carol.publicKey)),
                        "hi both \u0000 \uD83D\uDE00", 1700000000, subject = "plans",
                    )
                    assertEquals(listOf(bob.publicKey, carol.publicKey, alice.publicKey), wraps.map { it.recipient })
                    for ((w, who) in wraps.zip(listOf(bob, carol, alice))) {
                        who.receive(w.json).use { m ->
                            assertEquals("hi both \u0000 \uD83D\uDE00", m.content)
                            assertEquals("plans", m.subject)
                            assertEquals(alice.publicKey, m.sender)
                            assertEquals(listOf(alice.publicKey, bob.publicKey, carol.publicKey), m.room)
                            val bytes = m.contentBytes()
                            m.close()
                            assertEquals("hi both \u0000 \uD83D\uDE00", String(bytes, Charsets.UTF_8))
                        }
                    }
                    expectStatus("SC_ERR_WRAP_DECRYPT", "bob reads carol's wrap") { bob.receive(wraps[1].json) }
                    expectStatus("SC_ERR_MESSAGE", "no receiver") { alice.sendMessage(emptyList(), "x", 1) }
                    expectStatus("SC_ERR_ARG", "short key") { alice.sendMessage(listOf(Receiver(ByteArray(31))), "x", 1) }
                    // a NIP-59 wrap of a kind 1 rumor is not a NIP-17 message
                    val w = alice.giftWrap(alice.rumor(1, 1, emptyList(), "x"), bob.publicKey)
                    expectStatus("SC_ERR_MESSAGE", "kind 1") { bob.receive(w) }
                }
            }
        }
    }
    @Test
    fun expiredMessagesAreRefused() {
        sc.generateIdentity().use { alice ->
            sc.generateIdentity().use { bob ->
                val opts = WrapOptions(expiration = 2_000_000_000, now = 1_700_000_000, relay = "wss://alice.example")
                val wraps = alice.sendMessage(listOf(Receiver(bob.publicKey)), "gone soon", 1_700_000_000, options = opts)
                for (w in wraps) {
                    val tags = JsonParser.parseString(w.json).asJsonObject.getAsJsonArray("tags").toString()
                    assertEquals(true, tags.contains("[\"expiration\",\"2000000000\"]"), tags)
                }
                // the sender's own copy carries the relay hint of the options
                val own = JsonParser.parseString(wraps[1].json).asJsonObject.getAsJsonArray("tags").toString()
                assertEquals("[[\"p\",\"${alice.publicKeyHex}\",\"wss://alice.example\"],[\"expiration\",\"2000000000\"]]", own)
                bob.receive(wraps[0].json, now = 1_999_999_999).use { assertEquals("gone soon", it.content) }
                bob.receive(wraps[0].json).use { assertEquals("gone soon", it.content) } // the clock: before 2033
                expectStatus("SC_ERR_WRAP_EXPIRED", "at its time") { bob.receive(wraps[0].json, now = 2_000_000_000) }
                expectStatus("SC_ERR_ARG", "a negative time") { bob.receive(wraps[0].json, now = -1) }
                val w = alice.giftWrap(alice.rumor(1, 1, emptyList(), "x"), bob.publicKey, opts)
                assertEquals("x", bob.unwrap(w, now = 1_800_000_000).rumor.content)
                expectStatus("SC_ERR_WRAP_EXPIRED", "unwrap after its time") { bob.unwrap(w, now = 2_100_000_000) }
                // a relay hint over 256 bytes is refused, by either call
                val long = WrapOptions(relay = "wss://" + "r".repeat(251))
                expectStatus("SC_ERR_TOO_LARGE", "a long hint: wrap") {
                    alice.giftWrap(alice.rumor(1, 1, emptyList(), "x"), bob.publicKey, long)
                }
                expectStatus("SC_ERR_TOO_LARGE", "a long hint: send") {
                    alice.sendMessage(listOf(Receiver(bob.publicKey)), "x", 1, options = long)
                }
            }
        }
    }

    @Test
    fun erasedIdentityAndBadLimits() {
        val gone = sc.generateIdentity()
        gone.erase()
        expectStatus("SC_ERR_STATE", "rumor of an erased identity") { gone.rumor(1, 1, emptyList(), "x") }
        expectStatus("SC_ERR_ARG", "a negative limit") { Softchat.Limits(maxNip44Payload = -1) }
        expectStatus("SC_ERR_ARG", "a zero limit") { Softchat.Limits(maxWrapBytes = 0) }
    }
}
