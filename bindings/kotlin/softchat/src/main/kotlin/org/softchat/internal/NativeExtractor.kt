package org.softchat.internal

import java.io.InputStream
import java.nio.file.Files
import java.nio.file.LinkOption
import java.nio.file.Path
import java.nio.file.StandardOpenOption
import java.nio.file.attribute.PosixFilePermissions
import java.security.MessageDigest

/**
 * Loads the JNI library a jar carries (desktop JVMs only: Android loads from the APK and
 * never reaches this class, which is the facade's one user of java.nio.file).
 *
 * The jar holds org/softchat/native/<platform>/libsoftchat_jni.so and, beside it,
 * libsoftchat_jni.so.sha256: the library's SHA-256, recorded when the jar was built
 * (bindings/kotlin/mvn.sh). Loading:
 *
 * 1. a new folder in java.io.tmpdir, created atomically with a random name and owner-only
 *    permissions (rwx------), so no other user can put or swap a file in it;
 * 2. the library is copied into it, hashed as it is written: a copy whose digest differs from
 *    the recorded one (a damaged or altered jar entry) is never loaded;
 * 3. the file as it lies on disk is read back and hashed again right before System.load, so
 *    what is loaded is what was checked;
 * 4. the file and the folder are deleted after loading (a loaded library stays mapped), so
 *    nothing is left behind in the temporary folder.
 *
 * Any mismatch or I/O failure is an UnsatisfiedLinkError that names the step.
 */
internal object NativeExtractor {
    private const val FILE = "libsoftchat_jni.so"

    private fun resource(platform: String) = "/org/softchat/native/$platform/$FILE"

    fun has(platform: String): Boolean = NativeExtractor::class.java.getResource(resource(platform)) != null

    fun load(platform: String) {
        val expected = recorded(platform)
        val lib = NativeExtractor::class.java.getResourceAsStream(resource(platform))
            ?: throw UnsatisfiedLinkError("libsoftchat_jni: ${resource(platform)} is missing")
        lib.use { load(it, expected, null) }
    }

    /** The SHA-256 recorded beside the library (64 hex digits). */
    private fun recorded(platform: String): ByteArray {
        val name = resource(platform) + ".sha256"
        val text = NativeExtractor::class.java.getResourceAsStream(name)?.use {
            String(it.readBytes(), Charsets.US_ASCII).trim().substringBefore(' ')
        } ?: throw UnsatisfiedLinkError("libsoftchat_jni: $name is missing (the jar records no digest)")
        return Hex.decode(text)?.takeIf { it.size == 32 }
            ?: throw UnsatisfiedLinkError("libsoftchat_jni: $name is not a SHA-256")
    }

    /**
     * Writes lib into a private folder, checks it against expected and loads it with
     * [loader] (System.load when null). Internal for the tests, which pass a loader that
     * records the path and altered bytes that must be refused.
     */
    internal fun load(lib: InputStream, expected: ByteArray, loader: ((String) -> Unit)?) {
        val dir = try {
            Files.createTempDirectory("softchat-jni-", PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")))
        } catch (e: Exception) {
            throw fail("cannot create a private temporary folder", e)
        }
        val file = dir.resolve(FILE)
        try {
            val written = try {
                copy(lib, file)
            } catch (e: Exception) {
                throw fail("cannot write $file", e)
            }
            if (!MessageDigest.isEqual(written, expected)) {
                throw UnsatisfiedLinkError("libsoftchat_jni: the bundled library does not match its recorded SHA-256 (a damaged or altered jar)")
            }
            if (!MessageDigest.isEqual(digest(file), expected)) {
                throw UnsatisfiedLinkError("libsoftchat_jni: $file changed after it was written; not loaded")
            }
            if (loader != null) loader(file.toString()) else System.load(file.toString())
        } finally {
            try {
                Files.deleteIfExists(file)
                Files.deleteIfExists(dir)
            } catch (_: Exception) {
                // a folder that cannot be removed is left to the system's cleaning of tmp
            }
        }
    }

    /** Copies into a new file (never an existing one or a link) and returns the SHA-256. */
    private fun copy(input: InputStream, file: Path): ByteArray {
        val md = MessageDigest.getInstance("SHA-256")
        Files.newOutputStream(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE, LinkOption.NOFOLLOW_LINKS).use { out ->
            val buf = ByteArray(64 * 1024)
            while (true) {
                val n = input.read(buf)
                if (n < 0) break
                md.update(buf, 0, n)
                out.write(buf, 0, n)
            }
        }
        return md.digest()
    }

    private fun digest(file: Path): ByteArray {
        val md = MessageDigest.getInstance("SHA-256")
        Files.newInputStream(file, LinkOption.NOFOLLOW_LINKS).use { input ->
            val buf = ByteArray(64 * 1024)
            while (true) {
                val n = input.read(buf)
                if (n < 0) break
                md.update(buf, 0, n)
            }
        }
        return md.digest()
    }

    private fun fail(what: String, e: Exception): UnsatisfiedLinkError {
        val err = UnsatisfiedLinkError("libsoftchat_jni: $what: ${e.message}")
        err.initCause(e)
        return err
    }
}
