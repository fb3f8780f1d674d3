package org.softchat.jmh;

import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.Base64;
import org.bouncycastle.asn1.x9.X9ECParameters;
import org.bouncycastle.crypto.digests.SHA256Digest;
import org.bouncycastle.crypto.ec.CustomNamedCurves;
import org.bouncycastle.crypto.engines.ChaCha7539Engine;
import org.bouncycastle.crypto.generators.HKDFBytesGenerator;
import org.bouncycastle.crypto.macs.HMac;
import org.bouncycastle.crypto.params.HKDFParameters;
import org.bouncycastle.crypto.params.KeyParameter;
import org.bouncycastle.crypto.params.ParametersWithIV;
import org.bouncycastle.math.ec.ECPoint;
import org.bouncycastle.util.Arrays;

/**
 * The Bouncy Castle baseline of NIP-44 v2, standing in for a pure-Kotlin SDK: every primitive
 * is Bouncy Castle's (secp256k1 point multiplication of its custom curve, HMAC-SHA256, HKDF,
 * ChaCha20 of RFC 8439); only the NIP-44 construction (padding, layout, checks) is written
 * here, after the spec. The payload is base64 of java.util.Base64.
 */
final class BcNip44 {
    private static final X9ECParameters CURVE = CustomNamedCurves.getByName("secp256k1");
    private static final byte[] SALT = "nip44-v2".getBytes(StandardCharsets.US_ASCII);
    private static final SecureRandom RNG = new SecureRandom();

    private BcNip44() {}

    /** The x-only public key of sec (import). */
    static byte[] publicKey(byte[] sec) {
        ECPoint p = CURVE.getG().multiply(new BigInteger(1, sec)).normalize();
        return p.getAffineXCoord().getEncoded();
    }

    /** conversation_key = HKDF-extract("nip44-v2", x(sec * lift_x(pub))). */
    static byte[] conversationKey(byte[] sec, byte[] pub) {
        byte[] enc = new byte[33];
        enc[0] = 2;
        System.arraycopy(pub, 0, enc, 1, 32);
        ECPoint p = CURVE.getCurve().decodePoint(enc).multiply(new BigInteger(1, sec)).normalize();
        byte[] x = p.getAffineXCoord().getEncoded();
        HMac mac = new HMac(new SHA256Digest());
        mac.init(new KeyParameter(SALT));
        mac.update(x, 0, 32);
        byte[] ck = new byte[32];
        mac.doFinal(ck, 0);
        Arrays.fill(x, (byte) 0);
        return ck;
    }

    static int paddedLen(int len) {
        if (len <= 32) {
            return 32;
        }
        int next = Integer.highestOneBit(len - 1) << 1;
        int chunk = next <= 256 ? 32 : next / 8;
        return chunk * ((len - 1) / chunk + 1);
    }

    private static byte[] keys(byte[] ck, byte[] nonce) {
        HKDFBytesGenerator h = new HKDFBytesGenerator(new SHA256Digest());
        h.init(HKDFParameters.skipExtractParameters(ck, nonce));
        byte[] k = new byte[76];
        h.generateBytes(k, 0, 76);
        return k;
    }

    private static void chacha(byte[] k, byte[] in, int off, int len, byte[] out, int outOff) {
        ChaCha7539Engine c = new ChaCha7539Engine();
        c.init(true, new ParametersWithIV(new KeyParameter(k, 0, 32), k, 32, 12));
        c.processBytes(in, off, len, out, outOff);
    }

    private static void hmac(byte[] k, byte[] data, int off, int len, byte[] out, int outOff) {
        HMac mac = new HMac(new SHA256Digest());
        mac.init(new KeyParameter(k, 44, 32));
        mac.update(data, off, len);
        mac.doFinal(out, outOff);
    }

    static String encrypt(byte[] ck, String plaintext) {
        byte[] nonce = new byte[32];
        RNG.nextBytes(nonce);
        return encrypt(ck, nonce, plaintext.getBytes(StandardCharsets.UTF_8));
    }

    static String encrypt(byte[] ck, byte[] nonce, byte[] pt) {
        int len = pt.length;
        if (len < 1 || len > 65535) {
            throw new IllegalArgumentException("invalid plaintext length");
        }
        byte[] k = keys(ck, nonce);
        int padded = paddedLen(len);
        byte[] buf = new byte[2 + padded];
        buf[0] = (byte) (len >>> 8);
        buf[1] = (byte) len;
        System.arraycopy(pt, 0, buf, 2, len);
        byte[] out = new byte[1 + 32 + buf.length + 32];
        out[0] = 2;
        System.arraycopy(nonce, 0, out, 1, 32);
        chacha(k, buf, 0, buf.length, out, 33);
        hmac(k, out, 1, 32 + buf.length, out, 33 + buf.length);
        Arrays.fill(k, (byte) 0);
        Arrays.fill(buf, (byte) 0);
        return Base64.getEncoder().encodeToString(out);
    }

    static String decrypt(byte[] ck, String payload) {
        byte[] pt = decryptBytes(ck, payload);
        String s = new String(pt, StandardCharsets.UTF_8);
        Arrays.fill(pt, (byte) 0);
        return s;
    }

    static byte[] decryptBytes(byte[] ck, String payload) {
        int plen = payload.length();
        if (plen == 0 || payload.charAt(0) == '#') {
            throw new IllegalArgumentException("unknown version");
        }
        if (plen < 132 || plen > 87472) {
            throw new IllegalArgumentException("invalid payload size");
        }
        byte[] data = Base64.getDecoder().decode(payload);
        if (data.length < 99 || data.length > 65603) {
            throw new IllegalArgumentException("invalid data size");
        }
        if (data[0] != 2) {
            throw new IllegalArgumentException("unknown version");
        }
        byte[] nonce = java.util.Arrays.copyOfRange(data, 1, 33);
        byte[] k = keys(ck, nonce);
        int ctLen = data.length - 65;
        byte[] mac = new byte[32];
        hmac(k, data, 1, 32 + ctLen, mac, 0);
        if (!Arrays.constantTimeAreEqual(32, mac, 0, data, data.length - 32)) {
            Arrays.fill(k, (byte) 0);
            throw new IllegalArgumentException("invalid MAC");
        }
        byte[] padded = new byte[ctLen];
        chacha(k, data, 33, ctLen, padded, 0);
        Arrays.fill(k, (byte) 0);
        int len = ((padded[0] & 0xff) << 8) | (padded[1] & 0xff);
        if (len < 1 || len > 65535 || padded.length != 2 + paddedLen(len)) {
            Arrays.fill(padded, (byte) 0);
            throw new IllegalArgumentException("invalid padding");
        }
        byte[] pt = java.util.Arrays.copyOfRange(padded, 2, 2 + len);
        Arrays.fill(padded, (byte) 0);
        return pt;
    }
}
