package org.softchat.jmh;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import java.io.File;
import java.io.FileReader;
import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import org.softchat.Nip44Conversation;
import org.softchat.Softchat;
import org.softchat.SoftchatIdentity;

/**
 * The gate before any timing: a side must pass the official NIP-44 v2 vectors
 * (vectors/upstream/nip44.vectors.json: conversation keys, encrypt/decrypt with the vector's
 * nonce where the side exposes it, and every invalid payload refused) or its benchmarks do
 * not run. The directory comes from -Dsoftchat.vectors.dir.
 */
final class Nip44Vectors {
    private Nip44Vectors() {}

    private static final HexFormat HEX = HexFormat.of();

    static JsonObject load() {
        File f = new File(System.getProperty("softchat.vectors.dir", "vectors"), "upstream/nip44.vectors.json");
        try (Reader r = new FileReader(f, StandardCharsets.UTF_8)) {
            return JsonParser.parseReader(r).getAsJsonObject().getAsJsonObject("v2");
        } catch (IOException e) {
            throw new IllegalStateException("NIP-44 vectors not found: " + f, e);
        }
    }

    private static byte[] h(JsonObject o, String k) {
        return HEX.parseHex(o.get(k).getAsString());
    }

    private static void check(boolean ok, String what) {
        if (!ok) {
            throw new IllegalStateException("NIP-44 vector failed: " + what);
        }
    }

    /** Bouncy Castle baseline. Returns the number of cases passed. */
    static int checkBouncyCastle() {
        JsonObject v2 = load();
        int n = 0;
        for (JsonElement e : v2.getAsJsonObject("valid").getAsJsonArray("get_conversation_key")) {
            JsonObject o = e.getAsJsonObject();
            check(java.util.Arrays.equals(BcNip44.conversationKey(h(o, "sec1"), h(o, "pub2")), h(o, "conversation_key")), o.toString());
            n++;
        }
        for (JsonElement e : v2.getAsJsonObject("valid").getAsJsonArray("encrypt_decrypt")) {
            JsonObject o = e.getAsJsonObject();
            byte[] ck = h(o, "conversation_key");
            String pt = o.get("plaintext").getAsString();
            String payload = o.get("payload").getAsString();
            check(BcNip44.encrypt(ck, h(o, "nonce"), pt.getBytes(StandardCharsets.UTF_8)).equals(payload), o.toString());
            check(BcNip44.decrypt(ck, payload).equals(pt), o.toString());
            check(java.util.Arrays.equals(BcNip44.conversationKey(h(o, "sec2"), BcNip44.publicKey(h(o, "sec1"))), ck), o.toString());
            n++;
        }
        for (JsonElement e : v2.getAsJsonObject("invalid").getAsJsonArray("decrypt")) {
            JsonObject o = e.getAsJsonObject();
            boolean refused;
            try {
                BcNip44.decrypt(h(o, "conversation_key"), o.get("payload").getAsString());
                refused = false;
            } catch (RuntimeException ex) {
                refused = true;
            }
            check(refused, "accepted: " + o);
            n++;
        }
        return n;
    }

    /** The facade (the same cases through its public API). Returns the cases passed. */
    static int checkSoftchat(Softchat sc) {
        JsonObject v2 = load();
        int n = 0;
        for (JsonElement e : v2.getAsJsonObject("valid").getAsJsonArray("encrypt_decrypt")) {
            JsonObject o = e.getAsJsonObject();
            String pt = o.get("plaintext").getAsString();
            String payload = o.get("payload").getAsString();
            try (SoftchatIdentity a = sc.importIdentity(h(o, "sec1")); SoftchatIdentity b = sc.importIdentity(h(o, "sec2"));
                 Nip44Conversation c = Nip44Conversation.fromKey(h(o, "conversation_key"), sc)) {
                check(b.nip44Decrypt(a.getPublicKey(), payload).equals(pt), o.toString());
                check(a.nip44Decrypt(b.getPublicKey(), payload).equals(pt), o.toString());
                check(c.decrypt(payload).equals(pt), o.toString());
                check(b.nip44Decrypt(a.getPublicKey(), a.nip44Encrypt(b.getPublicKey(), pt)).equals(pt), o.toString());
            }
            n++;
        }
        for (JsonElement e : v2.getAsJsonObject("invalid").getAsJsonArray("decrypt")) {
            JsonObject o = e.getAsJsonObject();
            boolean refused;
            try (Nip44Conversation c = Nip44Conversation.fromKey(h(o, "conversation_key"), sc)) {
                c.decrypt(o.get("payload").getAsString());
                refused = false;
            } catch (RuntimeException ex) {
                refused = true;
            }
            check(refused, "accepted: " + o);
            n++;
        }
        return n;
    }
}
