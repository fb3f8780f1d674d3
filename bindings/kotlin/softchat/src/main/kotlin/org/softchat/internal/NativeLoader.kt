package org.softchat.internal

/**
 * Finds and loads libsoftchat_jni, once (NativeBridge's initializer), in this order:
 *
 * 1. the system property "softchat.jni.path", when set: that file, as it is (the override);
 * 2. on Android: System.loadLibrary("softchat_jni"), which finds lib/<abi>/ in the APK;
 * 3. on a desktop JVM: the library this jar carries for the running OS and CPU
 *    (org/softchat/native/linux-x86_64/ or linux-aarch64/), extracted and checked by
 *    [NativeExtractor] (a private temporary folder, the SHA-256 recorded at build time
 *    checked on the file as written, loaded, then deleted);
 * 4. otherwise System.loadLibrary("softchat_jni") (java.library.path), and when that fails
 *    an UnsatisfiedLinkError that says what was tried.
 */
internal object NativeLoader {
    const val PROPERTY = "softchat.jni.path"
    const val NAME = "softchat_jni"

    /** How the library was found ("property", "android", "bundled linux-x86_64", "system"). */
    @Volatile var how: String = "not loaded"
        private set

    fun load() {
        val path = System.getProperty(PROPERTY)
        if (!path.isNullOrEmpty()) {
            System.load(path)
            how = "property"
            return
        }
        if (isAndroid()) {
            System.loadLibrary(NAME)
            how = "android"
            return
        }
        val platform = platform()
        if (platform != null && NativeExtractor.has(platform)) {
            NativeExtractor.load(platform)
            how = "bundled $platform"
            return
        }
        try {
            System.loadLibrary(NAME)
            how = "system"
        } catch (e: UnsatisfiedLinkError) {
            val what = platform ?: "${System.getProperty("os.name")}/${System.getProperty("os.arch")}"
            val err = UnsatisfiedLinkError(
                "libsoftchat_jni: this jar carries no library for $what, and none is on " +
                    "java.library.path; name one with -D$PROPERTY=FILE (${e.message})",
            )
            err.initCause(e)
            throw err
        }
    }

    /** ART (and Dalvik) call themselves Dalvik; their vendor is the Android Project. */
    private fun isAndroid(): Boolean =
        System.getProperty("java.vm.name") == "Dalvik" ||
            System.getProperty("java.vendor")?.contains("Android") == true

    /** "linux-x86_64", "linux-aarch64", or null for a platform no jar carries. */
    internal fun platform(): String? {
        val os = System.getProperty("os.name") ?: return null
        if (!os.startsWith("Linux")) return null
        return when (System.getProperty("os.arch")) {
            "amd64", "x86_64" -> "linux-x86_64"
            "aarch64", "arm64" -> "linux-aarch64"
            else -> null
        }
    }
}
