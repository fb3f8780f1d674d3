package org.softchat.core;

import java.nio.charset.StandardCharsets;

/**
 * A libsoftchat context bound to one crypto backend. Every method runs on the context's
 * backend; the methods are synchronized because a native context is used by one thread at a
 * time (make one context per thread for parallel work). {@link #close} wipes and frees it.
 *
 * <p>Secret keys are 32-byte arrays; the caller owns and should wipe them. Failures throw
 * {@link SoftchatException} carrying the library's status; a closed context throws
 * {@link IllegalStateException}; a null argument or a key of the wrong length throws
 * {@link IllegalArgumentException}.
 */
public final class Context implements AutoCloseable {
    static {
        Softchat.load();
    }

    private long handle;

    /** A context on the default backend. */
    public Context() throws SoftchatException {
        this(null);
    }

    /** A context on the named compiled backend ({@code null} for the default). */
    public Context(String backend) throws SoftchatException {
        handle = open(backend == null ? null : backend.getBytes(StandardCharsets.UTF_8));
    }

    /** The name of the bound backend. */
    public synchronized String backend() {
        return backendName(live());
    }

    /** The x-only public key (32 bytes) of a secret key. */
    public synchronized byte[] publicKey(byte[] secretKey) throws SoftchatException {
        return publicKey0(live(), secretKey);
    }

    /**
     * Signs a new event by {@code secretKey} and returns it as one line of JSON.
     *
     * @param tags each tag's strings ({@code null} for none)
     */
    public synchronized String signEvent(byte[] secretKey, int kind, long createdAt,
                                         String[][] tags, String content)
            throws SoftchatException {
        byte[][][] t = new byte[tags == null ? 0 : tags.length][][];
        for (int i = 0; i < t.length; i++) {
            t[i] = new byte[tags[i].length][];
            for (int j = 0; j < t[i].length; j++) {
                t[i][j] = utf8(tags[i][j]);
            }
        }
        return text(signEvent0(live(), secretKey, kind, createdAt, t, utf8(content)));
    }

    /** Parses a signed event and checks its id and signature; throws when either fails. */
    public synchronized void verifyEvent(String json) throws SoftchatException {
        verifyEvent0(live(), utf8(json));
    }

    /** NIP-44 v2: encrypts plaintext (1..65535 bytes) from secretKey to peer; base64 payload. */
    public synchronized String nip44Encrypt(byte[] secretKey, byte[] peer, byte[] plaintext)
            throws SoftchatException {
        return text(nip44Encrypt0(live(), secretKey, peer, plaintext));
    }

    /** NIP-44 v2: authenticates, then decrypts a payload from peer to secretKey. */
    public synchronized byte[] nip44Decrypt(byte[] secretKey, byte[] peer, String payload)
            throws SoftchatException {
        return nip44Decrypt0(live(), secretKey, peer, utf8(payload));
    }

    /**
     * NIP-17: a kind 14 chat message from secretKey to the receivers (32-byte public keys),
     * sealed and gift-wrapped for each receiver in order, then for the sender (unless listed).
     *
     * @return one gift wrap (a line of JSON) per receiver, then the sender's copy
     */
    public synchronized String[] sendChat(byte[] secretKey, byte[][] to, String content,
                                          long createdAt) throws SoftchatException {
        byte[][] wraps = sendChat0(live(), secretKey, to, utf8(content), createdAt);
        String[] out = new String[wraps.length];
        for (int i = 0; i < wraps.length; i++) {
            out[i] = text(wraps[i]);
        }
        return out;
    }

    /** NIP-17: unwraps and authenticates a gift wrap addressed to secretKey. */
    public synchronized Message receive(byte[] secretKey, String giftWrapJson)
            throws SoftchatException {
        return receive0(live(), secretKey, utf8(giftWrapJson));
    }

    /** Wipes and frees the native context; later calls throw IllegalStateException. */
    @Override
    public synchronized void close() {
        if (handle != 0) {
            free(handle);
            handle = 0;
        }
    }

    private long live() {
        if (handle == 0) {
            throw new IllegalStateException("the context is closed");
        }
        return handle;
    }

    private static byte[] utf8(String s) {
        if (s == null) {
            throw new IllegalArgumentException("null string");
        }
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static String text(byte[] b) {
        return new String(b, StandardCharsets.UTF_8);
    }

    private static native long open(byte[] backend) throws SoftchatException;

    private static native void free(long ctx);

    private static native String backendName(long ctx);

    private static native byte[] publicKey0(long ctx, byte[] sec) throws SoftchatException;

    private static native byte[] signEvent0(long ctx, byte[] sec, int kind, long createdAt,
                                            byte[][][] tags, byte[] content)
            throws SoftchatException;

    private static native void verifyEvent0(long ctx, byte[] json) throws SoftchatException;

    private static native byte[] nip44Encrypt0(long ctx, byte[] sec, byte[] peer, byte[] plain)
            throws SoftchatException;

    private static native byte[] nip44Decrypt0(long ctx, byte[] sec, byte[] peer, byte[] payload)
            throws SoftchatException;

    private static native byte[][] sendChat0(long ctx, byte[] sec, byte[][] to, byte[] content,
                                             long createdAt) throws SoftchatException;

    private static native Message receive0(long ctx, byte[] sec, byte[] wrap)
            throws SoftchatException;
}
