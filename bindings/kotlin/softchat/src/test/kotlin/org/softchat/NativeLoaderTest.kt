package org.softchat

import org.junit.jupiter.api.Assertions.assertArrayEquals
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertFalse
import org.junit.jupiter.api.Assertions.assertThrows
import org.junit.jupiter.api.Assertions.assertTrue
import org.junit.jupiter.api.Test
import org.softchat.internal.NativeExtractor
import org.softchat.internal.NativeLoader
import java.io.ByteArrayInputStream
import java.io.File
import java.nio.file.Files
import java.nio.file.Path
import java.nio.file.attribute.PosixFilePermissions
import java.security.MessageDigest

/** How the jar finds its native library: the bundled copy, its digest, the private folder. */
class NativeLoaderTest {
    private fun sha(b: ByteArray) = MessageDigest.getInstance("SHA-256").digest(b)

    @Test
    fun `the tests load the library named by softchat jni path`() {
        Softchat.version()
        assertEquals("property", NativeLoader.how)
        assertEquals("linux-x86_64", NativeLoader.platform(), "these tests run on Linux x86-64")
    }

    @Test
    fun `the build packages this CPU's library with its recorded digest`() {
        val platform = NativeLoader.platform()!!
        assertTrue(NativeExtractor.has(platform), "no org/softchat/native/$platform in the classes (bindings/kotlin/mvn.sh stages it)")
        val lib = javaClass.getResourceAsStream("/org/softchat/native/$platform/libsoftchat_jni.so")!!.use { it.readBytes() }
        val recorded = javaClass.getResourceAsStream("/org/softchat/native/$platform/libsoftchat_jni.so.sha256")!!
            .use { String(it.readBytes(), Charsets.US_ASCII) }.substringBefore(' ')
        assertEquals(TestData.hex(sha(lib)), recorded)
        assertTrue(lib.size > 4 && lib[0] == 0x7f.toByte() && lib[1] == 'E'.code.toByte(), "an ELF file")
    }

    @Test
    fun `extraction writes into a private folder, loads the checked file and leaves nothing`() {
        val bytes = ByteArray(100_000) { (it * 31).toByte() }
        var seen: Path? = null
        NativeExtractor.load(ByteArrayInputStream(bytes), sha(bytes)) { path ->
            val p = Path.of(path)
            seen = p
            assertArrayEquals(bytes, Files.readAllBytes(p))
            assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(p.parent)))
            assertTrue(p.parent.fileName.toString().startsWith("softchat-jni-"))
        }
        val p = seen!!
        assertFalse(Files.exists(p), "the extracted file is deleted after loading")
        assertFalse(Files.exists(p.parent), "and its folder")
    }

    @Test
    fun `a library that does not match its recorded digest is never loaded`() {
        val bytes = ByteArray(4096) { it.toByte() }
        val recorded = sha(bytes)
        bytes[1000] = (bytes[1000].toInt() xor 1).toByte()
        val before = tmpFolders()
        val e = assertThrows(UnsatisfiedLinkError::class.java) {
            NativeExtractor.load(ByteArrayInputStream(bytes), recorded) { throw AssertionError("loaded $it") }
        }
        assertTrue(e.message!!.contains("does not match its recorded SHA-256"), e.message)
        assertEquals(before, tmpFolders(), "nothing is left in the temporary folder")
    }

    private fun tmpFolders(): Set<String> =
        File(System.getProperty("java.io.tmpdir")).list { _, n -> n.startsWith("softchat-jni-") }?.toSet() ?: emptySet()
}
