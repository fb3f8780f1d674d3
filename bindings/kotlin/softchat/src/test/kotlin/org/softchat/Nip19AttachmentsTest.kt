package org.softchat

import org.junit.jupiter.api.Assertions.assertArrayEquals
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertTrue
import org.junit.jupiter.api.Test
import org.softchat.TestData.expectStatus
import org.softchat.TestData.hex
import org.softchat.TestData.invoke
import org.softchat.TestData.sha256
import java.io.ByteArrayInputStream
import java.io.ByteArrayOutputStream

/** NIP-19 (the upstream vectors) and streamed attachments. */
class Nip19AttachmentsTest {
    @Test
    fun nip19Vectors() {
        var ok = 0
        var bad = 0
        for (e in TestData.json("upstream/nip19.vectors.json").getAsJsonArray("cases")) {
            val o = e.asJsonObject
            val text = o("bech32")
            val valid = !o.has("valid") || o.get("valid").asBoolean
            if (!valid) {
                val st = TestData.statusOf(text) { Nip19.decode(text) }
                assertTrue(st == "SC_ERR_BECH32" || st == "SC_ERR_TLV" || st == "SC_ERR_UTF8", "$text: $st")
                bad++
                continue
            }
            val d = Nip19.decode(text)
            when (d) {
                is Nip19Entity.Npub -> assertEquals(text.lowercase(), Nip19.encodeNpub(d.publicKey)).also { assertEquals(o("hex"), d.publicKey.toHex()) }
                is Nip19Entity.Nsec -> assertEquals(text.lowercase(), String(Nip19.encodeNsec(d.secretKey), Charsets.US_ASCII)).also { assertEquals(o("hex"), hex(d.secretKey)) }
                is Nip19Entity.Note -> assertEquals(text.lowercase(), Nip19.encodeNote(d.id))
                is Nip19Entity.Nprofile -> assertTrue(d.relays.all { it.startsWith("ws") })
                is Nip19Entity.Nevent -> assertEquals(32, d.id.toBytes().size)
                is Nip19Entity.Naddr -> assertEquals(32, d.author.toBytes().size)
            }
            ok++
        }
        assertTrue(ok >= 8 && bad >= 1, "$ok valid, $bad invalid")
        val key = ByteArray(32) { it.toByte() }
        val p = Nip19.decode(Nip19.encodeNprofile(key, listOf("wss://a", "wss://b"))) as Nip19Entity.Nprofile
        assertArrayEquals(key, p.publicKey.toBytes())
        assertEquals(listOf("wss://a", "wss://b"), p.relays)
        val a = Nip19.decode(Nip19.encodeNaddr("d-tag é", key, 30023, listOf("wss://c"))) as Nip19Entity.Naddr
        assertEquals("d-tag é", a.identifier)
        assertEquals(30023, a.kind)
        val ev = Nip19.decode(Nip19.encodeNevent(key, author = key, kind = 1)) as Nip19Entity.Nevent
        assertEquals(1, ev.kind)
        val npub = Nip19.encodeNpub(key)
        expectStatus("SC_ERR_BECH32", "checksum") { Nip19.decode(npub.dropLast(1) + (if (npub.last() == 'q') "p" else "q")) }
        expectStatus("SC_ERR_ARG", "short key") { Nip19.encodeNpub(ByteArray(31)) }
    }

    @Test
    fun attachmentRoundTripAndTamper() {
        val plain = ByteArray(200_000) { (it * 31).toByte() }
        val blob = ByteArrayOutputStream()
        val a = Attachments.encrypt(ByteArrayInputStream(plain), blob)
        val b = blob.toByteArray()
        assertEquals(plain.size + 16L, a.size)
        assertEquals(b.size.toLong(), a.size)
        assertEquals(sha256(b), hex(a.sha256))
        assertEquals(sha256(plain), hex(a.plaintextSha256))
        val out = ByteArrayOutputStream()
        val d = Attachments.decrypt(ByteArrayInputStream(b), out, a.key, a.iv)
        assertArrayEquals(plain, out.toByteArray())
        assertArrayEquals(a.sha256, d.sha256)
        // one flipped bit anywhere: nothing is written
        for (pos in listOf(0, 100_000, b.size - 1)) {
            val t = b.copyOf()
            t[pos] = (t[pos].toInt() xor 1).toByte()
            val o = ByteArrayOutputStream()
            expectStatus("SC_ERR_AUTH", "flipped at $pos") { Attachments.decrypt(ByteArrayInputStream(t), o, a.key, a.iv) }
            assertEquals(0, o.size(), "nothing written before the tag verified")
        }
        expectStatus("SC_ERR_AUTH", "truncated") { Attachments.decrypt(ByteArrayInputStream(b, 0, 10), ByteArrayOutputStream(), a.key, a.iv) }
        expectStatus("SC_ERR_TOO_LARGE", "over the cap") {
            Attachments.decrypt(ByteArrayInputStream(b), ByteArrayOutputStream(), a.key, a.iv, maxBytes = 1000)
        }
        expectStatus("SC_ERR_ARG", "bad IV length") { Attachments.decrypt(ByteArrayInputStream(b), ByteArrayOutputStream(), a.key, ByteArray(5)) }
        val failing = object : java.io.OutputStream() {
            override fun write(b: Int) = throw java.io.IOException("disk full")
        }
        expectStatus("SC_ERR_IO", "sink fails") { Attachments.encrypt(ByteArrayInputStream(plain), failing) }
        a.erase()
        assertTrue(a.key.all { it.toInt() == 0 })
    }
}
