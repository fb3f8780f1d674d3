package org.softchat.core;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * The JNI binding's test, run once per compiled backend (ctest bindings.jni.BACKEND): every
 * native method, its failures (status names, argument checks, a closed context) and the bytes
 * that cross the boundary (keys, UTF-8 with U+0000 and non-BMP characters).
 */
public final class BindingTest {
    private static int checks;

    private static void check(boolean ok, String what) {
        checks++;
        if (!ok) {
            throw new AssertionError(what);
        }
    }

    private interface Call {
        void run() throws Exception;
    }

    private static void expectStatus(String name, String what, Call c) throws Exception {
        try {
            c.run();
        } catch (SoftchatException e) {
            check(e.name.equals(name), what + ": " + e.name + ", expected " + name);
            check(Softchat.statusName(e.status).equals(e.name), what + ": status code and name");
            return;
        }
        check(false, what + ": no exception, expected " + name);
    }

    private static void expect(Class<? extends RuntimeException> type, String what, Call c)
            throws Exception {
        try {
            c.run();
        } catch (RuntimeException e) {
            check(type.isInstance(e), what + ": " + e + ", expected " + type.getSimpleName());
            return;
        }
        check(false, what + ": no exception, expected " + type.getSimpleName());
    }

    private static byte[] hex(String s) {
        byte[] b = new byte[s.length() / 2];
        for (int i = 0; i < b.length; i++) {
            b[i] = (byte) Integer.parseInt(s.substring(2 * i, 2 * i + 2), 16);
        }
        return b;
    }

    private static String hex(byte[] b) {
        StringBuilder s = new StringBuilder();
        for (byte x : b) {
            s.append(String.format("%02x", x & 0xff));
        }
        return s.toString();
    }

    private static byte[] key(int last) {
        byte[] k = new byte[32];
        k[30] = 0x5a;
        k[31] = (byte) last;
        return k;
    }

    public static void main(String[] args) throws Exception {
        String backend = args[0];
        check(Arrays.asList(Softchat.backends()).contains(backend), "registry lists " + backend);
        check(Softchat.statusName(0).equals("SC_OK"), "status 0 is SC_OK");
        expectStatus("SC_ERR_NOT_FOUND", "unknown backend", () -> new Context("no-such"));

        Context ctx = new Context(backend);
        Context other = new Context(); /* the default backend, side by side */
        check(ctx.backend().equals(backend), "context binds " + backend);

        /* identity: BIP-340 test vector 0 (secret key 3) */
        byte[] three = new byte[32];
        three[31] = 3;
        check(hex(ctx.publicKey(three)).equals(
                      "f9308a019258c31049344f85f89d5229b531c845836f99b08601f113bce036f9"),
              "public key of secret 3");
        expectStatus("SC_ERR_INVALID_KEY", "secret key 0", () -> ctx.publicKey(new byte[32]));
        expectStatus("SC_ERR_INVALID_KEY", "secret key n",
                     () -> ctx.publicKey(hex("fffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141")));
        expect(IllegalArgumentException.class, "31-byte key", () -> ctx.publicKey(new byte[31]));
        expect(IllegalArgumentException.class, "null key", () -> ctx.publicKey(null));

        byte[] alice = key(1), bob = key(2), carol = key(3);
        byte[] alicePub = ctx.publicKey(alice), bobPub = ctx.publicKey(bob);
        byte[] carolPub = ctx.publicKey(carol);

        /* NIP-44: round trip across two contexts, exact bytes, failures by status */
        byte[] plain = "hi \u0000 \uD83D\uDE00 end".getBytes(StandardCharsets.UTF_8);
        String payload = ctx.nip44Encrypt(alice, bobPub, plain);
        check(Arrays.equals(other.nip44Decrypt(bob, alicePub, payload), plain), "nip44 round trip");
        check(!payload.equals(ctx.nip44Encrypt(alice, bobPub, plain)), "fresh nonce per call");
        char[] t = payload.toCharArray();
        t[60] = t[60] == 'A' ? 'B' : 'A';
        String tampered = new String(t);
        expectStatus("SC_ERR_MAC", "tampered payload", () -> ctx.nip44Decrypt(bob, alicePub, tampered));
        expectStatus("SC_ERR_MAC", "wrong receiver", () -> ctx.nip44Decrypt(carol, alicePub, payload));
        expectStatus("SC_ERR_BASE64", "not base64",
                     () -> ctx.nip44Decrypt(bob, alicePub, payload.replace(payload.charAt(70), '!')));
        expectStatus("SC_ERR_EMPTY", "empty plaintext", () -> ctx.nip44Encrypt(alice, bobPub, new byte[0]));
        expectStatus("SC_ERR_POLICY", "65536-byte plaintext",
                     () -> ctx.nip44Encrypt(alice, bobPub, new byte[65536]));
        check(ctx.nip44Decrypt(bob, alicePub, ctx.nip44Encrypt(alice, bobPub, new byte[65535])).length
                      == 65535, "largest plaintext");
        byte[] offCurve = new byte[32];
        offCurve[31] = 5; /* x = 5: no point on the curve */
        expectStatus("SC_ERR_INVALID_KEY", "peer off the curve",
                     () -> ctx.nip44Encrypt(alice, offCurve, plain));

        /* NIP-01: sign and verify, and a tampered event */
        String ev = ctx.signEvent(alice, 1, 1700000000L,
                                  new String[][] {{"p", hex(bobPub)}, {"t", "\uD83D\uDE00"}},
                                  "hello \u0000 world");
        check(ev.contains("\"pubkey\":\"" + hex(alicePub) + "\""), "event pubkey");
        check(ev.contains("\"kind\":1,"), "event kind");
        check(ev.contains("\\u0000"), "U+0000 escaped in the JSON");
        other.verifyEvent(ev);
        expectStatus("SC_ERR_ID_MISMATCH", "content changed after signing",
                     () -> ctx.verifyEvent(ev.replace("hello", "jello")));
        expectStatus("SC_ERR_EVENT_RANGE", "kind 65536",
                     () -> ctx.signEvent(alice, 65536, 1L, null, ""));
        expect(IllegalArgumentException.class, "null tag item",
               () -> ctx.signEvent(alice, 1, 1L, new String[][] {{"p", null}}, ""));

        /* NIP-17: one wrap per receiver, then the sender's copy; each opens only for its owner */
        String text = "lunch? \uD83C\uDF5C \u0000";
        String[] wraps = ctx.sendChat(alice, new byte[][] {bobPub, carolPub}, text, 1700000000L);
        check(wraps.length == 3, "two receivers and the sender's copy");
        byte[][] owners = {bob, carol, alice};
        for (int i = 0; i < 3; i++) {
            Message m = other.receive(owners[i], wraps[i]);
            check(m.kind == 14 && m.createdAt == 1700000000L, "rumor kind and time");
            check(m.content.equals(text), "content exact");
            check(Arrays.equals(m.sender, alicePub), "sender is the seal signer");
            check(m.room.length == 3 && Arrays.equals(m.room[0], alicePub)
                          && Arrays.equals(m.room[1], bobPub) && Arrays.equals(m.room[2], carolPub),
                  "room: sender, then receivers");
            check(m.rumorJson.contains("\"kind\":14"), "rumor JSON");
            check(!m.rumorJson.contains("\"sig\""), "rumor unsigned");
        }
        expectStatus("SC_ERR_WRAP_DECRYPT", "wrap for someone else",
                     () -> ctx.receive(bob, wraps[1]));
        String[] selfWraps = ctx.sendChat(alice, new byte[][] {bobPub, alicePub}, "x", 1700000000L);
        check(selfWraps.length == 2, "no extra copy when the sender is a receiver");
        expectStatus("SC_ERR_MESSAGE", "no receiver",
                     () -> ctx.sendChat(alice, new byte[0][], "x", 1700000000L));

        ctx.close();
        ctx.close(); /* idempotent */
        expect(IllegalStateException.class, "closed context", () -> ctx.publicKey(alice));
        other.close();
        System.out.println("bindings.jni " + backend + ": " + checks + " checks passed");
    }
}
