package org.softchat.core;

/**
 * The libsoftchat JNI binding: loads the native library and answers questions that need no
 * context. Keys travel as {@code byte[]} (never as {@code String}); the native side copies them
 * out of the Java array and wipes its copy before returning. Text crosses the boundary as UTF-8
 * bytes, so content with U+0000 or characters outside the BMP is carried exactly.
 */
public final class Softchat {
    static {
        System.loadLibrary("softchat_jni");
    }

    private Softchat() {}

    /** Runs the static initializer (loads the library); called by every class with natives. */
    static void load() {}

    /** Names of the backends compiled into the library, the default first. */
    public static native String[] backends();

    /** The stable name of a status code, e.g. {@code "SC_ERR_MAC"}. */
    public static native String statusName(int status);

    /** A one-line description of a status code. */
    public static native String statusText(int status);
}
