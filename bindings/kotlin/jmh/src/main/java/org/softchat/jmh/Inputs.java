package org.softchat.jmh;

import java.nio.charset.StandardCharsets;

/** The inputs every side gets, fixed and shared: keys, plaintexts, events. */
final class Inputs {
    private Inputs() {}

    /** Secret key number i: a fixed byte pattern of i, its first byte 0x3c (below the order). */
    static byte[] secret(int i) {
        byte[] k = new byte[32];
        for (int j = 0; j < 32; j++) {
            k[j] = (byte) (0x11 * (j % 7) + 3 * i + j);
        }
        k[0] = 0x3c; // well below the curve order
        return k;
    }

    static final byte[] ALICE = secret(1);
    static final byte[] BOB = secret(2);

    /** An ASCII text of n bytes. */
    static String text(int n) {
        StringBuilder b = new StringBuilder(n);
        for (int i = 0; i < n; i++) {
            b.append((char) ('a' + i % 26));
        }
        return b.toString();
    }

    static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
