package org.softchat

import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertFalse
import org.junit.jupiter.api.Assertions.assertTrue
import org.junit.jupiter.api.Assertions.fail
import org.junit.jupiter.api.Test
import org.softchat.TestData.expectStatus
import org.softchat.internal.NativeCleaner
import java.io.File
import java.util.concurrent.TimeUnit

/** Hostile and wrong inputs give the SDK's exception with their status, before any big
 *  allocation; lifetimes (erase, close, the cleaner); every compiled backend. */
class RobustnessTest {
    private val sc = Softchat.default()

    @Test
    fun hostileInputIsCappedFirst() {
        sc.generateIdentity().use { me ->
            val junk = "x".repeat(64 shl 20) // a 64 MiB junk "wrap" from a relay
            expectStatus("SC_ERR_TOO_LARGE", "64 MiB wrap") { me.receive(junk) }
            expectStatus("SC_ERR_TOO_LARGE", "64 MiB wrap, unwrap") { me.unwrap(junk) }
            expectStatus("SC_ERR_TOO_LARGE", "64 MiB event") { sc.parseEvent(junk) }
            expectStatus("SC_ERR_TOO_LARGE", "64 MiB payload") { me.nip44Decrypt(me.publicKey, junk) }
            // just under the caps: junk is parsed and refused, nothing reserved beyond the need
            val big = "[" + " ".repeat((1 shl 20) - 2) + "]"
            expectStatus("SC_ERR_EVENT_FIELD", "1 MiB junk wrap") { me.receive(big) }
            expectStatus("SC_ERR_EVENT_FIELD", "1 MiB array event") { sc.parseEvent(big) }
        }
    }

    @Test
    fun tamperedAndWrongInputs() {
        sc.generateIdentity().use { a ->
            sc.generateIdentity().use { b ->
                val p = a.nip44Encrypt(b.publicKey, "hello")
                assertEquals("hello", b.nip44Decrypt(a.publicKey, p))
                val mac = p.substring(0, p.length - 5) + (if (p[p.length - 5] == 'A') 'B' else 'A') + p.substring(p.length - 4)
                expectStatus("SC_ERR_MAC", "tampered MAC") { b.nip44Decrypt(a.publicKey, mac) }
                expectStatus("SC_ERR_VERSION", "version #") { b.nip44Decrypt(a.publicKey, "#" + p.substring(1)) }
                expectStatus("SC_ERR_VERSION", "empty payload") { b.nip44Decrypt(a.publicKey, "") }
                expectStatus("SC_ERR_PAYLOAD_SIZE", "short payload") { b.nip44Decrypt(a.publicKey, "AAAA") }
                expectStatus("SC_ERR_BASE64", "non-Latin-1 in the payload") { b.nip44Decrypt(a.publicKey, p.substring(0, 40) + "\u20ac" + p.substring(41)) }
                expectStatus("SC_ERR_MAC", "wrong peer") { b.nip44Decrypt(b.publicKey, p) }
                expectStatus("SC_ERR_ARG", "31-byte peer") { a.nip44Encrypt(ByteArray(31), "x") }
                expectStatus("SC_ERR_INVALID_KEY", "peer off the curve") { a.nip44Encrypt(ByteArray(32) { 0xff.toByte() }, "x") }
                expectStatus("SC_ERR_EMPTY", "empty plaintext") { a.nip44Encrypt(b.publicKey, "") }
                expectStatus("SC_ERR_POLICY", "65536 bytes without the extension") { a.nip44Encrypt(b.publicKey, ByteArray(65536)) }
                val ext = a.nip44Encrypt(b.publicKey, ByteArray(65536), extended = true)
                assertEquals(65536, b.nip44DecryptBytes(a.publicKey, ext).size)
                a.conversation(b.publicKey).use { ca ->
                    b.conversation(a.publicKey).use { cb ->
                        assertEquals("held", cb.decrypt(ca.encrypt("held")))
                        assertEquals("cross", b.nip44Decrypt(a.publicKey, ca.encrypt("cross")))
                    }
                }
            }
        }
        expectStatus("SC_ERR_INVALID_KEY", "zero secret") { sc.importIdentity(ByteArray(32)) }
        expectStatus("SC_ERR_ARG", "33-byte secret") { sc.importIdentity(ByteArray(33)) }
        expectStatus("SC_ERR_NOT_FOUND", "unknown backend") { Softchat.open("no-such-backend") }
    }

    @Test
    fun lifetimes() {
        val id = sc.generateIdentity()
        val peer = sc.generateIdentity()
        val conv = id.conversation(peer.publicKey)
        id.erase()
        id.erase() // twice is fine
        assertTrue(id.isErased)
        expectStatus("SC_ERR_STATE", "erased identity") { id.nip44Encrypt(peer.publicKey, "x") }
        expectStatus("SC_ERR_STATE", "erased identity, sign") { id.sign(1, 0, emptyList(), "") }
        assertEquals("still", conv.decrypt(conv.encrypt("still"))) // the conversation holds its own key
        conv.close()
        expectStatus("SC_ERR_STATE", "closed conversation") { conv.encrypt("x") }
        val own = Softchat.open("openssl".takeIf { it in Softchat.backends() })
        val other = own.generateIdentity()
        own.close()
        expectStatus("SC_ERR_STATE", "closed instance") { own.generateIdentity() }
        expectStatus("SC_ERR_STATE", "identity of a closed instance") { other.nip44Encrypt(peer.publicKey, "x") }
        other.close()
        peer.close()
        sc.close() // the default instance is never closed
        sc.generateIdentity().close()
    }

    @Test
    fun unclosedObjectsAreWipedByTheCleaner() {
        val before = NativeCleaner.liveCount()
        repeat(200) { sc.generateIdentity() } // never closed
        var live = NativeCleaner.liveCount()
        assertTrue(live >= before + 200, "registered: $live")
        val deadline = System.nanoTime() + 10_000_000_000
        while (NativeCleaner.liveCount() > before + 10 && System.nanoTime() < deadline) {
            System.gc()
            Thread.sleep(20)
        }
        live = NativeCleaner.liveCount()
        assertTrue(live <= before + 10, "still live after GC: ${live - before}")
    }

    @Test
    fun consumerKeepRulesNameWhatNativeCodeUses() {
        val rules = javaClass.classLoader.getResourceAsStream("META-INF/proguard/softchat.pro")!!
            .readBytes().toString(Charsets.UTF_8)
        val kept = Regex("-keep class ([\\w.]+)").findAll(rules).map { it.groupValues[1] }.toList()
        assertEquals(listOf("org.softchat.internal.NativeBridge", "org.softchat.SoftchatException"), kept)
        // the names JNI_OnLoad looks up exist, with the natives and the constructors it calls
        val bridge = Class.forName(kept[0])
        assertTrue(bridge.declaredMethods.count { java.lang.reflect.Modifier.isNative(it.modifiers) } >= 40)
        val int = Int::class.javaPrimitiveType
        val bool = Boolean::class.javaPrimitiveType
        Class.forName(kept[1]).getDeclaredConstructor(int, String::class.java)
        Class.forName(kept[1]).getDeclaredConstructor(int, String::class.java, bool, bool)
        assertTrue("<init>(int, java.lang.String);" in rules && "<init>(int, java.lang.String, boolean, boolean);" in rules)
    }

    /**
     * Out of memory in native code is SoftchatException, never OutOfMemoryError: a JVM of its
     * own with a 32 MiB heap (OutOfMemoryChild) fills the heap until even a one-element array
     * fails, so the glue cannot make the exception it means to throw, and calls nip19Decode on
     * invalid text. It must catch SoftchatException: SC_ERR_NOMEM (the one made at load
     * time) or, when the heap had room after all, the real status.
     */
    @Test
    fun outOfMemoryInNativeCodeIsSoftchatException() {
        val javaBin = File(System.getProperty("java.home"), "bin/java").path
        val cmd = mutableListOf(javaBin, "-Xmx32m", "-XX:+UseSerialGC", "-Xint", "-Xcheck:jni")
        for (p in listOf("softchat.jni.path", "java.library.path")) {
            val v = System.getProperty(p)
            if (!v.isNullOrEmpty()) cmd += "-D$p=$v"
        }
        cmd += listOf("-cp", System.getProperty("java.class.path"), OutOfMemoryChild::class.java.name, "3")
        val log = File.createTempFile("softchat-oom", ".txt")
        try {
            val p = ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log).start()
            // a bound against a hung child only, not a timing check
            if (!p.waitFor(5, TimeUnit.MINUTES)) {
                p.destroyForcibly()
                fail<Unit>("the child JVM did not finish")
            }
            val out = log.readText()
            assertEquals(0, p.exitValue(), out)
            assertFalse("WARNING in native method" in out, "-Xcheck:jni: $out")
            val rounds = out.lines().filter { it.startsWith("round ") }.map { it.split(' ') }
            assertEquals(4, rounds.size, out)
            // with memory to spare: the function's real status
            assertEquals(listOf("round", "0", SoftchatException::class.java.name, "SC_ERR_BECH32", "false"), rounds[0], out)
            for (r in rounds.drop(1)) {
                assertEquals(SoftchatException::class.java.name, r[2], out)
                assertTrue(r[3] == "SC_ERR_NOMEM" || r[3] == "SC_ERR_BECH32", out)
            }
            // the heap was full at least once when native code threw (every round, here)
            assertTrue(rounds.drop(1).any { it[3] == "SC_ERR_NOMEM" && it[4] == "true" }, out)
        } finally {
            log.delete()
        }
    }

    @Test
    fun everyBackend() {
        val backends = Softchat.backends()
        assertTrue(backends.isNotEmpty())
        for (name in backends) {
            Softchat.open(name).use { s ->
                assertEquals(name, s.backend)
                s.generateIdentity().use { a ->
                    Softchat.default().generateIdentity().use { b ->
                        // identities are not tied to a backend; payloads interoperate
                        assertEquals("x\u0000y", b.nip44Decrypt(a.publicKey, a.nip44Encrypt(b.publicKey, "x\u0000y")))
                        val ev = a.sign(1, 1, emptyList(), name)
                        assertEquals(ev.id, s.parseEvent(ev.json).id)
                        val w = a.sendMessage(listOf(Receiver(b.publicKey)), name, 1)
                        b.receive(w[0].json).use { assertEquals(name, it.content) }
                    }
                }
            }
        }
    }
}
