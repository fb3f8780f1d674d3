package org.softchat

import com.google.gson.JsonParser
import org.junit.jupiter.api.Assertions.assertArrayEquals
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertTrue
import org.junit.jupiter.api.Test
import org.softchat.TestData.expectStatus
import org.softchat.TestData.hex
import org.softchat.TestData.invoke

/** BIP-340 (the official CSV) and NIP-01 events (the nostr-tools corpus) through the facade. */
class Bip340AndEventsTest {
    private val sc = Softchat.default()

    @Test
    fun bip340Vectors() {
        var signed = 0
        var verified = 0
        for (line in TestData.lines("upstream/bip340.test-vectors.csv").drop(1)) {
            val f = line.split(',')
            if (f.size < 7) continue
            val (sec, pub, aux, msg, sig) = f.subList(1, 6).map { it.lowercase() }
            if (hex(msg).size != 32) continue // variable-length messages: not an event id
            val expect = f[6] == "TRUE"
            if (sec.isNotEmpty()) {
                sc.importIdentity(hex(sec)).use { id ->
                    assertEquals(pub, id.publicKeyHex, "index ${f[0]}")
                    assertArrayEquals(hex(sig), id.signSchnorr(hex(msg), hex(aux)), "index ${f[0]}")
                }
                signed++
            }
            assertEquals(expect, sc.verifySchnorr(hex(sig), hex(msg), hex(pub)), "index ${f[0]}")
            verified++
        }
        assertTrue(signed >= 4 && verified >= 15, "$signed signed, $verified verified")
    }

    @Test
    fun nostrToolsEvents() {
        val d = TestData.json("nostr-tools.events.json")
        var n = 0
        for (e in d.getAsJsonArray("events")) {
            val o = e.asJsonObject
            val ev = o.getAsJsonObject("event")
            val parsed = sc.parseEvent(o("json"))
            assertEquals(o("id"), parsed.id.toHex(), o("name"))
            assertEquals(o("sig"), parsed.sig)
            assertEquals(ev("content"), parsed.content)
            assertEquals(ev.get("kind").asInt, parsed.kind)
            assertEquals(ev.get("created_at").asLong, parsed.createdAt)
            val tags = ev.getAsJsonArray("tags").map { t -> t.asJsonArray.map { it.asString } }
            assertEquals(tags, parsed.tags)
            // signing the same fields with the same aux gives the same event, byte for byte
            sc.importIdentity(hex(o("sk"))).use { id ->
                val signed = id.signWith(parsed.kind, parsed.createdAt, tags, parsed.content, hex(o("aux")))
                assertEquals(o("json"), signed.json, o("name"))
                assertEquals(o("id"), signed.id.toHex())
            }
            n++
        }
        for (e in d.getAsJsonArray("alternate_encodings")) {
            val o = e.asJsonObject
            for (enc in o.getAsJsonArray("encodings")) {
                assertEquals(o("id"), sc.parseEvent(enc.asJsonObject("json")).id.toHex(), enc.toString())
                n++
            }
        }
        var rejects = 0
        for (e in d.getAsJsonArray("rejects")) {
            val o = e.asJsonObject
            expectStatus(o("expect"), o("name")) { sc.parseEvent(o("json")) }
            rejects++
        }
        assertTrue(n > 10 && rejects > 10, "$n accepted, $rejects rejects")
    }

    @Test
    fun signParseRoundTripWithTags() {
        sc.generateIdentity().use { id ->
            val tags = listOf(listOf("p", "00".repeat(32), "wss://r"), listOf("t", "emoji \uD83D\uDE00"), listOf("x", "nul\u0000byte"))
            val ev = id.sign(1, 1700000000, tags, "hello \u0000 \uD83E\uDD84 \"quoted\"\n")
            val back = sc.parseEvent(ev.json)
            assertEquals(ev.id, back.id)
            assertEquals(tags, back.tags)
            assertEquals(ev.content, back.content)
            assertEquals(id.publicKey, back.pubkey)
            // tampered: content changed (id mismatch), signature changed (invalid)
            val obj = JsonParser.parseString(ev.json).asJsonObject
            obj.addProperty("content", "hello")
            expectStatus("SC_ERR_ID_MISMATCH", "tampered content") { sc.parseEvent(obj.toString()) }
            val obj2 = JsonParser.parseString(ev.json).asJsonObject
            val sig = obj2("sig")
            obj2.addProperty("sig", (if (sig[0] == '0') "1" else "0") + sig.substring(1))
            expectStatus("SC_ERR_INVALID_SIG", "tampered sig") { sc.parseEvent(obj2.toString()) }
            expectStatus("SC_ERR_EVENT_RANGE", "negative kind") { id.sign(-1, 0, emptyList(), "") }
            expectStatus("SC_ERR_EVENT_FIELD", "empty tag") { id.sign(1, 0, listOf(emptyList()), "") }
        }
    }
}
