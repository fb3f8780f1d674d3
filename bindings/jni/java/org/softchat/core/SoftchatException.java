package org.softchat.core;

/**
 * A libsoftchat call failed: {@link #status} is the library's status code (negative, values
 * frozen) and {@link #name} its stable name, e.g. {@code SC_ERR_MAC} for a NIP-44 payload that
 * does not authenticate.
 */
public final class SoftchatException extends Exception {
    private static final long serialVersionUID = 1L;

    /** The sc_status value. */
    public final int status;
    /** The stable name of the status, e.g. {@code "SC_ERR_INVALID_KEY"}. */
    public final String name;

    SoftchatException(int status, String name, String text) {
        super(name + ": " + text);
        this.status = status;
        this.name = name;
    }
}
