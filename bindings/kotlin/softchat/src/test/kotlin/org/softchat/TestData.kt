package org.softchat

import com.google.gson.JsonElement
import com.google.gson.JsonObject
import com.google.gson.JsonParser
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.fail
import java.io.File
import java.security.MessageDigest

/** The test data of the repository (vectors/, vectors/upstream/) and small helpers. */
object TestData {
    val dir: File = File(System.getProperty("softchat.vectors.dir") ?: "../../../vectors")

    fun json(name: String): JsonObject = File(dir, name).reader(Charsets.UTF_8).use {
        JsonParser.parseReader(it).asJsonObject
    }

    fun lines(name: String): List<String> = File(dir, name).readLines(Charsets.UTF_8)

    fun hex(s: String): ByteArray {
        require(s.length % 2 == 0)
        return ByteArray(s.length / 2) { ((Character.digit(s[2 * it], 16) shl 4) or Character.digit(s[2 * it + 1], 16)).toByte() }
    }

    fun hex(b: ByteArray): String = b.joinToString("") { "%02x".format(it.toInt() and 0xff) }

    fun sha256(b: ByteArray): String = hex(MessageDigest.getInstance("SHA-256").digest(b))

    val JsonElement.str: String get() = asString
    operator fun JsonObject.invoke(k: String): String = get(k).asString

    /** Runs block and checks it throws SoftchatException with the given status name. */
    fun expectStatus(name: String, what: String, block: () -> Unit) {
        try {
            block()
        } catch (e: SoftchatException) {
            assertEquals(name, e.statusName, what)
            assertEquals(Softchat.statusName(e.status), e.statusName, "$what: code and name agree")
            return
        }
        fail<Unit>("$what: no exception, expected $name")
    }

    /** Runs block and returns the status name it threw (fails when it does not throw). */
    fun statusOf(what: String, block: () -> Unit): String {
        try {
            block()
        } catch (e: SoftchatException) {
            return e.statusName
        }
        fail<Unit>("$what: no exception")
        return ""
    }
}
