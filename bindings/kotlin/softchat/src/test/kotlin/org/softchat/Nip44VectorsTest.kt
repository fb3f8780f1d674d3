package org.softchat

import com.google.gson.JsonObject
import org.junit.jupiter.api.Assertions.assertArrayEquals
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertTrue
import org.junit.jupiter.api.Test
import org.softchat.TestData.expectStatus
import org.softchat.TestData.hex
import org.softchat.TestData.invoke
import org.softchat.TestData.sha256
import org.softchat.TestData.statusOf
import org.softchat.internal.NativeBridge

/** NIP-44 v2 through the facade: the official vectors and the repo's nostr-tools corpus. */
class Nip44VectorsTest {
    private val sc = Softchat.default()
    private val v2 = TestData.json("upstream/nip44.vectors.json").getAsJsonObject("v2")

    private fun ck(sec: String, pub: String): String =
        hex(sc.withSlot { NativeBridge.conversationKey(it, hex(sec), hex(pub)) })

    /** The spec's encrypt (explicit nonce) and decrypt under a conversation key. */
    private fun encrypt(key: String, nonce: String, pt: ByteArray, flags: Int = 0): String =
        sc.withSlot { NativeBridge.keyEncrypt(it, hex(key), hex(nonce), pt, flags) }

    private fun decrypt(key: String, payload: String): ByteArray =
        Nip44Conversation.fromKey(hex(key)).use { it.decryptBytes(payload) }

    @Test
    fun conversationKeys() {
        var n = 0
        for (e in v2.getAsJsonObject("valid").getAsJsonArray("get_conversation_key")) {
            val o = e.asJsonObject
            assertEquals(o("conversation_key"), ck(o("sec1"), o("pub2")), o.toString())
            n++
        }
        for (e in v2.getAsJsonObject("invalid").getAsJsonArray("get_conversation_key")) {
            val o = e.asJsonObject
            expectStatus("SC_ERR_INVALID_KEY", o.toString()) { ck(o("sec1"), o("pub2")) }
            n++
        }
        assertTrue(n > 40, "cases: $n")
    }

    @Test
    fun encryptDecrypt() {
        val cases = v2.getAsJsonObject("valid").getAsJsonArray("encrypt_decrypt")
        for (e in cases) {
            val o = e.asJsonObject
            val pt = o("plaintext")
            assertEquals(o("conversation_key"), ck(o("sec1"), hex(pubOf(o("sec2")))))
            assertEquals(o("payload"), encrypt(o("conversation_key"), o("nonce"), pt.toByteArray()))
            assertEquals(pt, String(decrypt(o("conversation_key"), o("payload")), Charsets.UTF_8))
            // the same payload through identities: sec2 reads what sec1 sent, and vice versa
            sc.importIdentity(hex(o("sec2"))).use { id2 ->
                sc.importIdentity(hex(o("sec1"))).use { id1 ->
                    assertEquals(pt, id2.nip44Decrypt(id1.publicKey, o("payload")))
                    assertEquals(pt, id1.nip44Decrypt(id2.publicKey, id2.nip44Encrypt(id1.publicKey, pt)))
                }
            }
        }
        assertTrue(cases.size() >= 10)
    }

    @Test
    fun longMessages() {
        for (e in v2.getAsJsonObject("valid").getAsJsonArray("encrypt_decrypt_long_msg")) {
            val o = e.asJsonObject
            val pt = o("pattern").repeat(o.get("repeat").asInt).toByteArray()
            assertEquals(o("plaintext_sha256"), sha256(pt))
            val payload = encrypt(o("conversation_key"), o("nonce"), pt, if (pt.size >= 65536) 1 else 0)
            assertEquals(o("payload_sha256"), sha256(payload.toByteArray()))
            assertArrayEquals(pt, decrypt(o("conversation_key"), payload))
        }
    }

    @Test
    fun invalidMessageLengths() {
        sc.importIdentity(hex("0000000000000000000000000000000000000000000000000000000000000001")).use { id ->
            for (e in v2.getAsJsonObject("invalid").getAsJsonArray("encrypt_msg_lengths")) {
                val n = e.asInt
                if (n > 1 shl 24) continue // 10 MB: a Java array of that size proves nothing more
                val st = statusOf("length $n") { id.nip44Encrypt(id.publicKey, ByteArray(n)) }
                assertEquals(if (n == 0) "SC_ERR_EMPTY" else "SC_ERR_POLICY", st, "length $n")
            }
        }
    }

    @Test
    fun invalidDecrypt() {
        val cases = v2.getAsJsonObject("invalid").getAsJsonArray("decrypt")
        for (e in cases) {
            val o = e.asJsonObject
            val st = statusOf(o.toString()) { decrypt(o("conversation_key"), o("payload")) }
            assertTrue(st.startsWith("SC_ERR_"), st)
        }
        assertTrue(cases.size() >= 10)
    }

    @Test
    fun nostrToolsCorpus() {
        val nt = TestData.json("nostr-tools.nip44.json")
        for (e in nt.getAsJsonArray("conversation_keys")) {
            val o = e.asJsonObject
            assertEquals(o("conversation_key"), ck(o("sec1"), o("pub2")))
            assertEquals(o("conversation_key"), ck(o("sec2"), o("pub1")))
        }
        val pattern = nt.getAsJsonObject("pattern")
        var encrypted = 0
        for (e in nt.getAsJsonArray("encrypt")) {
            val o = e.asJsonObject
            val len = o.get("len").asInt
            val pt = if (o.has("plaintext")) hex(o("plaintext")) else patterned(pattern, len)
            if (o.has("plaintext_sha256")) assertEquals(o("plaintext_sha256"), sha256(pt))
            val payload = encrypt(o("conversation_key"), o("nonce"), pt, if (len >= 65536) 1 else 0)
            if (o.has("payload")) assertEquals(o("payload"), payload) else assertEquals(o("payload_sha256"), sha256(payload.toByteArray()))
            assertArrayEquals(pt, decrypt(o("conversation_key"), payload))
            encrypted++
        }
        var rejects = 0
        for (e in nt.getAsJsonArray("rejects")) {
            val o = e.asJsonObject
            if (o("expect") == "SC_OK") {
                assertArrayEquals(hex(o("plaintext")), decrypt(o("conversation_key"), o("payload")), o("name"))
            } else {
                expectStatus(o("expect"), o("name")) { decrypt(o("conversation_key"), o("payload")) }
            }
            rejects++
        }
        assertTrue(encrypted > 10 && rejects > 10, "$encrypted encrypt, $rejects rejects")
    }

    private fun patterned(p: JsonObject, len: Int): ByteArray {
        val unit = hex(p("pattern_hex"))
        val filler = p("filler").toByteArray()
        val out = java.io.ByteArrayOutputStream(len)
        repeat(len / unit.size) { out.write(unit) }
        out.write(filler, 0, len % unit.size)
        return out.toByteArray()
    }

    private fun pubOf(sec: String): ByteArray = sc.importIdentity(hex(sec)).use { it.publicKeyBytes() }
}
