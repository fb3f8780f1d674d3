package org.softchat

import org.softchat.internal.NativeBridge

/**
 * Every failure of the SDK: [status] is the library's frozen sc_status value and
 * [statusName] its stable name, e.g. "SC_ERR_MAC" for a NIP-44 payload that does not
 * authenticate, "SC_ERR_TOO_LARGE" for an input over a cap, "SC_ERR_NOMEM" when memory ran
 * out, "SC_ERR_STATE" for an erased identity or a closed instance, "SC_ERR_ARG" for a key of
 * the wrong length. Hostile input never surfaces as another exception or an Error.
 */
class SoftchatException @JvmOverloads internal constructor(
    val status: Int,
    statusName: String? = null,
    cause: Throwable? = null,
) : RuntimeException(null, cause) {
    /** The stable name of [status] (names never change once released). */
    val statusName: String = statusName ?: nameOf(status)

    override val message: String get() = statusName

    companion object {
        const val SC_ERR_ARG = -1
        const val SC_ERR_STATE = -3
        const val SC_ERR_TOO_LARGE = -4
        const val SC_ERR_RUMOR_AUTHOR = -70
        const val SC_ERR_NOMEM = -83
        const val SC_ERR_IO = -85

        private fun nameOf(code: Int): String = try {
            String(NativeBridge.statusName(code), Charsets.US_ASCII)
        } catch (_: Throwable) {
            "SC_STATUS_$code"
        }
    }
}
