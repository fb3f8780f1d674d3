package org.softchat

import org.junit.jupiter.api.Assertions.assertArrayEquals
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertNotEquals
import org.junit.jupiter.api.Assertions.assertNull
import org.junit.jupiter.api.Assertions.assertTrue
import org.junit.jupiter.api.Test
import org.softchat.TestData.expectStatus
import java.io.ByteArrayInputStream
import java.io.ByteArrayOutputStream
import java.security.MessageDigest

/** PublicKey and EventId in and out of every call; kind 15 file messages both ways. */
class TypedValuesTest {
    private val sc = Softchat.default()

    @Test
    fun `public keys parse from hex, npub, nprofile and nostr URIs and round-trip`() {
        sc.generateIdentity().use { me ->
            val k = me.publicKey
            assertEquals(me.publicKeyHex, k.toHex())
            assertArrayEquals(me.publicKeyBytes(), k.toBytes())
            assertEquals(k, PublicKey.parse(k.toHex().uppercase()))
            assertEquals(k, PublicKey.parse(k.toNpub()))
            assertEquals(k, PublicKey.parse("nostr:" + k.toNpub()))
            assertEquals(k, PublicKey.parse(Nip19.encodeNprofile(k, listOf("wss://r.example"))))
            assertEquals(k, PublicKey.fromBytes(k.toBytes()))
            assertEquals(k.hashCode(), PublicKey.parse(k.toNpub()).hashCode())
            assertEquals(k.toHex(), k.toString())
            assertEquals(k, (Nip19.decode(k.toNpub()) as Nip19Entity.Npub).publicKey)
            sc.generateIdentity().use { other -> assertNotEquals(k, other.publicKey) }
        }
        expectStatus("SC_ERR_ENCODING", "64 characters, not hex") { PublicKey.parse("g".repeat(64)) }
        expectStatus("SC_ERR_BECH32", "not an entity") { PublicKey.parse("hello") }
        expectStatus("SC_ERR_ARG", "31 bytes") { PublicKey.fromBytes(ByteArray(31)) }
        val id = EventId.fromBytes(ByteArray(32) { it.toByte() })
        expectStatus("SC_ERR_BECH32", "a note is not a key") { PublicKey.parse(id.toNote()) }
        val nsec = Nip19.encodeNsec(ByteArray(32) { 7 })
        expectStatus("SC_ERR_BECH32", "an nsec is not a key") { PublicKey.parse(String(nsec, Charsets.US_ASCII)) }
    }

    @Test
    fun `event ids parse from hex, note, nevent and nostr URIs`() {
        sc.generateIdentity().use { me ->
            val ev = me.sign(1, 1_700_000_000, emptyList(), "hi")
            val id = ev.id
            assertEquals(id, EventId.parse(id.toHex()))
            assertEquals(id, EventId.parse(id.toNote()))
            assertEquals(id, EventId.parse("nostr:" + id.toNote()))
            val nevent = Nip19.encodeNevent(id, listOf("wss://r.example"), ev.pubkey, 1)
            assertEquals(id, EventId.parse(nevent))
            val d = Nip19.decode(nevent) as Nip19Entity.Nevent
            assertEquals(me.publicKey, d.author)
            assertEquals(me.publicKey, ev.pubkey)
            expectStatus("SC_ERR_BECH32", "an npub is not an id") { EventId.parse(me.publicKey.toNpub()) }
            assertTrue(sc.verifySchnorr(TestData.hex(ev.sig), id.toBytes(), me.publicKey))
        }
    }

    @Test
    fun `a reply uses what a message gives, with no conversion`() {
        sc.generateIdentity().use { alice ->
            sc.generateIdentity().use { bob ->
                val first = alice.sendMessage(listOf(Receiver(bob.publicKey)), "hello", 1_700_000_000)
                assertEquals(bob.publicKey, first[0].recipient)
                val got = bob.receive(first[0].json)
                assertEquals(alice.publicKey, got.sender)
                assertEquals(listOf(alice.publicKey, bob.publicKey), got.room)
                val reply = bob.sendMessage(listOf(Receiver(got.sender)), "hi back", 1_700_000_001, replyTo = got.rumorId)
                alice.receive(reply.first { it.recipient == alice.publicKey }.json).use { back ->
                    assertEquals(bob.publicKey, back.sender)
                    assertTrue(back.tags.any { it.size >= 2 && it[0] == "e" && it[1] == got.rumorId.toHex() }, back.tags.toString())
                    assertEquals("hi back", back.content)
                    assertNull(back.file())
                }
                // NIP-44 and a held conversation by PublicKey; the byte forms agree
                val p = alice.nip44Encrypt(bob.publicKey, "x")
                assertEquals("x", bob.nip44Decrypt(alice.publicKey, p))
                assertEquals("x", bob.nip44Decrypt(alice.publicKeyBytes(), p))
                bob.conversation(alice.publicKey).use { assertEquals("x", it.decrypt(p)) }
                val w = alice.giftWrap(alice.rumor(1, 1, emptyList(), "r"), bob.publicKey)
                assertEquals(alice.publicKey, bob.unwrap(w).sender)
            }
        }
    }

    @Test
    fun `a kind 15 file message goes out and comes back with every parameter`() {
        val plain = ByteArray(100_000) { (it * 7).toByte() }
        val blob = ByteArrayOutputStream()
        val enc = Attachments.encrypt(ByteArrayInputStream(plain), blob)
        val file = FileMessage.of(enc, "https://files.example/blob", "image/png", dim = "640x480",
            fallbacks = listOf("https://mirror.example/blob"))
        enc.erase()
        sc.generateIdentity().use { alice ->
            sc.generateIdentity().use { bob ->
                val wraps = alice.sendFile(listOf(Receiver(bob.publicKey)), file, 1_700_000_000, subject = "pics")
                file.close()
                assertEquals(2, wraps.size)
                bob.receive(wraps[0].json).use { m ->
                    assertEquals(15, m.kind)
                    assertEquals("https://files.example/blob", m.content)
                    assertEquals("pics", m.subject)
                    m.file()!!.use { f ->
                        assertEquals("https://files.example/blob", f.url)
                        assertEquals("image/png", f.fileType)
                        assertEquals("640x480", f.dim)
                        assertEquals(listOf("https://mirror.example/blob"), f.fallbacks)
                        assertEquals(blob.size().toLong(), f.size)
                        assertArrayEquals(MessageDigest.getInstance("SHA-256").digest(blob.toByteArray()), f.sha256)
                        assertArrayEquals(MessageDigest.getInstance("SHA-256").digest(plain), f.plaintextSha256)
                        assertEquals(16, f.nonce.size)
                        val out = ByteArrayOutputStream()
                        val d = f.decrypt(ByteArrayInputStream(blob.toByteArray()), out)
                        assertArrayEquals(plain, out.toByteArray())
                        assertArrayEquals(f.sha256, d.sha256)
                    }
                }
                // a kind 15 rumor without its file tags is received, and file() says what is wrong
                val bare = alice.giftWrap(alice.rumor(15, 1, listOf(listOf("p", bob.publicKeyHex)), "https://x.example"), bob.publicKey)
                bob.receive(bare).use { m -> expectStatus("SC_ERR_MESSAGE", "no file tags") { m.file() } }
                val noUrl = FileMessage("", "image/png", ByteArray(32), ByteArray(16), ByteArray(32))
                expectStatus("SC_ERR_MESSAGE", "empty url") { alice.sendFile(listOf(Receiver(bob.publicKey)), noUrl, 1) }
                val badKey = FileMessage("https://x", "image/png", ByteArray(31), ByteArray(16), ByteArray(32))
                expectStatus("SC_ERR_ARG", "short key") { alice.sendFile(listOf(Receiver(bob.publicKey)), badKey, 1) }
            }
        }
    }
}
