package org.softchat

import org.softchat.internal.NativeBridge

/**
 * Every failure of the SDK: [status] is the library's frozen sc_status value and
 * [statusName] its stable name, e.g. "SC_ERR_MAC" for a NIP-44 payload that does not
 * authenticate, "SC_ERR_TOO_LARGE" for an input over a cap, "SC_ERR_NOMEM" when memory ran
 * out, "SC_ERR_STATE" for an erased identity or a closed instance, "SC_ERR_ARG" for a key of
 * the wrong length. Hostile input never surfaces as another exception or an Error.
 */
open class SoftchatException : RuntimeException {
    /** The library's sc_status value (frozen once released). */
    val status: Int

    /** The stable name of [status] (names never change once released). */
    val statusName: String

    /** The constructors the SDK throws with (JNI code uses the (int, String) one). */
    @JvmOverloads
    internal constructor(status: Int, statusName: String? = null, cause: Throwable? = null) : super(null, cause) {
        this.status = status
        this.statusName = statusName ?: nameOf(status)
    }

    /**
     * The one instance JNI_OnLoad makes in advance (SC_ERR_NOMEM), which native code throws
     * when memory is too short to make a new exception. Shared by every thread that runs out,
     * so it has no cause, no suppressed exceptions and no stack trace (false, false): nothing
     * about it can change once made.
     */
    @Suppress("unused") // called by native code only
    internal constructor(status: Int, statusName: String, enableSuppression: Boolean, writableStackTrace: Boolean) :
        super(null, null, enableSuppression, writableStackTrace) {
        this.status = status
        this.statusName = statusName
    }

    override val message: String get() = statusName

    companion object {
        const val SC_ERR_ARG = -1
        const val SC_ERR_STATE = -3
        const val SC_ERR_TOO_LARGE = -4
        const val SC_ERR_EMPTY = -8
        const val SC_ERR_ENCODING = -20
        const val SC_ERR_NEGENTROPY = -38
        const val SC_ERR_RELAY_MESSAGE = -40
        const val SC_ERR_RELAY_UNKNOWN = -41
        const val SC_ERR_SUBSCRIPTION = -43
        const val SC_ERR_BECH32 = -22
        const val SC_ERR_MESSAGE = -36
        const val SC_ERR_NO_INBOX = -49
        const val SC_ERR_RUMOR_AUTHOR = -70
        const val SC_ERR_UNSUPPORTED = -82
        const val SC_ERR_NOMEM = -83
        const val SC_ERR_IO = -85
        const val SC_ERR_TIMEOUT = -102

        private fun nameOf(code: Int): String = try {
            String(NativeBridge.statusName(code), Charsets.US_ASCII)
        } catch (_: Throwable) {
            "SC_STATUS_$code"
        }
    }
}
